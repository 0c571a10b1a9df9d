#!/usr/bin/env bash
# run_interrupt.sh — an interrupted run: Ctrl-C (SIGINT) stops cleanly,
# keeps what finished and marks the run incomplete; a run killed outright
# (SIGKILL) leaves a consistent database whose run the next open marks
# incomplete. The test fault switch RB_TEST_FAULT='*:slow' (test builds
# only) makes each verification take 200 ms so the signal lands mid-run.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

. "$(dirname "$0")/lib/tiny.sh"
# three objects with different content: 18 programs
for i in 1 2 3; do tiny_obj "$tmp/t$i.o" $i; done
rm "$tmp/tiny.o"

. "$(dirname "$0")/lib/wait_rows.sh"

db=$tmp/i.sqlite
RB_TEST_FAULT='*:slow' $RB run --db "$db" --label sigint -j 1 "$tmp" >"$tmp/int.out" 2>&1 &
pid=$!
wait_rows 1 "$db"
check "the run stores rows while it runs" "[ $? -eq 0 ]" "$tmp/int.out"
kill -INT $pid
wait $pid
rc=$?
# the run's rows of all, its status and the file's integrity from one sqlite3 (was four)
{ read -r total; read -r rows; read -r st; read -r integ; } <<<"$(sqlite3 "$db" "SELECT 18 * (length(trackers) - length(replace(trackers, ',', '')) + 1) FROM runs WHERE id = 1;
	SELECT count(*) FROM results WHERE run_id = 1; SELECT status || ':' || (ended_at IS NOT NULL) FROM runs WHERE id = 1;
	SELECT group_concat(integrity_check, ' ') FROM pragma_integrity_check")"
check "Ctrl-C: exit code 130" "[ $rc -eq 130 ]" "$tmp/int.out"
check "Ctrl-C: run marked incomplete, end time set" "[ '$st' = incomplete:1 ]" "$tmp/int.out"
check "Ctrl-C: finished rows kept, the rest not run ($rows of $total)" "[ $rows -ge 1 ] && [ $rows -lt $total ]" "$tmp/int.out"
check "Ctrl-C: the command says INCOMPLETE" "grep -q INCOMPLETE $tmp/int.out" "$tmp/int.out"
check "Ctrl-C: database integrity ok" "[ '$integ' = ok ]"

RB_TEST_FAULT='*:slow' $RB run --db "$db" --label sigkill -j 2 "$tmp" >"$tmp/kill.out" 2>&1 &
pid=$!
wait_rows 2 "$db"
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL: run left 'running' until the next open" \
	"[ \"\$(sqlite3 $db 'SELECT status FROM runs WHERE id = 2')\" = running ]"
$RB query --db "$db" runs >"$tmp/q.out" 2>&1
check "SIGKILL: a reader shows it incomplete (and writes nothing)" \
	"has_ere $tmp/q.out '^ *2 +sigkill +verify +incomplete ' && [ \"\$(sqlite3 $db 'SELECT status FROM runs WHERE id = 2')\" = running ]" "$tmp/q.out"
check "SIGKILL: database integrity ok, every stored row whole" \
	"[ \"\$(sqlite3 $db \"SELECT (SELECT group_concat(integrity_check, ' ') FROM pragma_integrity_check) || ':' || (SELECT count(*) FROM results r LEFT JOIN programs p ON p.id = r.program_id WHERE p.id IS NULL OR r.verdict IS NULL)\")\" = ok:0 ]"

# an interrupted run still compares: only the finished programs
$RB run -q --db "$db" --label full "$tmp" >"$tmp/full.out" 2>&1
$RB compare --db "$db" sigint full --summary >"$tmp/cmp.out" 2>&1
check "compare of an incomplete run with a full one: the rest is 'only in B', not compared" \
	"has_ere $tmp/cmp.out '^excluded: only in B +$((total - rows))$' && grep -q 'warning: run 1 (sigint) is incomplete' $tmp/cmp.out" "$tmp/cmp.out"
check "the next writer marks the killed run incomplete in the file" \
	"[ \"\$(sqlite3 $db 'SELECT status FROM runs WHERE id = 2')\" = incomplete ]"
