#!/usr/bin/env bash
# kptrs.sh — the destination of bpf_kptr_xchg (src/engine/kptrs.c) against
# the running kernel: on every program of tests/objects/kptrs.bpf.o (a
# variable offset, a map without kptrs, an untrusted kptr and an offset
# that is not a kptr's as clang 14 compiles them: without kptr fields) `rangebench kdiff` must report identical level-2 logs,
# verdicts and counts (exit 0). Skipped with a note where bpf() is not
# permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/kptrs.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" kptrs
