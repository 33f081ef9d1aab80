#!/usr/bin/env python3
"""Reads a ChampSim trace (64-byte records) and prints the measured region's instruction
addresses with counts: `pcs.py TRACE.champsimtrace.gz WARMUP_RECORDS > pcs.tsv`.
Record layout (ChampSim input_instr): ip u64, is_branch u8, taken u8, dst regs 2 x u8,
src regs 4 x u8, dst mem 2 x u64, src mem 4 x u64."""
import collections, gzip, struct, sys

REC = struct.Struct("<QBB2B4B2Q4Q")
path, skip = sys.argv[1], int(sys.argv[2])
counts = collections.Counter()
regs = {}
with gzip.open(path, "rb") as f:
    data = f.read()
n = len(data) // REC.size
for k in range(skip, n):
    t = REC.unpack_from(data, k * REC.size)
    counts[t[0]] += 1
    regs.setdefault(t[0], t[1:9] + (sum(1 for a in t[9:11] if a), sum(1 for a in t[11:15] if a)))
print(f"# records {n}, measured from {skip}: {n - skip}", file=sys.stderr)
for pc, c in counts.most_common():
    print(f"{pc:x}\t{c}\t" + " ".join(map(str, regs[pc])))
