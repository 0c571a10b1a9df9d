#!/usr/bin/env bash
# execcheck: generated programs run concretely against the explored states
# (a table per tracker, no violation, exit 0); objects from the test set;
# bad usage and bad input.
set -u
RB=${RB:-build/test/rangebench}
OBJS=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

"$RB" execcheck --gen 10 --runs 3 >"$tmp/gen.out" 2>&1; rc=$?
check "generated programs: exit 0" '[ $rc -eq 0 ]' "$tmp/gen.out"
check "header names the columns" 'grep -Eq "^tracker +programs +skipped +executions +insns_checked +regs_checked +violations" "$tmp/gen.out"' "$tmp/gen.out"
check "old and cnum rows with executions and no violation" \
	'grep -Eq "^old +[1-9][0-9]* +[0-9]+ +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]* +0 " "$tmp/gen.out" &&
	 grep -Eq "^cnum +[1-9][0-9]* +[0-9]+ +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]* +0 " "$tmp/gen.out"' "$tmp/gen.out"

"$RB" execcheck --progen 2 --runs 3 --seed 5 >"$tmp/progen.out" 2>&1; rc=$?
# 20 progen families x 2 programs: counted programs + skipped ones = 40
check "progdiff's generator: 40 programs per tracker, no violation" \
	'[ $rc -eq 0 ] && awk '"'"'$1 == "old" || $1 == "cnum" { n++; if ($2 + $3 != 40 || $4 == 0 || $7 != 0) bad = 1 }
	  END { exit !(n == 2 && !bad) }'"'"' "$tmp/progen.out"' "$tmp/progen.out"
"$RB" execcheck --progen 1 --progen-family ptr --runs 2 >"$tmp/pf.out" 2>&1; rc=$?
check "one progen family: 1 program per tracker" \
	'[ $rc -eq 0 ] && awk '"'"'$1 == "old" { exit !($2 + $3 == 1) }'"'"' "$tmp/pf.out"' "$tmp/pf.out"
"$RB" execcheck --progen 1 --progen-family nosuch >"$tmp/pfam.out" 2>&1; rc=$?
check "unknown progen family: exit 2 naming the families" \
	'[ $rc -eq 2 ] && grep -q "unknown progen family .nosuch. (range, alu32" "$tmp/pfam.out"' "$tmp/pfam.out"

"$RB" execcheck --trackers cnum --runs 3 "$OBJS/oracle_verdicts.bpf.o" "$OBJS/subprog.bpf.o" \
	"$OBJS/global_data.bpf.o" >"$tmp/obj.out" 2>&1; rc=$?
check "test objects: exit 0, cnum only, programs run" \
	'[ $rc -eq 0 ] && ! grep -q "^old " "$tmp/obj.out" && grep -Eq "^cnum +[1-9]" "$tmp/obj.out"' "$tmp/obj.out"

"$RB" execcheck --gen 1 --family nosuch >"$tmp/fam.out" 2>&1; rc=$?
check "unknown family: exit 2 with a message" '[ $rc -eq 2 ] && grep -q "unknown family" "$tmp/fam.out"' "$tmp/fam.out"
"$RB" execcheck --trackers nosuch --gen 1 >"$tmp/tr.out" 2>&1; rc=$?
check "unknown tracker: exit 2" '[ $rc -eq 2 ] && grep -q "unknown tracker" "$tmp/tr.out"' "$tmp/tr.out"
"$RB" execcheck "$tmp/missing.o" >"$tmp/miss.out" 2>&1; rc=$?
check "missing object: exit 2 naming the file" '[ $rc -eq 2 ] && grep -q "missing.o" "$tmp/miss.out"' "$tmp/miss.out"
"$RB" execcheck >"$tmp/none.out" 2>&1; rc=$?
check "no input: usage, exit 2" '[ $rc -eq 2 ] && grep -q "usage" "$tmp/none.out"' "$tmp/none.out"
