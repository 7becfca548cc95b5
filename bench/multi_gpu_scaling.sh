#!/usr/bin/env bash
# Scaling on the GPUs of one host (BENCHMARKS.md, "Several GPUs of one host"): j3d7pt sweeps
# (strong and weak), the multigrid solver, exploring on every GPU. Results: OUT/results.jsonl
# (one JSON line per run; `python3 bench/multi_gpu_report.py` prints the tables), OUT/runs.txt.
#   PART=sweeps|explore|solver|rerun|all OUT=DIR bash multi_gpu_scaling.sh
# Run from a copy of this script in a folder that also holds bin/ (tessera, roofline), lib/ and
# lib2/ (shared libraries the machine lacks), env.sh (registers the OpenCL ICD, exports
# LD_LIBRARY_PATH) and mpi/ (made by scripts/portable-openmpi.sh). SMALL=1: a dry run on PoCL
# with small sizes and TESSERA=path/to/tessera.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PART=${PART:-all}
OUT=${OUT:-/tmp/out20}; mkdir -p "$OUT"
if [ "${SMALL:-0}" = 1 ]; then
  DEV=pthread; S1=32; S2=64; NPS="1 2"; EB=8; ITER=4; SOLVE1=32; SOLVE2=64
else
  source "$root/env.sh"; DEV=NVIDIA; S1=512; S2=1024; NPS="1 2 4"; EB=45; ITER=48; SOLVE1=512; SOLVE2=1024
  export LD_LIBRARY_PATH=$root/lib2:$LD_LIBRARY_PATH
fi
source "$root/mpi/env.sh"
export OMPI_MCA_btl_vader_single_copy_mechanism=none TESSERA_CACHE_DIR=/tmp/tc20
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
T=${TESSERA:-$root/bin/tessera}
MPI="mpirun --bind-to none --oversubscribe -x LD_LIBRARY_PATH -x OCL_ICD_VENDORS -x TESSERA_CACHE_DIR -x OMPI_MCA_btl_vader_single_copy_mechanism"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/log.txt"; }
# Each run's output goes to runs.txt, its --json (OUT/tmp/NAME.json) as one line of results.jsonl.
mkdir -p "$OUT/tmp"
run() {
  local name=$1; shift; log "$name: $*"
  timeout "${TMO:-120}" "$@" >"$OUT/tmp/$name.txt" 2>&1; local rc=$?
  { echo "=== $name (rc=$rc): $*"; cat "$OUT/tmp/$name.txt"; } >>"$OUT/runs.txt"
  tail -3 "$OUT/tmp/$name.txt" | tee -a "$OUT/log.txt"
  [ -f "$OUT/tmp/$name.json" ] && python3 -c "import json,sys; print(json.dumps({'name': sys.argv[1], 'rc': int(sys.argv[2]), 'result': json.load(open(sys.argv[3]))}))" "$name" $rc "$OUT/tmp/$name.json" >>"$OUT/results.jsonl"
  return 0
}

if [ "$PART" = rerun ]; then
  nvidia-smi -L >"$OUT/gpus.txt" 2>&1
  # The local step's variant and work-group: the fastest on one device at S1^3.
  best="0 auto"; bestg=0
  for v in 0 8; do
    for l in 32x4x1 64x2x1 128x1x1 32x8x1 256x1x1; do
      TMO=40 run var$v-$l $T sweep j3d7pt --size ${S1}x${S1}x${S1} --iterations 10 --device $DEV --variant $v --local $l --json "$OUT/tmp/var$v-$l.json" -q
      g=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gcells_per_second'])" "$OUT/tmp/var$v-$l.json" 2>/dev/null || echo 0)
      if python3 -c "import sys; sys.exit(0 if $g > $bestg else 1)"; then best="$v $l"; bestg=$g; fi
    done
  done
  set -- $best; V=$1; L=$2
  log "best local step: variant $V work-group $L ($bestg GCells/s)"
  for size in $S1 $S2; do
    for k in 1 4; do
      for np in $NPS; do
        TMO=120 run strong-$size-k$k-np$np $MPI -np $np $T sweep j3d7pt --size ${size}x${size}x${size} --steps $k --iterations $((ITER / k)) --device $DEV --variant $V --local $L --json "$OUT/tmp/strong-$size-k$k-np$np.json"
      done
    done
  done
  for k in 1 4; do
    for np in 2 4; do
      case $np in 2) sz=$((2*S1))x${S1}x${S1}; rk=2x1x1;; 4) sz=$((2*S1))x$((2*S1))x${S1}; rk=2x2x1;; esac
      TMO=120 run weak-k$k-np$np $MPI -np $np $T sweep j3d7pt --size $sz --ranks $rk --steps $k --iterations $((ITER / k)) --device $DEV --variant $V --local $L --json "$OUT/tmp/weak-k$k-np$np.json"
    done
  done
  PART=solver
fi
if [ "$PART" = sweeps ] || [ "$PART" = all ]; then
  nvidia-smi -L >"$OUT/gpus.txt" 2>&1; nvidia-smi topo -m >>"$OUT/gpus.txt" 2>&1
  [ "${SMALL:-0}" = 1 ] || TMO=60 run roofline $root/bin/roofline --device $DEV --sizes-mib 1024 --repeats 5
  # The rank-local step's variant: the fastest of the 13 on one device at S1^3.
  best=0; bestg=0
  for v in 0 1 2 3 4 5 6 7 8 9 10 11 12; do
    TMO=40 run var$v $T sweep j3d7pt --size ${S1}x${S1}x${S1} --iterations 10 --device $DEV --variant $v --json "$OUT/tmp/var$v.json" -q
    g=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gcells_per_second'])" "$OUT/tmp/var$v.json" 2>/dev/null || echo 0)
    if python3 -c "import sys; sys.exit(0 if $g > $bestg else 1)"; then best=$v; bestg=$g; fi
  done
  log "best local-step variant $best ($bestg GCells/s)"; echo $best >"$OUT/best_variant.txt"
  for size in $S1 $S2; do
    for k in 1 2 4; do
      for np in $NPS; do
        TMO=120 run strong-$size-k$k-np$np $MPI -np $np $T sweep j3d7pt --size ${size}x${size}x${size} --steps $k --iterations $((ITER / k)) --device $DEV --variant $best --json "$OUT/tmp/strong-$size-k$k-np$np.json"
      done
    done
  done
  for k in 1 4; do
    for np in $NPS; do
      case $np in 1) sz=${S1}x${S1}x${S1}; rk=1x1x1;; 2) sz=$((2*S1))x${S1}x${S1}; rk=2x1x1;; 4) sz=$((2*S1))x$((2*S1))x${S1}; rk=2x2x1;; esac
      TMO=120 run weak-k$k-np$np $MPI -np $np $T sweep j3d7pt --size $sz --ranks $rk --steps $k --iterations $((ITER / k)) --device $DEV --variant $best --json "$OUT/tmp/weak-k$k-np$np.json"
    done
  done
fi
if [ "$PART" = explore ] || [ "$PART" = all ]; then
  TMO=$((EB + 90)) run explore-one $T explore j3d7pt --size ${S1}x${S1}x${S1} --device $DEV --budget $EB --json "$OUT/tmp/explore-one.json"
  TMO=$((EB + 90)) run explore-all $T explore j3d7pt --size ${S1}x${S1}x${S1} --devices $DEV --budget $EB --json "$OUT/tmp/explore-all.json"
fi
if [ "$PART" = solver ] || [ "$PART" = all ]; then
  for n in $SOLVE1 $SOLVE2; do
    TMO=150 run solve-$n-single $T solve poisson3d --size $n --max-cycles 6 --tol 1e-30 --device $DEV --json "$OUT/tmp/solve-$n-single.json"
    for np in $NPS; do
      TMO=150 run solve-$n-np$np $MPI -np $np $T solve poisson3d --size $n --max-cycles 6 --tol 1e-30 --device $DEV --json "$OUT/tmp/solve-$n-np$np.json"
    done
  done
fi
rm -rf "$OUT/tmp"; log done
