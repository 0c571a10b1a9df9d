#!/usr/bin/env bash
# alloc_obj.sh — objects a program allocates (src/engine/alloc_obj.c) and
# the kptr exchange (src/engine/kptrs.c) on tests/objects/clang19/
# alloc_obj.bpf.o: every program's verdict, instructions and states equal
# the running kernel's (Linux 6.18.44; kdiff: the logs too, but for take,
# where 6.18.44 prints R0 after the exchange on a line of its own), and
# both engine profiles give what Linux 7.2.13 gave in its QEMU guest
# (2026-12-06, the same as 6.18.44 for every program), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/alloc_obj.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/alloc_obj.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_some "$OBJ" alloc_obj "" new_stash leak use_after_drop no_null_check past_end

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
new_stash|success,36,3
take|success,22,2
leak|failure,11,1
use_after_drop|failure,10,1
no_null_check|failure,6,0
past_end|failure,6,0
ROWS

"$RB" verify --log --tracker old "$OBJ:new_stash" >"$tmp/ns.log" 2>&1
check "bpf_obj_new gives a referenced allocated object, maybe NULL" \
	'grep -q "R0=ptr_or_null_rb_anode(id=3,ref_obj_id=3) refs=3" "$tmp/ns.log"' "$tmp/ns.log"
check "bpf_kptr_xchg releases it and acquires the old one" \
	'grep -q "call bpf_kptr_xchg#194 *; R0=ptr_or_null_rb_anode(id=5,ref_obj_id=5) refs=5" "$tmp/ns.log"' "$tmp/ns.log"
check "a dropped object's registers are gone" \
	'rb_msg old "$OBJ:use_after_drop" | grep -q "R6 invalid mem access '"'"'scalar'"'"'"'
check "loads stay within the object's struct" \
	'rb_msg cnum-mainline@7.2 "$OBJ:past_end" | grep -q "access beyond struct rb_anode at off 16 size 8"'
