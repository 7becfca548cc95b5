#!/usr/bin/env bash
# Issue 16, session 6, second call: the input plane prefetched one plane ahead (carry/bin)
# against one barrier per plane without prefetch (carry/mid16).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/card.txt
run() { local name=$1 secs=$2; shift 2; echo "=== $name"; timeout "$secs" "$@" > "$OUT/$name.txt" 2>&1; echo "=== $name: exit $?"; }
run new-j3d7pt 100 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4x8 --only stream --fused registers j3d7pt=512x512x512
run mid-j3d7pt 60 $here/mid16/stencil_bench --device NVIDIA --tiles 16x32 --steps 4 --only stream --fused registers j3d7pt=512x512x512
run new-j2d5pt 100 $here/bin/stencil_bench --device NVIDIA --tiles 64x256 --steps 4x8 --only stream --fused registers j2d5pt=8192x8192
run mid-j2d5pt 50 $here/mid16/stencil_bench --device NVIDIA --tiles 32x256 --steps 8 --only stream --fused registers j2d5pt=8192x8192
run new-heat3d 60 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4 --only stream --fused registers heat3d=512x512x512
run new-smoother 110 $here/bin/smoother_bench --device NVIDIA --size 512 --steps 2 --tiles 16
grep -h "sweeps of the best\|best fused\|x faster than\|separate \|the separate steps" $OUT/*.txt
