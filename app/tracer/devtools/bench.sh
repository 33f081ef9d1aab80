#!/bin/sh
# Speed of the ctrace tool on one workload: fast-forward, tracing to /dev/null, tracing through
# a pipe, and (with LACKEY=1) lackey --trace-mem=yes. Best of REPEAT runs (default 3).
#
#   VALGRIND_LIB=<build>/lib/concorde-valgrind app/tracer/devtools/bench.sh gzip -c FILE
#   LACKEY=1 REPEAT=1 ... bench.sh gzip -c FILE
#
# Every run uses the same minimal environment so that the program executes the same
# instructions each time.
set -eu
: "${VALGRIND_LIB:?set VALGRIND_LIB to the directory holding ctrace-amd64-linux}"
REPEAT=${REPEAT:-3}
STAT=${STAT:-}   # optional path of a built ctrace_stat, used as a pipe consumer

run() { env -i PATH=/usr/bin:/bin VALGRIND_LIB="$VALGRIND_LIB" "$@"; }

best() { # best wall time of REPEAT runs of "$@" (stdout/stderr discarded)
    b=""
    i=0
    while [ "$i" -lt "$REPEAT" ]; do
        s=$(date +%s.%N)
        sh -c "$1" >/dev/null 2>&1
        e=$(date +%s.%N)
        t=$(echo "$e - $s" | bc)
        if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
        i=$((i + 1))
    done
    printf "%8.3f s  %s\n" "$b" "$2"
}

CMD="$*"
ENV="env -i PATH=/usr/bin:/bin VALGRIND_LIB=$VALGRIND_LIB"
N=$(run valgrind -q --tool=ctrace --ctrace-out=/dev/null --ctrace-stats=yes "$@" 2>&1 >/dev/null |
    sed -n 's/.*ctrace: \([0-9]*\) instructions.*/\1/p')
echo "workload: $CMD  ($N instructions)"
best "$ENV $CMD >/dev/null" "native"
best "$ENV valgrind --tool=none $CMD >/dev/null" "valgrind --tool=none"
best "$ENV valgrind --tool=ctrace --ctrace-out=/dev/null --ctrace-skip=999999999999999 $CMD >/dev/null" \
    "ctrace fast-forward only (--ctrace-skip past the end)"
best "$ENV valgrind --tool=ctrace --ctrace-out=/dev/null $CMD >/dev/null" \
    "ctrace tracing everything to /dev/null"
best "$ENV valgrind --tool=ctrace --ctrace-fd=3 $CMD 3>&1 >/dev/null | cat >/dev/null" \
    "ctrace tracing everything through a pipe (cat > /dev/null)"
if [ -n "$STAT" ]; then
    best "$ENV valgrind --tool=ctrace --ctrace-fd=3 $CMD 3>&1 >/dev/null | $STAT -" \
        "ctrace tracing everything through a pipe into ctrace_stat (full decode)"
fi
if [ "${LACKEY:-0}" = 1 ]; then
    best "$ENV valgrind --tool=lackey --trace-mem=yes $CMD >/dev/null 2>&1" \
        "lackey --trace-mem=yes (output to /dev/null)"
fi
