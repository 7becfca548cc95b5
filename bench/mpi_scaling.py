#!/usr/bin/env python3
"""Strong and weak scaling of `tessera sweep` and `tessera solve` on the CPU ranks of one machine.

Usage: python3 bench/mpi_scaling.py [path/to/tessera] [--ranks 1,2] [--repeat 3]
Prints Markdown tables (BENCHMARKS.md, "MPI"). One PoCL thread per rank; the single-device
solve (no mpirun) is the baseline of the solver's tables. Times are medians of --repeat runs:
the sweep's time of its iterations (slowest rank), the solver's mean wall time per cycle
after the first (which builds the kernels).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1", OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_mpi_yield_when_idle="1")


def run(tessera, ranks, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.json")
        cmd = [tessera] + args + ["--json", out, "-q"]
        if ranks:
            cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks)] + cmd
        subprocess.run(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def solve_ms(tessera, ranks, args, repeat):
    times = []
    for _ in range(repeat):
        j = run(tessera, ranks, ["solve"] + args + ["--max-cycles", "6", "--tol", "1e-30"])
        later = [c["wall_ms"] for c in j["cycles"][1:]]
        times.append(sum(later) / len(later))
    return statistics.median(times), j["cycles"][-1]["residual"]


def sweep_s(tessera, ranks, args, repeat):
    return statistics.median(run(tessera, ranks, ["sweep"] + args)["seconds"] for _ in range(repeat))


def table(title, header, rows):
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def main():
    tessera = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else \
        "build/tools/tessera"
    ranks = [1, 2]
    repeat = 3
    if "--ranks" in sys.argv:
        ranks = [int(x) for x in sys.argv[sys.argv.index("--ranks") + 1].split(",")]
    if "--repeat" in sys.argv:
        repeat = int(sys.argv[sys.argv.index("--repeat") + 1])

    # The solver: strong (one grid), weak (1-D, the points per rank fixed: the problems are cubes).
    for title, make in [
        ("Solver, strong scaling: poisson3d 64^3 f64 V(2,2) gsrb",
         lambda p: ["poisson3d", "--size", "64"]),
        ("Solver, strong scaling: poisson2d 512^2 f64 V(2,2) gsrb",
         lambda p: ["poisson2d", "--size", "512"]),
        ("Solver, weak scaling: poisson1d 2^18 points per rank f64 V(2,2) gsrb",
         lambda p: ["poisson1d", "--size", str(2**18 * p)]),
    ]:
        rows = []
        base, res = solve_ms(tessera, None, make(1), repeat)
        rows.append(["1 device (no mpirun)", " ".join(make(1)[1:]), f"{base:.1f}", "1.00", f"{res:.6e}"])
        for p in ranks:
            ms, r = solve_ms(tessera, p, make(p), repeat)
            rows.append([f"{p} rank{'s' if p > 1 else ''}", " ".join(make(p)[1:]), f"{ms:.1f}",
                         f"{base / ms:.2f}", f"{r:.6e}"])
        table(title, ["run", "size", "ms per cycle", "speedup / efficiency", "residual after 6 cycles"], rows)

    # The sweep: j3d7pt f32, slabs, k = 1, 24 steps.
    for title, make in [
        ("Sweep, strong scaling: j3d7pt 128^3 f32, 24 steps, k=1",
         lambda p: ["j3d7pt", "--size", "128x128x128"]),
        ("Sweep, weak scaling: j3d7pt 64x128x128 f32 per rank, 24 steps, k=1",
         lambda p: ["j3d7pt", "--size", f"{64 * p}x128x128"]),
    ]:
        rows = []
        base = None
        for p in ranks:
            s = sweep_s(tessera, p, make(p) + ["--ranks", f"{p}x1x1", "--steps", "1",
                                               "--iterations", "24", "--tuning-db", "off"], repeat)
            base = base or s
            rows.append([f"{p}", make(p)[2], f"{s:.3f}", f"{base / s:.2f}"])
        table(title, ["ranks", "size", "seconds", "speedup / efficiency"], rows)


if __name__ == "__main__":
    main()
