#!/usr/bin/env bash
# Call 47 (one H200): issue 34, Poisson's wavefront in local memory with f staged too.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c47
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 200 $B/wavefront_bench --device NVIDIA --steps 4 --compiler-log --shapes 32x4,16x8,16x4,32x2,16x16,64x2,16x8x16,16x8x2 256 512 | grep -v "^ptxas info    : Function properties\|^ptxas info    : Compiling\|^$\|overriding noinline\|gmem\|Compile time\|stack frame" | grep -v "planes a barrier"
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
