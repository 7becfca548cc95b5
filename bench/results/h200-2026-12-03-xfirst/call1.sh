#!/usr/bin/env bash
# The explorer's order with the partial sums blocked along x first (issue 32), on one H200:
# 16 s searches without a tuning database, f32, 3-D 512^3, 2-D 8192^2 (main at the commit named in
# BENCHMARKS.md; binaries and the program files carried in carry/).
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib HOME=/tmp/home && mkdir -p $HOME
nvidia-smi --query-gpu=name --format=csv,noheader
for s in star3d2r star3d3r star3d4r box3d1r star2d4r; do
  case $s in *2d*) size=8192x8192 ;; *) size=512x512x512 ;; esac
  echo "== $s $size"
  ./carry/bin/tessera explore --program carry/programs/$s.json --size $size --device NVIDIA \
    --budget 16 --tuning-db off 2>&1 | grep -E "^\s+[0-9]\. |result:|copy roofline|finished|note:"
done
