#!/usr/bin/env python3
"""The scaling model of docs/distributed.md: predicted parallel efficiency of a distributed
j3d7pt sweep (f32, radius 1) on H100s, from the measured single-device sweep bandwidth and
stated network bandwidths. Prints the tables of the document."""

B_DEV = 2480e9     # best explored j3d7pt sweep on one H100, bytes read + written per second
LAUNCH = 5e-6      # seconds per kernel launch or rectangle copy (stated)
ALPHA = 5e-6       # seconds per message phase: MPI latency over InfiniBand (stated)
B_PCIE = 25e9      # device <-> host rectangle copies of the halo faces (stated, PCIe 5)
B_NVLINK = 150e9   # MPI between the 8 GPUs of a node through host memory (stated)
B_IB = 50e9        # InfiniBand NDR 400 Gb/s per GPU between nodes (stated)
R, E = 1, 4        # radius, bytes per value


def period(n, k, ranks_per_dim, net, staged=True):
    """Seconds of one exchange period (k steps) on an interior rank with a block of n^3."""
    split = [p > 1 for p in ranks_per_dim]
    h = R * k
    # Compute: step s works on the block extended by (k - s) r on each internal side.
    work = 0.0
    for s in range(1, k + 1):
        ext = [n + (2 * (k - s) * R if sp else 0) for sp in split]
        work += 2 * E * ext[0] * ext[1] * ext[2] / B_DEV
    launches = k * (1 + 2 * sum(split)) + 2 * (1 + 2 * sum(split))  # kernels + box copies
    compute = work + launches * LAUNCH
    # Halo: 2 faces per split dimension, each n^2 h values (plus the halos already received).
    halo = sum(2 * E * h * n * n for sp in split if sp)
    comm = sum(split) * ALPHA + halo / net + (2 * halo / B_PCIE if staged else 0)
    shell = 0.0
    interior = compute
    if any(split):
        inner = [n - 2 * h if sp else n for sp in split]
        frac = inner[0] * inner[1] * inner[2] / n ** 3
        interior, shell = compute * frac, compute * (1 - frac)
    return max(interior, comm) + shell, k * 2 * E * n ** 3 / B_DEV


def table(title, cases, staged=True):
    print(title)
    print("| GPUs | block per GPU | network | k=1 | k=2 | k=4 |")
    print("|---|---|---|---|---|---|")
    for gpus, n, dims, net, net_name in cases:
        effs = []
        for k in (1, 2, 4):
            t, ideal = period(n, k, dims, net, staged)
            effs.append(f"{ideal / t:.2f}")
        print(f"| {gpus} | {n}^3 | {net_name} | " + " | ".join(effs) + " |")
    print()


table("Weak scaling, 512^3 per GPU", [
    (8, 512, (2, 2, 2), B_NVLINK, "one node"),
    (64, 512, (4, 4, 4), B_IB, "InfiniBand"),
    (512, 512, (8, 8, 8), B_IB, "InfiniBand"),
])
table("Strong scaling, a 1024^3 grid", [
    (8, 512, (2, 2, 2), B_NVLINK, "one node"),
    (64, 256, (4, 4, 4), B_IB, "InfiniBand"),
    (512, 128, (8, 8, 8), B_IB, "InfiniBand"),
])
table("Strong scaling, a 1024^3 grid, halos sent from device memory (GPU-aware MPI: not built)", [
    (8, 512, (2, 2, 2), B_NVLINK, "one node"),
    (64, 256, (4, 4, 4), B_IB, "InfiniBand"),
    (512, 128, (8, 8, 8), B_IB, "InfiniBand"),
], staged=False)
