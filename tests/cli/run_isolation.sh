#!/usr/bin/env bash
# run_isolation.sh — each object is verified in a child process: a
# verifier that crashes costs the row in flight (load_error, "crashed"),
# one that hangs is stopped at the time budget (limit), and the run goes
# on and completes. Uses the test fault switch (RB_TEST_FAULT, test
# builds only): TRACKER:crash aborts after each verification of that
# tracker, TRACKER:hang hangs.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

. "$(dirname "$0")/lib/tiny.sh"
db=$tmp/c.sqlite
$RB run -q --db "$db" --label plain "$tmp/tiny.o" >"$tmp/plain.out" 2>&1
trackers=$(sqlite3 "$db" "SELECT trackers FROM runs WHERE id = 1")
t1=${trackers%%,*}
ntr=$(echo "$trackers" | tr ',' '\n' | grep -c .)

RB_TEST_FAULT="$t1:crash" $RB run -q --db "$db" --label crash "$tmp/tiny.o" >"$tmp/crash.out" 2>&1
check "a crashing verifier ($t1): the run still completes (exit 0)" "[ $? -eq 0 ]" "$tmp/crash.out"
check "crash: the run is marked complete" \
	"[ \"\$(sqlite3 $db \"SELECT status FROM runs WHERE label = 'crash'\")\" = complete ]"
crashed=$(sqlite3 "$db" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'crash' AND r.tracker = '$t1' AND r.verdict = 'load_error' AND r.msg LIKE 'verifier crashed: signal 6%'")
check "crash: each of the 6 programs has a '$t1' row saying the verifier crashed ($crashed)" "[ $crashed -eq 6 ]" "$tmp/crash.out"
others=$(sqlite3 "$db" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'crash' AND r.tracker <> '$t1' AND r.verdict IN ('success', 'failure')")
check "crash: the other trackers' rows are whole ($others of $((6 * (ntr - 1))))" "[ $others -eq $((6 * (ntr - 1))) ]" "$tmp/crash.out"
$RB compare --db "$db" plain crash --tracker "$t1" --summary >"$tmp/cmp.out" 2>&1
check "crash: compare leaves the crashed rows out of the comparison and says why" \
	"has_ere $tmp/cmp.out '^excluded: B load_error +6$' && has_ere $tmp/cmp.out 'compared \(both sides verified\) +0$'" "$tmp/cmp.out"

start=$(date +%s)
RB_TEST_FAULT="$t1:hang" $RB run -q --db "$db" --label hang --time-limit 0.5 --filter 'prog_[zl]*' "$tmp/tiny.o" >"$tmp/hang.out" 2>&1
rc=$?
secs=$(($(date +%s) - start))
check "a hanging verifier ($t1): the run completes (exit 0) in bounded time (${secs}s)" "[ $rc -eq 0 ] && [ $secs -lt 30 ]" "$tmp/hang.out"
limited=$(sqlite3 "$db" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'hang' AND r.tracker = '$t1' AND r.verdict = 'limit' AND r.msg LIKE 'time budget of % s exceeded%'")
check "hang: prog_zero, prog_len and prog_loop stopped at the time budget ($limited)" "[ $limited -eq 3 ]" "$tmp/hang.out"
