#!/bin/bash
# The wavefront by default on f32 levels too: f32 and mixed-precision solves, before and after.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
R=$OUT/r.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $R
B=$PWD/carry/bin
$B/tessera solve poisson3d --size 64 --device NVIDIA --max-cycles 2 -q > /dev/null 2>&1
for rep in 1 2 3; do
 for t in tessera-before tessera; do
  for n in 256 512; do
   echo "$t rep=$rep f32 V$n $($B/$t solve poisson3d --size $n --precision f32 --tol 1e-30 --max-cycles 8 --device NVIDIA 2>&1 | grep -E 'time per cycle|cycle  8' | cut -c1-100 | tr '\n' '|')" >> $R
   echo "$t rep=$rep mixed V$n $($B/$t solve poisson3d --size $n --precision mixed --max-cycles 12 --device NVIDIA 2>&1 | grep -E 'time per cycle|^cycle|max error' | tail -4 | cut -c1-100 | tr '\n' '|')" >> $R
  done
  echo "$t rep=$rep f64 F512 $($B/$t solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --device NVIDIA 2>&1 | grep -E '^cycle  1' | cut -c1-120)" >> $R
 done
done
cat $R
