#!/bin/bash
# Call 1 (session 38): the wavefront's segments at 128^3, 256^3 and 512^3 (one step a pass, the
# 32x16 tile of 4 rows), then a hand-written feasibility prototype of a radius-4 and radius-2 3-D
# star (star_proto.c beside this script, built with `gcc -O2 star_proto.c -lOpenCL -lm`; not part of tessera: a column per work-item in registers, 1 or 4
# points along x).
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call1.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
echo "== wavefront 128" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x4x4,32x16x8x4,32x16x16x4,32x16x32x4,32x16x64x4 128 >> $L 2>&1
echo "== wavefront 256" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x4x4,32x16x8x4,32x16x12x4,32x16x16x4 256 >> $L 2>&1
echo "== wavefront 512" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x2x4,32x16x3x4,32x16x4x4,32x16x6x4,32x16x16x4 512 >> $L 2>&1
echo "== star prototype r4" >> $L
$B/star_proto 512 4 NVIDIA >> $L 2>&1
echo "== star prototype r2" >> $L
$B/star_proto 512 2 NVIDIA >> $L 2>&1
