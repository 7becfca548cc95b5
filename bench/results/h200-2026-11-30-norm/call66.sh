#!/usr/bin/env bash
# Call 66 (one H200): issue 34, the square sums' run along z (TESSERA_SQUARE_RUN, an experiment's
# override): V(2,2) 256^3 and 512^3, F(3,3) 512^3, against the stored residual's norm (tessera).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/j
{
for round in 1 2; do
  for run in base 4 8 16 32 64 0; do
    if [ $run = base ]; then b=tessera; unset TESSERA_SQUARE_RUN; else b=tessera_new; export TESSERA_SQUARE_RUN=$run; fi
    for n in 256 512; do
      timeout 120 $B/$b solve $V --size $n --max-cycles 8 --json $OUT/j/v$n-run$run-$round.json > /dev/null 2>&1
    done
    timeout 120 $B/$b solve $V --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --json $OUT/j/f512-run$run-$round.json > /dev/null 2>&1
  done
done
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    rn = j["breakdown"].get("residual norm", j["breakdown"].get("residual", {}))
    print("%-22s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e | %s" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"], json.dumps(rn)))
PY
cat $OUT/summary.txt
