#!/usr/bin/env python3
"""Per region of the never-seen programs at one preset: the simulated CPI, the model's and the
min-of-bounds CPI, and the model's correction of the bound (model / min-of-bounds) beside the
one the simulator says it should be (simulated / min-of-bounds). Issue 17's "never worse than
min-of-bounds" study.

  CONCORDE_PRESETS_DIR=resources/presets python3 tools/ml-study/preset_vs_bound.py \
      [MODEL_DB (default data/default.sqlite)] [PRESET (default big)]

Reads WORK/ood.sqlite (labelled with --presets) and WORK/ood/*.ctrace, WORK being
~/.cache/concorde/default-db-v2 or $WORK; concorde from build/release or $CONCORDE.
"""
import json, subprocess, sqlite3, re, os, sys
C=os.environ.get('CONCORDE','build/release/bin/concorde')
W=os.path.expanduser(os.environ.get('WORK','~/.cache/concorde/default-db-v2'))
DB=W+'/ood.sqlite'; M=sys.argv[1] if len(sys.argv)>1 else 'data/default.sqlite'
preset=sys.argv[2] if len(sys.argv)>2 else 'big'
db=sqlite3.connect(DB)
rows=[]
for p in "luajit tokyo oggenc dot glpsol phmmer xmllint openssl-enc x265".split():
    sim={ri:c for ri,c in db.execute("select r.region_index, l.cpi from labels l join regions r on r.id=l.region_id join programs g on g.id=r.program_id where g.name=? and l.source=?",(p,'preset:'+preset))}
    pr=json.loads(subprocess.run([C,'predict','--db',DB,'--model-from',M,'--program',p,'--preset',preset,'--json'],capture_output=True,text=True).stdout)
    model={r['index']:(r['cpi'],r['ood_score']) for r in pr['regions']}
    b=subprocess.run([C,'bounds',W+'/ood/'+p+'.ctrace','--preset',preset],capture_output=True,text=True).stdout
    mob={int(m.group(1)):1/float(m.group(2)) for m in re.finditer(r'region (\d+):.*min-of-bounds IPC ([0-9.]+)',b)}
    for ri in sorted(sim):
        s=sim[ri]; m,o=model[ri]; mb=mob[ri]
        rows.append((p,ri,s,m,mb,o))
        print(f"{p:12s} r{ri} sim {s:.3f} model {m:.3f} ({100*(m/s-1):+6.1f}%) mob {mb:.3f} ({100*(mb/s-1):+6.1f}%) model/mob {m/mb:.3f} ood {o:.2f}")
import statistics as st
print("mean |model|", st.mean(abs(r[3]/r[2]-1) for r in rows)*100, "signed", st.mean(r[3]/r[2]-1 for r in rows)*100)
print("mean |mob|", st.mean(abs(r[4]/r[2]-1) for r in rows)*100, "signed", st.mean(r[4]/r[2]-1 for r in rows)*100)
print("sim/mob mean", st.mean(r[2]/r[4] for r in rows), "model/mob mean", st.mean(r[3]/r[4] for r in rows))
import math
x=[math.log(r[3]/r[4]) for r in rows]; y=[math.log(r[2]/r[4]) for r in rows]
if len(rows) > 2 and st.pstdev(x) > 0 and st.pstdev(y) > 0:
    print("Pearson of log corrections, model against simulator:", round(st.correlation(x, y), 3))
print("regions where the bound is closer than the model:",
      sum(abs(r[4] / r[2] - 1) < abs(r[3] / r[2] - 1) for r in rows), "of", len(rows))
