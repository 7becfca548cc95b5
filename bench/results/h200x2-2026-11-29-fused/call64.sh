#!/usr/bin/env bash
# Call 64 (2 x H200): the coarse levels' halo width on two GPUs with the session's final engine:
# --coarse-halo 1 (the default) against 2, V(2,2) at 512^3 (twice each, in turn, with one GPU
# beside) and 1024^3.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c64
B=$PWD/carry/bin
mp() { timeout 150 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
one() { /tmp/rankwrap.sh timeout 120 "$@"; }
V="poisson3d --tol 1e-30 --device NVIDIA -q"
mkdir -p $OUT/t
{
nvidia-smi -L
for rep in 1 2; do
  one $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-one-$rep.json 2>&1 | grep -E "rror"
  mp $B/tessera solve $V --size 512 --max-cycles 8 --coarse-halo 1 --json $OUT/t/v512-ch1-$rep.json 2>&1 | grep -E "rror"
  mp $B/tessera solve $V --size 512 --max-cycles 8 --coarse-halo 2 --json $OUT/t/v512-ch2-$rep.json 2>&1 | grep -E "rror"
done
mp $B/tessera solve $V --size 1024 --max-cycles 5 --coarse-halo 1 --json $OUT/t/v1024-ch1.json 2>&1 | grep -E "rror"
mp $B/tessera solve $V --size 1024 --max-cycles 5 --coarse-halo 2 --json $OUT/t/v1024-ch2.json 2>&1 | grep -E "rror"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycles 2+ wall %.2f device %.2f max %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), max(w[1:])), "exchanges", j.get("halo_exchanges_by_level"), "res %.9e" % j["cycles"][-1]["residual"])
PY
tar czf $OUT/json.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
