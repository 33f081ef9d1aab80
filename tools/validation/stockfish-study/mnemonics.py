#!/usr/bin/env python3
"""Joins pcs.py output with an objdump disassembly: `mnemonics.py PCS DISASSEMBLY BASE`
prints each mnemonic's share of the measured instructions, and the top instructions."""
import collections, re, sys

pcs, dis, base = sys.argv[1], sys.argv[2], int(sys.argv[3], 16)
text = {}
line_re = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
for line in open(dis):
    m = line_re.match(line)
    if m:
        text[int(m.group(1), 16)] = (m.group(2), m.group(3))
by_mn = collections.Counter()
total = 0
rows = []
for line in open(pcs):
    f = line.split("\t")
    pc, c = int(f[0], 16), int(f[1])
    mn, ops = text.get(pc - base, ("?", ""))
    by_mn[mn] += c
    total += c
    rows.append((c, pc, mn, ops))
for mn, c in by_mn.most_common(45):
    print(f"{mn:12s} {c:8d} {100 * c / total:6.2f} %")
print("# top instructions")
for c, pc, mn, ops in sorted(rows, reverse=True)[:40]:
    print(f"{pc - base:8x} {c:7d} {mn} {ops}")
