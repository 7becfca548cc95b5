#!/bin/bash
# One call on the device (session 36): HPGMG-FV's 4th order at 512^3, one F-cycle, with the
# binary before (carry/bin/tessera-base, main at 9a3402e) and after (carry/bin/tessera-new: alpha
# not read where a = 0, the half-sweeps' interiors in colour pairs), in the order $ORDER; then
# interior_bench with $BENCH_ARGS when given. One kernel cache for the call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader >> $OUT/log.txt
for b in $ORDER; do
  n=$(ls $OUT | grep -c "^$b-")
  /usr/bin/time -f "$b run $n: %e s" carry/bin/tessera-$b solve hpgmg3d --order 4 --size 512 \
    --device NVIDIA --max-cycles 1 --json $OUT/$b-$n.json >> $OUT/log.txt 2>&1
done
if [ -n "$BENCH_ARGS" ]; then carry/bin/interior_bench --device NVIDIA $BENCH_ARGS > $OUT/interior.txt 2>&1; fi
grep -E "^(base|new) run|cycle  1|smooth |residual|order " $OUT/log.txt
