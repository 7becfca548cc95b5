#!/usr/bin/env bash
# Call 28 (2 x H200): issue 36, where the ranks run: Open MPI's binding (none, NUMA node, socket)
# against the faces' 3 GB/s; 512^3 and 1024^3 on two GPUs.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c28
cd /tmp
two() {
  local size=$1 bind=$2; shift 2
  timeout 150 mpirun $bind --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $here/bin/tessera solve poisson3d --size $size --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle  [2-5]|outside|rror"
}
{
nvidia-smi topo -m
lscpu | grep -iE "numa|socket"
for i in 1 2; do
  for b in "--bind-to none" "--map-by numa --bind-to numa" "--map-by socket --bind-to socket"; do
    tag=$(echo $b | tr -d ' -')
    echo "== 512 $b ($i)"; two 512 "$b" --max-cycles 8 --json $OUT/two-512-$tag-$i.json
  done
done
for b in "--bind-to none" "--map-by numa --bind-to numa"; do
  tag=$(echo $b | tr -d ' -')
  echo "== 1024 $b"; two 1024 "$b" --max-cycles 5 --json $OUT/two-1024-$tag.json
done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY' > $OUT/summary.txt
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "wall 2+ %.2f device %.2f" % (sum(w[1:]) / len(w[1:]), sum(d[1:]) / len(d[1:])), "exchange ms/cycle", [round(x / len(w), 2) for x in j.get("halo_exchange_ms_by_level", [])])
PY
cat $OUT/summary.txt
