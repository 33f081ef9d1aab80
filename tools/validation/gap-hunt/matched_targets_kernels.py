#!/usr/bin/env python3
"""The branch-target kernels on both simulators, with ChampSim's own basic_btb and with
concorde_btb (tools/validation/champsim-modules: our BTB, return stack and indirect predictor),
to check that the module reproduces our structures: with it, ChampSim should mispredict where
ours does (a BTB of 6144 entries, a 16-deep return stack, a path-history indirect table).

    matched_targets_kernels.py CONCORDE STOCK_CHAMPSIM MATCHED_CHAMPSIM WORK

CONCORDE is the concorde binary; the two ChampSim binaries are the base configurations that
xcheck.py builds (champsim_n1-like_base and champsim_n1-like_base_matched_targets). Prints one
table: our CPI and mispredictions per 1000 instructions, and ChampSim's CPI and non-conditional
mispredictions per 1000 instructions with each BTB. Python 3 standard library only.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_exports import prepare, roi_core, sh  # noqa: E402

KERNELS = [
    ("btb-4096", "btb-footprint", {"branches": 4096}),
    ("btb-7168", "btb-footprint", {"branches": 7168}),
    ("btb-12288", "btb-footprint", {"branches": 12288}),
    ("calls-12", "call-depth", {"depth": 12}),
    ("calls-24", "call-depth", {"depth": 24}),
    ("calls-80", "call-depth", {"depth": 80}),
    ("dispatch-cyclic-8", "indirect-dispatch", {"handlers": 8, "pattern": "cyclic"}),
    ("dispatch-cyclic-32", "indirect-dispatch", {"handlers": 32, "pattern": "cyclic"}),
    ("dispatch-random-8", "indirect-dispatch", {"handlers": 8, "pattern": "random"}),
]


def champsim(binary, work, name, meta):
    out = Path(work) / f"{name}.{Path(binary).name}.json"
    if not out.exists():
        sh([binary, "--hide-heartbeat", "--warmup-instructions", str(meta["warm"]),
            "--simulation-instructions", str(meta["meas"]), "--json", str(out),
            str(Path(work) / f"{name}.champsimtrace.gz")])
    core = roi_core(json.loads(out.read_text()))
    misses = core.get("mispredict") or {}
    target = sum(v for k, v in misses.items() if k != "BRANCH_CONDITIONAL")
    return core["cycles"] / core["instructions"], 1000 * target / core["instructions"]


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    concorde, stock, matched, work = argv
    Path(work).mkdir(parents=True, exist_ok=True)
    print(f"{'kernel':<20} {'ours CPI':>9} {'MPKI':>6} {'CS CPI':>8} {'tgt MPKI':>9} {'CS+ours CPI':>12} {'tgt MPKI':>9}")
    for name, kernel, params in KERNELS:
        # About 300k measured instructions (an iteration's length depends on the kernel).
        length = {"btb-footprint": params.get("branches", 1), "call-depth": 2 * params.get("depth", 0) + 1,
                  "indirect-dispatch": 3}[kernel]
        meta = prepare(concorde, work, name, kernel, params, max(300000 // length, 20))
        ours = json.loads(sh([concorde, "simulate", "--preset", "n1-like", "--json",
                              str(Path(work) / f"{name}.ctrace")]))
        region = ours["regions"][0]
        our_mpki = 1000 * (region.get("mispredictions") or 0) / ours["instructions"]
        cs_cpi, cs_mpki = champsim(stock, work, name, meta)
        mt_cpi, mt_mpki = champsim(matched, work, name, meta)
        print(f"{name:<20} {ours['cpi']:9.3f} {our_mpki:6.1f} {cs_cpi:8.3f} {cs_mpki:9.1f} {mt_cpi:12.3f} {mt_mpki:9.1f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
