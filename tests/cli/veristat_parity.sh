#!/usr/bin/env bash
# veristat_parity.sh — veristat's options on the metric registry (issue 23
# item 2): verify --veristat writes exactly veristat's CSV columns and
# verdict words (what `veristat -C` reads); -f filters (globs, KEY OP
# VALUE, '!' denials, bad expressions named), several sort keys and --top
# in verify and compare; compare's error column; compare of two CSV files
# (ours, and one in veristat's own layout with columns we do not measure).
set -u
RB=${RB:-build/test/rangebench}
. "$(dirname "$0")/lib/tap.sh"
OWN=${RB_TEST_BIN:-build/test}/own
O=$OWN/bias_add64.bpf.o
A=$OWN/abs_window.bpf.o

# (with an object whose program veristat has no verdict word for, refused:
# left out of the CSV and said; checked below, from this one verify)
R=${RB_TEST_BIN:-build/test}/objects/struct_ops_orphan.bpf.o
$RB verify --tracker old --veristat "$R" "$O" "$A" >"$tmp/old.csv" 2>"$tmp/old.err"
check "verify --veristat exits 0" "[ $? -eq 0 ]" "$tmp/old.err"
check "veristat's columns exactly, Duration first" \
	"[ \"\$(head -1 $tmp/old.csv)\" = 'file_name,prog_name,verdict,duration,total_insns,total_states,peak_states,max_states_per_insn,mark_read' ]" "$tmp/old.csv"
check "veristat's verdict words, one row per program" \
	"[ \$(tail -n +2 $tmp/old.csv | cut -d, -f3 | grep -Ecv '^(success|failure)$') -eq 0 ] && [ \$(tail -n +2 $tmp/old.csv | wc -l) -eq 3 ]" "$tmp/old.csv"
check "bias_add64 row: failure, 18 insns, 1 state" "has_ere $tmp/old.csv '^bias_add64.bpf.o,bias_add64,failure,[0-9]+,18,1,1,0,0$'" "$tmp/old.csv"
$RB verify --tracker cnum --veristat "$O" "$A" >"$tmp/cnum.csv" 2>&1
# a program whose verdict veristat has no word for (refused) is left out, and
# said (struct_ops_orphan's, in the first verify)
check "--veristat leaves out a verdict veristat cannot read (refused), and says so" \
	"[ \$(wc -l <$tmp/old.csv) -eq 4 ] && ! grep -q orphan $tmp/old.csv && has_ere $tmp/old.err '1 program left out: veristat.s verdicts are success and failure only'" "$tmp/old.err"

$RB verify --tracker cnum -f 'insns>21' -f '!abs_window_pos' "$O" "$A" >"$tmp/f1.out" 2>&1
check "verify -f 'insns>21' -f '!abs_window_pos': bias_add64 (24) only" \
	"grep -q bias_add64 $tmp/f1.out && ! grep -q abs_window $tmp/f1.out" "$tmp/f1.out"
$RB verify --tracker cnum -f verdict=failure -s insns --top 1 "$O" "$A" >"$tmp/f2.out" 2>&1
check "verify -f verdict=failure -s insns --top 1: the larger failure" \
	"[ \$(grep -c 'bpf.o' $tmp/f2.out) -eq 1 ] && has_ere $tmp/f2.out 'abs_window_pos  failure'" "$tmp/f2.out"
$RB verify --tracker cnum --csv -s 'verdict,insns^' "$O" "$A" >"$tmp/f3.csv" 2>&1
check "verify -s verdict,insns^: failures first, then by instructions ascending" \
	"[ \"\$(tail -n +2 $tmp/f3.csv | cut -d, -f2 | tr '\n' ' ')\" = 'abs_window_neg abs_window_pos bias_add64 ' ]" "$tmp/f3.csv"
for bad in 'insns>>3' 'verdict=failed' 'insns_diff>3' 'nosuch<3' 'verdict>success'; do
	$RB verify -f "$bad" "$O" >"$tmp/bad.out" 2>&1
	check "verify -f '$bad': exit 2, the expression named" "[ $? -eq 2 ] && grep -qF \"filter '$bad'\" $tmp/bad.out" "$tmp/bad.out"
done

$RB compare "$tmp/old.csv" "$tmp/cnum.csv" >"$tmp/c.out" 2>&1
check "compare A.csv B.csv: two verdict changes (exit 1)" \
	"[ $? -eq 1 ] && has_ere $tmp/c.out '^verdict changes +2$' && has_ere $tmp/c.out 'bias_add64 .*failure .*success .*MISMATCH'" "$tmp/c.out"
$RB compare -f 'insns_diff>0' -f 'verdict_a=success' --stats verdict,insns "$tmp/old.csv" "$tmp/cnum.csv" >"$tmp/c2.out" 2>&1
check "compare: allow filters or-ed (insns_diff>0 or verdict_a=success), as veristat" \
	"grep -q bias_add64 $tmp/c2.out && grep -q abs_window_neg $tmp/c2.out && ! grep -q abs_window_pos $tmp/c2.out" "$tmp/c2.out"
$RB compare -f 'insns_diff>0' -f '!verdict_b=success' "$tmp/old.csv" "$tmp/cnum.csv" >"$tmp/c2b.out" 2>&1
check "compare: a deny filter and-ed: nothing left" "has_ere $tmp/c2b.out '^programs +0$'" "$tmp/c2b.out"
$RB compare --csv --stats insns --sort '|insns_diff|v,name' "$tmp/old.csv" "$tmp/cnum.csv" >"$tmp/c3.csv" 2>&1
check "compare --sort '|insns_diff|v,name': the largest change first" \
	"[ \"\$(sed -n 2p $tmp/c3.csv | cut -d, -f2)\" = abs_window_neg ]" "$tmp/c3.csv"
# veristat's own layout: more columns than we measure, its aliases
cat >"$tmp/v.csv" <<EOC
file_name,prog_name,verdict,duration,total_insns,total_states,peak_states,max_states_per_insn,max_mark_read_len,prog_size,prog_size_jited,prog_type,attach_type,stack_depth,max_stack_depth,mem_peak
abs_window.bpf.o,abs_window_neg,success,60,29,2,2,0,0,25,148,socket_filter,cgroup_inet_ingress,8,0,-1
abs_window.bpf.o,abs_window_pos,failure,37,22,2,2,0,0,27,0,socket_filter,cgroup_inet_ingress,8,0,-1
bias_add64.bpf.o,bias_add64,failure,53,18,1,1,0,0,25,0,sched_cls,cgroup_inet_ingress,8,0,-1
EOC
$RB compare --stats verdict,insns,states "$tmp/v.csv" "$tmp/old.csv" >"$tmp/v.out" 2>&1
check "veristat's CSV against verify --veristat of old: every program the same" \
	"[ $? -eq 0 ] && [ \$(grep -c ' MATCH ' $tmp/v.out) -eq 3 ] && has_ere $tmp/v.out '^changed \(verdict or counts\) +0$'" "$tmp/v.out"
printf 'a,b\n1,2\n' >"$tmp/x.csv"
$RB compare "$tmp/x.csv" "$tmp/old.csv" >"$tmp/x.out" 2>&1
check "a CSV without file_name/prog_name: exit 2, file named" "[ $? -eq 2 ] && has_ere $tmp/x.out 'x.csv:1: not a verify/veristat CSV'" "$tmp/x.out"
printf 'file_name,prog_name,verdict\nf.o,p,maybe\n' >"$tmp/y.csv"
$RB compare "$tmp/y.csv" "$tmp/old.csv" >"$tmp/y.out" 2>&1
check "a bad verdict: exit 2, file and line named" "[ $? -eq 2 ] && grep -q \"y.csv:2: unknown verdict 'maybe'\" $tmp/y.out" "$tmp/y.out"

# compare of a run: the error column and an expression on the source
db=$tmp/r.sqlite
$RB run --no-census --db "$db" --label r --trackers old,cnum -j 1 "$O" "$A" >"$tmp/run.out" 2>&1
$RB compare --db "$db" --stats verdict,insns,error -f 'source=*' >"$tmp/e.out" 2>&1
check "compare --stats ...,error: each side's error with its instruction" \
	"grep -q 'Error (A)' $tmp/e.out && has_ere $tmp/e.out 'bias_add64 .*insn 20: math between map_value pointer and register with unbounded min value'" "$tmp/e.out"
$RB compare --db "$db" -f 'source=nosuchsource' >"$tmp/s.out" 2>&1
check "compare -f source=...: no program of another source" "has_ere $tmp/s.out '^programs +0$'" "$tmp/s.out"
