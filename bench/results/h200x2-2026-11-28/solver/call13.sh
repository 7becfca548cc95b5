#!/usr/bin/env bash
# Call 13 (2 x H200): the solver at 512^3 with earlier agglomeration (fewer exchanges of small
# levels) and halos of width 2.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
export OMPI_MCA_btl_vader_single_copy_mechanism=none
cd /tmp
HALO="2" AGGLOMERATE="1000000 8000000" TESSERA_CACHE_DIR=/tmp/c-new timeout 300 bash $here/solver_two_gpus.sh $here/bin $OUT/agg 2>&1 | tail -30
