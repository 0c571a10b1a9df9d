#!/usr/bin/env bash
# kptr_field.sh — plain loads and stores of a map value's kptr fields
# (src/engine/kptr_access.c) on tests/objects/clang19/kptr_field.bpf.o:
# a referenced kernel kptr (RCU-protected type), an untrusted one, a kptr of
# the program's own type and a per-CPU one, read, written, misread and
# touched by a helper. Every program's log, verdict and counts equal the
# running kernel's (Linux 6.18.44, kdiff), and both engine profiles give
# what Linux 7.2.13 gave in its QEMU guest (2026-12-06, the same counts as
# 6.18.44), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/kptr_field.bpf.o
# Before: the engine read every kptr field as a number (ld_* failed where
# the kernel accepts, st_ref, st_unref_wrong, ld_size4 and helper_over were
# accepted where it refuses), and bpf_kptr_xchg into a kptr of an allocated
# object (xchg_in_obj*) was unsupported.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/kptr_field.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

# in one kdiff process (kdiff_some: each program's report and checks as
# kdiff_one's, and the process's exit code checked against theirs)
kdiff_some "$OBJ" kptr_field "" ld_ref ld_ref_unchecked ld_unref ld_unref_kfunc ld_local ld_local_write ld_percpu \
	st_ref st_unref_null st_unref_copy st_unref_wrong ld_size4 helper_over ld_ref_sleepable xchg_in_obj xchg_in_obj_off

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
ld_ref|success,15,1
ld_ref_unchecked|failure,9,0
ld_unref|success,14,1
ld_unref_kfunc|failure,10,1
ld_local|success,16,1
ld_local_write|success,15,1
ld_percpu|success,20,2
st_ref|failure,9,0
st_unref_null|success,13,1
st_unref_copy|success,8,0
st_unref_wrong|failure,9,0
ld_size4|failure,8,0
helper_over|failure,13,0
ld_ref_sleepable|failure,10,1
xchg_in_obj|success,26,2
xchg_in_obj_off|failure,12,1
ROWS

rb_logs old "$OBJ" ld_ref ld_unref ld_percpu ld_ref_sleepable
check "a referenced kptr of an RCU-protected type loads as an RCU pointer, maybe NULL" \
	'grep -q "R1=rcu_ptr_or_null_bpf_cpumask(id=[0-9]*)" "$tmp/ld_ref.vlog"' "$tmp/ld_ref.vlog"
check "an untrusted kptr loads untrusted, maybe NULL" \
	'grep -q "R1=untrusted_ptr_or_null_bpf_cpumask(id=[0-9]*)" "$tmp/ld_unref.vlog"' "$tmp/ld_unref.vlog"
check "a per-CPU kptr loads as a per-CPU RCU pointer, bpf_per_cpu_ptr of it an RCU object never NULL" \
	'grep -q "R1=percpu_rcu_ptr_or_null_val_t(id=[0-9]*)" "$tmp/ld_percpu.vlog" && grep -q "call bpf_per_cpu_ptr#153 *; R0=rcu_ptr_val_t()" "$tmp/ld_percpu.vlog"' "$tmp/ld_percpu.vlog"
check "a sleepable program outside an RCU section loads it untrusted" \
	'grep -q "R1=untrusted_ptr_or_null_bpf_cpumask(id=[0-9]*)" "$tmp/ld_ref_sleepable.vlog"' "$tmp/ld_ref_sleepable.vlog"
check "a store into a referenced kptr is refused" \
	'rb_msg old "$OBJ:st_ref" | grep -q "store to referenced kptr disallowed"'
check "bpf_kptr_xchg stores into a kptr of an allocated object" \
	'rb_msg old "$OBJ:xchg_in_obj_off" | grep -q "off=0 doesn.t point to kptr"'
check "a helper may not write over a kptr" \
	'rb_msg old "$OBJ:helper_over" | grep -q "kptr cannot be accessed indirectly by helper"'
