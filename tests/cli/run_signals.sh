#!/usr/bin/env bash
# run_signals.sh — a hang-up or a closed output pipe stops `run` as Ctrl-C
# does (issue 24, item 5): the finished rows kept, the run marked
# incomplete, a consistent database, exit 128 + the signal (before, SIGHUP
# and SIGPIPE killed it at once and left the run 'running' for ever). And
# a run whose process died is seen dead even when its pid now belongs to
# another process. RB_TEST_FAULT='*:slow' (test builds only) makes each
# verification take 200 ms so that the signal lands mid-run.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

. "$(dirname "$0")/lib/tiny.sh"
for i in 1 2 3; do clang -O2 -target bpf -DTAG=$i -c tests/cli/fixtures/tiny.bpf.c -o "$tmp/t$i.o"; done
rm "$tmp/tiny.o"

. "$(dirname "$0")/lib/wait_rows.sh"

# $1 signal name, $2 exit code expected
stopped_by() {
	local sig=$1 want=$2 db=$tmp/$1.sqlite
	RB_TEST_FAULT='*:slow' $RB run -q --db "$db" --trackers old,cnum --label $sig -j 1 "$tmp" >"$tmp/$sig.out" 2>&1 &
	local pid=$!
	wait_rows 1 "$db"
	kill -$sig $pid
	wait $pid
	local rc=$?
	local rows
	rows=$(sqlite3 "$db" "SELECT count(*) FROM results WHERE run_id = 1")
	check "SIG$sig: exit $want, run marked incomplete with an end time, $rows of 36 rows kept" \
		"[ $rc -eq $want ] && [ \"\$(sqlite3 $db \"SELECT status || ':' || (ended_at IS NOT NULL) FROM runs\")\" = incomplete:1 ] && [ $rows -ge 1 ] && [ $rows -lt 36 ]" "$tmp/$sig.out"
	check "SIG$sig: the command says INCOMPLETE (interrupted), database integrity ok" \
		"grep -q 'INCOMPLETE (interrupted' $tmp/$sig.out && [ \"\$(sqlite3 $db 'PRAGMA integrity_check')\" = ok ]" "$tmp/$sig.out"
}
stopped_by HUP 129
stopped_by PIPE 141

# a real closed pipe: progress on stderr into `head -1`, which exits after
# the first line; the next progress line (10 s later) meets the closed pipe
db=$tmp/pipe.sqlite
RB_TEST_FAULT='*:slow' $RB run --db "$db" --trackers old,cnum --repeat 3 --label pipe -j 1 "$tmp" 2>&1 | head -1 >"$tmp/pipe.out"
rc=${PIPESTATUS[0]}
rows=$(sqlite3 "$db" "SELECT count(*) FROM results")
check "run ... | head -1: exit 141, run incomplete, $rows rows kept, integrity ok" \
	"[ $rc -eq 141 ] && [ \"\$(sqlite3 $db 'SELECT status FROM runs')\" = incomplete ] && [ $rows -ge 1 ] && [ \"\$(sqlite3 $db 'PRAGMA integrity_check')\" = ok ]" "$tmp/pipe.out"

# a run left 'running' whose pid now belongs to another live process (this
# shell): dead for readers, marked incomplete by the next writer
db=$tmp/reuse.sqlite
$RB run -q --db "$db" --trackers old --label first "$tmp/t1.o" >/dev/null 2>&1
sqlite3 "$db" "UPDATE runs SET status = 'running', ended_at = NULL, pid = $$ WHERE id = 1"
$RB query --db "$db" runs >"$tmp/q.out" 2>&1
check "a dead run whose pid was reused: a reader shows it incomplete" \
	"grep -Eq '^ *1 +first +verify +incomplete ' $tmp/q.out" "$tmp/q.out"
$RB run -q --db "$db" --trackers old --label second "$tmp/t2.o" >/dev/null 2>&1
check "a dead run whose pid was reused: the next run marks it incomplete" \
	"[ \"\$(sqlite3 $db 'SELECT status FROM runs WHERE id = 1')\" = incomplete ]"
# while a live run's is still running
RB_TEST_FAULT='*:slow' $RB run -q --db "$db" --trackers old --label live -j 1 "$tmp" >/dev/null 2>&1 &
pid=$!
wait_rows 3 "$db"
$RB query --db "$db" runs >"$tmp/q2.out" 2>&1
check "a live run is shown running" "grep -Eq '^ *3 +live +verify +running ' $tmp/q2.out" "$tmp/q2.out"
kill -INT $pid
wait $pid
check "and stopped by Ctrl-C, exit 130" "[ $? -eq 130 ]"
