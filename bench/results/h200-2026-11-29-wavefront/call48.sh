#!/usr/bin/env bash
# Call 48 (one H200): issue 34, the wavefront as committed (local memory, 16x8 tiles) in the
# solver: mg_bench V(2,2) and one F(3,3) cycle at 512^3, with it and with the out-of-place
# half-sweeps (the GPU default), in turn; wavefront_bench at 256^3 and 512^3 again.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c48
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 100 $B/wavefront_bench --device NVIDIA --steps 4 256 512
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
