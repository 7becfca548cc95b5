#!/bin/bash
# One call: 3-D stars and the 27-point box at 512^3 f32, stream-temporal with one step (2.5-D
# blocking: planes in local memory, or a star's column in registers) beside the coarsened lowering.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/log.txt
for s in star3d4r star3d2r box3d1r star3d1r; do
  timeout 140 carry/bin/stencil_bench --device NVIDIA --only stream-temporal,coarsened --json $OUT/$s.json $s=512x512x512 > $OUT/$s.txt 2>&1
  echo "$s rc $?" >> $OUT/log.txt
done
