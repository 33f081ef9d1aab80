#!/usr/bin/env python3
"""Per-instruction dispatch / execute / retire cycles from a ChampSim run built with
-DDEBUG_PRINT (CPPFLAGS=-DDEBUG_PRINT tools/validation/build-champsim.sh SRC BUILD ONE.json),
for one iteration of a loop whose first instruction is at START.
usage: cs_timeline.py TRACE.champsimtrace.gz DEBUG_LOG.gz BASE START ITERATION
Prints: pc - BASE, dispatch, execute, retire (relative to the iteration's first retire) and,
for loads that wait on an older store, that store's pc."""
import gzip, re, struct, sys

REC = struct.Struct("<QBB2B4B2Q4Q")
trace, log, base, start, it = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4], 16), int(sys.argv[5])
d = gzip.open(trace).read()
pcs = [REC.unpack_from(d, k * REC.size)[0] - base for k in range(len(d) // REC.size)]
ex, ret, disp, waits = {}, {}, {}, {}
for line in gzip.open(log, "rt"):
    if line.startswith("[ROB] do_execution"):
        m = re.search(r"instr_id: (\d+) ready_time: (\d+)", line); ex[int(m[1])] = int(m[2])
    elif line.startswith("[ROB] retire_rob"):
        m = re.search(r"instr_id: (\d+) is retired cycle: (\d+)", line); ret[int(m[1])] = int(m[2])
    elif line.startswith("[DISPATCH] do_memory"):
        m = re.search(r"instr_id: (\d+) loads.*cycle: (\d+)", line)
        if m:
            disp[int(m[1])] = int(m[2])
        else:
            m = re.search(r"instr_id: (\d+) waits on: (\d+)", line); waits[int(m[1])] = int(m[2])
starts = [k for k, p in enumerate(pcs) if p == start and k in ret]
s, e = starts[it], starts[it + 1]
t0 = ret[s]
print(f"# iteration {it}: {ret[e] - t0} cycles from first retire to the next iteration's")
for k in range(s, e):
    w = f"\twaits {pcs[waits[k]]:x}" if k in waits else ""
    print(f"{pcs[k]:x}\t{disp.get(k, 0) - t0}\t{ex.get(k, 0) - t0}\t{ret[k] - t0}{w}")
