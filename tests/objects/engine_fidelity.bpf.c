/* engine_fidelity.bpf.c — minimal programs on which the engine (old) once
 * disagreed with the running kernel (Linux 6.18.44): each must now give the
 * kernel's level-2 log line for line, its verdict and its counts
 * (tests/cli/fidelity.sh runs `rangebench kdiff` on every program here).
 * The letters are the causes of issue 10; "gap_" programs are issue 9's
 * engine gaps. Written in BPF assembly so that clang cannot reshape them. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define IMM(name) [name] "i"(name)
#define ADDR(name) [name] "i"(&name)
#define CLOBBERS "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"
#define PROG(name) SEC("socket") __attribute__((naked)) int name(void)

/* ---- A (was unsound): a 32-bit add/sub of a constant links the result to
 * its source only when the destination's umax before the operation fits in
 * 32 bits (otherwise the zero extension changes the value) ---- */

/* only the state differs: no link after w7 -= 8 on a 64-bit unknown */
PROG(a1_sub32_unlinked)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "w7 -= 8;"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the link would be used: r6 = r7 + 1 (32-bit) bounded through r7 */
PROG(a2_add32_bound_not_shared)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r6 = r7;"
		     "w6 += 1;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "if r7 > 7 goto 1f;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r1 += r6;"
		     "r0 = *(u8 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the unsound case: r7 = 0x1_xxxxxxxx, r6 = w7 + 0 really has upper half 0;
 * a wrong link made old believe r6 >> 32 == 1 and accept a read at fp+8 */
PROG(a3_zext_breaks_link)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "w7 = w7;"
		     "r1 = 1;"
		     "r1 <<= 32;"
		     "r7 |= r1;"
		     "r6 = r7;"
		     "w6 += 0;"
		     "if w7 > 7 goto 1f;"
		     "r6 >>= 32;"
		     "r2 = 1;"
		     "r2 -= r6;"
		     "r2 <<= 4;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r1 += r2;"
		     "r0 = *(u64 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* control: the upper half is known zero, so both keep the link */
PROG(a4_fits32_linked)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "w7 = w7;"
		     "r6 = r7;"
		     "w6 -= 8;"
		     "if w7 > 9 goto 1f;"
		     "r0 = r6;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- H (was unsound): a sign-extending fill (LDSX, written as a raw insn
 * word since clang 14 cannot assemble it) keeps the spilled register's id
 * only when the narrow value's sign bit is known clear ---- */
/* 0x89 = LDX|MEMSX|H, dst r8, src r10, off -8: r8 = *(s16 *)(r10 - 8) */
#define LDSX16_R8_FP8 ".8byte 0x00000000fff8a889;"

PROG(h1_ldsx_fill_unlinked)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 &= 0xffff;"
		     "*(u64 *)(r10 - 8) = r7;" LDSX16_R8_FP8 "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the unsound case: r7 in [0x8000, 0x8007] is not r8 = sext16(r7) */
PROG(h2_ldsx_bound_not_shared)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 &= 0xffff;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "*(u64 *)(r10 - 8) = r7;" LDSX16_R8_FP8 "if r7 < 0x8000 goto 1f;"
		     "if r7 > 0x8007 goto 1f;"
		     "r8 -= 0x8000;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r1 += r8;"
		     "r0 = *(u8 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* control: a 15-bit value is unchanged by sign extension: linked */
PROG(h3_ldsx_fill_positive_linked)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 &= 0x7fff;"
		     "*(u64 *)(r10 - 8) = r7;" LDSX16_R8_FP8 "if r7 > 3 goto 1f;"
		     "r0 = r8;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- B: a branch outcome whose refinement breaks the bounds invariants:
 * 6.18.44 logs "verifier bug: REG INVARIANTS VIOLATION (true_reg1): ..."
 * and prints the state after the jump on a line of its own ---- */
PROG(b1_invariant_violation_log)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "r8 <<= 20;"
		     "if w8 <= 0x100 goto 1f;"
		     "if w8 <= 0xffff goto 1f;"
		     "r0 = 0;"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* a same-register jump: "w7 s<= w7" refined in place (false_reg1) */
PROG(b2_same_register_violation)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 <<= 31;"
		     "if w7 s<= w7 goto 1f;"
		     "r0 = 0;"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* after a violation the register keeps a var_off constant in its low 32
 * bits with unbounded 32-bit ranges: 6.18.44 check_alu_op() checks the
 * destination of every ALU insn, so copying it is reported again ("alu") */
PROG(b3_violation_then_copy)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "r8 &= -2147483648;"
		     "r8 ^= 2147483647;"
		     "if w8 <= w8 goto 1f;"
		     "r0 = r8;"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- C: 6.18.44 maybe_fork_scalars(): "r &= K" / "r |= K" on a register
 * whose signed range is [-1, 0] forks (the 0 case re-executes the insn) ---- */
PROG(c1_and_forks)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "r6 s>>= 63;"
		     "r6 &= 16;"
		     "r0 = r6;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the 32-bit flavour (s32 range [-1, 0]) with OR */
PROG(c2_or32_forks)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "w6 s>>= 31;"
		     "w6 |= 16;"
		     "r0 = r6;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the 32-bit fork keeps loose 64-bit bounds: __mark_reg32_known() sets
 * the low half and syncs nothing ("from 8 to 8:" prints them as they are) */
PROG(c4_fork32_no_sync)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "r6 s>>= 63;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 <<= 32;"
		     "r6 += r7;"
		     "w6 &= 16;"
		     "r0 = r6;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* the verdict depends on it: r6 is 0 or 3, never 1 */
PROG(c3_fork_decides_verdict)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "r6 s>>= 63;"
		     "r6 &= 3;"
		     "if r6 != 1 goto 1f;"
		     "r0 = *(u64 *)(r10 + 8);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- D: a variable-offset stack write over a spilled scalar turns the
 * whole slot to misc; zero written over a spilled 0 keeps the spill ---- */
PROG(d1_varoff_write_scrubs_spill)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "if r6 > 1 goto 1f;"
		     "r1 = r10;"
		     "r1 += -7;"
		     "r1 += r6;"
		     "*(u8 *)(r1 + 0) = r6;"
		     "r0 = *(u8 *)(r10 - 4);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

PROG(d2_varoff_zero_over_zero_spill)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "if r6 > 1 goto 1f;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r1 += r6;"
		     "r2 = 0;"
		     "*(u8 *)(r1 + 0) = r2;"
		     "r0 = *(u64 *)(r10 - 8);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* BPF_ST imm 0 at a variable offset is a zero write too: bytes that were
 * STACK_ZERO stay zero (6.18.44 check_stack_write_var_off); the zero read
 * back is what makes the later stack access constant */
PROG(d3_varoff_st_zero_keeps_zero)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     /* *(u32 *)(r10 - 4) = 0 (BPF_ST, raw: clang 14 lacks it):
		      * STACK_ZERO bytes, not a spill (the offset is unaligned) */
		     ".8byte 0x00000000fffc0a62;"
		     "r6 &= 8;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r1 += r6;"
		     /* *(u64 *)(r1 + 0) = 0 (BPF_ST) */
		     ".8byte 0x000000000000017a;"
		     "r2 = *(u32 *)(r10 - 4);"
		     "r3 = r10;"
		     "r3 += -4;"
		     "r3 += r2;"
		     "r0 = *(u8 *)(r3 + 0);"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* a variable-offset write marks no stack liveness (6.18.44: it is neither
 * a sure write nor a read), so fp-8 is dead at 2: and the second path is
 * pruned there although fp-8 holds a pointer on one path, a scalar on the
 * other */
PROG(d4_varoff_write_reads_nothing)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r6 &= 8;"
		     "if r6 > 100 goto 3f;"
		     "3: if r6 > 200 goto 4f;"
		     "4: if r7 > 5 goto 1f;"
		     "*(u64 *)(r10 - 8) = r10;"
		     /* enough insns for a checkpoint at 2: */
		     "r2 = 1;"
		     "r3 = 2;"
		     "r4 = 3;"
		     "r5 = 4;"
		     "r8 = 5;"
		     "goto 2f;"
		     "1: *(u64 *)(r10 - 8) = r7;"
		     "2: r1 = r10;"
		     "r1 += -16;"
		     "r1 += r6;"
		     "r2 = 1;"
		     "*(u64 *)(r1 + 0) = r2;"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- E: "le64" is a no-op on little-endian and keeps the link ---- */
PROG(e1_le64_keeps_link)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r6 = r7;"
		     "r7 = le64 r7;"
		     "if r7 > 7 goto 1f;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r1 += r6;"
		     "r0 = *(u8 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* control: le32, neg and bswap change the value and drop the link */
PROG(e2_changing_ops_unlink)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r6 = r7;"
		     "r8 = r7;"
		     "r6 = le32 r6;"
		     "r7 = -r7;"
		     "r8 = be64 r8;"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- F: a variable-offset stack read logs the slots up to the first
 * byte that is not STACK_ZERO ---- */
PROG(f1_varoff_read_scratch)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "if r6 > 15 goto 1f;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r1 += r6;"
		     "r0 = *(u8 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* zero bytes (BPF_ST 0, not a spill) are all logged */
PROG(f2_varoff_read_zero_bytes)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     /* *(u32 *)(r10 - 16|12|8) = 0 (BPF_ST, raw: clang 14 lacks it) */
		     ".8byte 0x00000000fff00a62;"
		     ".8byte 0x00000000fff40a62;"
		     ".8byte 0x00000000fff80a62;"
		     "if r6 > 3 goto 1f;"
		     "r1 = r10;"
		     "r1 += -16;"
		     "r1 += r6;"
		     "r0 = *(u8 *)(r1 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- G: a helper's stack argument past the stack top: "invalid read
 * from stack" (6.18 names helper accesses by direction) ---- */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} fid_hash SEC(".maps");

PROG(g1_helper_read_past_top)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r2 = r10;"
		     "r2 += -3;"
		     "r1 = %[fid_hash] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_map_lookup_elem),
		     ADDR(fid_hash) : CLOBBERS);
}

/* a helper writing past the stack top */
PROG(g2_helper_write_past_top)
{
	asm volatile("r2 = 0;"
		     "r3 = r10;"
		     "r3 += -3;"
		     "r4 = 4;"
		     "call %[bpf_skb_load_bytes];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_skb_load_bytes) : CLOBBERS);
}

/* ---- a verdict the kernel reaches through its own "verifier bug" check
 * (6.18.44 __mark_chain_precision): the path 14 -> 1: fills fp-16, which
 * it never wrote (allow_uninit_stack), and is pruned at 1: against the
 * checkpoint where fp-16 is a precise spill; propagating that precision
 * back reaches the checkpoint after the fourth call, which has no stack
 * yet: "verifier bug: stack slot 1, total slots 0" (progdiff spill #7601,
 * seed 7) ---- */
PROG(v1_precision_past_allocated_stack)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 |= r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r7 -= 282;"
		     "call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "r8 <<= 32;"
		     "call %[bpf_get_prandom_u32];"
		     "r8 |= r0;"
		     "r4 = *(u64 *)(r10 - 40);"
		     "if w8 >= 1 goto 1f;"
		     "*(u64 *)(r10 - 16) = r7;"
		     "w8 &= 128;"
		     "1: r7 = *(u64 *)(r10 - 16);"
		     "r6 = *(u8 *)(r10 - 16);"
		     "if r6 s<= 0x1ae4e752 goto 2f;"
		     "2: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- an infinite loop: 6.18.44 compares the loop head's registers
 * without their precise flags, rejects and prints both states ---- */
PROG(l1_infinite_loop)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r1 = 0;"
		     "1: if r6 > 5 goto 2f;"
		     "r1 = 1;"
		     "goto 1b;"
		     "2: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* ---- issue 9's engine gaps (large tc datapaths) ---- */

/* bpf_fib_lookup's params: ARG_PTR_TO_MEM | MEM_WRITE in 6.18 (read as
 * initialised memory, clobbered in place: no slot is logged at the call) */
SEC("tc")
__attribute__((naked)) int gap_fib_lookup_mem_write(void)
{
	asm volatile("r6 = r1;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 64) = r1;"
		     "*(u64 *)(r10 - 56) = r1;"
		     "*(u64 *)(r10 - 48) = r1;"
		     "*(u64 *)(r10 - 40) = r1;"
		     "*(u64 *)(r10 - 32) = r1;"
		     "*(u64 *)(r10 - 24) = r1;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r2 = r10;"
		     "r2 += -64;"
		     "r1 = r6;"
		     "r3 = 64;"
		     "r4 = 0;"
		     "call %[bpf_fib_lookup];"
		     "r0 = *(u32 *)(r10 - 64);"
		     "r1 = *(u64 *)(r10 - 8);"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_fib_lookup) : CLOBBERS);
}

/* an inner map pointer has no name (the kernel's inner-map template) */
struct fid_inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} fid_inner_a SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct fid_inner);
} fid_outer SEC(".maps") = {.values = {&fid_inner_a}};

SEC("tc")
__attribute__((naked)) int gap_inner_map_unnamed(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[fid_outer] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r1 = r0;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r0 = *(u64 *)(r0 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_map_lookup_elem),
		     ADDR(fid_outer) : CLOBBERS);
}

/* the inner map pointer used before its NULL check: map_ptr_or_null is no
 * map pointer for a helper (6.18 check_reg_type; the engine accepted it
 * once the lookup was typed at the call) */
SEC("tc")
__attribute__((naked)) int gap_inner_map_no_null_check(void)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[fid_outer] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "r1 = r0;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "call %[bpf_map_lookup_elem];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_map_lookup_elem),
		     ADDR(fid_outer) : CLOBBERS);
}

/* pruning right after bpf_map_delete_elem (two paths meet at the call) */
SEC("tc")
__attribute__((naked)) int gap_prune_after_map_delete(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "if r6 > 10 goto 1f;"
		     "r7 = 1;"
		     "goto 2f;"
		     "1: r7 = 2;"
		     "2: r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[fid_hash] ll;"
		     "call %[bpf_map_delete_elem];"
		     "r0 = r7;"
		     "exit;" ::IMM(bpf_map_delete_elem),
		     IMM(bpf_get_prandom_u32), ADDR(fid_hash) : CLOBBERS);
}

/* legacy packet loads (LD_ABS/LD_IND) use every register as far as 6.18's
 * compute_live_registers is concerned: r9 is live at the join below, so
 * the path without r9 is not pruned against the one with r9 = 0 (the
 * engine had LD_ABS define r0-r5 and use r6 only: 196 insns against the
 * kernel's 216 on suricata's hashfilter) */
PROG(live_ld_abs)
{
	asm volatile("r6 = r1;"
		     "r7 = 1;"
		     "r8 = 2;"
		     "r0 = *(u16 *)skb[12];"
		     "if r0 == 0x88a8 goto 1f;"
		     "r9 = 0;"
		     "r8 = 14;"
		     "if r0 != 0x8100 goto 2f;"
		     "1: r8 = 18;"
		     "r0 = *(u16 *)skb[14];"
		     "2: r0 = r8;"
		     "exit;" ::: CLOBBERS);
}

/* a helper's MEM_UNINIT stack argument (skb_load_bytes' "to") is not a
 * read: 6.18 check_stack_range_initialized returns early in raw mode and
 * the helper's writes after the call are one-byte stores, so fp-8 is dead
 * at the join and the path with a scalar there is pruned against the one
 * with the context pointer (the engine marked the slot read and explored
 * 27 insns to the kernel's 20; Tetragon generic_tracepoint_event, 7448
 * against 7445, through probe_read's dst) */
PROG(live_raw_helper_write)
{
	asm volatile("r6 = r1;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r8 = 1;"
		     "r9 = 2;"
		     "if r7 > 10 goto 1f;"
		     "*(u64 *)(r10 - 8) = r6;"
		     "r8 += 1;"
		     "r9 += 1;"
		     "goto 2f;"
		     "1: *(u64 *)(r10 - 8) = r7;"
		     "2: r1 = r6;"
		     "r2 = 0;"
		     "r3 = r10;"
		     "r3 += -8;"
		     "r4 = 8;"
		     "call %[bpf_skb_load_bytes];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32),
		     IMM(bpf_skb_load_bytes) : CLOBBERS);
}

/* a store through a register is a sure write of the slot only if every
 * visit writes it: 6.18 keeps, per instruction, the intersection of what
 * each visit fully wrote (a visit writing fp-16 leaves fp-8 unwritten), so
 * fp-8, read after the store, is live at the join and the path with a
 * scalar there is not pruned against the one with the context pointer
 * (the engine kept fp-8 as surely written by the store: it pruned; Tetragon
 * generic_*_filter_arg, 367884 insns against the kernel's 368678) */
PROG(live_store_visits_meet)
{
	asm volatile("r6 = r1;"
		     "call %[bpf_get_prandom_u32];"
		     "r8 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r9 = 2;"
		     "if r7 > 10 goto 1f;"
		     "*(u64 *)(r10 - 8) = r6;"
		     "r9 += 1;"
		     "r9 += 1;"
		     "goto 2f;"
		     "1: *(u64 *)(r10 - 8) = r7;"
		     "2: r2 = r10;"
		     "r2 += -8;"
		     "if r8 > 5 goto 3f;"
		     "goto 4f;"
		     "3: r2 = r10;"
		     "r2 += -16;"
		     "4: *(u64 *)(r2 + 0) = r7;"
		     "r1 = *(u64 *)(r10 - 8);"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* 6.18 liveness.c solves stack liveness only when a path ends (and when a
 * subprogram returns): a checkpoint cleaned before that is judged without
 * the reads the current path made since. Here the path through 3 reads
 * fp-8 and then writes half of it; at 4 the checkpoints of the paths
 * through 2 are cleaned before that read is solved, so fp-8 is dead in
 * them and the path is pruned (the engine used to solve at once, keep fp-8 and
 * go on: Tetragon's generic_uprobe_actions, 637463 insns against the
 * kernel's 898442) */
PROG(live_stack_solved_at_path_end)
{
	asm volatile("r1 = 0;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r7 = 0;"
		     "r3 = 0;"
		     "r4 = 0;"
		     "1: call %[bpf_get_prandom_u32];"
		     "if r0 == 0 goto 3f;"
		     "r2 = 1;"
		     "r2 += 1;"
		     "r2 += 1;"
		     "r2 += 1;"
		     "r2 += 1;"
		     "goto 4f;"
		     "3: r1 = *(u64 *)(r10 - 8);"
		     "r1 = 1;"
		     "*(u32 *)(r10 - 8) = r1;"
		     "4: r7 += 1;"
		     "if r7 < 2 goto 1b;"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

char _license[] SEC("license") = "GPL";
