#!/bin/bash
# Issue 34: HPGMG-FV 4th order at 512^3, one F-cycle: before (tessera-old: main at e3418d2) and after
# (tessera: the interior form 2 cells deep, ee4e4ec), one NVIDIA GPU.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH
export TESSERA_CACHE_DIR=/tmp/tc
B=$PWD/carry/bin
R=$OUT/log.txt
nvidia-smi -L > $R
for v in old new; do
  bin=$B/tessera; [ $v = old ] && bin=$B/tessera-old
  extra=""; [ $v = new ] && extra="--timeline $OUT/timeline-new.json"
  echo "######## $v: hpgmg3d --order 4 --size 512 --max-cycles 1" >> $R
  t=$SECONDS
  timeout 290 $bin solve hpgmg3d --order 4 --size 512 --device NVIDIA --max-cycles 1 --json $OUT/fv4-$v.json $extra 2>&1 | grep -vE "^ +[a-z]" | head -30 >> $R
  echo "rc ${PIPESTATUS[0]} in $((SECONDS-t)) s" >> $R
done
cat $R
