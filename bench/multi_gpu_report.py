#!/usr/bin/env python3
"""Tables of BENCHMARKS.md "Several GPUs of one host" from the results of
bench/multi_gpu_scaling.sh (results.jsonl: one JSON line per run, {"name", "rc", "result"}).

Usage: python3 bench/multi_gpu_report.py RESULTS.jsonl [SOLVER-RESULTS.jsonl ...]

Per sweep: time, GCells/s, parallel efficiency against the 1-rank run of the same k (strong:
same grid; weak: 512^3 per rank), the halo exchange's share of the time (the slowest rank's
exchange seconds over the run's seconds; with overlap the exchange runs during the interior's
steps, so shares add up to more than the time), and the exchange time the model of
docs/distributed.md predicts for the measured faces (B_PCIE for the two host crossings, B_NET
for MPI through host memory)."""
import json
import statistics
import sys

B_PCIE = 25e9  # stated in docs/distributed.md
B_NET = 150e9  # stated: MPI between the GPUs of one node through host memory


def load(paths):
    runs = {}
    for path in paths:
        for line in open(path):
            r = json.loads(line)
            runs[r["name"]] = r
    return runs


def modelled_exchange(result):
    """Seconds of all periods' exchanges on the slowest rank: every face this rank sends and
    receives crosses PCIe twice in all (read, write) and the network once."""
    ranks = result["ranks"]
    if all(r == 1 for r in ranks):
        return 0.0
    bytes_per_period = result["halo_bytes"] / result["iterations"] / max(1, _count(ranks))
    return result["iterations"] * (2 * bytes_per_period / B_PCIE + bytes_per_period / B_NET)


def _count(ranks):
    n = 1
    for r in ranks:
        n *= r
    return n


def sweeps(runs):
    print("| run | grid | ranks | k | s | GCells/s | efficiency | exchange s (share) | modelled exchange s |")
    print("|---|---|---|---|---|---|---|---|---|")
    base = {}
    for name, r in runs.items():
        j = r["result"]
        if "gcells_per_second" not in j or not (name.startswith("strong") or name.startswith("weak")):
            continue
        n = _count(j["ranks"])
        if n == 1:
            base[(j["steps"], tuple(j["size"]))] = j["gcells_per_second"]
    for name, r in runs.items():
        j = r["result"]
        if "gcells_per_second" not in j or not (name.startswith("strong") or name.startswith("weak")):
            continue
        n = _count(j["ranks"])
        one = base.get((j["steps"], tuple(j["size"]))) if name.startswith("strong") else \
            base.get((j["steps"], (512, 512, 512)))
        eff = j["gcells_per_second"] / (n * one) if one else float("nan")
        share = j["exchange_seconds"] / j["seconds"]
        print(f"| {name} | {'x'.join(map(str, j['size']))} | {'x'.join(map(str, j['ranks']))} | "
              f"{j['steps']} | {j['seconds']:.4f} | {j['gcells_per_second']:.1f} | {eff:.2f} | "
              f"{j['exchange_seconds']:.4f} ({share:.0%}) | {modelled_exchange(j):.4f} |")


def solver(runs):
    print("| run | ranks | ms per cycle (wall) | device ms | efficiency | halo GB per cycle | residual after 6 | max error |")
    print("|---|---|---|---|---|---|---|---|")
    single = {}
    rows = []
    for name, r in runs.items():
        j = r["result"]
        if "cycles" not in j:
            continue
        later = j["cycles"][1:]
        wall = statistics.mean(c["wall_ms"] for c in later)
        dev = statistics.mean(c["device_ms"] for c in later)
        n = _count(j["ranks"]) if j.get("ranks") else 1
        if name.endswith("single"):
            single[j["size"]] = wall
        rows.append((name, j, wall, dev, n))
    for name, j, wall, dev, n in rows:
        one = single.get(j["size"])
        eff = one / (n * wall) if one else float("nan")
        halo = j.get("halo_bytes", 0) or 0
        print(f"| {name} | {'x'.join(map(str, j['ranks'])) if j.get('ranks') else 'one device'} | "
              f"{wall:.1f} | {dev:.1f} | {eff:.2f} | {halo / len(j['cycles']) / 1e9:.2f} | "
              f"{j['cycles'][-1]['residual']:.6e} | {j.get('max_error', float('nan')):.4e} |")


if __name__ == "__main__":
    runs = load(sys.argv[1:])
    sweeps(runs)
    print()
    solver(runs)
