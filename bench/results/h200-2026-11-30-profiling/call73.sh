#!/usr/bin/env bash
# Call 73 (one H200): the F-cycle with per-launch profiling events off (the new default) against
# the binary before (every launch profiled), the wavefront, the explored transfers.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
NEW=$PWD/carry/bin/tessera_x OLD=$PWD/carry/bin/tessera_new
F="poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 3 --device NVIDIA -q"
V="poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA -q"
mkdir -p $OUT/j
{
nvidia-smi -L
timeout 60 $NEW solve $F > /dev/null 2>&1   # kernels into the cache
timeout 150 $NEW solve $F --tune explore --tune-budget 4 --tune-operators prolong,fmg-prolong --tuning-db $OUT/j/db.json 2>&1 | grep -v "^exploring" | tail -3
for round in 1 2 3; do
  timeout 40 $OLD solve $F --json $OUT/j/f-old-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $F --json $OUT/j/f-new-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $F --profile --json $OUT/j/f-newprof-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $F --wavefront-gsrb --json $OUT/j/f-wave-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $F --wavefront-gsrb --tune explore --tuning-db $OUT/j/db.json --json $OUT/j/f-all-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $F --tune explore --tuning-db $OUT/j/db.json --json $OUT/j/f-db-$round.json > /dev/null 2>&1
done
for round in 1 2; do
  timeout 40 $OLD solve $V --json $OUT/j/v-old-$round.json > /dev/null 2>&1
  timeout 40 $NEW solve $V --json $OUT/j/v-new-$round.json > /dev/null 2>&1
done
} > $OUT/log.txt 2>&1
python3 - $OUT/j <<'PY' >> $OUT/log.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-*.json")):
    try: j = json.load(open(f))
    except Exception as e: print(f, "unreadable", e); continue
    c = j["cycles"]; w = [x["wall_ms"] for x in c]; d = [x["device_ms"] for x in c]
    print("%-18s cycle1 wall %7.2f device %7.2f | 2+ wall %7.2f device %7.2f | rel %.9e | err %s" % (os.path.basename(f), w[0], d[0], sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), c[-1]["relative_residual"], j.get("max_error")))
PY
tar czf $OUT/j.tgz -C $OUT j && rm -rf $OUT/j
cat $OUT/log.txt
