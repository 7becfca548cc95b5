#!/usr/bin/env python3
# The device time of cycle 1 by operator and by part of a split launch (interior, the slabs along
# z, y and x), from a `tessera solve --timeline` trace: a split launch is 7 consecutive launches of
# one label, the interior first, then the slabs from the outermost axis (Schedule::launch_split).
import collections, json, sys
ev = json.load(open(sys.argv[1]))
ev = ev['traceEvents'] if isinstance(ev, dict) else ev
ev.sort(key=lambda e: e['ts'])
names = [e['name'] for e in ev]
seq = ev[names.index('cycle 1') + 1:]
end = next((i for i, e in enumerate(seq) if e['name'] == 'coefficients'), len(seq))
seq = seq[:end]
runs, cur = [], []
for e in seq:
    if cur and e['name'] != cur[-1]['name']:
        runs.append(cur)
        cur = []
    cur.append(e)
runs.append(cur)
role = collections.defaultdict(float)
for r in runs:
    n = r[0]['name']
    if len(r) % 7 == 0 and n in ('smooth', 'prolong', 'residual', 'residual+restrict'):
        for g in range(0, len(r), 7):
            for j, part in enumerate(['interior', 'z', 'z', 'y', 'y', 'x', 'x']):
                role[(n, part)] += r[g + j]['dur']
    else:
        role[(n, 'unsplit')] += sum(e['dur'] for e in r)
print('cycle 1: %d launches, %.1f ms' % (len(seq), sum(e['dur'] for e in seq) / 1000))
for (n, part), us in sorted(role.items(), key=lambda x: -x[1]):
    print('%-18s %-9s %7.2f ms' % (n, part, us / 1000))
