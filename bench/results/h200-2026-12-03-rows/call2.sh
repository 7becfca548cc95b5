#!/bin/bash
# Rows of 8 (stencil_bench --only rows=8), the explorer's 16-30 s searches with the blocked
# partial sums first (its report gives the compute peak), and the 343-point box's partial sums.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
B=carry/bin/stencil_bench T=carry/bin/tessera
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
timeout 80 $B --device NVIDIA --only rows=8 --tiles 8x64 box3d1r=512x512x512 > $OUT/rows8-box3d1r.txt 2>&1
timeout 80 $B --device NVIDIA --only rows=8 --tiles 16x64 box3d2r=512x512x512 > $OUT/rows8-box3d2r.txt 2>&1
timeout 80 $B --device NVIDIA --only rows=8 --tiles 8x64 star3d4r=512x512x512 > $OUT/rows8-star3d4r.txt 2>&1
for s in box3d1r:16 star3d4r:16 box3d2r:16 box3d4r:30; do
  n=${s%%:*}; b=${s##*:}
  timeout $((b + 60)) $T explore $n --size 512x512x512 --device NVIDIA --budget $b --tuning-db off \
    --json $OUT/explore-$n.json > $OUT/explore-$n.txt 2>&1
done
timeout 120 $B --device NVIDIA --only sums=1 --tiles 64 box3d3r=512x512x512 > $OUT/box3d3r.txt 2>&1
# Below the GPU's threshold of 25 points: the radius-2 star (13) and j3d7pt (7) with the partial
# sums offered (--sums-from), beside the coarsened lowering that wins there today.
timeout 100 $B --device NVIDIA --sums-from 7 --only sums=1,coarsened --tiles 8x64 star3d2r=512x512x512 > $OUT/star3d2r.txt 2>&1
timeout 60 $B --device NVIDIA --sums-from 7 --only rows= --tiles 8x64 j3d7pt=512x512x512 > $OUT/j3d7pt.txt 2>&1
