#!/usr/bin/env bash
# The arithmetic-bound large stencils of issue 32 on a GPU: box2d4r (8192^2), box3d2r, box3d3r,
# box3d4r (512^3), each explored with a 16 s budget, beside the copy roofline and the FMA peak
# (both measured and cached by tessera; the report says per point which bounds it). Prints, per
# stencil, the best time, the time each ceiling allows and the best's fraction of the lower one
# (goal: >= 50%), and which family and parameters won (stream-nd sums=1: partial sums by plane).
#   BUILD=build DEVICE=NVIDIA OUT=/tmp/large bash bench/large_stencils.sh [NAME...]
# TESSERA=path/to/tessera WRITER=path/to/large_stencils BENCH=path/to/stencil_bench: binaries
# elsewhere than BUILD (a copy carried to the GPU machine); BUDGET=60 for a longer search.
# Then stencil_bench times the partial-sum (stream-nd sums=1), vectorized and coarsened variants
# of each directly, beside the plain lowering (a 16 s search may not reach them: each point of a
# 729-point box costs seconds to build); ONLY=words changes the families, ONLY= skips it.
# SMALL=1: a dry run on PoCL at 256^2 / 32^3 (checks the script, not the numbers).
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$root/build}
OUT=${OUT:-/tmp/large-stencils}
BUDGET=${BUDGET:-16}
TESSERA=${TESSERA:-$BUILD/tools/tessera}
WRITER=${WRITER:-$BUILD/bench/large_stencils}
BENCH=${BENCH:-$BUILD/bench/stencil_bench}
ONLY=${ONLY-sums,vectorized,coarsened}
mkdir -p "$OUT/programs"
if [ "${SMALL:-0}" = 1 ]; then
  DEVICE=${DEVICE:-pthread}; S2=256x256; S3=32x32x32
else
  DEVICE=${DEVICE:-NVIDIA}; S2=8192x8192; S3=512x512x512
fi
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(box2d4r box3d2r box3d3r box3d4r)
"$WRITER" "$OUT/programs" "${names[@]}" || exit 2
for name in "${names[@]}"; do
  case $name in *2d*) size=$S2 ;; *) size=$S3 ;; esac
  echo "== $name $size, budget $BUDGET s on $DEVICE"
  "$TESSERA" explore --program "$OUT/programs/$name.json" --size "$size" \
    --device "$DEVICE" --budget "$BUDGET" --json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1
  echo "   exit $? (full output: $OUT/$name.txt)"
done
python3 - "$OUT" "${names[@]}" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
print(f"{'stencil':9} {'best ms':>9} {'bytes ms':>9} {'FMA ms':>9} {'bound':>6} {'of lower':>8}  "
      f"{'measured':>9}  best variant")
for name in names:
    try:
        r = json.load(open(f"{out}/{name}.json"))
    except (OSError, ValueError) as e:
        print(f"{name:9} no report ({e})"); continue
    points = {p["id"]: p for p in r["points"]}
    best = points.get(r.get("best"))
    cells = 1
    for e in r["size"]:
        cells *= e
    bytes_ms = r["footprint_bytes"] / (r["device"]["copy_gb_per_s"] * 1e9) * 1e3
    c = r.get("compute", {})
    fma_ms = cells * c.get("flops_per_output", 0) / (c.get("peak_gflops", 0) * 1e9) * 1e3 \
        if c.get("peak_gflops") else float("nan")
    lower = max(bytes_ms, fma_ms)  # the tighter ceiling allows the longer time
    if not best:
        print(f"{name:9} no point measured"); continue
    ms = best["median_ms"]
    steps = "; ".join(s.get("text", "") for s in best.get("history", [])) or "plain"
    print(f"{name:9} {ms:9.3f} {bytes_ms:9.3f} {fma_ms:9.3f} "
          f"{'FMA' if fma_ms > bytes_ms else 'bytes':>6} {100 * lower / ms:7.1f}%  "
          f"{len(r['points']):4}/{r['space']['points']:<4}  {steps} [{best.get('mapping', {}).get('kind', '')}]")
PY
if [ -n "$ONLY" ]; then
  runs=()
  for name in "${names[@]}"; do
    case $name in *2d*) runs+=("$name=$S2") ;; *) runs+=("$name=$S3") ;; esac
  done
  echo "== stencil_bench --only $ONLY (full output: $OUT/stencil_bench.txt)"
  "$BENCH" --device "$DEVICE" --only "$ONLY" --json "$OUT/stencil_bench.json" "${runs[@]}" \
    >"$OUT/stencil_bench.txt" 2>&1
  grep -E "^== |best:|best vs plain|plain MapGlb" "$OUT/stencil_bench.txt"
fi
