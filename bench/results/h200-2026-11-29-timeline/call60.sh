#!/usr/bin/env bash
# Call 60 (one H200): issue 34, where one GPU's cycle waits: --timeline of V(2,2) at 256^3 and
# 512^3 and of F(3,3) at 512^3 (f64), the gaps summed by bench/timeline_gaps.py.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c60
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/t
{
nvidia-smi -L
for n in 256 512; do
  echo "== V $n"; timeout 120 $B/tessera solve $V --size $n --max-cycles 8 --json $OUT/t/v$n.json --timeline $OUT/t/v$n.trace.json 2>&1 | grep -E "rror|per cycle"
done
echo "== F 512"; timeout 120 $B/tessera solve $V --size 512 --cycle F --pre 3 --post 3 --max-cycles 4 --json $OUT/t/f512.json --timeline $OUT/t/f512.trace.json 2>&1 | grep -E "rror|per cycle"
echo "== F 256"; timeout 120 $B/tessera solve $V --size 256 --cycle F --pre 3 --post 3 --max-cycles 4 --json $OUT/t/f256.json --timeline $OUT/t/f256.trace.json 2>&1 | grep -E "rror|per cycle"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    if "trace" in f: continue
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.2f device %.2f" % (w[0], d[0]), "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "build_ms %.0f" % j.get("build_ms", 0))
PY
for t in $OUT/t/v256.trace.json $OUT/t/v512.trace.json; do python3 carry/timeline_gaps.py $t --top 14; done >> $OUT/summary.txt 2>&1
for t in $OUT/t/f512.trace.json $OUT/t/f256.trace.json; do python3 carry/timeline_gaps.py $t --from-cycle 1 --to-cycle 1 --top 14; done >> $OUT/summary.txt 2>&1
tar czf $OUT/traces.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
