#!/bin/bash
# Call 4 (session 39): call 3's depth-1 runs again with stencil_bench running programs of
# kernels (the separable passes apart), beside the partial sums by plane, one H200.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin/stencil_bench
L=$OUT/call4.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
for s in sepbox2d4r=8192x8192 sepbox2d2r=8192x8192 sepbox3d2r=512x512x512; do
  echo "== depth 1, apart and sums: $s" >> $L
  timeout 120 $B --device NVIDIA --only separate-axes,sums=1 $s >> $L 2>&1; echo "rc $?" >> $L
done
