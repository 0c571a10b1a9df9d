#!/usr/bin/env bash
# code_size.sh — the size limits of the architecture (issue 14), measured by
# scripts/code-size.sh: no function in src/ over 150 lines, no engine file
# of 600 lines or more. A new exception needs its reason here.
source tests/cli/lib/tap.sh
scripts/code-size.sh 100000 src > "$tmp/all.txt"
awk '/^longest functions/{f=1; next} f && $1 > 150' "$tmp/all.txt" > "$tmp/long.txt"
check "no function in src/ over 150 lines" "[ ! -s $tmp/long.txt ]" "$tmp/long.txt"
scripts/code-size.sh 100000 src/engine > "$tmp/engine.txt"
awk '/^largest files/{f=1; next} /^longest/{f=0} f && $1 >= 600' "$tmp/engine.txt" > "$tmp/big.txt"
check "no engine file of 600 lines or more" "[ ! -s $tmp/big.txt ]" "$tmp/big.txt"
# the script measures: the longest function it names is a real one
first=$(awk '/^longest functions/{getline; print $3; exit}' "$tmp/all.txt")
check "the size script finds functions" "[ -n '$first' ] && grep -rq \"$first(\" src" "$tmp/all.txt"
