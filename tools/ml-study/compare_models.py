#!/usr/bin/env python3
"""Two CPI models side by side on the same labelled samples (issue 17's rebuild decision).

  tools/ml-study/compare_models.py --old-db DB --old-work DIR --new-db DB --new-work DIR
      [--concorde build/release/bin/concorde] [--sweeps]

Each side is a model (the database holding it) and the rebuild work folder whose feature
databases and datasets it reads: its own analysis's features, the same draws and labels (a
rebuild with LABELS_FROM keeps both). Per dataset found in both folders: the test split
(regions never trained on) and the held-out programs; then the never-seen programs (WORK/ood.sqlite,
labelled by `concorde label`) and the held-out programs at every region (WORK/heldout.sqlite, made
by the script) overall and per preset. The test split is the same regions on both
sides (DatasetBuilder::splitOf: region index 3 mod 8) and the held-out programs are the script's, so
neither model trained on them; with --sweeps, the sweep sensitivities on the
never-seen programs (tools/validation/sweep_sensitivities.py, which simulates: minutes). Mean
relative CPI error in %, with the min-of-bounds CPI of each side's analysis beside it. Prints
Markdown.
"""
import argparse, json, re, subprocess, sys
from pathlib import Path

DATASETS = ["train", "balanced", "extra", "more", "train2", "extra2", "more2", "near",
            "extra-near", "more-near", "suite2", "suite2-2", "suite2-near"]
OOD_PROGRAMS = "luajit tokyo oggenc dot glpsol phmmer xmllint openssl-enc x265".split()
HERE = Path(__file__).resolve().parent


def evaluate(concorde, args, required=True):
    out = subprocess.run([concorde, "evaluate", "--json"] + args, capture_output=True, text=True)
    if out.returncode != 0:
        message = f"compare_models: evaluate {' '.join(args)} failed: {out.stderr.strip()}"
        if required:
            sys.exit(message)
        print(message + " (left out)", file=sys.stderr)
        return None
    return json.loads(out.stdout)


def pct(x):
    return f"{100 * x:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old-db", required=True)
    ap.add_argument("--old-work", required=True)
    ap.add_argument("--new-db", required=True)
    ap.add_argument("--new-work", required=True)
    ap.add_argument("--concorde", default="build/release/bin/concorde")
    ap.add_argument("--sweeps", action="store_true")
    ap.add_argument("--sim-cache", help="simulated sweep CPIs shared by both sides (JSON)")
    a = ap.parse_args()
    sides = [("old", a.old_db, Path(a.old_work).expanduser()),
             ("new", a.new_db, Path(a.new_work).expanduser())]

    print("| set | samples | old model | new model | min of bounds, old analysis | new analysis |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in DATASETS:
        paths = [w / f"{name}.dataset" for _, _, w in sides]
        if not all(p.exists() for p in paths):
            continue
        res = [evaluate(a.concorde, ["--dataset", str(p), "--model-from", db], required=False)
               for p, (_, db, _) in zip(paths, sides)]
        if not all(res):
            continue  # e.g. a dataset still being labelled
        for part, label in ((None, "test split"), ("held_out", "held-out programs")):
            r = [x.get(part) if part else x for x in res]
            if not all(r) or not r[0].get("samples"):
                continue
            if r[0]["samples"] != r[1]["samples"]:
                print(f"compare_models: {name} {label}: {r[0]['samples']} against {r[1]['samples']} "
                      "samples; the two folders' draws differ", file=sys.stderr)
            mob = [x["baselines"]["min_of_bounds"]["mean_rel_error"] for x in r]
            print(f"| {name}, {label} | {r[1]['samples']} | {pct(r[0]['mean_rel_error'])} | "
                  f"**{pct(r[1]['mean_rel_error'])}** | {pct(mob[0])} | {pct(mob[1])} |")

    labelled_sets = (("ood.sqlite", "never-seen programs"),
                     ("heldout.sqlite", "held-out programs, every region"))
    for file, title in labelled_sets:
        dbs = [w / file for _, _, w in sides]
        if not all(p.exists() for p in dbs):
            continue
        res = [evaluate(a.concorde, ["--db", str(p), "--model-from", db])
               for p, (_, db, _) in zip(dbs, sides)]
        mob = [x["baselines"]["min_of_bounds"]["mean_rel_error"] for x in res]
        print(f"| {title} | {res[1]['samples']} | {pct(res[0]['mean_rel_error'])} | "
              f"**{pct(res[1]['mean_rel_error'])}** | {pct(mob[0])} | {pct(mob[1])} |")
        for source in sorted(res[1].get("per_source", {})):
            r = [x["per_source"].get(source) for x in res]
            if not all(r):
                continue
            bound = [x["baselines"]["min_of_bounds"]["mean_rel_error"] for x in r]
            print(f"| — {source} | {r[1]['samples']} | {pct(r[0]['mean_rel_error'])} | "
                  f"**{pct(r[1]['mean_rel_error'])}** | {pct(bound[0])} | {pct(bound[1])} |")
        for program in sorted(res[1].get("per_program", {})):
            r = [x["per_program"].get(program) for x in res]
            if all(r):
                print(f"| — {program} | {r[1]['samples']} | {pct(r[0]['mean_rel_error'])} | "
                      f"**{pct(r[1]['mean_rel_error'])}** | | |")
        print(f"\nband coverage on the {title}: old {pct(res[0]['band_coverage'])} %, "
              f"new {pct(res[1]['band_coverage'])} %\n")

    if a.sweeps:
        for side, db, work in sides:
            out = subprocess.run([sys.executable, str(HERE.parent / "validation" / "sweep_sensitivities.py"),
                                  "--db", str(work / "ood.sqlite"), "--traces", str(work / "ood"),
                                  "--model-from", db, "--concorde", a.concorde]
                                 + (["--sim-cache", a.sim_cache] if a.sim_cache else []) + OOD_PROGRAMS,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"compare_models: sweep_sensitivities ({side}) failed: {out.stderr.strip()}")
            summary = [l for l in out.stdout.splitlines() if l.startswith(("steps where", "direction"))]
            print(f"sweeps, {side} model: " + "; ".join(summary))


if __name__ == "__main__":
    main()
