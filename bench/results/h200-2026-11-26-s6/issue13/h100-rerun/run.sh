#!/usr/bin/env bash
# Issue 13: j3d7pt's split-join on work-groups family again, before and after, twice, interleaved.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
for i in 1 2; do
  for b in base bin; do
    t=$SECONDS; timeout 100 $here/$b/stencil_bench --device NVIDIA --only work-groups --json $OUT/rerun-$b-$i.json j3d7pt=512x512x512 > $OUT/rerun-$b-$i.txt 2>&1; echo "$b $i: $? in $((SECONDS - t)) s"
  done
done
