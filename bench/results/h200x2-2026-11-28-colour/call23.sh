#!/usr/bin/env bash
# Call 23 (2 x H200): issue 36, agglomerating earlier: the coarse levels' exchanges (9 a level and
# cycle, 30-150 us each) against gathering a larger level onto rank 0 (--agglomerate POINTS: a
# level whose blocks have fewer points moves); 2 ranks, 512^3, interleaved twice.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c23
cd /tmp
{
nvidia-smi -L
for i in 1 2; do for a in 4096 20000 150000 1100000; do
echo "== 2 ranks --agglomerate $a ($i)"
timeout 150 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $here/bin/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA --agglomerate $a --json $OUT/two-$a-$i.json 2>&1 | grep -E "^distributed|outside"
done; done
} > $OUT/log.txt 2>&1
python3 - $OUT <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(f)); w = [c["wall_ms"] for c in j["cycles"]]; d = [c["device_ms"] for c in j["cycles"]]
    print(os.path.basename(f), "wall 3-6 %.2f device %.2f" % (sum(w[2:]) / 4, sum(d[2:]) / 4), "agglomerated", round(j.get("agglomerated_ms", 0) / len(w), 2), "ms/cycle")
PY
cat $OUT/log.txt
