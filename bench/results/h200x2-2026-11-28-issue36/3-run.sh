#!/usr/bin/env bash
# Call 3 (2 GPUs): clEnqueueFillBuffer over 2^31 bytes; the two-rank 1024^3 sweep with fills in pieces.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
nvidia-smi -L > $OUT/card.txt; nvidia-smi | grep Driver >> $OUT/card.txt
{ for a in "2097152000 1" "2164260864 1" "2164260864 4" "2164260864 64" "4294967296 1" "3221225472 1"; do timeout 15 $here/probe/fill $a; echo "rc $? ($a)"; done; } > $OUT/fill.txt 2>&1
sw() { local name=$1; shift; echo "== $name: $*"; t=$SECONDS; timeout 60 $MPI -np 2 /tmp/rankwrap.sh $T sweep j3d7pt --device NVIDIA --tuning-db off "$@" 2>&1; echo "rc $? in $((SECONDS-t)) s"; }
{
sw k4 --size 1024x1024x1024 --steps 4 --iterations 6
sw k1 --size 1024x1024x1024 --steps 1 --iterations 24
sw k4-off --size 1024x1024x1024 --steps 4 --iterations 6 --overlap off
echo "== one rank k4"; timeout 60 $T sweep j3d7pt --device NVIDIA --tuning-db off --size 1024x1024x1024 --steps 4 --iterations 6
} > $OUT/sweep.txt 2>&1
TESSERA_DEVICE=NVIDIA timeout 60 $here/bin/tessera_fuzz --replay $here/repro/failure-seed3105-case423.json > $OUT/replay3105.txt 2>&1
cat $OUT/card.txt $OUT/fill.txt; grep -E "==|setup|time|checksum|rc|error" $OUT/sweep.txt
