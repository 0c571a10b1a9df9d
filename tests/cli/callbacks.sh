#!/usr/bin/env bash
# callbacks.sh — callbacks (src/engine/callbacks.c) against the running
# kernel: on every program of tests/objects/callbacks.bpf.o (bpf_loop and
# bpf_for_each_map_elem: callback arguments, return ranges, repeated visits
# until the states converge, rejections) `rangebench kdiff` must report
# identical level-2 logs, verdicts and counts (exit 0). Skipped with a note
# where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/callbacks.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" callbacks
