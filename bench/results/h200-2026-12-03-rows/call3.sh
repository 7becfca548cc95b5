#!/bin/bash
# The explorer with the whole columns after the segments (16 s, no database), and every blocked
# partial-sum variant of the radius-4 star; the results packed into one file for the tool.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench T=carry/bin/tessera R=/tmp/call3
mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for n in box3d2r box3d1r star3d4r; do
  timeout 80 $T explore $n --size 512x512x512 --device NVIDIA --budget 16 --tuning-db off \
    --json $R/explore-$n.json > $R/explore-$n.txt 2>&1
  tar czf $OUT/call3.tgz -C $R .
done
timeout 150 $B --device NVIDIA --only rows= --tiles 4x8x16x32x64 star3d4r=512x512x512 > $R/star3d4r.txt 2>&1
tar czf $OUT/call3.tgz -C $R .
