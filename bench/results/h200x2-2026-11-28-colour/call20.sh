#!/usr/bin/env bash
# Call 20 (2 x H200): issue 36, the solver on one and two GPUs with the halo exchanges of one
# colour on and off (interleaved); issue 34, HPGMG-FV's 4th order with the one-launch limit.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
B=$here/bin
export TESSERA_CACHE_DIR=/tmp/c20
cd /tmp
two() {
  timeout 120 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $B/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA "$@" 2>&1 | grep -E "^cycle|outside|coarse|halo bytes|built|time per cycle"
}
{
nvidia-smi -L
echo "######## 36 solver 2 GPUs (first run builds)"
two --colour-exchanges on --json $OUT/two-on-0.json
for i in 1 2; do
  for c in on off; do echo "== 2 ranks colour-exchanges $c ($i)"; two --colour-exchanges $c --json $OUT/two-$c-$i.json; done
  echo "== 1 rank ($i)"
  /tmp/rankwrap.sh timeout 90 $B/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA --json $OUT/one-$i.json 2>&1 | grep -E "^cycle|built|time per cycle"
done
echo "######## 34 hpgmg3d order 4 at 32^3: how long its kernels take to build"
t=$SECONDS; timeout 240 stdbuf -oL $B/tessera solve hpgmg3d --order 4 --size 32 --device NVIDIA --max-cycles 1 2>&1 | grep -vE "^ +[a-z]" | head -20; echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s"
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
