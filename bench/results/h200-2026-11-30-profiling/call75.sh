#!/usr/bin/env bash
# Call 75 (one H200): the new GPU defaults (the wavefront in f64, coarse side 8) against the old
# (--out-of-place-gsrb --coarse-launch 16), in turn; the wavefront's and coarse cycle's tests.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
NEW=$PWD/carry/bin/tessera_x
F="poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
TESSERA_DEVICE=NVIDIA timeout 100 carry/bin/test_multigrid --source-file='*/test_wavefront.cpp' 2>&1 | tail -2
TESSERA_DEVICE=NVIDIA timeout 100 carry/bin/test_multigrid --source-file='*/test_coarse_cycle.cpp' --test-suite-exclude=extended 2>&1 | tail -2
timeout 60 $NEW solve $F > /dev/null 2>&1
for round in 1 2 3; do
  timeout 30 $NEW solve $F --json $OUT/j/f-default-$round.json > /dev/null 2>&1
  timeout 30 $NEW solve $F --out-of-place-gsrb --coarse-launch 16 --json $OUT/j/f-old-$round.json > /dev/null 2>&1
done
for n in 256 512; do
  timeout 30 $NEW solve poisson3d --size $n --tol 1e-30 --max-cycles 8 --device NVIDIA -q --json $OUT/j/v$n-default.json > /dev/null 2>&1
  timeout 30 $NEW solve poisson3d --size $n --tol 1e-30 --max-cycles 8 --device NVIDIA -q --out-of-place-gsrb --coarse-launch 16 --json $OUT/j/v$n-old.json > /dev/null 2>&1
done
timeout 30 $NEW solve $F 2>&1 | tail -4
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' >> $OUT/log.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try: j = json.load(open(f))
    except Exception as e: print(f, "unreadable", e); continue
    c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-20s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e | err %s" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"], j.get("max_error")))
PY
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
cat $OUT/log.txt
