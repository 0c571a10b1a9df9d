#!/usr/bin/env bash
# obj_drop_nmi.sh — 7.2.13's refusal of bpf_obj_drop in programs that may
# run in NMI context on types with fields not NMI-safe (profile.h
# obj_drop_nmi_fields; src/engine/alloc_obj.c) on
# tests/objects/clang19/obj_drop_nmi.bpf.o: the programs the running kernel
# (Linux 6.18.44) verifies are kdiff-equal to it (it accepts every drop),
# and both engine profiles give what Linux 7.2.13 gave in its QEMU guest
# (2026-12-06), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/obj_drop_nmi.bpf.o
# The fentry programs are refused by 6.18.44 here (lockdown): their 6.18
# row is the engine's.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/obj_drop_nmi.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh
. tests/cli/lib/kdiff_each.sh

kdiff_some "$OBJ" obj_drop_nmi "" tp_kptr tp_safe tp_node tp_list tp_plain perf_kptr tp_btf_list tc_kptr

# program|7.2.13's verdict,insns,states|6.18.44's (when they differ)
while IFS='|' read -r prog want k618; do
	pin72 "$OBJ:$prog" "$want" $k618
done <<'ROWS'
tp_kptr|failure,7,0|success,10,1
tp_safe|success,10,1
tp_node|failure,7,0|success,10,1
tp_list|failure,7,0|success,10,1
tp_plain|success,10,1
perf_kptr|failure,7,0|success,10,1
tp_btf_list|failure,7,0|success,10,1
fentry_kptr|failure,7,0|success,10,1
fentry_sleepable_kptr|success,10,1
tc_kptr|success,10,1
ROWS

check "7.2 names the rule" \
	'rb_msg cnum-mainline@7.2 "$OBJ:tp_kptr" | grep -q "bpf_obj_drop_impl cannot be used in tracing programs on types with NMI unsafe fields"'
