#!/usr/bin/env bash
# Call 25 (2 x H200): issue 36, wider halos on the coarse levels (--coarse-halo 1..4) against one
# GPU, 512^3 interleaved twice; then 1024^3 on one and two GPUs.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c25
cd /tmp
two() {
  local size=$1; shift
  timeout 150 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $here/bin/tessera solve poisson3d --size $size --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle|outside|built|halo bytes|rror"
}
one() {
  local size=$1; shift
  /tmp/rankwrap.sh timeout 150 $here/bin/tessera solve poisson3d --size $size --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle|built|rror"
}
{
nvidia-smi -L
for i in 1 2; do
  echo "== 1 rank ($i)"; one 512 --max-cycles 8 --json $OUT/one-512-$i.json
  for ch in 1 2 3 4; do echo "== 2 ranks coarse halo $ch ($i)"; two 512 --max-cycles 8 --coarse-halo $ch --json $OUT/two-512-ch$ch-$i.json; done
done
echo "######## 1024^3"
echo "== 1 rank"; one 1024 --max-cycles 5 --json $OUT/one-1024.json
for ch in 1 4; do echo "== 2 ranks coarse halo $ch"; two 1024 --max-cycles 5 --coarse-halo $ch --json $OUT/two-1024-ch$ch.json; done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycles", len(w), "wall 3+ %.2f device %.2f" % (sum(w[2:]) / len(w[2:]), sum(d[2:]) / len(d[2:])), "exchanges", j.get("halo_exchanges_by_level"), "ms", [round(x, 2) for x in j.get("halo_exchange_ms_by_level", [])], "agglomerated", round(j.get("agglomerated_ms", 0), 2))
PY
cat $OUT/summary.txt
