#!/usr/bin/env bash
# res_lock.sh — bpf_res_spin_lock / bpf_res_spin_unlock (src/engine/locks.c)
# on tests/objects/res_lock.bpf.o: every program's log, verdict and counts
# equal the running kernel's (Linux 6.18.44, kdiff), and both engine
# profiles give the verdict, instructions and states Linux 7.2.13 gave in
# its QEMU guest (2026-12-06, the same as 6.18.44 for every program),
# measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/res_lock.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/res_lock.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_every_program "$OBJ" res_lock

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
global_lock|success,18,1
map_lock|success,30,3
error_range|success,25,2
nested|success,31,3
unchecked|failure,9,1
out_of_order|failure,12,1
aa_deadlock|failure,10,0
exit_locked|failure,10,1
helper_locked|failure,9,0
direct_read|failure,9,0
wrong_off|failure,12,0
lock_in_subprog|success,68,7
ROWS

check "the failed acquisition holds no lock" \
	'rb_msg old "$OBJ:unchecked" | grep -q "bpf_res_spin_unlock without taking a lock"'
check "locks are released in the reverse order" \
	'rb_msg cnum-mainline@7.2 "$OBJ:out_of_order" | grep -q "bpf_res_spin_unlock cannot be out of order"'
check "the same lock twice is an AA deadlock" \
	'rb_msg old "$OBJ:aa_deadlock" | grep -q "Acquiring the same lock again, AA deadlock detected"'
# the failed branch's R0: 6.18.44 narrows the 32-bit range only, 7.2.13
# the 64-bit one too (profile.h res_lock_err_s64)
"$RB" verify --log --tracker old "$OBJ:global_lock" >"$tmp/618.log" 2>&1
"$RB" verify --log --tracker old@7.2 "$OBJ:global_lock" >"$tmp/72.log" 2>&1
check "6.18: the error code narrows R0's 32-bit range" \
	'grep -q "^from 3 to 4: R0=scalar(smin=0x80000000fffff001,umin=umin32=0xfffff001,smin32=-4095,smax32=-1," "$tmp/618.log"' "$tmp/618.log"
check "7.2: and its 64-bit range" \
	'grep -q "^from 3 to 4: R0=scalar(smin=smin32=-4095,smax=smax32=-1,umin=0xfffffffffffff001," "$tmp/72.log"' "$tmp/72.log"
