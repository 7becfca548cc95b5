#!/bin/bash
# One call on the device (session 37): red-black steps as one wavefront of one and two steps a
# pass (temporal blocking). wavefront_bench (f64, f32), then mg_bench's V(2,2) with the
# half-sweeps apart (the unfused bound), one step a pass and two, then one F(3,3) cycle at 512^3
# with one and two steps a pass, alternated. One kernel cache for the call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/card.txt
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x4x0x2x2,32x8x0x2x2,64x4x0x2x2,16x8x0x4x2,32x8x0x8x2,16x8x0x4x3 256 512 > $OUT/wavefront-f64.txt 2>&1
$B/wavefront_bench --device NVIDIA --f32 --steps 12 --shapes 32x8x0x2x2,64x8x0x4x2,32x16x0x4x2 256 512 > $OUT/wavefront-f32.txt 2>&1
for k in 1 2; do
  $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --wavefront-steps $k 256 512 > $OUT/mg-steps$k.txt 2>&1
done
$B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512 > $OUT/mg-apart.txt 2>&1
for r in 1 2; do for k in 1 2; do
  $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA --wavefront-steps $k > $OUT/F-steps$k-run$r.txt 2>&1
  $B/tessera solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q --wavefront-steps $k > $OUT/V-steps$k-run$r.txt 2>&1
done; done
grep -h "x\b.*ms\|^[0-9]" $OUT/wavefront-*.txt | head -60
grep -h "tessera\|smooth " $OUT/mg-*.txt
