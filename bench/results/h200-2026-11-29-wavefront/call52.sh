#!/usr/bin/env bash
# Call 52 (one H200): issue 34, one F(3,3) cycle at 512^3 with everything this session and the
# last one built: the transfers explored (40 s, prolong and fmg-prolong, into a tuning database),
# then from that database with the out-of-place half-sweeps and with the wavefront, twice each.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c52
B=$PWD/carry/bin
F="solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --tol 1e-30 --device NVIDIA"
{
nvidia-smi -L
echo "== explore the transfers"
timeout 300 $B/tessera $F --tune explore --tune-budget 40 --tune-operators prolong,fmg-prolong --tuning-db $OUT/tuning.json 2>&1 | grep -E "^cycle|explor|max error" | tail -5
for i in 1 2; do
  for o in "" --wavefront-gsrb; do
    echo "== from the database ${o:-default} ($i)"
    timeout 100 $B/tessera $F --tuning-db $OUT/tuning.json $o 2>&1 | grep -E "^cycle|smooth|prolong|zero|max error"
  done
done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
