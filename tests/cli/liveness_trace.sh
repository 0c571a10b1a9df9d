#!/usr/bin/env bash
# liveness_trace.sh — the engine's stack liveness (src/engine/liveness.c)
# follows 6.18's kernel/bpf/liveness.c step by step: its level-2 traces
# ("(0) frame 0 insn 13 +live -8", "... live stack update done in N
# iterations"), which say when the fixed point is solved and what changed,
# must equal the running kernel's line for line on every program of the
# objects below (kdiff drops these lines; this test compares only them).
# Skipped with a note where bpf() is not permitted.
# Each object is verified once per side (verify --log of the whole object,
# its log split at the "=== FILE:PROG (TRACKER) ===" headers), not once per
# program: a sanitizer-built process costs ~0.4 s of CPU to start, which
# was the whole of this test's time (86 programs x 2 processes).
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# split_log TRACKER LOG OUTDIR: OUTDIR/PROG holds the liveness lines of
# PROG's part of LOG (an empty file for a program with none), and
# OUTDIR/PROG.seen exists for every program LOG has a header for
split_log() {
	mkdir -p "$3"
	awk -v tr="$1" -v out="$3" '
		/^=== .* ===$/ {
			if (f) close(f)
			f = ""
			h = $2; sub(/^[^:]*:/, "", h)
			if ($3 != "(" tr ")") next
			f = out "/" h; printf "" >f; print "" >(f ".seen"); close(f ".seen")
			next
		}
		f && /^\(/ { print >>f }' "$2"
}

# whether the kernel answers: asked once (kdiff on the first program)
unavailable=
for obj in engine_fidelity callbacks iterators dynptr kfunc_calls; do
	progs=$("$RB" load "$DIR/$obj.bpf.o" 2>"$tmp/load.err" | awk '$1 == "prog" { print $2 }')
	check "the $obj object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	if [ -z "$unavailable" ] && [ -n "$progs" ]; then
		"$RB" kdiff "$DIR/$obj.bpf.o:$(echo "$progs" | head -1)" >"$tmp/kd.out" 2>&1
		unavailable=no
		grep -q "verdict  kernel unavailable" "$tmp/kd.out" && unavailable=yes
	fi
	if [ "$unavailable" != yes ]; then
		"$RB" verify --tracker kernel --log --csv "$DIR/$obj.bpf.o" 2>"$tmp/$obj.k.log" >/dev/null
		"$RB" verify --tracker old --log --csv "$DIR/$obj.bpf.o" 2>"$tmp/$obj.o.log" >/dev/null
		split_log kernel "$tmp/$obj.k.log" "$tmp/$obj.k"
		split_log old "$tmp/$obj.o.log" "$tmp/$obj.o"
	fi
	for p in $progs; do
		if [ "$unavailable" = yes ]; then
			ok "$obj:$p liveness traces equal the kernel's # skip bpf() not permitted"
			continue
		fi
		k=$tmp/$obj.k/$p o=$tmp/$obj.o/$p
		if [ ! -e "$k.seen" ] || [ ! -e "$o.seen" ]; then
			echo "no log section for $p: kernel $([ -e "$k.seen" ] && echo yes || echo no), old $([ -e "$o.seen" ] && echo yes || echo no)" >"$tmp/d.txt"
		else
			diff "$k" "$o" >"$tmp/d.txt"
		fi
		check "$obj:$p liveness traces equal the kernel's ($(cat "$k" 2>/dev/null | wc -l) lines)" '[ ! -s "$tmp/d.txt" ]' "$tmp/d.txt"
	done
done
