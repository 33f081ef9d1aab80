#!/usr/bin/env python3
"""Per region of the never-seen programs at one preset: the simulated CPI, the model's and the
min-of-bounds CPI, and the model's correction of the bound (model / min-of-bounds) beside the
one the simulator says it should be (simulated / min-of-bounds). Issue 17's "never worse than
min-of-bounds" study.

  CONCORDE_PRESETS_DIR=resources/presets python3 tools/ml-study/preset_vs_bound.py \
      [MODEL_DB (default data/default.sqlite)] [PRESET (default big)]

Reads WORK/ood.sqlite (labelled with --presets) and WORK/ood/*.ctrace, WORK being
~/.cache/concorde/default-db-v2 or $WORK; concorde from build/release or $CONCORDE.
"""
import math
import os
import sqlite3
import statistics as st
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "validation"))
from min_of_bounds_error import run  # noqa: E402  (concorde ... --json, exits on failure)

PROGRAMS = "luajit tokyo oggenc dot glpsol phmmer xmllint openssl-enc x265".split()


def main():
    concorde = os.environ.get("CONCORDE", "build/release/bin/concorde")
    work = Path(os.environ.get("WORK", "~/.cache/concorde/default-db-v2")).expanduser()
    model_db = sys.argv[1] if len(sys.argv) > 1 else "data/default.sqlite"
    preset = sys.argv[2] if len(sys.argv) > 2 else "big"
    ood = str(work / "ood.sqlite")
    db = sqlite3.connect(ood)
    rows = []  # (program, region, simulated, model, bound)
    for program in PROGRAMS:
        simulated = dict(db.execute(
            "SELECT r.region_index, l.cpi FROM labels l JOIN regions r ON r.id = l.region_id "
            "JOIN programs g ON g.id = r.program_id WHERE g.name = ? AND l.source = ?",
            (program, "preset:" + preset)))
        predicted = run(concorde, ["predict", "--db", ood, "--model-from", model_db, "--program",
                                   program, "--preset", preset, "--json"])
        model = {r["index"]: (r["cpi"], r["ood_score"]) for r in predicted["regions"]}
        bounds = run(concorde, ["bounds", str(work / "ood" / f"{program}.ctrace"), "--preset",
                                preset, "--json"])
        bound = {r["region"]: 1 / r["min_of_bounds_ipc"] for r in bounds["regions"]}
        for region in sorted(simulated):
            s, (m, score), b = simulated[region], model[region], bound[region]
            rows.append((program, region, s, m, b))
            print(f"{program:12s} r{region} sim {s:.3f} model {m:.3f} ({100 * (m / s - 1):+6.1f}%) "
                  f"mob {b:.3f} ({100 * (b / s - 1):+6.1f}%) model/mob {m / b:.3f} ood {score:.2f}")

    def error(i):
        return (100 * st.mean(abs(r[i] / r[2] - 1) for r in rows),
                100 * st.mean(r[i] / r[2] - 1 for r in rows))

    print("mean |model| %.2f %%, signed %+.2f %%" % error(3))
    print("mean |mob| %.2f %%, signed %+.2f %%" % error(4))
    print(f"sim/mob mean {st.mean(r[2] / r[4] for r in rows):.3f}, "
          f"model/mob mean {st.mean(r[3] / r[4] for r in rows):.3f}")
    x = [math.log(r[3] / r[4]) for r in rows]
    y = [math.log(r[2] / r[4]) for r in rows]
    if len(rows) > 2 and st.pstdev(x) > 0 and st.pstdev(y) > 0:
        print(f"Pearson of log corrections, model against simulator: {st.correlation(x, y):.3f}")
    closer = sum(abs(r[4] / r[2] - 1) < abs(r[3] / r[2] - 1) for r in rows)
    print(f"regions where the bound is closer than the model: {closer} of {len(rows)}")


if __name__ == "__main__":
    main()
