#!/usr/bin/env python3
"""Hand-built ChampSim traces that time one dependency link of bzip2-r1's hot loop in ChampSim.
usage: cs_kernels.py OUTDIR   (writes NAME.champsimtrace.gz and NAME.meta: warm-up, measured)
Registers are ChampSim numbers (25 = flags, 26 = instruction pointer); every load reads one
L1-resident line. Each block of instructions ends in an always-taken conditional branch back
to the block's start, so the code is a 1-block loop."""
import gzip, json, struct, sys
from pathlib import Path

REC = struct.Struct("<QBB2B4B2Q4Q")
FLAGS, IP = 25, 26
EAX, EDX, R11, R13, R15, RBX = 1, 3, 12, 14, 16, 4
ECX, RSI, RDI = 2, 7, 8
LINE = 0x7f0000100000

def ins(ip, dst=(), src=(), load=None, branch=False):
    d = list(dst) + [0] * (2 - len(dst)); s = list(src) + [0] * (4 - len(src))
    return REC.pack(ip, int(branch), int(branch), *d, *s, 0, 0, load or 0, 0, 0, 0)

def addmem(ip, acc, base, off):    # add off(base), acc: acc and flags <- acc + load
    return ins(ip, (acc, FLAGS), (acc, base), LINE + off)

KERNELS = {
    # one chain of `add mem, eax`: cycles per link = load-to-use of a load-op with a ready address
    "addmem-chain": lambda ip: [addmem(ip + 4 * k, EAX, RBX, 8 * (k % 8)) for k in range(16)],
    # a pointer chase, for reference (the calibration kernel's link)
    "load-chain": lambda ip: [ins(ip + 4 * k, (EAX,), (EAX,), LINE) for k in range(16)],
    # bzip2-r1's cost loop element: shl $4,%r15 (reads flags in the trace); mov %r15,%r13;
    # add %rbx,%r13; add mem(%r13),%edx -> the next element's shl waits for these flags
    "bzip2-element": lambda ip: sum(([
        ins(ip + 16 * k, (R15, FLAGS), (R15, FLAGS)),
        ins(ip + 16 * k + 4, (R13,), (R15,)),
        ins(ip + 16 * k + 8, (R13, FLAGS), (R13, RBX)),
        addmem(ip + 16 * k + 12, EDX, R13, 8 * (k % 8))] for k in range(4)), []),
    # the same without the false flags source of shl
    "bzip2-element-noflag": lambda ip: sum(([
        ins(ip + 16 * k, (R15, FLAGS), (R15,)),
        ins(ip + 16 * k + 4, (R13,), (R15,)),
        ins(ip + 16 * k + 8, (R13, FLAGS), (R13, RBX)),
        addmem(ip + 16 * k + 12, EDX, R13, 8 * (k % 8))] for k in range(4)), []),
    # a dependent L1-hit load chain through two moves (rax -> rsi -> rdi -> load -> rax), with a
    # "leader" load to the SAME line issued from rax two cycles before the chain's load: a load's
    # L1 latency counts from its own issue, so the leader should change nothing
    "leader-same-line": lambda ip: sum(([
        ins(ip + 16 * k, (ECX,), (EAX,), LINE + 8),
        ins(ip + 16 * k + 4, (RSI,), (EAX,)),
        ins(ip + 16 * k + 8, (RDI,), (RSI,)),
        ins(ip + 16 * k + 12, (EAX,), (RDI,), LINE)] for k in range(4)), []),
    # the same with the leader on another line (the control)
    "leader-other-line": lambda ip: sum(([
        ins(ip + 16 * k, (ECX,), (EAX,), LINE + 4096 + 8),
        ins(ip + 16 * k + 4, (RSI,), (EAX,)),
        ins(ip + 16 * k + 8, (RDI,), (RSI,)),
        ins(ip + 16 * k + 12, (EAX,), (RDI,), LINE)] for k in range(4)), []),
}

def build(name, iterations=20000, warm=2000):
    ip = 0x400000
    body = KERNELS[name](ip)
    end = ip + 4 * 64
    branch = ins(end, (IP,), (IP, FLAGS), branch=True)
    block = b"".join(body) + branch
    return block * (warm + iterations), warm * (len(body) + 1), iterations * (len(body) + 1)

out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
for name in sys.argv[2:] or KERNELS:
    data, w, m = build(name)
    with gzip.open(out / f"{name}.champsimtrace.gz", "wb", compresslevel=1) as f:
        f.write(data)
    (out / f"{name}.meta").write_text(json.dumps({"warm": w, "meas": m, "per_iter": m // 20000}))
    print(name, w, m)
