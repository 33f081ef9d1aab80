"""Shared by the kernel scripts of tools/validation (gap-hunt/kern.py, stockfish-study/kern.py):
run a command, and write a microbenchmark kernel as a .ctrace and a ChampSim trace once."""
import json
import re
import subprocess
from pathlib import Path


def sh(cmd):
    """The command's standard output; raises if it fails."""
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def prepare(concorde, work, name, kernel, params, iterations):
    """`concorde microbench KERNEL` into WORK/NAME.ctrace and its ChampSim export beside it,
    unless done before; returns {"warm", "meas", "cmd"}: the kernel's detailed warm-up and
    measured instruction counts and the microbench arguments."""
    work = Path(work)
    ct = work / f"{name}.ctrace"
    cs = work / f"{name}.champsimtrace.gz"
    meta = work / f"{name}.meta"
    if not meta.exists():
        cmd = [concorde, "microbench", kernel, "--iterations", str(iterations), "-o", str(ct)]
        for key, value in params.items():
            cmd += ["--param", f"{key}={value}"]
        out = sh(cmd)
        m = re.search(r"(\d+) warm-up \+ (\d+) measured", out)
        sh([concorde, "export-champsim", "-o", str(cs), str(ct)])
        meta.write_text(json.dumps({"warm": int(m.group(1)), "meas": int(m.group(2)),
                                    "cmd": " ".join(cmd[1:])}))
    return json.loads(meta.read_text())


def roi_core(champsim_json):
    """The first core's region-of-interest statistics from ChampSim's --json output (a list of
    phases, one of them named "Simulation")."""
    simulation = [p for p in champsim_json if p.get("name") == "Simulation"][0]
    return simulation["roi"]["cores"][0]


def champsim_cpi(binary, trace, meta, result, nice=10):
    """ChampSim's CPI on a kernel's export (`meta` from prepare()), cached in the file `result`
    so that a rerun simulates only what is missing."""
    result = Path(result)
    if not result.exists():
        raw = result.with_suffix(".raw.json")
        sh(["nice", "-n", str(nice), str(binary), "--hide-heartbeat",
            "--warmup-instructions", str(meta["warm"]), "--simulation-instructions",
            str(meta["meas"]), "--json", str(raw), str(trace)])
        core = roi_core(json.loads(raw.read_text()))
        result.write_text(json.dumps({"cpi": core["cycles"] / core["instructions"]}))
        raw.unlink()
    return json.loads(result.read_text())["cpi"]
