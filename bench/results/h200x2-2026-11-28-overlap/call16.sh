#!/usr/bin/env bash
# Call 16 (2 x H200): the distributed solver at 512^3, one call: 1 rank; 2 ranks before
# (a586d4c) and after (one wait per exchange, exchanges overlapped with the kernels, --overlap
# off too), Open MPI's default single-copy transport (CMA) and none.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
cd /tmp
S="solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA"
run() { local name=$1; shift; echo "== $name: $*"; timeout 100 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR "$@" 2>&1 | grep -E "^cycle|outside|distributed|time per|smooth|residual |prolong|error:" | grep -v tolerance | head -24; }
{
export TESSERA_CACHE_DIR=/tmp/c1
/tmp/rankwrap.sh $here/bin/tessera $S 2>&1 | grep -E "^cycle|per cycle" | tail -4
for mech in cma none; do
  run "before $mech" --mca btl_vader_single_copy_mechanism $mech -np 2 /tmp/rankwrap.sh $here/bin-old/tessera $S
  run "after $mech" --mca btl_vader_single_copy_mechanism $mech -np 2 /tmp/rankwrap.sh $here/bin/tessera $S
  run "after $mech overlap off" --mca btl_vader_single_copy_mechanism $mech -np 2 /tmp/rankwrap.sh $here/bin/tessera $S --overlap off
done
run "after cma halo 2" -np 2 /tmp/rankwrap.sh $here/bin/tessera $S --halo 2
/tmp/rankwrap.sh $here/bin/tessera $S 2>&1 | grep -E "^cycle|per cycle" | tail -4
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
