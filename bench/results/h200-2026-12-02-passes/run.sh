#!/bin/bash
# One call on the device: HPGMG-FV's 4th order at 512^3, one F-cycle, the split launches' parts
# beside their interiors (side queues) and one after another (--sequential-parts), the same
# binary and kernel cache.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/log.txt
T=carry/bin/tessera
run() { # name, flags...
  local name=$1; shift
  /usr/bin/time -f "$name: %e s" $T solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 \
    --json $OUT/$name.json --timeline $OUT/$name-timeline.json "$@" >> $OUT/log.txt 2>&1
}
run concurrent
run sequential --sequential-parts
run concurrent2
