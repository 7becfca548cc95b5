#!/usr/bin/env bash
# Call 12 (2 x H200): the distributed solver at 512^3 on 1 and 2 GPUs, wide halos (before) and
# halos of width 1 (after), bench/solver_two_gpus.sh.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export OMPI_MCA_btl_vader_single_copy_mechanism=none
nvidia-smi -L
cd /tmp
echo "######## before (wide halos)"
TESSERA_CACHE_DIR=/tmp/c-old timeout 280 bash $here/solver_two_gpus.sh $here/bin-old $OUT/before 2>&1 | tail -30
echo "######## after (width 1, and width 2)"
HALO="1 2" TESSERA_CACHE_DIR=/tmp/c-new timeout 300 bash $here/solver_two_gpus.sh $here/bin $OUT/after 2>&1 | tail -40
