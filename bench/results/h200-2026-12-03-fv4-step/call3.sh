#!/bin/bash
# More tile shapes of the one-pass step at 512^3 (call 2's were slower than the half-sweeps).
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd; export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH; timeout 200 carry/bin/fv4_step_bench --device NVIDIA --launches 4 --shapes 32x16x256,64x8x256,16x16x128,64x16x256,32x32x256,16x8x64 --segment-factors 1,2 512 > $OUT/call3.txt 2>&1; cat $OUT/call3.txt
