#!/usr/bin/env bash
# helper_access.sh — helper calls refused before their arguments are
# looked at (Linux 6.18 check_helper_call): a helper the program type may
# not call, a GPL-only helper from a non-GPL program, a helper id newer
# than the uapi header. The engine (old, cnum) gives the kernel's verdict
# and message; where bpf() works the kernel is asked too.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/helper_access.bpf.o
. tests/cli/lib/tap.sh

# program -> "verdict|error" from a --csv verify (the error without "insn N: ")
rows() { "$RB" verify --csv --tracker "$1" "$OBJ" 2>&1 | awk -F, 'NR > 1 { e = $12; for (i = 13; i <= NF; i++) e = e "," $i; print $2 "|" $3 "|" e }' | sort; }
# get VAR FILE PROG: VAR = PROG's rows in FILE, "verdict|error" one a line
# (what grep "^PROG|" FILE | cut -d'|' -f2- printed), read in this shell:
# a grep and a cut per check were most of the script's processes
get() {
	local _l _v="" _k=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		[[ $_l == "$3|"* ]] || continue
		[ $_k -eq 0 ] || _v+=$'\n'
		_v+=${_l#*|} _k=$((_k + 1))
	done <"$2"
	printf -v "$1" '%s' "$_v"
}
# is FILE PROG TEXT: PROG's rows in FILE are TEXT
is() { local _g; get _g "$1" "$2"; [ "$_g" = "$3" ]; }

for t in old cnum; do
	rows $t >"$tmp/$t.rows"
	check "$t: gpl_only_printk rejected: a GPL-only helper from an MIT program" \
		"is $tmp/$t.rows gpl_only_printk 'failure|cannot call GPL-restricted function from non-GPL compatible program'" "$tmp/$t.rows"
	check "$t: xdp_skb_helper rejected: the kernel's message, naming the helper and its id" \
		"is $tmp/$t.rows xdp_skb_helper 'failure|program of this type cannot use helper bpf_skb_load_bytes#26'" "$tmp/$t.rows"
	check "$t: kprobe_xfrm rejected although the helper has no prototype in the engine" \
		"is $tmp/$t.rows kprobe_xfrm 'failure|program of this type cannot use helper bpf_skb_get_xfrm_state#66'" "$tmp/$t.rows"
	check "$t: cgrp_storage (#210, newer than the uapi header) checks its arguments as 6.18" \
		"is $tmp/$t.rows cgrp_storage 'failure|R1 type=scalar expected=map_ptr'" "$tmp/$t.rows"
	check "$t: ok_nongpl accepted" "is $tmp/$t.rows ok_nongpl 'success|'" "$tmp/$t.rows"
done

rows kernel >"$tmp/kernel.rows"
if grep -q '|unavailable|' "$tmp/kernel.rows"; then
	ok "# SKIP bpf() refused here: the kernel's verdicts are not compared"
else
	for p in gpl_only_printk xdp_skb_helper kprobe_xfrm cgrp_storage ok_nongpl; do
		check "kernel: $p has the engine's verdict and message" \
			"get k $tmp/kernel.rows $p && get o $tmp/old.rows $p && [ \"\$k\" = \"\$o\" ]" "$tmp/kernel.rows"
	done
	check "kernel: cgrp_storage (#210) is known to the kernel (it checks the arguments)" \
		"get k $tmp/kernel.rows cgrp_storage && [[ \$'\\n'\$k == *\$'\\n''failure|R1 type=scalar expected=map_ptr'* ]]" "$tmp/kernel.rows"
fi
