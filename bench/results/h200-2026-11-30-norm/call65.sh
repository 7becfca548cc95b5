#!/usr/bin/env bash
# Call 65 (one H200): issue 34, the finest residual's norm from its square sums. Before (tessera,
# main at 852b23e) and after (tessera_new) in turn, twice: V(2,2) 256^3 and 512^3 (8 cycles),
# F(3,3) 512^3 (4 cycles: cycle 1 is the F-cycle); a timeline of F 512 after; the operator's
# test (both axes against loops) on the GPU.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
TESSERA_DEVICE=NVIDIA timeout 150 $B/test_multigrid --source-file='*/test_residual_norm.cpp' --test-suite-exclude=extended 2>&1 | tail -4
for round in 1 2; do
  for b in tessera tessera_new; do
    for n in 256 512; do
      echo "== $round $b V $n"; timeout 120 $B/$b solve $V --size $n --max-cycles 8 --json $OUT/j/$b-v$n-$round.json 2>&1 | grep -E "rror|per cycle"
    done
    echo "== $round $b F 512"; timeout 120 $B/$b solve $V --size 512 --cycle F --pre 3 --post 3 --max-cycles 4 --json $OUT/j/$b-f512-$round.json 2>&1 | grep -E "rror|per cycle"
  done
done
timeout 120 $B/tessera_new solve $V --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --timeline $OUT/f512.trace.json > /dev/null 2>&1
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-28s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | last rel %.9e" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"] if "relative_residual" in c[-1] else c[-1]["relative"]))
PY
python3 carry/timeline_gaps.py $OUT/f512.trace.json --from-cycle 1 --to-cycle 1 --top 8 >> $OUT/summary.txt 2>&1
cat $OUT/summary.txt; tail -5 $OUT/log.txt
