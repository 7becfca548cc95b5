#!/usr/bin/env bash
# Call 45 (one H200): issue 34, what holds the wavefront back: the device compiler's registers
# and spills, and the barrier's global fence (each wavefront also with a local fence).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
export TESSERA_CACHE_DIR=/tmp/c45
B=$PWD/carry/bin
{
nvidia-smi -L
timeout 200 $B/wavefront_bench --device NVIDIA --steps 4 --local-fence --compiler-log --shapes 32x4x0x1,32x8x0x4,32x4x0x4 256 512 | grep -v "^ptxas info    : Function properties\|^ptxas info    : Compiling\|^$"
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
