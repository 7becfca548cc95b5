#!/bin/bash
# This call ran past its 540 s limit and returned nothing (its output went to /tmp, copied only at the end): call2.sh and call3.sh replace it.
# HPGMG-FV 4th order: the one-pass step's shapes (fv4_step_bench), then the solver with it (the
# default on a GPU) against the half-sweeps (--out-of-place-gsrb), alternating.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
T=carry/bin/tessera
nvidia-smi --query-gpu=name --format=csv,noheader
carry/bin/fv4_step_bench --device NVIDIA 256 512
for n in 512 256; do
  $T solve hpgmg3d --order 4 --size $n --device NVIDIA --max-cycles 1 -q > /dev/null 2>&1  # warm the kernel cache
  $T solve hpgmg3d --order 4 --size $n --device NVIDIA --max-cycles 1 -q --out-of-place-gsrb > /dev/null 2>&1
  for rep in 1 2; do
    echo "== $n one-pass (default) rep $rep"; $T solve hpgmg3d --order 4 --size $n --device NVIDIA --max-cycles 1 2>&1 | grep -v "^  "
    echo "== $n half-sweeps rep $rep"; $T solve hpgmg3d --order 4 --size $n --device NVIDIA --max-cycles 1 --out-of-place-gsrb 2>&1 | grep -v "^  "
  done
  echo "== $n one-pass --profile"; $T solve hpgmg3d --order 4 --size $n --device NVIDIA --max-cycles 1 --profile 2>&1 | tail -30
done
