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
