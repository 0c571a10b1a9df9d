#!/usr/bin/env bash
# attribute.sh — `rangebench attribute` (src/cli/cmd_attribute.c) without a
# guest: two verifiers of a run (the engine's old as the baseline, the
# running kernel as the candidate) made to differ on one program by
# editing the stored rows. With --new kernel the engine "reproduces" the
# candidate: 'tracker', no log needed; with --new old it does not:
# 'other', both logs taken (the engine's, the kernel's through bpf()) and
# the place where they part stored; the query and the chart read the
# table. Skipped where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh
skip() { n=$((n + 1)); echo "ok $n - $1 # skip $2"; }
. tests/cli/lib/tiny.sh
db=$tmp/a.sqlite

# the default kernels (no guest, no bpf() needed): the running one and the
# configuration's first kernel image
printf 'my-7.9  /nonexistent/bzImage  qemu  1G\nother  /nonexistent/bzImage2  qemu  1G\n' >"$tmp/k.conf"
RB_KERNELS_CONF=$tmp/k.conf $RB attribute --db "$tmp/none.sqlite" >"$tmp/dk.out" 2>&1
check "default candidate: the configuration's first kernel image" \
	"[ $? -eq 2 ] && grep -q 'no run with rows of both kernel and my-7.9' $tmp/dk.out" "$tmp/dk.out"
: >"$tmp/empty.conf"
RB_KERNELS_CONF=$tmp/empty.conf $RB attribute --db "$tmp/none.sqlite" >"$tmp/dk0.out" 2>&1
check "no kernel image configured: refused, naming --candidate" \
	"[ $? -eq 2 ] && grep -q 'no kernel image in the configuration.*--candidate' $tmp/dk0.out" "$tmp/dk0.out"

$RB run --no-census --db "$db" --label a --trackers old,kernel -j 1 "$tmp/tiny.o" >"$tmp/run.out" 2>&1
if ! sqlite3 "$db" "SELECT 1 FROM results WHERE tracker = 'kernel' AND verdict IN ('success', 'failure') LIMIT 1" | grep -q 1; then
	skip "attribute" "the running kernel gave no verdict here (bpf() not permitted?)"
	exit 0
fi
q() { sqlite3 "$db" "$1"; }
q "UPDATE results SET total_states = total_states + 1 WHERE tracker = 'kernel' AND program_id = (SELECT min(program_id) FROM results)"

$RB attribute --db "$db" --baseline old --candidate kernel --old old --new kernel >"$tmp/t.out" 2>"$tmp/t.err"
check "attribute exits 0 and counts one program" "[ $? -eq 0 ] && grep -q '1 programs differ: 1 tracker, 0 other' $tmp/t.err" "$tmp/t.err"
check "--new kernel reproduces the candidate: stored as tracker, states differ" \
	"[ \"\$(q \"SELECT attribution || ' ' || differ || ' ' || coalesce(mechanism, '-') FROM kernel_attributions\")\" = 'tracker states -' ]"

$RB attribute --db "$db" --baseline old --candidate kernel --old old --new old >"$tmp/o.out" 2>"$tmp/o.err"
check "attribute again: 'other', the earlier row replaced" \
	"[ $? -eq 0 ] && [ \"\$(q \"SELECT count(*) || ' ' || attribution FROM kernel_attributions\")\" = '1 other' ]" "$tmp/o.err"
check "both logs taken: the same path (only the edited states differ), mechanism checkpoints" \
	"[ \"\$(q \"SELECT coalesce(part_index, 'null') || ' ' || mechanism FROM kernel_attributions\")\" = 'null checkpoints' ]" "$tmp/o.out"

$RB attribute --db "$db" --baseline old --candidate kernel --old old --new old --log-head 1 >"$tmp/h.out" 2>"$tmp/h.err"
check "--log-head 1: the kernel's log from its head load, the same place and mechanism" \
	"[ $? -eq 0 ] && [ \"\$(q \"SELECT count(*) || ' ' || coalesce(part_index, 'null') || ' ' || mechanism FROM kernel_attributions\")\" = '1 null checkpoints' ]" "$tmp/h.err"
$RB attribute --db "$db" --baseline old --candidate kernel --old old --new kernel --filter 'no_such_program' >"$tmp/f.out" 2>"$tmp/f.err"
check "--filter matching nothing: 0 programs, the stored attribution kept" \
	"[ $? -eq 0 ] && grep -q '0 programs differ' $tmp/f.err && [ \"\$(q \"SELECT count(*) || ' ' || attribution FROM kernel_attributions\")\" = '1 other' ]" "$tmp/f.err"
$RB attribute --db "$db" --log-head 0 >"$tmp/h0.out" 2>&1
check "--log-head 0: refused, exit 2" "[ $? -eq 2 ] && grep -q 'log-head wants 1..1023' $tmp/h0.out" "$tmp/h0.out"

$RB query --db "$db" --baseline old --candidate kernel kernels_attribution >"$tmp/qa.out" 2>&1
check "query kernels_attribution: one program, other, checkpoints" \
	"[ $? -eq 0 ] && grep -Eq '^all +1 +0 +0 +1 +0 +0 +0 +0 +0 +0 +0 +0 +0 +1 +0 +0$' $tmp/qa.out" "$tmp/qa.out"
$RB query --db "$db" --baseline old --candidate kernel kernels_diff >"$tmp/qd.out" 2>&1
check "query kernels_diff shows the stored mechanism" "[ $? -eq 0 ] && grep -q 'checkpoints' $tmp/qd.out" "$tmp/qd.out"
$RB plot --db "$db" -o "$tmp/plot" --only kernels_attribution a >"$tmp/plot.out" 2>&1
check "plot: the kernels_attribution chart renders" \
	"[ $? -eq 0 ] && grep -q '^wrote .*kernels_attribution.svg' $tmp/plot.out" "$tmp/plot.out"

$RB attribute --db "$db" --run nosuchrun >"$tmp/bad.out" 2>&1
check "an unknown run: exit 2 naming it" "[ $? -eq 2 ] && grep -q 'nosuchrun' $tmp/bad.out" "$tmp/bad.out"
