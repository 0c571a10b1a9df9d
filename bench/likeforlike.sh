#!/bin/sh
# likeforlike.sh — the engine (tracker old) against the running kernel,
# like for like: the exploration alone on both sides (result/metrics.h
# explore_us, explore_cpu_us; the kernel's sampled, oracle/ksample.h), per
# processed instruction, wall and CPU time, each the median of N
# verifications with its least and most; beside the raw ratio of today's
# figures (the engine's verify_us against the kernel log's "verification
# time", which also holds the kernel's rewrites and subprogram JIT).
#
#   bench/likeforlike.sh [-r N] [-m MIN_INSNS] [-j JOBS] [-s] DB [CORPUS_DIR|OBJ]...
#
# With CORPUS/OBJ arguments: first a run into DB (label likeforlike:
# `rangebench run --trackers old,kernel --explore-time --repeat N
# --interleave -j JOBS`; -j 1 by default, so that the two sides of a
# program run one after the other on one core; --interleave: in rounds,
# one verification of each side per round, since these virtual machines
# run ~1.6x slower for stretches of seconds to minutes, which fell on one
# side's block of repeats and not the other's; -s: one side's N repeats,
# then the other's, as before). Then, from the DB's last likeforlike run: one line
# per program whose kernel row processed more than MIN_INSNS instructions
# (default 10000) and the geometric means, over those, over the programs
# whose kernel log time is 2 ms or more (20 samples and more: a share of a
# few samples is coarse) and over every program measured; the raw ratio's
# geometric mean over every program both sides verified with one verdict. A ratio is
# (old time / old insns) / (kernel time / kernel insns): below 1 the engine
# is faster; [lo-hi] is old's least over the kernel's most and old's most
# over the kernel's least. The machine's load average is printed before and
# after (ratios, not absolute times, are the figures under load).
set -eu
N=5
MIN=10000
JOBS=1
INTERLEAVE=--interleave
RB=${RB:-build/rangebench}
while getopts r:m:j:s o; do
	case $o in
	r) N=$OPTARG ;;
	m) MIN=$OPTARG ;;
	j) JOBS=$OPTARG ;;
	s) INTERLEAVE= ;;
	*) echo "usage: $0 [-r N] [-m MIN_INSNS] [-j JOBS] [-s] DB [CORPUS_DIR|OBJ]..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r N] [-m MIN_INSNS] [-j JOBS] [-s] DB [CORPUS_DIR|OBJ]..." >&2; exit 2; }
DB=$1
shift
command -v sqlite3 >/dev/null || { echo "$0: sqlite3 is not installed" >&2; exit 2; }
echo "load before: $(cat /proc/loadavg)"
if [ $# -gt 0 ]; then
	"$RB" run -q --no-census --db "$DB" --label likeforlike --trackers old,kernel --explore-time \
		--repeat "$N" $INTERLEAVE -j "$JOBS" "$@"
	echo "load after:  $(cat /proc/loadavg)"
fi
RUN=$(sqlite3 "$DB" "SELECT max(id) FROM runs WHERE label = 'likeforlike'")
[ -n "$RUN" ] || { echo "$0: $DB has no likeforlike run" >&2; exit 1; }

sqlite3 "$DB" <<EOF
.mode column
.headers on
CREATE TEMP VIEW p AS
SELECT pr.name AS prog, replace(pr.obj_path, rtrim(pr.obj_path, replace(pr.obj_path, '/', '')), '') AS obj,
       k.insns_processed AS insns, o.repeats AS n,
       -- per processed instruction: old / kernel
       (o.verify_us / o.insns_processed) / (k.verify_us / k.insns_processed) AS raw,
       (o.explore_us / o.insns_processed) / (k.explore_us / k.insns_processed) AS wall,
       (o.explore_us_min / o.insns_processed) / (k.explore_us_max / k.insns_processed) AS wall_lo,
       (o.explore_us_max / o.insns_processed) / (k.explore_us_min / k.insns_processed) AS wall_hi,
       (o.explore_cpu_us / o.insns_processed) / (k.explore_cpu_us / k.insns_processed) AS cpu,
       (o.explore_cpu_us_min / o.insns_processed) / (k.explore_cpu_us_max / k.insns_processed) AS cpu_lo,
       (o.explore_cpu_us_max / o.insns_processed) / (k.explore_cpu_us_min / k.insns_processed) AS cpu_hi,
       k.verify_us AS k_log_us, k.explore_us AS k_explore_us, o.explore_us AS o_explore_us
FROM results k JOIN results o ON o.run_id = k.run_id AND o.program_id = k.program_id AND o.tracker = 'old'
JOIN programs pr ON pr.id = k.program_id
WHERE k.run_id = $RUN AND k.tracker = 'kernel' AND k.verdict = o.verdict
  AND k.verdict IN ('success', 'failure', 'limit') AND k.insns_processed > 0 AND o.insns_processed > 0 AND k.explore_us > 0 AND k.explore_cpu_us > 0
  AND o.explore_us > 0 AND o.explore_cpu_us > 0;
SELECT obj, prog, insns, n, printf('%.2f', raw) AS raw,
       printf('%.2f [%.2f-%.2f]', wall, wall_lo, wall_hi) AS "wall old/kernel",
       printf('%.2f [%.2f-%.2f]', cpu, cpu_lo, cpu_hi) AS "CPU old/kernel",
       printf('%.0f', k_log_us) AS "kernel log us", printf('%.0f', k_explore_us) AS "kernel explore us"
FROM p WHERE insns > $MIN ORDER BY cpu DESC;
SELECT 'over $MIN insns' AS programs, count(*) AS n, printf('%.2f', exp(avg(ln(raw)))) AS "raw gmean",
       printf('%.2f', exp(avg(ln(wall)))) AS "wall gmean", printf('%.2f', exp(avg(ln(cpu)))) AS "CPU gmean",
       printf('%.2f', max(cpu)) AS "CPU worst", sum(cpu > 0.7) AS "CPU > 0.7"
FROM p WHERE insns > $MIN
UNION ALL
SELECT 'kernel log >= 2 ms', count(*), printf('%.2f', exp(avg(ln(raw)))), printf('%.2f', exp(avg(ln(wall)))),
       printf('%.2f', exp(avg(ln(cpu)))), printf('%.2f', max(cpu)), sum(cpu > 0.7)
FROM p WHERE k_log_us >= 2000
UNION ALL
SELECT 'all measured', count(*), printf('%.2f', exp(avg(ln(raw)))), printf('%.2f', exp(avg(ln(wall)))),
       printf('%.2f', exp(avg(ln(cpu)))), printf('%.2f', max(cpu)), sum(cpu > 0.7)
FROM p;
SELECT count(*) AS "both verified, same verdict", sum(k.explore_us IS NULL) AS "kernel explore not measured",
       printf('%.2f', exp(avg(ln((o.verify_us / o.insns_processed) / (k.verify_us / k.insns_processed)))))
       AS "raw gmean, all"
FROM results k JOIN results o ON o.run_id = k.run_id AND o.program_id = k.program_id AND o.tracker = 'old'
WHERE k.run_id = $RUN AND k.tracker = 'kernel' AND k.verdict = o.verdict AND k.verdict IN ('success', 'failure')
  AND k.insns_processed > 0 AND o.insns_processed > 0 AND k.verify_us > 0 AND o.verify_us > 0;
EOF
