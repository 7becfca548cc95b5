#!/usr/bin/env bash
# Call 53 (one H200): issue 34, one F(3,3) cycle at 512^3 with the transfers explored (call 52's
# tuning database, read under --tune explore: nothing left to explore on the same device), with
# the out-of-place half-sweeps and with the wavefront, twice each; the plain cycle beside them.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c53
B=$PWD/carry/bin
cp carry/tuning52.json $OUT/tuning.json
F="solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA"
T="--tune explore --tune-budget 40 --tune-operators prolong,fmg-prolong --tuning-db $OUT/tuning.json"
{
nvidia-smi -L
for i in 1 2; do
  for o in "" --wavefront-gsrb; do
    echo "== explored transfers ${o:-default} ($i)"
    timeout 200 $B/tessera $F $T $o 2>&1 | grep -E "^cycle|smooth|prolong|zero|max error|explor|coarse levels"
  done
  echo "== plain ($i)"
  timeout 100 $B/tessera $F 2>&1 | grep -E "^cycle"
done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
