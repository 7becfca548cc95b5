#!/usr/bin/env bash
# Issue 16: does occupancy limit the 3-D register window? The same kernels built with the
# register count capped (-cl-nv-maxrregcount) so that two work-groups of 800-864 fit an SM.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export TESSERA_CACHE_DIR=off
for cap in none 36 32; do
  if [ $cap = none ]; then unset TESSERA_BUILD_OPTIONS; else export TESSERA_BUILD_OPTIONS="-cl-nv-maxrregcount=$cap"; fi
  t=$SECONDS; timeout 70 $here/bin/stencil_bench --device NVIDIA --tiles 16x32 --steps 4 --only stream --fused registers j3d7pt=512x512x512 > $OUT/maxrreg-$cap.txt 2>&1; echo "cap $cap: $? in $((SECONDS - t)) s"
  grep -h "sweeps of the best\|whole march  \|best fused\|x faster" $OUT/maxrreg-$cap.txt | cut -c1-150
done
