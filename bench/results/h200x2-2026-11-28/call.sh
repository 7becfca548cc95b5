#!/usr/bin/env bash
# Call 11 (2 x H200): the exchange in pieces. Explore the best single-device kernel of 1024^3 and
# of a rank's extended block (516x1024x1024), then the sweep on 1 and 2 ranks (k = 4), and the
# exchange alone (overlap off), all in this one call.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
nvidia-smi -L
cd /tmp
ex() { echo "== explore $*"; t=$SECONDS; timeout 200 $T explore j3d7pt --device NVIDIA "$@" 2>&1 | grep -E "^result|^      1\.|finished" | head -12; echo "rc $? in $((SECONDS-t)) s"; }
sw() { local np=$1; shift; echo "== sweep np=$np $*"; t=$SECONDS; timeout 150 $MPI -np $np /tmp/rankwrap.sh $T sweep j3d7pt --device NVIDIA "$@" 2>&1 | grep -E "kernel   rank 0|setup|time|memory|checksum|error"; echo "rc $? in $((SECONDS-t)) s"; }
{
ex --size 516x1024x1024 --budget 60 --json $OUT/e516.json
ex --size 1024x1024x1024 --budget 80 --json $OUT/e1024.json
sw 1 --size 1024x1024x1024 --steps 4 --iterations 12 --json $OUT/s1.json
sw 2 --size 1024x1024x1024 --steps 4 --iterations 12 --json $OUT/s2.json
sw 2 --size 1024x1024x1024 --steps 4 --iterations 12 --overlap off --json $OUT/s2-off.json
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
