#!/usr/bin/env bash
# Call 51 (one H200): issue 34, full multigrid's start of a level assigning P e (no zero fill, no
# read of u) against the binary before it, one F(3,3) cycle at 512^3, in turn, twice; each
# with the out-of-place half-sweeps (the default) and with the wavefront.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c51
B=$PWD/carry/bin
{
nvidia-smi -L
for i in 1 2; do
  for bin in tessera_before tessera; do
    for o in "" --wavefront-gsrb; do
      echo "== $bin F(3,3) 512 ${o:-default} ($i)"
      timeout 100 $B/$bin solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA $o 2>&1 | grep -E "^cycle|smooth|prolong|zero|max error"
    done
  done
done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
