#!/usr/bin/env bash
# run_compare.sh — `rangebench run` on six tiny programs, `compare` and
# `query` on the runs: two runs of the same build compare with no verdict
# change; runs with the test fault switch (RB_TEST_FAULT, test builds only)
# show the changes; the before/after chart renders from them.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

. "$(dirname "$0")/lib/tiny.sh"
db=$tmp/r.sqlite

$RB run -q --db "$db" --label base -j 2 "$tmp/tiny.o" >"$tmp/run1.out" 2>&1
check "run exits 0" "[ $? -eq 0 ]" "$tmp/run1.out"
trackers=$(sqlite3 "$db" "SELECT trackers FROM runs WHERE id = 1")
ntr=$(echo "$trackers" | tr ',' '\n' | grep -c .)
check "at least one tracker ran ($trackers)" "[ $ntr -ge 1 ]" "$tmp/run1.out"
check "one row per (program, tracker): 6 x $ntr" \
	"[ \"\$(sqlite3 $db 'SELECT count(*) FROM results WHERE run_id = 1')\" = $((6 * ntr)) ]" "$tmp/run1.out"
check "run marked complete with git commit and kernel" \
	"[ \"\$(sqlite3 $db \"SELECT status || ':' || (kernel_release IS NOT NULL) || ':' || length(git_commit) FROM runs WHERE id = 1\")\" = complete:1:40 ]"
check "peak RSS per verification: every userspace row measured, no kernel row" \
	"[ \"\$(sqlite3 $db \"SELECT sum(tracker <> 'kernel' AND verdict = 'success' AND peak_rss_kib > 0) = sum(tracker <> 'kernel' AND verdict = 'success') AND sum(tracker <> 'kernel' AND verdict = 'success') > 0 AND count(CASE WHEN tracker = 'kernel' THEN peak_rss_kib END) = 0 FROM results WHERE run_id = 1\")\" = 1 ]"
check "state bytes per tracker as allocated: cnum's register smaller than old's" \
	"[ \"\$(sqlite3 $db \"SELECT (SELECT max(reg_state_bytes) FROM results WHERE tracker = 'old') - (SELECT max(reg_state_bytes) FROM results WHERE tracker = 'cnum')\")\" = 24 ]"
check "programs identified by object sha256" \
	"[ \"\$(sqlite3 $db \"SELECT count(DISTINCT obj_sha256) || '/' || count(*) || '/' || length(obj_sha256) FROM programs\")\" = 1/6/64 ]"

# the second run of the same build is over a directory holding tiny.o under
# two names (a.o, b.o), without -q: the duplicate-object and progress checks
# below read it (was a run of its own, the same run)
mkdir "$tmp/dup"
cp "$tmp/tiny.o" "$tmp/dup/a.o"
cp "$tmp/tiny.o" "$tmp/dup/b.o"
$RB run --db "$db" --label again "$tmp/dup" >"$tmp/dup.out" 2>&1
$RB compare --db "$db" base again >"$tmp/cmp_same.out" 2>&1
rc=$?
check "two runs of the same build: compare exits 0" "[ $rc -eq 0 ]" "$tmp/cmp_same.out"
check "two runs of the same build: zero verdict changes" \
	"has_ere $tmp/cmp_same.out '^verdict changes +0$'" "$tmp/cmp_same.out"
check "two runs of the same build: counts unchanged, every (program, tracker) compared" \
	"has_ere $tmp/cmp_same.out '^\(program, tracker\) pairs compared \(both sides verified\) +$((6 * ntr))$' && has_ere $tmp/cmp_same.out '^changed \(verdict or counts\) +0$' && has_ere $tmp/cmp_same.out '^geomean B/A insns +1.0000$'" "$tmp/cmp_same.out"

RB_TEST_FAULT='*:verdict' $RB run -q --db "$db" --label faulty "$tmp/tiny.o" >"$tmp/run3.out" 2>&1
$RB compare --db "$db" base faulty >"$tmp/cmp_fault.out" 2>&1
rc=$?
check "verdict fault: compare exits 1 (a finding)" "[ $rc -eq 1 ]" "$tmp/cmp_fault.out"
check "verdict fault: the 4 accepted programs per tracker change verdict" \
	"has_ere $tmp/cmp_fault.out '^verdict changes +$((4 * ntr))$'" "$tmp/cmp_fault.out"
check "verdict fault: rows say MISMATCH" "[ \$(grep -c MISMATCH $tmp/cmp_fault.out) -eq $((4 * ntr)) ]" "$tmp/cmp_fault.out"

RB_TEST_FAULT='*:states' $RB run -q --db "$db" --label morestates "$tmp/tiny.o" >"$tmp/run4.out" 2>&1
$RB compare --db "$db" base morestates --changed --csv --stats verdict,states >"$tmp/cmp_states.csv" 2>&1
rc=$?
check "states fault: no verdict change (exit 0)" "[ $rc -eq 0 ]" "$tmp/cmp_states.csv"
check "states fault: --changed --csv lists every program with states doubled" \
	"[ \$(tail -n +2 $tmp/cmp_states.csv | wc -l) -eq $((6 * ntr)) ]" "$tmp/cmp_states.csv"
check "csv header names each statistic's a, b, diff and pct" \
	"head -1 $tmp/cmp_states.csv | grep -q '^object,program,tracker,verdict_a,verdict_b,verdict_diff,states_a,states_b,states_diff,states_pct$'" "$tmp/cmp_states.csv"
$RB compare --db "$db" base morestates --summary >"$tmp/sum.out" 2>&1
gm=$(awk '/^geomean B\/A states /{print $4}' "$tmp/sum.out")
check "states fault: geometric-mean states ratio > 1.9 ($gm)" "awk -v g=$gm 'BEGIN{exit !(g > 1.9)}'" "$tmp/sum.out"
$RB compare --db "$db" base morestates --top 2 --sort states_pct >"$tmp/top.out" 2>&1
check "--top 2 prints two rows" "[ \$(grep -c 'tiny.o' $tmp/top.out) -eq 2 ]" "$tmp/top.out"
$RB compare --db "$db" base morestates --filter 'prog_l*' >"$tmp/filt.out" 2>&1
check "--filter keeps prog_len and prog_loop only" \
	"[ \$(grep -c 'tiny.o' $tmp/filt.out) -eq $((2 * ntr)) ] && ! grep -q prog_zero $tmp/filt.out" "$tmp/filt.out"
$RB compare --db "$db" base nosuchrun >"$tmp/bad.out" 2>&1
check "an unknown run is a usage error (exit 2) naming it" "[ $? -eq 2 ] && grep -q nosuchrun $tmp/bad.out" "$tmp/bad.out"

if echo "$trackers" | grep -q kernel && [ "$ntr" -ge 2 ]; then
	t1=$(echo "$trackers" | cut -d, -f1)
	$RB compare --db "$db" --trackers "$t1,kernel" base >"$tmp/tk.out" 2>&1
	check "--trackers $t1,kernel within one run" "[ $? -le 1 ] && has_ere $tmp/tk.out 'tracker kernel'" "$tmp/tk.out"
fi

check "the same object under two names is verified once (run again)" \
	"has_ere $tmp/dup.out '1 duplicate objects skipped' && [ \"\$(sqlite3 $db \"SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'again'\")\" = $((6 * ntr)) ]" "$tmp/dup.out"

check "without a terminal, progress comes as plain lines ending at 100%" \
	"grep -q '^progress: $((6 * ntr))/$((6 * ntr)) (100%)' $tmp/dup.out && ! grep -q \$'\\r' $tmp/dup.out" "$tmp/dup.out"

$RB query --db "$db" >"$tmp/qlist.out" 2>&1
check "query without NAME lists the queries" "has_ere $tmp/qlist.out '^  verdict_changes' && has_ere $tmp/qlist.out '^  runs'" "$tmp/qlist.out"
$RB query --db "$db" --run base summary >"$tmp/q.out" 2>&1
check "query summary: accepted 4 per tracker in run base" \
	"[ \$(awk '\$2 == 6 && \$3 == 4 && \$4 == 2' $tmp/q.out | wc -l) -eq $ntr ]" "$tmp/q.out"
$RB query --db "$db" verdict_changes_runs --csv >"$tmp/q2.out" 2>&1
check "query verdict_changes_runs: every accepted (program, tracker) flipped once" \
	"[ \$(tail -n +2 $tmp/q2.out | wc -l) -eq $((4 * ntr)) ]" "$tmp/q2.out"
if echo ",$trackers," | grep -q ',old,' && echo ",$trackers," | grep -q ',cnum,'; then
	$RB query --db "$db" --run base --baseline old --candidate cnum pair_by_source --csv >"$tmp/q4.out" 2>&1
	check "query pair_by_source: the 6 programs of run base compared, old vs cnum" \
		"[ \$(tail -n +2 $tmp/q4.out | awk -F, '{n += \$2} END {print n}') -eq 6 ]" "$tmp/q4.out"
	$RB query --db "$db" --run base --baseline old --candidate cnum pair_changed --csv >"$tmp/q5.out" 2>&1
	check "query pair_changed runs (a header, then the changed programs)" \
		"[ $? -eq 0 ] && head -1 $tmp/q5.out | grep -q '^source,object,program'" "$tmp/q5.out"
fi
$RB query --db "$db" nosuch >"$tmp/q3.out" 2>&1
check "query of an unknown name exits 2" "[ $? -eq 2 ]" "$tmp/q3.out"

$RB plot --db "$db" -o "$tmp/plots" --only before_after base faulty >"$tmp/plot.out" 2>&1
check "before/after chart of base -> faulty renders" \
	"[ $? -eq 0 ] && [ -s $tmp/plots/before_after.png ] && [ -s $tmp/plots/before_after.svg ]" "$tmp/plot.out"
check "before/after data marks the changed verdicts" \
	"[ \$(awk -F'\t' '!/^#/ && \$7 == 1' $tmp/plots/data/before_after.tsv | wc -l) -eq $((4 * ntr)) ]" "$tmp/plots/data/before_after.tsv"
# the run_pairs view (src/store/pairs.c): one tracker in two runs, the
# join the before/after chart reads: every program of both runs once per
# tracker, the flipped verdicts as above, and the chart's rows its rows
sqlite3 "$db" "SELECT count(*), sum(base_verdict <> cand_verdict), sum(base_insns IS NOT NULL) FROM run_pairs r JOIN runs a ON a.id = r.base_run AND a.label = 'base' JOIN runs b ON b.id = r.cand_run AND b.label = 'faulty'" >"$tmp/rp.out" 2>&1
check "run_pairs base -> faulty: 6 programs per tracker, 4 flipped, insns on both" \
	"[ \"\$(cat $tmp/rp.out)\" = \"$((6 * ntr))|$((4 * ntr))|$((6 * ntr))\" ] && [ \$(grep -vc '^#' $tmp/plots/data/before_after.tsv) -eq $((6 * ntr)) ]" "$tmp/rp.out"
