#!/bin/sh
# insns.sh — instructions per operation, old vs cnum (or any two registry
# trackers), counted by valgrind's callgrind inside rb_bench_body only:
# the same bodies and inputs as the timed benchmarks (bench/ops.c), but a
# count that does not depend on the machine's load, a second figure to
# report beside ns/op. Each (operation, tracker) runs N times in its own
# process (`rangebench-bench --run-body OP TRACKER N`); the loop's own
# instructions (pool indexing, the indirect call, the sink) are included,
# the same for both trackers.
#
#   bench/insns.sh [-n N] [-b BASELINE] [-c CANDIDATE] [OP_REGEX]
#   make bench-insns
#
# Prints "op  BASELINE  CANDIDATE  CANDIDATE/BASELINE" (instructions per
# operation) and the geometric mean of the ratios.
set -eu
N=16384
BASE=old
CAND=cnum
BIN=${BENCH_BIN:-build/bench/rangebench-bench}
while getopts n:b:c: o; do
	case $o in
	n) N=$OPTARG ;;
	b) BASE=$OPTARG ;;
	c) CAND=$OPTARG ;;
	*) echo "usage: $0 [-n N] [-b BASELINE] [-c CANDIDATE] [OP_REGEX]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
RE=${1:-.}
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
[ -x "$BIN" ] || { echo "$0: $BIN not built (make build/bench/rangebench-bench)" >&2; exit 2; }

count() { # op tracker -> instructions per op
	valgrind --tool=callgrind --toggle-collect=rb_bench_body --callgrind-out-file=/dev/null \
		"$BIN" --run-body "$1" "$2" "$N" 2>&1 |
		awk -v n="$N" '/Collected :/ { printf "%.1f", $NF / n; found = 1 } END { if (!found) exit 1 }'
}

printf '%-18s %10s %10s %10s\n' "operation (insns)" "$BASE" "$CAND" "$CAND/$BASE"
"$BIN" --benchmark_list_tests=true --benchmark_filter="^$BASE/" | grep "^$BASE/" | sed "s|^$BASE/||" |
	grep -E -- "$RE" |
	while read -r op; do
		b=$(count "$op" "$BASE") || { echo "$0: $BASE/$op failed" >&2; exit 1; }
		c=$(count "$op" "$CAND") || { echo "$0: $CAND/$op failed" >&2; exit 1; }
		echo "$op $b $c"
	done | awk '{ r = $3 / $2; s += log(r); k++; printf "%-18s %10.1f %10.1f %10.2f\n", $1, $2, $3, r }
		END { if (k) printf "%-18s %32.2f\n", "geomean", exp(s / k) }'
