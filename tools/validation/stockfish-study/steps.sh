#!/bin/sh
# Our base CPI and ROB 32 / width 2 / width 8 steps on stockfish's two cross-check regions
# under simvar variants. usage: steps.sh TRACES_DIR [SIMVAR]
T=${1:-$HOME/.cache/concorde/xcheck/traces}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
S=${2:-$ROOT/build/helper-b/bin/simvar}
export CONCORDE_PRESETS_DIR=${CONCORDE_PRESETS_DIR:-$ROOT/resources/presets}
W2="--set fetch_width=2 --set decode_width=2 --set rename_width=2"
W8="--set fetch_width=8 --set decode_width=8 --set rename_width=8"
cpi() { "$S" "$@" | head -1 | cut -d' ' -f2; }
printf 'region\tvariant\tbase_cpi\twidth2_pct\twidth8_pct\trob32_pct\n'
for r in 0 1; do
  tr=$T/stockfish-r$r-w1000000-m1000000.ctrace
  for v in "" "--lat simd=1" "--set fp_issue=3" "--set fp_issue=4" "--set fp_issue=5 --lat simd=1"; do
    b=$(cpi $tr $v); w2=$(cpi $tr $v $W2); w8=$(cpi $tr $v $W8); r32=$(cpi $tr $v --set rob=32)
    python3 -c "b,w2,w8,r32=$b,$w2,$w8,$r32; print('r$r\t${v:-n1-like}\t%.4f\t%+.1f\t%+.1f\t%+.1f'%(b,100*(w2/b-1),100*(w8/b-1),100*(r32/b-1)))"
  done
done
