/* kverdict.c — what the running kernel's verifier says about each program
 * of a BPF object: loads one program at a time with libbpf (log level 6),
 * prints "object program verdict processed=N states=N error-line".
 * A helper for writing the KERNEL VERDICT notes in programs/src/ (*.bpf.c);
 * needs root and bpf(). Not part of `make corpus` (the kernel oracle in
 * `rangebench verify --tracker kernel` is the project's tool for this).
 * build: cc -O2 -o build/kverdict programs/recipe/kverdict.c /usr/lib/x86_64-linux-gnu/libbpf.a -lelf -lz */
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int quiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

static const char *last_line_before(const char *log, const char *mark)
{
	static char line[512];
	const char *m = strstr(log, mark), *end, *start;
	if (!m)
		return "";
	end = m;
	while (end > log && end[-1] == '\n')
		end--;
	/* skip "verification time" and "stack depth" lines */
	for (int skip = 0; skip < 3; skip++) {
		start = end;
		while (start > log && start[-1] != '\n')
			start--;
		if (strncmp(start, "verification time", 17) && strncmp(start, "stack depth", 11))
			break;
		end = start > log ? start - 1 : start;
	}
	snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
	return line;
}

int main(int argc, char **argv)
{
	libbpf_set_print(quiet);
	size_t cap = 64u << 20;
	char *log = malloc(cap);
	int rc = 0;
	for (int a = 1; a < argc; a++) {
		struct bpf_object *probe = bpf_object__open(argv[a]);
		if (!probe) {
			printf("%s\t-\topen failed\n", argv[a]);
			rc = 1;
			continue;
		}
		struct bpf_program *p;
		bpf_object__for_each_program(p, probe) {
			const char *name = bpf_program__name(p);
			struct bpf_object *obj = bpf_object__open(argv[a]);
			struct bpf_program *q;
			bpf_object__for_each_program(q, obj) {
				bool me = !strcmp(bpf_program__name(q), name);
				bpf_program__set_autoload(q, me);
				if (me) {
					log[0] = 0;
					bpf_program__set_log_buf(q, log, cap);
					bpf_program__set_log_level(q, 6);
				}
			}
			int err = bpf_object__load(obj);
			const char *proc = strstr(log, "processed ");
			char stats[160] = "";
			if (proc)
				sscanf(proc, "processed %159[^\n]", stats);
			printf("%s\t%s\t%s\tprocessed %s\t%s\n", argv[a], name, err ? "REJECTED" : "ACCEPTED", stats,
			       err ? last_line_before(log, "processed ") : "");
			bpf_object__close(obj);
		}
		bpf_object__close(probe);
	}
	free(log);
	return rc;
}
