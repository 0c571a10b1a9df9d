#!/usr/bin/env bash
# percpu_obj.sh — per-CPU allocated objects (src/engine/alloc_obj.c:
# bpf_percpu_obj_new_impl / bpf_percpu_obj_drop_impl) and a __percpu_kptr
# field exchanged with bpf_kptr_xchg (src/engine/kptrs.c) on
# tests/objects/clang19/percpu_obj.bpf.o: every program's verdict,
# instructions and states equal the running kernel's (Linux 6.18.44; kdiff:
# the logs too, but for take_drop, where 6.18.44 prints R0 after the
# exchange on a line of its own), and both engine profiles give what Linux
# 7.2.13 gave in its QEMU guest (2026-12-06, the same counts as 6.18.44;
# drop_plain: 7.2.13 says "R1 expected for bpf_percpu_obj_drop()", 6.18.44
# "arg#0 expected for bpf_percpu_obj_drop_impl()"), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/percpu_obj.bpf.o
# Before: bpf_percpu_obj_new_impl was unsupported, the exchange of a percpu
# kptr too; keeping the object after the exchange stored it (an RCU
# pointer since, keep_after_xchg, drop_after_xchg) was unsupported.
# drop_after_xchg's 7.2.13 row was measured with the oracle that no longer
# loads a program again without BTF after a refusal whose message names
# BTF (src/oracle/kload.c): before, 7.2.13's "expects referenced
# PTR_TO_BTF_ID" made it retry and fail at 11 insns, "requires prog BTF".
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/percpu_obj.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_some "$OBJ" percpu_obj "" new_xchg_drop drop_plain deref not_scalar plain_into_percpu leak keep_after_xchg \
	drop_after_xchg

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
new_xchg_drop|success,27,2
take_drop|success,19,1
drop_plain|failure,7,0
deref|failure,7,0
not_scalar|failure,3,0
plain_into_percpu|failure,16,1
leak|failure,9,1
keep_after_xchg|success,31,2
drop_after_xchg|failure,24,2
ROWS

rb_logs old "$OBJ" new_xchg_drop keep_after_xchg
check "bpf_percpu_obj_new gives a referenced per-CPU object, maybe NULL" \
	'grep -q "R0=percpu_ptr_or_null_val_t(id=[0-9]*,ref_obj_id=[0-9]*)" "$tmp/new_xchg_drop.vlog"' "$tmp/new_xchg_drop.vlog"
check "the exchange gives back the old per-CPU object" \
	'grep -q "call bpf_kptr_xchg#[0-9]* *; R0=percpu_ptr_or_null_val_t(id=[0-9]*,ref_obj_id=[0-9]*)" "$tmp/new_xchg_drop.vlog"' "$tmp/new_xchg_drop.vlog"
check "a per-CPU object goes to bpf_percpu_obj_drop only" \
	'rb_msg old "$OBJ:drop_plain" | grep -q "arg#0 expected for bpf_percpu_obj_drop_impl()"'
check "the object the exchange stored is an RCU per-CPU pointer, no longer referenced" \
	'grep -q "(bf) r1 = r7 *; R1=percpu_rcu_ptr_val_t() R7=percpu_rcu_ptr_val_t()" "$tmp/keep_after_xchg.vlog"' "$tmp/keep_after_xchg.vlog"
