#!/usr/bin/env bash
# Call 58 (2 x H200): issue 36, where the devices wait: --timeline of one GPU and two at 512^3
# and 1024^3 (V(2,2) f64), the gaps summed by bench/timeline_gaps.py.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c58
B=$PWD/carry/bin
mp() { timeout 150 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/t
{
nvidia-smi -L
echo "== 512 one"; /tmp/rankwrap.sh timeout 120 $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-one.json --timeline $OUT/t/v512-one.trace.json 2>&1 | grep -E "per cycle|rror"
echo "== 512 two"; mp $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-two.json --timeline $OUT/t/v512-two.trace.json 2>&1 | grep -E "per cycle|outside|rror"
echo "== 1024 one"; /tmp/rankwrap.sh timeout 150 $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-one.json --timeline $OUT/t/v1024-one.trace.json 2>&1 | grep -E "per cycle|rror"
echo "== 1024 two"; mp $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-two.json --timeline $OUT/t/v1024-two.trace.json 2>&1 | grep -E "per cycle|outside|rror"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/v*[eo].json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "aggl ms/cycle %.2f" % (j.get("agglomerated_ms", 0) / len(w)))
PY
for t in $OUT/t/*trace*.json; do python3 carry/timeline_gaps.py $t --top 25; done >> $OUT/summary.txt 2>&1
tar czf $OUT/traces.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
