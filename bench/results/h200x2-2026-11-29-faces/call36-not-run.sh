#!/usr/bin/env bash
# Call 36 (2 x H200): issue 36, faces through host memory both ranks map (--same-host-faces
# shared, the new default) against MPI messages (mpi), the solver at 512^3 and 1024^3 and the
# sweep at 1024^3, one GPU beside two, interleaved.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c36
B=$PWD/carry/bin
mp() { timeout 200 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh "$@"; }
solve() { $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA "$@"; }
{
nvidia-smi -L
for i in 1 2; do
  echo "== 512 one GPU ($i)"; /tmp/rankwrap.sh timeout 150 $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size 512 --max-cycles 8 --json $OUT/one-512-$i.json 2>&1 | grep -E "^cycle  8|rror"
  for f in shared mpi; do
    echo "== 512 two GPUs $f ($i)"; mp $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size 512 --max-cycles 8 --same-host-faces $f --json $OUT/two-512-$f-$i.json 2>&1 | grep -E "^cycle  8|faces|outside|rror"
  done
done
echo "== 1024 one GPU"; /tmp/rankwrap.sh timeout 150 $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size 1024 --max-cycles 5 --json $OUT/one-1024.json 2>&1 | grep -E "^cycle  5|rror"
for f in shared mpi; do
  echo "== 1024 two GPUs $f"; mp $B/tessera solve poisson3d --tol 1e-30 --device NVIDIA --size 1024 --max-cycles 5 --same-host-faces $f --json $OUT/two-1024-$f.json 2>&1 | grep -E "^cycle  5|faces|outside|rror"
done
for f in shared mpi; do
  echo "== sweep j3d7pt 1024^3 k=4 two GPUs $f"; mp $B/tessera sweep j3d7pt --size 1024x1024x1024 --steps 4 --iterations 12 --device NVIDIA --same-host-faces $f 2>&1 | grep -E "^time|^halo|checksum|rror"
done
echo "== sweep j3d7pt 1024^3 k=4 one GPU"; /tmp/rankwrap.sh timeout 150 $B/tessera sweep j3d7pt --size 1024x1024x1024 --steps 4 --iterations 12 --device NVIDIA 2>&1 | grep -E "^time|checksum|rror"
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.1f" % w[0], "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "exchange ms/cycle", [round(x / len(w), 2) for x in j.get("halo_exchange_ms_by_level", [])], "agglomerated ms/cycle", round(j.get("agglomerated_ms", 0) / len(w), 2), "shared", j.get("shared_faces"), "final", j["cycles"][-1].get("relative_residual", j["cycles"][-1]))
PY
cat $OUT/log.txt; cat $OUT/summary.txt
