#!/usr/bin/env python3
"""The distributed solver's scaling model of docs/distributed.md: the wall time per V(2,2) cycle
(GSRB, f64, cell-centred, 3-D) on two GPUs of one host split in slabs, predicted from one GPU's
measured cycle and two measured costs of a halo exchange, against the measured two-GPU cycle
(bench/results/h200x2-2026-11-28-coarse-halo/, call 26, two H200). Prints the table of the
document."""

ALPHA = 20e-6  # seconds per exchange, whatever its size: the 8 KiB faces of level 4 (measured)
B_FACE = 3.2e9  # bytes per second of a face end to end: read, Open MPI, written (measured, 1-4 MiB)
EXCHANGES = 9  # per level and cycle below the finest: 4 + 1 + 4 (pre-smoothing, residual, post)
EXCHANGES_FINEST = 10  # the finest level's, one more (after the correction)
AGGLOMERATED = 1.07e-3  # rank 0's agglomerated levels (16^3 and coarser), seconds a cycle
LAUNCHES_FINEST = 20  # about: the finest level's half-sweeps split around their exchanges, and the rest

# One GPU: (side, device seconds a cycle, wall seconds a cycle) as measured in the same call.
ONE_GPU = {512: (12.79e-3, 14.09e-3), 1024: (102.86e-3, 106.46e-3)}
MEASURED_TWO = {512: [12.85e-3, 13.19e-3], 1024: [68.73e-3]}  # wall seconds a cycle, per run


def face_bytes(side, level, colour):
    """Bytes of one face exchange of `level` on 2 ranks in slabs: a layer of side_l^2 f64 values,
    half of it where one colour moves (faces of 1 MiB or more on a GPU)."""
    n = side >> level
    layer = n * n * 8
    return layer // 2 if colour and layer >= 1 << 20 else layer


def two_gpus(side):
    device_one, wall_one = ONE_GPU[side]
    host = wall_one - device_one  # what one GPU's cycle spends outside its kernels
    device = device_one / 2
    finest_device = device * 7 / 8  # 7/8 of a V-cycle's bytes are the finest level's
    exchange = lambda level: ALPHA + face_bytes(side, level, True) / B_FACE
    # The finest level's exchanges overlap the interior launch that needs them.
    hidden = finest_device / LAUNCHES_FINEST
    finest = EXCHANGES_FINEST * max(0.0, exchange(0) - hidden)
    levels = 1
    while (side >> levels) ** 3 // 2 >= 4096:  # blocks of 4096 points and more stay split
        levels += 1
    coarse = sum(EXCHANGES * exchange(l) for l in range(1, levels))
    return device + finest + coarse + AGGLOMERATED + host, (finest, coarse)


print("| grid | one GPU (measured) | two GPUs, model | two GPUs, measured | model off by | "
      "finest / coarse exchanges not hidden |")
print("|---|---|---|---|---|---|")
for side in (512, 1024):
    model, (finest, coarse) = two_gpus(side)
    measured = sum(MEASURED_TWO[side]) / len(MEASURED_TWO[side])
    print(f"| {side}^3 | {ONE_GPU[side][1] * 1e3:.2f} ms | {model * 1e3:.2f} ms "
          f"({ONE_GPU[side][1] / model:.2f}x) | {measured * 1e3:.2f} ms "
          f"({ONE_GPU[side][1] / measured:.2f}x) | {100 * (model / measured - 1):+.0f}% | "
          f"{finest * 1e3:.2f} / {coarse * 1e3:.2f} ms |")

# What the goals need at 512^3: the face bandwidth at which two GPUs reach 1.4x one.
target = ONE_GPU[512][1] / 1.4
for b in (3.2e9, 6.4e9, 12.8e9, 25.6e9):
    B_FACE = b
    model, _ = two_gpus(512)
    print(f"faces at {b / 1e9:.1f} GB/s: 512^3 {model * 1e3:.2f} ms ({ONE_GPU[512][1] / model:.2f}x;"
          f" 1.4x needs {target * 1e3:.2f} ms)")
