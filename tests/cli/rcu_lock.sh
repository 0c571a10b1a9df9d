#!/usr/bin/env bash
# rcu_lock.sh — RCU read sections (src/engine/rcu.c) on
# tests/objects/rcu_lock.bpf.o and the RCU programs of
# tests/objects/clang19/kptr_field.bpf.o: every program's log, verdict and
# counts equal the running kernel's (Linux 6.18.44, kdiff), and both engine
# profiles give what Linux 7.2.13 gave in its QEMU guest (2026-12-06),
# measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/rcu_lock.bpf.o
# 7.2.13 nests sections (profile.h rcu_nested): rcu_nested succeeds there
# at 6 insns where 6.18.44 refuses it at 2. Global subprograms that might
# sleep (gs_*) are refused in a section and in a non-sleepable program
# (6.18.44 and 7.2.13 check_func_call; the messages differ). Before:
# bpf_rcu_read_lock and bpf_rcu_read_unlock were unsupported, and gs_tp
# failed later, inside the subprogram.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/rcu_lock.bpf.o
KOBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/kptr_field.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" rcu_lock
kdiff_some "$KOBJ" "kptr_field's rcu" "" ld_ref_rcu ld_ref_rcu_after

# program|7.2.13's verdict,insns,states|6.18.44's (when they differ)
while IFS='|' read -r prog want k618; do
	pin72 "$OBJ:$prog" "$want" $k618
done <<'ROWS'
rcu_pair|success,4,0
rcu_pair_tp|success,4,0
rcu_nested|success,6,0|failure,2,0
rcu_unmatched|failure,1,0
rcu_missing_unlock|failure,3,0
rcu_cond_unlock|failure,9,1
rcu_sleepable_helper|failure,7,0
rcu_sleepable_after|success,12,1
rcu_sleepable_kfunc|failure,8,0
rcu_branches|success,12,1
gs_helper|failure,6,0
gs_kfunc|failure,6,0
gs_indirect|failure,6,0
gs_badarg|failure,4,0
gs_after|success,20,2
gs_tp|failure,5,0
ROWS
pin72 "$KOBJ:ld_ref_rcu" success,19,2
pin72 "$KOBJ:ld_ref_rcu_after" failure,14,1

# both logs from one verify (two objects), each program's part from its
# "=== FILE:PROG (old) ===" line to the next such line
"$RB" verify --log --tracker old "$KOBJ:ld_ref_rcu_after" "$OBJ:gs_indirect" >"$tmp/two.log" 2>&1
awk -v dir="$tmp" '/^=== kptr_field\.bpf\.o:ld_ref_rcu_after \(old\) ===$/ { f = dir "/after.log" }
	/^=== rcu_lock\.bpf\.o:gs_indirect \(old\) ===$/ { f = dir "/gsi.log" } f { print >f }' "$tmp/two.log"
touch "$tmp/after.log" "$tmp/gsi.log"
check "the unlock makes the RCU kptr untrusted and no longer maybe NULL" \
	'grep -q "R7=rcu_ptr_or_null_bpf_cpumask(id=1)" "$tmp/after.log" && grep -q "goto pc+3 *; R7=untrusted_ptr_bpf_cpumask(id=1)" "$tmp/after.log"' "$tmp/after.log"
check "6.18 refuses a nested section" \
	'rb_msg old "$OBJ:rcu_nested" | grep -q "nested rcu read lock (kernel function bpf_rcu_read_lock)"'
check "6.18 refuses a global function that might sleep in a section with its three lines" \
	'grep -A2 "^global functions that may sleep are not allowed in non-sleepable context,$" "$tmp/gsi.log" | grep -q "^a non-sleepable BPF program context$"' "$tmp/gsi.log"
check "7.2 names the function and the section" \
	'rb_msg cnum-mainline@7.2 "$OBJ:gs_indirect" | grep -q "sleepable global function indirect() called in rcu_read_lock region"'
check "an open section at exit is refused" \
	'rb_msg cnum-mainline@7.2 "$OBJ:rcu_missing_unlock" | grep -q "cannot be used inside bpf_rcu_read_lock-ed region"'
