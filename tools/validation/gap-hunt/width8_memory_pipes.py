#!/usr/bin/env python3
"""Is the front-end-width gap to ChampSim the number of memory operations per cycle?

In the cross-check's configuration ChampSim issues up to 2 loads (`lq_width`) and 2 stores
(`sq_width` 4, two slots a store) in the same cycle; ours issues 2 memory operations in all
(`ls_pipes` 2, shared by loads and stores, as on Neoverse N1). This re-simulates our side of the
width 2 and width 8 steps with 4 shared load/store pipes (`ls_issue=4 ls_pipes=4`, every
configuration including the base) and prints them beside the recorded ChampSim and our steps of
a cross-check report (`rows.tsv` of `xcheck.py`), with how many of the steps where ChampSim
moves >= 5 % are within 0.67-1.5x either way.

    width8_memory_pipes.py ROWS.tsv [--traces DIR] [--concorde BIN]

ROWS.tsv is e.g. tools/validation/matched-targets/matched/rows.tsv; DIR (default
~/.cache/concorde/xcheck/traces) holds the regions xcheck.py traced. Python 3 standard library.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tools" / "validation"))
from xcheck import STEPS  # noqa: E402  (the cross-check's own step definitions)

WIDTH_STEPS = {name: overrides for name, overrides, _ in STEPS if name in ("width2", "width8")}
MEMORY_PIPES = ["--set", "ls_issue=4", "--set", "ls_pipes=4"]


def set_options(overrides):
    return [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]


def simulate(concorde, trace, extra):
    out = subprocess.run([concorde, "simulate", str(trace), "--preset", "n1-like", "--json"] + extra,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["cpi"]


def in_range(ours, champsim):
    return 0.67 <= ours / champsim <= 1.5


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows")
    ap.add_argument("--traces", default=os.path.expanduser("~/.cache/concorde/xcheck/traces"))
    ap.add_argument("--concorde", default=str(REPO / "build" / "release" / "bin" / "concorde"))
    args = ap.parse_args()
    rows = list(csv.DictReader(open(args.rows), delimiter="\t"))
    counts = {(step, kind): [0, 0] for step in WIDTH_STEPS for kind in ("ours", "pipes4")}
    print("region\tbase\tbase_pipes4\t" +
          "\t".join(f"cs_{s}\tours_{s}\tpipes4_{s}" for s in WIDTH_STEPS))
    for r in rows:
        name = f"{r['program']}-r{r['region']}"
        trace = Path(args.traces) / f"{name}-w1000000-m1000000.ctrace"
        base = simulate(args.concorde, trace, [])
        base4 = simulate(args.concorde, trace, MEMORY_PIPES)
        cells = [name, f"{base:.4f}", f"{base4:.4f}"]
        for step, overrides in WIDTH_STEPS.items():
            cs, ours = float(r[f"cs_{step}"]), float(r[f"our_{step}"])
            pipes4 = (simulate(args.concorde, trace, MEMORY_PIPES + set_options(overrides)) / base4 - 1) * 100
            cells += [f"{cs:+.1f}", f"{ours:+.1f}", f"{pipes4:+.1f}"]
            if abs(cs) >= 5:
                for kind, value in (("ours", ours), ("pipes4", pipes4)):
                    counts[(step, kind)][0] += in_range(value, cs)
                    counts[(step, kind)][1] += 1
        print("\t".join(cells), flush=True)
    for (step, kind), (good, total) in counts.items():
        label = "2 shared memory pipes (n1-like)" if kind == "ours" else "4 shared memory pipes"
        print(f"# {step}, {label}: {good}/{total} of the steps where ChampSim moves >= 5 % within 0.67-1.5x")


if __name__ == "__main__":
    main()
