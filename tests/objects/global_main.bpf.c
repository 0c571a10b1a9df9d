/* global_main.bpf.c — programs that call their own entry point, which BTF
 * makes a global function (6.18 check_func_call: a global call; the main
 * program is reliable only with one argument, the context: do_check_common
 * marks it unreliable otherwise, and btf_check_subprog_call then refuses
 * every call into it, "Caller passes invalid args into func#0"). A static
 * frame is not added for a global call, so only check_max_stack_depth
 * counts the chain. optnone keeps clang from turning the recursion into a
 * loop. Each must equal the running kernel line for line
 * (tests/cli/fidelity.sh); cilium-ebpf's fwd_decl call_fwd is the real
 * case (a call to an undefined function left as "call -1"). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct pt_regs;

/* one ctx argument: "Func#0 ('main_ctx') is global and assumed valid.",
 * then "the call stack of 8 frames is too deep !" */
SEC("socket") __attribute__((optnone))
int main_ctx(struct __sk_buff *skb)
{
	return main_ctx(skb);
}

/* no argument: unreliable, the call is refused */
SEC("socket") __attribute__((optnone))
int main_void(void)
{
	return main_void();
}

/* a scalar argument: unreliable */
SEC("socket") __attribute__((optnone))
int main_long(long x)
{
	return main_long(x + 1);
}

/* a pointer to a struct without a definition: its size cannot be
 * determined (logged before the first instruction), unreliable */
SEC("kprobe/do_nanosleep") __attribute__((optnone))
int main_fwd(struct pt_regs *ctx)
{
	return main_fwd(ctx);
}

char LICENSE[] SEC("license") = "GPL";
