#!/usr/bin/env bash
# liveness_trace.sh — the engine's stack liveness (src/engine/liveness.c)
# follows 6.18's kernel/bpf/liveness.c step by step: its level-2 traces
# ("(0) frame 0 insn 13 +live -8", "... live stack update done in N
# iterations"), which say when the fixed point is solved and what changed,
# must equal the running kernel's line for line on every program of the
# objects below (kdiff drops these lines; this test compares only them).
# Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# whether the kernel answers: asked once (kdiff on the first program), not
# per program (each kdiff verifies the program twice more)
unavailable=
for obj in engine_fidelity callbacks iterators dynptr kfunc_calls; do
	progs=$("$RB" load "$DIR/$obj.bpf.o" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
	check "the $obj object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	for p in $progs; do
		if [ -z "$unavailable" ]; then
			"$RB" kdiff "$DIR/$obj.bpf.o:$p" >"$tmp/kd.out" 2>&1
			unavailable=no
			grep -q "verdict  kernel unavailable" "$tmp/kd.out" && unavailable=yes
		fi
		if [ "$unavailable" = yes ]; then
			ok "$obj:$p liveness traces equal the kernel's # skip bpf() not permitted"
			continue
		fi
		"$RB" verify --tracker kernel --log --csv "$DIR/$obj.bpf.o:$p" 2>&1 >/dev/null | grep '^(' >"$tmp/k.txt"
		"$RB" verify --tracker old --log --csv "$DIR/$obj.bpf.o:$p" 2>&1 >/dev/null | grep '^(' >"$tmp/o.txt"
		diff "$tmp/k.txt" "$tmp/o.txt" >"$tmp/d.txt"
		check "$obj:$p liveness traces equal the kernel's ($(wc -l <"$tmp/k.txt") lines)" '[ ! -s "$tmp/d.txt" ]' "$tmp/d.txt"
	done
done
