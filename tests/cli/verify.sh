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
