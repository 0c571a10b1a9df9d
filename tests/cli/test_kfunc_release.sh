#!/usr/bin/env bash
# test_kfunc_release.sh — bpf_kfunc_call_test_release, a KF_RELEASE kfunc of
# net/bpf/test_run.c (src/engine/kfunc_table.c: its flags were not
# recorded, so the call was unsupported), on
# tests/objects/clang19/test_kfunc_release.bpf.o: verdict, instructions and
# states equal the running kernel's (Linux 6.18.44; its log prints R0 after
# bpf_kptr_xchg on a line of its own, as percpu_obj.sh's take_drop) and
# Linux 7.2.13's in its QEMU guest (2026-12-06, the same counts), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/clang19/test_kfunc_release.bpf.o
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/clang19/test_kfunc_release.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/pin72.sh

# program|7.2.13's verdict,insns,states
while IFS='|' read -r prog want; do
	pin72 "$OBJ:$prog" "$want"
done <<'ROWS'
xchg_release|success,18,1
release_twice|failure,18,1
release_null|failure,13,1
ROWS
