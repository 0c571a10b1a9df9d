#!/usr/bin/env bash
# make_goal.sh — `make` alone builds `all` (build/rangebench) in a tree that
# has been built before. The objects' .d files are included before the
# Makefile's first rule; without `.DEFAULT_GOAL := all` the first target of
# the first .d file became the goal, and `make` after a change rebuilt one
# object and left build/rangebench stale. Reads the Makefile only (make -p
# -q prints its database and builds nothing).
set -u
. tests/cli/lib/tap.sh

ndeps=$(find build/obj build/test -type f -name '*.d' 2>/dev/null | wc -l)
check "the tree has .d files to include (built before)" '[ "$ndeps" -gt 0 ]'
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -p -q -o build/libbpf.mk -f Makefile __no_such_goal_rb >"$tmp/db" 2>/dev/null
goal=$(sed -n 's/^\.DEFAULT_GOAL := //p' "$tmp/db" | tail -1)
check "the default goal is all (got '$goal')" '[ "$goal" = all ]' "$tmp/db"
check "and all builds build/rangebench" 'grep -Eq "^all: .*build/rangebench" "$tmp/db"' "$tmp/db"
