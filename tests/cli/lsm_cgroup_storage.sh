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

# rows_f VAR TRACKER: VAR = the file of both programs' rows by TRACKER, from
# one verify --csv made once (one process per tracker, not per tracker and
# program: ~0.25 s of CPU each); row TRACKER PROG: "verdict,insns,states"
rows_f() {
	printf -v "$1" '%s' "$tmp/rows.${2//[^a-z0-9]/_}.csv"
	[ -e "${!1}" ] || "$RB" verify --csv --tracker "$2" "$OBJ:storage_bind" "$OBJ:storage_flags" >"${!1}" 2>/dev/null
}
row() { local f; rows_f f "$1"; awk -F, -v p="$2" '$2 == p { print $3 "," $5 "," $6; exit }' "$f"; }
for t in cnum-mainline@7.2 old@7.2; do
	got=$(row "$t" storage_bind)
	check "storage_bind: $t gives 7.2.13's success,11,1" '[ "$got" = "success,11,1" ]'
	got=$(row "$t" storage_flags)
	check "storage_flags: $t gives 7.2.13's failure,3,0" '[ "$got" = "failure,3,0" ]'
done
got=$(row old storage_bind)
check "storage_bind (6.18 profile): unsupported, no LSM helper set" '[ "${got%%,*}" = "unsupported" ]'
rows_f f old@7.2
grep "^lsm_cgroup_storage.bpf.o,storage_flags," "$f" >"$tmp/f.csv"
check "non-zero flags are refused as the kernel words it" \
	'grep -q "get_local_storage() doesn'"'"'t support non-zero flags" "$tmp/f.csv"' "$tmp/f.csv"
