#!/bin/sh
# rounds.sh — cnum/old per operation from several rounds, for figures that
# a loaded machine cannot move much: each round runs every given benchmark
# binary once (5 repetitions in random interleaving, as `make bench`),
# alternating the order of the binaries from round to round; per binary
# and operation the table gives the median over the rounds of old's and
# cnum's ns/op and of the in-run ratio cnum/old.
#
#   bench/rounds.sh [-r ROUNDS] [-f FILTER] [-t MIN_TIME] BIN...
#
# e.g. a before/after comparison: copy the "before" binary aside, rebuild,
#   bench/rounds.sh -r 3 /tmp/bench-before build/bench/rangebench-bench
set -eu
R=3
F='^(old|cnum)/'
T=0.05
while getopts r:f:t: o; do
	case $o in
	r) R=$OPTARG ;;
	f) F=$OPTARG ;;
	t) T=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-f FILTER] [-t MIN_TIME] BIN..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r ROUNDS] [-f FILTER] [-t MIN_TIME] BIN..." >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
r=1
while [ "$r" -le "$R" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="$*"; else order=$(printf '%s\n' "$@" | tac | tr '\n' ' '); fi
	k=0
	for b in $order; do
		# the binary's position in the argument list names its column
		i=1
		for a in "$@"; do [ "$a" = "$b" ] && k=$i; i=$((i + 1)); done
		"$b" --benchmark_filter="$F" --benchmark_repetitions=5 \
			--benchmark_enable_random_interleaving=true --benchmark_min_time="$T" 2>/dev/null |
			awk '/^operation/ { p = 1; next } p && NF >= 3 && $1 !~ /^vs/ { print $1, $2, $3 }' \
				>"$out/$k.$r"
	done
	r=$((r + 1))
done
python3 - "$out" "$R" "$@" <<'PY'
import collections, statistics, sys
out, rounds, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
cols = []
for k in range(1, len(bins) + 1):
    d = collections.OrderedDict()
    for r in range(1, rounds + 1):
        for line in open('%s/%d.%d' % (out, k, r)):
            op, o, c = line.split()[:3]
            try:
                d.setdefault(op, []).append((float(o), float(c)))
            except ValueError:
                pass
    cols.append(d)
for k, b in enumerate(bins, 1):
    print('[%d] %s' % (k, b))
print('%-16s' % 'op' + ''.join(' | %8s %8s %6s' % ('old[%d]' % k, 'cnum[%d]' % k, 'ratio')
                                 for k in range(1, len(bins) + 1)))
logs = [[] for _ in bins]
for op in cols[-1]:
    row = '%-16s' % op
    for k, d in enumerate(cols):
        v = d.get(op)
        if not v:
            row += ' | %24s' % '-'
            continue
        ratio = statistics.median(c / o for o, c in v)
        logs[k].append(ratio)
        row += ' | %8.2f %8.2f %6.2f' % (statistics.median(o for o, _ in v),
                                        statistics.median(c for _, c in v), ratio)
    print(row)
print('%-16s' % 'geomean' + ''.join(' | %24.2f' % statistics.geometric_mean(l) if l else ' | %24s' % '-'
                                    for l in logs))
print('rounds: %d; ns/op are medians over the rounds, ratio the median of the in-run ratios' % rounds)
PY
