#!/bin/bash
# The partial sums by plane blocked along x (factor=2, 4; rows loaded as aligned vectors) beside
# the unblocked and the y-blocked ones (rows=2, 4, 8), 512^3 f32, segments of 4, 8 and 64 planes
# and whole columns, 5 work-group sizes each. One archive.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench R=/tmp/call3
mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for n in star3d4r star3d3r box3d1r star3d2r; do
  timeout 100 $B --device NVIDIA --only sums=1 --tiles 4x8x64 $n=512x512x512 > $R/$n.txt 2>&1
  tar czf $OUT/call3.tgz -C $R .
done
