#!/usr/bin/env bash
# explain.sh — `rangebench explain` on the worked examples of
# programs/src/ (built by the Makefile into build/test/own/ with the
# corpus's flags, so instruction numbers are the corpus's): where old and cnum part, the
# instruction where the deciding register's value sets first differ, both
# sides' values in their own terms (cnum's arcs), the source line, the
# cause class and the counterfactual check; no change on a program both
# explore alike; bad usage exits 2.
source tests/cli/lib/tap.sh
RB=${RB:-build/test/rangebench}
OWN=${RB_TEST_BIN:-build/test}/own
O=$OWN/bias_add64.bpf.o
A=$OWN/abs_window.bpf.o
W=$OWN/wrap_alu32.bpf.o
T=${RB_TEST_BIN:-build/test}/objects/explain_two.bpf.o

# The reports of five targets from one explain (each report headed
# "OBJ:PROG", the same as an explain of that target alone prints after
# the "tree:" line; the exit code is 0 only if every one is explained):
# one process, not five (~0.1 s of CPU each to start). Each target's
# reports, after the tree line, into its file.
"$RB" explain "$O:bias_add64" "$A:abs_window_neg" "$A:abs_window_pos" "$W" "$T" >"$tmp/five.txt" 2>&1; five_rc=$?
awk -v dir="$tmp" -v o="$O" -v a="$A" -v w="$W" -v t="$T" '
	NR == 1 && /^tree: / { tree = $0; next }
	$0 == o ":bias_add64" { f = dir "/bias.txt" } $0 == a ":abs_window_neg" { f = dir "/abs.txt" }
	$0 == a ":abs_window_pos" { f = dir "/same.txt" } index($0, w ":") == 1 && !/ / { f = dir "/w32.txt" }
	index($0, t ":") == 1 && !/ / { f = dir "/two.txt" }
	f && !(f in seen) { seen[f] = 1; print tree >f; print "" >f }
	f { print >f }' "$tmp/five.txt"
for f in bias abs same w32 two; do [ -e "$tmp/$f.txt" ] || cp "$tmp/five.txt" "$tmp/$f.txt"; done
rc=$five_rc
check "bias_add64: explained (exit 0)" '[ $rc -eq 0 ]' "$tmp/bias.txt"
check "bias_add64: old stops, cnum goes on" 'grep -q "^parting: .* old stops (failure: math between map_value pointer and register with unbounded min value" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: deciding r1 at the access, insn 20" 'grep -q "^deciding: *r1 at insn 20$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: cause is insn 17, the add of 2^63" 'grep -q "^cause: *insn 17: (0f) r1 += r2$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: class wrap across 2^63" 'grep -q "^class: *wrap across 2^63$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: cnum's arc after the add, in its own terms" 'grep -q "cnum r[0-9] after: .*r64=\[0x7ffffffffffffffc..0x8000000000000004\] (size 0x8)" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: old's value after the add lost its 64-bit bounds" 'grep -q "old r[0-9] after:  scalar smin32=-4,smax32=4$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: source line from BTF" 'grep -q "^source: *bias_add64.bpf.c:36: asm volatile" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: counterfactual, cnum given old's value, vanishes" 'grep -q "^counterfactual: cnum given old.s r1 after insn 17: failure, 18 insns -> vanished" "$tmp/bias.txt"' "$tmp/bias.txt"

check "abs_window_neg: explained (exit 0)" '[ $rc -eq 0 ]' "$tmp/abs.txt"
check "abs_window_neg: cnum stops at the access" 'grep -q "cnum stops (failure: R7 max value is outside of the allowed memory range)" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: deciding r7 at insn 21, followed back to the index" 'grep -q "^deciding: *r7 at insn 21$" "$tmp/abs.txt" && grep -q "followed back 1 def-use step" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: first difference at insn 15 (if r1 < 5: umin=5)" 'grep -q "^first differs: insn 15: (a5) if r1 < 0x5 goto" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: cause is insn 16, the unsigned check x > -5" 'grep -q "^cause: *insn 16: (25) if r1 > 0xfffffffb goto pc+6 *(the first difference alone does not decide" "$tmp/abs.txt" && grep -q "^source: .*(__u64)x > (__u64)-5" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: class two-run set lost by one arc" 'grep -q "^class: *two-run set lost by one arc$" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: old keeps both runs (umin=5, umax=-5)" 'grep -q "old r[0-9] after:  scalar smin=smin32=-10,smax=smax32=10,umin=5,umax=0xfffffffffffffffb$" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: the reverse counterfactual vanishes" 'grep -q "^counterfactual: old given cnum.s r1 after insn 16: failure, 21 insns -> vanished" "$tmp/abs.txt"' "$tmp/abs.txt"

"$RB" explain "$A" >"$tmp/all.txt" 2>&1; rc=$?
check "whole object: the changed program, not the unchanged one" '[ $rc -eq 0 ] && [ $(grep -c "^class:" "$tmp/all.txt") -eq 1 ] && ! grep -q abs_window_pos "$tmp/all.txt"' "$tmp/all.txt"
rc=$five_rc
check "abs_window_pos: identical explorations, exit 0" '[ $rc -eq 0 ] && grep -q "^explorations: identical" "$tmp/same.txt"' "$tmp/same.txt"
rc=$five_rc
check "wrap_alu32: the 32-bit add wraps across 2^31, explained" '[ $rc -eq 0 ] && grep -q "^class: *wrap across 2^31$" "$tmp/w32.txt"' "$tmp/w32.txt"
check "explain names the tree it runs from" 'grep -q "^tree: commit [0-9a-f]\{12\}" "$tmp/bias.txt"' "$tmp/bias.txt"
"$RB" explain --candidate arc2 "$O:bias_add64" >"$tmp/arc2.txt" 2>&1; rc=$?
check "arc2 as candidate: its two arcs printed, explained" '[ $rc -eq 0 ] && grep -q "arc2 r[0-9] after: .*r64=\[0x7ffffffffffffffc..0x8000000000000004\]&\[" "$tmp/arc2.txt"' "$tmp/arc2.txt"
"$RB" explain --no-counterfactual "$O:bias_add64" >"$tmp/nocf.txt" 2>&1; rc=$?
check "without the counterfactual a change is not explained (exit 1)" '[ $rc -eq 1 ] && grep -q "^counterfactual: not run" "$tmp/nocf.txt"' "$tmp/nocf.txt"

"$RB" explain >/dev/null 2>&1; rc=$?
check "no argument: exit 2" '[ $rc -eq 2 ]'
"$RB" explain --baseline nosuch "$O:bias_add64" >"$tmp/k.txt" 2>&1; rc=$?
check "an unknown side: exit 2, named" '[ $rc -eq 2 ] && grep -q "names an engine tracker" "$tmp/k.txt"' "$tmp/k.txt"
"$RB" explain "$O:nosuch" >"$tmp/np.txt" 2>&1; rc=$?
check "unknown program: exit 2, named" '[ $rc -eq 2 ] && grep -q "no program .nosuch." "$tmp/np.txt"' "$tmp/np.txt"
"$RB" explain /nonexistent.o >/dev/null 2>&1; rc=$?
check "missing object: exit 2" '[ $rc -eq 2 ]'

rc=$five_rc
check "two causes: one counterfactual alone leaves a change" 'grep -q "^counterfactual: cnum given old.s r8 after insn 17: success, 32 insns -> verdict only" "$tmp/two.txt"' "$tmp/two.txt"
check "two causes: the second found, both together vanish (exit 0)" '[ $rc -eq 0 ] && grep -q "^further causes: insn 19 r6 (wrap across 2^63)$" "$tmp/two.txt" && grep -q "^counterfactual with all 2 causes: cnum given old.s value sets: success, 41 insns -> vanished" "$tmp/two.txt"' "$tmp/two.txt"

# a prune made by one side only on equal current values (7.2's stack
# liveness per half slot): the decision itself is given to the other side
"$RB" explain --baseline old --candidate old@7.2 "${RB_TEST_BIN:-build/test}/objects/profile72.bpf.o:half_slot_join" >"$tmp/prune.txt" 2>&1; rc=$?
check "a prune by one side only: class pruning difference, explained (exit 0)" '[ $rc -eq 0 ] && grep -q "^parting: .*at insn 16 old@7.2 prunes the state, old explores on" "$tmp/prune.txt" && grep -q "^class: *pruning difference (stored states)$" "$tmp/prune.txt"' "$tmp/prune.txt"
check "its counterfactual: old prunes there too, the change vanishes" 'grep -q "^counterfactual: old prunes at insn 16 as old@7.2 does: success, 39 insns -> vanished" "$tmp/prune.txt"' "$tmp/prune.txt"
