#!/usr/bin/env bash
# Call 37 (one H200): issue 34, where the Poisson cycles' time goes today: mg_bench's V(2,2)
# against its kernels' bounds, and the F-cycle's breakdown by operator.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c37
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 250 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512
echo "== F(3,3) 512, one cycle"
timeout 150 $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA
echo "== F(2,2) 512, 4 cycles"
timeout 150 $B/tessera solve poisson3d --size 512 --cycle F --max-cycles 4 --tol 1e-30 --device NVIDIA --json $OUT/f512.json
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
