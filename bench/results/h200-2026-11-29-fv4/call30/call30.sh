#!/usr/bin/env bash
# Call 30 (1 x H200): issue 34, where the 4th-order operator's time goes: its residual kernel at
# 512^3 as generated, its interior version alone (codegen interior_only, launched on the interior),
# that interior with the boundary form removed from its formula (wrong at the boundary: timing
# only), and the 2nd-order residual, each built and timed by a small OpenCL harness.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
E=$here/fv4exp
cd /tmp
{
nvidia-smi -L
export N=512
timeout 200 $E/cltime $E/fv2res.cl $E/fv4res.cl
OFF=4 timeout 200 $E/cltime $E/fv4res_int.cl $E/fv4res_inner.cl
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
