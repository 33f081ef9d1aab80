#!/usr/bin/env python3
"""Known-answer kernels for the stockfish study, on concorde simulate (n1-like, plus --set
steps) and on the cross-check's ChampSim binaries (same steps).
usage: kern.py OUT.tsv [STEP...]   (steps: base width2 width8; default all)
Environment: CONCORDE (binary, default build/helper-b/bin/concorde), WORK (default
/work/sfstudy/k), CHAMPSIM_BIN (default ~/.cache/concorde/champsim/bin)."""
import concurrent.futures as cf, json, os, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
C = os.environ.get("CONCORDE", str(ROOT / "build/helper-b/bin/concorde"))
K = Path(os.environ.get("WORK", "/work/sfstudy/k")); (K / "res").mkdir(parents=True, exist_ok=True)
CSBIN = Path(os.environ.get("CHAMPSIM_BIN", Path.home() / ".cache/concorde/champsim/bin"))
os.environ.setdefault("CONCORDE_PRESETS_DIR", str(ROOT / "resources/presets"))
STEPS = {"base": [], "width2": ["fetch_width=2", "decode_width=2", "rename_width=2"],
         "width8": ["fetch_width=8", "decode_width=8", "rename_width=8"]}
# name, kernel, params, iterations
KERNELS = [
    ("simd-indep", "independent", {"class": "simd"}, 1000),
    ("simd-chain", "chain-simd", {}, 2000),
    ("alu-indep", "independent", {"class": "int-alu"}, 1000),
    ("alu-chain", "chain-int-alu", {}, 2000),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_exports import champsim_cpi, sh, prepare as prepare_kernel  # noqa: E402


def prepare(name, kern, params, iters):
    return prepare_kernel(C, K, name, kern, params, iters)

def ours(name, step):
    cmd = [C, "simulate", "--preset", "n1-like", "--json"]
    for a in STEPS[step]:
        cmd += ["--set", a]
    return json.loads(sh(cmd + [str(K / f"{name}.ctrace")]))["cpi"]

def champ(name, step, meta):
    return champsim_cpi(CSBIN / f"champsim_n1-like_{step}", K / f"{name}.champsimtrace.gz", meta,
                        K / "res" / f"{name}-{step}.json", nice=5)

if __name__ == "__main__":
    out, steps = sys.argv[1], sys.argv[2:] or list(STEPS)
    metas = {n: prepare(n, k, p, i) for n, k, p, i in KERNELS}
    with cf.ThreadPoolExecutor(2) as ex:
        futs = {(n, s): ex.submit(champ, n, s, metas[n]) for n, *_ in KERNELS for s in steps}
        o = {(n, s): ours(n, s) for n, *_ in KERNELS for s in steps}
        cs = {k: f.result() for k, f in futs.items()}
    lines = ["kernel\t" + "\t".join(f"ours_{s}\tchampsim_{s}" for s in steps)]
    for n, *_ in KERNELS:
        lines.append(n + "\t" + "\t".join(f"{o[(n, s)]:.3f}\t{cs[(n, s)]:.3f}" for s in steps))
    lines += [f"# {n}: concorde {metas[n]['cmd']}" for n, *_ in KERNELS]
    Path(out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
