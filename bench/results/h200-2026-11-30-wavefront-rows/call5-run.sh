#!/bin/bash
# F and V cycles at 256^3 and 512^3: before (16x8 tiles), after (32x8, 4 rows, 32 groups a
# compute unit wanted) and seg8 (8 groups a compute unit wanted), in turn.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
R=$OUT/r.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $R
B=$PWD/carry/bin
$B/tessera solve poisson3d --size 64 --device NVIDIA --max-cycles 2 -q > /dev/null 2>&1
for rep in 1 2 3; do
 for t in tessera-before tessera tessera-seg8; do
  echo "$t rep=$rep F512 $($B/$t solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA 2>&1 | grep -E '^cycle  1' | cut -c1-120)" >> $R
  echo "$t rep=$rep F256 $($B/$t solve poisson3d --size 256 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA 2>&1 | grep -E '^cycle  [12]' | cut -c1-120 | tr '\n' '|')" >> $R
  echo "$t rep=$rep V256 $($B/$t solve poisson3d --size 256 --tol 1e-30 --max-cycles 8 --device NVIDIA 2>&1 | grep -E 'time per cycle' | cut -c1-100)" >> $R
  echo "$t rep=$rep V512 $($B/$t solve poisson3d --size 512 --tol 1e-30 --max-cycles 8 --device NVIDIA 2>&1 | grep -E 'time per cycle' | cut -c1-100)" >> $R
 done
done
for t in tessera-before tessera tessera-seg8; do
  echo "$t profile F256:" >> $R
  $B/$t solve poisson3d --size 256 --cycle F --pre 3 --post 3 --max-cycles 1 --device NVIDIA --profile 2>&1 | grep -E "^  [a-z]|^cycle  1" >> $R
done
timeout 100 $B/wavefront_bench --device NVIDIA --steps 4 --shapes 32x8x2x4,32x8x4x4,32x8x5x4,32x8x8x4,32x8x16x4,16x8x9x1 256 > $OUT/wf.txt 2>&1
grep -E "f64|wavefront|out of place" $OUT/wf.txt >> $R
cat $R
