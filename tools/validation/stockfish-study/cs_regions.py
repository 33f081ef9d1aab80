#!/usr/bin/env python3
"""Runs one ChampSim binary on the cross-check's 20 region exports (base: 1M detailed warm-up
after the warm-state replay, 1M measured), 2 at a time under nice 5, and compares its CPI and
the original ChampSim's with ours, from a cross-check rows.tsv.
usage: cs_regions.py BINARY ROWS.tsv TRACES_DIR OUT.tsv"""
import concurrent.futures as cf, csv, json, subprocess, sys, tempfile
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from xcheck import spearman  # noqa: E402 (the cross-check's own rank correlation)
from kernel_exports import roi_core  # noqa: E402

binary, rows_path, traces, out = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
rows = list(csv.DictReader(open(rows_path), delimiter="\t"))

def run(row):
    stem = f"{row['program']}-r{row['region']}-w1000000-m1000000"
    warm = int((traces / f"{stem}.warmup").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        j = Path(tmp) / "r.json"
        subprocess.run(["nice", "-n", "5", binary, "--hide-heartbeat", "--warmup-instructions", str(warm),
                        "--simulation-instructions", "1000000", "--json", str(j),
                        str(traces / f"{stem}.champsimtrace.gz")], check=True, capture_output=True)
        core = roi_core(json.loads(j.read_text()))
        return core["cycles"] / core["instructions"]

with cf.ThreadPoolExecutor(2) as ex:
    cpis = list(ex.map(run, rows))
lines = ["program\tregion\tours\tchampsim\tchampsim_variant\tgap\tgap_variant"]
ours = [float(r["our_cpi"]) for r in rows]
cs = [float(r["cs_cpi"]) for r in rows]
for r, o, c, v in zip(rows, ours, cs, cpis):
    lines.append(f"{r['program']}\t{r['region']}\t{o:.4f}\t{c:.4f}\t{v:.4f}\t{100 * (o / c - 1):+.1f}\t{100 * (o / v - 1):+.1f}")
def summary(name, ref):
    gaps = [o / c - 1 for o, c in zip(ours, ref)]
    prog = {}
    for r, g in zip(rows, gaps):
        prog.setdefault(r["program"], []).append(abs(g))
    worst = max(prog, key=lambda p: sum(prog[p]) / len(prog[p]))
    return (f"# {name}: mean|gap| {100 * sum(map(abs, gaps)) / len(gaps):.1f} %, signed "
            f"{100 * sum(gaps) / len(gaps):+.1f} %, worst {worst} "
            f"{100 * sum(prog[worst]) / len(prog[worst]):.1f} %, Spearman {spearman(ours, ref):.3f}")
lines += [summary("ChampSim as in the cross-check", cs), summary(f"ChampSim variant {Path(binary).name}", cpis)]
Path(out).write_text("\n".join(lines) + "\n")
print("\n".join(lines))
