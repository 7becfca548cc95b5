#!/usr/bin/env bash
# Call 72 (one H200): where the F-cycle's wall time goes: per-launch events off (experiment),
# the wavefront, the explored transfers; timeline of cycle 1.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin/tessera_x
F="poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
timeout 120 $B solve $F --json $OUT/j/warm.json > /dev/null 2>&1
timeout 120 $B solve $F --json $OUT/j/tl.json --timeline $OUT/j/tl.trace.json > /dev/null 2>&1
python3 carry/timeline_gaps.py $OUT/j/tl.trace.json --from-cycle 1 --to-cycle 1 --top 25
timeout 200 $B solve $F --tune explore --tune-budget 30 --tune-operators prolong,fmg-prolong --tuning-db $OUT/j/db.json > $OUT/j/explore.txt 2>&1
for round in 1 2; do
  timeout 120 $B solve $F --json $OUT/j/base-$round.json > /dev/null 2>&1
  TESSERA_EXPERIMENT_NO_EVENTS=1 timeout 120 $B solve $F --json $OUT/j/noev-$round.json > /dev/null 2>&1
  timeout 120 $B solve $F --wavefront-gsrb --json $OUT/j/wave-$round.json > /dev/null 2>&1
  timeout 120 $B solve $F --tune explore --tuning-db $OUT/j/db.json --json $OUT/j/db-$round.json > /dev/null 2>&1
  TESSERA_EXPERIMENT_NO_EVENTS=1 timeout 120 $B solve $F --wavefront-gsrb --tune explore --tuning-db $OUT/j/db.json --json $OUT/j/all-noev-$round.json > /dev/null 2>&1
  timeout 120 $B solve $F --wavefront-gsrb --tune explore --tuning-db $OUT/j/db.json --json $OUT/j/all-$round.json > /dev/null 2>&1
  timeout 120 $B solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q --json $OUT/j/v-$round.json > /dev/null 2>&1
  TESSERA_EXPERIMENT_NO_EVENTS=1 timeout 120 $B solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q --json $OUT/j/vnoev-$round.json > /dev/null 2>&1
done
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' >> $OUT/log.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    if "trace" in f or "db.json" in f: continue
    try: j = json.load(open(f))
    except Exception as e: print(f, "unreadable", e); continue
    c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-16s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e | err %s" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"], j.get("max_error")))
    if f.endswith("base-1.json") or f.endswith("all-1.json"):
        for k, v in sorted(j["breakdown"].items()): print("    ", k, v)
PY
tail -5 $OUT/j/explore.txt >> $OUT/log.txt
rm -f $OUT/j/tl.trace.json
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
cat $OUT/log.txt
