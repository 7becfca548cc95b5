#!/usr/bin/env bash
# Call 38 (one H200): issue 34, how fast a buffer is zeroed by each way (bench/fill_bench.cpp).
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
timeout 200 carry/bin/fill_bench --device NVIDIA --sizes-mib 2,16,128,1024 --repeats 10 > $OUT/fill.txt 2>&1
cat $OUT/fill.txt
