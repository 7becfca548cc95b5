#!/usr/bin/env bash
# Issue 16, session 6, final numbers of main (one barrier per plane, prefetch, centre from registers).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
run() { local name=$1 secs=$2; shift 2; t=$SECONDS; timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1; echo "=== $name: exit $? in $((SECONDS - t)) s"; }
nvidia-smi --query-gpu=name --format=csv,noheader
run j3d7pt 150 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4x6x8 --only stream --fused registers j3d7pt=512x512x512
run j2d5pt 90 $here/bin/stencil_bench --device NVIDIA --tiles 32x256 --steps 4x8 --only stream --fused registers j2d5pt=8192x8192
run heat3d 60 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4 --only stream --fused registers heat3d=512x512x512
run smoother 160 $here/bin/smoother_bench --device NVIDIA --size 512 --steps 2 --tiles 16
grep -h "sweeps of the best\|best fused\|x faster than\|separate \|the separate steps\|fused jacobi" $OUT/*.txt
