#!/bin/bash
# Issue 34: HPGMG-FV 4th order at 512^3, one F-cycle, with each slab's own form (the
# extrapolations of the axes the slab reaches the ends of alone), one NVIDIA GPU. The build
# before it (e461b9e, the whole form on every slab) took 198.0 and 198.8 ms in two earlier calls.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
export TESSERA_CACHE_DIR=/tmp/tc
R=$OUT/log.txt
nvidia-smi -L > $R
echo "######## hpgmg3d --order 4 --size 512 --max-cycles 1" >> $R
t=$SECONDS
timeout 370 carry/bin/tessera solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv4.json --timeline $OUT/timeline.json 2>&1 | grep -vE "^ +[a-z]" | head -30 >> $R
echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s" >> $R
cat $R
