# encodings.bpf.s — one-instruction programs whose encodings Linux 6.18.44
# judges in its own way (issue 24 item 13, measured with bpf() on 6.18.44):
# each program sets r0..r9 to 0, runs the instruction(s) named in its
# comment, then "r0 = 0; exit". tests/cli/encodings.sh requires the engine
# to give the kernel's verdict, message and counts on every one (kdiff).
# Written as raw instruction words (.quad) because the assembler refuses
# most of these encodings.
	.section license,"aw",@progbits
_license:
	.asciz "GPL"

# mg_off0: may_goto with offset 0 (0xe5, all fields 0): accepted
	.section xdp/mg_off0,"ax",@progbits
	.globl mg_off0
	.type mg_off0,@function
mg_off0:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000000e5
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_off0, 104

# mg_off0_x3: three of them: 3 states, 19 insns
	.section xdp/mg_off0_x3,"ax",@progbits
	.globl mg_off0_x3
	.type mg_off0_x3,@function
mg_off0_x3:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000000e5
	.quad 0x00000000000000e5
	.quad 0x00000000000000e5
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_off0_x3, 120

# mg_src1: may_goto with src_reg 1: refused, and no checkpoint (0 states)
	.section xdp/mg_src1,"ax",@progbits
	.globl mg_src1
	.type mg_src1,@function
mg_src1:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000110e5
	.quad 0x00000001000000b7
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_src1, 112

# mg_dst1: may_goto with dst_reg 1: refused after its checkpoint (1 state)
	.section xdp/mg_dst1,"ax",@progbits
	.globl mg_dst1
	.type mg_dst1,@function
mg_dst1:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000101e5
	.quad 0x00000001000000b7
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_dst1, 112

# mg_imm1: may_goto with imm 1: "invalid may_goto imm 1"
	.section xdp/mg_imm1,"ax",@progbits
	.globl mg_imm1
	.type mg_imm1,@function
mg_imm1:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000001000100e5
	.quad 0x00000001000000b7
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_imm1, 112

# mg_loop_back: a may_goto back edge: "The sequence of 8193 jumps is too complex."
	.section xdp/mg_loop_back,"ax",@progbits
	.globl mg_loop_back
	.type mg_loop_back,@function
mg_loop_back:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000006b7
	.quad 0x0000000100000607
	.quad 0x00000000fffe00e5
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size mg_loop_back, 120

# ldimm_off: ld_imm64 with off 1: "BPF_LD_IMM64 uses reserved fields"
	.section xdp/ldimm_off,"ax",@progbits
	.globl ldimm_off
	.type ldimm_off,@function
ldimm_off:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x0000000100010018
	.quad 0x0000000200000000
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size ldimm_off, 112

# atom_8: atomic op 0x08: "BPF_ATOMIC uses invalid atomic opcode 08"
	.section xdp/atom_8,"ax",@progbits
	.globl atom_8
	.type atom_8,@function
atom_8:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000fff80a7a
	.quad 0x00000008fff80adb
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size atom_8, 112

# atom_f0: atomic op 0xf0
	.section xdp/atom_f0,"ax",@progbits
	.globl atom_f0
	.type atom_f0,@function
atom_f0:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000fff80a7a
	.quad 0x000000f0fff80adb
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size atom_f0, 112

# atom_100: load-acquire into r10: "frame pointer is read only"
	.section xdp/atom_100,"ax",@progbits
	.globl atom_100
	.type atom_100,@function
atom_100:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000fff80a7a
	.quad 0x00000100fff80adb
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size atom_100, 112

# asc_imm0: addr_space_cast (mov off 1) with imm 0: only between address spaces 1 and 0
	.section xdp/asc_imm0,"ax",@progbits
	.globl asc_imm0
	.type asc_imm0,@function
asc_imm0:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000000000120bf
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size asc_imm0, 104

# asc_no_arena: addr_space_cast 1 -> 0 in a program without an arena
	.section xdp/asc_no_arena,"ax",@progbits
	.globl asc_no_arena
	.type asc_no_arena,@function
asc_no_arena:
	.quad 0x00000000000000b7
	.quad 0x00000000000001b7
	.quad 0x00000000000002b7
	.quad 0x00000000000003b7
	.quad 0x00000000000004b7
	.quad 0x00000000000005b7
	.quad 0x00000000000006b7
	.quad 0x00000000000007b7
	.quad 0x00000000000008b7
	.quad 0x00000000000009b7
	.quad 0x00000001000120bf
	.quad 0x00000000000000b7
	.quad 0x0000000000000095
	.size asc_no_arena, 104
