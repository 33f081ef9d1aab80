#!/usr/bin/env python3
"""Known-answer kernels on concorde simulate (n1-like) and on ChampSim binaries (per-variant).
usage: kern.py OUT.tsv BIN_NAME... ; results cached in k/res/."""
import concurrent.futures as cf, json, os, re, subprocess, sys
from pathlib import Path
C = "/work/xcheck-h/concorde"
K = Path("/work/xcheck-h/k"); (K / "res").mkdir(parents=True, exist_ok=True)
BINS = {"orig": "/root/.cache/concorde/champsim/bin/champsim_n1-like_base"}
for b in Path("/work/xcheck-h/cs/bin").glob("champsim_h_*"):
    BINS[b.name[len("champsim_h_"):]] = str(b)
# name, kernel, params, iterations, ours --set
KERNELS = [
    ("l1-chase", "chain-load", {"ws_kb": 4, "warmup": 8}, 4000, {}),
    ("l1-loads", "stride-load", {"ws_kb": 16, "stride": 64, "warmup": 8}, 3000, {}),
    ("l1-loads-pages", "stride-load", {"ws_kb": 48, "stride": 4160, "warmup": 8}, 3000, {}),
    ("alu-indep", "independent", {"class": "int-alu"}, 1000, {}),
    ("alu-chain", "chain-int-alu", {}, 2000, {}),
    ("branch-random", "branch-random", {}, 20000, {}),
    ("taken4", "taken-groups", {"group": 4, "groups": 16}, 4000, {}),
    ("indirect-rand", "indirect-dispatch", {"handlers": 8, "pattern": "random"}, 20000, {}),
    ("l2-chase", "pointer-chase", {"ws_kb": 256, "warmup": 2}, 100, {}),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_exports import champsim_cpi, sh, prepare as prepare_kernel  # noqa: E402


def prepare(name, kern, params, iters):
    return prepare_kernel(C, K, name, kern, params, iters)

def ours(name, sets):
    r = K / "res" / f"{name}-ours.json"
    if not r.exists():
        cmd = [C, "simulate", "--preset", "n1-like", "--json"]
        for k, v in sets.items():
            cmd += ["--set", f"{k}={v}"]
        d = json.loads(sh(cmd + [str(K / f"{name}.ctrace")]))
        r.write_text(json.dumps({"cpi": d["cpi"]}))
    return json.loads(r.read_text())["cpi"]

def champ(name, var, meta):
    return champsim_cpi(BINS[var], K / f"{name}.champsimtrace.gz", meta,
                        K / "res" / f"{name}-{var}.json", nice=10)

if __name__ == "__main__":
    if os.environ.get("ONLY"):
        KERNELS[:] = [k for k in KERNELS if k[0] in os.environ["ONLY"].split()]
    out, variants = sys.argv[1], sys.argv[2:]
    metas = {n: prepare(n, k, p, i) for n, k, p, i, _ in KERNELS}
    with cf.ThreadPoolExecutor(2) as ex:
        futs = {(n, v): ex.submit(champ, n, v, metas[n]) for n, *_ in KERNELS for v in variants}
        o = {n: ours(n, s) for n, _, _, _, s in KERNELS}
        res = {k: f.result() for k, f in futs.items()}
    lines = ["kernel\tours\t" + "\t".join(variants)]
    for n, *_ in KERNELS:
        lines.append(f"{n}\t{o[n]:.3f}\t" + "\t".join(f"{res[(n, v)]:.3f}" for v in variants))
    Path(out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    for n, *_ in KERNELS:
        print(n, metas[n]["cmd"])
