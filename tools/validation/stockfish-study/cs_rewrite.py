#!/usr/bin/env python3
"""Rewrites a ChampSim trace: drops source register REG (ChampSim number, flags = 25) from the
records whose ip is in PCFILE (hex, one per line), or with PCFILE "rmw-flags" from every
non-branch record without memory operands that reads exactly {R, flags} and writes exactly
{R, flags} (simvar --drop-rmw-flags on our side).
usage: cs_rewrite.py IN.champsimtrace.gz OUT.champsimtrace.gz PCFILE|rmw-flags REG"""
import gzip, struct, sys

REC = struct.Struct("<QBB2B4B2Q4Q")
src, dst, pcfile, reg = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rmw = pcfile == "rmw-flags"
pcs = set() if rmw else {int(l, 16) for l in open(pcfile) if l.strip()}

def is_rmw(t):
    if t[1] or any(t[9:15]):
        return False
    src = {r for r in t[5:9] if r}
    dst = {r for r in t[3:5] if r}
    return len(src) == 2 and reg in src and src == dst
data = bytearray(gzip.open(src, "rb").read())
n = 0
for k in range(len(data) // REC.size):
    t = list(REC.unpack_from(data, k * REC.size))
    if (is_rmw(t) if rmw else t[0] in pcs) and reg in t[5:9]:
        srcs = [r for r in t[5:9] if r != reg]
        t[5:9] = srcs + [0] * (4 - len(srcs))
        REC.pack_into(data, k * REC.size, *t)
        n += 1
with gzip.open(dst, "wb", compresslevel=1) as f:
    f.write(bytes(data))
print(f"rewrote {n} records", file=sys.stderr)
