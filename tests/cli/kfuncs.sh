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

# the four objects' programs with one load and one kdiff
kdiff_objects -p kfunc_calls "$DIR/kfunc_calls.bpf.o" sock_helpers "$DIR/sock_helpers.bpf.o" \
	spin_lock "$DIR/spin_lock.bpf.o" task_storage "$DIR/task_storage.bpf.o"
