#!/usr/bin/env bash
# insn_limit.sh — a program that hits the 1,000,000-instruction limit
# (tests/objects/insn_limit.bpf.o): the engine answers limit with the
# kernel's message, and names the instruction its log shows last (the
# kernel counts the next one, then stops before printing it; the oracle
# reads the kernel's log the same way). Engine only: the kernel's level-2
# log of a million instructions is too slow for the suite (kdiff measured
# equal, see the commit).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/insn_limit.bpf.o
. tests/cli/lib/tap.sh

"$RB" verify --tracker old --csv --log "$OBJ" >"$tmp/csv" 2>"$tmp/log"; rc=$?
check "verify: exit 0, the limit verdict with the kernel's message" \
  'grep -q "^insn_limit.bpf.o,limit_loop,limit,.*,1000001,.*BPF program is too large. Processed 1000001 insn$" "$tmp/csv"' "$tmp/csv"
last=$(grep -E '^[0-9]+: \(' "$tmp/log" | tail -1 | cut -d: -f1)
err=$(awk -F, 'NR == 2 { print $11 }' "$tmp/csv")
check "the error names the last instruction of the log ($last)" '[ -n "$last" ] && [ "$err" = "$last" ]' "$tmp/csv"
