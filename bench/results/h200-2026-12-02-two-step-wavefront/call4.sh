#!/bin/bash
# Call 4 (session 37): f in registers. wavefront_bench with more shapes (rows 1-2), then
# mg_bench's V(2,2) with one step a pass, two, and the half-sweeps apart (the unfused bound), then
# one F(3,3) cycle and eight V(2,2) cycles at 512^3 with one and two steps a pass, alternated.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call4.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x8x0x1x1,32x8x0x2x1,32x8x0x1x2,32x16x0x4x1,64x8x0x4x1 256 512 >> $L 2>&1
for k in 1 2; do
  echo "== mg_bench --wavefront-steps $k" >> $L
  $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --wavefront-steps $k 256 512 >> $L 2>&1
done
echo "== mg_bench --out-of-place-gsrb" >> $L
$B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512 >> $L 2>&1
for r in 1 2; do for k in 1 2; do
  echo "== F(3,3) steps $k run $r" >> $L
  $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA --wavefront-steps $k >> $L 2>&1
  echo "== V(2,2) steps $k run $r" >> $L
  $B/tessera solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q --wavefront-steps $k >> $L 2>&1
done; done
cat $L
