#!/usr/bin/env bash
# Call 1 (2 GPUs): seed 3105 replay on the GPU, fuzz throughput, the 1024^3 two-rank sweep with phases.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
T=$here/bin/tessera
nvidia-smi -L > $OUT/card.txt; free -g >> $OUT/card.txt
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism=none"
{
echo "== replay 3105"; TESSERA_DEVICE=NVIDIA timeout 60 $here/bin/tessera_fuzz --replay $here/repro/failure-seed3105-case423.json 2>&1 | tail -30
echo "== replay 3107"; TESSERA_DEVICE=NVIDIA timeout 60 $here/bin/tessera_fuzz --replay $here/repro/failure-seed3107-case237.json 2>&1 | tail -8
} > $OUT/replay.txt 2>&1
( t=$SECONDS; cd /tmp && TESSERA_DEVICE=NVIDIA timeout 100 $here/bin/tessera_fuzz --seed 5001 --cases 400 --out /tmp/ff > $OUT/fuzz5001.txt 2>&1; echo "rc $? in $((SECONDS-t)) s" >> $OUT/fuzz5001.txt ) &
{
echo "== one rank 1024^3 k4"; t=$SECONDS
timeout 120 $T sweep j3d7pt --size 1024x1024x1024 --steps 4 --iterations 6 --device NVIDIA --verbose --tuning-db off; echo "rc $? in $((SECONDS-t)) s"
echo "== two ranks 1024^3 k4"; t=$SECONDS
timeout 200 $MPI -np 2 /tmp/rankwrap.sh $T sweep j3d7pt --size 1024x1024x1024 --steps 4 --iterations 6 --device NVIDIA --verbose --tuning-db off & p=$!
for i in $(seq 150); do kill -0 $p 2>/dev/null || break; sleep 1; done; echo "-- at $i s:"; nvidia-smi --query-gpu=index,memory.used,utilization.gpu --format=csv
for q in $(pgrep -f "tessera sweep"); do echo "pid $q"; cat /proc/$q/wchan; echo; grep -E "VmRSS|Threads" /proc/$q/status; for t in /proc/$q/task/*; do echo "$(cat $t/comm) $(cat $t/wchan)"; done | sort | uniq -c; done
wait $p; echo "rc $? in $((SECONDS-t)) s"
} > $OUT/sweep.txt 2>&1
wait
cat $OUT/replay.txt | tail -20; tail -5 $OUT/fuzz5001.txt; tail -40 $OUT/sweep.txt
