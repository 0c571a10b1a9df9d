#!/usr/bin/env bash
# run_interleave.sh — `run --repeat N --interleave` verifies each
# program's trackers in rounds, one verification of each per round
# (bench/likeforlike.sh: a slower stretch of the machine then falls on both
# sides alike), and stores what a run without it stores, times aside; a
# child that dies in a group of interleaved pairs is followed by one that
# verifies them one after the other, so crashes and budgets are recorded
# as without. Uses the test fault switch (RB_TEST_FAULT, test builds):
# TRACKER:note prints each verification's tracker on stderr.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tiny.sh"

# the order of the verifications: old and cnum alternate, 3 rounds per program
RB_TEST_FAULT="old:note,cnum:note" $RB run -q -j1 --no-census --db "$tmp/i.sqlite" --label i --trackers old,cnum \
	--repeat 3 --interleave "$tmp/tiny.o" >"$tmp/i.out" 2>&1
grep -o 'RB_TEST_FAULT: verified .*' "$tmp/i.out" | awk '{print $3}' >"$tmp/i.order"
RB_TEST_FAULT="old:note,cnum:note" $RB run -q -j1 --no-census --db "$tmp/s.sqlite" --label s --trackers old,cnum \
	--repeat 3 "$tmp/tiny.o" >"$tmp/s.out" 2>&1
grep -o 'RB_TEST_FAULT: verified .*' "$tmp/s.out" | awk '{print $3}' >"$tmp/s.order"
# pairs of lines: interleaved, each consecutive pair is two trackers; in
# blocks, the first three lines are one tracker's
alt() { awk 'NR % 2 == 1 { a = $1 } NR % 2 == 0 && $1 == a { bad++ } END { exit !(NR >= 6 && !bad) }' "$1"; }
check "--interleave: the verifications alternate between old and cnum ($(head -6 $tmp/i.order | tr '\n' ' '))" \
	"alt $tmp/i.order && [ \$(wc -l <$tmp/i.order) -eq \$(wc -l <$tmp/s.order) ]" "$tmp/i.out"
check "without it: one tracker's 3 repeats, then the other's ($(head -6 $tmp/s.order | tr '\n' ' '))" \
	"! alt $tmp/s.order && [ \$(head -3 $tmp/s.order | sort -u | wc -l) -eq 1 ]" "$tmp/s.out"

# the same rows, times and peak RSS aside
rows() { sqlite3 "$1" "SELECT p.name, r.tracker, r.verdict, r.err_insn, r.msg, r.insns_processed, r.total_states,
	r.peak_states, r.repeats, r.peak_state_mem FROM results r JOIN programs p ON p.id = r.program_id ORDER BY 1, 2"; }
rows "$tmp/i.sqlite" >"$tmp/i.rows"
rows "$tmp/s.sqlite" >"$tmp/s.rows"
check "--interleave stores the rows a run without it stores ($(wc -l <$tmp/i.rows) rows, 3 repeats each)" \
	"cmp -s $tmp/i.rows $tmp/s.rows && [ \$(wc -l <$tmp/i.rows) -eq 12 ] && [ \$(grep -c '|3|' $tmp/i.rows) -ge 10 ]" "$tmp/i.rows"

# a tracker that crashes: the rows of a run without --interleave
RB_TEST_FAULT="cnum:crash" $RB run -q -j1 --no-census --db "$tmp/ic.sqlite" --label c --trackers old,cnum \
	--repeat 2 --interleave "$tmp/tiny.o" >"$tmp/ic.out" 2>&1
RB_TEST_FAULT="cnum:crash" $RB run -q -j1 --no-census --db "$tmp/sc.sqlite" --label c --trackers old,cnum \
	--repeat 2 "$tmp/tiny.o" >"$tmp/sc.out" 2>&1
rows "$tmp/ic.sqlite" >"$tmp/ic.rows"
rows "$tmp/sc.sqlite" >"$tmp/sc.rows"
check "--interleave, cnum crashing: cnum's rows say so, old's are whole, as without --interleave" \
	"cmp -s $tmp/ic.rows $tmp/sc.rows && [ \$(grep -c '|cnum|load_error|.*verifier crashed' $tmp/ic.rows) -eq 6 ] && [ \$(grep -c '|old|success|' $tmp/ic.rows) -ge 1 ]" "$tmp/ic.rows"

# a tracker that hangs: stopped at the time budget, as without --interleave
RB_TEST_FAULT="cnum:hang" $RB run -q -j1 --no-census --db "$tmp/ih.sqlite" --label h --trackers old,cnum \
	--repeat 2 --interleave --time-limit 0.5 --filter prog_zero "$tmp/tiny.o" >"$tmp/ih.out" 2>&1
rows "$tmp/ih.sqlite" >"$tmp/ih.rows"
check "--interleave, cnum hanging: cnum's row is the time budget's limit, old's is whole" \
	"grep -q '|cnum|limit|.*time budget of 1.5 s exceeded' $tmp/ih.rows && grep -q '|old|success|.*|2|' $tmp/ih.rows" "$tmp/ih.rows"
