#!/usr/bin/env bash
# trace-workload.sh NAME OUT.ctrace [concorde trace options...]
#     Traces workload NAME of workloads.tsv into OUT.ctrace. By default: 16 regions of 100 000
#     measured instructions, each after 20 000 warm-up instructions, the first one at the
#     workload's skip and the next ones its interval apart (the table's columns), which spreads
#     them over the whole run. Options given here replace the matching defaults
#     (e.g. --regions 4, or --length 1000000).
# trace-workload.sh --list
#     Lists the workloads.
# trace-workload.sh --count NAME
#     Runs NAME once under the tracer without writing records and prints how many instructions
#     it executes (used to fill the instructions column of workloads.tsv).
#
# Inputs are generated on first use by make-inputs.sh into $CONCORDE_WORKLOAD_INPUTS (default
# ${XDG_CACHE_HOME:-~/.cache}/concorde/workload-inputs). The program's own output goes to a
# temporary directory that is removed afterwards; its standard output and error are kept in
# OUT.ctrace.log. The concorde binary is $CONCORDE, else build/bin/concorde of this checkout,
# else `concorde` on the PATH. Exit code: the traced program's (0 for every workload), or
# concorde's (1 runtime failure, 2 usage error).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TABLE="$HERE/workloads.tsv"

usage() {
  sed -n '2,12s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

# Field N (1-based) of workload $1's line in the table, or nothing.
field() {
  awk -F'\t' -v name="$1" -v n="$2" '!/^#/ && $1 == name { print $n; exit }' "$TABLE"
}

if [ $# -ge 1 ] && [ "$1" = "--list" ]; then
  awk -F'\t' '!/^#/ && NF >= 7 { printf "%-14s %6.2f G instructions  %s\n", $1, $3 / 1e9, $7 }' "$TABLE"
  exit 0
fi
count=0
if [ $# -ge 1 ] && [ "$1" = "--count" ]; then
  count=1
  shift
  [ $# -eq 1 ] || usage
  set -- "$1" "$(mktemp -u "${TMPDIR:-/tmp}/concorde-count-XXXXXX.ctrace")"
fi
[ $# -ge 2 ] || usage
NAME=$1
OUT=$2
shift 2
case $OUT in
  /*) ;;
  *) OUT="$PWD/$OUT" ;; # the program runs in a scratch directory
esac

command_template=$(field "$NAME" 6)
if [ -z "$command_template" ]; then
  echo "trace-workload: unknown workload '$NAME'; known: $(awk -F'\t' '!/^#/ && NF >= 7 { printf "%s ", $1 }' "$TABLE")" >&2
  exit 2
fi

CONCORDE=${CONCORDE:-}
if [ -z "$CONCORDE" ]; then
  if [ -x "$HERE/../../build/bin/concorde" ]; then
    CONCORDE="$HERE/../../build/bin/concorde"
  elif command -v concorde >/dev/null; then
    CONCORDE=$(command -v concorde)
  else
    echo "trace-workload: no concorde binary (build it, or set CONCORDE=/path/to/concorde)" >&2
    exit 1
  fi
fi

INPUTS=${CONCORDE_WORKLOAD_INPUTS:-${XDG_CACHE_HOME:-$HOME/.cache}/concorde/workload-inputs}
bash "$HERE/make-inputs.sh" "$INPUTS" >/dev/null
INPUTS=$(cd "$INPUTS" && pwd)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/concorde-workload-XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# The command line: substitute the directories, then split it into words like the shell would.
# Some programs parse paths out of their arguments themselves (sqlite's .read), so the
# directories must not contain blanks or quotes.
for directory in "$INPUTS" "$SCRATCH"; do
  case $directory in
    *[[:space:]\"\'\\\$\`]*)
      echo "trace-workload: '$directory' contains blanks or quotes; set CONCORDE_WORKLOAD_INPUTS" \
        "or TMPDIR to a plain path" >&2
      exit 2
      ;;
  esac
done
command_line=${command_template//\{IN\}/$(printf %q "$INPUTS")}
command_line=${command_line//\{OUT\}/$(printf %q "$SCRATCH")}
program=()
eval "program=($command_line)"

# Region options: the table's defaults, each replaced by the same option given on our command line.
declare -A options=(
  [--skip]=$(field "$NAME" 4) [--length]=100000 [--warmup]=20000 [--regions]=16
  [--interval]=$(field "$NAME" 5))
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --skip | --length | --warmup | --regions | --interval)
      [ $# -ge 2 ] || usage
      options[$1]=$2
      shift 2
      ;;
    *)
      extra+=("$1")
      shift
      ;;
  esac
done
if [ "$count" = 1 ]; then
  options=([--skip]=4611686018427387904 [--length]=1) # fast-forward through the whole run
fi
region_args=()
for option in --skip --length --warmup --regions --interval; do
  if [ -n "${options[$option]:-}" ]; then
    region_args+=("$option" "${options[$option]}")
  fi
done
if [ "${options[--regions]:-1}" = 1 ]; then
  # one region: an interval is meaningless (and --length 0 means "to the end")
  region_args=()
  for option in --skip --length --warmup; do
    if [ -n "${options[$option]:-}" ]; then
      region_args+=("$option" "${options[$option]}")
    fi
  done
fi

LOG="$OUT.log"
[ "$count" = 1 ] && LOG="$SCRATCH/log"
start=$(date +%s.%N)
set +e
(
  cd "$SCRATCH"
  # Same environment on every machine; no hash randomisation, so runs repeat exactly.
  export LC_ALL=C TZ=UTC PYTHONHASHSEED=0 PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
  "$CONCORDE" trace -o "$OUT" "${region_args[@]}" "${extra[@]}" -- "${program[@]}" \
    >"$SCRATCH/stdout" 2>"$SCRATCH/stderr"
)
status=$?
set -e
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

# concorde's own summary line comes last on stdout, after the program's output (which may be
# binary and may not end with a newline).
summary=$(grep -aoE 'traced [0-9]+ instructions \(of [0-9]+ executed\) in [0-9]+ regions to .*' \
  "$SCRATCH/stdout" | tail -n 1 || true)
{
  echo "== $NAME:$(printf ' %q' "${program[@]}")"
  echo "== exit status $status, ${seconds} s"
  bytes=$(wc -c <"$SCRATCH/stdout")
  if [ "$(tr -d '\000' <"$SCRATCH/stdout" | wc -c)" != "$bytes" ]; then
    echo "== stdout: $bytes bytes of binary output"
  elif [ "$bytes" -gt 65536 ]; then
    echo "== stdout: $bytes bytes, the first 64 KiB:"
    head -c 65536 "$SCRATCH/stdout"
    echo
  else
    echo "== stdout"
    grep -av '^traced [0-9]* instructions (of [0-9]* executed)' "$SCRATCH/stdout" || true
  fi
  echo "== stderr (the last 200 lines)"
  tail -n 200 "$SCRATCH/stderr"
} >"$LOG"

if [ "$count" = 1 ]; then
  rm -f "$OUT"
  executed=$(printf '%s\n' "$summary" | sed -n 's/.*(of \([0-9]*\) executed).*/\1/p')
  if [ -z "$executed" ]; then
    echo "trace-workload: counting $NAME failed (exit $status):" >&2
    tail -n 20 "$SCRATCH/stderr" >&2
    exit 1
  fi
  echo "$NAME $executed instructions (${seconds} s)"
  exit 0
fi

grep '^concorde trace:' "$SCRATCH/stderr" >&2 || true
if [ -z "$summary" ] || [ "$status" -ne 0 ]; then
  echo "trace-workload: tracing $NAME failed (exit $status); last lines of its output:" >&2
  tail -n 20 "$SCRATCH/stderr" >&2
  exit $((status == 0 ? 1 : status))
fi
echo "$NAME: $summary in ${seconds} s (program output in $LOG)"
