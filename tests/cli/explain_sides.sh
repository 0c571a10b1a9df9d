#!/usr/bin/env bash
# explain_sides.sh — `rangebench explain` with kernels and a run's rows as
# sides (src/cli/cmd_explain_sides.c). Two kernels of a configuration
# (never booted: their rows are the engine's old and cnum rows of a run,
# copied) are explained through the engine rows that reproduce them
# (--stand-ins): the worked examples' causes and counterfactuals, stored
# for the explain_classes query; a kernel row no engine row reproduces is
# left unexplained (exit 1) with where the logs part when `attribute`
# stored it. The running kernel as a side (skipped where bpf() is refused)
# and bad sides.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
skip() { n=$((n + 1)); echo "ok $n - $1 # skip $2"; }
OWN=${RB_TEST_BIN:-build/test}/own
O=$OWN/bias_add64.bpf.o
A=$OWN/abs_window.bpf.o
db=$tmp/s.sqlite
cat >"$tmp/kernels.conf" <<EOC
kernel-a  $tmp/none-a  qemu  1G
kernel-b  $tmp/none-b  qemu  1G
EOC
export RB_KERNELS_CONF=$tmp/kernels.conf
q() { sqlite3 "$db" "$1"; }

$RB run --no-census --db "$db" --label s --trackers old,cnum -j 1 "$O" "$A" >"$tmp/run.out" 2>&1
check "run old,cnum over the worked examples" "[ $? -eq 0 ]" "$tmp/run.out"
# the kernels' rows: kernel-a verifies as old does, kernel-b as cnum does
q "CREATE TABLE t AS SELECT * FROM results WHERE tracker = 'old'; UPDATE t SET tracker = 'kernel-a';
   INSERT INTO results SELECT * FROM t; DELETE FROM t;
   INSERT INTO t SELECT * FROM results WHERE tracker = 'cnum'; UPDATE t SET tracker = 'kernel-b';
   INSERT INTO results SELECT * FROM t; DROP TABLE t;"

$RB explain --db "$db" --run s --baseline kernel-a --candidate kernel-b --stand-ins old,cnum,arc2 >"$tmp/k.out" 2>&1
rc=$?
check "two kernels: every change explained (exit 0)" "[ $rc -eq 0 ]" "$tmp/k.out"
check "stand-ins: old for kernel-a, cnum for kernel-b, they differ in the tracker" \
	"grep -q '^stand-ins: *old for kernel-a, cnum for kernel-b (same verdict, insns, states); they differ in tracker$' $tmp/k.out" "$tmp/k.out"
check "bias_add64 through its stand-ins: insn 17, wrap across 2^63, counterfactual vanished" \
	"grep -A20 ':bias_add64$' $tmp/k.out | grep -q '^cause: *insn 17: (0f) r1 += r2' && grep -A20 ':bias_add64$' $tmp/k.out | grep -q '^counterfactual: cnum given old.s r1 after insn 17: failure, 18 insns -> vanished'" "$tmp/k.out"
check "the summary counts the changed programs by class" \
	"has_ere $tmp/k.out '^summary: 2 programs differ between kernel-a and kernel-b; 2 with an engine stand-in for each side, 2 explained' && has_ere $tmp/k.out '^ +1  explained tracker: wrap across 2\^63$' && has_ere $tmp/k.out '^ +1  explained tracker: two-run set lost by one arc$'" "$tmp/k.out"
check "stored: query explain_classes lists both, explained" \
	"[ \"\$(q \"SELECT count(*) || ' ' || sum(explained) FROM explanations WHERE baseline = 'kernel-a' AND candidate = 'kernel-b'\")\" = '2 2' ]"
$RB query --db "$db" --run s --baseline kernel-a --candidate kernel-b explain_classes >"$tmp/qc.out" 2>&1
check "query explain_classes reads the kernels' explanations" "grep -q 'wrap across 2^63' $tmp/qc.out" "$tmp/qc.out"

# kernel-b's bias_add64 row no engine row reproduces; attribute's log parting point for it
q "UPDATE results SET insns_processed = insns_processed + 3 WHERE tracker = 'kernel-b' AND program_id = (SELECT id FROM programs WHERE name = 'bias_add64');
   INSERT INTO kernel_attributions (run_id, program_id, baseline, candidate, differ, attribution, part_index, common_line, baseline_line, candidate_line, mechanism)
   SELECT 1, id, 'kernel-a', 'kernel-b', 'insns', 'other', 7, '5: (bf) r1 = r0', '6: safe', '6: (07) r1 += 1', 'prune_later' FROM programs WHERE name = 'bias_add64';"
$RB explain --db "$db" --baseline kernel-a --candidate kernel-b --stand-ins old,cnum >"$tmp/u.out" 2>&1
rc=$?
check "a kernel no engine row reproduces: unexplained (exit 1)" "[ $rc -eq 1 ]" "$tmp/u.out"
check "it names the rows tried and the logs' parting point" \
	"has_ere $tmp/u.out '^  kernel-b success 2[0-9]/[0-9]*; tried: old failure' && grep -q \"^logs part: *entry 7, after '5: (bf) r1 = r0': kernel-a '6: safe', kernel-b '6: (07) r1 += 1' (prune_later)\" $tmp/u.out" "$tmp/u.out"
check "summary: 1 of 2 explained, the other not reproduced (logs: prune_later)" \
	"has_ere $tmp/u.out '^summary: 2 programs differ .* 1 with an engine stand-in for each side, 1 explained' && has_ere $tmp/u.out '^ +1  unexplained: not reproduced by the engine \(logs: prune_later\)$'" "$tmp/u.out"
$RB explain --db "$db" --baseline kernel-a --candidate kernel-b --stand-ins old,cnum -q --no-store >"$tmp/qq.out" 2>&1
check "-q: the summary only; --no-store keeps the stored rows" \
	"[ \"\$(grep -c '^explained:' $tmp/qq.out)\" = 0 ] && has_ere $tmp/qq.out '^summary:' && [ \"\$(q \"SELECT sum(explained) FROM explanations WHERE baseline = 'kernel-a'\")\" = 1 ]" "$tmp/qq.out"

# two runs: old of run s, cnum of run s2; then s2's row as another build left it
$RB run --no-census --db "$db" --label s2 --trackers cnum -j 1 "$O" "$A" >"$tmp/run2.out" 2>&1
$RB explain --db "$db" --run s --run-b s2 --baseline old --candidate cnum >"$tmp/two.out" 2>&1
rc=$?
check "two runs as sides: both changes explained (exit 0), not stored" \
	"[ $rc -eq 0 ] && grep -q '^sides.* rows: old of run 1, cnum of run 2 (not stored: two runs)' $tmp/two.out && has_ere $tmp/two.out '^summary: 2 programs differ between old and cnum; 2 with an engine stand-in for each side, 2 explained'" "$tmp/two.out"
q "UPDATE results SET insns_processed = insns_processed + 1 WHERE run_id = 2 AND tracker = 'cnum' AND program_id = (SELECT id FROM programs WHERE name = 'abs_window_neg')"
$RB explain --db "$db" --run s --run-b s2 --baseline old --candidate cnum >"$tmp/two2.out" 2>&1
rc=$?
check "a run's cnum row this build does not reproduce: unexplained (exit 1)" \
	"[ $rc -eq 1 ] && grep -A4 ':abs_window_neg$' $tmp/two2.out | grep -q '^  cnum failure 22/1; tried: .* cnum failure 21/1' && has_ere $tmp/two2.out '^summary: 2 programs .* 1 explained'" "$tmp/two2.out"

# a run whose cnum verified as old does (a build before a patch to cnum):
# its cnum rows, which this build does not reproduce, are stood in for by
# the engine row that does (old), and the change explained from there
q "INSERT INTO runs (kind, label, started_at, status) VALUES ('verify', 's3', 'x', 'complete');
   INSERT INTO results (run_id, program_id, tracker, verdict, err_insn, msg, insns_processed, total_states, peak_states)
   SELECT (SELECT id FROM runs WHERE label = 's3'), program_id, 'cnum', verdict, err_insn, msg, insns_processed, total_states, peak_states
   FROM results WHERE run_id = 1 AND tracker = 'old'"
$RB explain --db "$db" --run s3 --run-b s2 --baseline cnum --candidate cnum >"$tmp/two3.out" 2>&1
check "two runs of cnum by two builds: the earlier build's cnum stood in for by old, the change explained" \
	"grep -A3 ':bias_add64$' $tmp/two3.out | grep -q '^stand-ins:    old for cnum, cnum is cnum (same verdict, insns, states); they differ in tracker' && grep -A30 ':bias_add64$' $tmp/two3.out | grep -m1 '^explained:' | grep -q yes" "$tmp/two3.out"

# the running kernel as a side
$RB explain --baseline kernel --candidate cnum "$O:bias_add64" >"$tmp/r.out" 2>&1
rc=$?
if grep -q "^sides: *kernel unavailable" "$tmp/r.out" || grep -q "no result from kernel" "$tmp/r.out"; then
	skip "the running kernel as a side" "bpf() not permitted"
else
	check "the running kernel stood in for by old, explained (exit 0)" \
		"[ $rc -eq 0 ] && has_ere $tmp/r.out '^stand-ins: *old for kernel, cnum is cnum' && grep -q '^class: *wrap across 2^63$' $tmp/r.out" "$tmp/r.out"
fi

$RB explain --baseline nosuch --candidate cnum "$O:bias_add64" >"$tmp/b.out" 2>&1
check "an unknown side: exit 2, named" "[ $? -eq 2 ] && grep -q \"or a kernel (rangebench trackers), not 'nosuch'\" $tmp/b.out" "$tmp/b.out"
$RB explain --db "$db" --baseline kernel-a --candidate kernel-b "$O" >"$tmp/b2.out" 2>&1
check "--db with an object: exit 2" "[ $? -eq 2 ] && has_ere $tmp/b2.out 'give no OBJ'" "$tmp/b2.out"
$RB explain --db "$db" --run nosuchrun --baseline kernel-a --candidate kernel-b >"$tmp/b3.out" 2>&1
check "--db with an unknown run: exit 2 naming it" "[ $? -eq 2 ] && grep -q nosuchrun $tmp/b3.out" "$tmp/b3.out"
