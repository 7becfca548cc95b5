#!/bin/bash
# HPGMG-FV 4th order (call 1 ran past its limit and returned nothing): two shapes of the one-pass
# step, then one solve each way at 512^3; every result written as it comes.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
T=carry/bin/tessera
R=$OUT/call2.txt
nvidia-smi --query-gpu=name --format=csv,noheader >> $R
ls ~/.cache/tessera 2>&1 | head -3 >> $R
( time timeout 150 carry/bin/fv4_step_bench --device NVIDIA --launches 4 --shapes 32x16x128,32x8x128 --segment-factors 1,4 256 512 ) >> $R 2>&1
for args in "" "--out-of-place-gsrb"; do
  echo "== 512 $args" >> $R
  ( time timeout 100 $T solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 $args ) 2>&1 | grep -v "^  " >> $R
done
