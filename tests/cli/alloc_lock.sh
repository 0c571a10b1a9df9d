#!/usr/bin/env bash
# alloc_lock.sh — a bpf_spin_lock and list / rbtree roots inside allocated
# objects (src/engine/alloc_lock.c, graph.c, locks.c) on
# tests/objects/clang19/alloc_lock.bpf.o: every program's log, verdict and
# counts equal the running kernel's (Linux 6.18.44, kdiff), and both engine
# profiles give what Linux 7.2.13 gave in its QEMU guest (2026-12-06, the
# same counts as 6.18.44 but for xchg_in_lock: 7.2.13 lets bpf_kptr_xchg
# run under a lock, profile.h kptr_xchg_in_lock), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/alloc_lock.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/alloc_lock.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" alloc_lock

# program|7.2.13's verdict,insns,states|6.18.44's (when they differ)
while IFS='|' read -r prog want k618; do
	pin72 "$OBJ:$prog" "$want" $k618
done <<'ROWS'
box_list|success,42,3
box_tree|success,63,7
box_unlocked|failure,16,1
box_other_lock|failure,24,2
box_lock_global_list|failure,18,1
box_non_owning_lock|failure,17,2
plain_lock|failure,9,0
box_lock_off|failure,9,0
box_two_locks|failure,9,1
box_kfunc_in_lock|failure,10,1
rc_two_refs|failure,27,2
rc_one_ref|success,36,4
box_lock_exit|failure,8,0
xchg_in_lock|success,21,2|failure,10,1
ROWS

check "a box's list needs the box's own lock" \
	'rb_msg old "$OBJ:box_other_lock" | grep -q "bpf_spin_lock at off=0 must be held for bpf_list_head"'
check "an object without a lock has none to take" \
	'rb_msg cnum-mainline@7.2 "$OBJ:plain_lock" | grep -q "local .kptr. has no valid bpf_spin_lock"'
check "no kfunc but the graph ones under an object's lock" \
	'rb_msg old "$OBJ:box_kfunc_in_lock" | grep -q "function calls are not allowed while holding a lock"'
"$RB" verify --log --tracker old "$OBJ:rc_two_refs" >"$tmp/rc.log" 2>&1
check "bpf_refcount_acquire's owning R0 of a struct with a lock has an id (6.18)" \
	'grep -q "call bpf_refcount_acquire_impl#[0-9]* *; R0=ptr_rcbox(id=[0-9]*,ref_obj_id=[0-9]*)" "$tmp/rc.log"' "$tmp/rc.log"
check "6.18 refuses bpf_kptr_xchg under a lock" \
	'rb_msg old "$OBJ:xchg_in_lock" | grep -q "function calls are not allowed while holding a lock"'
