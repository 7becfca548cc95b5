#!/bin/bash
# The wavefront (32x8, 4 rows) on smaller levels: wavefront_bench at 64-128, mg_bench V(2,2)
# with the wavefront from 256, 128 and 64 per side.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
R=$OUT/r.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $R
B=$PWD/carry/bin
timeout 100 $B/wavefront_bench --device NVIDIA --steps 4 --shapes 32x8x0x4,16x8x0x4,16x8x0x2,32x4x0x4,32x4x0x2 64 128 > $OUT/wf.txt 2>&1
grep -E "f64|wavefront|out of place" $OUT/wf.txt >> $R
for rep in 1 2; do
 for side in 256 128 64; do
  timeout 120 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --wavefront-side $side 256 512 > $OUT/mg$side-$rep.txt 2>&1
  echo "== side $side rep $rep rc=$?" >> $R
  grep -E "^[0-9]+\^3|smooth" $OUT/mg$side-$rep.txt >> $R
 done
done
cat $R
