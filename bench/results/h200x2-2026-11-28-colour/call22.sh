#!/usr/bin/env bash
# Call 22 (2 x H200): issue 36, where the devices wait: a temporary build that sums, per pair of
# consecutive kernels, the device's idle time between them (profiling END to START), labelled by
# the host step in between (TESSERA_TRACE_GAPS); 2 ranks, 512^3, 12 cycles; and 1 rank.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=/tmp/c22 TESSERA_TRACE_GAPS=1
cd /tmp
{
nvidia-smi -L
for i in 1 2; do
echo "== 2 ranks ($i)"
timeout 150 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x TESSERA_TRACE_GAPS -np 2 /tmp/rankwrap.sh $here/bin-trace/tessera solve poisson3d --size 512 --max-cycles 12 --tol 1e-30 --device NVIDIA 2>&1 | grep -vE "^ +[a-z]+ +[0-9.]+ ms +[0-9.]+%" | grep -E "gaps|->|^cycle|outside" | tail -60
done
echo "== 1 rank"
timeout 90 /tmp/rankwrap.sh $here/bin-trace/tessera solve poisson3d --size 512 --max-cycles 12 --tol 1e-30 --device NVIDIA 2>&1 | grep -E "gaps|->|^cycle" | tail -30
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
