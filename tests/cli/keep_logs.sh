#!/usr/bin/env bash
# keep_logs.sh — `run --keep-logs` (src/driver/keep_logs.c) and `explain
# --run A --run-b B` reading the stored logs (issue 23): two runs of one
# worked example (programs/src/bias_add64, old rejects, cnum accepts), each
# keeping its logs; explain shows where the two runs' explorations part
# from the stored logs, also when this build no longer reproduces a run's
# rows (a row edited as another build would have made it).
source "$(dirname "$0")/lib/tap.sh"
RB=${RB:-build/test/rangebench}
B=${RB_TEST_BIN:-build/test}
O=$B/own/bias_add64.bpf.o
db=$tmp/k.sqlite
q() { sqlite3 "$db" "$1"; }

$RB run -q --db "$db" --label both --trackers old,cnum --no-census --keep-logs changed "$O" "$B/own/signed_check64.bpf.o" >"$tmp/r1.out" 2>&1
check "run --keep-logs changed exits 0" "[ $? -eq 0 ]" "$tmp/r1.out"
check "changed: a log per tracker of each program whose rows differ, none of the others" \
	"[ \"\$(q \"SELECT count(*) FROM result_logs l JOIN programs p ON p.id = l.program_id WHERE p.name = 'bias_add64'\")\" = 2 ] && [ \"\$(q \"SELECT count(*) FROM result_logs l JOIN programs p ON p.id = l.program_id JOIN results a ON a.run_id = l.run_id AND a.program_id = l.program_id AND a.tracker = 'old' JOIN results b ON b.run_id = l.run_id AND b.program_id = l.program_id AND b.tracker = 'cnum' WHERE a.verdict = b.verdict AND a.insns_processed = b.insns_processed AND a.total_states = b.total_states\")\" = 0 ]"
$RB verify --log --tracker old "$O:bias_add64" 2>/dev/null | sed -n '/^=== /,/^processed /p' >"$tmp/old.log"
check "a stored log is at least as long as the level-2 log verify --log prints (a log of more than 5 lines)" \
	"[ \"\$(q \"SELECT bytes FROM result_logs l JOIN programs p ON p.id = l.program_id WHERE p.name = 'bias_add64' AND l.tracker = 'old'\")\" -ge \$(wc -c <$tmp/old.log) ] && [ \$(wc -l <$tmp/old.log) -gt 5 ]" "$tmp/old.log"

$RB run -q --db "$db" --label before --trackers old --no-census --keep-logs all --keep-logs-head 1 "$O" >"$tmp/r2.out" 2>&1
$RB run -q --db "$db" --label after --trackers cnum --no-census --keep-logs all "$O" >"$tmp/r3.out" 2>&1
check "two one-tracker runs keeping all logs: one log each" \
	"[ \"\$(q \"SELECT group_concat(tracker) FROM result_logs WHERE run_id IN (SELECT id FROM runs WHERE label IN ('before', 'after'))\")\" = 'old,cnum' ] || [ \"\$(q \"SELECT group_concat(tracker) FROM result_logs WHERE run_id IN (SELECT id FROM runs WHERE label IN ('before', 'after'))\")\" = 'cnum,old' ]"
$RB explain --db "$db" --run before --run-b after --baseline old --candidate cnum >"$tmp/x1.out" 2>&1
check "explain --run before --run-b after: where the stored logs part (old ends at insn 20, cnum goes on)" \
	"grep -q \"^logs part:    entry [0-9]*, after '20: (0f) r7 += r1': old '(end)', cnum '21: \" $tmp/x1.out" "$tmp/x1.out"
# the after run as another build made it: this build no longer reproduces its row
q "UPDATE results SET insns_processed = insns_processed + 1 WHERE run_id = (SELECT id FROM runs WHERE label = 'after')"
$RB explain --db "$db" --run before --run-b after --baseline old --candidate cnum >"$tmp/x2.out" 2>&1
check "a row this build does not reproduce: the stored logs still place the parting and name the mechanism" \
	"has_ere $tmp/x2.out '^logs part:    entry' && grep -q 'not reproduced by the engine (logs: stops_later)' $tmp/x2.out" "$tmp/x2.out"
q "DELETE FROM result_logs"
$RB explain --db "$db" --run before --run-b after --baseline old --candidate cnum >"$tmp/x3.out" 2>&1
check "without stored logs nothing is placed (the check above can fail)" \
	"! has_ere $tmp/x3.out '^logs part:' && grep -q 'not reproduced by the engine\$' $tmp/x3.out" "$tmp/x3.out"
$RB run -q --db "$db" --trackers old --no-census --keep-logs some "$O" >"$tmp/bad.out" 2>&1
check "--keep-logs some: refused, exit 2" "[ $? -eq 2 ] && grep -q \"keep-logs wants 'changed' or 'all'\" $tmp/bad.out" "$tmp/bad.out"
# a `verify --log` child killed by a signal after printing part of its
# output: that log is not stored as if whole; the pair counts as no log
RB_TEST_FAULT='verify-log:crash' $RB run -q --db "$tmp/c.sqlite" --label c --trackers old --no-census --keep-logs all "$O" >"$tmp/c.out" 2>&1
rc=$?
check "a log child dying of a signal: run exits 0, no log stored, '1 pairs gave no log'" \
	"[ $rc -eq 0 ] && [ \"\$(sqlite3 $tmp/c.sqlite 'SELECT count(*) FROM result_logs')\" = 0 ] && has_ere $tmp/c.out 'kept 0 logs .*; 1 pairs gave no log'" "$tmp/c.out"
