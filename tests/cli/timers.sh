#!/usr/bin/env bash
# timers.sh — struct bpf_timer in map values (src/engine/timers.c, the
# async callback in callbacks.c) against the running kernel: on every
# program of tests/objects/timers.bpf.o (a timer's full life; the timer of
# another map, a direct load, a wrong offset, a timer map in a tracing
# program) `rangebench kdiff` must report identical level-2 logs, verdicts
# and counts (exit 0). Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/timers.bpf.o
. tests/cli/lib/tap.sh

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" timers
