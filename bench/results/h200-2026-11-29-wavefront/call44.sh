#!/usr/bin/env bash
# Call 44 (one H200): issue 34, the wavefront with restrict kept on what it only reads and
# several planes per barrier: wavefront_bench over shapes at 256^3 and 512^3 (f64).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c44
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 250 $B/wavefront_bench --device NVIDIA --steps 4 --shapes 32x8x0x1,32x8x0x2,32x8x0x4,32x8x0x8,64x4x0x2,64x4x0x4,32x4x0x4,32x16x0x2,32x8x8x4,32x8x2x4,64x8x0x4 256 512
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
