# profile72_jmp.bpf.s — the linked scalars of a conditional jump in the
# 7.2 profile (src/engine/profile.h linked_regs_first): 7.2.13's
# check_cond_jmp_op collects them before is_branch_taken, so `if r6 < r6`
# (decided: not taken) with r6, r7 and r9 linked collects the three twice
# and r9, the sixth, loses its id (LINKED_REGS_MAX 5); the later
# `if r6 > 10` then bounds r6 and r7 but not r9, and `if r9 > 10` forks.
# 6.18.44 collected links only at a jump that forks. Written out as raw
# instruction words (progdiff regjmp 342 of seed 1 reduced);
# tests/cli/profile72_jmp.sh holds both kernels' counts.
	.section license,"aw",@progbits
_license:
	.asciz "GPL"

	.section socket/linked_first,"ax",@progbits
	.globl linked_first
	.type linked_first,@function
linked_first:
	.quad 0x0000000700000085
	.quad 0x00000000000006bf
	.quad 0x00000000000067bf
	.quad 0x00000000000069bf
	.quad 0x00000000000000b7
	.quad 0x00000000000466ad
	.quad 0x0000000a00030625
	.quad 0x0000000a00020925
	.quad 0x00000000000070bf
	.quad 0x0000000000000095
	.quad 0x00000001000000b7
	.quad 0x0000000100000007
	.quad 0x0000000000000095
	.size linked_first, 104
