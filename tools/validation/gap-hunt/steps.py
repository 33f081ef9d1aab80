#!/usr/bin/env python3
"""ROB 32 and width 2 steps on the 16 regions: ChampSim (old configuration: xcheck's results; corrected: fix_*)
against ours. usage: steps.py"""
import concurrent.futures as cf, json, sys
sys.path.insert(0, "/work/xcheck-h")
from reg import REGS, champ, ours
OLD = "/root/.cache/concorde/xcheck/results/champsim-{key}/{step}-{p}-r{r}-w1000000-m1000000.json"
def old_cs(step, p, r):
    import glob
    f = glob.glob(OLD.format(key="*", step=step, p=p, r=r))
    assert len(f) == 1, f
    return json.load(open(f[0]))["cpi"]
STEPS = {"rob32": ["rob=32"], "width2": ["fetch_width=2", "decode_width=2", "rename_width=2"]}
def med(x):
    s = sorted(x); n = len(s); return (s[n // 2] + s[(n - 1) // 2]) / 2
if __name__ == "__main__":
    with cf.ThreadPoolExecutor(2) as ex:
        futs = {(s, k): ex.submit(champ, f"fix_{s}", *k) for s in STEPS for k in REGS}
        o = {k: ours(*k) for k in REGS}
        os_ = {(s, k): ours(*k, sets=STEPS[s]) for s in STEPS for k in REGS}
        new = {key: f.result() for key, f in futs.items()}
    newbase = {k: champ("dib_off_tlbw_l1ih2", *k) for k in REGS}
    oldbase = {k: champ("orig_base", *k) for k in REGS}
    for s in STEPS:
        print(f"== {s}: % change of CPI, ChampSim old / ChampSim corrected / ours; ratio ours/CS of % and of absolute CPI change")
        for label, base, step in (("old", oldbase, {k: old_cs(s, *k) for k in REGS}), ("corrected", newbase, {k: new[(s, k)] for k in REGS})):
            rp, ra, inp, ina, gap = [], [], 0, 0, []
            for k in REGS:
                dc = 100 * (step[k] / base[k] - 1); do = 100 * (os_[(s, k)] / o[k] - 1)
                gap.append(abs(os_[(s, k)] / step[k] - 1) * 100)
                if abs(dc) >= 5:
                    q = do / dc; a = (os_[(s, k)] - o[k]) / (step[k] - base[k])
                    rp.append(q); ra.append(a); inp += 0.67 <= q <= 1.5; ina += 0.67 <= a <= 1.5
            print(f"  {label:9s} CS>=5%: {len(rp)}  %-ratio median {med(rp):.2f} in band {inp}/{len(rp)}  "
                  f"abs-ratio median {med(ra):.2f} in band {ina}/{len(ra)}  mean|gap| at step {sum(gap)/len(gap):.1f}")
        for k in REGS:
            print(f"  {k[0]:>7s}-r{k[1]}  CS old {100*(old_cs(s,*k)/oldbase[k]-1):+6.1f}  CS corr {100*(new[(s,k)]/newbase[k]-1):+6.1f}  ours {100*(os_[(s,k)]/o[k]-1):+6.1f}")
