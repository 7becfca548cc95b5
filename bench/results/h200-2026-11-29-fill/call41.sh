#!/usr/bin/env bash
# Call 41 (one H200): issue 34, whether the explorer finds faster interpolations than the plain
# lowering at 512^3 (prolong 1.6x its bound): --tune explore on the transfers alone.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c41
B=$PWD/carry/bin
s() { timeout 280 $B/tessera solve poisson3d --size 512 --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle|prolong|explor|rror|wall|smooth"; }
{
nvidia-smi -L
echo "== F(3,3) plain"; s --cycle F --pre 3 --post 3 --max-cycles 1
echo "== F(3,3) explored transfers"; s --cycle F --pre 3 --post 3 --max-cycles 1 --tune explore --tune-budget 40 --tuning-db $OUT/t.json --tune-operators prolong,fmg-prolong
echo "== F(3,3) explored transfers, from the database"; s --cycle F --pre 3 --post 3 --max-cycles 1 --tune explore --tuning-db $OUT/t.json --tune-operators prolong,fmg-prolong
echo "== F(3,3) plain again"; s --cycle F --pre 3 --post 3 --max-cycles 1
} > $OUT/log.txt 2>&1
python3 - $OUT/t.json <<'PY' >> $OUT/log.txt 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
for k, e in j.get("entries", {}).items():
    print(e.get("operator"), e.get("extents"), "variant", e.get("variant"), e.get("local_text"), e.get("median_ms"), e.get("history", "")[:200] if isinstance(e.get("history"), str) else "")
PY
cat $OUT/log.txt
