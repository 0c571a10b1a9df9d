#!/usr/bin/env bash
# stack_live72.sh — the 7.2 profile's static stack liveness and the
# cleaning of the current state at prune points (src/engine/stack_live72.c,
# profile.h static_stack_liveness) on tests/objects/stack_live72.bpf.o: the
# 6.18 profile against the running kernel (kdiff: logs, verdicts and
# counts; skipped where bpf() is not permitted), the 7.2 profile pinned to
# Linux 7.2.13's verdicts and counts, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/stack_live72.bpf.o
# (Debian sid's 7.2.13 in QEMU): key_half_dead success,19,1 and
# key_in_callee success,23,2; 6.18.44 success,21,2 and success,27,3 (the
# 7.2 profile before the switch gave 6.18's counts).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/stack_live72.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" stack_live72

. tests/cli/lib/pin72.sh
pin72 "$OBJ:key_half_dead" success,19,1 success,21,2
pin72 "$OBJ:key_in_callee" success,23,2 success,27,3
# the second lookup's result: not NULL in 7.2 (its key is a 4-byte spill
# once fp-4..fp-1 are poisoned), maybe NULL in 6.18
"$RB" verify --log --tracker cnum-mainline@7.2 "$OBJ:key_half_dead" >"$tmp/72.log" 2>&1
"$RB" verify --log --tracker old "$OBJ:key_half_dead" >"$tmp/618.log" 2>&1
check "key_half_dead: 7.2 elides the second lookup's NULL, 6.18 does not" \
	'[ "$(grep -c "R0=map_value_or_null" "$tmp/72.log")" = 1 ] && [ "$(grep -c "R0=map_value_or_null" "$tmp/618.log")" = 2 ]' "$tmp/72.log"
