#!/usr/bin/env bash
# Call 4 (2 GPUs): sweeps with fills in widened pieces; seed 3105's functions alone on the GPU.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
nvidia-smi -L > $OUT/card.txt
{ cd $here/p3105; for k in post5 post5_norestrict X cmp neg Y XgtY post5_sub; do $here/probe/runi $k.cl x.bin; $here/probe/runi $k.cl x.bin -cl-opt-disable; done; } > $OUT/p3105.txt 2>&1
sw() { local name=$1; shift; echo "== $name: $*"; t=$SECONDS; timeout 60 $MPI -np 2 /tmp/rankwrap.sh $T sweep j3d7pt --device NVIDIA --tuning-db off "$@" 2>&1; echo "rc $? in $((SECONDS-t)) s"; }
{
echo "== one rank k4"; timeout 60 $T sweep j3d7pt --device NVIDIA --tuning-db off --size 1024x1024x1024 --steps 4 --iterations 6
sw k4 --size 1024x1024x1024 --steps 4 --iterations 6
sw k4-off --size 1024x1024x1024 --steps 4 --iterations 6 --overlap off
} > $OUT/sweep.txt 2>&1
cat $OUT/p3105.txt; grep -E "==|setup|time|checksum|rc|error" $OUT/sweep.txt
