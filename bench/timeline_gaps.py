#!/usr/bin/env python3
"""Where a device waited: the idle gaps of a `tessera solve --timeline FILE` trace.

Usage: python3 bench/timeline_gaps.py TRACE.json [TRACE.rank1.json ...] [--from-cycle C]
                                      [--to-cycle D] [--top N]

For each trace, over the cycles from C on (default 2: a first F-cycle is not like the others;
--to-cycle D: up to D only), prints the time per cycle from one "cycle" marker to the next, the time the device was
busy (the union of its commands), the time it sat idle, and the idle gaps summed by the pair of
commands around them (the command before the gap -> the one after), largest first. A gap holds
the device waiting for the host, and what the trace does not record: the packing kernels of a
one-colour face before its read, CLBlast's norm after the "norm read" marker, and a face's
write to the device with its unpacking, whose "... written" entry marks only their end.
"""
import argparse
import json
from collections import defaultdict


def cycles(events):
    starts = [e for e in events if e["name"].startswith("cycle ")]
    for i, s in enumerate(starts):
        end = starts[i + 1]["ts"] if i + 1 < len(starts) else max(e["ts"] + e["dur"] for e in events)
        yield int(s["name"].split()[1]), s["ts"], end


def analyse(path, from_cycle, to_cycle, top):
    events = sorted(json.load(open(path))["traceEvents"], key=lambda e: e["ts"])
    spans, busy, idle = 0.0, 0.0, 0.0
    gaps = defaultdict(lambda: [0.0, 0])
    counted = 0
    for number, start, end in cycles(events):
        if number < from_cycle or (to_cycle is not None and number > to_cycle):
            continue
        counted += 1
        spans += end - start
        inside = [e for e in events if start <= e["ts"] < end]
        reach, previous = start, "cycle start"
        for e in inside:
            if e["ts"] > reach:
                gap = e["ts"] - reach
                idle += gap
                g = gaps[(previous, e["name"])]
                g[0] += gap
                g[1] += 1
            if e["ts"] + e["dur"] > reach:
                busy += min(e["ts"] + e["dur"], end) - max(e["ts"], reach)
                reach = e["ts"] + e["dur"]
                previous = e["name"]
        if end > reach:  # the cycle's tail: the norm's reduction (not recorded) and the host
            idle += end - reach
            g = gaps[(previous, "next cycle")]
            g[0] += end - reach
            g[1] += 1
    if not counted:
        print(f"{path}: no cycle from {from_cycle} on")
        return
    print(f"{path}: cycles {from_cycle}+ ({counted}): {spans / counted / 1e3:.3f} ms a cycle, "
          f"device busy {busy / counted / 1e3:.3f} ms, idle {idle / counted / 1e3:.3f} ms")
    print("  idle ms/cycle  gaps/cycle  between")
    for (before, after), (total, n) in sorted(gaps.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {total / counted / 1e3:13.3f}  {n / counted:10.1f}  {before} -> {after}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--from-cycle", type=int, default=2)
    parser.add_argument("--to-cycle", type=int, default=None)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    for path in args.traces:
        analyse(path, args.from_cycle, args.to_cycle, args.top)


if __name__ == "__main__":
    main()
