#!/usr/bin/env bash
# Call 39 (one H200): issue 34, the zero fills with 16-byte units (main after 0d1f) against the
# build before (tessera-before: 128-byte units), F(3,3) one cycle at 512^3, in turn, twice; then
# mg_bench's V(2,2) with the new build.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c39
B=$PWD/carry/bin
{
nvidia-smi -L
for i in 1 2; do
  for t in tessera-before tessera; do
    echo "== $t F(3,3) 512 ($i)"
    timeout 150 $B/$t solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA 2>&1 | grep -E "^cycle|zero|smooth|prolong|max error"
  done
done
timeout 250 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 256 512
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
