#!/usr/bin/env bash
# Call 50 (one H200): issue 34, Poisson's wavefront with its loads two planes ahead (the loop
# unrolled by two, two register sets), over tile shapes, 256^3 and 512^3 f64.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c50
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 200 $B/wavefront_bench --device NVIDIA --steps 4 --compiler-log --shapes 32x8,16x4,32x4,16x16,16x8x16,16x8x2 256 512 | grep -v "^ptxas info    : Function properties\|^ptxas info    : Compiling\|^$\|overriding noinline\|gmem\|Compile time\|stack frame"
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
