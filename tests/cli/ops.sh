#!/usr/bin/env bash
# ops.sh — `rangebench ops`: a reduced census runs clean at width 8 and
# sampled at 64 bits, prints one row per op and tracker (and CSV), and bad
# usage (unknown op, bad width, absurd counts) is a one-line error, exit 2.
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"

"$RB" ops --width 8 --pairs 300 --sets 400 --tracker old --tracker cnum --op add jsgt ld8 neg32 >"$tmp/out" 2>"$tmp/err"; rc=$?
check "reduced width-8 census: exit 0" '[ $rc -eq 0 ]'
check "exhaustive check announced" 'grep -q "EXHAUSTIVE" "$tmp/out"'
# add and jsgt: 4 forms each; ld8, neg32: 1 each; two trackers
check "one row per op and tracker" '[ $(grep -cE "^(add|jsgt|ld8|neg32)[0-9_a-z]* " "$tmp/out") -eq 20 ]'
check "cnum rows carry the comparison with old" \
	'awk "\$1==\"add64\" && \$3==\"cnum\" {ok = (\$8+\$9+\$10+\$11 == \$4)} END {exit !ok}" "$tmp/out"'
check "0 unsound in the total" 'grep -q "^# total: 20 rows, [0-9]* cases, 0 unsound" "$tmp/out"'

"$RB" ops --width 8 --pairs 200 --sets 200 --tracker old --tracker cnum --op mul64 --csv --threads 1 >"$tmp/csv"; rc=$?
check "csv: exit 0" '[ $rc -eq 0 ]'
check "csv: header and two rows" \
	'[ $(wc -l <"$tmp/csv") -eq 3 ] && head -1 "$tmp/csv" | grep -q "^op,kind,tracker,bits,sampled,cases,unsound"'
check "csv: cnum row has comparison counts" 'grep -qE "^mul64,alu,cnum,8,0,200,0,[0-9]+,[0-9.]+,[0-9.]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+," "$tmp/csv"'
"$RB" ops --width 8 --pairs 200 --sets 200 --tracker old --tracker cnum --op mul64 --csv --threads 2 >"$tmp/csv2"
check "csv: same rows with 2 threads" 'cmp -s "$tmp/csv" "$tmp/csv2"'

"$RB" ops --width 64 --pairs 200 --tracker old --tracker cnum --op sub32 jle >"$tmp/w64" 2>&1; rc=$?
check "width 64: exit 0" '[ $rc -eq 0 ]'
check "width 64: says the check is sampled" 'grep -q "SAMPLED" "$tmp/w64"'
check "width 64: rows" '[ $(grep -cE "^(sub32|jle)" "$tmp/w64") -eq 10 ]'

"$RB" ops --tracker old --pairs 100 --sets 100 --op xor >"$tmp/old"; rc=$?
check "--tracker old: only old rows" \
	'[ $rc -eq 0 ] && [ $(awk "\$3==\"old\"" "$tmp/old" | wc -l) -eq 4 ] && [ $(awk "\$3==\"cnum\"" "$tmp/old" | wc -l) -eq 0 ]'

bad() { # args...: exit 2 and exactly one line on stderr
	"$RB" ops "$@" >"$tmp/o" 2>"$tmp/e"; local rc=$?
	[ $rc -eq 2 ] && [ $(wc -l <"$tmp/e") -eq 1 ] && [ ! -s "$tmp/o" ]
}
check "unknown op: exit 2, one line" 'bad --op frobnicate && grep -q frobnicate "$tmp/e"'
check "width 12: exit 2" 'bad --width 12'
check "width missing: exit 2" 'bad --width'
check "--pairs 0: exit 2" 'bad --pairs 0'
check "--pairs 2000000000: exit 2" 'bad --pairs 2000000000'
check "--pairs -5: exit 2" 'bad --pairs -5'
check "--pairs abc: exit 2" 'bad --pairs abc'
check "--threads 0: exit 2" 'bad --threads 0'
check "--tracker nope: exit 2" 'bad --tracker nope'
check "unknown argument: exit 2" 'bad --frob'
"$RB" ops --list >"$tmp/list"
check "--list names every op" '[ $(wc -l <"$tmp/list") -ge 120 ] && grep -q "^jsle32_imm " "$tmp/list" && grep -q "^movsx64_32 " "$tmp/list"'

# --examples: a case where cnum is looser than old, printed with both trackers' states
"$RB" ops --width 8 --pairs 300 --sets 100 --tracker old --tracker cnum --op jgt64 --examples >"$tmp/ex"; rc=$?
check "--examples: exit 0 and an example" '[ $rc -eq 0 ] && grep -q "^example jgt64: cnum \(looser than\|incomparable with\) old" "$tmp/ex"'
check "--examples: inputs and refined states of both trackers" \
	'[ $(grep -cE "^  (a|b|taken a|taken b|else a|else b) +old +scalar\(" "$tmp/ex") -eq 6 ] && [ $(grep -cE "^ +cnum +(scalar\(|\(unreachable\))" "$tmp/ex") -eq 6 ]'

# every registry tracker by default, each compared with the baseline
"$RB" ops --width 8 --pairs 100 --sets 100 --op xor64 >"$tmp/all"; rc=$?
ntr=$("$RB" trackers | awk 'NR > 1 && $2 == "engine"' | wc -l)
check "default: one row per registry tracker" '[ $rc -eq 0 ] && [ $(grep -c "^xor64 " "$tmp/all") -eq $ntr ] && [ $ntr -ge 4 ]'
check "default: arc2 and cnum-mainline compared with old" 'grep -q "^# arc2 vs old:" "$tmp/all" && grep -q "^# cnum-mainline vs old:" "$tmp/all"'
"$RB" ops --width 8 --pairs 100 --sets 100 --op xor64 --tracker cnum --tracker arc2 --baseline cnum >"$tmp/bc"; rc=$?
check "--baseline cnum: arc2 compared with cnum" '[ $rc -eq 0 ] && grep -q "^# arc2 vs cnum:" "$tmp/bc"'
check "--baseline nope: exit 2" 'bad --baseline nope'
