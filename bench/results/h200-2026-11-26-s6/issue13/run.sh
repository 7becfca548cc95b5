#!/usr/bin/env bash
# Issue 13 (session 6): stencil_bench before (carry/base, 793dbe1) and after (carry/bin, main),
# interleaved on one card; then the register counts of the stream-temporal kernels (issue 16).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/card.txt
for s in j2d5pt=8192x8192 j3d7pt=512x512x512; do
  n=${s%%=*}
  t=$SECONDS; timeout 140 $here/base/stencil_bench --device NVIDIA --json $OUT/before-$n.json $s > $OUT/before-$n.txt 2>&1; echo "before $n: $? in $((SECONDS - t)) s"
  t=$SECONDS; timeout 140 $here/bin/stencil_bench --device NVIDIA --json $OUT/after-$n.json $s > $OUT/after-$n.txt 2>&1; echo "after $n: $? in $((SECONDS - t)) s"
done
for f in $here/probe16/*.cl; do echo "== $(basename $f)"; $here/bin/probe $f -cl-nv-verbose 2>&1 | grep -i "registers\|spill\|kernel\|smem\|lmem" | head -8; done > $OUT/registers.txt
cat $OUT/registers.txt
