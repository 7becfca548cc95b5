#!/usr/bin/env bash
# Call 74 (one H200): the F-cycle without per-launch events: the coarse levels' one launch at
# sides 8, 16 (default), 32, with and without the wavefront; V(2,2) at 256^3 and 512^3.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
NEW=$PWD/carry/bin/tessera_x
F="poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
timeout 60 $NEW solve $F > /dev/null 2>&1   # kernels into the cache
for round in 1 2; do
  for side in 8 16 32; do
    timeout 30 $NEW solve $F --coarse-launch $side --json $OUT/j/f-side$side-$round.json > /dev/null 2>&1
    timeout 30 $NEW solve $F --coarse-launch $side --wavefront-gsrb --json $OUT/j/f-wave-side$side-$round.json > /dev/null 2>&1
  done
  for n in 256 512; do for side in 8 16; do
    timeout 30 $NEW solve poisson3d --size $n --tol 1e-30 --max-cycles 8 --device NVIDIA -q --coarse-launch $side --json $OUT/j/v$n-side$side-$round.json > /dev/null 2>&1
  done; done
done
timeout 30 $NEW solve $F --coarse-launch 8 --profile --json $OUT/j/prof-side8.json > /dev/null 2>&1
timeout 30 $NEW solve $F --coarse-launch 16 --profile --json $OUT/j/prof-side16.json > /dev/null 2>&1
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' >> $OUT/log.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try: j = json.load(open(f))
    except Exception as e: print(f, "unreadable", e); continue
    c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-22s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"]))
    if "prof" in f:
        print("    coarse:", j["coarse_launch"])
        for k, v in sorted(j["breakdown"].items()): print("    ", k, v)
PY
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
cat $OUT/log.txt
