# profile72_raw.bpf.s — programs of the engine's 7.2 profile written as
# raw instruction words (.quad: the assembler refuses these encodings).
#
# field_*: instructions with bad register numbers or
# reserved fields behind a branch (profile.h insn_fields_static): Linux
# 7.2.13 checks every instruction before exploring (verifier.c
# check_and_resolve_insns, check_insn_fields) and fails having processed
# 0 instructions; 6.18.44 fails when exploration reaches the instruction.
# Each program: r0 = 0; call bpf_get_prandom_u32; if r0 > 5 goto +1;
# r0 = 1; then the bad instruction; r0 = 0; exit. tests/cli/profile72.sh
# holds both kernels' counts.
	.section license,"aw",@progbits
_license:
	.asciz "GPL"

# field_bad_reg: r1 = r15 (0xbf, src 15) after a branch: 7.2.13 refuses before exploring
	.section socket/field_bad_reg,"ax",@progbits
	.globl field_bad_reg
	.type field_bad_reg,@function
field_bad_reg:
	.quad 0x00000000000000b7
	.quad 0x0000000700000085
	.quad 0x0000000500010025
	.quad 0x00000001000000b7
	.quad 0x000000000000f1bf
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size field_bad_reg, 56

# field_alu_off: r0 += 1 with off 2 (BPF_ALU reserved fields) after a branch
	.section socket/field_alu_off,"ax",@progbits
	.globl field_alu_off
	.type field_alu_off,@function
field_alu_off:
	.quad 0x00000000000000b7
	.quad 0x0000000700000085
	.quad 0x0000000500010025
	.quad 0x00000001000000b7
	.quad 0x0000000100020007
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size field_alu_off, 56

# field_ldimm64_off: r1 = 0 as ld_imm64 with off 1 (BPF_LD_IMM64 reserved fields) after a branch
	.section socket/field_ldimm64_off,"ax",@progbits
	.globl field_ldimm64_off
	.type field_ldimm64_off,@function
field_ldimm64_off:
	.quad 0x00000000000000b7
	.quad 0x0000000700000085
	.quad 0x0000000500010025
	.quad 0x00000001000000b7
	.quad 0x0000000000010118
	.quad 0x0000000000000000
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size field_ldimm64_off, 64

# static_recursion (profile.h recursion_static): after the same prefix, a
# bpf-to-bpf call into a .text subprogram that calls itself: 7.2.13
# refuses it before exploring (verifier.c sort_subprogs_topo, "recursive
# call from () to ()": no BTF, no names); 6.18.44 explores until the
# call stack is too deep
	.section socket/static_recursion,"ax",@progbits
	.globl static_recursion
	.type static_recursion,@function
static_recursion:
	.quad 0x00000000000000b7
	.quad 0x0000000700000085
	.quad 0x0000000500010025
	.quad 0x00000001000000b7
	call recurse
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size static_recursion, 56

	.text
	.type recurse,@function
recurse:
	.quad 0x00000000000000b7
	call recurse
	.quad 0x0000000000000095
	.size recurse, 24
