#!/usr/bin/env bash
# profile72_jmp.sh — the linked scalars of a conditional jump in the 7.2
# profile (src/engine/profile.h linked_regs_first) on
# tests/objects/profile72_jmp.bpf.o: the 6.18 profile against the running
# kernel (kdiff: logs, verdicts and counts; skipped where bpf() is not
# permitted), the 7.2 profile pinned to Linux 7.2.13's verdicts and counts,
# measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/profile72_jmp.bpf.o
# (Debian sid's 7.2.13 in QEMU; kdiff --kernel kernel-7.2 --trace: the same
# trace as cnum-mainline@7.2): linked_first success,16,1, as 6.18.44 (which
# forks at `if r6 < r6`, where 7.2.13 knows the outcome). Without the switch
# the 7.2 profile gave success,13,1: r9 kept its id and `if r9 > 10` was
# decided. The 6.18 profile is checked against the running kernel by kdiff.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_jmp.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" profile72_jmp

. tests/cli/lib/pin72.sh
# not pin72: old@7.2 (7.2 with the old tracker) forks at `if r6 < r6` as
# 6.18 does (deciding a register against itself is the tracker's
# branch_taken_same), so its count is its own
got=$(rb_row cnum-mainline@7.2 "$OBJ:linked_first")
check "linked_first: cnum-mainline@7.2 gives 7.2.13's success,16,1" '[ "$got" = success,16,1 ]'
got=$(rb_row old "$OBJ:linked_first")
check "linked_first: old (6.18 profile) gives 6.18.44's success,16,1" '[ "$got" = success,16,1 ]'

# `if r6 < r6` is decided in 7.2 and r9, the sixth link collected, loses its id
"$RB" verify --log --tracker cnum-mainline@7.2 "$OBJ:linked_first" >"$tmp/72.log" 2>&1
check "linked_first @7.2: r9 is not bounded with r6 and r7, as 7.2.13 logs it" \
	'grep -q "^7: (25) if r9 > 0xa goto pc+2 *; R9=scalar(smin=smin32=0,smax=umax=smax32=umax32=10,var_off=(0x0; 0xf))$" "$tmp/72.log" && grep -q "^5: R6=scalar(id=1)$" "$tmp/72.log"' "$tmp/72.log"
