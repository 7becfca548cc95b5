#!/usr/bin/env bash
# Call 71 (one H200): the final binary: the square sums' test on the GPU (runs of 8 along the
# outermost axis; both tiers) and the solver's cycles with them (V(2,2) 256^3, 512^3; F(3,3)).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
TESSERA_DEVICE=NVIDIA timeout 200 $B/test_multigrid --source-file='*/test_residual_norm.cpp' 2>&1 | tail -3
for round in 1 2; do
  for n in 256 512; do timeout 120 $B/tessera_new solve $V --size $n --max-cycles 8 --json $OUT/j/v$n-$round.json > /dev/null 2>&1; done
  timeout 120 $B/tessera_new solve $V --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --json $OUT/j/f512-$round.json > /dev/null 2>&1
done
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' >> $OUT/log.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-12s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e | norm %s" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"], json.dumps(j["breakdown"].get("residual norm"))))
PY
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
cat $OUT/log.txt
