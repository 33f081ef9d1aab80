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

def dib_off(c):
    c["ooo_cpu"][0]["DIB"] = {"window_size": 16, "sets": 1, "ways": 1}

def l1ih2(c):
    c["L1I"]["hit_latency"] = 2
    c["L1I"]["fill_latency"] = 1
    c["L1I"].pop("latency", None)

def rob32(c):
    c["ooo_cpu"][0]["rob_size"] = 32
    c["ooo_cpu"][0]["scheduler_size"] = 32

def width2(c):
    for k in ("fetch_width", "decode_width", "dispatch_width"):
        c["ooo_cpu"][0][k] = 2

# Built in three batches with ChampSim's config.sh + make in a copy of the xcheck build tree
# (/work/xcheck-h/cs). base() was the configuration before these corrections (DIB 32 x 8, TLBs at
# 1 lookup/cycle, L1I latency 1); with xcheck.py as committed, base() already is the corrected one
# (dib_off_tlbw_l1ih2), and the variants below only reproduce the search if base() is taken from
# xcheck.py before commit ec74173.
VARIANTS = [
    variant("base"),
    variant("tlbw", tlbw),
    variant("exec8", execute_width=8),
    variant("tlbw_l1d3", tlbw, L1D_latency=3),
    variant("dib_off", dib_off),
    variant("dib_off_tlbw", dib_off, tlbw),
    variant("dib_off_tlbw_l1ih2", dib_off, tlbw, l1ih2),
    variant("tlbw_l1ih2", tlbw, l1ih2),
    variant("fix_rob32", dib_off, tlbw, l1ih2, rob32),
    variant("fix_width2", dib_off, tlbw, l1ih2, width2),
]

if __name__ == "__main__":
    json.dump(VARIANTS, open(sys.argv[1], "w"), indent=2, sort_keys=True)
