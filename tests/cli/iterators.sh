#!/usr/bin/env bash
# iterators.sh — open-coded iterators (src/engine/iter.c) against the running
# kernel: on every program of tests/objects/iterators.bpf.o (bpf_iter_num_new,
# next and destroy: iterator slots, references, the next() loop converging,
# rejections; and tests/objects/iter_targets.bpf.o, iterator programs)
# `rangebench kdiff` must report
# identical level-2 logs, verdicts and counts (exit 0). Skipped with a note
# where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/iterators.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
# with the iterator programs (SEC("iter/...")): which targets' context
# pointers are trusted, and a read through a flexible array of a kernel
# struct (one load and one kdiff for both objects)
kdiff_objects iterators "$OBJ" iter_targets "${RB_TEST_OBJECTS:-build/test/objects}/iter_targets.bpf.o"
