#!/usr/bin/env bash
# helpers_unix_write.sh — the prototypes of bpf_skc_to_unix_sock and
# bpf_probe_write_user (src/engine/helper_table.c) on
# tests/objects/helpers_unix_write.bpf.o: kdiff against the running kernel
# (skipped where bpf() is not permitted; 6.18.44 here refuses
# bpf_probe_write_user to every type), and Linux 7.2.13's counts (measured
# 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/helpers_unix_write.bpf.o
# in Debian sid's 7.2.13 under QEMU).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/helpers_unix_write.bpf.o
. tests/cli/lib/tap.sh
. tests/cli/lib/kdiff_each.sh
. tests/cli/lib/pin72.sh

kdiff_every_program "$OBJ" helpers_unix_write
pin72 "$OBJ:to_unix" success,12,1
pin72 "$OBJ:write_user" success,6,0 failure,4,0
