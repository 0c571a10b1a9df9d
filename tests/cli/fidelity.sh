#!/usr/bin/env bash
# fidelity.sh — the engine (old) agrees with the running kernel line for line
# on every program of tests/objects/engine_fidelity.bpf.c: `rangebench kdiff`
# must report identical level-2 logs, verdicts and counts (exit 0). Each
# program pins one cause of a past disagreement (issue 10 A-H, issue 9's
# engine gaps). Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/engine_fidelity.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
# with the programs calling their own (global) entry point
# (tests/objects/global_main.bpf.c): one load and one kdiff for both objects
kdiff_objects fidelity "$OBJ" global_main "${RB_TEST_OBJECTS:-build/test/objects}/global_main.bpf.o"
