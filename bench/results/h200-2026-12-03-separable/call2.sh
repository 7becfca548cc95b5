#!/bin/bash
# Call 2 (session 39): partial sums by plane offered from 9 window points (tessera-sums9, an
# experiment's build) against the default 28 (tessera), the smaller stars and boxes, in turn.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
L=$OUT/call2.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
run() { # binary name size budget
  echo "== $1 explore $2 $3 budget $4" >> $L
  TESSERA_CACHE_DIR=/tmp/tc-$1 timeout 120 carry/bin/$1 explore $2 --size $3 --device NVIDIA \
    --budget $4 --tuning-db off >> $L 2>&1
  echo "rc $?" >> $L
}
for s in box3d1r star3d4r star3d2r; do
  run tessera-sums9 $s 512x512x512 20
  run tessera $s 512x512x512 20
done
run tessera-sums9 star2d4r 8192x8192 16
run tessera star2d4r 8192x8192 16
