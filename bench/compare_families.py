#!/usr/bin/env python3
"""Compares two stencil_bench --json runs (e.g. before and after a change), best time per family.
A variant is identified by its lowered program and work-group (labels changed format); its family
is read from the old label (the word after 'mapping:' and the rule names)."""
import json, re, sys

def load(path):
    out = {}
    for s in json.load(open(path))['stencils']:
        for m in s['measurements']:
            if not m.get('ok'):
                continue
            local = re.search(r'\[local ([^\]]*)\]', m['label'])
            key = (s['stencil'], m['program'], local.group(1) if local else 'auto')
            out[key] = (m['ms'], m['label'])
    return out

def family(label):
    mapping = re.search(r'mapping: ([a-z\- ]+)', label)
    rules = re.findall(r'([a-z][a-z\-]+) at \[', label)
    return '+'.join(rules) + ('/' + mapping.group(1).strip() if mapping else '')

old, new = load(sys.argv[1]), load(sys.argv[2])
fam = {}
for key, (ms, label) in old.items():
    if key in new:
        f = (key[0], family(label))
        o, n = fam.get(f, (1e30, 1e30))
        fam[f] = (min(o, ms), min(n, new[key][0]))
print(f'{len(old)} old, {len(new)} new measurements, {sum(k in new for k in old)} matched')
worst = 0
for (st, f), (o, n) in sorted(fam.items()):
    worst = max(worst, n / o)
    print(f'{st:8s} {f:60s} old {o:9.3f} ms  new {n:9.3f} ms  new/old {n / o:.3f}')
print(f'worst family new/old: {worst:.3f}')
