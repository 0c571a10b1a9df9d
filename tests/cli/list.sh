#!/usr/bin/env bash
# list.sh — linked lists of allocated objects under a bpf_spin_lock and
# bpf_refcount_acquire (src/engine/graph.c, alloc_obj.c) on
# tests/objects/clang19/list.bpf.o: every program's log, verdict and
# counts equal the running kernel's (Linux 6.18.44, kdiff), and both engine
# profiles give what Linux 7.2.13 gave in its QEMU guest (2026-12-06, the
# same counts as 6.18.44; refcount_plain: 7.2.13 names the argument "R1",
# the engine "arg#0" as 6.18.44), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/list.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/list.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" list

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
push_pop|success,32,3
push_peek|success,34,3
push_unlocked|failure,13,0
use_after_unlock|failure,20,2
pop_leak|failure,12,1
wrong_list|failure,13,1
refcount_owning|success,31,3
refcount_non_owning|success,32,3
refcount_null|failure,21,2
refcount_plain|failure,8,0
array_head|success,22,2
nested_head|success,31,3
ROWS

check "the list needs its lock" \
	'rb_msg old "$OBJ:push_unlocked" | grep -q "bpf_spin_lock at off=0 must be held for bpf_list_head"'
check "a node of another type is not pushed" \
	'rb_msg cnum-mainline@7.2 "$OBJ:wrong_list" | grep -q "operation on bpf_list_head expects arg#1 bpf_list_node at offset=8 in struct lnode"'
check "bpf_refcount_acquire needs a bpf_refcount field" \
	'rb_msg old "$OBJ:refcount_plain" | grep -q "doesn.t point to a type with bpf_refcount field"'
rb_logs old "$OBJ" refcount_non_owning refcount_owning push_pop
check "a pushed refcounted node is a non-owning RCU pointer" \
	'grep -q "R7=rcu_ptr_rnode(non_own_ref)" "$tmp/refcount_non_owning.vlog"' "$tmp/refcount_non_owning.vlog"
check "refcount_acquire of a non-owning node may be NULL" \
	'grep -q "call bpf_refcount_acquire_impl#[0-9]* *; R0=ptr_or_null_rnode(id=[0-9]*,ref_obj_id=[0-9]*)" "$tmp/refcount_non_owning.vlog"' "$tmp/refcount_non_owning.vlog"
check "refcount_acquire of an owning node is not NULL" \
	'grep -q "call bpf_refcount_acquire_impl#[0-9]* *; R0=ptr_rnode(ref_obj_id=[0-9]*)" "$tmp/refcount_owning.vlog"' "$tmp/refcount_owning.vlog"
check "a popped node is owning and may be NULL" \
	'grep -q "call bpf_list_pop_back#[0-9]* *; R0=ptr_or_null_lnode(id=[0-9]*,ref_obj_id=[0-9]*,off=8)" "$tmp/push_pop.vlog"' "$tmp/push_pop.vlog"

# 7.2.13's implicit-argument forms and bpf_list_add/del/is_first/empty
# (profile.h graph_kfuncs_72) and the id of a non-NULL acquired reference
# (acquire_sets_id): tests/objects/clang19/list72.bpf.o, whose kfuncs only
# 7.2.13's BTF has (the kernel cache's kernel-7.2 inputs/btf; skipped
# without it). 7.2.13's rows, measured in its guest (2026-12-06) with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/list72.bpf.o
# (acquire_join with acquire_sets_id off: 49 insns, 5 states)
O72=${RB_TEST_OBJECTS:-build/test/objects}/clang19/list72.bpf.o
btf=$(ls "${RB_KERNEL_CACHE:-build/kernels}"/linux-image-7.2*/inputs/btf 2>/dev/null | head -1)
if [ -z "$btf" ]; then
	ok "list72 in the 7.2 profile # skip no kernel-7.2 BTF in the kernel cache (a kernel-7.2 guest run writes it)"
else
	# the three rows in one verify (a --tracker each: the tracker third)
	"$RB" verify --csv --btf "$btf" --tracker cnum-mainline@7.2 --tracker old@7.2 --tracker old "$O72" >"$tmp/l72.csv" 2>"$tmp/l72.err"
	for t in cnum-mainline@7.2 old@7.2; do
		while IFS='|' read -r prog want; do
			got=$(awk -F, -v p="$prog" -v t="$t" '$2 == p && $3 == t { print $4 "," $6 "," $7 }' "$tmp/l72.csv")
			check "$t $prog: 7.2.13's $want" '[ "$got" = "$want" ]' "$tmp/l72.csv"
		done <<'ROWS'
add_del|success,47,5
list_and_tree|success,40,4
empty_unlocked|failure,3,0
acquire_join|success,43,4
ROWS
	done
	{ grep '^list72.bpf.o,add_del,old,' "$tmp/l72.csv"; cat "$tmp/l72.err"; } >"$tmp/l618.csv"
	check "the 6.18 profile has no bpf_obj_new (6.18.44: the _impl form only)" \
		'grep -q "calling kernel function bpf_obj_new is not allowed" "$tmp/l618.csv"' "$tmp/l618.csv"
fi
