#!/usr/bin/env bash
# Call 49 (one H200): issue 34, the wavefront on levels of 256 or more per side (the committed
# threshold) in the solver: one F(3,3) cycle and mg_bench V(2,2) at 512^3, with it and with the
# out-of-place half-sweeps, in turn.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c49
B=$PWD/carry/bin
{
nvidia-smi -L

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
