#!/usr/bin/env bash
# pruned_metric.sh — the states-pruned metric (hits of the engine's
# state-equivalence check, src/engine/prune.c), added as one row of the
# metric registry (src/result/metrics.h): the count equals the log's
# "safe" lines, and verify, run, query, compare and plot show it with no
# code of theirs naming it.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/explain_two.bpf.o
ITER=${RB_TEST_OBJECTS:-build/test/objects}/iterators.bpf.o
. tests/cli/lib/tap.sh

# verify: the count, against the log's "N: safe" / "from J to T: safe" lines
for t in old cnum; do
	"$RB" verify --tracker $t --csv --log --emit insns,pruned "$OBJ" >"$tmp/$t.csv" 2>"$tmp/$t.log"
	safe=$(grep -c ': safe$' "$tmp/$t.log")
	got=$(awk -F, 'NR == 2 {print $5}' "$tmp/$t.csv")
	check "verify --emit pruned ($t): the header names states_pruned, the count ($got) is the log's safe lines ($safe)" \
		"[ \"\$(head -n1 $tmp/$t.csv)\" = 'file_name,prog_name,verdict,total_insns,states_pruned,err_insn,error' ] && [ '$got' = '$safe' ]" "$tmp/$t.csv"
	eval "pruned_$t=$got"
done
check "old prunes paths cnum does not reach ($pruned_old > $pruned_cnum = 0)" "[ $pruned_old -gt 0 ] && [ $pruned_cnum -eq 0 ]"

# run stores it; the pair view and query read it
db=$tmp/r.sqlite
"$RB" run -q -j1 --no-census --trackers old,cnum --db "$db" --label p "$OBJ" "$ITER" >"$tmp/run.out" 2>&1
check "run stores states_pruned per tracker" \
	"[ \"\$(sqlite3 $db \"SELECT group_concat(tracker || '=' || states_pruned, ' ') FROM (SELECT r.* FROM results r JOIN programs p ON p.id = r.program_id WHERE p.name = 'two_causes' ORDER BY tracker)\")\" = 'cnum=$pruned_cnum old=$pruned_old' ]" "$tmp/run.out"
cat >"$tmp/q.sql" <<'Q'
-- states pruned, baseline and candidate
SELECT program, base_pruned, cand_pruned FROM tracker_pairs
WHERE run_id = :run AND base_tracker = :baseline AND cand_tracker = :candidate;
Q
"$RB" query --db "$db" --csv "$tmp/q.sql" >"$tmp/q.out" 2>&1
check "query: tracker_pairs has base_pruned and cand_pruned" "grep -qx 'two_causes,$pruned_old,$pruned_cnum' $tmp/q.out" "$tmp/q.out"

# compare: a default column, a sort key, a statistic of its own
"$RB" compare --db "$db" --trackers old,cnum --csv --sort pruned_diff >"$tmp/c.csv" 2>&1
check "compare: pruned_a/pruned_b columns with the counts" \
	"head -n1 $tmp/c.csv | grep -q ',pruned_a,pruned_b,pruned_diff,pruned_pct' && grep -q ',$pruned_old,$pruned_cnum,-$pruned_old,' $tmp/c.csv" "$tmp/c.csv"
"$RB" compare --db "$db" --trackers old,cnum --stats verdict,pruned >"$tmp/c.txt" 2>&1
check "compare --stats pruned: its title" "grep -q 'Pruned (A)' $tmp/c.txt" "$tmp/c.txt"

# plot: a group of the metric ratios chart (the iterator programs, which
# both trackers prune)
"$RB" plot --db "$db" -o "$tmp/plot" --only metric_ratios p >"$tmp/plot.out" 2>&1
check "plot metric_ratios: a row for pruned (cnum / old over programs both pruned)" \
	"[ -n \"\$(grep '^pruned' $tmp/plot/data/metric_ratios.tsv | cut -f2 | grep -E '^[0-9.]+$')\" ]" "$tmp/plot.out"
