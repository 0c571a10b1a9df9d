#!/usr/bin/env bash
# liveness_trace.sh — the engine's stack liveness (src/engine/liveness.c)
# follows 6.18's kernel/bpf/liveness.c step by step: its level-2 traces
# ("(0) frame 0 insn 13 +live -8", "... live stack update done in N
# iterations"), which say when the fixed point is solved and what changed,
# must equal the running kernel's line for line on every program of the
# objects below (kdiff drops these lines; this test compares only them).
# Skipped with a note where bpf() is not permitted.
# The objects are verified once per side, all five in one `verify --log`
# (the log split at its "=== FILE:PROG (TRACKER) ===" headers), and listed
# by one `load`: a sanitizer-built process costs ~0.1-0.4 s of CPU to
# start, which was the whole of this test's time (86 programs x 2
# processes, then 3 per object). Each program's lines are compared in
# this shell (mapfile), not by a diff, cat and wc per program (~250
# processes, ~1 s of CPU).
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

# split_log TRACKER LOG OUTDIR: OUTDIR/FILE:PROG holds the liveness lines
# of FILE:PROG's part of LOG (an empty file for a program with none), and
# OUTDIR/FILE:PROG.seen exists for every program LOG has a header for
split_log() {
	mkdir -p "$3"
	awk -v tr="$1" -v out="$3" '
		/^=== .* ===$/ {
			if (f) close(f)
			f = ""
			if ($3 != "(" tr ")") next
			f = out "/" $2; printf "" >f; print "" >(f ".seen"); close(f ".seen")
			next
		}
		f && /^\(/ { print >>f }' "$2"
}

objs="engine_fidelity callbacks iterators dynptr kfunc_calls"
paths=
for obj in $objs; do paths="$paths $DIR/$obj.bpf.o"; done
# shellcheck disable=SC2086 # the paths have no blanks
"$RB" load $paths >"$tmp/load.out" 2>"$tmp/load.err"
# whether the kernel answers: asked once (kdiff on the first program)
first=$(awk '$1 == "prog" { print $2; exit }' "$tmp/load.out")
unavailable=no
if [ -n "$first" ]; then
	"$RB" kdiff "$DIR/${objs%% *}.bpf.o:$first" >"$tmp/kd.out" 2>&1
	grep -q "verdict  kernel unavailable" "$tmp/kd.out" && unavailable=yes
fi
if [ "$unavailable" != yes ]; then
	# shellcheck disable=SC2086
	"$RB" verify --tracker kernel --log --csv $paths 2>"$tmp/k.log" >/dev/null
	# shellcheck disable=SC2086
	"$RB" verify --tracker old --log --csv $paths 2>"$tmp/o.log" >/dev/null
	split_log kernel "$tmp/k.log" "$tmp/k"
	split_log old "$tmp/o.log" "$tmp/o"
fi
for obj in $objs; do
	progs=$(awk -v f="$DIR/$obj.bpf.o:" '$1 == f { on = 1; next } /^[^ ]/ { on = 0 } on && $1 == "prog" { print $2 }' "$tmp/load.out")
	check "the $obj object lists its programs" '[ -n "$progs" ]' "$tmp/load.err"
	for p in $progs; do
		if [ "$unavailable" = yes ]; then
			ok "$obj:$p liveness traces equal the kernel's # skip bpf() not permitted"
			continue
		fi
		k=$tmp/k/$obj.bpf.o:$p o=$tmp/o/$obj.bpf.o:$p
		# both sides' lines read by mapfile and compared in this shell (a
		# diff only to show a difference): no process per program
		kl=() ol=()
		[ -e "$k" ] && mapfile -t kl <"$k"
		[ -e "$o" ] && mapfile -t ol <"$o"
		printf -v kj '%s\n' "${kl[@]}"
		printf -v oj '%s\n' "${ol[@]}"
		if [ ! -e "$k.seen" ] || [ ! -e "$o.seen" ]; then
			ks=no os=no
			[ -e "$k.seen" ] && ks=yes
			[ -e "$o.seen" ] && os=yes
			echo "no log section for $p: kernel $ks, old $os" >"$tmp/d.txt"
		elif [ "${#kl[@]}" -ne "${#ol[@]}" ] || [ "$kj" != "$oj" ]; then
			diff "$k" "$o" >"$tmp/d.txt"
		else
			: >"$tmp/d.txt"
		fi
		check "$obj:$p liveness traces equal the kernel's (${#kl[@]} lines)" '[ ! -s "$tmp/d.txt" ]' "$tmp/d.txt"
	done
done
