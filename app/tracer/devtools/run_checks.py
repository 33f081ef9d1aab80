#!/usr/bin/env python3
"""End-to-end checks of the ctrace Valgrind tool. Development tool, not part of the test suite
(it needs valgrind, gcc and a few seconds of CPU per check).

    VALGRIND_LIB=<build>/lib/concorde-valgrind app/tracer/devtools/run_checks.py [--bench]

  loop      a loop of exactly N iterations: N executions of the loop branch (N-1 taken, then
            not taken), N loads of a[i] and N stores to b[i], in order, registers as expected
  mix       one instance of each instruction kind: classes, registers and memory slots
  counts    traced instruction count == lackey's guest instruction count (ls, gzip)
  regions   records of a multi-region trace == the same slices of a full trace
  threads   threads, signals and fork: stream consistent, branch outcomes resolvable
  --bench   also run bench.sh on gzip (and lackey --trace-mem=yes with --lackey)
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORE_TRACE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "core", "trace"))
sys.path.insert(0, HERE)
import ctrace_decode as cd  # noqa: E402

ENV = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
failures = []


def ok(cond, what):
    print("  [%s] %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        failures.append(what)


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, check=True, **kw)


def valgrind(args, out_path=None, stdout=subprocess.DEVNULL):
    env = dict(ENV, VALGRIND_LIB=os.environ["VALGRIND_LIB"])
    cmd = ["valgrind", "-q", "--tool=ctrace", "--ctrace-out=" + out_path] + args
    return subprocess.run(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE, check=True)


def summary_of(path, pc_range=(1, 0)):
    s = cd.Summary(pc_range)
    records = []
    for ev in cd.decode(open(path, "rb").read()):
        s.feed(ev)
        if ev[0] == "record" and pc_range[0] <= ev[2].pc < pc_range[1]:
            records.append(ev)
    s.finish()
    return s, records


def lackey_count(cmd, tmp):
    env = dict(ENV, VALGRIND_LIB=os.environ["VALGRIND_LIB"])
    p = subprocess.run("valgrind --tool=lackey --basic-counts=yes --vex-guest-chase=no " + cmd,
                       shell=True, env=env, cwd=tmp, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, check=True)
    m = re.search(r"guest instrs:\s+([\d,]+)", p.stderr)
    return int(m.group(1).replace(",", ""))


def check_loop(tmp):
    print("loop: a loop of exactly N iterations")
    exe = os.path.join(tmp, "loop_test")
    sh("gcc -O1 -fno-tree-vectorize -o %s %s/loop_test.c" % (exe, HERE))
    n = 777
    trace = os.path.join(tmp, "loop.trace")
    out = valgrind([exe, str(n)], trace, stdout=subprocess.PIPE).stdout.decode()
    m = re.search(r"kernel (0x[0-9a-f]+) a (0x[0-9a-f]+) b (0x[0-9a-f]+) n (\d+)", out)
    kernel, a, b = (int(m.group(i), 16) for i in (1, 2, 3))
    nm = subprocess.run(["nm", "-S", exe], capture_output=True, text=True).stdout
    km = re.search(r"^([0-9a-f]+) ([0-9a-f]+) T kernel$", nm, re.M)
    size = int(km.group(2), 16)
    s, recs = summary_of(trace, (kernel, kernel + size))
    ok(not s.errors, "stream checks (%s)" % ("; ".join(s.errors[:3]) or "no errors"))
    loops = [pc for pc, seq in s.taken_seq.items() if len(seq) == n]
    ok(len(loops) == 1, "exactly one conditional branch in kernel() executes N=%d times" % n)
    if loops:
        seq = s.taken_seq[loops[0]]
        ok(seq == [True] * (n - 1) + [False], "its outcomes are N-1 taken, then not taken")
    loads = [ad for ev in recs for (k, _, sz), ad in zip(ev[2].slots, ev[3]) if k == 0]
    stores = [ad for ev in recs for (k, _, sz), ad in zip(ev[2].slots, ev[3]) if k == 1]
    in_a = [ad for ad in loads if a <= ad < a + 8 * n]
    ok(in_a == [a + 8 * i for i in range(n)] and len(loads) == n + 1,
       "N loads at a[0..N-1], in order (+1 load: the return address)")
    ok(stores == [b + 8 * i for i in range(n)], "N stores at b[0..N-1], in order, no others")
    ld = [ev[2] for ev in recs if ev[2].cls == 7 and any(sl[0] == 0 for sl in ev[2].slots)]
    ok(bool(ld) and all(cd.reg_name(r) in ("rax", "r9") for r in ld[-1].src) and
       len(ld[-1].src) == 2, "loop load reads its base and index registers")


MIX_EXPECTED = [
    ("int-alu", "", "rax"), ("int-alu", "", "rcx"), ("int-mul", "rax,rcx", "rax,flags"),
    ("int-alu", "", "rdx,flags"), ("int-div", "rax,rcx,rdx", "rax,rdx"), ("load", "", "ymm0"),
    ("fp-add", "ymm0", "ymm0"), ("fp-mul", "ymm0", "ymm0"), ("fp-div", "ymm0", "ymm0"),
    ("fp-div", "ymm0,ymm1", "ymm1"), ("simd", "ymm0,ymm1", "ymm0"), ("load", "", "ymm2"),
    ("simd", "ymm2", "ymm3"), ("fp-mul", "ymm0,ymm1", "ymm1"), ("simd", "", "ymm4"),
    ("fp-add", None, None), ("fp-mul", None, None), ("fp-add", None, None),
    ("fence", "", "flags"), ("fence", "", ""), ("store", "rbx,rsp", "rsp"),
    ("load", "rsp", "rbx,rsp"), ("int-alu", "rsp", "rdx"), ("int-alu", "rax", "flags"),
    ("int-alu", "rcx,rdx,flags", "rdx"), ("int-alu", "", "rsi"), ("int-alu", "", "rdi"),
    ("int-alu", "", "rcx"), ("store", "rcx,rsi,rdi,flags", "rcx,rsi,rdi"), ("nop", "", ""),
    ("nop", "", ""), ("simd", "", None)]


def check_mix(tmp):
    print("mix: classes and registers of individual instructions")
    exe = os.path.join(tmp, "insn_mix")
    sh("gcc -O1 -mavx2 -mfma -o %s %s/insn_mix.c" % (exe, HERE))
    trace = os.path.join(tmp, "mix.trace")
    out = valgrind([exe], trace, stdout=subprocess.PIPE).stdout.decode()
    main_rt = int(re.search(r"mix at (0x[0-9a-f]+)", out).group(1), 16)
    nm = subprocess.run(["nm", exe], capture_output=True, text=True).stdout
    sym = {m.group(2): int(m.group(1), 16) for m in re.finditer(r"^([0-9a-f]+) \w (\w+)$", nm, re.M)}
    base = main_rt - sym["main"]
    lo, hi = base + sym["mix_begin"], base + sym["mix_end"]
    s, recs = summary_of(trace, (lo, hi))
    ok(not s.errors, "stream checks")
    seen, order = {}, []
    for ev in recs:
        if ev[2].pc not in seen:
            seen[ev[2].pc] = ev
            order.append(ev[2].pc)
    ok(len(order) == len(MIX_EXPECTED), "%d distinct instructions traced (expected %d)"
       % (len(order), len(MIX_EXPECTED)))
    for pc, (cls, src, dst) in zip(order, MIX_EXPECTED):
        st = seen[pc][2]
        got_src = ",".join(cd.reg_name(r) for r in st.src)
        got_dst = ",".join(cd.reg_name(r) for r in st.dst)
        good = cd.CLASS_NAMES[st.cls] == cls and (src is None or src == got_src) and \
            (dst is None or dst == got_dst)
        ok(good, "%#x %-7s src=%s dst=%s" % (pc - base, cd.CLASS_NAMES[st.cls], got_src, got_dst)
           + ("" if good else "   (expected %s src=%s dst=%s)" % (cls, src, dst)))
    rep = [ev for ev in recs if ev[2].flags & 0x02]
    ok(len(rep) == 17 and rep[-1][3] == (0, 0),
       "rep movsb: 16 iterations + the final rcx==0 check with no access")


def make_data(tmp):
    path = os.path.join(tmp, "data.txt")
    rnd = random.Random(1)
    words = ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(2, 9)))
             for _ in range(5000)]
    with open(path, "w") as f:
        n = 0
        while n < 1_000_000:
            line = " ".join(rnd.choice(words) for _ in range(12)) + " %d\n" % rnd.randint(0, 10**6)
            f.write(line)
            n += len(line)
    return path


def check_counts(tmp, stat):
    print("counts: traced instructions vs lackey --basic-counts=yes (both without chasing)")
    for cmd in ["/bin/ls -la /usr/bin", "gzip -c data.txt"]:
        want = lackey_count(cmd, tmp)
        env = dict(ENV, VALGRIND_LIB=os.environ["VALGRIND_LIB"])
        p = subprocess.run("valgrind -q --tool=ctrace --ctrace-fd=3 %s 3>&1 >/dev/null | %s -"
                           % (cmd, stat), shell=True, env=env, cwd=tmp, capture_output=True,
                           text=True)
        m = re.search(r"records (\d+)", p.stdout)
        got = int(m.group(1)) if m else -1
        ok("checks: OK" in p.stdout, "%s: stream checks" % cmd)
        ok(abs(got - want) <= want * 0.001, "%s: %d traced, lackey %d (diff %+d, %.4f%%)"
           % (cmd, got, want, got - want, 100.0 * (got - want) / want))


def check_regions(tmp, stat):
    print("regions: multi-region trace == slices of a full trace")
    skip, warm, length, regions, interval = 1234567, 20000, 100000, 8, 1777777
    reg = os.path.join(tmp, "reg")
    full = os.path.join(tmp, "full")
    cmd = ["/bin/ls", "-la", "/usr/bin"]
    valgrind(["--ctrace-skip=%d" % skip, "--ctrace-warmup=%d" % warm,
              "--ctrace-length=%d" % length, "--ctrace-regions=%d" % regions,
              "--ctrace-interval=%d" % interval] + cmd, reg + ".trace")
    valgrind(cmd, full + ".trace")
    ranges = ",".join("%d-%d" % (skip + k * interval - warm, skip + k * interval + length)
                      for k in range(regions))
    r1 = subprocess.run([stat, reg + ".trace", "--dump", reg + ".dump"], capture_output=True,
                        text=True)
    r2 = subprocess.run([stat, full + ".trace", "--dump", full + ".dump", "--ranges", ranges],
                        capture_output=True, text=True)
    ok("checks: OK" in r1.stdout and "checks: OK" in r2.stdout, "stream checks")
    ok(r1.stdout.count("region ") == regions, "%d regions" % regions)
    a, b = open(reg + ".dump").read(), open(full + ".dump").read()
    ok(a == b and a.count("\n") == regions * (warm + length),
       "%d records identical to the full trace" % a.count("\n"))


def check_threads(tmp, stat):
    print("threads: threads, signals, fork")
    exe = os.path.join(tmp, "threads_signals")
    sh("gcc -O1 -pthread -o %s %s/threads_signals.c" % (exe, HERE))
    trace = os.path.join(tmp, "thr.trace")
    valgrind([exe], trace)
    s, _ = summary_of(trace)
    ok(not s.errors, "stream checks (%s)" % ("; ".join(s.errors[:3]) or "no errors"))
    ok(s.frames["THREAD"] > 0 and s.frames["DISCONTINUITY"] == 16,
       "THREAD frames %d, DISCONTINUITY frames %d (16 signals)"
       % (s.frames["THREAD"], s.frames["DISCONTINUITY"]))
    ok(s.cls[10] > 0, "locked instructions recorded as fences (%d)" % s.cls[10])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--lackey", action="store_true", help="with --bench: also time lackey")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    if "VALGRIND_LIB" not in os.environ:
        sys.exit("set VALGRIND_LIB to the directory holding ctrace-amd64-linux")
    tmp = tempfile.mkdtemp(prefix="ctrace-checks-")
    stat = os.path.join(tmp, "ctrace_stat")
    sh("g++ -O2 -std=c++20 -I%s -o %s %s/ctrace_stat.cpp" % (CORE_TRACE, stat, HERE))
    make_data(tmp)
    check_loop(tmp)
    check_mix(tmp)
    check_counts(tmp, stat)
    check_regions(tmp, stat)
    check_threads(tmp, stat)
    if args.bench:
        print("bench:")
        env = dict(os.environ, STAT=stat, LACKEY="1" if args.lackey else "0")
        subprocess.run([os.path.join(HERE, "bench.sh"), "gzip", "-c", "data.txt"], cwd=tmp,
                       env=env, check=True)
    if not args.keep:
        sh("rm -rf %s" % tmp)
    print("%d check(s) failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
