#!/usr/bin/env bash
# profile72_ids2.sh — scalar ids in the 7.2 profile (src/engine/profile.h
# fill_assigns_id, widen_ignores_ids; both need clear_singular_ids, pinned
# in profile72.sh) on tests/objects/profile72_ids2.bpf.o: the 6.18 profile
# against the running kernel (kdiff: logs, verdicts and counts; skipped
# where bpf() is not permitted), the 7.2 profile pinned to Linux 7.2.13's
# verdicts and counts, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/profile72_ids2.bpf.o
# (Debian sid's 7.2.13 in QEMU; kdiff --kernel kernel-7.2 --trace: the same
# trace as cnum-mainline@7.2): fill_links_slot success,30,3 and
# loop_widen_ids success,15,1, the same as 6.18.44. Without the switch the
# 7.2 profile gives fill_links_slot failure,22,2 ("math between map_value
# pointer and register with unbounded min value") and loop_widen_ids
# success,21,2 (measured with each switch turned off in profile.c).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_ids2.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" profile72_ids2

. tests/cli/lib/pin72.sh
pin72 "$OBJ:fill_links_slot" success,30,3
pin72 "$OBJ:loop_widen_ids" success,15,1

# the fill after the checkpoint: 7.2.13 logs a new id shared by register
# and slot (the spill's id 1 was dropped as singular); 6.18.44 keeps id 1
"$RB" verify --log --tracker old@7.2 "$OBJ:fill_links_slot" >"$tmp/72.log" 2>&1
check "fill_links_slot @7.2: the fill links register and slot with a new id, as 7.2.13 logs it" \
	'grep -q "^19: (79) r2 = \*(u64 \*)(r10 -16) *; R2=scalar(id=2) R10=fp0 fp-16=scalar(id=2)$" "$tmp/72.log"' "$tmp/72.log"
"$RB" verify --log --tracker old "$OBJ:fill_links_slot" >"$tmp/618.log" 2>&1
check "fill_links_slot (6.18): the spill's id 1 is kept" \
	'grep -q "^19: (79) r2 = \*(u64 \*)(r10 -16) *; R2=scalar(id=1) R10=fp0 fp-16=scalar(id=1)$" "$tmp/618.log"' "$tmp/618.log"
