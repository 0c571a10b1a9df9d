#!/usr/bin/env bash
# dynptr.sh — dynamic pointers (src/engine/dynptr.c) against the running
# kernel: on every program of tests/objects/dynptr.bpf.o (ringbuf and local
# dynptrs, slices, release, writes into and reads of a dynptr's stack
# slots, bpf_user_ringbuf_drain's callback dynptr; accepted and rejected)
# `rangebench kdiff` must report identical level-2 logs, verdicts and
# counts (exit 0). Skipped with a note where bpf() is not permitted.
# slice_two_paths is pinned to Linux 7.2.13's counts (profile.h
# dynptr_parent_ids), measured 2026-12-06 with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/dynptr.bpf.o
# (Debian sid's 7.2.13 in QEMU; kdiff --kernel kernel-7.2 --trace: the same
# trace as cnum-mainline@7.2); without the switch the 7.2 profile gave
# success,50,4, as 6.18.44.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/dynptr.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" dynptr

. tests/cli/lib/pin72.sh
pin72 "$OBJ:slice_two_paths" success,47,4 success,50,4
