#!/usr/bin/env bash
# run_stretch.sh — when no object is left to start, an idle worker takes
# the second half of the (program, tracker) pairs another worker's child
# has not started (src/driver/stretch.c), once they are worth a child
# (RB_STEAL_MIN_S: 1 s of work at that child's pace): one object and two
# workers make two verifier children, and every pair still gets exactly
# one row, the same as with one worker. Uses the test fault switch
# (RB_TEST_FAULT, test builds only): TRACKER:slow sleeps 200 ms after each
# verification of that tracker, so the first child's pairs are worth a
# share (its first pair is TRACKER's: 0.2 s x 29 pairs to go).
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh

. tests/cli/lib/tiny.sh
db=$tmp/s.sqlite
$RB run -q -j 1 --no-census --db "$db" --label one "$tmp/tiny.o" >"$tmp/one.out" 2>&1
check "one worker: the run completes" "[ $? -eq 0 ]" "$tmp/one.out"
trackers=$(sqlite3 "$db" "SELECT trackers FROM runs WHERE id = 1")
t1=${trackers%%,*}
ntr=$(echo "$trackers" | tr ',' '\n' | grep -c .)
pairs=$((6 * ntr))

# verifier children: the execs whose arguments end with --child
children() { grep -c '"--child"\]' "$1"; }
if command -v strace >/dev/null 2>&1; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=execve -o "$tmp/one.strace" \
		"$RB" run -q -j 1 --no-census --db "$tmp/o.sqlite" --label one "$tmp/tiny.o" >"$tmp/one2.out" 2>&1
	check "one worker, one object: one verifier child ($(children "$tmp/one.strace"))" \
		"[ $(children "$tmp/one.strace") -eq 1 ]" "$tmp/one.strace"
	# (LeakSanitizer cannot run under ptrace: off for the traced runs)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" RB_TEST_FAULT="$t1:slow" strace -f -qq -e trace=execve -o "$tmp/two.strace" \
		"$RB" run -q -j 2 --no-census --db "$db" --label two "$tmp/tiny.o" >"$tmp/two.out" 2>&1
	rc=$?
	check "two workers, one object: the run completes" "[ $rc -eq 0 ]" "$tmp/two.out"
	kids=$(children "$tmp/two.strace")
	check "two workers, one object: the idle worker verifies a share of it in a child of its own ($kids children)" \
		"[ $kids -ge 2 ]" "$tmp/two.strace"
else
	RB_TEST_FAULT="$t1:slow" "$RB" run -q -j 2 --no-census --db "$db" --label two "$tmp/tiny.o" >"$tmp/two.out" 2>&1
	check "two workers, one object: the run completes" "[ $? -eq 0 ]" "$tmp/two.out"
	echo "ok $((n + 1)) # skip strace not installed: verifier children not counted"
	n=$((n + 1))
fi
check "two workers: the run is marked complete" \
	"[ \"\$(sqlite3 $db \"SELECT status FROM runs WHERE label = 'two'\")\" = complete ]"
rows=$(sqlite3 "$db" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'two'")
check "two workers: one row per (program, tracker) pair ($rows of $pairs)" "[ $rows -eq $pairs ]"
same=$(sqlite3 "$db" "SELECT count(*) FROM results a JOIN runs ua ON ua.id = a.run_id AND ua.label = 'one'
	JOIN results b ON b.program_id = a.program_id AND b.tracker = a.tracker
	JOIN runs ub ON ub.id = b.run_id AND ub.label = 'two'
	WHERE a.verdict = b.verdict AND a.insns_processed IS b.insns_processed AND a.total_states IS b.total_states
	AND a.peak_states IS b.peak_states AND a.err_insn IS b.err_insn AND a.msg IS b.msg AND a.repeats = b.repeats")
check "two workers: every row as one worker's (verdict, instructions, states, error, repeats: $same of $pairs)" \
	"[ $same -eq $pairs ]"
