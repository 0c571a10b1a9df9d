#!/usr/bin/env bash
# safe_fields.sh — the trust of fields walked from trusted pointers
# (src/engine/btf.c safe_field, profile.h safe_fields_72) on
# tests/objects/safe_fields.bpf.o: every program equal to the running
# kernel (kdiff: logs, verdicts, counts; skipped where bpf() is not
# permitted), and the 7.2 profile's counts and types as Linux 7.2.13 gives
# them, measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --log --tracker kernel-7.2 build/test/objects/safe_fields.bpf.o
# (Debian sid's 7.2.13 in QEMU: vma_fields 17 insns, the others 7, as 6.18.44).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/safe_fields.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/kdiff_each.sh
. tests/cli/lib/pin72.sh

kdiff_every_program "$OBJ" safe_fields
pin72 "$OBJ:vma_fields" success,17,1
for p in mm_exe skb_sk dentry_inode cgroup_kn; do
	pin72 "$OBJ:$p" success,7,0
done
"$RB" verify --log --tracker cnum-mainline@7.2 "$OBJ" >"$tmp/72.log" 2>&1
"$RB" verify --log --tracker old "$OBJ" >"$tmp/618.log" 2>&1
check "vm_mm and vm_file: trusted or NULL in 7.2 (as 7.2.13 logs them)" \
	'grep -q "R3=trusted_ptr_or_null_mm_struct(id=1)" "$tmp/72.log" && grep -q "R2=trusted_ptr_or_null_file(id=2)" "$tmp/72.log"' "$tmp/72.log"
check "vm_mm and vm_file: untrusted in 6.18" \
	'grep -q "R3=untrusted_ptr_mm_struct()" "$tmp/618.log" && grep -q "R2=untrusted_ptr_file()" "$tmp/618.log"' "$tmp/618.log"
for prof in 72 618; do
	check "exe_file and sk: RCU or NULL; d_inode trusted or NULL ($prof)" \
		'grep -q "R1=rcu_ptr_or_null_file(id=1)" "$tmp/$prof.log" && grep -q "R1=rcu_ptr_or_null_sock(id=1)" "$tmp/$prof.log" && grep -q "R1=trusted_ptr_or_null_inode(id=1)" "$tmp/$prof.log"' "$tmp/$prof.log"
done
