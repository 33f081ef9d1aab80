#!/usr/bin/env python3
"""Sweep sensitivities against the reference simulator (issue 17's target): for each program
and each one-parameter step around a preset, the change of the program's CPI in the simulator
(`concorde simulate` on the traces) and in a model (`concorde predict` on a feature database
built from the same traces, optionally with --model-from), and how many of the steps the
simulator moves by 5 % or more the model gets within 30 %.

  tools/validation/sweep_sensitivities.py --db OOD.sqlite --traces DIR \
      [--model-from data/default.sqlite] [--concorde build/release/bin/concorde] [--preset n1-like]
      [--sim-cache FILE.json] [--step KEY=LOW:HIGH ...] PROGRAM...

DIR holds PROGRAM.ctrace for every program (the traces the database was built from). With
--sim-cache, simulated CPIs are read from and added to FILE.json (keyed by the concorde binary's
and the trace's content, preset and setting), so comparing two models simulates once.
--step (repeatable) replaces issue 17's five steps, e.g. --step sq=16:64 --step pf_degree=0:2.
"""
import argparse, hashlib, json, os, re, subprocess, sys

STEPS = [("rob", 32, 256), ("fetch_width", 2, 8), ("lq", 16, 64), ("l2_kb", 512, 2048),
         ("alu_issue", 2, 6)]


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"sweep_sensitivities: {' '.join(cmd)} failed: {result.stderr.strip()}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--traces", required=True)
    parser.add_argument("--model-from")
    parser.add_argument("--concorde", default="build/release/bin/concorde")
    parser.add_argument("--preset", default="n1-like")
    parser.add_argument("--sim-cache")
    parser.add_argument("--step", action="append", default=[], metavar="KEY=LOW:HIGH")
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    steps = STEPS
    if args.step:
        steps = []
        for text in args.step:
            m = re.fullmatch(r"([a-z0-9_]+)=([0-9.]+):([0-9.]+)", text)
            if not m:
                sys.exit(f"sweep_sensitivities: --step {text}: expected KEY=LOW:HIGH, e.g. sq=16:64")
            steps.append((m.group(1), m.group(2), m.group(3)))
    cache = {}
    if args.sim_cache and os.path.exists(args.sim_cache):
        with open(args.sim_cache) as f:
            cache = json.load(f)

    def digest(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:16]

    # A cached CPI holds only for the same simulator and trace: both are in the key.
    binary = digest(args.concorde) if args.sim_cache else ""
    traces = {}

    def simulated(program, key, value):
        trace = f"{args.traces}/{program}.ctrace"
        if args.sim_cache and trace not in traces:
            traces[trace] = digest(trace)
        entry = f"{binary} {program} {traces.get(trace, '')} {args.preset} {key}={value}"
        if entry not in cache:
            out = run([args.concorde, "simulate", trace, "--preset", args.preset, "--set",
                       f"{key}={value}"])
            cache[entry] = float(re.search(r"program CPI:\s+([0-9.]+)", out).group(1))
            if args.sim_cache:  # written whole, then renamed: an interrupted run loses nothing
                with open(args.sim_cache + ".tmp", "w") as f:
                    json.dump(cache, f, indent=1)
                os.replace(args.sim_cache + ".tmp", args.sim_cache)
        return cache[entry]

    def predicted(program, key, value):
        cmd = [args.concorde, "predict", "--db", args.db, "--program", program, "--preset",
               args.preset, "--set", f"{key}={value}", "--json"]
        if args.model_from:
            cmd += ["--model-from", args.model_from]
        return json.loads(run(cmd))["cpi"]

    rows = []
    for program in args.programs:
        for key, low, high in steps:
            sim = simulated(program, key, high) / simulated(program, key, low) - 1
            model = predicted(program, key, high) / predicted(program, key, low) - 1
            rows.append((sim, model))
            print(f"{program:12s} {key:12s} {low}->{high}: simulator {100 * sim:+6.1f} %  "
                  f"model {100 * model:+6.1f} %", flush=True)
    large = [r for r in rows if abs(r[0]) >= 0.05]
    within = [r for r in large if abs(r[1] - r[0]) <= 0.3 * abs(r[0])]
    moving = [r for r in rows if abs(r[0]) >= 0.01]
    agree = [r for r in moving if (r[0] > 0) == (r[1] > 0)]
    print(f"steps where the simulator moves >= 5 %: {len(large)}; model within 30 % of it: "
          f"{len(within)}")
    print(f"direction agrees where the simulator moves >= 1 %: {len(agree)}/{len(moving)}")


if __name__ == "__main__":
    main()
