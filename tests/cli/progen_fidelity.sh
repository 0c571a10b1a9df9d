#!/usr/bin/env bash
# progen_fidelity.sh — the engine (old) agrees with the running kernel line
# for line on every program of tests/objects/progen_fidelity.bpf.c, each the
# minimal form of a disagreement progdiff found on random programs.
# Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/progen_fidelity.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" progen_fidelity
