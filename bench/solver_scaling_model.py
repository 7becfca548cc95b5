#!/usr/bin/env python3
"""The distributed solver's scaling model of docs/distributed.md: the wall time per V(2,2) cycle
(GSRB, f64, cell-centred, 3-D) on two GPUs of one host split in slabs, predicted from one GPU's
measured cycle, the measured cost of a face between the two GPUs and the measured cost of the
levels gathered onto every rank, against the measured two-GPU cycle (two H200: 512^3 from call
64, 1024^3 from call 63, each row's numbers from one call; bench/results/h200x2-2026-11-29-fused/).
Prints the table of the document."""

# A face between the two processes through the host memory both map (bench/mpi/face_exchange,
# call 35, two H200): 1 MiB in 62.6 us, 4 MiB in 177.7 us, read by one device and written by the
# other. The line through both points:
B_FACE = 3 * 2**20 / (177.7e-6 - 62.6e-6)  # bytes per second: 27.3 GB/s
ALPHA = 62.6e-6 - 2**20 / B_FACE  # seconds per exchange whatever its size: 24 us
EXCHANGES = 9  # per level and cycle below the finest: 4 + 1 + 4 (pre-smoothing, residual, post)
EXCHANGES_FINEST = 10  # the finest level's, one more (after the correction)
LAUNCHES_FINEST = 20  # about: the finest level's half-sweeps split around their exchanges, and the rest
GATHER_BELOW = 2**21  # blocks of fewer points are gathered onto every rank (the GPU default, 2 ranks)

# Measured (512^3: call 64, 1024^3: call 63): one GPU's (device, wall) seconds a cycle; the
# two-GPU runs' wall seconds a cycle and rank 0's time in the gathered levels (the wait for the
# kernels before the gather, its reads and the meeting with the other rank), seconds a cycle.
ONE_GPU = {512: (11.245e-3, 12.00e-3), 1024: (104.31e-3, 106.78e-3)}
MEASURED_TWO = {512: [8.57e-3, 8.45e-3], 1024: [58.44e-3]}
GATHERED = {512: 0.91e-3, 1024: 0.95e-3}


def face_bytes(side, level, colour):
    """Bytes of one face exchange of `level` on 2 ranks in slabs: a layer of side_l^2 f64 values,
    half of it where one colour moves (faces of 1 MiB or more on a GPU)."""
    n = side >> level
    layer = n * n * 8
    return layer // 2 if colour and layer >= 1 << 20 else layer


def two_gpus(side, b_face=B_FACE, alpha=ALPHA, gathered=None):
    device_one, wall_one = ONE_GPU[side]
    host = wall_one - device_one  # what one GPU's cycle spends outside its kernels
    device = device_one / 2
    finest_device = device * 7 / 8  # 7/8 of a V-cycle's bytes are the finest level's
    exchange = lambda level: alpha + face_bytes(side, level, True) / b_face
    # The finest level's exchanges overlap the interior launch that needs them.
    hidden = finest_device / LAUNCHES_FINEST
    finest = EXCHANGES_FINEST * max(0.0, exchange(0) - hidden)
    levels = 1
    while (side >> levels) ** 3 // 2 >= GATHER_BELOW:  # blocks this large stay split
        levels += 1
    coarse = sum(EXCHANGES * exchange(l) for l in range(1, levels))
    agglomerated = GATHERED[side] if gathered is None else gathered
    return device + finest + coarse + agglomerated + host, (finest, coarse, levels)


print("| grid | one GPU (measured) | two GPUs, model | two GPUs, measured | model off by | "
      "finest / coarse exchanges not hidden | split levels |")
print("|---|---|---|---|---|---|---|")
for side in (512, 1024):
    model, (finest, coarse, levels) = two_gpus(side)
    measured = sum(MEASURED_TWO[side]) / len(MEASURED_TWO[side])
    print(f"| {side}^3 | {ONE_GPU[side][1] * 1e3:.2f} ms | {model * 1e3:.2f} ms "
          f"({ONE_GPU[side][1] / model:.2f}x) | {measured * 1e3:.2f} ms "
          f"({ONE_GPU[side][1] / measured:.2f}x) | {100 * (model / measured - 1):+.0f}% | "
          f"{finest * 1e3:.2f} / {coarse * 1e3:.2f} ms | 0-{levels - 1} |")

# What limits 512^3: the parts of the cycle beyond half of one GPU's kernels.
model, (finest, coarse, _) = two_gpus(512)
device_one, wall_one = ONE_GPU[512]
print(f"512^3: half of one GPU's kernels {device_one / 2 * 1e3:.2f} ms, one GPU's time outside "
      f"its kernels {(wall_one - device_one) * 1e3:.2f} ms, gathered levels "
      f"{GATHERED[512] * 1e3:.2f} ms, exchanges {(finest + coarse) * 1e3:.2f} ms")
for gathered in (1.4e-3, 0.7e-3, 0.0):
    m, _ = two_gpus(512, gathered=gathered)
    print(f"gathered levels in {gathered * 1e3:.1f} ms: 512^3 {m * 1e3:.2f} ms ({wall_one / m:.2f}x)")
