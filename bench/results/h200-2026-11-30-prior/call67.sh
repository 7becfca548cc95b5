#!/usr/bin/env bash
# Call 67 (one H200): issue 32, a short search of the large boxes with partial sums by plane first
# in the prior (tessera_new; kernel caches apart, the driver's off) against the order before (tessera: the same tree without it), 16 s budgets (box3d4r: 60 s), in turn.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
mkdir -p $OUT/r
{
for name in box2d4r box3d2r box3d4r; do
  case $name in *2d*) size=8192x8192 ;; *) size=512x512x512 ;; esac
  BUDGET=16; [ $name = box3d4r ] && BUDGET=60
  for b in tessera tessera_new; do
    echo "== $name $b"
    TESSERA_CACHE_DIR=/tmp/tc-$b CUDA_CACHE_DISABLE=1 timeout 150 $B/$b explore --program carry/programs/$name.json --size $size --device NVIDIA --budget $BUDGET --json $OUT/r/$name-$b.json --tuning-db off > $OUT/r/$name-$b.txt 2>&1
    grep -E "^result|measured .* of about" $OUT/r/$name-$b.txt | cut -c1-300
    grep -E "^      1\. " $OUT/r/$name-$b.txt | cut -c1-300
  done
done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
