#!/usr/bin/env bash
# Call 76 (one H200): the final binary: the square sums' and the profiling tests on the GPU, and
# the F-cycle and V-cycle with the finest residual grid gone (memory_bytes).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
NEW=$PWD/carry/bin/tessera_x
{
nvidia-smi -L
TESSERA_DEVICE=NVIDIA timeout 120 carry/bin/test_multigrid --source-file='*/test_residual_norm.cpp' 2>&1 | tail -2
TESSERA_DEVICE=NVIDIA timeout 60 carry/bin/test_multigrid --test-case='*profile_kernels*' 2>&1 | tail -2
for round in 1 2; do
  timeout 40 $NEW solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --device NVIDIA -q --json $OUT/f$round.json > /dev/null 2>&1
  timeout 40 $NEW solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q --json $OUT/v$round.json > /dev/null 2>&1
done
python3 - $OUT <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-8s memory %.3f GiB | cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e" % (os.path.basename(f), j["memory_bytes"] / 2**30, w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"]))
PY
rm -f $OUT/*.json
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
