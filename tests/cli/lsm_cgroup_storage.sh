#!/usr/bin/env bash
# lsm_cgroup_storage.sh — bpf_get_local_storage from lsm_cgroup programs
# (src/engine/helpers.c check_modelled) on tests/objects/lsm_cgroup_storage.bpf.o,
# pinned to Linux 7.2.13's verdicts and counts (measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/lsm_cgroup_storage.bpf.o
# in Debian sid's 7.2.13 under QEMU). The 6.18 profile has no helper set for
# LSM programs (6.18.44 here refuses them): the helper stays unsupported.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/lsm_cgroup_storage.bpf.o
. tests/cli/lib/tap.sh

row() { "$RB" verify --csv --tracker "$1" "$OBJ:$2" 2>/dev/null | awk -F, 'NR == 2 { print $3 "," $5 "," $6 }'; }
for t in cnum-mainline@7.2 old@7.2; do
	got=$(row "$t" storage_bind)
	check "storage_bind: $t gives 7.2.13's success,11,1" '[ "$got" = "success,11,1" ]'
	got=$(row "$t" storage_flags)
	check "storage_flags: $t gives 7.2.13's failure,3,0" '[ "$got" = "failure,3,0" ]'
done
got=$(row old storage_bind)
check "storage_bind (6.18 profile): unsupported, no LSM helper set" '[ "${got%%,*}" = "unsupported" ]'
"$RB" verify --csv --tracker old@7.2 "$OBJ:storage_flags" >"$tmp/f.csv" 2>&1
check "non-zero flags are refused as the kernel words it" \
	'grep -q "get_local_storage() doesn'"'"'t support non-zero flags" "$tmp/f.csv"' "$tmp/f.csv"
