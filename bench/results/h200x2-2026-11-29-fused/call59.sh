#!/usr/bin/env bash
# Call 59 (2 x H200): issue 36 after the timeline of call 58: the residual fused with its
# restriction on the ranks (overlapped), the norm in place. "before" = 0798df8, "after" = HEAD.
# One GPU and two at 512^3 (twice, in turn) and 1024^3; timelines of the two-GPU runs after.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c59
B=$PWD/carry/bin
mp() { timeout 150 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/t
{
nvidia-smi -L
for rep in 1 2; do
  echo "== 512 one $rep"; /tmp/rankwrap.sh timeout 120 $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-one-$rep.json 2>&1 | grep -E "rror"
  echo "== 512 two before $rep"; mp $B/tessera_before solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-before-$rep.json 2>&1 | grep -E "rror"
  echo "== 512 two after $rep"; mp $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-after-$rep.json --timeline $OUT/t/v512-after-$rep.trace.json 2>&1 | grep -E "rror"
done
echo "== 1024 one"; /tmp/rankwrap.sh timeout 150 $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-one.json 2>&1 | grep -E "rror"
echo "== 1024 two before"; mp $B/tessera_before solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-before.json 2>&1 | grep -E "rror"
echo "== 1024 two after"; mp $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-after.json --timeline $OUT/t/v1024-after.trace.json 2>&1 | grep -E "rror"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/v*.json")):
    if "trace" in f: continue
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 %.1f" % w[0], "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "res", j["cycles"][-1]["residual"])
PY
for t in $OUT/t/*after-1.trace.rank0.json $OUT/t/*1024-after.trace.rank0.json; do python3 carry/timeline_gaps.py $t --top 12; done >> $OUT/summary.txt 2>&1
tar czf $OUT/traces.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
