#!/usr/bin/env bash
# Call 40 (one H200): issue 34, the fused smoothing (stream-temporal forms of two GSRB steps)
# against the separate in-place half-sweeps, its default form and its explored best, 512^3 V(2,2).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c40
B=$PWD/carry/bin
s() { timeout 280 $B/tessera solve poisson3d --size 512 --max-cycles 4 --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle  4|smooth|explor|best|rror|^  "; }
{
nvidia-smi -L
echo "== separate in-place half-sweeps"; s
echo "== --fused-smoothing (default form)"; s --fused-smoothing
echo "== --fused-smoothing explored (60 s)"; s --fused-smoothing --tune explore --tune-budget 60 --tuning-db $OUT/t.json --tune-operators gsrb-fused-2
echo "== separate again"; s
} > $OUT/log.txt 2>&1
python3 - $OUT/t.json <<'PY' >> $OUT/log.txt 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
for k, e in j.get("entries", {}).items():
    print(e.get("operator"), e.get("variant"), e.get("local_text"), e.get("median_ms"), e.get("speedup"))
PY
cat $OUT/log.txt
