#!/bin/bash
# Call 7 (session 37), short (the session's device time nearly spent): the final binary (f in
# registers, tile 32x16, the wavefront from 128 per side): mg_bench V(2,2) at 256^3 and 512^3; one
# F(3,3) cycle and eight V(2,2) cycles at 512^3, the binary before (main at 8d2ce28) and after in
# turn; the wavefront's segments at 256^3. One kernel cache for the call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call7.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
echo "== mg_bench new" >> $L
$B/mg_bench-new --device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512 >> $L 2>&1
for v in base new; do
  echo "== $v F(3,3)" >> $L
  $B/tessera-$v solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA >> $L 2>&1
  echo "== $v V(2,2)" >> $L
  $B/tessera-$v solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA >> $L 2>&1
done
echo "== wavefront_bench: segments at 256^3" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x8x4,32x16x16x4,32x16x64x4 256 >> $L 2>&1
