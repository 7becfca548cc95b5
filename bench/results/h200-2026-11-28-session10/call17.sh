#!/usr/bin/env bash
# Call 17 (2 x H200): after this session's merges. 34: the coarse levels in one launch and one
# host wait a cycle (mg_bench sides 0/16/32, solve F-cycles with --separate-launches against the
# default), HPGMG-FV's 4th order at 512^3 (one F-cycle) and its error at 256^3; 36: the solver on
# 2 GPUs; 31: stencil_bench before (a586d4c) and after, interleaved.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
B=$here/bin; O=$here/bin-old
export TESSERA_CACHE_DIR=/tmp/c17
cd /tmp
{
nvidia-smi -L
echo "######## 34 mg_bench"
timeout 150 $B/mg_bench --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --coarse-launch 0,16,32 256 512 2>&1 | tail -40
echo "######## 34 solve F(3,3) one cycle"
for n in 256 512; do for o in --separate-launches "--coarse-launch 16" ""; do
  echo "== $n $o"; timeout 60 $B/tessera solve poisson3d --device NVIDIA --size $n --cycle F --pre 3 --post 3 --max-cycles 1 $o 2>&1 | grep -E "^cycle|coarse levels|built"; done; done
echo "######## 34 hpgmg3d order 4"
timeout 120 $B/tessera solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv4-512.json 2>&1 | grep -vE "^ +[a-z]" | head -30
timeout 60 $B/tessera solve hpgmg3d --order 2 --size 512 --device NVIDIA --max-cycles 1 2>&1 | grep -E "^cycle|error|DOF" | head
timeout 90 $B/tessera solve hpgmg3d --order 4 --size 256 --device NVIDIA 2>&1 | grep -iE "error|^cycle" | tail -6
echo "######## 36 solver 2 GPUs"
timeout 90 mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -np 2 /tmp/rankwrap.sh $B/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA 2>&1 | grep -E "^cycle|outside|coarse"
/tmp/rankwrap.sh $B/tessera solve poisson3d --size 512 --max-cycles 6 --tol 1e-30 --device NVIDIA 2>&1 | grep -E "^cycle" | tail -3
echo "######## 31 stencil_bench before/after interleaved"
for i in 1 2; do for b in $O $B; do
  echo "== $b"; timeout 80 $b/stencil_bench --device NVIDIA j2d5pt=8192x8192 j3d7pt=512x512x512 2>&1 | grep -E "^ *(j2d5pt|j3d7pt|family|best|plain|stream|tiled|local|vector|coarsen)" | head -30
done; done
} > $OUT/log.txt 2>&1
cat $OUT/log.txt
