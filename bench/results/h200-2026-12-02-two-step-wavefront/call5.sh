#!/bin/bash
# (Run with the solver's default then two steps a pass by mistake: its mg_bench "default" and
# solver lines are two steps a pass; only its wavefront_bench lines and the apart run count.)
# Call 5 (session 37): the GPU's default tile now 32x16 of 4 rows. Shapes of one step a pass in
# f64 and f32 at 128-512^3; mg_bench's V(2,2) with the wavefront from 256 (default) and from 128
# per side and the half-sweeps apart; one F(3,3) cycle and V(2,2) at 512^3 three times.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call5.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
S=32x8x0x4,32x16x0x8,64x16x0x4,32x32x0x8,32x24x0x4,32x16x0x2,16x16x0x4
$B/wavefront_bench --device NVIDIA --steps 12 --shapes $S 128 256 512 >> $L 2>&1
$B/wavefront_bench --device NVIDIA --f32 --steps 12 --shapes $S 256 512 >> $L 2>&1
echo "== mg_bench default" >> $L
$B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512 >> $L 2>&1
echo "== mg_bench --wavefront-side 128" >> $L
$B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --wavefront-side 128 256 512 >> $L 2>&1
echo "== mg_bench --out-of-place-gsrb" >> $L
$B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512 >> $L 2>&1
for r in 1 2 3; do
  echo "== F(3,3) run $r" >> $L
  $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA >> $L 2>&1
  echo "== V(2,2) run $r" >> $L
  $B/tessera solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA >> $L 2>&1
done
echo "== f32 V(2,2)" >> $L
$B/tessera solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --precision f32 --device NVIDIA >> $L 2>&1
