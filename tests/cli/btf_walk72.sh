#!/usr/bin/env bash
# btf_walk72.sh — the trust of a pointer walked from a BTF pointer
# (src/engine/btf.c walked_flags72, profile.h btf_walk_plain) on
# tests/objects/btf_walk72.bpf.o: the 6.18 profile against the running
# kernel (kdiff: logs, verdicts and counts; skipped where bpf() is not
# permitted), the 7.2 profile pinned to Linux 7.2.13's verdicts and counts,
# measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/btf_walk72.bpf.o
# (Debian sid's 7.2.13 in QEMU). union_member: without the union rule the
# 7.2 profile loaded nh_info as a plain ptr_nh_info (same counts).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/btf_walk72.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" btf_walk72

. tests/cli/lib/pin72.sh
pin72 "$OBJ:trusted_field" success,8,1 success,8,1
pin72 "$OBJ:vma_file_path" success,13,1 failure,9,0
pin72 "$OBJ:file_sock_storage" success,20,2 failure,9,0
rb_logs cnum-mainline@7.2 "$OBJ" trusted_field union_member
"$RB" verify --log --tracker old "$OBJ:trusted_field" >"$tmp/618.log" 2>&1
check "a trusted task's mm: plain ptr_ in 7.2, untrusted in 6.18" \
	'grep -q "R1=ptr_mm_struct()" "$tmp/trusted_field.vlog" && grep -q "R1=untrusted_ptr_mm_struct()" "$tmp/618.log"' "$tmp/trusted_field.vlog"
pin72 "$OBJ:union_member" success,13,1
check "a plain nexthop's nh_info, in a union of two: untrusted in 7.2, as 7.2.13 logs it" \
	'grep -q "^5: (79) r1 = \*(u64 \*)(r1 +128) *; R1=untrusted_ptr_nh_info()$" "$tmp/union_member.vlog" && grep -q "^3: (79) r1 = \*(u64 \*)(r1 +192) *; R1=ptr_nexthop()$" "$tmp/union_member.vlog"' "$tmp/union_member.vlog"
