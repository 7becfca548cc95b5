#!/usr/bin/env bash
# Call 63 (2 x H200): the session's final binary (HEAD) against 0798df8 ("before": the session's
# first commit). One GPU: F(3,3) at 512^3 and 256^3 (the full-multigrid start's work-group; the
# warm-up of both parities), V(2,2) at 512^3 and 256^3. Two GPUs: V(2,2) at 512^3 (twice, in turn
# with one GPU) and 1024^3.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c63
B=$PWD/carry/bin
mp() { timeout 150 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
one() { /tmp/rankwrap.sh timeout 120 "$@"; }
V="poisson3d --tol 1e-30 --device NVIDIA -q"
F="$V --cycle F --pre 3 --post 3 --max-cycles 3"
mkdir -p $OUT/t
{
nvidia-smi -L
for rep in 1 2; do
  for bin in tessera_before tessera; do
    one $B/$bin solve $F --size 512 --json $OUT/t/f512-$bin-$rep.json 2>&1 | grep -E "rror"
    one $B/$bin solve $F --size 256 --json $OUT/t/f256-$bin-$rep.json 2>&1 | grep -E "rror"
  done
  one $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-one-$rep.json 2>&1 | grep -E "rror"
  mp $B/tessera solve $V --size 512 --max-cycles 8 --json $OUT/t/v512-two-$rep.json 2>&1 | grep -E "rror"
done
one $B/tessera solve $V --size 256 --max-cycles 8 --json $OUT/t/v256-one.json 2>&1 | grep -E "rror"
one $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-one.json 2>&1 | grep -E "rror"
mp $B/tessera solve $V --size 1024 --max-cycles 5 --json $OUT/t/v1024-two.json 2>&1 | grep -E "rror"
} > $OUT/log.txt 2>&1
python3 - $OUT/t <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.2f device %.2f" % (w[0], d[0]), "cycles 2+ wall %.2f device %.2f max %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:]), max(w[1:])), "err %.6e" % j["max_error"], "res %.9e" % j["cycles"][-1]["residual"])
PY
tar czf $OUT/json.tgz -C $OUT t && rm -rf $OUT/t
cat $OUT/summary.txt
