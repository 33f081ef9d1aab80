#!/usr/bin/env python3
"""Our base CPI on the cross-check's 20 regions under simvar variants, against ChampSim's base
CPI from a cross-check rows.tsv: mean |gap|, signed gap, worst program, Spearman.
usage: regions.py ROWS.tsv TRACES_DIR OUT.tsv 'NAME=simvar args' ...   (NAME=base: no args)"""
import csv, os, shlex, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SIMVAR = os.environ.get("SIMVAR", str(ROOT / "build/helper-b/bin/simvar"))
os.environ.setdefault("CONCORDE_PRESETS_DIR", str(ROOT / "resources/presets"))

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from xcheck import spearman  # noqa: E402 (the cross-check's own rank correlation)

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
traces, out = Path(sys.argv[2]), sys.argv[3]
variants = [a.split("=", 1) for a in sys.argv[4:]]
table = [["program", "region", "cs_cpi"] + [f"{n}_cpi" for n, _ in variants]]
summary = []
cpis = {n: [] for n, _ in variants}
for row in rows:
    t = traces / f"{row['program']}-r{row['region']}-w1000000-m1000000.ctrace"
    line = [row["program"], row["region"], row["cs_cpi"]]
    for n, args in variants:
        o = subprocess.run([SIMVAR, str(t)] + shlex.split(args), check=True, capture_output=True,
                           text=True).stdout.split()
        cpis[n].append(float(o[1]))
        line.append(o[1])
    table.append(line)
cs = [float(r["cs_cpi"]) for r in rows]
for n, _ in variants:
    gaps = [c / s - 1 for c, s in zip(cpis[n], cs)]
    per_prog = {}
    for r, g in zip(rows, gaps):
        per_prog.setdefault(r["program"], []).append(abs(g))
    worst = max(per_prog, key=lambda p: sum(per_prog[p]) / len(per_prog[p]))
    wv = sum(per_prog[worst]) / len(per_prog[worst])
    summary.append(f"{n}\tmean|gap| {100 * sum(map(abs, gaps)) / len(gaps):.1f} %\tsigned "
                   f"{100 * sum(gaps) / len(gaps):+.1f} %\tworst {worst} {100 * wv:.1f} %\t"
                   f"Spearman {spearman(cpis[n], cs):.3f}")
text = "\n".join("\t".join(l) for l in table) + "\n# " + "\n# ".join(summary) + "\n"
Path(out).write_text(text)
print(text)
