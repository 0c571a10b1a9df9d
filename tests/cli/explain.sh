#!/usr/bin/env bash
# explain.sh — `rangebench explain` on the worked examples
# (tests/objects/explain_examples.bpf.c): where old and cnum part, the
# instruction where the deciding register's value sets first differ, both
# sides' values in their own terms (cnum's arcs), the source line, the
# cause class and the counterfactual check; no change on a program both
# explore alike; bad usage exits 2.
source "$(dirname "$0")/lib/tap.sh"
RB=${RB:-build/test/rangebench}
O=${RB_TEST_BIN:-build/test}/objects/explain_examples.bpf.o

"$RB" explain "$O:bias_add64" >"$tmp/bias.txt" 2>&1; rc=$?
check "bias_add64: explained (exit 0)" '[ $rc -eq 0 ]' "$tmp/bias.txt"
check "bias_add64: old stops, cnum goes on" 'grep -q "^parting: .* old stops (failure: math between map_value pointer and register with unbounded min value" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: cause is the add of 2^63" 'grep -q "^cause: *insn [0-9]*: (0f) r[0-9] += r[0-9]$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: class wrap across 2^63" 'grep -q "^class: *wrap across 2^63$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: cnum's arc after the add, in its own terms" 'grep -q "cnum r[0-9] after: .*r64=\[0x7ffffffffffffffc..0x8000000000000004\] (size 0x8)" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: old's value after the add lost its 64-bit bounds" 'grep -q "old r[0-9] after:  scalar smin32=-4,smax32=4$" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: source line from BTF" 'grep -q "^source: *explain_examples.bpf.c:[0-9]*: asm volatile" "$tmp/bias.txt"' "$tmp/bias.txt"
check "bias_add64: counterfactual, cnum given old's value, vanishes" 'grep -q "^counterfactual: cnum given old.s r[0-9] after insn [0-9]*: failure, 19 insns -> vanished" "$tmp/bias.txt"' "$tmp/bias.txt"

"$RB" explain "$O:abs_window_neg" >"$tmp/abs.txt" 2>&1; rc=$?
check "abs_window_neg: explained (exit 0)" '[ $rc -eq 0 ]' "$tmp/abs.txt"
check "abs_window_neg: cnum stops at the access" 'grep -q "cnum stops (failure: R7 max value is outside of the allowed memory range)" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: deciding r7, followed back to the index" 'grep -q "^deciding: *r7 " "$tmp/abs.txt" && grep -q "followed back 1 def-use step" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: cause is the unsigned check x > -5" 'grep -q "^cause: *insn [0-9]*: (25) if r[0-9] > 0xfffffffb goto" "$tmp/abs.txt" && grep -q "^source: .*(__u64)x > (__u64)-5" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: class two-run set lost by one arc" 'grep -q "^class: *two-run set lost by one arc$" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: old keeps both runs (umin=5, umax=-5)" 'grep -q "old r[0-9] after:  scalar smin=smin32=-10,smax=smax32=10,umin=5,umax=0xfffffffffffffffb$" "$tmp/abs.txt"' "$tmp/abs.txt"
check "abs_window_neg: the reverse counterfactual vanishes" 'grep -q "^counterfactual: old given cnum.s r[0-9] after insn [0-9]*: failure, 22 insns -> vanished" "$tmp/abs.txt"' "$tmp/abs.txt"

"$RB" explain "$O" >"$tmp/all.txt" 2>&1; rc=$?
check "whole object: the two changed programs, not the unchanged one" '[ $rc -eq 0 ] && [ $(grep -c "^class:" "$tmp/all.txt") -eq 2 ] && ! grep -q same_both "$tmp/all.txt"' "$tmp/all.txt"
"$RB" explain "$O:same_both" >"$tmp/same.txt" 2>&1; rc=$?
check "same_both: identical explorations, exit 0" '[ $rc -eq 0 ] && grep -q "^explorations: identical" "$tmp/same.txt"' "$tmp/same.txt"
"$RB" explain --candidate arc2 "$O:bias_add64" >"$tmp/arc2.txt" 2>&1; rc=$?
check "arc2 as candidate: its two arcs printed, explained" '[ $rc -eq 0 ] && grep -q "arc2 r[0-9] after: .*r64=\[0x7ffffffffffffffc..0x8000000000000004\]&\[" "$tmp/arc2.txt"' "$tmp/arc2.txt"
"$RB" explain --no-counterfactual "$O:bias_add64" >"$tmp/nocf.txt" 2>&1; rc=$?
check "without the counterfactual a change is not explained (exit 1)" '[ $rc -eq 1 ] && grep -q "^counterfactual: not run" "$tmp/nocf.txt"' "$tmp/nocf.txt"

"$RB" explain >/dev/null 2>&1; rc=$?
check "no argument: exit 2" '[ $rc -eq 2 ]'
"$RB" explain --baseline kernel "$O:bias_add64" >"$tmp/k.txt" 2>&1; rc=$?
check "kernel as a side: exit 2, named" '[ $rc -eq 2 ] && grep -q "names an engine tracker" "$tmp/k.txt"' "$tmp/k.txt"
"$RB" explain "$O:nosuch" >"$tmp/np.txt" 2>&1; rc=$?
check "unknown program: exit 2, named" '[ $rc -eq 2 ] && grep -q "no program .nosuch." "$tmp/np.txt"' "$tmp/np.txt"
"$RB" explain /nonexistent.o >/dev/null 2>&1; rc=$?
check "missing object: exit 2" '[ $rc -eq 2 ]'
