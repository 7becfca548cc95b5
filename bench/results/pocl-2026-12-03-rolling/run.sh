#!/usr/bin/env bash
# Rolling tiles against k sweeps of the fastest single sweep the explorer finds in 60 s, on this
# project's 2-core PoCL machine (build/ at the commit named in BENCHMARKS.md).
set -eu
./build/bench/time_tiling_bench --steps 4,8 --tiles 32 --max 3 --work-items 1 --repeats 3 \
    --sweep-budget 60 j2d5pt=8192x8192 gaussian=4096x4096
./build/bench/time_tiling_bench --steps 4 --tiles 16,32 --max 4 --work-items 1 --repeats 3 \
    --sweep-budget 60 j3d7pt=256x256x256
