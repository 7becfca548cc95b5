#!/bin/bash
# Call 4 (session 38): the star prototype again with restrict-qualified pointers (call 1's had
# none, and NVIDIA's compiler then reads the neighbours through L2 rather than the read-only
# path), beside tessera's coarsened lowering of star3d4r in the same call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call4.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
for r in 4 2 1; do
  echo "== star prototype r$r, restrict" >> $L
  $B/star_proto 512 $r NVIDIA >> $L 2>&1
done
echo "== stencil_bench coarsened star3d4r" >> $L
timeout 200 $B/stencil_bench --device NVIDIA --only coarsened star3d4r=512x512x512 >> $L 2>&1
