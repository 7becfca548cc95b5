#!/bin/bash
# The final binary's 16 s searches of the 3-D stars of radius 2-4 and the 27-point box (no
# database, a fresh kernel cache), the results packed into one file for the tool.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
T=carry/bin/tessera R=/tmp/call5
mkdir -p $R
for n in star3d2r star3d3r star3d4r box3d1r; do
  timeout 60 $T explore $n --size 512x512x512 --device NVIDIA --budget 16 --tuning-db off \
    --json $R/explore-$n.json > $R/explore-$n.txt 2>&1
  tar czf $OUT/call5.tgz -C $R .
done
