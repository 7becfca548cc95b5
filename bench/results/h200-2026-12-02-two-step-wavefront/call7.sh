#!/bin/bash
# Call 7 (session 37): main before (carry/bin/*-base, 8d2ce28) and the final binary (f in
# registers, tile 32x16, the wavefront from 128 per side), alternated: mg_bench V(2,2) 256^3 and
# 512^3 (and the half-sweeps apart: the unfused bound), one F(3,3) cycle, eight V(2,2) cycles in
# f64 and f32 at 512^3; then the wavefront's segments at 128^3 and 256^3. One kernel cache for the
# call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call7.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
MG="--device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512"
for v in base new; do
  echo "== mg_bench $v" >> $L; $B/mg_bench-$v $MG >> $L 2>&1
done
echo "== mg_bench base --out-of-place-gsrb" >> $L; $B/mg_bench-base $MG --out-of-place-gsrb >> $L 2>&1
echo "== mg_bench new (again)" >> $L; $B/mg_bench-new $MG >> $L 2>&1
for r in 1 2; do for v in base new; do
  echo "== $v F(3,3) run $r" >> $L
  $B/tessera-$v solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA >> $L 2>&1
  echo "== $v V(2,2) run $r" >> $L
  $B/tessera-$v solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA >> $L 2>&1
  echo "== $v f32 V(2,2) run $r" >> $L
  $B/tessera-$v solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --precision f32 --device NVIDIA >> $L 2>&1
done; done
echo "== wavefront_bench: segments at 128^3 and 256^3" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x4x4,32x16x8x4,32x16x16x4,32x16x64x4 128 256 >> $L 2>&1
