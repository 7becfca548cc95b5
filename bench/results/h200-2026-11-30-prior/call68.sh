#!/usr/bin/env bash
# Call 68 (one H200): issue 32, box3d4r 512^3 again with the prior's partial sums first (60 s):
# which points the search measured (call 67 kept no report).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
mkdir -p $OUT/r
TESSERA_CACHE_DIR=/tmp/tc-new2 CUDA_CACHE_DISABLE=1 timeout 200 $B/tessera_new explore --program carry/programs/box3d4r.json --size 512x512x512 --device NVIDIA --budget 60 --json $OUT/r/box3d4r.json --tuning-db off > $OUT/r/box3d4r.txt 2>&1
python3 - $OUT/r/box3d4r.json <<'PY' > $OUT/points.txt
import json, sys
j = json.load(open(sys.argv[1]))
for p in j["points"]:
    print(p.get("variant"), p.get("local"), p.get("status"), p.get("median_ms"), (p.get("error") or "")[:200])
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/points.txt
