# profile72_ids.bpf.s — scalar ids at prune points, pinning the 7.2
# profile's clear_singular_ids (src/engine/profile.h): 7.2.13's
# is_state_visited cleans the current state's dead registers at every
# prune point and, before storing a state, drops the id of every scalar
# no other scalar shares (bpf_clear_singular_ids), so a later path whose
# scalars are linked otherwise still matches it; 6.18 kept those ids.
# singular_ids is progdiff's program range 249 of seed 1 (rangebench
# progdiff --reference kernel-7.2 --family range --first 249 --cases 1
# --seed 1), written out as raw instruction words. tests/cli/profile72.sh
# holds both kernels' counts.
	.section license,"aw",@progbits
_license:
	.asciz "GPL"

	.section socket/singular_ids,"ax",@progbits
	.globl singular_ids
	.type singular_ids,@function
singular_ids:
	.quad 0x0000000700000085
	.quad 0x00000000000006bf
	.quad 0x000001b300000617
	.quad 0x0000000700000085
	.quad 0x00000000002007bf
	.quad 0x0000ffff00050665
	.quad 0x00000000000076bf
	.quad 0x0000001e00000607
	.quad 0x00000000000067bf
	.quad 0x0000007f00000707
	.quad 0x0000000000050005
	.quad 0x00000000000063bf
	.quad 0x0000001c00000307
	.quad 0x00000002001006d5
	.quad 0x000000000000767f
	.quad 0x0000002600000777
	.quad 0x0000000000000418
	.quad 0x0000000100000000
	.quad 0x00000000000b47dd
	.quad 0x7fffffff00000447
	.quad 0x00000000000076bf
	.quad 0x0000003f00080465
	.quad 0x00000000000046bf
	.quad 0xfffffffb00000604
	.quad 0x0000000f00030675
	.quad 0x00000000000044bf
	.quad 0x00000031000006b4
	.quad 0x000000000000742f
	.quad 0x00000000000040bf
	.quad 0x0000000000000095
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size singular_ids, 256
