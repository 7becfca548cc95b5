#!/usr/bin/env bash
# Call 36 (2 x H200): issue 36, faces through host memory both ranks map (--same-host-faces
# shared, the default) against MPI messages (mpi): the V(2,2) solver at 512^3 and 1024^3 on one
# GPU and on two, in turn.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c36
B=$PWD/carry/bin
mp() { timeout 120 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
{
nvidia-smi -L
for n in 512 1024; do
  c=8; [ $n = 1024 ] && c=5
  echo "== $n one GPU"; /tmp/rankwrap.sh timeout 120 $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size $n --max-cycles $c --json $OUT/one-$n.json 2>&1 | grep -E "^cycle  $c|rror"
  for f in shared mpi; do
    echo "== $n two GPUs $f"; mp $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size $n --max-cycles $c --same-host-faces $f --json $OUT/two-$n-$f.json 2>&1 | grep -E "^cycle  $c|faces|outside|rror"
  done
done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.1f" % w[0], "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "exchange ms/cycle", [round(x / len(w), 2) for x in j.get("halo_exchange_ms_by_level", [])], "shared", j.get("shared_faces"), "residual", j["cycles"][-1]["residual"])
PY
cat $OUT/log.txt $OUT/summary.txt
