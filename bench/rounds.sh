#!/bin/sh
# rounds.sh — every tracker's time per operation relative to old, from
# several rounds, for figures that a loaded machine cannot move much: each
# round runs every given benchmark binary once (5 repetitions in random
# interleaving, as `make bench`), alternating the order of the binaries
# from round to round. Per binary, operation and tracker the table gives
# the median over the rounds of the tracker's ns/op and of its in-run
# ratio to old (TRACKER/old, both measured in the same run), with the
# spread of that ratio over the rounds (min-max).
#
#   bench/rounds.sh [-r ROUNDS] [-f FILTER] [-t MIN_TIME] BIN...
#
# FILTER is Google Benchmark's --benchmark_filter over TRACKER/OPERATION
# (default: old, cnum and cnum-mainline, every operation); old must be in
# it. E.g. the four operations of issue 26 over 5 rounds:
#   bench/rounds.sh -r 5 -f '^(old|cnum|cnum-mainline)/(is_subset|alu64_mov|alu64_mul|branch_taken)$' \
#     build/bench/rangebench-bench
# a before/after comparison: copy the "before" binary aside, rebuild,
#   bench/rounds.sh -r 3 /tmp/bench-before build/bench/rangebench-bench
set -eu
R=3
F='^(old|cnum|cnum-mainline)/'
T=0.05
usage() { echo "usage: $0 [-r ROUNDS] [-f FILTER] [-t MIN_TIME] BIN..." >&2; exit 2; }
while getopts r:f:t: o; do
	case $o in
	r) R=$OPTARG ;;
	f) F=$OPTARG ;;
	t) T=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
r=1
while [ "$r" -le "$R" ]; do
	if [ $((r % 2)) -eq 1 ]; then order="$*"; else order=$(printf '%s\n' "$@" | tac | tr '\n' ' '); fi
	for b in $order; do
		# the binary's position in the argument list names its column
		k=0 i=1
		for a in "$@"; do [ "$a" = "$b" ] && k=$i; i=$((i + 1)); done
		echo "round $r of $R: $b ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
		# the shim's table: a header line naming the trackers, a row of
		# ns/op per operation (- where a tracker lacks it), then ratios
		"$b" --benchmark_filter="$F" --benchmark_repetitions=5 --benchmark_color=false \
			--benchmark_enable_random_interleaving=true --benchmark_min_time="$T" 2>/dev/null |
			awk '/^operation/ { p = 1; $1 = $2 = ""; print "#" $0; next }
			     p && NF >= 3 && $1 !~ /^vs/ { print }' >"$out/$k.$r"
	done
	r=$((r + 1))
done
python3 - "$out" "$R" "$@" <<'PY'
import collections, statistics, sys
out, rounds, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# per binary: {tracker: {op: [(ns, ratio to old of the same run)]}}
cols, trackers = [], []
for k in range(1, len(bins) + 1):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in range(1, rounds + 1):
        names = []
        for line in open('%s/%d.%d' % (out, k, r)):
            f = line.split()
            if f[0] == '#':
                # the last column is the shim's own candidate/baseline ratio
                names = [n for n in f[1:] if '/' not in n]
                continue
            row = dict(zip(names, f[1:1 + len(names)]))
            try:
                old = float(row['old'])
            except (KeyError, ValueError):
                continue
            for t, v in row.items():
                try:
                    ns = float(v)
                except ValueError:
                    continue
                d[t][f[0]].append((ns, ns / old))
        for t in names:
            if t not in trackers and t != 'old':
                trackers.append(t)
    cols.append(d)
# a tracker the filter left out has a column of '-' only
trackers = [t for t in trackers if any(d[t] for d in cols)]
if not trackers:
    sys.exit('rounds.sh: no tracker besides old in the output (is old in the filter?)')
for k, b in enumerate(bins, 1):
    print('[%d] %s' % (k, b))
ops = list(collections.OrderedDict.fromkeys(op for d in cols for op in d['old']))
hdr = '%-16s' % 'op'
for k in range(1, len(bins) + 1):
    hdr += ' | %8s' % ('old[%d]' % k)
    for t in trackers:
        hdr += ' %9s %-18s' % (t[:9], '%s/old' % t)
print(hdr)
logs = [{t: [] for t in trackers} for _ in bins]
for op in ops:
    row = '%-16s' % op
    for k, d in enumerate(cols):
        o = d['old'].get(op)
        row += ' | %8s' % ('%.2f' % statistics.median(n for n, _ in o) if o else '-')
        for t in trackers:
            v = d[t].get(op)
            if not v:
                row += ' %9s %-18s' % ('-', '')
                continue
            rs = [q for _, q in v]
            m = statistics.median(rs)
            logs[k][t].append(m)
            row += ' %9.2f %-18s' % (statistics.median(n for n, _ in v),
                                     '%.2f [%.2f-%.2f]' % (m, min(rs), max(rs)))
    print(row)
row = '%-16s' % 'geomean'
for k in range(len(bins)):
    row += ' | %8s' % ''
    for t in trackers:
        l = logs[k][t]
        row += ' %9s %-18s' % ('', '%.2f' % statistics.geometric_mean(l) if l else '-')
print(row)
print('rounds: %d; ns/op: CPU time, median over the rounds; TRACKER/old: median of the in-run '
      'ratios [min-max over the rounds]; load average at the end: %s'
      % (rounds, ' '.join(open('/proc/loadavg').read().split()[:3])))
PY
