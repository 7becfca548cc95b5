#!/bin/bash
# Issue 34: HPGMG-FV 4th order at 512^3, one F-cycle: after (tessera: the faces' own forms, the
# whole form on the edges and corners alone; not kept) and before (tessera-old: e461b9e, the
# whole form on every slab), one NVIDIA GPU. The new binary first: it builds every kernel the old
# one runs (the same sources, kept in the cache directory), so the old one's run is not cut by
# its builds.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
export TESSERA_CACHE_DIR=/tmp/tc
B=$PWD/carry/bin
R=$OUT/log.txt
nvidia-smi -L > $R
for v in new old; do
  bin=$B/tessera; limit=400; [ $v = old ] && bin=$B/tessera-old && limit=170
  extra=""; [ $v = new ] && extra="--timeline $OUT/timeline-new.json"
  echo "######## $v: hpgmg3d --order 4 --size 512 --max-cycles 1" >> $R
  t=$SECONDS
  timeout $limit $bin solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv4-$v.json $extra 2>&1 | grep -vE "^ +[a-z]" | head -30 >> $R
  echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s" >> $R
done
cat $R
