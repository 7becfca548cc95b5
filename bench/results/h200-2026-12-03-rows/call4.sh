#!/bin/bash
# The 3-D stars of radius 2 and 3 (13 and 19 points, below the GPU's threshold of 25 for the
# partial sums): the blocked sums in segments of 4 and 8 beside the coarsened lowering.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench R=/tmp/call4
mkdir -p $R
for n in star3d2r star3d3r; do
  timeout 150 $B --device NVIDIA --sums-from 13 --only rows=,coarsened --tiles 4x8 $n=512x512x512 > $R/$n.txt 2>&1
  tar czf $OUT/call4.tgz -C $R .
done
