/* cmd_verify.c — `rangebench verify [--tracker old|cnum|kernel] [--log]
 * [--csv] [--btf FILE] OBJ[:PROG]...`: verify programs and print one row
 * per program in veristat's layout and column names (File, Program,
 * Verdict, Duration (us), Insns, States, Peak states), plus the error
 * message and instruction index of a rejection. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "loader/object.h"
#include "verify/verify.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench verify [--tracker old|cnum|kernel] [--log] [--csv] [--btf FILE] OBJ[:PROG]...\n"
		"  Verify every program of each object (or only PROG) with the userspace engine\n"
		"  and the named tracker (default old), or with the running kernel (--tracker\n"
		"  kernel), and print veristat-style rows. --log: the per-instruction verifier\n"
		"  log of each program first (to stderr with --csv). --btf: vmlinux BTF for CO-RE.\n");
}

struct row {
	char file[256], prog[128];
	struct rb_result res;
};

static void csv_str(const char *s)
{
	bool q = strpbrk(s, ",\"\n") != NULL;
	if (!q) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s == '\n' ? ' ' : *s);
	}
	putchar('"');
}

static void error_text(const struct rb_result *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->verdict == RB_ACCEPT)
		return;
	if (r->err_insn >= 0)
		snprintf(buf, len, "insn %d: %s", r->err_insn, r->msg);
	else
		snprintf(buf, len, "%s", r->msg);
}

static int add_row(struct row **rows, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct row *r = realloc(*rows, c * sizeof(*r));
		if (!r)
			return -1;
		*rows = r;
		*cap = c;
	}
	memset(&(*rows)[*n], 0, sizeof(**rows));
	(*n)++;
	return 0;
}

static void print_table(const struct row *rows, size_t n)
{
	static const char *hdr[] = {"File",	   "Program",	   "Verdict",	    "Duration (us)",
				    "Insns",	   "States",	   "Peak states",   "Reg state (B)",
				    "State (B)", "Peak mem (B)", "Error"};
	enum { NC = 11 };
	char cell[NC][320];
	size_t w[NC];
	for (int c = 0; c < NC; c++)
		w[c] = strlen(hdr[c]);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (int c = 0; c < NC; c++)
				printf("%-*s%s", c == NC - 1 ? 0 : (int)w[c], hdr[c], c == NC - 1 ? "\n" : "  ");
			for (int c = 0; c < NC; c++) {
				for (size_t i = 0; i < w[c]; i++)
					putchar('-');
				fputs(c == NC - 1 ? "\n" : "  ", stdout);
			}
		}
		for (size_t i = 0; i < n; i++) {
			const struct rb_result *r = &rows[i].res;
			snprintf(cell[0], sizeof(cell[0]), "%s", rows[i].file);
			snprintf(cell[1], sizeof(cell[1]), "%s", rows[i].prog);
			snprintf(cell[2], sizeof(cell[2]), "%s", rb_verdict_name(r->verdict));
			snprintf(cell[3], sizeof(cell[3]), "%.0f", r->verify_us);
			snprintf(cell[4], sizeof(cell[4]), "%llu", (unsigned long long)r->insns_processed);
			snprintf(cell[5], sizeof(cell[5]), "%llu", (unsigned long long)r->total_states);
			snprintf(cell[6], sizeof(cell[6]), "%llu", (unsigned long long)r->peak_states);
			snprintf(cell[7], sizeof(cell[7]), "%llu", (unsigned long long)r->reg_state_bytes);
			snprintf(cell[8], sizeof(cell[8]), "%llu", (unsigned long long)r->state_bytes);
			snprintf(cell[9], sizeof(cell[9]), "%llu", (unsigned long long)r->peak_state_mem);
			error_text(r, cell[10], sizeof(cell[10]));
			for (int c = 0; c < NC; c++) {
				size_t l = strlen(cell[c]);
				if (pass == 0) {
					if (l > w[c] && c != NC - 1)
						w[c] = l;
					continue;
				}
				if (c == NC - 1)
					printf("%s\n", cell[c]);
				else if (c >= 3) /* numbers right-aligned */
					printf("%*s  ", (int)w[c], cell[c]);
				else
					printf("%-*s  ", (int)w[c], cell[c]);
			}
		}
	}
}

static void print_csv(const struct row *rows, size_t n)
{
	printf("file_name,prog_name,verdict,duration,total_insns,total_states,peak_states,"
	       "reg_state_bytes,state_bytes,peak_state_mem,err_insn,error\n");
	for (size_t i = 0; i < n; i++) {
		const struct rb_result *r = &rows[i].res;
		csv_str(rows[i].file);
		putchar(',');
		csv_str(rows[i].prog);
		printf(",%s,%.0f,%llu,%llu,%llu,%llu,%llu,%llu,%d,", rb_verdict_name(r->verdict), r->verify_us,
		       (unsigned long long)r->insns_processed, (unsigned long long)r->total_states,
		       (unsigned long long)r->peak_states, (unsigned long long)r->reg_state_bytes,
		       (unsigned long long)r->state_bytes, (unsigned long long)r->peak_state_mem,
		       r->verdict == RB_ACCEPT ? -1 : r->err_insn);
		csv_str(r->verdict == RB_ACCEPT ? "" : r->msg);
		putchar('\n');
	}
}

int cmd_verify(int argc, char **argv)
{
	static const struct option lo[] = {
		{"tracker", required_argument, NULL, 't'}, {"log", no_argument, NULL, 'l'},
		{"csv", no_argument, NULL, 'c'},           {"btf", required_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
	};
	const char *tracker = "old";
	bool want_log = false, csv = false;
	struct rb_load_opts lopts = {0};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:lcb:h", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "old") && strcmp(optarg, "cnum") && strcmp(optarg, "kernel")) {
				fprintf(stderr, "rangebench verify: unknown tracker '%s' (old, cnum, kernel)\n", optarg);
				return 2;
			}
			tracker = optarg;
			break;
		case 'l': want_log = true; break;
		case 'c': csv = true; break;
		case 'b': lopts.btf_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "rangebench verify: no object given\n");
		usage(stderr);
		return 2;
	}
	struct row *rows = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	FILE *logf = csv ? stderr : stdout;
	for (int a = optind; a < argc; a++) {
		char path[4096];
		const char *want = NULL;
		snprintf(path, sizeof(path), "%s", argv[a]);
		struct stat sb;
		char *colon = strrchr(path, ':');
		if (stat(path, &sb) != 0 && colon) {
			*colon = 0;
			want = colon + 1;
		}
		struct rb_object *obj = NULL;
		struct rb_err err = {{0}};
		if (rb_object_open(path, &lopts, &obj, &err) < 0) {
			fprintf(stderr, "rangebench verify: %s\n", err.msg);
			rc = 2;
			continue;
		}
		char base[4096];
		snprintf(base, sizeof(base), "%s", path);
		const char *file = basename(base);
		bool found = false;
		for (size_t p = 0; p < obj->prog_cnt; p++) {
			if (want && strcmp(obj->progs[p].name, want))
				continue;
			found = true;
			if (add_row(&rows, &n, &cap)) {
				fprintf(stderr, "rangebench verify: out of memory\n");
				rb_object_free(obj);
				free(rows);
				return 2;
			}
			struct row *r = &rows[n - 1];
			snprintf(r->file, sizeof(r->file), "%s", file);
			snprintf(r->prog, sizeof(r->prog), "%s", obj->progs[p].name);
			if (want_log)
				fprintf(logf, "=== %s:%s (%s) ===\n", file, obj->progs[p].name, tracker);
			struct rb_verify_opts vo = {.tracker = tracker, .log = want_log ? logf : NULL};
			if (rb_verify(obj, p, &vo, &r->res, &err) < 0) {
				fprintf(stderr, "rangebench verify: %s\n", err.msg);
				rc = 2;
				n--;
			}
		}
		if (want && !found) {
			fprintf(stderr, "rangebench verify: %s: no program named '%s'\n", path, want);
			rc = 2;
		}
		rb_object_free(obj);
	}
	if (csv)
		print_csv(rows, n);
	else if (n)
		print_table(rows, n);
	free(rows);
	return rc;
}
