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

char _license[] SEC("license") = "GPL";
