#!/usr/bin/env bash
# Call 34 (one H200): work-groups above the kernel's reported maximum (NVIDIA reports 256 for
# every kernel) refused before the launch (tessera-old, main at 7764bbc) or left to the driver
# (tessera, runtime/Launch.cpp KernelLimit::Driver); the same explorations with each binary, in
# turn, in one call; then the work-group probe (carry/wgprobe, /tmp/wgprobe.cpp). Run twice: the
# first run's $OUT held more files than come back (JSON lock files); logs now go into one archive.
rm -rf /tmp/tcache /tmp/runs  # the first run of this call left its cache on the warm machine
source carry/env.sh
R=/tmp/runs && mkdir -p $R
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
carry/wgprobe > $OUT/wgprobe.txt 2>&1
for round in 1 2; do
  for bin in tessera-old tessera; do
    for s in "j2d5pt 8192x8192" "j3d7pt 512x512x512"; do
      set -- $s
      carry/bin/$bin explore $1 --size $2 --device NVIDIA --budget 30 --json $R/$1-$bin-$round.json > $R/$1-$bin-$round.log 2>&1
      echo "$bin $1 round $round rc $?" >> $OUT/summary.txt
      grep -E "^  space:|^result:|^  best  " -A1 $R/$1-$bin-$round.log >> $OUT/summary.txt
    done
  done
done
cp /tmp/tcache/roofline.json $R/ 2>/dev/null
tar czf $OUT/runs.tar.gz -C $R .
