/* profile72_calls.bpf.c — call chains deeper than 6.18 allows, pinning the
 * 7.2 profile's max_call_frames (16; 6.18: 8) and
 * global_call_resets_frames (src/engine/profile.h); tests/cli/profile72.sh
 * holds both kernels' counts. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

/* deep_static: main -> s1 -> ... -> s8, nine frames of static calls.
 * 6.18.44 refuses the call into s8 ("the call stack of 9 frames is too
 * deep !"); 7.2.13 allows 16 frames. */
static __attribute__((noinline)) int s8(int x) { return x + 8; }
static __attribute__((noinline)) int s7(int x) { return s8(x) + 7; }
static __attribute__((noinline)) int s6(int x) { return s7(x) + 6; }
static __attribute__((noinline)) int s5(int x) { return s6(x) + 5; }
static __attribute__((noinline)) int s4(int x) { return s5(x) + 4; }
static __attribute__((noinline)) int s3(int x) { return s4(x) + 3; }
static __attribute__((noinline)) int s2(int x) { return s3(x) + 2; }
static __attribute__((noinline)) int s1(int x) { return s2(x) + 1; }

SEC("socket")
int deep_static(void *ctx)
{
	return s1(bpf_get_prandom_u32() & 1);
}

/* deep_global: main -> g1 -> ... -> g16, global subprograms (each verified
 * once on its own): 17 frames by 6.18's count, more than 7.2 allows of
 * static calls. 6.18.44 counts every call of the chain in
 * check_max_stack_depth and refuses it after verifying them; 7.2.13
 * starts the count again at each global callee. */
__attribute__((noinline)) int g16(int x) { return x + 16; }
__attribute__((noinline)) int g15(int x) { return g16(x) + 15; }
__attribute__((noinline)) int g14(int x) { return g15(x) + 14; }
__attribute__((noinline)) int g13(int x) { return g14(x) + 13; }
__attribute__((noinline)) int g12(int x) { return g13(x) + 12; }
__attribute__((noinline)) int g11(int x) { return g12(x) + 11; }
__attribute__((noinline)) int g10(int x) { return g11(x) + 10; }
__attribute__((noinline)) int g9(int x) { return g10(x) + 9; }
__attribute__((noinline)) int g8(int x) { return g9(x) + 8; }
__attribute__((noinline)) int g7(int x) { return g8(x) + 7; }
__attribute__((noinline)) int g6(int x) { return g7(x) + 6; }
__attribute__((noinline)) int g5(int x) { return g6(x) + 5; }
__attribute__((noinline)) int g4(int x) { return g5(x) + 4; }
__attribute__((noinline)) int g3(int x) { return g4(x) + 3; }
__attribute__((noinline)) int g2(int x) { return g3(x) + 2; }
__attribute__((noinline)) int g1(int x) { return g2(x) + 1; }

SEC("socket")
int deep_global(void *ctx)
{
	return g1(bpf_get_prandom_u32() & 1);
}
