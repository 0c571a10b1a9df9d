#!/usr/bin/env bash
# callbacks.sh — callbacks (src/engine/callbacks.c) against the running
# kernel: on every program of tests/objects/callbacks.bpf.o (bpf_loop and
# bpf_for_each_map_elem: callback arguments, return ranges, repeated visits
# until the states converge, rejections) `rangebench kdiff` must report
# identical level-2 logs, verdicts and counts (exit 0). Skipped with a note
# where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/callbacks.bpf.o
. tests/cli/lib/tap.sh

progs=$("$RB" load "$OBJ" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
check "the callbacks object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
for p in $progs; do
	"$RB" kdiff "$OBJ:$p" >"$tmp/$p.out" 2>&1
	rc=$?
	if grep -q "verdict  kernel unavailable" "$tmp/$p.out"; then
		ok "$p agrees with the kernel # skip bpf() not permitted"
		continue
	fi
	check "$p: log, verdict and counts equal the kernel's" '[ $rc -eq 0 ] && grep -q "^logs agree" "$tmp/$p.out"' "$tmp/$p.out"
done
