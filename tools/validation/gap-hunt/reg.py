#!/usr/bin/env python3
"""Base CPI of the 16 cross-check regions: ours (n1-like) against ChampSim variants.
usage: reg.py VARIANT... ; ChampSim results cached in res/. Prints gap stats per variant."""
import concurrent.futures as cf, json, os, subprocess, sys
from pathlib import Path
sys.path.insert(0, "/work/main/tools/validation")
import xcheck
from kernel_exports import roi_core
os.environ["CONCORDE_PRESETS_DIR"] = "/work/main/resources/presets"
C = "/work/xcheck-h/concorde"
T = Path("/root/.cache/concorde/xcheck/traces")
R = Path("/work/xcheck-h/res"); R.mkdir(exist_ok=True)
PROGS = ["gzip", "bzip2", "xz", "zstd", "gcc", "python", "perl", "sqlite"]
REGS = [(p, r) for p in PROGS for r in (0, 1)]
def binp(v):
    if v.startswith("orig_"):
        return f"/root/.cache/concorde/champsim/bin/champsim_n1-like_{v[5:]}"
    return f"/work/xcheck-h/cs/bin/champsim_h_{v}"
def stem(p, r): return f"{p}-r{r}-w1000000-m1000000"

def champ(v, p, r):
    out = R / f"cs-{v}-{p}-r{r}.json"
    if not out.exists():
        tmp = R / f"cs-{v}-{p}-r{r}.raw"
        warm = int((T / f"{stem(p, r)}.warmup").read_text())
        subprocess.run(["nice", "-n", "10", binp(v), "--hide-heartbeat", "--warmup-instructions", str(warm),
                        "--simulation-instructions", "1000000", "--json", str(tmp), str(T / f"{stem(p, r)}.champsimtrace.gz")],
                       check=True, capture_output=True)
        d = json.loads(tmp.read_text())
        core = roi_core(d)
        out.write_text(json.dumps({"cpi": core["cycles"] / core["instructions"], "mispredict": core.get("mispredict")}))
        tmp.unlink()
    return json.loads(out.read_text())["cpi"]

def ours(p, r, sets=()):
    tag = "-".join(s.replace("=", "") for s in sets) or "base"
    out = R / f"ours-{tag}-{p}-r{r}.json"
    if not out.exists():
        cmd = [C, "simulate", "--preset", "n1-like", "--json"]
        for s in sets: cmd += ["--set", s]
        d = json.loads(subprocess.run(cmd + [str(T / f"{stem(p, r)}.ctrace")], check=True, capture_output=True, text=True).stdout)
        out.write_text(json.dumps({"cpi": d["cpi"]}))
    return json.loads(out.read_text())["cpi"]

def stats(o, c):
    gaps = [100 * (o[k] / c[k] - 1) for k in REGS]
    worst = max(range(len(REGS)), key=lambda i: abs(gaps[i]))
    return (sum(map(abs, gaps)) / len(gaps), sum(gaps) / len(gaps), f"{REGS[worst][0]}-r{REGS[worst][1]} {gaps[worst]:+.1f}",
            xcheck.spearman([c[k] for k in REGS], [o[k] for k in REGS]), gaps)

if __name__ == "__main__":
    vs = sys.argv[1:]
    with cf.ThreadPoolExecutor(2) as ex:
        futs = {(v, k): ex.submit(champ, v, *k) for v in vs for k in REGS}
        o = {k: ours(*k) for k in REGS}
        cs = {v: {k: futs[(v, k)].result() for k in REGS} for v in vs}
    print("region        ours  " + "  ".join(f"{v:>14s}" for v in vs))
    for k in REGS:
        print(f"{k[0]:>7s}-r{k[1]}  {o[k]:.3f}  " + "  ".join(f"{cs[v][k]:.3f} ({100*(o[k]/cs[v][k]-1):+5.1f})" for v in vs))
    for v in vs:
        a, s, w, rho, _ = stats(o, cs[v])
        print(f"{v:>14s}: mean|gap| {a:.1f}  signed {s:+.1f}  worst {w}  spearman {rho:.3f}")
