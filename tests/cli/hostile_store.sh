#!/usr/bin/env bash
# hostile_store.sh — issue 24 items 8, 9, 10 and 12 (VACUUM INTO): a
# corrupt database is reported, never taken for "no run yet"; after a
# clean close the file is readable by a user who cannot write its
# directory; merge keeps each run's state (a run merged while running
# becomes complete after a full re-merge, merged shards merged again
# keep "1,2/2" and complete, a refused input creates no OUT), a shard run
# alone is not complete; a query that writes is refused.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tiny.sh"
RBA=$(readlink -f "$RB")

# --- item 8: a corrupt runs table
db=$tmp/c.sqlite
$RB run -q --db "$db" --trackers old --label A "$tmp/tiny.o" >/dev/null 2>&1
# (that database of one run, cleanly closed, is what items 9 and 12 below
# read: copied for them rather than made again, ~0.6 s of CPU a run)
cp "$db" "$tmp/a.sqlite"
$RB run -q --db "$db" --trackers old --label B "$tmp/tiny.o" >/dev/null 2>&1
check "a clean close leaves the file in rollback-journal mode, no -wal" \
	"[ \"\$(sqlite3 $db 'PRAGMA journal_mode')\" = delete ] && [ ! -e $db-wal ]"
root=$(sqlite3 "$db" "SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
psize=$(sqlite3 "$db" "PRAGMA page_size")
printf '\377\377\377\377\377\377\377\377' | dd of="$db" bs=1 seek=$(((root - 1) * psize)) conv=notrunc status=none
$RB plot --db "$db" -o "$tmp/p" --format svg >"$tmp/c1.out" 2>&1
check "plot on a corrupt database: exit 2, 'malformed'" \
	"[ $? -eq 2 ] && has_ere $tmp/c1.out 'malformed' && ! has_ere $tmp/c1.out 'rendered'" "$tmp/c1.out"
$RB compare --db "$db" --trackers old,old >"$tmp/c2.out" 2>&1
check "compare (latest run) on a corrupt database: 'malformed', not 'no verify run yet'" \
	"[ $? -eq 2 ] && has_ere $tmp/c2.out 'malformed' && ! has_ere $tmp/c2.out 'no verify run yet'" "$tmp/c2.out"
$RB query --db "$db" summary >"$tmp/c3.out" 2>&1
check "query on a corrupt database: exit 2, 'malformed'" "[ $? -eq 2 ] && has_ere $tmp/c3.out 'malformed'" "$tmp/c3.out"

# --- item 9: read by a user who cannot write the directory
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$tmp/ro" && chmod 755 "$tmp/ro" "$tmp"
	cp "$tmp/a.sqlite" "$tmp/ro/db.sqlite"
	chmod 644 "$tmp/ro/db.sqlite"
	cp "$RBA" "$tmp/rb" && chmod 755 "$tmp/rb"
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	as_nobody "$tmp/rb" query --db "$tmp/ro/db.sqlite" runs >"$tmp/ro1.out" 2>&1
	check "after a clean close: query as nobody (directory not writable) exit 0" \
		"[ $? -eq 0 ] && has_ere $tmp/ro1.out '^ *1 +A '" "$tmp/ro1.out"
	# a file another tool left in WAL mode (no -wal file): read as immutable
	sqlite3 "$tmp/ro/db.sqlite" 'PRAGMA journal_mode = WAL' >/dev/null
	as_nobody "$tmp/rb" compare --db "$tmp/ro/db.sqlite" A A --summary >"$tmp/ro2.out" 2>&1
	check "a WAL-mode file without -wal: compare as nobody exit 0" "[ $? -eq 0 ]" "$tmp/ro2.out"
	ls "$tmp/ro" >"$tmp/ro3.out"
	check "nothing created beside it" "[ \$(wc -l <$tmp/ro3.out) -eq 1 ]" "$tmp/ro3.out"
else
	for i in 1 2 3; do ok "# SKIP needs root and setpriv (read as another user)"; done
fi

# --- item 12: a query that writes (VACUUM INTO a new file) is refused
cp "$tmp/a.sqlite" "$tmp/q.sqlite"
echo "VACUUM INTO '$tmp/copy.sqlite'" >"$tmp/vac.sql"
$RB query --db "$tmp/q.sqlite" "$tmp/vac.sql" >"$tmp/vac.out" 2>&1
check "query 'VACUUM INTO FILE': exit 2, refused, no file made" \
	"[ $? -eq 2 ] && has_ere $tmp/vac.out 'refused: a statement that writes' && [ ! -e $tmp/copy.sqlite ]" "$tmp/vac.out"
echo "CREATE TEMP TABLE t (x)" >"$tmp/tmp.sql"
$RB query --db "$tmp/q.sqlite" "$tmp/tmp.sql" >"$tmp/tmp.out" 2>&1
check "query 'CREATE TEMP TABLE': refused too" "[ $? -eq 2 ] && grep -q refused $tmp/tmp.out" "$tmp/tmp.out"

# --- item 10: merge
# a refused input: no OUT created, no "merged ... 0 rows"
printf 'not a database at all, just text, long enough\n' >"$tmp/junk.sqlite"
$RB merge "$tmp/new.sqlite" "$tmp/junk.sqlite" >"$tmp/m1.out" 2>&1
check "merge with only a refused input: exit 2, OUT not created, no 'merged into'" \
	"[ $? -eq 2 ] && [ ! -e $tmp/new.sqlite ] && ! has_ere $tmp/m1.out '^merged into' && has_ere $tmp/m1.out 'not created'" "$tmp/m1.out"

# a shard run alone: not complete; its shard marked complete in the list
mkdir "$tmp/corpus"
for t in 1 2 3 4; do tiny_obj "$tmp/corpus/t$t.o" $t; done
for k in 1 2; do
	$RB run -q --db "$tmp/s$k.sqlite" --trackers old --label S --shard $k/2 "$tmp/corpus" >"$tmp/s$k.out" 2>&1
done
check "a --shard 1/2 run in its own database: exit 0, status incomplete, options keep '--shard 1/2'" \
	"[ \"\$(sqlite3 $tmp/s1.sqlite \"SELECT status || ':' || (options LIKE '%--shard 1/2%') FROM runs\")\" = incomplete:1 ] && has_ere $tmp/s1.out 'shard 1 of 2'" "$tmp/s1.out"
$RB merge "$tmp/m12.sqlite" "$tmp/s1.sqlite" "$tmp/s2.sqlite" >"$tmp/m2.out" 2>&1
check "both shards merged: one complete run, '--shard 1,2/2'" \
	"[ \"\$(sqlite3 $tmp/m12.sqlite \"SELECT count(*) || ':' || min(status) || ':' || (min(options) LIKE '%--shard 1,2/2%') FROM runs\")\" = 1:complete:1 ]" "$tmp/m2.out"
$RB merge "$tmp/again.sqlite" "$tmp/m12.sqlite" >"$tmp/m3.out" 2>&1
check "the merged database merged again: still complete, still '--shard 1,2/2', every row" \
	"[ \"\$(sqlite3 $tmp/again.sqlite \"SELECT status || ':' || (options LIKE '%--shard 1,2/2%') || ':' || (SELECT count(*) FROM results) FROM runs\")\" = \"complete:1:\$(sqlite3 $tmp/m12.sqlite 'SELECT count(*) FROM results')\" ]" "$tmp/m3.out"
# an interrupted shard (as a killed run leaves it, then reaped): '!' and incomplete
cp "$tmp/s2.sqlite" "$tmp/s2i.sqlite"
sqlite3 "$tmp/s2i.sqlite" "UPDATE runs SET status = 'running', pid = 999999999, host = '$(hostname)'; DELETE FROM results WHERE program_id % 2 = 0"
$RB merge "$tmp/part.sqlite" "$tmp/s1.sqlite" "$tmp/s2i.sqlite" >"$tmp/m4.out" 2>&1
check "shard 2 merged while 'running': the run incomplete, '1,2!/2'" \
	"[ \"\$(sqlite3 $tmp/part.sqlite \"SELECT status || ':' || (options LIKE '%--shard 1,2!/2%') FROM runs\")\" = incomplete:1 ]" "$tmp/m4.out"
$RB merge "$tmp/part.sqlite" "$tmp/s2.sqlite" >"$tmp/m5.out" 2>&1
check "shard 2 merged again once complete: the run complete, '1,2/2', every row" \
	"[ \"\$(sqlite3 $tmp/part.sqlite \"SELECT status || ':' || (options LIKE '%--shard 1,2/2%') || ':' || (SELECT count(*) FROM results) FROM runs\")\" = \"complete:1:\$(sqlite3 $tmp/m12.sqlite 'SELECT count(*) FROM results')\" ]" "$tmp/m5.out"
# a plain run merged while running, then again when complete
$RB run -q --db "$tmp/live.sqlite" --trackers old,cnum --label L "$tmp/corpus" >/dev/null 2>&1
cp "$tmp/live.sqlite" "$tmp/snap.sqlite"
sleep 100 & live=$!
sqlite3 "$tmp/snap.sqlite" "UPDATE runs SET status = 'running', ended_at = NULL, pid = $live, host = '$(hostname)'; DELETE FROM results WHERE program_id % 2 = 0"
$RB merge "$tmp/out.sqlite" "$tmp/snap.sqlite" >"$tmp/m6.out" 2>&1
check "a run merged while running: stored incomplete, no pid" \
	"[ \"\$(sqlite3 $tmp/out.sqlite \"SELECT status || ':' || ifnull(pid, 'none') FROM runs\")\" = incomplete:none ]" "$tmp/m6.out"
kill $live 2>/dev/null; wait $live 2>/dev/null
$RB merge "$tmp/out.sqlite" "$tmp/live.sqlite" >"$tmp/m7.out" 2>&1
check "merged again after it completed: one run, complete, every row" \
	"[ \"\$(sqlite3 $tmp/out.sqlite \"SELECT count(*) || ':' || min(status) || ':' || (SELECT count(*) FROM results) FROM runs\")\" = \"1:complete:\$(sqlite3 $tmp/live.sqlite 'SELECT count(*) FROM results')\" ]" "$tmp/m7.out"
$RB compare --db "$tmp/out.sqlite" --summary L L >"$tmp/m8.out" 2>&1
check "compare no longer warns that it is incomplete" "! grep -q incomplete $tmp/m8.out" "$tmp/m8.out"
