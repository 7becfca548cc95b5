#!/usr/bin/env bash
# Call 33 (one H200): the roofline with copy kernels at several work-group sizes, and the best
# explored kernel of j3d7pt 512^3 and j2d5pt 8192^2 against it.
source carry/env.sh
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
export TESSERA_REMEASURE_ROOFLINE=1
carry/bin/tessera explore j3d7pt --size 512x512x512 --device NVIDIA --budget 30 --json $OUT/j3d7pt.json > $OUT/j3d7pt.log 2>&1
unset TESSERA_REMEASURE_ROOFLINE
carry/bin/tessera explore j2d5pt --size 8192x8192 --device NVIDIA --budget 30 --json $OUT/j2d5pt.json > $OUT/j2d5pt.log 2>&1
cp /tmp/tcache/roofline.json $OUT/ 2>/dev/null
