#!/usr/bin/env bash
# Call 5: differential fuzzing on the GPU with new seeds (10 x 1000 cases in parallel), seed 3105's
# workaround candidates, the 1024^3 sweep with the set-up on every core.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
nvidia-smi -L > $OUT/card.txt; nproc >> $OUT/card.txt
mkdir -p /tmp/fz; cd /tmp/fz
for s in $(seq 6001 6010); do
  ( TESSERA_DEVICE=NVIDIA TESSERA_CACHE_DIR=/tmp/fzc$s timeout 400 $here/bin/tessera_fuzz --seed $s --cases 1000 --out /tmp/fz/f$s > /tmp/fz/log$s.txt 2>&1; echo "rc $?" >> /tmp/fz/log$s.txt ) &
done
{ cd $here/p3105; for k in b_builtin b_selectfn b_long b_remsub post5; do $here/probe/runi $k.cl x.bin; done; } > $OUT/p3105.txt 2>&1
wait
for s in $(seq 6001 6010); do echo "seed $s: $(tail -2 /tmp/fz/log$s.txt | tr '\n' ' ')"; done > $OUT/fuzz.txt
tar czf $OUT/fuzz-failures.tgz -C /tmp/fz . 2>/dev/null
{ echo "== two ranks k4"; timeout 90 $MPI -np 2 /tmp/rankwrap.sh $T sweep j3d7pt --device NVIDIA --tuning-db off --size 1024x1024x1024 --steps 4 --iterations 6; echo "rc $?"; } > $OUT/sweep.txt 2>&1
cat $OUT/card.txt $OUT/p3105.txt $OUT/fuzz.txt; grep -E "==|setup|time|checksum|rc" $OUT/sweep.txt
