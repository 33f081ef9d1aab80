#!/usr/bin/env python3
"""Decode and check a raw ctrace stream (core/trace/TracerProtocol.h). Development tool.

    ctrace_decode.py TRACE                summary: frames, regions, classes, branches, checks
    ctrace_decode.py TRACE --pc LO-HI     print every record whose pc is in [LO,HI) (hex)
    ctrace_decode.py TRACE --addr LO-HI   print every memory access in [LO,HI) (hex)
    ctrace_decode.py TRACE --dump FILE    write "index w|m pc addr..." per record
    ctrace_decode.py - ...                read the stream from stdin (e.g. a pipe)

It also checks the stream (record indices contiguous inside a region, region counts equal to
REGION_END's, ids defined before use, taken conditional branches going to their target) and
exits with status 1 when a check fails. Importable: `decode(data)` yields the stream's events.
Pure Python: fine up to a few tens of millions of records (use ctrace_stat for more).
"""
import argparse
import struct
import sys
from collections import Counter, defaultdict

CLASS_NAMES = ["int-alu", "int-mul", "int-div", "fp-add", "fp-mul", "fp-div", "simd", "load",
               "store", "branch", "fence", "nop"]
BRANCH_NAMES = ["none", "direct-uncond", "direct-cond", "indirect", "call", "return"]
FRAME_NAMES = {1: "STATIC", 2: "RECORDS", 3: "REGION_BEGIN", 4: "REGION_END", 5: "THREAD",
               6: "DISCONTINUITY", 7: "END"}
BR_COND = 2
SF_TARGET_DYNAMIC = 0x01


def reg_name(r):
    gpr = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11",
           "r12", "r13", "r14", "r15"]
    if 1 <= r <= 16:
        return gpr[r - 1]
    if 19 <= r <= 34:
        return "ymm%d" % (r - 19)
    return {17: "flags", 18: "rip", 35: "x87", 36: "fpctl", 37: "seg"}.get(r, "r%d" % r)


class Static:
    __slots__ = ("id", "size", "cls", "bkind", "flags", "pc", "target", "src", "dst", "slots")

    def describe(self):
        return "%s%s%s src=%s dst=%s" % (
            CLASS_NAMES[self.cls], (" " + BRANCH_NAMES[self.bkind]) if self.bkind else "",
            (" tgt=%#x" % self.target) if self.target else "",
            ",".join(reg_name(r) for r in self.src), ",".join(reg_name(r) for r in self.dst))


def decode(data):
    """Yields ("header", dict), ("static", Static), ("record", index, Static, addrs),
    ("region_begin", dict), ("region_end", dict), ("thread", tid),
    ("discontinuity", reason, signo, resume_pc), ("end", dict), ("error", message)."""
    if data[:8] != b"CTRACE\r\n":
        yield ("error", "not a ctrace stream (bad magic)")
        return
    version, header_bytes, isa, pid = struct.unpack_from("<IIII", data, 8)
    skip, warmup, length, interval, regions, cl = struct.unpack_from("<QQQQII", data, 24)
    argv = [a.decode(errors="replace") for a in data[64:64 + cl].split(b"\0")[:-1]]
    yield ("header", dict(version=version, isa=isa, pid=pid, skip=skip, warmup=warmup,
                          length=length, interval=interval, regions=regions, argv=argv))
    statics = {}
    pos, n = header_bytes, len(data)
    while pos + 8 <= n:
        ftype, plen = struct.unpack_from("<II", data, pos)
        p, pend = pos + 8, pos + 8 + plen
        if pend > n:
            yield ("error", "truncated frame at offset %d" % pos)
            return
        yield ("frame", ftype, plen)
        if ftype == 1:
            while p < pend:
                s = Static()
                (s.id, s.size, s.cls, s.bkind, s.flags, s.pc, s.target, nsrc, ndst, nmem) = \
                    struct.unpack_from("<IBBBBQQBBB", data, p)
                q = p + 32
                s.src = list(data[q:q + nsrc])
                q += nsrc
                s.dst = list(data[q:q + ndst])
                q += ndst
                s.slots = [struct.unpack_from("<BBH", data, q + 4 * k) for k in range(nmem)]
                q += 4 * nmem
                if s.id in statics:
                    yield ("error", "id %d defined twice" % s.id)
                statics[s.id] = s
                yield ("static", s)
                p = q
        elif ftype == 2:
            first, count = struct.unpack_from("<QI", data, p)
            q = p + 16
            for i in range(count):
                (sid,) = struct.unpack_from("<I", data, q)
                s = statics.get(sid)
                if s is None:
                    yield ("error", "record uses undefined id %d" % sid)
                    break
                k = len(s.slots)
                addrs = struct.unpack_from("<%dQ" % k, data, q + 4) if k else ()
                q += 4 + 8 * k
                yield ("record", first + i, s, addrs)
            if q != pend:
                yield ("error", "RECORDS frame length mismatch at offset %d" % pos)
        elif ftype == 3:
            r, _, wstart, mstart, w, planned = struct.unpack_from("<IIQQQQ", data, p)
            yield ("region_begin", dict(n=r, warmup_start=wstart, measured_start=mstart,
                                        warmup=w, planned=planned))
        elif ftype == 4:
            r, flags, wrec, mrec, next_pc, nb = struct.unpack_from("<IIQQQI", data, p)
            bbv = [struct.unpack_from("<QQ", data, p + 40 + 16 * k) for k in range(nb)]
            yield ("region_end", dict(n=r, flags=flags, warmup_records=wrec,
                                      measured_records=mrec, next_pc=next_pc, bbv=bbv))
        elif ftype == 5:
            yield ("thread", struct.unpack_from("<I", data, p)[0])
        elif ftype == 6:
            reason, sig, resume = struct.unpack_from("<IIQ", data, p)
            yield ("discontinuity", reason, sig, resume)
        elif ftype == 7:
            total, code, rdone = struct.unpack_from("<QiI", data, p)
            yield ("end", dict(total=total, exit_code=code, regions=rdone))
        pos = pend
    if pos != n:
        yield ("error", "%d trailing bytes" % (n - pos))


class Summary:
    """Walks decode() events, resolves branch outcomes per thread and checks consistency."""

    def __init__(self, pc_range=(1, 0)):
        self.pc_lo, self.pc_hi = pc_range
        self.header = None
        self.errors = []
        self.frames, self.frame_bytes = Counter(), Counter()
        self.statics = 0
        self.cls, self.bkind, self.cond = Counter(), Counter(), Counter()
        self.loads = self.stores = self.not_performed = self.records = 0
        self.regions, self.region, self.end = [], None, None
        self.last = {}          # tid -> previous record's Static
        self.tid = 1
        self.next_index = None
        self.per_pc = defaultdict(lambda: [0, 0])   # cond branch pc -> [taken, not taken]
        self.taken_seq = defaultdict(list)           # cond branch pc -> outcomes, in order

    def resolve(self, s, next_pc):
        if s.bkind != BR_COND or next_pc is None:
            return
        taken = next_pc != s.pc + s.size
        self.cond[taken] += 1
        if taken and next_pc != s.target:
            self.errors.append("taken branch at %#x (target %#x) continued at %#x"
                               % (s.pc, s.target, next_pc))
        if self.pc_lo <= s.pc < self.pc_hi:
            self.per_pc[s.pc][0 if taken else 1] += 1
            self.taken_seq[s.pc].append(taken)

    def feed(self, ev):
        kind = ev[0]
        if kind == "header":
            self.header = ev[1]
        elif kind == "error":
            self.errors.append(ev[1])
        elif kind == "frame":
            name = FRAME_NAMES.get(ev[1], "type%d" % ev[1])
            self.frames[name] += 1
            self.frame_bytes[name] += ev[2] + 8
        elif kind == "static":
            s = ev[1]
            self.statics += 1
            if not (s.cls < 12 and s.bkind < 6) or (s.cls == 9) != (s.bkind != 0):
                self.errors.append("bad class/branch kind in id %d" % s.id)
        elif kind == "record":
            idx, s, addrs = ev[1], ev[2], ev[3]
            if self.region is None:
                self.errors.append("record %d outside a region" % idx)
            elif self.next_index is not None and idx != self.next_index:
                self.errors.append("record index gap: expected %d got %d" % (self.next_index, idx))
            self.next_index = idx + 1
            prev = self.last.get(self.tid)
            if prev is not None:
                self.resolve(prev, s.pc)
            self.last[self.tid] = s
            self.records += 1
            if self.region is not None:
                self.region["records"] += 1
            self.cls[s.cls] += 1
            if s.bkind:
                self.bkind[s.bkind] += 1
            for (k, _, _), a in zip(s.slots, addrs):
                if a == 0:
                    self.not_performed += 1
                elif k == 0:
                    self.loads += 1
                else:
                    self.stores += 1
        elif kind == "region_begin":
            if self.region is not None:
                self.errors.append("REGION_BEGIN inside a region")
            self.region = dict(ev[1], records=0)
            self.next_index = ev[1]["warmup_start"]
            self.last = {}
        elif kind == "region_end":
            e, r = ev[1], self.region
            if r is None or r["n"] != e["n"]:
                self.errors.append("REGION_END without begin")
            else:
                truncated = e["flags"] & 1
                if r["records"] != e["warmup_records"] + e["measured_records"]:
                    self.errors.append("region %d: %d records, REGION_END says %d+%d" % (
                        e["n"], r["records"], e["warmup_records"], e["measured_records"]))
                if not truncated and e["warmup_records"] != r["warmup"]:
                    self.errors.append("region %d warm-up count" % e["n"])
                if not truncated and r["planned"] and e["measured_records"] != r["planned"]:
                    self.errors.append("region %d measured count" % e["n"])
                r.update(e)
                self.regions.append(r)
            prev = self.last.get(self.tid)
            if prev is not None and e["next_pc"]:
                self.resolve(prev, e["next_pc"])
            self.region, self.next_index, self.last = None, None, {}
        elif kind == "thread":
            self.tid = ev[1]
        elif kind == "discontinuity":
            prev = self.last.pop(self.tid, None)
            if prev is not None:
                self.resolve(prev, ev[3])
        elif kind == "end":
            self.end = ev[1]

    def finish(self):
        if self.end is None:
            self.errors.append("no END frame (truncated stream)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--pc", help="print records with pc in LO-HI (hex)")
    ap.add_argument("--addr", help="print memory accesses in LO-HI (hex)")
    ap.add_argument("--dump", help="write one line per record: index w|m pc addr...")
    ap.add_argument("--max-print", type=int, default=1 << 60)
    ap.add_argument("--quiet", action="store_true", help="no class / branch details")
    args = ap.parse_args()

    def rng(s):
        lo, _, hi = s.partition("-")
        return int(lo, 16), (int(hi, 16) if hi else int(lo, 16) + 1)

    pc_lo, pc_hi = rng(args.pc) if args.pc else (1, 0)
    ad_lo, ad_hi = rng(args.addr) if args.addr else (1, 0)
    data = (sys.stdin.buffer if args.trace == "-" else open(args.trace, "rb")).read()
    dump = open(args.dump, "w") if args.dump else None
    summ = Summary((pc_lo, pc_hi))
    printed = 0
    for ev in decode(data):
        summ.feed(ev)
        if ev[0] == "header":
            h = ev[1]
            print("header: version %d skip %d warmup %d length %d interval %d regions %d"
                  % (h["version"], h["skip"], h["warmup"], h["length"], h["interval"],
                     h["regions"]))
            print("command: %s" % " ".join(h["argv"]))
        elif ev[0] == "record":
            idx, s, addrs = ev[1], ev[2], ev[3]
            if dump:
                ms = summ.region["measured_start"] if summ.region else 0
                dump.write("%d %s %x %s\n" % (idx, "w" if idx < ms else "m", s.pc,
                                              " ".join("%x" % a for a in addrs)))
            if pc_lo <= s.pc < pc_hi and printed < args.max_print:
                print("  #%d pc %#x %s mem=%s" % (idx, s.pc, s.describe(), ",".join(
                    "%s%d@%#x" % ("L" if sl[0] == 0 else "S", sl[2], a)
                    for sl, a in zip(s.slots, addrs))))
                printed += 1
            for (k, _, size), a in zip(s.slots, addrs):
                if ad_lo <= a < ad_hi and printed < args.max_print:
                    print("  mem #%d pc %#x %s %#x size %d"
                          % (idx, s.pc, "load " if k == 0 else "store", a, size))
                    printed += 1
    summ.finish()

    print("frames: " + ", ".join("%s %d (%d B)" % (k, v, summ.frame_bytes[k])
                                 for k, v in sorted(summ.frames.items())))
    print("static instructions: %d   records: %d   stream bytes: %d (%.2f B/record)"
          % (summ.statics, summ.records, len(data), len(data) / max(1, summ.records)))
    for r in summ.regions:
        print("region %d: warm-up [%d, %d): %d warm-up + %d measured records%s, next_pc %#x,"
              " BBV %d blocks / %d instrs"
              % (r["n"], r["warmup_start"], r["measured_start"], r["warmup_records"],
                 r["measured_records"], " (truncated)" if r["flags"] & 1 else "", r["next_pc"],
                 len(r["bbv"]), sum(c for _, c in r["bbv"])))
    if summ.end:
        print("END: total instructions %d, exit code %d, regions %d"
              % (summ.end["total"], summ.end["exit_code"], summ.end["regions"]))
    if not args.quiet:
        print("classes: " + ", ".join("%s %d" % (CLASS_NAMES[c], v)
                                      for c, v in sorted(summ.cls.items())))
        print("branch kinds: " + ", ".join("%s %d" % (BRANCH_NAMES[c], v)
                                           for c, v in sorted(summ.bkind.items())))
        print("conditional branches: taken %d, not taken %d" % (summ.cond[True], summ.cond[False]))
        print("memory accesses: %d loads, %d stores, %d not performed"
              % (summ.loads, summ.stores, summ.not_performed))
        for pc in sorted(summ.per_pc):
            t, nt = summ.per_pc[pc]
            print("  cond branch %#x: taken %d, not taken %d" % (pc, t, nt))
    for e in summ.errors[:20]:
        print("CHECK FAILED: " + e)
    print("checks: %s" % ("OK" if not summ.errors else "%d FAILED" % len(summ.errors)))
    return 1 if summ.errors else 0


if __name__ == "__main__":
    sys.exit(main())
