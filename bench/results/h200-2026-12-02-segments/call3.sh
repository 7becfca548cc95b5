#!/bin/bash
# Call 3 (session 38): the wavefront's segments by the rule of at most one wave (4 work-groups a compute
# unit) against main at 7b594e1 (32 a compute unit), in turn: the default shapes in
# wavefront_bench, mg_bench V(2,2) at 128^3-512^3 (and the unfused bound, --out-of-place-gsrb),
# the solver's V(2,2) at 256^3 and 512^3 and one F(3,3) cycle at 512^3. One kernel cache.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
B=carry/bin
L=$OUT/call3.txt
nvidia-smi --query-gpu=name --format=csv,noheader > $L
echo "== wavefront_bench new" >> $L
$B/wavefront_bench --device NVIDIA --steps 12 --shapes 32x16x1x4,32x16x2x4 512 >> $L 2>&1; $B/wavefront_bench --device NVIDIA --steps 12 128 256 >> $L 2>&1
for round in 1 2; do
  for v in base new; do
    echo "== round $round: mg_bench $v" >> $L
    $B/mg_bench-$v --device NVIDIA --no-host --copy-mib 1024 --cycles 6 128 256 512 >> $L 2>&1
  done
done
echo "== mg_bench new --out-of-place-gsrb (the unfused bound)" >> $L
$B/mg_bench-new --device NVIDIA --no-host --copy-mib 1024 --cycles 6 --out-of-place-gsrb 256 512 >> $L 2>&1
for round in 1 2; do
  for v in base new; do
    for n in 256 512; do
      echo "== round $round: $v V(2,2) $n" >> $L
      $B/tessera-$v solve poisson3d --size $n --tol 1e-30 --max-cycles 8 --device NVIDIA >> $L 2>&1
    done
    echo "== round $round: $v F(3,3) 512" >> $L
    $B/tessera-$v solve poisson3d --size 512 --cycle F --pre 3 --post 3 --max-cycles 2 --device NVIDIA >> $L 2>&1
  done
done
