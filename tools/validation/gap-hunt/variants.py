#!/usr/bin/env python3
"""ChampSim configuration variants for the magnitude-gap hunt (issue 22, deliverable 5).
Each variant is the xcheck base configuration with named changes."""
import copy, json, sys
sys.path.insert(0, "/work/main/tools/validation")
import xcheck

def base():
    p = xcheck.load_preset("n1-like")
    return xcheck.champsim_config("champsim_h_base", p, xcheck.CALIBRATION)

def tlbw(c):
    for t in ("ITLB", "DTLB", "STLB"):
        c[t]["max_tag_check"] = 4
        c[t]["max_fill"] = 4

def variant(name, *fns, **cpu):
    c = base()
    c["executable_name"] = f"champsim_h_{name}"
    for f in fns:
        f(c)
    for k, v in cpu.items():
        if k.startswith("L1D_"):
            c["L1D"][k[4:]] = v
        else:
            c["ooo_cpu"][0][k] = v
    return c

VARIANTS = [
    variant("tlbw", tlbw),
    variant("exec8", execute_width=8),
    variant("tlbw_l1d3", tlbw, L1D_latency=3),
]

if __name__ == "__main__":
    json.dump(VARIANTS, open(sys.argv[1], "w"), indent=2, sort_keys=True)
