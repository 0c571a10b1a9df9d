#!/usr/bin/env bash
# progdiff.sh — `rangebench progdiff`: bad usage exits 2 with a message;
# where bpf() is permitted, a few hundred random programs over every family
# run through the kernel and the engine and print the per-family table.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh

"$RB" progdiff --family nosuch >"$tmp/out" 2>&1; rc=$?
check "unknown family: exit 2 naming it" '[ $rc -eq 2 ] && grep -q "no family .nosuch." "$tmp/out"' "$tmp/out"
"$RB" progdiff --cases x >"$tmp/out" 2>&1; rc=$?
check "bad --cases: exit 2" '[ $rc -eq 2 ]' "$tmp/out"

"$RB" progdiff --cases 25 --seed 11 >"$tmp/out" 2>&1; rc=$?
if grep -q "^progdiff skipped" "$tmp/out"; then
	ok "progdiff over every family # skip bpf() not permitted"
else
	check "500 programs over 20 families: a table with every family" \
		'[ $rc -le 1 ] && grep -q "^total *500 " "$tmp/out" && [ $(grep -cE "^(range|alu32|muldiv|neg|bswap|movsx|regjmp|jset|loop|spill|ptr|mixed|atomic|pkt|call|stack|memsx|link32|maygoto|ringbuf) " "$tmp/out") -eq 20 ]' "$tmp/out"
fi
