#!/usr/bin/env bash
# Call 15 (2 x H200): where the distributed solver's time goes at 512^3: per-cycle walls, the
# agglomeration's phases (TESSERA_TRACE_AGG), Open MPI's single-copy (CMA) against none.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
cd /tmp
S="solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA"
run() { local name=$1; shift; echo "== $name: $*"; timeout 100 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR "$@" 2>&1 | grep -E "^cycle|outside|^\[|distributed|error:" | grep -v tolerance | head -60; }
{
export TESSERA_CACHE_DIR=/tmp/c1
/tmp/rankwrap.sh $T $S 2>&1 | grep -E "^cycle|per cycle" | tail -3
run none-default --mca btl_vader_single_copy_mechanism none -np 2 /tmp/rankwrap.sh $T $S
run cma-default --mca btl_vader_single_copy_mechanism cma -np 2 /tmp/rankwrap.sh $T $S
run none-halo2 --mca btl_vader_single_copy_mechanism none -np 2 /tmp/rankwrap.sh $T $S --halo 2
run none-agg64 -x TESSERA_TRACE_AGG=1 --mca btl_vader_single_copy_mechanism none -np 2 /tmp/rankwrap.sh $T $S --agglomerate 1000000
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
