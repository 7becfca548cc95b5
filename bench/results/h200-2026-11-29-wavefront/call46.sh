#!/usr/bin/env bash
# Call 46 (one H200): issue 34, Poisson's wavefront with its planes in local memory against the
# two half-sweeps, over tile shapes and segment counts, 256^3 and 512^3 f64, then f32 at 512^3.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c46
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 200 $B/wavefront_bench --device NVIDIA --steps 4 --compiler-log --shapes 32x4,64x4,32x16,16x8,64x8,16x16,32x8x1,32x8x16,32x8x64 256 512 | grep -v "^ptxas info    : Function properties\|^ptxas info    : Compiling\|^$\|overriding noinline\|gmem\|Compile time"
timeout 100 $B/wavefront_bench --device NVIDIA --steps 4 --f32 --shapes 32x4,64x4 512
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
