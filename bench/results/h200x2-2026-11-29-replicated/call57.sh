#!/usr/bin/env bash
# Call 57 (2 x H200): issue 36, the final binary (devices agreed on by the ranks, the default
# scaled by the ranks): one GPU and two by default at 512^3, twice in turn; 1024^3 once.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c57
B=$PWD/carry/bin
mp() { timeout 150 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
V="poisson3d --tol 1e-30 --device NVIDIA"
{
nvidia-smi -L
for rep in 1 2; do
  echo "== 512 one GPU"; /tmp/rankwrap.sh timeout 120 $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/v512-one-$rep.json 2>&1 | grep -E "^cycle  8|rror"
  echo "== 512 two default"; mp $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/v512-default-$rep.json 2>&1 | grep -E "^cycle  8|distributed levels|outside|rror"
done
echo "== 1024 one GPU"; /tmp/rankwrap.sh timeout 150 $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/v1024-one.json 2>&1 | grep -E "^cycle  5|rror"
echo "== 1024 two default"; mp $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/v1024-default.json 2>&1 | grep -E "^cycle  5|outside|rror"
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.1f" % w[0], "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "exch ms/cycle", [round(x / len(w), 2) for x in j.get("halo_exchange_ms_by_level", [])], "aggl ms/cycle %.2f" % (j.get("agglomerated_ms", 0) / len(w)), "lvl", j.get("agglomerated_level"), "res", j["cycles"][-1]["residual"])
PY
mkdir -p $OUT/json && mv $OUT/*.json $OUT/json/ 2>/dev/null; tar czf $OUT/json.tgz -C $OUT json && rm -rf $OUT/json
cat $OUT/summary.txt
