#!/bin/bash
# Call 3 (session 39): the separable passes fused in one kernel (separate-axes, then
# temporal-tiling of distinct steps: depth 2), against the passes apart and the partial sums by
# plane (depth 1), stencil_bench on one H200.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin/stencil_bench
L=$OUT/call3.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
for s in sepbox2d4r=8192x8192 sepbox3d2r=512x512x512 sepbox2d2r=8192x8192; do
  echo "== depth 1, apart and sums: $s" >> $L
  timeout 90 $B --device NVIDIA --only separate-axes,sums=1 $s >> $L 2>&1; echo "rc $?" >> $L
  echo "== depth 2, fused: $s" >> $L
  timeout 150 $B --device NVIDIA --depth 2 --only temporal-tiling $s >> $L 2>&1; echo "rc $?" >> $L
done
