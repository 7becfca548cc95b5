#!/usr/bin/env bash
# Call 62 (one H200): issue 34, F(3,3) at 512^3 with the interpolations explored
# (--tune explore --tune-operators fmg-prolong,prolong), then solved again from that tuning
# database, against the default lowering in the same call; timelines of both.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c62
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q --size 512 --cycle F --pre 3 --post 3 --max-cycles 3"
mkdir -p $OUT/t
{
nvidia-smi -L
timeout 100 $B/tessera solve $V --json $OUT/t/default-1.json --timeline $OUT/t/default-1.trace.json 2>&1 | grep -E "rror"
echo "== explore"; time timeout 300 $B/tessera solve $V --tune explore --tune-operators fmg-prolong,prolong --tune-budget 6 --tuning-db $OUT/t/tuning.json --json $OUT/t/explore.json 2>&1 | grep -vE "^cycle" | tail -40
echo "== tuned"; timeout 100 $B/tessera solve $V --tune explore --tune-operators fmg-prolong,prolong --tuning-db $OUT/t/tuning.json --json $OUT/t/tuned.json --timeline $OUT/t/tuned.trace.json 2>&1 | grep -E "rror|kernels"
timeout 100 $B/tessera solve $V --json $OUT/t/default-2.json 2>&1 | grep -E "rror"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    if "trace" in f or "tuning" in f: continue
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.2f device %.2f" % (w[0], d[0]), "cycles 2+ wall %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "err", j.get("max_error"), "kernels", json.dumps(j.get("kernels"))[:300])
for name in ("default-1", "tuned"):
    ev = json.load(open(f"{sys.argv[1]}/{name}.trace.json"))["traceEvents"]
    ev.sort(key=lambda e: e["ts"])
    t1 = [e["ts"] for e in ev if e["name"] == "cycle 2"][0]
    print(name, "prolong launches of cycle 1 (us):", [round(e["dur"]) for e in ev if e["name"] == "prolong" and e["ts"] < t1])
PY
tar czf $OUT/json.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
