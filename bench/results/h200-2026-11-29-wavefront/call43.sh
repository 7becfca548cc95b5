#!/usr/bin/env bash
# Call 43 (one H200): issue 34, a red-black step as one wavefront against the two half-sweeps:
# wavefront_bench over tile shapes at 256^3 and 512^3 (f64), mg_bench V(2,2) and one F(3,3)
# cycle at 512^3 with the wavefront (the new GPU default) and with out-of-place half-sweeps.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c43
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 150 $B/wavefront_bench --device NVIDIA --steps 4 --shapes 32x4,64x4,16x8,32x16,64x8,128x2,32x8x1,32x8x8,32x8x32 256 512
for i in 1 2; do
  for o in --wavefront-gsrb --out-of-place-gsrb; do
    echo "== F(3,3) 512 $o ($i)"
    timeout 100 $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA $o 2>&1 | grep -E "^cycle|smooth|max error|finest"
  done
done
timeout 150 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --wavefront-gsrb 256 512
timeout 150 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
