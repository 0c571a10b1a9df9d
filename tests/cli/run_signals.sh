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
for i in 1 2 3; do tiny_obj "$tmp/t$i.o" $i; done
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
	# the rows, the run's status and the file's integrity from one sqlite3 (was three)
	local rows st integ
	{ read -r rows; read -r st; read -r integ; } <<<"$(sqlite3 "$db" "SELECT count(*) FROM results WHERE run_id = 1;
		SELECT group_concat(status || ':' || (ended_at IS NOT NULL), ' ') FROM runs;
		SELECT group_concat(integrity_check, ' ') FROM pragma_integrity_check")"
	check "SIG$sig: exit $want, run marked incomplete with an end time, $rows of 36 rows kept" \
		"[ $rc -eq $want ] && [ '$st' = incomplete:1 ] && [ $rows -ge 1 ] && [ $rows -lt 36 ]" "$tmp/$sig.out"
	check "SIG$sig: the command says INCOMPLETE (interrupted), database integrity ok" \
		"grep -q 'INCOMPLETE (interrupted' $tmp/$sig.out && [ '$integ' = ok ]" "$tmp/$sig.out"
}
stopped_by HUP 129
stopped_by PIPE 141

# a real closed pipe: progress on stderr into `head -1`, which exits after
# the first line; the next progress line (5 s later) meets the closed pipe
db=$tmp/pipe.sqlite
RB_TEST_FAULT='*:slow' $RB run --db "$db" --trackers old,cnum --repeat 3 --label pipe -j 1 "$tmp" 2>&1 | head -1 >"$tmp/pipe.out"
rc=${PIPESTATUS[0]}
{ read -r rows; read -r st; read -r integ; } <<<"$(sqlite3 "$db" "SELECT count(*) FROM results;
	SELECT group_concat(status, ' ') FROM runs; SELECT group_concat(integrity_check, ' ') FROM pragma_integrity_check")"
check "run ... | head -1: exit 141, run incomplete, $rows rows kept, integrity ok" \
	"[ $rc -eq 141 ] && [ '$st' = incomplete ] && [ $rows -ge 1 ] && [ '$integ' = ok ]" "$tmp/pipe.out"

# a run left 'running' whose pid now belongs to another live process (this
# shell): dead for readers, marked incomplete by the next writer
db=$tmp/reuse.sqlite
$RB run -q --db "$db" --trackers old --label first "$tmp/t1.o" >/dev/null 2>&1
# (a database of that one complete run, cleanly closed, is what the hang-up
# check further below starts from: copied for it, not made by a run again)
cp "$db" "$tmp/early.sqlite"
sqlite3 "$db" "UPDATE runs SET status = 'running', ended_at = NULL, pid = $$ WHERE id = 1"
$RB query --db "$db" runs >"$tmp/q.out" 2>&1
check "a dead run whose pid was reused: a reader shows it incomplete" \
	"has_ere $tmp/q.out '^ *1 +first +verify +incomplete '" "$tmp/q.out"
$RB run -q --db "$db" --trackers old --label second "$tmp/t2.o" >/dev/null 2>&1
check "a dead run whose pid was reused: the next run marks it incomplete" \
	"[ \"\$(sqlite3 $db 'SELECT status FROM runs WHERE id = 1')\" = incomplete ]"
# while a live run's is still running
RB_TEST_FAULT='*:slow' $RB run -q --db "$db" --trackers old --label live -j 1 "$tmp" >/dev/null 2>&1 &
pid=$!
wait_rows 3 "$db"
$RB query --db "$db" runs >"$tmp/q2.out" 2>&1
check "a live run is shown running" "has_ere $tmp/q2.out '^ *3 +live +verify +running '" "$tmp/q2.out"
kill -INT $pid
wait $pid
check "and stopped by Ctrl-C, exit 130" "[ $? -eq 130 ]"

# A hang-up before the run begins (issue 24): the handlers are installed
# before the options, the objects and the database are read. Made
# deterministic with a locked database: a sqlite3 process holds the write
# lock (WAL mode, so that the waiting reader cannot block its COMMIT), so
# `run` waits in opening the store (SQLite's busy handler, 30 s); once its
# process has the database file open the hang-up is sent, then the lock
# is released. Before the fix SIGHUP killed it there (no message); now it
# stops with exit 129 and stores nothing.
db=$tmp/early.sqlite # one run, 'first' (copied above)
mkfifo "$tmp/lock.in"
sqlite3 "$db" <"$tmp/lock.in" >"$tmp/lock.out" 2>&1 &
lockpid=$!
exec 3>"$tmp/lock.in"
echo ".timeout 30000" >&3
echo "PRAGMA journal_mode = WAL; BEGIN IMMEDIATE; SELECT 'locked';" >&3
for _ in {1..200}; do grep -q locked "$tmp/lock.out" && break; sleep 0.1; done
$RB run -q --db "$db" --trackers old --label early "$tmp/t1.o" >"$tmp/early.out" 2>&1 3>&- &
pid=$!
# the database (or its WAL) open in the run's process: it waits for the lock
opened=0
for _ in {1..200}; do
	if ls -l /proc/$pid/fd 2>/dev/null | grep -q "early.sqlite"; then opened=1; break; fi
	sleep 0.1
done
# the signal is pending from here: the process handles it before any of its
# system calls returns, so before it can take the lock released next
kill -HUP $pid
echo "COMMIT;" >&3
exec 3>&-
wait $lockpid
wait $pid
rc=$?
check "SIGHUP while the database is being opened: the run waited for the lock, which was then released" \
	"[ $opened -eq 1 ] && ! grep -q error $tmp/lock.out" "$tmp/lock.out"
check "SIGHUP before the run began: exit 129, 'stopped (Hangup) before the run began: nothing stored'" \
	"[ $rc -eq 129 ] && grep -q 'stopped (Hangup) before the run began: nothing stored' $tmp/early.out" "$tmp/early.out"
check "SIGHUP before the run began: no run row added, integrity ok" \
	"[ \"\$(sqlite3 $db \"SELECT (SELECT count(*) FROM runs) || ':' || (SELECT group_concat(integrity_check, ' ') FROM pragma_integrity_check)\")\" = 1:ok ]"
