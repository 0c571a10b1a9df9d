#!/usr/bin/env bash
# rbtree.sh — an rbtree of allocated objects under a bpf_spin_lock
# (src/engine/graph.c) on tests/objects/clang19/rbtree.bpf.o: every
# program's log, verdict and counts equal the running kernel's (Linux
# 6.18.44, kdiff), and both engine profiles give what Linux 7.2.13 gave in
# its QEMU guest (2026-12-06, the same counts as 6.18.44; add_twice: 7.2.13
# names the argument "R2", the engine "arg#1" as 6.18.44), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/rbtree.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/rbtree.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" rbtree

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
add_first_remove|success,55,6
read_while_locked|success,33,3
add_unlocked|failure,13,2
use_after_unlock|failure,20,2
add_twice|failure,22,3
remove_leak|failure,13,1
ROWS

check "the tree needs its lock" \
	'rb_msg old "$OBJ:add_unlocked" | grep -q "bpf_spin_lock at off=0 must be held for bpf_rb_root"'
check "an added node is non-owning: not added again" \
	'rb_msg cnum-mainline@7.2 "$OBJ:add_twice" | grep -q "expected pointer to allocated object"'
"$RB" verify --log --tracker old "$OBJ:read_while_locked" >"$tmp/rw.log" 2>&1
check "the less callback gets two non-owning nodes" \
	'grep -q "R1=ptr_rb_tnode(non_own_ref) R2=ptr_rb_tnode(non_own_ref)" "$tmp/rw.log"' "$tmp/rw.log"
