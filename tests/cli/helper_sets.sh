#!/usr/bin/env bash
# helper_sets.sh — which helpers a program type may call follows the
# running kernel where bpf() can measure it (src/oracle/helper_probe.c),
# the compiled-in 6.18 sets otherwise: `rangebench helpers` measures every
# pair with a compiled-in set; `run` records the source in
# runs.helper_sets ('kernel', or 'compiled-6.18' with --compiled-helpers);
# `verify` with and without --compiled-helpers gives the kernel's verdict
# and the compiled-in one on a program calling a helper (checked against
# what `helpers` reports for its type, so the test holds on any kernel).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/helper_access.bpf.o
. tests/cli/lib/tap.sh

"$RB" verify --compiled-helpers "$OBJ" >"$tmp/compiled.out" 2>&1
check "verify --compiled-helpers works without bpf()'s help (exit 0)" "[ $? -eq 0 ]" "$tmp/compiled.out"

if ! "$RB" verify --tracker kernel "$OBJ" 2>&1 | grep -q success; then
	echo "ok 2 # skip bpf() not permitted here: helper sets are the compiled-in ones"
	exit 0
fi
n=1

"$RB" helpers >"$tmp/helpers.out" 2>&1
rc=$?
check "helpers: exit 0 (all equal) or 1 (some differ), never 2 where bpf() works" "[ $rc -le 1 ]" "$tmp/helpers.out"
check "helpers: every pair measured, summary line names the source" \
	"grep -q '^helper sets: kernel (\([0-9]*\) of \1 pairs measured' $tmp/helpers.out" "$tmp/helpers.out"
check "helpers: one line per pair with a compiled-in set (xdp among them)" "grep -q '^xdp  *attach 0 ' $tmp/helpers.out" "$tmp/helpers.out"

"$RB" run -q --trackers old -j 1 --no-census --db "$tmp/k.sqlite" --label k "$OBJ" >"$tmp/run1.out" 2>&1
check "run: runs.helper_sets = kernel" "[ \"\$(sqlite3 $tmp/k.sqlite 'SELECT helper_sets FROM runs')\" = kernel ]" "$tmp/run1.out"
"$RB" run -q --trackers old -j 1 --no-census --compiled-helpers --db "$tmp/c.sqlite" --label c "$OBJ" >"$tmp/run2.out" 2>&1
check "run --compiled-helpers: runs.helper_sets = compiled-6.18" \
	"[ \"\$(sqlite3 $tmp/c.sqlite 'SELECT helper_sets FROM runs')\" = compiled-6.18 ]" "$tmp/run2.out"
check "the same verdicts where the kernel's sets equal the compiled-in ones (xdp, socket filter, kprobe)" \
	"! grep -E '^(xdp|socket_filter|kprobe) .*[-+]bpf' $tmp/helpers.out >/dev/null && [ \"\$(sqlite3 $tmp/k.sqlite 'SELECT group_concat(verdict) FROM results ORDER BY program_id')\" = \"\$(sqlite3 $tmp/c.sqlite 'SELECT group_concat(verdict) FROM results ORDER BY program_id')\" ]" "$tmp/helpers.out"

# the helper sets are probed once per run, by the run's own process, and
# handed to the verifier children with their job: a child loads nothing
# into the kernel for them (each child probed them again before, about 250
# loads a pair and object)
if command -v strace >/dev/null 2>&1; then
	O2=${RB_TEST_OBJECTS:-build/test/objects}/oracle_verdicts.bpf.o
	cp "$OBJ" "$tmp/a.bpf.o"
	cp "$O2" "$tmp/b.bpf.o"
	strace -f -qq -e trace=bpf,execve -o "$tmp/strace.out" \
		"$RB" run -q --trackers old -j 1 --no-census --db "$tmp/s.sqlite" --label s "$tmp/a.bpf.o" "$tmp/b.bpf.o" \
		>"$tmp/run3.out" 2>&1
	# processes other than the run's own exec a program (strace -f shows
	# threads as pids that never do): those are the run's children
	awk 'NR == 1 {first = $1} /execve\(/ && $1 != first {child[$1] = 1}
	     /BPF_PROG_LOAD/ {if ($1 in child) c++; else r++}
	     END {printf "run %d children %d spawned %d\n", r, c, length(child)}' "$tmp/strace.out" >"$tmp/loads.out"
	cat "$tmp/loads.out" | sed "s/^/# /"
	check "strace: the run's process probed the helper sets (program loads)" \
		"grep -q '^run [1-9][0-9]* ' $tmp/loads.out" "$tmp/loads.out"
	check "strace: children were spawned and none loads a program (the sets came with the job)" \
		"grep -q ' children 0 spawned [1-9]' $tmp/loads.out" "$tmp/loads.out"
	# only the helper ids the programs call are probed (each pair's two
	# trust probes and one load per id), not all 255 of each pair
	check "strace: the run's process probed only the helpers its programs call (under 100 loads)" \
		"[ \$(awk '{print \$2}' $tmp/loads.out) -lt 100 ]" "$tmp/loads.out"
	check "the run with handed-over sets verified both objects" \
		"[ \"\$(sqlite3 $tmp/s.sqlite \"SELECT count(DISTINCT obj_sha256) FROM programs\")\" = 2 ] && [ \"\$(sqlite3 $tmp/s.sqlite 'SELECT helper_sets FROM runs')\" = kernel ]" "$tmp/run3.out"
else
	echo "ok $((n + 1)) # skip strace not installed: children's probes not counted"
fi
