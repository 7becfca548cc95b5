#!/bin/bash
# 2-D marches with `factor` results along x (plain and partial sums) beside the unblocked ones,
# 8192^2 f32, every streaming variant of each stencil (5 work-group sizes each); then the
# explorer's 16 s searches of the radius-4 star and box. Results packed into one archive.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench T=carry/bin/tessera R=/tmp/call1
mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for n in star2d4r box2d4r star2d3r star2d2r box2d3r j2d5pt box2d2r star2d1r; do
  timeout 75 $B --device NVIDIA --only dims=2 --tiles 4x8x16x32x64 $n=8192x8192 > $R/$n.txt 2>&1
  tar czf $OUT/call1.tgz -C $R .
done
for n in star2d4r box2d4r; do
  timeout 40 $T explore $n --size 8192x8192 --device NVIDIA --budget 16 --tuning-db off \
    --json $R/explore-$n.json > $R/explore-$n.txt 2>&1
  tar czf $OUT/call1.tgz -C $R .
done
