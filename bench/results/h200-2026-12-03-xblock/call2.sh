#!/bin/bash
# Aligned vector loads of a march's rows (stencil_bench) against the same variants loading one
# value at a time (stencil_bench.scalar, the previous commit), alternating per stencil, 8192^2 and
# 512^3 f32; then the explorer's 16 s searches with the new binary. One archive.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
T=carry/bin/tessera R=/tmp/call2
mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for n in star2d4r box2d4r star2d3r star2d2r; do
  for b in stencil_bench stencil_bench.scalar; do
    timeout 60 carry/bin/$b --device NVIDIA --only factor= --tiles 4x8x16x32 $n=8192x8192 > $R/$n-$b.txt 2>&1
  done
  tar czf $OUT/call2.tgz -C $R .
done
for n in star3d4r star3d3r; do
  for b in stencil_bench stencil_bench.scalar; do
    timeout 60 carry/bin/$b --device NVIDIA --only factor= --tiles 8x16x64 $n=512x512x512 > $R/$n-$b.txt 2>&1
  done
  tar czf $OUT/call2.tgz -C $R .
done
for n in star2d4r star2d3r; do
  timeout 40 $T explore $n --size 8192x8192 --device NVIDIA --budget 16 --tuning-db off \
    --json $R/explore-$n.json > $R/explore-$n.txt 2>&1
  tar czf $OUT/call2.tgz -C $R .
done
