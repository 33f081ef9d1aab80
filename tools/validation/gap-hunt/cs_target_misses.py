#!/usr/bin/env python3
"""Where ChampSim's non-conditional mispredictions come from, on an exported region.

Replays the branches of a ChampSim trace (as written by `concorde export-champsim`) through a
Python model of ChampSim 2ff2501's `basic_btb` (8K-entry BTB, 64-entry return stack whose return
addresses are guessed from 1024 per-call-site "call size" trackers, 4K-entry indirect table hashed
with 12 bits of conditional history) and, beside it, through variants that each fix one part:

- exact RAS: the return stack pushes the call's real return address (ip + its length), as a
  hardware RAS does;
- big trackers: ChampSim's call-size guess, but one tracker per call ip (no aliasing).

It counts, for the measured part only (after WARMUP instructions), the target mispredictions of
returns, indirect jumps/calls and direct jumps/calls, per 1000 instructions. Conditional
branches are not modelled (their direction predictor is the hashed perceptron).

    cs_target_misses.py TRACE.champsimtrace.gz WARMUP

Python 3 standard library only.
"""

import gzip
import lzma
import struct
import sys
from collections import deque

SP, FLAGS, IP = 6, 25, 26
REC = struct.Struct("<QBB2B4B2Q4Q")
DIRECT_JUMP, INDIRECT, CONDITIONAL, DIRECT_CALL, INDIRECT_CALL, RETURN, OTHER, NOT_BRANCH = range(8)
# What basic_btb's direct_predictor records as an entry's type (branch_info); the rest are
# ALWAYS_TAKEN, kept here as DIRECT_JUMP.
BTB_KIND = {INDIRECT: INDIRECT, INDIRECT_CALL: INDIRECT, RETURN: RETURN, CONDITIONAL: CONDITIONAL}
NAMES = ["direct_jump", "indirect", "conditional", "direct_call", "indirect_call", "return", "other"]


def branch_type(dst, src):
    writes_sp, writes_ip = SP in dst, IP in dst
    reads_sp, reads_flags, reads_ip = SP in src, FLAGS in src, IP in src
    reads_other = any(r not in (0, SP, FLAGS, IP) for r in src)
    if not reads_sp and not reads_flags and writes_ip and not reads_other:
        return DIRECT_JUMP
    if not reads_sp and not reads_ip and not reads_flags and writes_ip and reads_other:
        return INDIRECT
    if not reads_sp and reads_ip and not writes_sp and writes_ip and (reads_flags or reads_other):
        return CONDITIONAL
    if reads_sp and reads_ip and writes_sp and writes_ip and not reads_flags and not reads_other:
        return DIRECT_CALL
    if reads_sp and reads_ip and writes_sp and writes_ip and not reads_flags and reads_other:
        return INDIRECT_CALL
    if reads_sp and not reads_ip and writes_sp and writes_ip:
        return RETURN
    if writes_ip:
        return OTHER
    return NOT_BRANCH


def records(path):
    opener = gzip.open if path.endswith(".gz") else lzma.open if path.endswith(".xz") else open
    with opener(path, "rb") as f:
        while True:
            chunk = f.read(REC.size * 4096)
            if not chunk:
                return
            yield from REC.iter_unpack(chunk)


class Ras:
    def __init__(self, exact, per_ip):
        self.stack = deque()
        self.exact, self.per_ip = exact, per_ip
        self.sizes = {} if per_ip else [4] * 1024

    def key(self, ip):
        return ip if self.per_ip else ip & 1023

    def predict(self, target):
        """The predicted return address; the exact RAS predicts the return address of the call
        on top (the trace has no instruction lengths: a return to 1-15 bytes past the call is
        its return address)."""
        if not self.stack:
            return 0
        ip = self.stack[-1]
        if self.exact:
            return target if 0 < target - ip <= 15 else ip
        return ip + (self.sizes.get(ip, 4) if self.per_ip else self.sizes[ip & 1023])

    def push(self, ip):
        self.stack.append(ip)
        if len(self.stack) > 64:
            self.stack.popleft()

    def calibrate(self, target):
        if not self.stack:
            return
        ip = self.stack.pop()
        size = abs(target - ip)
        if size <= 10:
            self.sizes[self.key(ip)] = size


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path, warmup = argv[0], int(argv[1])
    variants = {"champsim": Ras(False, False), "exact RAS": Ras(True, False), "per-ip trackers": Ras(False, True)}
    misses = {v: [0] * 7 for v in variants}
    first_seen = [0] * 7  # measured branches whose ip the trace never executed before
    counts = [0] * 7
    btb = {}  # ip -> (target, kind); ChampSim's holds 8K (1024 x 8, LRU): unbounded here
    seen = set()
    indirect = [0] * 4096
    history = 0
    n = 0
    prev = None  # (ip, type, taken) of the previous instruction
    for rec in records(path):
        ip, is_branch, taken = rec[0], rec[1], rec[2]
        if prev is not None:
            pip, ptype, ptaken = prev
            slot = ((pip >> 2) ^ history) % 4096  # its indirect-table entry
            target = ip if ptaken else 0
            measured = n > warmup
            if measured and ptype != NOT_BRANCH:
                counts[ptype] += 1
                if pip not in seen:
                    first_seen[ptype] += 1
            seen.add(pip)
            # ChampSim's btb_prediction, then update_btb (basic_btb.cc).
            entry = btb.get(pip)
            for v, ras in variants.items():
                if entry is None:
                    pred = 0
                elif entry[1] == RETURN:
                    pred = ras.predict(target)
                elif entry[1] == INDIRECT:
                    pred = indirect[slot]
                else:
                    pred = entry[0] if entry[1] != CONDITIONAL else None
                if ptype in (DIRECT_JUMP, INDIRECT, DIRECT_CALL, INDIRECT_CALL, RETURN) and measured:
                    if pred != target:
                        misses[v][ptype] += 1
            for ras in variants.values():
                if ptype in (DIRECT_CALL, INDIRECT_CALL):
                    ras.push(pip)
            if ptype in (INDIRECT, INDIRECT_CALL):
                indirect[slot] = target
            if ptype == CONDITIONAL:
                history = ((history << 1) | (1 if ptaken else 0)) & 0xFFF
            if ptype == RETURN:
                for ras in variants.values():
                    ras.calibrate(target)
            # The entry's kind follows the branch's latest type; a new entry needs a target.
            if ptype != NOT_BRANCH and (target != 0 or pip in btb):
                kind = BTB_KIND.get(ptype, DIRECT_JUMP)
                btb[pip] = (target if target != 0 else btb[pip][0], kind)
        prev = (ip, branch_type(rec[3:5], rec[5:9]) if is_branch else NOT_BRANCH, taken)
        n += 1
    measured = max(n - warmup, 1)
    print(f"{path}: {n} records, {measured} measured, BTB entries used {len(btb)}")
    print("type             count/kI  first/kI " + " ".join(f"{v:>16}" for v in variants))
    for t in (DIRECT_JUMP, DIRECT_CALL, INDIRECT, INDIRECT_CALL, RETURN):
        print(f"{NAMES[t]:<16} {1000 * counts[t] / measured:8.2f} {1000 * first_seen[t] / measured:9.2f} "
              + " ".join(f"{1000 * misses[v][t] / measured:16.2f}" for v in variants))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
