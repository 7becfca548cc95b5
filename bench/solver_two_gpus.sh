#!/usr/bin/env bash
# The distributed multigrid solver on one and on two GPUs of one host (issue 36, "the solver
# across devices"): `tessera solve poisson3d --size N --max-cycles 6 --tol 1e-30 --device NVIDIA`
# on one rank and under `mpirun -np 2`, each rank started through a wrapper that names the
# vendor's OpenCL ICD (docs/distributed.md, "Running on a machine without Open MPI"). Prints,
# for both, the wall and device milliseconds per cycle (the mean over the 6 cycles, as the
# solver's own "time per cycle"; the slowest cycle too) and the halo bytes a cycle sends (all
# ranks).
#   bash bench/solver_two_gpus.sh BIN [OUT]
# BIN: the folder holding tessera. OUT (default /tmp/solver_two_gpus): the runs' output and JSON.
# Environment: SIZE (default 512), DEVICE (default NVIDIA), ICD (default libnvidia-opencl.so.1),
# MPIRUN (default mpirun), EXTRA (more options for both solves, e.g. "--cycle W"), AGGLOMERATE
# (the --agglomerate values of the two-rank runs, one run each, e.g. "4096 65536 1000000":
# agglomerating earlier trades the coarse levels' exchanges, a latency each, for a gather of a
# larger level onto rank 0; unset: the default, no option passed), HALO (the --halo widths, e.g.
# "1 2": width 2 exchanges about 40% less often, 18% more bytes; unset: none passed, so that a
# build without the option, such as the wide-halo one before it, runs too: the before and after
# of the same machine). A dry run on PoCL: SIZE=32 DEVICE=pthread ICD=libpocl.so.2.10.0 (the
# name in /etc/OpenCL/vendors/pocl.icd).
set -u
if [ $# -lt 1 ] || [ ! -x "$1/tessera" ]; then
  echo "usage: $0 BIN [OUT]   (BIN/tessera must exist)" >&2
  exit 2
fi
BIN=$(cd "$1" && pwd)
OUT=${2:-/tmp/solver_two_gpus}
SIZE=${SIZE:-512}
DEVICE=${DEVICE:-NVIDIA}
ICD=${ICD:-libnvidia-opencl.so.1}
MPIRUN=${MPIRUN:-mpirun}
EXTRA=${EXTRA:-}
mkdir -p "$OUT"
export TESSERA_CACHE_DIR=${TESSERA_CACHE_DIR:-$OUT/cache}

# Each rank sees the vendor's ICD, whatever OCL_ICD_FILENAMES mpirun passes on.
cat >"$OUT/rank.sh" <<W
#!/bin/sh
export OCL_ICD_FILENAMES=$ICD
exec "\$@"
W
chmod +x "$OUT/rank.sh"

solve=("$BIN/tessera" solve poisson3d --size "$SIZE" --max-cycles 6 --tol 1e-30 --device "$DEVICE")
# shellcheck disable=SC2206
extra=($EXTRA)

echo "== one rank"
"$OUT/rank.sh" "${solve[@]}" "${extra[@]}" --json "$OUT/one.json" >"$OUT/one.txt" 2>&1
echo "   exit status $? (1 expected: the tolerance 1e-30 is not reached; output: $OUT/one.txt)"
two=()
for h in ${HALO:-default}; do
  for a in ${AGGLOMERATE:-default}; do
    run="halo-$h-agglomerate-$a"
    options=()
    [ "$h" = default ] || options+=(--halo "$h")
    [ "$a" = default ] || options+=(--agglomerate "$a")
    echo "== two ranks ${options[*]}"
    $MPIRUN --bind-to none --oversubscribe -x TESSERA_CACHE_DIR ${LD_LIBRARY_PATH:+-x LD_LIBRARY_PATH} \
      -np 2 "$OUT/rank.sh" "${solve[@]}" "${extra[@]}" "${options[@]}" \
      --json "$OUT/two-$run.json" >"$OUT/two-$run.txt" 2>&1
    echo "   exit status $? (1 expected, as above; output: $OUT/two-$run.txt)"
    two+=("$OUT/two-$run.json")
  done
done

python3 - "$OUT/one.json" "${two[@]}" <<'PY'
import json, sys

def summary(path):
    try:
        j = json.load(open(path))
    except (OSError, ValueError) as e:
        return None, f"no result ({e})"
    cycles = j["cycles"]
    wall = sum(c["wall_ms"] for c in cycles) / len(cycles)
    device = sum(c["device_ms"] for c in cycles) / len(cycles)
    halo = j.get("halo_bytes", 0) / len(cycles)
    return (wall, device, halo, max(c["wall_ms"] for c in cycles), j), None

one = None
runs = [("1 rank", sys.argv[1])] + [(f"2 ranks ({p.split('two-')[-1][:-5]})", p) for p in sys.argv[2:]]
for name, path in runs:
    s, err = summary(path)
    if s is None:
        print(f"{name}: {err}")
        continue
    wall, device, halo, slowest, j = s
    print(f"{name}: {j['device']}, wall {wall:.2f} ms/cycle (slowest {slowest:.2f}), device {device:.2f} ms/cycle, "
          f"halo {halo / 1e6:.2f} MB/cycle, final relative residual "
          f"{j['cycles'][-1]['relative_residual']:.3e}, levels {len(j['levels'])}"
          + (f", agglomerated from level {j['agglomerated_level']}" if 'agglomerated_level' in j else ""))
    if "halo_exchanges_by_level" in j:
        n = len(j["cycles"])
        print("    per level and cycle: " + ", ".join(
            f"L{l} {e / n:g} exchanges {b / n / 1e6:.2f} MB"
            for l, (e, b) in enumerate(zip(j["halo_exchanges_by_level"], j["halo_bytes_by_level"]))))
    if one is None:
        one = wall
    else:
        print(f"    speed-up over 1 rank (wall per cycle): {one / wall:.2f}x")
PY
