#!/usr/bin/env bash
# verify: veristat-style rows from the kernel oracle (needs bpf(); the
# kernel rows are checked only where it works) and bad usage.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/oracle_verdicts.bpf.o
n=0
check() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

out=$("$RB" verify --tracker kernel "$OBJ" 2>&1); rc=$?
echo "$out"
check "verify --tracker kernel exits 0" "$rc"
head -1 <<<"$out" | grep -q '^File  *Program  *Verdict  *Duration (us)  *Insns  *States  *Peak states  *Reg state (B)  *State (B)  *Peak mem (B)  *Error'
check "veristat column names" $?
if grep -q 'unavailable' <<<"$out"; then
	grep -q 'ok_bounded  *unavailable' <<<"$out"; check "kernel unavailable is reported per program" $?
else
	grep -Eq 'ok_bounded +success +[0-9]+ +[1-9][0-9]* ' <<<"$out"; check "ok_bounded accepted with processed insns" $?
	grep -Eq 'bad_oob +failure .*insn [0-9]+: R0 max value is outside of the allowed memory range' <<<"$out"
	check "bad_oob rejected with insn index and message" $?
	grep -Eq 'ok_rodata +success' <<<"$out"; check "frozen .rodata makes the bad branch dead" $?
	grep -Eq 'refused_fentry +(refused|success)' <<<"$out"; check "trampoline program refused by the environment, not rejected" $?
	csv=$("$RB" verify --tracker kernel --csv "$OBJ:bad_oob")
	[ "$(sed -n 1p <<<"$csv")" = "file_name,prog_name,verdict,duration,total_insns,total_states,peak_states,reg_state_bytes,state_bytes,peak_state_mem,err_insn,error" ] &&
		grep -Eq '^oracle_verdicts.bpf.o,bad_oob,failure,([0-9]+,){6},[0-9]+,R0 max value' <<<"$csv"
	check "csv row for one program (the kernel's peak state memory empty: not measured)" $?
	lg=$("$RB" verify --tracker kernel --log "$OBJ:ok_bounded")
	grep -q 'processed [0-9]* insns' <<<"$lg" && grep -q '; R0=' <<<"$lg"
	check "--log prints the per-instruction log" $?
fi
"$RB" verify --tracker nope "$OBJ" >/dev/null 2>&1; [ $? -eq 2 ]; check "unknown tracker is bad usage" $?
"$RB" verify --tracker kernel "$OBJ:no_such_prog" >/dev/null 2>&1; [ $? -eq 2 ]; check "unknown program is bad input" $?
"$RB" verify --tracker kernel /nonexistent.o >/dev/null 2>&1; [ $? -eq 2 ]; check "missing file is bad input" $?
"$RB" verify >/dev/null 2>&1; [ $? -eq 2 ]; check "no object is bad usage" $?
# --emit: any metric of the registry (src/result/metrics.h) as a column, by name
hdr=$("$RB" verify --tracker old --csv --emit insns,states,rss "$OBJ" 2>/dev/null | head -1)
[ "$hdr" = "file_name,prog_name,verdict,total_insns,total_states,peak_rss_kib,err_insn,error" ]
check "--emit insns,states,rss: those columns, veristat's names where it has them" $?
all=$("$RB" verify --tracker old --csv --emit all "$OBJ" 2>/dev/null | head -1 | tr ',' '\n' | wc -l)
[ "$all" -ge 15 ]; check "--emit all: every metric ($all columns)" $?
err=$("$RB" verify --tracker old --emit nope "$OBJ" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && grep -q "unknown metric 'nope' (insns, " <<<"$err"; check "--emit with an unknown metric is bad usage, naming the metrics" $?
# several --tracker: one process verifies with each in turn; each
# tracker's rows are what a verify with it alone prints (less the
# duration), with a tracker column after the program
kern=kernel
grep -q 'unavailable' <<<"$out" && kern=
multi=$("$RB" verify --csv --tracker old --tracker cnum-mainline@7.2 ${kern:+--tracker $kern} "$OBJ" 2>/dev/null); rc=$?
[ $rc -eq 0 ] && [ "$(sed -n 1p <<<"$multi")" = "file_name,prog_name,tracker,verdict,duration,total_insns,total_states,peak_states,reg_state_bytes,state_bytes,peak_state_mem,err_insn,error" ]
check "several --tracker: exit 0, a tracker column after the program" $?
same=0
for t in old cnum-mainline@7.2 $kern; do
	one=$("$RB" verify --csv --tracker "$t" "$OBJ" 2>/dev/null | cut -d, -f4 --complement)
	part=$({ sed -n 1p <<<"$multi"; awk -F, -v t="$t" 'NR > 1 && $3 == t' <<<"$multi"; } | cut -d, -f3,5 --complement)
	[ "$(wc -l <<<"$one")" -gt 2 ] && [ "$one" = "$part" ] || { same=1; echo "# $t alone:"; echo "$one"; echo "# $t of several:"; echo "$part"; }
done
check "several --tracker: each tracker's rows are its own verify's (old, cnum-mainline@7.2${kern:+, kernel})" $same
tab=$("$RB" verify --log --tracker old --tracker cnum "$OBJ:ok_bounded" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '^=== oracle_verdicts.bpf.o:ok_bounded (old) ===$' <<<"$tab" &&
	grep -q '^=== oracle_verdicts.bpf.o:ok_bounded (cnum) ===$' <<<"$tab" &&
	grep -Eq '^File +Program +Tracker +Verdict ' <<<"$tab" && grep -Eq '^oracle_verdicts.bpf.o +ok_bounded +cnum +success ' <<<"$tab"
check "several --tracker with --log: each program's log headed with its tracker, a Tracker column" $?
err=$("$RB" verify --veristat --tracker old --tracker cnum "$OBJ" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && grep -q "one --tracker only: --veristat's CSV has no tracker column" <<<"$err"
check "several --tracker with --veristat is bad usage" $?
err=$("$RB" verify --tracker old --tracker kernel-7.2 "$OBJ" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && grep -q "one --tracker only: a kernel image is verified in a guest of its own" <<<"$err"
check "a kernel image among several --tracker is bad usage" $?
