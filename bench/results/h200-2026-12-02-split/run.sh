#!/bin/bash
# One call on the device: the split launch on an NVIDIA GPU (its tests against the interpreter,
# an exploration that includes it, and the variant run against the plain lowering).
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/log.txt
TESSERA_DEVICE=NVIDIA carry/bin/test_codegen -tc="*split*" > $OUT/test_split.txt 2>&1; echo "tests rc $?" >> $OUT/log.txt
for s in j3d27pt:256x256x256 gaussian:4096x4096; do
  name=${s%%:*}; size=${s#*:}
  v=$(carry/bin/tessera variants $name --size $size | grep -m1 "split-launch" | awk '{print $1}')
  carry/bin/tessera run $name --size $size --device NVIDIA --variant $v > $OUT/run-$name.txt 2>&1; echo "run $name v$v rc $?" >> $OUT/log.txt
  carry/bin/tessera explore $name --size $size --device NVIDIA --budget 20 --tuning-db off --json $OUT/explore-$name.json > $OUT/explore-$name.txt 2>&1; echo "explore $name rc $?" >> $OUT/log.txt
done
