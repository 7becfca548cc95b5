#!/usr/bin/env bash
# Call 42 (one H200): issue 34, red-black half-sweeps in place (the default) against out of
# place, the F(3,3) cycle at 512^3 and mg_bench's V(2,2), in turn.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c42
B=$PWD/carry/bin
{
nvidia-smi -L
for i in 1 2; do
  for o in "" --out-of-place-gsrb; do
    echo "== F(3,3) 512 ${o:-in place} ($i)"
    timeout 150 $B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA $o 2>&1 | grep -E "^cycle|smooth|max error"
  done
done
timeout 200 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512
timeout 200 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
