#!/usr/bin/env bash
# Call 32 (1 x H200): issue 34, the 4th order at 512^3 with its interior form apart (the operators
# without the boundary extrapolations on the interior, HPGMG's interpolations too; the whole kernels on the slabs).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
B=$here/bin
export TESSERA_CACHE_DIR=/tmp/c32
cd /tmp
{
nvidia-smi -L
for order in 4; do
  echo "######## hpgmg3d --order $order --size 512 --max-cycles 1"
  t=$SECONDS
  timeout 560 stdbuf -oL $B/tessera solve hpgmg3d --order $order --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv$order-512.json 2>&1 | grep -vE "^ +[a-z]" | head -30
  echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s"
done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
