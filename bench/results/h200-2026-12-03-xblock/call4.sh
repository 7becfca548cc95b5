#!/bin/bash
# The final binary (aligned vector loads written one component a statement): the partial sums
# blocked along x, along y and along both (512^3, segments of 4 and 8 planes and whole columns),
# the 2-D marches blocked along x (8192^2), then the explorer's 16 s searches. One archive.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench T=carry/bin/tessera R=/tmp/call4
mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for n in star3d4r box3d1r star3d3r; do
  timeout 75 $B --device NVIDIA --only sums=1 --tiles 4x8 $n=512x512x512 > $R/$n.txt 2>&1
  tar czf $OUT/call4.tgz -C $R .
done
for n in star2d4r box2d4r; do
  timeout 40 $B --device NVIDIA --only factor= --tiles 4x8 $n=8192x8192 > $R/$n.txt 2>&1
  tar czf $OUT/call4.tgz -C $R .
done
for n in star3d4r=512x512x512 box3d1r=512x512x512 star3d2r=512x512x512 box2d4r=8192x8192; do
  timeout 35 $T explore ${n%%=*} --size ${n#*=} --device NVIDIA --budget 16 --tuning-db off \
    --json $R/explore-${n%%=*}.json > $R/explore-${n%%=*}.txt 2>&1
  tar czf $OUT/call4.tgz -C $R .
done
