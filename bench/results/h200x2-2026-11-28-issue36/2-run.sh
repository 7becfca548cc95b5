#!/usr/bin/env bash
# Call 2 (2 GPUs): where the two-rank 1024^3 sweep stops.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
nvidia-smi -L > $OUT/card.txt
{ echo "== probe 516"; timeout 60 $here/probe/rect 516; echo "rc $?"; echo "== probe 500"; timeout 60 $here/probe/rect 500; echo "rc $?"; } > $OUT/probe.txt 2>&1
sw() { local name=$1; shift; echo "== $name: $*"; t=$SECONDS; timeout 45 $MPI -np 2 /tmp/rankwrap.sh $T sweep j3d7pt --device NVIDIA --verbose --tuning-db off "$@" 2>&1 | grep -v "^\[rank .* +0\.[0-9]* s\] \(opening\|allocating\|choosing\)"; echo "rc $? in $((SECONDS-t)) s"; }
{
sw big --size 1024x1024x1024 --steps 4 --iterations 6
sw big-nooverlap --size 1024x1024x1024 --steps 4 --iterations 6 --overlap off
sw under2g --size 1000x1024x1024 --steps 4 --iterations 6
sw big-y --size 1024x1024x1024 --steps 4 --iterations 6 --ranks 1x2x1
} > $OUT/sweep.txt 2>&1
cat $OUT/probe.txt; cat $OUT/sweep.txt
