#!/usr/bin/env bash
# no_license_btf.sh — a program without a GPL-compatible licence may not
# read kernel structs through BTF pointers (src/engine/btf.c rb_btf_load;
# 6.18 and 7.2.13 check_ptr_to_btf_access) on tests/objects/no_license_btf.bpf.o:
# kdiff against the running kernel (skipped where bpf() is not permitted),
# and Linux 7.2.13's counts (measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/no_license_btf.bpf.o
# in Debian sid's 7.2.13 under QEMU); --license GPL lets the reads through.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/no_license_btf.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/kdiff_each.sh
. tests/cli/lib/pin72.sh

kdiff_every_program "$OBJ" no_license_btf
pin72 "$OBJ:read_pid" failure,2,0
pin72 "$OBJ:iter_pid" failure,4,0
check "the refusal names the struct" \
	'rb_msg old "$OBJ:read_pid" | grep -q "Cannot access kernel '"'"'struct task_struct'"'"' from non-GPL compatible program"'
got=$("$RB" verify --csv --license GPL --tracker old "$OBJ:read_pid" 2>/dev/null | awk -F, 'NR == 2 { print $3 }')
check "with --license GPL the read is allowed" '[ "$got" = success ]'
