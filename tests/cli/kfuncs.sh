#!/usr/bin/env bash
# kfuncs.sh — kfunc calls, ksyms and the helpers added with them agree
# with the running kernel line for line: `rangebench kdiff` on every
# program of tests/objects/kfunc_calls.bpf.c (and the other objects
# listed below) must report identical level-2 logs, verdicts and counts.
# Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

for obj in kfunc_calls sock_helpers spin_lock task_storage; do
	OBJ=$DIR/$obj.bpf.o
	progs=$("$RB" load "$OBJ" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
	check "$obj lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	for p in $progs; do
		"$RB" kdiff "$OBJ:$p" >"$tmp/$p.out" 2>&1
		rc=$?
		if grep -q "verdict  kernel unavailable" "$tmp/$p.out"; then
			ok "$obj:$p agrees with the kernel # skip bpf() not permitted"
			continue
		fi
		check "$obj:$p: log, verdict and counts equal the kernel's" \
			'[ $rc -eq 0 ] && grep -q "^logs agree" "$tmp/$p.out"' "$tmp/$p.out"
	done
done
