#!/usr/bin/env bash
# rbtree_walk.sh — bpf_rbtree_root, bpf_rbtree_left and bpf_rbtree_right
# (src/engine/graph.c) on tests/objects/clang19/rbtree_walk.bpf.o: every
# program's log, verdict and counts equal the running kernel's (Linux
# 6.18.44, kdiff), and both engine profiles give what Linux 7.2.13 gave in
# its QEMU guest (2026-12-06, the same counts as 6.18.44), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/rbtree_walk.bpf.o
# Before, the three kfuncs were unsupported.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/rbtree_walk.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" rbtree_walk

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
search|success,257,18
add_then_left|success,40,4
root_unlocked|failure,3,0
right_after_unlock|failure,19,2
left_of_null|failure,8,0
left_in_less|failure,20,2
ROWS

check "the root's child is non-owning, gone at the unlock" \
	'rb_msg old "$OBJ:right_after_unlock" | grep -q "R6 invalid mem access .scalar."'
check "bpf_rbtree_left is not called in the less callback" \
	'rb_msg cnum-mainline@7.2 "$OBJ:left_in_less" | grep -q "bpf_rbtree_left not allowed in rbtree cb"'
"$RB" verify --log --tracker old "$OBJ:add_then_left" >"$tmp/l.log" 2>&1
check "bpf_rbtree_left gives a non-owning node, maybe NULL" \
	'grep -q "call bpf_rbtree_left#[0-9]* *; R0=ptr_or_null_rb_tnode(id=[0-9]*,non_own_ref)" "$tmp/l.log"' "$tmp/l.log"
