#!/usr/bin/env bash
# Call 35 (2 x H200): issue 36, the ways a face travels between the two GPUs' ranks, then the
# solver at 512^3 on one and two GPUs as today's baseline of the same call.
source carry/env.sh
cat > /tmp/rankwrap.sh <<'W'
#!/bin/sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
exec "$@"
W
chmod +x /tmp/rankwrap.sh
export TESSERA_CACHE_DIR=/tmp/c35
B=$PWD/carry/bin
mp() { timeout 200 mpirun --allow-run-as-root --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR "$@"; }
{
nvidia-smi -L; nvidia-smi topo -m
cat /proc/sys/kernel/yama/ptrace_scope 2>&1
which mpirun; mpirun --version | head -1
env | grep OMPI_; ompi_info --param btl vader --level 9 2>/dev/null | grep -i "single_copy\|eager_limit\|max_send" | head
for m in default cma none; do
  echo "== face_exchange, single copy: $m"
  opt=(); [ $m = default ] || opt=(--mca btl_vader_single_copy_mechanism $m)
  mp "${opt[@]}" -np 2 /tmp/rankwrap.sh $B/face_exchange --device NVIDIA --repeats 30
done
echo "== face_exchange, default again"
mp -np 2 /tmp/rankwrap.sh $B/face_exchange --device NVIDIA --repeats 30
} > $OUT/fx.txt 2>&1
{
echo "== 512 1 rank"; /tmp/rankwrap.sh timeout 150 $B/tessera solve poisson3d --size 512 --tol 1e-30 --device NVIDIA --max-cycles 8 --json $OUT/one-512.json 2>&1 | grep -E "^cycle|built|rror"
echo "== 512 2 ranks"; mp -np 2 /tmp/rankwrap.sh $B/tessera solve poisson3d --size 512 --tol 1e-30 --device NVIDIA --max-cycles 8 --json $OUT/two-512.json 2>&1 | grep -E "^cycle|outside|built|halo bytes|rror"
} > $OUT/solve.txt 2>&1
cat $OUT/fx.txt | cut -c1-400
tail -5 $OUT/solve.txt
