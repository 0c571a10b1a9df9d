#!/usr/bin/env bash
# kfuncs.sh — kfunc calls, ksyms and the helpers added with them agree
# with the running kernel line for line: `rangebench kdiff` on every
# program of tests/objects/kfunc_calls.bpf.c (and the other objects
# listed below) must report identical level-2 logs, verdicts and counts.
# Skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
DIR=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh
. tests/cli/lib/kdiff_each.sh

for obj in kfunc_calls sock_helpers spin_lock task_storage; do
	kdiff_every_program "$DIR/$obj.bpf.o" "$obj" "$obj:"
done
