#!/usr/bin/env bash
# Call 61 (one H200): issue 34 after call 60's timelines: the quadratic interpolation
# sum-factorised, the warm-up launching both parities' schedules. "before" = 0798df8.
# F(3,3) at 512^3 and 256^3 (cycle 1: the full-multigrid cycle), V(2,2) at 512^3 and 256^3;
# each binary twice, in turn.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c61
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/t
{
nvidia-smi -L
for rep in 1 2; do
  for bin in tessera_before tessera; do
    for n in 256 512; do
      timeout 120 $B/$bin solve $V --size $n --cycle F --pre 3 --post 3 --max-cycles 3 --json $OUT/t/f$n-$bin-$rep.json 2>&1 | grep -E "rror"
      timeout 120 $B/$bin solve $V --size $n --max-cycles 8 --json $OUT/t/v$n-$bin-$rep.json 2>&1 | grep -E "rror"
    done
  done
done
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.2f device %.2f" % (w[0], d[0]), "cycles 2+ wall %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "max wall 2+ %.2f" % max(w[1:]), "err", j.get("max_error", j.get("error")), "res1 %.6e" % j["cycles"][0]["residual"])
PY
tar czf $OUT/json.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
