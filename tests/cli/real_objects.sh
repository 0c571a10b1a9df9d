#!/usr/bin/env bash
# real_objects.sh — the engine (old) agrees with the running kernel line for
# line on every program of tests/objects/real_objects.bpf.c: each pins an
# engine disagreement first seen on a real object from a public project
# (issue 9). Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/real_objects.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" real_objects
