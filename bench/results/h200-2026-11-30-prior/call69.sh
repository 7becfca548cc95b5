#!/usr/bin/env bash
# Call 69 (one H200): issue 32, where the small star and box stencils stand now: 30 s
# explorations (f32, no tuning database) of star2d4r 8192^2 and star3d2r, star3d4r, box3d1r
# 512^3; the winners and the fraction of the copy roofline.
source carry/env.sh
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
B=$PWD/carry/bin
mkdir -p $OUT/r
for name in star2d4r star3d2r star3d4r box3d1r; do
  case $name in *2d*) size=8192x8192 ;; *) size=512x512x512 ;; esac
  echo "== $name"
  timeout 100 $B/tessera_new explore --program carry/programs/$name.json --size $size --device NVIDIA --budget 30 --json $OUT/r/$name.json --tuning-db off > $OUT/r/$name.txt 2>&1
  grep -E "^result|measured .* of about" $OUT/r/$name.txt | cut -c1-300
  grep -E "^      [1-5]\. " $OUT/r/$name.txt | cut -c1-260
done > $OUT/log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r && rm -rf $OUT/r
cat $OUT/log.txt
