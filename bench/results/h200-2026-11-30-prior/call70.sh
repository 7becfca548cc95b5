#!/usr/bin/env bash
# Call 70 (one H200): issue 32, equal variants family by family in the prior (tessera_new)
# against the order before (tessera_prev: the same tree without it), 30 s explorations, f32, no
# tuning database, kernel caches apart and the driver's off, in turn.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
mkdir -p $OUT/r
for name in star3d2r star3d4r box3d1r j3d7pt j2d5pt; do
  case $name in j2d5pt) size=8192x8192 ;; *) size=512x512x512 ;; esac
  case $name in j*) what=$name ;; *) what="--program carry/programs/$name.json" ;; esac
  for b in tessera_prev tessera_new; do
    echo "== $name $b"
    TESSERA_CACHE_DIR=/tmp/tc-$b CUDA_CACHE_DISABLE=1 timeout 100 $B/$b explore $what --size $size --device NVIDIA --budget 30 --json $OUT/r/$name-$b.json --tuning-db off > $OUT/r/$name-$b.txt 2>&1
    grep -E "^result|measured .* of about" $OUT/r/$name-$b.txt | cut -c1-260
    grep -E "^      1\. " $OUT/r/$name-$b.txt | cut -c1-260
  done
done > $OUT/log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/log.txt
