/* progen_fidelity.bpf.c — minimal programs for disagreements between the
 * engine (old) and the running kernel (6.18.44) that `rangebench progdiff`
 * found on random programs; tests/cli/progen_fidelity.sh requires kdiff to
 * report identical logs, verdicts and counts for every one. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define IMM(name) [name] "i"(name)
#define CLOBBERS "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"
/* raw instructions where clang 14's BPF assembler has no syntax */
#define PROG(name) SEC("socket") __attribute__((naked)) int name(void)
#define PROG_TC(name) SEC("tc") __attribute__((naked)) int name(void)

/* An atomic fetch loads the old value into its source register: when that
 * register must be precise (here: the branch on it is decided), precision
 * moves to the stack slot it was loaded from, not to the register's value
 * before the fetch (6.18.44 backtrack_insn, is_atomic_fetch_insn). So r6
 * is not precise at 1: and the second path (r6 unknown) is pruned there
 * against the first (r6 in [0, 255]); the engine kept r6 precise and
 * explored the second path again (progdiff atomic seed 1 #351). */
PROG(atomic_fetch_precision)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     /* enough jumps and instructions since the last checkpoint
		      * that 6.18 keeps a state at 1: (add_new_state) */
		     "if r7 > 1000 goto 3f;"
		     "r1 = 1;"
		     "r2 = 2;"
		     "if r7 > 999 goto 3f;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "r1 = 6;"
		     "r2 = 7;"
		     "r3 = 8;"
		     "if r7 > 10 goto 1f;"
		     "r6 &= 0xff;"
		     "1: w1 = 255;"
		     "*(u32 *)(r10 - 8) = w1;"
		     /* w6 = atomic_fetch_and((u32 *)(r10 - 8), w6): clang 14's
		      * assembler has no syntax for it */
		     ".8byte 0x00000051fff86ac3;"
		     "if w6 != 0x10f goto 2f;"
		     "r0 = 1;"
		     "exit;"
		     "2: r0 = 0;"
		     "exit;"
		     "3: r0 = 2;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* A packet access below the proven range: 6.18 __check_mem_access prints
 * the access offset (register offset + instruction offset) in both places
 * of "invalid access to packet, off=-7 size=8, R4(id=0,off=-7,r=1)"; the
 * engine printed the register's own offset in the second (off=1; progdiff
 * pkt seed 1 #0, a log-only difference). */
PROG_TC(pkt_access_below_range)
{
	asm volatile("r2 = *(u32 *)(r1 + 76);"
		     "r3 = *(u32 *)(r1 + 80);"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u64 *)(r4 - 8);"
		     "1: r0 = 0;"
		     "exit;" ::: CLOBBERS);
}

/* A jump on linked registers collects at most six of them; one left out
 * loses its id and (6.18.44, clear_scalar_id) its delta. Here r9 = r6 - 21
 * is left out at "if w6 > w9" (r3, r6, r7, r9 are collected once per
 * operand), then r8 = r9 gives r9 a new id: with the stale delta kept (the
 * engine) r8 = r9 - 21 was later synchronised with r9 as if equal to it,
 * r8 in [2^63-21, 2^63-1] where it is in [2^63-42, 2^63-22] (progdiff
 * regjmp seed 9202 #230). */
PROG(stale_delta_after_collect)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 |= r0;"
		     "if r6 s>= 0xfffff000 goto 1f;"
		     "r3 = r6;"
		     "r7 = r6;"
		     "r9 = r6;"
		     "r9 -= 21;"
		     "if w6 > w9 goto 1f;"
		     "r8 = r9;"
		     "r8 += -21;"
		     "if r9 s<= 0xfffffff8 goto 1f;"
		     "r0 = r8;"
		     "r0 += r3;"
		     "r0 += r7;"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[24]);
} vals SEC(".maps");

/* The same stale delta made the engine (old and cnum) accept an out-of-bounds access:
 * r8 - (2^63 - 21) is in [-21, -1], the engine believed [0, 20], so it let
 * a map value be read below its start; 6.18.44 rejects it ("R1 min value
 * is negative") */
PROG(stale_delta_unsound)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 <<= 32;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 |= r0;"
		     "if r6 s>= 0xfffff000 goto 1f;"
		     "r3 = r6;"
		     "r7 = r6;"
		     "r9 = r6;"
		     "r9 -= 21;"
		     "if w6 > w9 goto 1f;"
		     "r8 = r9;"
		     "r8 += -21;"
		     "if r9 s<= 0xfffffff8 goto 1f;"
		     "*(u32 *)(r10 - 4) = r3;"
		     "*(u32 *)(r10 - 8) = r7;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 12) = r1;"
		     "r2 = r10;"
		     "r2 += -12;"
		     "r1 = %[vals] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r1 = 0x7fffffffffffffeb ll;"
		     "r8 -= r1;"
		     "r0 += r8;"
		     "r0 = *(u8 *)(r0 + 0);"
		     "exit;"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32), IMM(bpf_map_lookup_elem), [vals] "i"(&vals) : CLOBBERS);
}

/* A 32-bit move of a pointer (privileged): the destination is unknown
 * and, as after every 32-bit move, zero-extended (6.18 check_alu_op:
 * mark_reg_unknown, then zext_32_to_64): [0, 0xffffffff]. The engine
 * left it 64-bit unknown (progdiff call seed 1 #915, seed 3 #698). */
PROG(mov32_of_pointer)
{
	asm volatile("r1 = r10;"
		     "r1 += -8;"
		     "w2 = w1;"
		     "r0 = r2;"
		     "r0 >>= 31;"
		     "exit;" ::: CLOBBERS);
}

/* A static function that surely writes the caller's slot it is given */
static __attribute__((noinline, used, naked)) void write_through_r1(void)
{
	asm volatile("*(u64 *)(r1 + 0) = r2;"
		     "r0 = r2;"
		     "exit;" ::: "memory");
}

/* The callee fully writes fp-32 (through r1) before the caller reads it,
 * so fp-32 is dead at 1: (6.18 liveness.c: must_write of frame 0 recorded
 * in the callee) and the path that skipped the spill is pruned there
 * against the one that made it. The engine counted only a frame's own
 * writes as sure writes, kept fp-32 live and explored the second path
 * again (progdiff call seed 9102 #307: kernel 55 insns, old 64). */
PROG(callee_writes_caller_slot)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "if r7 > 1000 goto 3f;"
		     "r1 = 1;"
		     "r2 = 2;"
		     "if r7 > 999 goto 3f;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "r1 = 6;"
		     "r2 = 7;"
		     "r3 = 8;"
		     "if r6 > 10 goto 1f;"
		     "*(u64 *)(r10 - 32) = r7;"
		     "1: r1 = r10;"
		     "r1 += -32;"
		     "r2 = r6;"
		     "call write_through_r1;"
		     "r0 = *(u64 *)(r10 - 32);"
		     "exit;"
		     "3: r0 = 2;"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* Inside the callee the caller's fp-16 is alive: it is read after the
 * callsite (6.18 bpf_stack_slot_alive), although the callee overwrites it
 * first. So the second path (fp-16 never written) is not pruned at the
 * callee's entry against the first (fp-16 = r7). The engine let the
 * callee's sure write kill the slot there too and pruned (progdiff call
 * seed 5 #499: kernel 144 insns, old 133). */
PROG(caller_slot_alive_in_callee)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "r8 = 1;"
		     /* a checkpoint here; then none until the callee's entry */
		     "if r6 > 10 goto 1f;"
		     "*(u64 *)(r10 - 16) = r7;"
		     "1: r1 = r10;"
		     "r1 += -16;"
		     "r2 = r7;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "call write_through_r1;"
		     "r0 = *(u64 *)(r10 - 16);"
		     "exit;" ::IMM(bpf_get_prandom_u32) : CLOBBERS);
}

/* Narrow context loads (6.18 bpf_skb_is_valid_access): every __sk_buff
 * u32 field without a rule of its own may be read 1, 2 or 4 bytes wide
 * (bpf_ctx_narrow_access_ok), gso_segs and gso_size included; the engine
 * allowed narrow loads only for a list of fields and refused these
 * (progdiff memsx seed 1 #14: "invalid bpf_context access off=178
 * size=2", which 6.18 accepts). Sign-extending loads too. */
PROG(ctx_narrow_gso)
{
	asm volatile("r6 = r1;"
		     "r0 = *(u16 *)(r6 + 178);"
		     "r2 = *(u8 *)(r6 + 164);"
		     "r0 += r2;"
		     ".8byte 0x0000000000b06289;" /* r2 = *(s16 *)(r6 + 176) */
		     "r0 += r2;"
		     "exit;" ::: CLOBBERS);
}

/* tstamp_type is readable by tc programs only; 6.18's
 * bpf_skb_is_valid_access refuses it otherwise. The engine let a socket
 * filter read it (a program the kernel refuses, accepted). */
PROG(ctx_tstamp_type_socket)
{
	asm volatile("r0 = *(u8 *)(r1 + 180);"
		     "exit;" ::: CLOBBERS);
}

/* A misaligned stack access names the register's var_off the way 6.18's
 * tnum_strn (kernel/bpf/log.c) prints it: a constant as its value ("0"),
 * not as "(0x0; 0x0)" (progdiff stack seed 1 #42, a message difference). */
PROG(misaligned_stack_const_var_off)
{
	asm volatile("r2 = r10;"
		     "r2 += -32;"
		     "r0 = *(u32 *)(r2 - 15);"
		     "exit;" ::: CLOBBERS);
}

/* An instruction that fully writes several stack slots in one visit (a
 * dynptr's two slots here) surely writes all of them (6.18 liveness.c
 * accumulates a visit's write marks before committing them). The engine
 * kept only the first slot a first visit wrote, so fp-8 stayed live
 * before the bpf_dynptr_from_mem and the second path (fp-8 never written)
 * was not pruned at 2: against the first (fp-8 partly written; progdiff
 * ringbuf seed 1 #94: kernel 135 insns, old 201). */
PROG(dynptr_two_slot_write)
{
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 48) = r1;"
		     "r2 = r10;"
		     "r2 += -48;"
		     "r1 = %[vals] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 3f;"
		     "r9 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "call %[bpf_get_prandom_u32];"
		     "r7 = r0;"
		     "if r7 > 1000 goto 3f;"
		     "r1 = 1;"
		     "r2 = 2;"
		     "if r7 > 999 goto 3f;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "r1 = 6;"
		     "r2 = 7;"
		     "r3 = 8;"
		     "if r6 > 10 goto 2f;"
		     "*(u16 *)(r10 - 8) = r7;"
		     "if r7 > 998 goto 3f;"
		     "r1 = 1;"
		     "r2 = 2;"
		     "r3 = 3;"
		     "r4 = 4;"
		     "r5 = 5;"
		     "r1 = 6;"
		     "r2 = 7;"
		     "r3 = 8;"
		     "2: r1 = r9;"
		     "r2 = 8;"
		     "r3 = 0;"
		     "r4 = r10;"
		     "r4 += -16;"
		     "call %[bpf_dynptr_from_mem];"
		     "r1 = r10;"
		     "r1 += -40;"
		     "r2 = 4;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 0;"
		     "r5 = 0;"
		     "call %[bpf_dynptr_read];"
		     "r0 = 0;"
		     "exit;"
		     "3: r0 = 2;"
		     "exit;" ::IMM(bpf_get_prandom_u32), IMM(bpf_map_lookup_elem), IMM(bpf_dynptr_from_mem),
		     IMM(bpf_dynptr_read), [vals] "i"(&vals) : CLOBBERS);
}

/* A scalar's offset is the delta of a linked copy (rD = rS; rD += K), no
 * pointer offset: 6.18 checks an offset register added to a pointer for
 * its value and bounds only (check_reg_sane_offset_scalar), so here the
 * bounds speak ("value -2147483648 makes map_value pointer be out of
 * bounds"); the engine refused the delta itself ("map_value pointer offset
 * -2147483648 is not allowed"; progdiff link32 seed 12 #95). */
PROG(scalar_delta_not_ptr_offset)
{
	asm volatile("call %[bpf_get_prandom_u32];"
		     "r6 = r0;"
		     "r6 &= 0xff;"
		     "r7 = r6;"
		     "r7 += -2147483648;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[vals] ll;"
		     "call %[bpf_map_lookup_elem];"
		     "if r0 == 0 goto 1f;"
		     "r0 += r7;"
		     "r0 = *(u8 *)(r0 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::IMM(bpf_get_prandom_u32), IMM(bpf_map_lookup_elem), [vals] "i"(&vals) : CLOBBERS);
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* bpf_ringbuf_reserve's size is checked for its type (a scalar) before
 * its constness (6.18 check_func_arg: check_reg_type, then
 * ARG_CONST_ALLOC_SIZE_OR_ZERO); the engine answered "R2 is not a known
 * constant'" for a map pointer (progdiff ringbuf seed 11 #956). */
PROG(ringbuf_size_not_scalar)
{
	asm volatile("r1 = %[rb] ll;"
		     "r2 = r1;"
		     "r3 = 0;"
		     "call %[bpf_ringbuf_reserve];"
		     "r0 = 0;"
		     "exit;" ::IMM(bpf_ringbuf_reserve), [rb] "i"(&rb) : CLOBBERS);
}

/* may_goto (BPF_JMP | BPF_JCOND, 6.18 check_cond_jmp_op): the path goes on
 * at the target, the fall-through is queued one may_goto depth deeper with
 * its imprecise scalars widened against the previous visit; at the insn
 * (a forced checkpoint) a state of another depth within range of one still
 * being explored ends the path (is_state_visited). The engine refused it as
 * unsupported (progdiff maygoto family). r6 counts up and is widened at the
 * second visit; the third matches and the loop ends. */
PROG(may_goto_loop)
{
	asm volatile("r6 = 0;"
		     "1: .8byte 0x00000000000300e5;" /* may_goto pc+3 */
		     "r6 += 1;"
		     "r7 = r6;"
		     "goto 1b;"
		     "r0 = 0;"
		     "exit;" ::: CLOBBERS);
}

char _license[] SEC("license") = "GPL";
