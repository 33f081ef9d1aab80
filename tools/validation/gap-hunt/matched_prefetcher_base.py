#!/usr/bin/env python3
"""Base CPI and the prefetcher-off step with ChampSim given our stride prefetcher (issue 22).

  matched_prefetcher_base.py ROWS.tsv RESULTS_DIR

ROWS.tsv is the matched-front-end run's rows (matched-targets/matched/rows.tsv: ChampSim's base
and pf_off CPIs, ours). RESULTS_DIR holds pfexp-PROG-rN.txt, ChampSim's text output of the base
configuration of `xcheck.py --matched-targets --matched-prefetcher` on each region (the same
warm-up and length as the xcheck run). The pf_off binary has no prefetcher in either variant, so
its recorded CPI stands. Prints a Markdown table and the summary (direction rule as xcheck.py).
"""
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
def rank(v):
    o = sorted(range(len(v)), key=lambda i: v[i]); r = [0]*len(v)
    for k, i in enumerate(o): r[i] = k
    return r
def spearman(a, b):
    ra, rb = rank(a), rank(b); n = len(a)
    d = sum((x-y)**2 for x, y in zip(ra, rb)); return 1 - 6*d/(n*(n*n-1))
out = []
for x in rows:
    name = f"{x['program']}-r{x['region']}"
    try:
        t = open(f'{sys.argv[2]}/pfexp-{name}.txt').read()
    except FileNotFoundError:
        continue
    m = re.findall(r'CPU 0 cumulative IPC: [0-9.]+ instructions: (\d+) cycles: (\d+)', t)
    if not m: continue
    ins, cyc = map(int, m[-1]); new = cyc/ins
    pf = re.findall(r'L1D PREFETCH REQUESTED:\s+(\d+) ISSUED:\s+(\d+) USEFUL:\s+(\d+) USELESS:\s+(\d+)', t)[-1]
    old = float(x['cs_cpi']); ours = float(x['our_cpi'])
    cs_off = old * (1 + float(x['cs_pf_off'])/100)  # the pf_off binary has no prefetcher: unchanged
    out.append((name, old, new, ours, (ours/old-1)*100, (ours/new-1)*100, float(x['cs_pf_off']), (cs_off/new-1)*100, float(x['our_pf_off']), pf))
print("| region | ChampSim matched front end | + our prefetcher | ours | gap before | gap after | pf off: ChampSim before / after / ours | L1D prefetches requested / useful |")
print("|---|---:|---:|---:|---:|---:|---|---|")
for o in out:
    print(f"| {o[0]} | {o[1]:.3f} | {o[2]:.3f} | {o[3]:.3f} | {o[4]:+.1f} | {o[5]:+.1f} | {o[6]:+.1f} / {o[7]:+.1f} / {o[8]:+.1f} | {o[9][0]} / {o[9][2]} |")
n = len(out)
if n:
    print(f"\nregions {n}: mean |gap| {sum(abs(o[4]) for o in out)/n:.1f} -> {sum(abs(o[5]) for o in out)/n:.1f} %; signed {sum(o[4] for o in out)/n:+.1f} -> {sum(o[5] for o in out)/n:+.1f} %")
    print(f"Spearman {spearman([o[1] for o in out],[o[3] for o in out]):.3f} -> {spearman([o[2] for o in out],[o[3] for o in out]):.3f}")
    progs = {}
    for o in out: progs.setdefault(o[0].split('-r')[0], []).append(o)
    worst = max(progs.items(), key=lambda kv: sum(abs(o[5]) for o in kv[1])/len(kv[1]))
    print("worst program after:", worst[0], f"{sum(abs(o[5]) for o in worst[1])/len(worst[1]):.1f} %")
    ok = lambda c, o: (abs(c) < 0.5 and abs(o) < 0.5) or ((c > 0) == (o > 0) and abs(c) >= 0.5 and abs(o) >= 0.5)
    agree = sum(1 for o in out if ok(o[7], o[8]))
    agree0 = sum(1 for o in out if ok(o[6], o[8]))
    print(f"pf_off directions agreeing (±0.5 flat): {agree0}/{n} -> {agree}/{n}")
