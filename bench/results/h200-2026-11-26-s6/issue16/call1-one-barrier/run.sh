#!/usr/bin/env bash
# Issue 16, session 6: one barrier per plane (new, carry/bin) against one per level (old, carry/old16).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/card.txt
run() { local name=$1 secs=$2; shift 2; echo "=== $name"; timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1; echo "=== $name: exit $?"; }
run new-j3d7pt 150 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4x6x8 --only stream --fused stream-temporal j3d7pt=512x512x512
run old-j3d7pt 80 $here/old16/stencil_bench --device NVIDIA --tiles 16x32 --steps 4 --only stream --fused registers j3d7pt=512x512x512
run new-j2d5pt 90 $here/bin/stencil_bench --device NVIDIA --tiles 32x256 --steps 4x8 --only stream --fused stream-temporal j2d5pt=8192x8192
run old-j2d5pt 60 $here/old16/stencil_bench --device NVIDIA --tiles 32x256 --steps 8 --only stream --fused registers j2d5pt=8192x8192
run new-smoother 75 $here/bin/smoother_bench --device NVIDIA --size 512 --steps 2 --tiles 16
grep -h "sweeps of the best\|best fused\|x faster than\|separate \|the separate steps" $OUT/*.txt
