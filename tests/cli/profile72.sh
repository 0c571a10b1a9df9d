#!/usr/bin/env bash
# profile72.sh — the engine's kernel profiles (src/engine/profile.h):
# tracker rows NAME@PROFILE, a bare name byte-identical to NAME@6.18, and
# each 7.2 switch pinned by a program of tests/objects/profile72.bpf.c with
# the counts the real kernels give. The running kernel (6.18.44) is checked
# live where bpf() works; Linux 7.2.13's counts cannot be (CI does not boot
# it) and are recorded here as measured, with the command that measured
# them: `rangebench verify --csv --tracker kernel build/test/objects/profile72.bpf.o`
# run inside Debian sid's linux-image-7.2.13+deb14-cloud-amd64 under QEMU
# (an initramfs holding the binary and the object, as README "Kernel
# profiles" describes).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72.bpf.o
. tests/cli/lib/tap.sh

# The logs and rows of $OBJ whole with six rows (bare names, @6.18, @7.2)
# from one verify with a --tracker each (a tracker column; each log headed
# "=== FILE:PROG (TRACKER) ==="), split into $tmp/log.PROG.TRACKER (a
# program's log, as `verify --log --tracker TRACKER OBJ:PROG` prints it)
# and $tmp/rows.TRACKER.cut (that tracker's rows without the duration),
# and $tmp/log.TRACKER (its programs' logs, in order): one process, not
# the ten one per tracker and program took (each ~0.3 s of CPU)
"$RB" verify --csv --log --tracker old --tracker old@6.18 --tracker cnum-mainline --tracker cnum-mainline@6.18 \
	--tracker old@7.2 --tracker cnum-mainline@7.2 "$OBJ" >"$tmp/six.csv" 2>"$tmp/six.log"
six_rc=$?
awk -v dir="$tmp" '/^=== [^ ]*:[^ ]* \([^ ]*\) ===$/ { p = $2; sub(/^[^:]*:/, "", p); t = $3; gsub(/[()]/, "", t)
		f = dir "/log." p "." t; g = dir "/log." t }
	f { print >f; print >g }' "$tmp/six.log"
for t in old old@6.18 cnum-mainline cnum-mainline@6.18 old@7.2 cnum-mainline@7.2; do
	awk -F, -v t="$t" 'NR == 1 || $3 == t' "$tmp/six.csv" | cut -d, -f3,5 --complement >"$tmp/rows.$t.cut"
done

# row names
check "NAME@7.2 is a tracker row" '[ $six_rc -eq 0 ] && grep -q "^profile72.bpf.o,null_id_join,success," "$tmp/rows.cnum-mainline@7.2.cut"' "$tmp/six.csv"
for bad in old@9 nope@7.2 kernel@7.2 old@; do
	"$RB" verify --tracker "$bad" "$OBJ" >"$tmp/bad.out" 2>&1
	check "'$bad' is bad usage naming the profiles" '[ $? -eq 2 ] && grep -q "NAME@6.18|7.2" "$tmp/bad.out"' "$tmp/bad.out"
done
"$RB" kdiff --tracker old@9 "$OBJ:null_id_join" >"$tmp/kd.out" 2>&1
check "kdiff refuses an unknown profile" '[ $? -eq 2 ]' "$tmp/kd.out"
check "the log names the row with its profile" 'grep -q "^=== profile72.bpf.o:null_id_join (old@7.2) ===" "$tmp/six.log"' "$tmp/six.log"

# a bare name is the 6.18 profile, byte for byte (log and counts)
for t in old cnum-mainline; do
	sed 's/(\(old\|cnum-mainline\)@6.18) ===$/(\1) ===/' "$tmp/log.$t@6.18" >"$tmp/618.log"
	check "$t and $t@6.18: the same log and counts" '[ -s "$tmp/log.$t" ] && cmp -s "$tmp/log.$t" "$tmp/618.log" && [ $(wc -l <"$tmp/rows.$t.cut") -gt 1 ] && cmp -s "$tmp/rows.$t.cut" "$tmp/rows.$t@6.18.cut"' "$tmp/618.log"
done

# counts: insns,states per tracker row; the kernels' as measured
# (each tracker verifies each object once, whole, and the rows are read
# from that CSV: a sanitizer-built process costs ~0.3 s of CPU to start,
# and one per (program, tracker) was most of this test's time)
# (bash only, no awk, tr or basename per call: each is ~10 ms of CPU here)
rows_v() { # VAR TRACKER: VAR = the CSV of $OBJ verified whole by TRACKER, made once
	local _rf=${OBJ##*/}
	_rf=$tmp/rows.${_rf%.bpf.o}.${2//[^a-z0-9]/_}.csv
	[ -e "$_rf" ] || "$RB" verify --csv --tracker "$2" "$OBJ" >"$_rf" 2>/dev/null
	printf -v "$1" '%s' "$_rf"
}
# row TRACKER PROG: PROG's CSV row of $OBJ (from the whole object's rows)
row() {
	local _f
	rows_v _f "$1"
	grep "^${OBJ##*/},$2," "$_f"
}
# Those whole-object rows of every tracker, made before the checks: one
# verify --csv of all six objects with the four engine trackers (a
# --tracker each: the rows start with the object's name, the tracker third)
# and one with the kernel (only of the objects it is asked about), split
# into the files rows_v makes (a tracker's own columns: the tracker's
# dropped); two processes instead of thirty-five, one per tracker and
# object (five, one per tracker, before verify took several)
prefill_rows() {
	local d=${RB_TEST_OBJECTS:-build/test/objects} o objs= kobjs=
	for o in profile72 profile72_raw profile72_calls profile72_ptr profile72_msgs profile72_ids; do
		objs="$objs $d/$o.bpf.o"
		[ $o = profile72_msgs ] || kobjs="$kobjs $d/$o.bpf.o"
	done
	# shellcheck disable=SC2086 # the paths have no blanks
	{
		"$RB" verify --csv --tracker old --tracker old@7.2 --tracker cnum-mainline --tracker cnum-mainline@7.2 $objs
		"$RB" verify --csv --tracker kernel $kobjs | sed '1s/^file_name,prog_name,/&tracker,/; 2,$s/^[^,]*,[^,]*,/&kernel,/'
	} 2>/dev/null | awk -F, -v pre="$tmp/rows." '$1 == "file_name" { h = $1 "," $2 substr($0, length($1 $2 $3) + 3); next }
		{ b = $1; sub(/\.bpf\.o$/, "", b); tr = $3; gsub(/[^a-z0-9]/, "_", tr); f = pre b "." tr ".csv"
		  if (!(f in seen)) { print h >f; seen[f] = 1 }
		  print $1 "," $2 substr($0, length($1 $2 $3) + 3) >f }'
}
prefill_rows
counts_v() { # VAR TRACKER PROG: VAR = PROG's "verdict,insns,states" (CSV fields 3, 5, 6) or ""
	local _f _l _a IFS=,
	local -
	set -f
	rows_v _f "$2"
	printf -v "$1" '%s' ""
	while IFS= read -r _l || [ -n "$_l" ]; do
		_a=($_l)
		if [ "${_a[1]-}" = "$3" ]; then
			printf -v "$1" '%s,%s,%s' "${_a[2]-}" "${_a[4]-}" "${_a[5]-}"
			return
		fi
		_l=""
	done <"$_f"
}
counts() { local _c; counts_v _c "$1" "$2"; [ -z "$_c" ] || printf '%s\n' "$_c"; }
# sw_file PROG: $tmp/sw.PROG, PROG's report from one `explain --baseline old
# --candidate old@7.2` of the five objects with pinned programs, whole
# (every program that changes, each report headed "OBJ:PROG" and the same
# as explain of OBJ:PROG alone), made once: one such explain of an object
# costs about what two of one program do, and there was one per pinned
# program, then one per object. Without a report of $OBJ:PROG, the file
# holds a line saying so and the whole output, each line after "# " (no
# check's anchored pattern matches it).
sw_file() {
	local _o=$tmp/sw.all _l _in=0 _found=0 _d=${RB_TEST_OBJECTS:-build/test/objects}
	[ -e "$_o" ] || "$RB" explain --baseline old --candidate old@7.2 "$_d/profile72.bpf.o" "$_d/profile72_raw.bpf.o" \
		"$_d/profile72_calls.bpf.o" "$_d/profile72_ptr.bpf.o" "$_d/profile72_ids.bpf.o" >"$_o" 2>&1
	: >"$tmp/sw.$1"
	while IFS= read -r _l || [ -n "$_l" ]; do
		if [ "$_l" = "$OBJ:$1" ]; then
			_in=1 _found=1
		elif [[ $_l == *.bpf.o:* && $_l != *" "* ]]; then # another report's header
			_in=0
		fi
		[ $_in = 1 ] && printf '%s\n' "$_l" >>"$tmp/sw.$1"
		_l=""
	done <"$_o"
	[ $_found = 1 ] || { echo "no report of $OBJ:$1 in:"; sed 's/^/# /' "$_o"; } >"$tmp/sw.$1"
}
# (has_ere, tap.sh: grep -Eq in this shell; two greps per pinned program
# were most of the script's processes)
pin() { # PROG SWITCH 6.18-COUNTS 7.2-COUNTS (verdict,insns,states)
	local p=$1 sw=$2 k618=$3 k72=$4 t got cf
	for t in old cnum-mainline; do
		counts_v got "$t" "$p"
		check "$p ($sw): $t gives 6.18.44's $k618" '[ "$got" = "$k618" ]'
		counts_v got "$t@7.2" "$p"
		check "$p ($sw): $t@7.2 gives 7.2.13's $k72 (measured)" '[ "$got" = "$k72" ]'
	done
	# explain's switch attribution (src/explain/switches.h) finds the
	# switch this program pins, with the counterfactual: old@7.2 with it
	# turned back gives 6.18's counts
	sw_file "$p"
	cf=${k618/,/ } # "verdict insns/states"
	cf=${cf/,//}
	check "$p: explain attributes old -> old@7.2 to $sw, the change vanishing without it" \
		'has_ere "$tmp/sw.$p" "^switches: +([a-z0-9_]+\+)*$sw(\+[a-z0-9_]+)* \(" &&
		 has_ere "$tmp/sw.$p" "^  counterfactual: old@7.2 without [a-z0-9_+]+: $cf -> vanished"' "$tmp/sw.$p"
	counts_v got kernel "$p"
	case $got in
	unavailable*|"") ok "$p: the running kernel gives $k618 # skip bpf() not permitted" ;;
	*) check "$p: the running kernel (6.18.44) gives $k618" '[ "$got" = "$k618" ] || ! uname -r | grep -q "^6\.18\."' ;;
	esac
}
# 7.2.13 measured 2026-12-06: success,71,4 (6.18.44: success,61,4)
pin null_id_join null_check_keeps_id success,61,4 success,71,4
cp "$tmp/log.null_id_join.old@7.2" "$tmp/id.log"
check "null_id_join @7.2: the map value keeps its id after the null check (as 7.2 logs it)" \
	'grep -q "if r0 == 0x0 goto pc+[0-9]* *; R0=map_value(id=[0-9]*,map=vals" "$tmp/id.log"' "$tmp/id.log"
cp "$tmp/log.null_id_join.old" "$tmp/id618.log"
check "null_id_join (6.18): the id is dropped" \
	'grep -q "if r0 == 0x0 goto pc+[0-9]* *; R0=map_value(map=vals" "$tmp/id618.log"' "$tmp/id618.log"
# 7.2.13 measured 2026-12-06: success,39,3 (6.18.44: success,45,4)
pin half_slot_join stack_live_half_slots success,45,4 success,39,3
# 7.2.13 measured 2026-12-06: success,54,5 (6.18.44: success,66,6)
pin rodata_fold const_fold_branches success,66,6 success,54,5
# 7.2.13 measured 2026-12-06 (verify --csv --tracker kernel-7.2; kdiff --kernel
# kernel-7.2 --tracker cnum-mainline@7.2 --trace: same trace): success,25,2
# (6.18.44: failure,5,0, "program of this type cannot use helper bpf_get_func_arg_cnt#185")
pin tp_func_args helper_sets_72 failure,5,0 success,25,2
# fentry: 7.2.13 measured 2026-12-06 success,26,2 (same trace); 6.18.44 here
# refuses trampoline programs, and the engine following it has no helper set
for t in old cnum-mainline; do
	counts_v got "$t@7.2" fentry_func_args
	check "fentry_func_args (helper_sets_72): $t@7.2 gives 7.2.13's success,26,2 (measured)" '[ "$got" = "success,26,2" ]'
	counts_v got "$t" fentry_func_args
	check "fentry_func_args: $t (6.18) leaves the helper unsupported, as before the 7.2 sets" '[ "$got" = "unsupported,5,0" ]'
done
# 7.2.13 measured 2026-12-06 (verify --csv --tracker kernel-7.2): success,18,1 (6.18.44: success,16,1)
pin linked_regs_max linked_regs_max_5 success,16,1 success,18,1
# fentry arguments are untrusted in both kernels (btf.c prog_args_trusted):
# 7.2.13 measured 2026-12-06 success,11,1 (same trace); 6.18.44 refuses fentry here
for t in old cnum-mainline old@7.2 cnum-mainline@7.2; do
	counts_v got "$t" fentry_arg_null
	check "fentry_arg_null: $t explores the NULL test on an untrusted argument (7.2.13: success,11,1)" '[ "$got" = "success,11,1" ]'
done

# insn_fields_static: bad register numbers and reserved fields behind a
# branch (tests/objects/profile72_raw.bpf.s). 7.2.13 measured
# 2026-12-06 (verify --csv --log --tracker kernel-7.2): failure,0,0 with
# "R15 is invalid", "BPF_ALU uses reserved fields", "BPF_LD_IMM64 uses
# reserved fields" right after "func#0 @0"; 6.18.44: failure,5,0, the
# same messages when exploration reaches the instruction
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_raw.bpf.o
for p in field_bad_reg field_alu_off field_ldimm64_off; do
	pin "$p" insn_fields_static failure,5,0 failure,0,0
done
rows_v f cnum-mainline@7.2
cut -d, -f2,12 "$f" >"$tmp/fields.csv"
check "insn_fields_static: 7.2.13's messages" 'grep -qx "field_bad_reg,R15 is invalid" "$tmp/fields.csv" &&
	grep -qx "field_alu_off,BPF_ALU uses reserved fields" "$tmp/fields.csv" &&
	grep -qx "field_ldimm64_off,BPF_LD_IMM64 uses reserved fields" "$tmp/fields.csv"' "$tmp/fields.csv"

# recursion_static: a .text subprogram calling itself (profile72_raw.bpf.s
# static_recursion). 7.2.13 measured 2026-12-06 (verify --csv --log
# --tracker kernel-7.2): failure,0,0, "recursive call from () to ()" after
# "func#1 @7"; 6.18.44: failure,19,2 (the call stack too deep)
pin static_recursion recursion_static failure,19,2 failure,0,0
row old@7.2 static_recursion | cut -d, -f2,12 >"$tmp/rec.csv"
check "recursion_static: 7.2.13's message" 'grep -qx "static_recursion,recursive call from () to ()" "$tmp/rec.csv"' "$tmp/rec.csv"

# stacksafe_half_scalars: a 32-bit spill against misc bytes (profile72.bpf.c
# half_spill_misc). 7.2.13 measured 2026-12-06 (verify --csv --log
# --tracker kernel-7.2): success,16,1, "12: safe" on the second path;
# 6.18.44: success,18,1 (live below)
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72.bpf.o
pin half_spill_misc stacksafe_half_scalars success,18,1 success,16,1

# ptr_cast_branch: bpf_tcp_sock() of a referenced socket used after its
# release (profile72.bpf.c cast_after_release). 7.2.13 measured
# 2026-12-06 (verify --csv --log --tracker kernel-7.2): failure,23,1,
# "17: (85) call bpf_tcp_sock#96 ; R0=tcp_sock(id=2) refs=2";
# 6.18.44: failure,26,2 (live below)
pin cast_after_release ptr_cast_branch failure,26,2 failure,23,1

# timers_in_tracing: a kprobe program with a bpf_timer map value
# (profile72.bpf.c kprobe_timer). 7.2.13 measured 2026-12-06 (verify --csv
# --log --tracker kernel-7.2): success,13,1; 6.18.44: failure,0,0
# "tracing progs cannot use bpf_timer yet" (live below)
pin kprobe_timer timers_in_tracing failure,0,0 success,13,1

# max_call_frames and global_call_resets_frames: deep call chains
# (profile72_calls.bpf.c). 7.2.13 measured 2026-12-06 (verify --csv --log
# --tracker kernel-7.2): deep_static (9 frames) success,29,3 and
# deep_global (17 by 6.18's count) success,53,5 (7.2 without the reset:
# "the call stack of 16 frames is too deep !"); 6.18.44: deep_static
# failure,11,1 ("the call stack of 9 frames is too deep", setup_func_entry),
# deep_global failure,53,5 ("the call stack of 8 frames is too deep !",
# check_max_stack_depth) (live below)
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_calls.bpf.o
pin deep_static max_call_frames failure,11,1 success,29,3
pin deep_global global_call_resets_frames failure,53,5 success,53,5
rows_v f old
cut -d, -f2,12 "$f" >"$tmp/deep.csv"
check "the call stack too deep: 6.18.44's messages" 'grep -qx "deep_static,the call stack of 9 frames is too deep" "$tmp/deep.csv" &&
	grep -qx "deep_global,the call stack of 8 frames is too deep !" "$tmp/deep.csv"' "$tmp/deep.csv"
# a stored state has room for the profile's frames: 8 pointers more @7.2
s618=$(row cnum-mainline deep_static | cut -d, -f9)
s72=$(row cnum-mainline@7.2 deep_static | cut -d, -f9)
check "state_bytes: cnum-mainline@7.2 holds 8 frame pointers more than cnum-mainline ($s618 -> $s72)" '[ -n "$s618" ] && [ "$((s72 - s618))" = 64 ]'

# ptr_off_in_var: constants added to pointers are in their ranges
# (profile72_ptr.bpf.c). 7.2.13 measured 2026-12-06 (verify --csv --log
# --tracker kernel-7.2): pkt_neg_after_var success,15,1;
# map_value_minus_one failure,10,0 "R0 unbounded memory access, make sure
# to bounds check any such access"; pkt_join_displaced success,37,3.
# 6.18.44: failure,12,0 "R5 offset is outside of the packet"; success,12,1;
# success,50,4 (live below)
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_ptr.bpf.o
pin pkt_neg_after_var ptr_off_in_var failure,12,0 success,15,1
pin map_value_minus_one ptr_off_in_var success,12,1 failure,10,0
pin pkt_join_displaced ptr_off_in_var success,50,4 success,37,3
row cnum-mainline@7.2 map_value_minus_one >"$tmp/ptr.csv"
check "ptr_off_in_var: 7.2.13's message" 'grep -q ",10,\"R0 unbounded memory access, make sure to bounds check any such access\"$" "$tmp/ptr.csv"' "$tmp/ptr.csv"


# ptr_off_in_var's messages and log_ptr_whole (profile72_msgs.bpf.c).
# 7.2.13 measured 2026-12-06 (verify --csv --log --tracker kernel-7.2):
# the three stack messages below and the state lines of map_value_imm;
# 6.18.44 gives the 6.18 messages (live below); the counts are equal
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_msgs.bpf.o
for t in old cnum-mainline old@7.2 cnum-mainline@7.2; do
	check "profile72_msgs: $t gives both kernels' counts" \
		'[ "$(counts "$t" stack_var_misaligned) $(counts "$t" stack_var_oob) $(counts "$t" stack_const_misaligned) $(counts "$t" map_value_imm)" = "failure,6,0 failure,7,0 failure,3,0 success,14,1" ]'
done
msg() { local f; rows_v f "$1"; awk -F, 'NR > 1 && $2 != "map_value_imm" { print $2 ": " $12 }' "$f"; }
msg cnum-mainline@7.2 >"$tmp/m72.txt"
cat >"$tmp/m72.want" <<'EOM'
stack_var_misaligned: misaligned stack access off (0xffffffffffffffc0; 0x7)+40 size 8
stack_var_oob: invalid variable-offset write to stack R1 var_off=(0x0; 0xfffffffffffffff8) off=0 size=8
stack_const_misaligned: misaligned stack access off -48+-9 size 8
EOM
check "stack messages @7.2: 7.2.13's (whole var_off, the instruction's offset)" 'diff "$tmp/m72.want" "$tmp/m72.txt"' "$tmp/m72.txt"
msg cnum-mainline >"$tmp/m618.txt"
cat >"$tmp/m618.want" <<'EOM'
stack_var_misaligned: misaligned stack access off (0x0; 0x7)+-64+40 size 8
stack_var_oob: invalid variable-offset write to stack R1 var_off=(0x0; 0xf8) off=-64 size=8
stack_const_misaligned: misaligned stack access off 0+-48+-9 size 8
EOM
check "stack messages (6.18): 6.18.44's" 'diff "$tmp/m618.want" "$tmp/m618.txt"' "$tmp/m618.txt"
# both profiles' logs of the program from one process, split at the headers
"$RB" verify --log --tracker cnum-mainline@7.2 --tracker cnum-mainline "$OBJ:map_value_imm" >"$tmp/imm.log" 2>&1
awk -v dir="$tmp" '/^=== .*:map_value_imm \(cnum-mainline@7\.2\) ===$/ { f = dir "/imm72.log" }
	/^=== .*:map_value_imm \(cnum-mainline\) ===$/ { f = dir "/imm618.log" } /^=== / && !/:map_value_imm / { f = "" }
	f { print >f }' "$tmp/imm.log"
check "log_ptr_whole: pointers as 7.2.13 logs them (imm=8; the whole range of 8..15)" \
	'grep -q "^9: (bf) r6 = r0 *; R0=map_value(map=vals,ks=4,vs=64,imm=8) R6=map_value(map=vals,ks=4,vs=64,imm=8)$" "$tmp/imm72.log" &&
	grep -q "^13: R0=scalar(smin=smin32=0,smax=umax=smax32=umax32=7,var_off=(0x0; 0x7)) R6=map_value(map=vals,ks=4,vs=64,smin=umin=smin32=umin32=8,smax=umax=smax32=umax32=15,var_off=(0x8; 0x7))$" "$tmp/imm72.log"' "$tmp/imm72.log"
check "log_ptr_whole (6.18): off=8, as 6.18.44" 'grep -q "R6=map_value(map=vals,ks=4,vs=64,off=8)" "$tmp/imm618.log" && ! grep -q "imm=8" "$tmp/imm618.log"' "$tmp/imm618.log"

# clear_singular_ids: singular scalar ids dropped before a state is
# stored (profile72_ids.bpf.s, progdiff's range 249 of seed 1). 7.2.13
# measured 2026-12-06 (verify --csv --tracker kernel-7.2): success,21,1;
# 6.18.44: success,24,2 (live below)
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/profile72_ids.bpf.o
pin singular_ids clear_singular_ids success,24,2 success,21,1
