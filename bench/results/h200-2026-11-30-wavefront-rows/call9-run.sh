#!/bin/bash
# The final binary: F(3,3) and V(2,2) at 512^3 (f64), V(2,2) f32, one NVIDIA GPU.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
R=$OUT/r.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $R
B=$PWD/carry/bin
$B/tessera solve poisson3d --size 64 --device NVIDIA --max-cycles 2 -q > /dev/null 2>&1
for rep in 1 2 3 4; do
  echo "rep=$rep F512 $($B/tessera solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 1 --device NVIDIA 2>&1 | grep -E '^cycle  1|max error' | cut -c1-120 | tr '\n' '|')" >> $R
done
echo "V512 $($B/tessera solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA 2>&1 | grep -E 'time per cycle' | cut -c1-100)" >> $R
echo "f32 V512 $($B/tessera solve poisson3d --size 512 --precision f32 --tol 1e-30 --max-cycles 8 --device NVIDIA 2>&1 | grep -E 'time per cycle' | cut -c1-100)" >> $R
echo "kernels: $($B/tessera solve poisson3d --size 512 --max-cycles 1 --device NVIDIA 2>&1 | grep -E "finest level" | cut -c1-200)" >> $R
cat $R
