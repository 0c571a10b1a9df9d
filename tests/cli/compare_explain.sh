#!/usr/bin/env bash
# compare_explain.sh — `compare --changed --explain` on a run of old and
# cnum over two worked examples (programs/src/, built into build/test/own/):
# every changed program explained and stored, the cause classes per
# source (query explain_classes); the run's provenance (commit, hash of
# the uncommitted diff) stored and shown; and the frictions of issue 23
# item 5: compare with no side names, --filter given an expression,
# query on a tracker pair the run lacks, verify --tracker thrice (a row
# of each), kernel memory n/a, objects without programs not counted as failures.
source "$(dirname "$0")/lib/tap.sh"
RB=${RB:-build/test/rangebench}
B=${RB_TEST_BIN:-build/test}
O=$B/own/bias_add64.bpf.o
db=$tmp/e.sqlite

# the run's corpus also holds an object without programs (objects-bad/
# no_program.bpf.o): the last check reads this run's summary (was a run of
# its own)
mkdir -p "$tmp/np"
cp "$B/objects-bad/no_program.bpf.o" "$O" "$B/own/abs_window.bpf.o" "$tmp/np/"
$RB run -q --db "$db" --label ex --trackers old,cnum --no-census "$tmp/np" >"$tmp/run.out" 2>&1
check "run of old and cnum over the examples" "[ $? -eq 0 ]" "$tmp/run.out"

# provenance: the hash of `git diff HEAD` of the tree the binary is in, NULL when clean
want=$(git diff --binary --no-color --no-ext-diff HEAD 2>/dev/null | sha256sum | cut -c1-64)
[ -z "$(git diff --binary --no-color --no-ext-diff HEAD 2>/dev/null | head -c1)" ] && want=NULL
got=$(sqlite3 "$db" "SELECT coalesce(diff_sha256, 'NULL') FROM runs WHERE label = 'ex'")
check "run stores the uncommitted diff's sha256 ($want)" "[ '$got' = '$want' ]"
check "run stores the diff's text when there is one" \
	"[ \"\$(sqlite3 $db \"SELECT (diff_sha256 IS NULL) = (diff_text IS NULL) FROM runs WHERE label = 'ex'\")\" = 1 ]"

$RB compare --db "$db" --changed --explain >"$tmp/cmp.out" 2>&1; rc=$?
check "compare --explain with no side names: old vs cnum of the latest run (exit 1: verdicts differ)" \
	"[ $rc -eq 1 ] && grep -q 'tracker old, B = run 1 (ex, complete) tracker cnum' $tmp/cmp.out" "$tmp/cmp.out"
check "compare shows the run's provenance" "grep -q '^A, B: run 1 built from commit [0-9a-f]\{12\}' $tmp/cmp.out" "$tmp/cmp.out"
check "both changed programs explained" \
	"grep -q '^2 programs changed verdict or instructions: cause found for 2, explained (counterfactual vanished) 2' $tmp/cmp.out" "$tmp/cmp.out"
check "bias_add64's row: verdict parting at the access, wrap across 2^63" \
	"grep 'bias_add64' $tmp/cmp.out | grep -q 'verdict@20 .*17: (0f) r1 += r2 .*wrap across 2^63 .*vanished'" "$tmp/cmp.out"
check "stored: one row per changed program with class and counterfactual" \
	"[ \"\$(sqlite3 $db \"SELECT group_concat(class || ':' || counterfactual || ':' || explained, ';') FROM (SELECT * FROM explanations ORDER BY class)\")\" = 'two-run set lost by one arc:vanished:1;wrap across 2^63:vanished:1' ]"
$RB query --db "$db" explain_classes --csv >"$tmp/q.csv" 2>&1
check "query explain_classes: the classes per source" \
	"[ \$(tail -n +2 $tmp/q.csv | wc -l) -eq 2 ] && grep -q ',wrap across 2^63,1,1,0,bias_add64 @' $tmp/q.csv" "$tmp/q.csv"
$RB compare --db "$db" --changed --explain --trackers old,kernel >"$tmp/k.out" 2>&1
check "--explain with the kernel as a side: exit 2, said why" "[ $? -eq 2 ] && has_ere $tmp/k.out 'two engine rows'" "$tmp/k.out"

# rows of the 7.2 profile: explained on the object opened with the inputs
# of the kernel they stand for (here a kernel cache whose kernel-7.2 inputs
# are the running kernel's BTF), as run opened it; rows standing for
# kernels with different inputs are refused, naming `explain --db`
if [ -r /sys/kernel/btf/vmlinux ]; then
	pk=$(awk '$1 == "kernel-7.2" {print $2}' kernels.conf)
	mkdir -p "$tmp/kc/${pk#debian:*/}/inputs"
	ln -s /sys/kernel/btf/vmlinux "$tmp/kc/${pk#debian:*/}/inputs/btf"
	RB_KERNEL_CACHE=$tmp/kc $RB run -q --db "$tmp/p72.sqlite" --label p72 --trackers old,old@7.2,cnum-mainline@7.2 --no-census \
		"$O" "$B/own/abs_window.bpf.o" >"$tmp/p72.out" 2>&1
	RB_KERNEL_CACHE=$tmp/kc $RB compare --db "$tmp/p72.sqlite" --changed --explain --trackers old@7.2,cnum-mainline@7.2 p72 \
		>>"$tmp/p72.out" 2>&1
	check "--explain --trackers old@7.2,cnum-mainline@7.2: both changed programs explained" \
		"grep -q '^2 programs changed verdict or instructions: cause found for 2, explained (counterfactual vanished) 2' $tmp/p72.out" "$tmp/p72.out"
	RB_KERNEL_CACHE=$tmp/kc $RB compare --db "$tmp/p72.sqlite" --changed --explain --trackers old,cnum-mainline@7.2 p72 \
		>"$tmp/mix.out" 2>&1
	check "--explain --trackers old,cnum-mainline@7.2 (different inputs): exit 2 naming explain --db" \
		"[ $? -eq 2 ] && has_ere $tmp/mix.out 'stand for kernels with different inputs.*explain --db FILE --run RUN --baseline old --candidate cnum-mainline@7.2'" "$tmp/mix.out"
else
	echo "# no /sys/kernel/btf/vmlinux: compare --explain of 7.2 rows not run"
fi

$RB compare --db "$db" --filter 'insns_b>1000' >"$tmp/f.out" 2>&1
check "--filter with an expression: evaluated (no program has 1000 insns)" "[ $? -eq 0 ] && has_ere $tmp/f.out '^programs +0$'" "$tmp/f.out"
$RB compare --db "$db" --filter 'insns=>1000' >"$tmp/f2.out" 2>&1
check "--filter with a misparsed expression: exit 2, named" "[ $? -eq 2 ] && grep -q \"filter 'insns=>1000': '>1000' is not a number\" $tmp/f2.out" "$tmp/f2.out"
$RB query --db "$db" --candidate arc2 pair_changed >"$tmp/pq.out" 2>&1
check "query pair_changed on a run without the candidate: exit 2 naming it" \
	"[ $? -eq 2 ] && grep -q \"has no results of tracker 'arc2' (it has: cnum,old)\" $tmp/pq.out" "$tmp/pq.out"
$RB query --db "$db" pair_changed >"$tmp/pq2.out" 2>&1
check "query pair_changed with both trackers still runs" "[ $? -eq 0 ] && grep -q bias_add64 $tmp/pq2.out" "$tmp/pq2.out"
$RB verify --tracker old --tracker cnum --tracker kernel "$O" >"$tmp/v.out" 2>&1
check "verify --tracker thrice: exit 0, a row of each tracker named in its column, the kernel's peak memory alone n/a" \
	"[ $? -eq 0 ] && has_ere $tmp/v.out '^bias_add64.bpf.o +bias_add64 +old +failure .* [0-9]+ +insn 20: ' && has_ere $tmp/v.out '^bias_add64.bpf.o +bias_add64 +cnum +success .* [0-9]+ *\$' && has_ere $tmp/v.out '^bias_add64.bpf.o +bias_add64 +kernel +failure .* n/a +insn 20: '" "$tmp/v.out"
$RB verify --tracker kernel "$O" >"$tmp/vk.out" 2>&1
check "verify --tracker kernel: peak memory n/a, not 0" "grep 'bias_add64  ' $tmp/vk.out | grep -q ' n/a '" "$tmp/vk.out"

check "an object without programs is not a failure (run ex)" \
	"has_ere $tmp/run.out '0 objects failed to open, 1 hold no programs' && ! has_ere $tmp/run.out 'rangebench run: .*no programs'" "$tmp/run.out"
