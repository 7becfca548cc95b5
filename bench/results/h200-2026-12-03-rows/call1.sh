#!/bin/bash
# The partial sums by plane with and without register blocking along y (stream-nd rows=c) on the
# large 3-D stencils of issue 32, f32 512^3; every variant compared with the plain lowering.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
timeout 150 $B --device NVIDIA --only sums=1 --tiles 8x16x64 box3d1r=512x512x512 > $OUT/box3d1r.txt 2>&1
timeout 150 $B --device NVIDIA --only sums=1 --tiles 8x16x64 star3d4r=512x512x512 > $OUT/star3d4r.txt 2>&1
timeout 120 $B --device NVIDIA --only sums=1 --tiles 16x64 box3d2r=512x512x512 > $OUT/box3d2r.txt 2>&1
timeout 150 $B --device NVIDIA --only sums=1 --tiles 64 box3d4r=512x512x512 > $OUT/box3d4r.txt 2>&1
