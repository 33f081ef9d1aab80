#!/usr/bin/env python3
"""Cross-check of `concorde simulate` against ChampSim on identical regions (issue 22).

One command does everything, and is resumable (every output is written under a temporary name and
renamed; outputs that exist are reused):

    tools/validation/xcheck.py --champsim-src /path/to/ChampSim

1. writes ChampSim configurations matched to a preset (default n1-like) and to each one-parameter
   step (STEPS below), and builds one ChampSim binary per configuration with build-champsim.sh;
2. traces 2 regions of each program of data/workloads (each region its own .ctrace: functional
   warm-up, detailed warm-up, measured instructions) and exports each with
   `concorde export-champsim`;
3. runs ChampSim (warm-up = the exported warm-state replay + the detailed warm-up) and
   `concorde simulate` on every region and configuration, at most --jobs at a time;
4. prints one table (base CPI of both, gap, the delta of every step on each side) and summary
   rows, and writes them as TSV next to the table (rows.tsv, summary.tsv, table.txt).

Our results are keyed by a hash of the concorde binary and ChampSim's by a hash of its
configuration and commit, so after changing the simulator the same command re-simulates only our
side. `--compare OLD_summary.tsv` prints the summary beside an earlier one.

Python 3 standard library only. Exit status: 0 success, 1 a run failed, 2 bad input.
"""

import argparse
import concurrent.futures
import csv
import hashlib
import json
import math
import os
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
DEFAULT_PROGRAMS = ["gzip", "bzip2", "xz", "zstd", "gcc", "python", "perl", "sqlite", "stockfish", "lua"]

# The one-parameter steps: name, overrides of the preset, sensitivity class. ROB, width and L2
# steps are the ones the issue's 0.67-1.5x target applies to.
STEPS = [
    ("base", {}, None),
    ("rob32", {"rob": 32}, "rob"),
    ("rob256", {"rob": 256}, "rob"),
    ("width2", {"fetch_width": 2, "decode_width": 2, "rename_width": 2}, "width"),
    ("width8", {"fetch_width": 8, "decode_width": 8, "rename_width": 8}, "width"),
    ("l2_256k", {"l2_kb": 256}, "l2"),
    ("l2_2m", {"l2_kb": 2048}, "l2"),
    ("lq16", {"lq": 16}, "lq"),
    ("sq16", {"sq": 16}, "sq"),
    ("l1d_32k", {"l1d_kb": 32}, "l1d"),
    ("pf_off", {"pf_degree": 0}, "pf"),
]
SENSITIVITY_CLASSES = ("rob", "width", "l2")

# The fixed memory system and pipeline of concorde (core/analysis/MemorySystemSpec.h,
# core/refsim/PipelineSpec.h, docs/design.md section 3), as ChampSim must see it.
LINE = 64
L1_WAYS, L2_WAYS, LLC_KB, LLC_WAYS = 8, 8, 4096, 16
LOAD_TO_USE = {"l1": 4, "l2": 12, "llc": 30, "dram": 200}  # cycles from issue, cumulative
L1D_MSHRS = 16
DECODE_QUEUE = 64
RENAME_QUEUE = 64
CORE_MHZ = 4000
DRAM_BYTES_PER_CYCLE = 15.0

# ChampSim's latencies are per level and add up along the miss path; these were chosen so that a
# pointer chase resident in each level costs the same load-to-use latency in both simulators
# (docs/validation.md, "Calibration"). Overridable with --calibration FILE.json.
CALIBRATION = {
    "l1d_latency": 4,
    "l2_latency": 8,
    "llc_latency": 23,
    "dram_tcas": 130,
}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def die(msg, code=2):
    print(f"xcheck: {msg}", file=sys.stderr)
    sys.exit(code)


def atomic_write(path, text):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def sets_for(kb, ways):
    sets = kb * 1024 // (LINE * ways)
    if sets * LINE * ways != kb * 1024:
        raise ValueError(f"{kb} kB is not a whole number of {ways}-way sets")
    return sets


def champsim_config(exe_name, p, cal, btb="basic_btb", prefetcher="ip_stride"):
    """The ChampSim configuration matching concorde parameters p (a full parameter dict); btb is
    ChampSim's own basic_btb or concorde_btb (--matched-targets), prefetcher the L1D prefetcher
    when p has one: ChampSim's ip_stride or concorde_stride (--matched-prefetcher)."""
    if p["bp"] != "tage":
        raise ValueError("only bp=tage has a ChampSim counterpart (hashed_perceptron)")
    data_rate = round(DRAM_BYTES_PER_CYCLE * CORE_MHZ / 8)  # MT/s on an 8-byte channel
    return {
        "executable_name": exe_name,
        "block_size": LINE,
        "page_size": 4096,
        "heartbeat_frequency": 10000000,
        "num_cores": 1,
        "ooo_cpu": [{
            "frequency": CORE_MHZ,
            "ifetch_buffer_size": DECODE_QUEUE,
            "decode_buffer_size": DECODE_QUEUE,
            "dispatch_buffer_size": RENAME_QUEUE,
            "register_file_size": 2048,
            "rob_size": p["rob"],
            "lq_size": p["lq"],
            "sq_size": p["sq"],
            "fetch_width": p["fetch_width"],
            "decode_width": p["decode_width"],
            "dispatch_width": p["rename_width"],
            "execute_width": p["alu_issue"] + p["ls_issue"],
            "lq_width": p["ls_pipes"] + p["load_pipes"],
            # ChampSim spends two sq_width slots per store (address, then data), so twice our
            # store pipes gives the same stores per cycle (measured: independent stores ran at
            # CPI 1.0 in ChampSim against 0.5 here before).
            "sq_width": 2 * p["ls_pipes"],
            "retire_width": p["commit_width"],
            "mispredict_penalty": 1,
            "scheduler_size": p["rob"],
            "decode_latency": 1,
            "dispatch_latency": 1,
            "schedule_latency": 0,
            "execute_latency": 0,
            "branch_predictor": "hashed_perceptron",
            "btb": btb,
            # No decoded-instruction buffer: N1 (a Cortex-A76 derivative) has no macro-op cache, and
            # ChampSim's DIB-hit path skips the L1I and decode, so a redirect refilled from it is
            # shorter than N1's (branch-random kernel CPI 0.90 with a 32 x 8 DIB, 1.09 without,
            # ours 1.11). The fetch throughput a DIB once bought comes from the L1I's hit latency
            # below (taken-groups kernel: CPI 0.25 with or without the DIB).
            "DIB": {"window_size": 16, "sets": 1, "ways": 1},
        }],
        # The L1I tag check takes 2 cycles (hit_latency), not 1: ChampSim's ITLB answers in 2, and a
        # tag check that is ready before its translation is set aside and restarted from scratch,
        # which with a 1-cycle check cost 0.64 cycles per taken branch on the L1I path.
        "L1I": {
            "sets": sets_for(p["l1i_kb"], L1_WAYS), "ways": L1_WAYS, "hit_latency": 2, "fill_latency": 1,
            "mshr_size": p["icache_fills"], "rq_size": 64, "wq_size": 64, "pq_size": 32,
            "max_tag_check": 2, "max_fill": 2,
            "prefetcher": "no", "replacement": "lru",
        },
        "L1D": {
            "sets": sets_for(p["l1d_kb"], L1_WAYS), "ways": L1_WAYS, "latency": cal["l1d_latency"],
            "mshr_size": L1D_MSHRS, "rq_size": 64, "wq_size": 64, "pq_size": 16,
            # ChampSim shares the L1D's tag checks between the core and its page-table walker,
            # so 4 gives the core the 2 new lines per cycle that our two load pipes have.
            "max_tag_check": 4, "max_fill": 4,
            "prefetcher": prefetcher if p["pf_degree"] > 0 else "no", "replacement": "lru",
        },
        "L2C": {
            "sets": sets_for(p["l2_kb"], L2_WAYS), "ways": L2_WAYS, "latency": cal["l2_latency"],
            "mshr_size": 32, "rq_size": 32, "wq_size": 32, "pq_size": 16,
            "max_tag_check": 1, "max_fill": 1,
            "prefetcher": "no", "replacement": "lru",
        },
        "LLC": {
            "frequency": CORE_MHZ,
            "sets": sets_for(LLC_KB, LLC_WAYS), "ways": LLC_WAYS, "latency": cal["llc_latency"],
            "mshr_size": 64, "rq_size": 32, "wq_size": 32, "pq_size": 32,
            "max_tag_check": 1, "max_fill": 1,
            "prefetcher": "no", "replacement": "lru",
        },
        # Translation is not modelled by concorde: large TLBs and no page-fault penalty. Every L1
        # access looks up its TLB, and ChampSim's default TLB bandwidth is one lookup per cycle
        # (max(sets >> 9, 1)), which throttled loads, stores and fetches alike: N1 looks up its L1
        # TLBs in parallel on every pipe, so the TLBs get the L1D's 4 lookups and fills per cycle.
        "ITLB": {"sets": 64, "ways": 8, "latency": 1, "mshr_size": 8, "max_tag_check": 4, "max_fill": 4},
        "DTLB": {"sets": 64, "ways": 8, "latency": 1, "mshr_size": 8, "max_tag_check": 4, "max_fill": 4},
        "STLB": {"sets": 2048, "ways": 16, "latency": 1, "mshr_size": 16, "max_tag_check": 4, "max_fill": 4},
        # Flat-latency DRAM: almost no row-buffer timing (tRP = tRCD = 1; 0 deadlocks ChampSim), one 8-byte channel whose
        # data rate gives concorde's bandwidth at CORE_MHZ.
        "physical_memory": {
            "data_rate": data_rate, "channels": 1, "ranks": 1, "bankgroups": 8, "banks": 8,
            "bank_rows": 65536, "bank_columns": 1024, "channel_width": 8,
            "wq_size": 64, "rq_size": 64,
            "tCAS": cal["dram_tcas"], "tRCD": 1, "tRP": 1, "tRAS": 1,
            "refresh_period": 32, "refreshes_per_period": 8192,
        },
        "virtual_memory": {"pte_page_size": 4096, "num_levels": 5, "minor_fault_penalty": 0,
                           "randomization": 1},
    }


def load_preset(name):
    path = REPO / "resources" / "presets" / f"{name}.json"
    if not path.is_file():
        die(f"preset {name} not found at {path}")
    return json.loads(path.read_text())["parameters"]


def short_hash(data):
    return hashlib.sha256(data).hexdigest()[:12]


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


class Timer:
    """Wall time per step, appended to WORK/timing.tsv."""

    def __init__(self, path):
        self.path = Path(path)
        self.lock = threading.Lock()
        self.totals = {}

    def record(self, step, what, seconds):
        with self.lock:
            self.totals.setdefault(step, [0, 0.0])
            self.totals[step][0] += 1
            self.totals[step][1] += seconds
            new = not self.path.exists()
            with open(self.path, "a") as f:
                if new:
                    f.write("time\tstep\twhat\tseconds\n")
                f.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')}\t{step}\t{what}\t{seconds:.2f}\n")


def run(cmd, out_path=None, env=None, cwd=None):
    """Runs cmd; returns its stdout. Raises RuntimeError with stderr on failure."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
        raise RuntimeError(f"{' '.join(shlex.quote(str(c)) for c in cmd)} exited {proc.returncode}:\n{tail}")
    return proc.stdout


def workload_table():
    rows = {}
    with open(REPO / "data" / "workloads" / "workloads.tsv") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 7:
                rows[cols[0]] = {"instructions": int(cols[2]), "skip": int(cols[3]), "interval": int(cols[4])}
    return rows


def region_start(w, r):
    """Region r of a program sits where the default 16-region layout puts region 4 + 8r."""
    return w["skip"] + (4 + 8 * r) * w["interval"]


class XCheck:
    def __init__(self, args):
        self.args = args
        self.work = Path(args.work).expanduser().resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        self.timer = Timer(self.work / "timing.tsv")
        self.concorde = Path(args.concorde).resolve()
        self.cal = dict(CALIBRATION)
        if args.calibration:
            self.cal.update(json.loads(Path(args.calibration).read_text()))
        self.preset = load_preset(args.preset)
        self.steps = [s for s in STEPS if args.steps is None or s[0] in args.steps or s[0] == "base"]
        self.btb = "concorde_btb" if args.matched_targets else "basic_btb"
        self.prefetcher = "concorde_stride" if args.matched_prefetcher else "ip_stride"
        # A matched variant keeps its own build folder (one folder holds one configuration
        # list), configuration list and report; it shares traces, exports and our results.
        self.modules = ([self.btb] if args.matched_targets else []) + \
            ([self.prefetcher] if args.matched_prefetcher else [])
        self.variant = ("-matched-targets" if args.matched_targets else "") + \
            ("-matched-prefetcher" if args.matched_prefetcher else "")
        build = Path(args.champsim_build).expanduser().resolve()
        self.build_dir = build.with_name(build.name + self.variant)
        # Overrides of our side only (every configuration, the base too): their own result keys
        # and report folder, so that what-ifs never mix with the recorded runs.
        self.ours_set = dict(kv.split("=", 1) for kv in args.ours_set or [])
        self.ours_suffix = ("-ours-" + "-".join(f"{k}{v}" for k, v in sorted(self.ours_set.items()))
                            if self.ours_set else "")

    # --- configurations and build -------------------------------------------------------------
    def params(self, overrides):
        p = dict(self.preset)
        p.update(overrides)
        return p

    def write_configs(self):
        # Every step is built, whatever --steps selects, so that selecting steps never rebuilds.
        configs = [champsim_config(self.champsim_bin(name).name, self.params(ov), self.cal, self.btb,
                                   self.prefetcher)
                   for name, ov, _ in STEPS]
        text = json.dumps(configs, indent=2, sort_keys=True) + "\n"
        path = self.work / "configs" / f"champsim-configs{self.variant}.json"
        if not path.exists() or path.read_text() != text:
            atomic_write(path, text)
        for c in configs:
            p = self.work / "configs" / f"{c['executable_name']}.json"
            t = json.dumps(c, indent=2, sort_keys=True) + "\n"
            if not p.exists() or p.read_text() != t:
                atomic_write(p, t)
        return path, configs

    def champsim_bin(self, step):
        return self.build_dir / "bin" / f"champsim_{self.args.preset}_{step}{self.variant.replace('-', '_')}"

    def build(self):
        src = Path(self.args.champsim_src).expanduser()
        if not (src / "config.sh").is_file():
            die(f"--champsim-src {src}: not a ChampSim checkout (no config.sh)")
        # Binaries and results with our own module are keyed by its source too.
        self.module_key = ""
        if self.modules:
            files = [f for m in self.modules for f in sorted((HERE / "champsim-modules" / m).iterdir())]
            # ... and by the core sources a module compiles (core-sources.txt, read as
            # build-champsim.sh reads it: blank lines and '#' lines skipped), with their headers.
            for listing in [f for f in files if f.name == "core-sources.txt"]:
                for entry in (line.strip() for line in listing.read_text().splitlines()):
                    if entry and not entry.startswith("#"):
                        source = REPO / "core" / entry
                        files += [p for p in (source, source.with_suffix(".h")) if p.exists()]
            self.module_key = short_hash(b"".join(f.read_bytes() for f in files))
        cfg_path, configs = self.write_configs()
        stamp = self.build_dir / "bin" / ".configs-sha"
        want = short_hash(cfg_path.read_bytes() + self.module_key.encode())
        have = stamp.read_text().strip() if stamp.exists() else ""
        missing = [c["executable_name"] for c in configs if not (self.build_dir / "bin" / c["executable_name"]).exists()]
        if have != want or missing:
            log(f"building {len(configs)} ChampSim configurations in {self.build_dir}")
            t0 = time.time()
            try:
                subprocess.run(["bash", str(HERE / "build-champsim.sh"), str(src), str(self.build_dir), str(cfg_path)],
                               check=True)
            except subprocess.CalledProcessError as e:
                die(f"ChampSim build failed (exit {e.returncode})", 1)
            self.timer.record("build", "champsim", time.time() - t0)
            atomic_write(stamp, want + "\n")
        commit_file = self.build_dir / "bin" / ".champsim-commit"
        self.champsim_commit = commit_file.read_text().strip() if commit_file.exists() else "unknown"
        self.champsim_keys = {}
        for (name, _, _), c in zip(STEPS, configs):
            exe = self.champsim_bin(name)
            if not exe.exists():
                die(f"ChampSim binary {exe} missing after the build", 1)
            blob = (json.dumps(c, sort_keys=True) + self.champsim_commit + self.module_key).encode()
            self.champsim_keys[name] = short_hash(blob)

    # --- traces --------------------------------------------------------------------------------
    def region_files(self, prog, r):
        base = self.work / "traces" / f"{prog}-r{r}-w{self.args.warmup}-m{self.args.length}"
        return base.with_suffix(".ctrace"), Path(str(base) + ".champsimtrace.gz"), Path(str(base) + ".warmup")

    def trace_region(self, prog, r, w):
        ctrace, _, _ = self.region_files(prog, r)
        if ctrace.exists():
            return
        ctrace.parent.mkdir(parents=True, exist_ok=True)
        tmp = ctrace.with_name(ctrace.stem + ".tmp.ctrace")
        env = dict(os.environ, CONCORDE=str(self.concorde))
        t0 = time.time()
        run(["nice", "-n", "10", "bash", str(REPO / "data" / "workloads" / "trace-workload.sh"), prog, str(tmp),
             "--regions", "1", "--skip", str(region_start(w, r)), "--warmup", str(self.args.warmup),
             "--length", str(self.args.length)], env=env)
        os.replace(tmp, ctrace)
        log_tmp = Path(str(tmp) + ".log")
        if log_tmp.exists():
            os.replace(log_tmp, Path(str(ctrace) + ".log"))
        self.timer.record("trace", f"{prog}-r{r}", time.time() - t0)
        log(f"traced {prog} region {r} in {time.time() - t0:.1f} s")

    def export_region(self, prog, r):
        ctrace, cs, warm = self.region_files(prog, r)
        if cs.exists() and warm.exists():
            return
        tmp = cs.with_name(cs.name.replace(".champsimtrace.gz", ".tmp.champsimtrace.gz"))
        t0 = time.time()
        out = run(["nice", "-n", "10", str(self.concorde), "export-champsim", "-o", str(tmp), str(ctrace)])
        replay = 0
        for line in out.splitlines():
            if line.startswith("region 0:") and "records replay" in line:
                replay = int(line.split(":")[1].split()[0])
        os.replace(tmp, cs)
        atomic_write(warm, f"{replay + self.args.warmup}\n")
        self.timer.record("export", f"{prog}-r{r}", time.time() - t0)
        log(f"exported {prog} region {r} ({replay} warm-state records) in {time.time() - t0:.1f} s")

    # --- simulations ---------------------------------------------------------------------------
    def result_path(self, side, step, prog, r):
        key = self.champsim_keys[step] if side == "champsim" else self.concorde_key + self.ours_suffix
        return self.work / "results" / f"{side}-{key}" / f"{step}-{prog}-r{r}-w{self.args.warmup}-m{self.args.length}.json"

    def sim_champsim(self, step, prog, r):
        out = self.result_path("champsim", step, prog, r)
        if out.exists():
            return
        _, cs, warm = self.region_files(prog, r)
        warmup = int(warm.read_text())
        tmp = out.with_name(out.name + ".tmp")
        out.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.time()
        run(["nice", "-n", "10", str(self.champsim_bin(step)), "--hide-heartbeat",
             "--warmup-instructions", str(warmup), "--simulation-instructions", str(self.args.length),
             "--json", str(tmp), str(cs)])
        data = json.loads(tmp.read_text())
        sim = [ph for ph in data if ph.get("name") == "Simulation"] or data[-1:]
        core = sim[0]["roi"]["cores"][0]
        res = {"cycles": core["cycles"], "instructions": core["instructions"],
               "cpi": core["cycles"] / core["instructions"], "warmup": warmup,
               "mispredict_mpki": core.get("mispredict"), "seconds": round(time.time() - t0, 2)}
        atomic_write(out, json.dumps(res) + "\n")
        tmp.unlink()
        self.timer.record("champsim", f"{step}-{prog}-r{r}", time.time() - t0)

    def sim_concorde(self, step, prog, r, overrides):
        out = self.result_path("concorde", step, prog, r)
        if out.exists():
            return
        ctrace, _, _ = self.region_files(prog, r)
        cmd = [str(self.concorde), "simulate", "--preset", self.args.preset, "--json"]
        for k, v in {**self.ours_set, **overrides}.items():
            cmd += ["--set", f"{k}={v}"]
        t0 = time.time()
        data = json.loads(run(cmd + [str(ctrace)]))
        res = {"cycles": data["cycles"], "instructions": data["instructions"], "cpi": data["cpi"],
               "mispredictions": data["regions"][0].get("mispredictions"),
               "command": " ".join(shlex.quote(c) for c in cmd[1:] + [ctrace.name]),
               "seconds": round(time.time() - t0, 2)}
        atomic_write(out, json.dumps(res) + "\n")
        self.timer.record("concorde", f"{step}-{prog}-r{r}", time.time() - t0)

    def pool_run(self, jobs, what):
        failures = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as ex:
            futs = {ex.submit(fn, *a): a for fn, *a in jobs}
            done = 0
            for f in concurrent.futures.as_completed(futs):
                done += 1
                try:
                    f.result()
                except Exception as e:  # a failed run is reported, the others continue
                    failures.append(str(e))
                    log(f"FAILED {what} {futs[f]}: {e}")
                if done % 20 == 0 or done == len(futs):
                    log(f"{what}: {done}/{len(futs)}")
        if failures:
            die(f"{len(failures)} {what} job(s) failed; rerun to retry them", 1)

    def main(self):
        a = self.args
        if not self.concorde.is_file():
            die(f"concorde binary {self.concorde} not found (build it, or pass --concorde)")
        self.concorde_key = file_hash(self.concorde)
        table = workload_table()
        for prog in a.programs:
            if prog not in table:
                die(f"unknown program {prog}; known: {' '.join(sorted(table))}")
        self.build()
        regions = [(prog, r) for prog in a.programs for r in range(a.regions)]
        if a.report_only:
            self.report(regions)
            return
        for prog, r in regions:
            self.trace_region(prog, r, table[prog])
        self.pool_run([(self.export_region, prog, r) for prog, r in regions], "export")
        jobs = []
        for name, ov, _ in self.steps:
            for prog, r in regions:
                jobs.append((self.sim_champsim, name, prog, r))
                jobs.append((self.sim_concorde, name, prog, r, ov))
        # ChampSim runs are the long ones: start them first, interleaved with ours.
        self.pool_run(jobs, "simulate")
        self.report(regions)

    # --- report --------------------------------------------------------------------------------
    def load(self, side, step, prog, r):
        return json.loads(self.result_path(side, step, prog, r).read_text())["cpi"]

    def mpki(self, prog, r):
        """Mispredictions per 1000 measured instructions at base: ChampSim's in total and those of
        its non-conditional branches (target mispredictions, which ours never has), and ours."""
        cs = json.loads(self.result_path("champsim", "base", prog, r).read_text())
        ours = json.loads(self.result_path("concorde", "base", prog, r).read_text())
        by_type = cs.get("mispredict_mpki") or {}
        total = sum(by_type.values())
        target = total - by_type.get("BRANCH_CONDITIONAL", 0)
        return {"cs_mpki": 1000 * total / cs["instructions"], "cs_target_mpki": 1000 * target / cs["instructions"],
                "our_mpki": 1000 * (ours.get("mispredictions") or 0) / ours["instructions"]}

    def report(self, regions):
        a = self.args
        complete = [s for s in self.steps if all(self.result_path(side, s[0], prog, r).exists()
                                                 for side in ("champsim", "concorde") for prog, r in regions)]
        if not any(s[0] == "base" for s in complete):
            die("no complete base results to report (run without --report-only first)", 1)
        skipped = [s[0] for s in self.steps if s not in complete]
        if skipped:
            log(f"steps left out of the report, results incomplete: {' '.join(skipped)}")
        steps = [s for s in complete if s[0] != "base"]
        rows = []
        for prog, r in regions:
            ours = {s[0]: self.load("concorde", s[0], prog, r) for s in complete}
            cs = {s[0]: self.load("champsim", s[0], prog, r) for s in complete}
            row = {"program": prog, "region": r, "cs_cpi": cs["base"], "our_cpi": ours["base"],
                   "gap_pct": 100 * (ours["base"] / cs["base"] - 1)}
            row.update(self.mpki(prog, r))
            for name, _, _ in steps:
                row[f"cs_{name}"] = 100 * (cs[name] / cs["base"] - 1)
                row[f"our_{name}"] = 100 * (ours[name] / ours["base"] - 1)
            rows.append(row)

        # Summary.
        gaps = [abs(x["gap_pct"]) for x in rows]
        by_prog = {}
        for x in rows:
            by_prog.setdefault(x["program"], []).append(abs(x["gap_pct"]))
        worst_prog, worst_gaps = max(by_prog.items(), key=lambda kv: sum(kv[1]) / len(kv[1]))
        worst_region = max(rows, key=lambda x: abs(x["gap_pct"]))
        rho = spearman([x["cs_cpi"] for x in rows], [x["our_cpi"] for x in rows])
        agree = total = same_sign = 0
        disagreements = []
        ratios = []
        per_step = {}
        for x in rows:
            for name, _, cls in steps:
                c, o = x[f"cs_{name}"], x[f"our_{name}"]
                st = per_step.setdefault(name, {"agree": 0, "total": 0, "ratios": [], "in": 0})
                # A step "moves" when either side changes by at least 0.5 %; both below are a tie
                # that agrees.
                if abs(c) < a.flat_pct and abs(o) < a.flat_pct:
                    same = True
                else:
                    same = (c > 0) == (o > 0) and abs(c) >= a.flat_pct and abs(o) >= a.flat_pct
                total += 1
                st["total"] += 1
                same_sign += (c > 0) == (o > 0) or c == o == 0
                if same:
                    agree += 1
                    st["agree"] += 1
                else:
                    disagreements.append(f"{x['program']}-r{x['region']} {name} (ChampSim {c:+.1f} %, ours {o:+.1f} %)")
                if cls in SENSITIVITY_CLASSES and abs(c) >= 5.0:
                    ratio = o / c
                    ratios.append(ratio)
                    st["ratios"].append(ratio)
                    if 0.67 <= ratio <= 1.5:
                        st["in"] += 1
        in_band = sum(1 for q in ratios if 0.67 <= q <= 1.5)
        summary = [
            ("regions", f"{len(rows)}", f"{len(a.programs)} programs x {a.regions} regions"),
            ("warmup_instructions", f"{a.warmup}", "detailed warm-up per region (plus the warm-state replay)"),
            ("measured_instructions", f"{a.length}", "per region"),
            ("mean_abs_gap_pct", f"{sum(gaps) / len(gaps):.1f}", "mean |our CPI / ChampSim CPI - 1| over regions"),
            ("mean_signed_gap_pct", f"{sum(x['gap_pct'] for x in rows) / len(rows):+.1f}", "negative: ours is faster"),
            ("worst_program", worst_prog, f"mean |gap| {sum(worst_gaps) / len(worst_gaps):.1f} % over its regions"),
            ("worst_program_gap_pct", f"{sum(worst_gaps) / len(worst_gaps):.1f}", ""),
            ("worst_region", f"{worst_region['program']}-r{worst_region['region']}", f"gap {worst_region['gap_pct']:+.1f} %"),
            ("spearman_base_cpi", f"{rho:.3f}", "rank correlation of base CPI over regions"),
            ("directions_agree", f"{agree}/{total}", f"a step within +-{a.flat_pct} % on both sides counts as agreeing"),
            ("directions_same_sign", f"{same_sign}/{total}", "plain sign comparison, however small the steps"),
            ("sensitivity_steps_cs_ge5", f"{len(ratios)}", "ROB, width and L2 steps where ChampSim moves >= 5 %"),
            ("sensitivity_in_0.67_1.5", f"{in_band}/{len(ratios)}", "of those, ours/ChampSim within 0.67-1.5x"),
            ("sensitivity_ratio_median", f"{median(ratios):.2f}" if ratios else "-", "ours/ChampSim"),
            ("sensitivity_ratio_range", f"{min(ratios):.2f}..{max(ratios):.2f}" if ratios else "-", "ours/ChampSim"),
        ]
        for name, _, cls in steps:
            st = per_step[name]
            note = f"directions {st['agree']}/{st['total']}"
            if st["ratios"]:
                note += f"; ratio median {median(st['ratios']):.2f}, {st['in']}/{len(st['ratios'])} in 0.67-1.5x"
            summary.append((f"step_{name}", f"{st['agree']}/{st['total']}", note))
        summary.append(("champsim_commit", self.champsim_commit, ""))
        summary.append(("champsim_btb", self.btb, "concorde_btb: our branch-target front end (--matched-targets)"))
        summary.append(("champsim_l1d_prefetcher", self.prefetcher,
                        "concorde_stride: our stride prefetcher (--matched-prefetcher)"))
        summary.append(("concorde_binary_sha", self.concorde_key, str(self.concorde)))
        if self.ours_set:
            summary.append(("ours_set", " ".join(f"{k}={v}" for k, v in sorted(self.ours_set.items())),
                            "our side only, every configuration (--ours-set)"))

        # Table.
        hdr = ["program", "reg", "CS CPI", "our CPI", "gap%", "MPKI CS(tgt)/ours"] + [n for n, _, _ in steps]
        lines = []
        widths = [10, 3, 7, 7, 6, 17] + [max(13, len(n)) for n, _, _ in steps]
        lines.append("  ".join(h.rjust(w) for h, w in zip(hdr, widths)))
        lines.append("  ".join("" .rjust(w) for w in widths[:6]) + "  " +
                     "  ".join("CS / ours".rjust(w) for w in widths[6:]))
        for x in rows:
            cells = [x["program"], str(x["region"]), f"{x['cs_cpi']:.3f}", f"{x['our_cpi']:.3f}", f"{x['gap_pct']:+.1f}",
                     f"{x['cs_mpki']:.1f}({x['cs_target_mpki']:.1f})/{x['our_mpki']:.1f}"]
            cells += [f"{x[f'cs_{n}']:+.1f}/{x[f'our_{n}']:+.1f}" for n, _, _ in steps]
            lines.append("  ".join(c.rjust(w) for c, w in zip(cells, widths)))
        lines.append("")
        lines.append("Step deltas are % change of CPI against the base configuration (ChampSim / ours). MPKI: "
                     "mispredictions per 1000 instructions at base, ChampSim's (of them, non-conditional) / ours.")
        for k, v, note in summary:
            lines.append(f"{k:28s} {v:>14s}  {note}")
        if disagreements:
            lines.append("direction disagreements: " + "; ".join(disagreements))
        text = "\n".join(lines) + "\n"
        print(text)

        out = self.work / f"report{self.variant}{self.ours_suffix}"
        atomic_write(out / "table.txt", text)
        cols = list(rows[0].keys())
        atomic_write(out / "rows.tsv", "\t".join(cols) + "\n" + "".join(
            "\t".join(f"{x[c]:.4f}" if isinstance(x[c], float) else str(x[c]) for c in cols) + "\n" for x in rows))
        atomic_write(out / "summary.tsv", "key\tvalue\tnote\n" + "".join(f"{k}\t{v}\t{n}\n" for k, v, n in summary))
        log(f"wrote {out}/table.txt, rows.tsv, summary.tsv")
        if a.compare:
            old = {}
            with open(a.compare) as f:
                for rec in csv.DictReader(f, delimiter="\t"):
                    old[rec["key"]] = rec["value"]
            print(f"\n{'key':28s} {'before':>14s} {'now':>14s}")
            for k, v, _ in summary:
                print(f"{k:28s} {old.get(k, '-'):>14s} {v:>14s}")


def median(xs):
    s = sorted(xs)
    n = len(s)
    return (s[n // 2] + s[(n - 1) // 2]) / 2


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    rk = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            rk[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return rk


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else float("nan")


def parse_args(argv):
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "concorde"
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See docs/validation.md.")
    ap.add_argument("--champsim-src", required=True, help="a ChampSim checkout (checked at commit 2ff2501)")
    ap.add_argument("--champsim-build", default=str(cache / "champsim"), help="ChampSim build folder (default: %(default)s)")
    ap.add_argument("--work", default=str(cache / "xcheck"), help="traces, results and report (default: %(default)s)")
    ap.add_argument("--concorde", default=str(REPO / "build" / "release" / "bin" / "concorde"),
                    help="the concorde binary (default: %(default)s)")
    ap.add_argument("--preset", default="n1-like")
    ap.add_argument("--programs", nargs="+", default=DEFAULT_PROGRAMS, metavar="NAME")
    ap.add_argument("--regions", type=int, default=2, help="regions per program (default: 2)")
    ap.add_argument("--warmup", type=int, default=1000000, help="detailed warm-up instructions (default: 1M)")
    ap.add_argument("--length", type=int, default=1000000, help="measured instructions (default: 1M)")
    ap.add_argument("--steps", nargs="+", choices=[s[0] for s in STEPS], help="only these steps (base always)")
    ap.add_argument("--jobs", type=int, default=2, help="simulations in parallel (default: 2)")
    ap.add_argument("--flat-pct", type=float, default=0.5,
                    help="a step within +-this %% on both sides is flat and counts as agreeing (default: 0.5)")
    ap.add_argument("--matched-prefetcher", action="store_true",
                    help="give ChampSim our L1d stride prefetcher (champsim-modules/concorde_stride: "
                         "StridePrefetcher at degree 2) instead of ip_stride, which never confirms "
                         "a stride smaller than a line")
    ap.add_argument("--matched-targets", action="store_true",
                    help="give ChampSim our branch-target front end (champsim-modules/concorde_btb: "
                         "BTB, return stack and indirect predictor of BranchTargetSpec) instead of basic_btb")
    ap.add_argument("--ours-set", action="append", metavar="KEY=VALUE",
                    help="a parameter of our side only, in every configuration (repeatable): a what-if "
                         "beside the recorded run, with its own results and report folder")
    ap.add_argument("--calibration", help="JSON overriding the ChampSim latency calibration")
    ap.add_argument("--compare", help="an earlier summary.tsv to print beside this one")
    ap.add_argument("--report-only", action="store_true",
                    help="print the table from the results there are (steps with missing results are left out)")
    ap.add_argument("--print-configs", action="store_true", help="write and print the ChampSim configurations, then stop")
    args = ap.parse_args(argv)
    if args.regions < 1 or args.warmup < 0 or args.length < 1 or args.jobs < 1:
        ap.error("--regions, --length and --jobs must be positive, --warmup not negative")
    for kv in args.ours_set or []:
        if "=" not in kv or not kv.split("=", 1)[0] or not kv.split("=", 1)[1]:
            ap.error(f"--ours-set wants KEY=VALUE, not {kv!r}")
    return args


def main(argv):
    args = parse_args(argv)
    x = XCheck(args)
    if args.print_configs:
        path, _ = x.write_configs()
        print(path.read_text())
        return 0
    x.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
