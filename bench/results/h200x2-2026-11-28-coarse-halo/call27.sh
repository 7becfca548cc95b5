#!/usr/bin/env bash
# Call 27 (2 x H200): issue 36, agglomerating earlier now that a level moves by rows (512^3).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c27
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
  echo "== 512 1 rank ($i)"; one 512 --max-cycles 8 --json $OUT/one-512-$i.json
  for a in 4096 20000 150000; do
    echo "== 512 2 ranks agglomerate $a ($i)"; two 512 --max-cycles 8 --agglomerate $a --json $OUT/two-512-a$a-$i.json
  done
done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "cycle1 wall %.1f" % w[0], "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "exchange ms/cycle", [round(x / len(w), 2) for x in j.get("halo_exchange_ms_by_level", [])], "agglomerated ms/cycle", round(j.get("agglomerated_ms", 0) / len(w), 2))
PY
cat $OUT/summary.txt
