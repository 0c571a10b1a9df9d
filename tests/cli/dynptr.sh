#!/usr/bin/env bash
# dynptr.sh — dynamic pointers (src/engine/dynptr.c) against the running
# kernel: on every program of tests/objects/dynptr.bpf.o (ringbuf and local
# dynptrs, slices, release, writes into and reads of a dynptr's stack
# slots, bpf_user_ringbuf_drain's callback dynptr; accepted and rejected)
# `rangebench kdiff` must report identical level-2 logs, verdicts and
# counts (exit 0). Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/dynptr.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" dynptr
