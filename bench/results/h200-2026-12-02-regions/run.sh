#!/bin/bash
# One call on the device: HPGMG-FV's 4th order at 512^3, one F-cycle, with the binary $BIN
# (carry/bin/tessera-regions: the 4th-order operators' parts by inside mask, one launch each;
# carry/bin/tessera-main: their 2d slabs), TESSERA_CACHE_DIR empty at the start.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd
export LD_LIBRARY_PATH=$PWD/carry/lib:$LD_LIBRARY_PATH TESSERA_CACHE_DIR=/tmp/tc
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/log.txt
name=${BIN#tessera-}
/usr/bin/time -f "$name: %e s" carry/bin/$BIN solve hpgmg3d --order 4 --size 512 --device NVIDIA \
  --max-cycles 1 --json $OUT/$name.json --timeline $OUT/$name-timeline.json >> $OUT/log.txt 2>&1
