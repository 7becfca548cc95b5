#!/usr/bin/env bash
# Call 21 (2 x H200): issue 36, the solver on two GPUs before (bin-old) and after (bin) the queue
# is flushed before an overlapped exchange's waits; one GPU beside them; interleaved twice.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c21
cd /tmp
two() {
  local bin=$1; shift
  timeout 120 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $bin/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle|outside|built"
}
{
nvidia-smi -L
echo "######## warm-up (builds)"
two $here/bin --json $OUT/warm.json > /dev/null
for i in 1 2; do
  for b in bin-old bin; do echo "== 2 ranks $b ($i)"; two $here/$b --json $OUT/two-$b-$i.json; done
  echo "== 2 ranks bin --overlap off ($i)"; two $here/bin --overlap off --json $OUT/two-nooverlap-$i.json
  echo "== 1 rank ($i)"
  /tmp/rankwrap.sh timeout 90 $here/bin/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA --json $OUT/one-$i.json 2>&1 | grep -E "^cycle|built"
done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "wall 3-6 %.2f device %.2f" % (sum(w[2:]) / 4, sum(d[2:]) / 4), "exchanges", [round(x, 2) for x in j.get("halo_exchange_ms_by_level", [])], "agglomerated", round(j.get("agglomerated_ms", 0), 2))
PY
