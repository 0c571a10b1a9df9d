#!/usr/bin/env bash
# encodings.sh — one-instruction programs whose encodings Linux 6.18.44
# judges in its own way (issue 24 item 13; tests/objects/encodings.bpf.s):
# the engine (old) gives the verdict, message, instruction and state counts
# measured on 6.18.44 (checked without the kernel), and where bpf() is
# permitted its log, verdict and counts equal the running kernel's (kdiff).
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/encodings.bpf.o
. tests/cli/lib/tap.sh

"$RB" verify --csv --tracker old "$OBJ" >"$tmp/csv" 2>"$tmp/err"; rc=$?
check "verify --csv --tracker old exits 0" '[ $rc -eq 0 ]' "$tmp/err"
# program | verdict | processed insns | states | error insn | message (6.18.44)
while IFS='|' read -r prog verdict insns states at msg; do
	check "$prog: $verdict, $insns insns, $states states${msg:+, '$msg'}" \
	  'csv_row "$tmp/csv" 2="$prog" 3="$verdict" 5="$insns" 6="$states" 11="$at" 12="$msg"' "$tmp/csv"
done <<'EOF'
mg_off0|success|15|1|-1|
mg_off0_x3|success|19|3|-1|
mg_src1|failure|11|0|10|invalid may_goto imm 0
mg_dst1|failure|11|1|10|invalid may_goto imm 0
mg_imm1|failure|11|1|10|invalid may_goto imm 1
mg_loop_back|failure|16397|8193|12|The sequence of 8193 jumps is too complex.
ldimm_off|failure|11|0|10|BPF_LD_IMM64 uses reserved fields
atom_8|failure|12|0|11|BPF_ATOMIC uses invalid atomic opcode 08
atom_f0|failure|12|0|11|BPF_ATOMIC uses invalid atomic opcode f0
atom_100|failure|12|0|11|frame pointer is read only
asc_imm0|failure|11|0|10|addr_space_cast insn can only convert between address space 1 and 0
asc_no_arena|failure|11|0|10|addr_space_cast insn can only be used in a program that has an associated arena
EOF

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" encodings
