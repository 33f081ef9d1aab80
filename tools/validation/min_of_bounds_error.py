#!/usr/bin/env python3
"""How far the analytical min-of-bounds CPI is from the reference simulator, region by region.

    tools/validation/min_of_bounds_error.py [--concorde BIN] [--baseline BIN2] [--preset P ...]
                                            [--set KEY=VALUE ...] [--bounds-arg=ARG ...]
                                            TRACE.ctrace ...

For every region of every trace and every preset (with the --set parameters on top):
`concorde simulate --json` and `concorde bounds --json` at that configuration, then the mean |min-of-bounds CPI / simulated CPI - 1|. With --baseline,
the bounds of a second binary (e.g. a build from before a model change) beside them, the number
of regions that got more than 1 point worse, and the regions whose bound moved by more than 5 %
of the simulated CPI. --bounds-arg passes an option to the first binary's `bounds` only, so that
--baseline with the same binary compares an analysis option (e.g.
--bounds-arg=--load-queue-model=through-commit). Two processes at a time.
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run(binary, args):
    out = subprocess.run([binary] + args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concorde", default=os.path.join(here, "../../build/release/bin/concorde"))
    parser.add_argument("--baseline", help="a second concorde whose bounds are compared")
    parser.add_argument("--preset", action="append", help="preset (repeatable; default n1-like)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter on top of the preset (repeatable)")
    parser.add_argument("--bounds-arg", action="append", default=[], metavar="ARG",
                        help="an option for the first binary's bounds only (repeatable)")
    parser.add_argument("traces", nargs="+")
    args = parser.parse_args()
    presets = args.preset or ["n1-like"]

    def one(trace, preset):
        common = ["--preset", preset, "--json", trace]
        for assignment in args.set:
            common += ["--set", assignment]
        sim = run(args.concorde, ["simulate"] + common)["regions"]
        new = run(args.concorde, ["bounds"] + args.bounds_arg + common)["regions"]
        old = run(args.baseline, ["bounds"] + common)["regions"] if args.baseline else new
        name = os.path.basename(trace).removesuffix(".ctrace")
        return [(name, s["region"], s["cpi"], 1 / o["min_of_bounds_ipc"], 1 / n["min_of_bounds_ipc"])
                for s, o, n in zip(sim, old, new)]

    for preset in presets:
        with ThreadPoolExecutor(2) as pool:
            rows = [r for rs in pool.map(lambda t: one(t, preset), args.traces) for r in rs]
        err = lambda i: 100 * sum(abs(r[i] - r[2]) / r[2] for r in rows) / len(rows)
        label = " ".join([preset] + args.set)
        line = f"{label}: {len(rows)} regions, min-of-bounds mean |error| {err(4):.1f} %"
        if args.baseline:
            worse = sum(1 for r in rows if abs(r[4] - r[2]) > abs(r[3] - r[2]) + 0.01 * r[2])
            line += f" (baseline {err(3):.1f} %; {worse} regions more than 1 point worse)"
        print(line)
        if args.baseline:
            for r in rows:
                if abs(r[4] - r[3]) > 0.05 * r[2]:
                    print(f"  {r[0]} region {r[1]}: simulated {r[2]:.3f}, "
                          f"baseline {r[3]:.3f}, now {r[4]:.3f}")


if __name__ == "__main__":
    main()
