#!/usr/bin/env bash
# Call 18 (H200): issue 32's large stencils (bench/large_stencils.sh: explore 12 s each, then the
# partial-sum variants timed directly) and issue 34's 4th-order HPGMG-FV F-cycle at 512^3.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
B=$here/bin
export TESSERA_CACHE_DIR=/tmp/c18
cd /tmp
{
nvidia-smi -L
echo "######## 34 hpgmg3d --order 4 --size 512, one F-cycle"
t=$SECONDS; timeout 170 stdbuf -oL -eL $B/tessera solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv4-512.json 2>&1 | head -40; echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s"
echo "######## 32 large stencils"
BUDGET=12 ONLY=sums TESSERA=$B/tessera WRITER=$B/large_stencils BENCH=$B/stencil_bench DEVICE=NVIDIA OUT=$OUT/large timeout 250 bash $here/../bench/large_stencils.sh box2d4r box3d2r box3d4r 2>&1 | tail -40
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
