#!/bin/bash
# Call 1 (session 39): separate-axes on separable boxes (sepbox*), beside the non-separable
# boxes of the same sizes and point counts (box*), each a tessera explore in this one call.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
T=carry/bin/tessera
L=$OUT/call1.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
run() { # name size budget
  echo "== explore $1 $2 budget $3" >> $L
  timeout 120 $T explore $1 --size $2 --device NVIDIA --budget $3 --tuning-db off \
    --json /tmp/$1-$2.json >> $L 2>&1
  echo "rc $?" >> $L
}
run sepbox3d4r 512x512x512 24
run box3d4r 512x512x512 24
run sepbox3d2r 512x512x512 16
run box3d2r 512x512x512 16
run sepbox2d4r 8192x8192 16
run box2d4r 8192x8192 16
run sepbox3d1r 512x512x512 16
