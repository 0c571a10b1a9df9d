/* extern_call.bpf.c — a program in .text that calls a function no object
 * defines, beside a BTF-defined map: libbpf 1.1's bpf_object__reloc_code
 * copies overlapping memory relocating the call (ASan:
 * memcpy-param-overlap), corrupting the heap of the process that opens it
 * (issue 24, item 1): libbpf takes the lone .text function for a program.
 * The loader now opens such objects on its own path (src/loader/object.c),
 * which keeps the call for the verifier; `make fuzz` found the same crash
 * again (tests/fuzz/regress/crash-text-only-extern-call). Kept in
 * objects-hostile/, apart from the objects tools open whole: `run` and
 * `verify` must survive it (tests/cli/hostile_objects.sh), and the fuzz
 * replay opens it in process (tests/cli/fuzz_replay.sh). */
#define SEC(n) __attribute__((section(n), used))
#define __uint(name, val) int (*name)[val]

struct {
	__uint(type, 2);
	int *key;
	int *value;
	__uint(max_entries, 1);
} cfg SEC(".maps");

extern long not_defined_anywhere(void *map, const void *key, const void *value, unsigned long long flags);

int func(void *ctx)
{
	return not_defined_anywhere(&cfg, 0, 0, 0);
}
