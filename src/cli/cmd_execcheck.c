/* cmd_execcheck.c — `rangebench execcheck`: concrete runs of accepted
 * programs checked against the abstract states the engine explored, per
 * tracker (see exec/exec.h). Inputs: programs of execcheck's own generator
 * (--gen N per family), programs of progdiff's generator (--progen N per
 * family, progen/progen.h) and objects or directories of objects. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/opt_num.h"
#include "exec/exec.h"
#include "exec/gen.h"
#include "loader/object.h"
#include "progen/progen.h"
#include "tracker/tracker.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench execcheck [--trackers old,cnum] [--gen N] [--family NAME] [--seed S]\n"
		"                            [--progen N [--progen-family NAME]] [--runs R] [--show K]\n"
		"                            [--log] [OBJ[:PROG]|DIR]...\n"
		"  Verify programs with each tracker while recording every state the engine\n"
		"  explores and every prune; then run each accepted program R times (default 20)\n"
		"  on random inputs and check, at every executed instruction, that each register\n"
		"  lies in the state of the explored path it is on, and that no memory access\n"
		"  leaves its region. --gen N: N generated programs per family (alu, link, mem,\n"
		"  all; --family picks one). --progen N: programs 0..N-1 of seed S of each family\n"
		"  of progdiff's generator (range, alu32, ..., mixed; --progen-family picks one).\n"
		"  DIR: every .o below it. Prints per tracker the\n"
		"  programs, executions, instructions and registers checked and the violations\n"
		"  (the first K, default 10, in full). --log: each program's verifier log.\n"
		"  Exit 1 if any violation.\n");
}

struct tstate {
	const struct rb_tracker *t;
	struct rb_exec_stats st;
	unsigned shown;
};

struct run {
	struct tstate tr[4];
	int ntr;
	unsigned show;
	struct rb_exec_opts opts;
	struct tstate *cur;
	uint64_t objects;
	int bad_input;
};

static void on_violation(void *ctx, const struct rb_exec_violation *v)
{
	struct run *r = ctx;
	if (r->cur->shown++ >= r->show)
		return;
	char reg[16] = "-";
	if (v->reg >= 0)
		snprintf(reg, sizeof(reg), "r%d", v->reg);
	printf("VIOLATION %s %s insn %d %s value 0x%llx: %s; state %s (run seed 0x%llx)\n", r->cur->t->name, v->prog,
	       v->insn, reg, (unsigned long long)v->value, v->what, v->state, (unsigned long long)v->seed);
}

static int check_object(struct run *r, const struct rb_object *obj, const char *only)
{
	for (size_t p = 0; p < obj->prog_cnt; p++) {
		if (only && strcmp(obj->progs[p].name, only))
			continue;
		for (int k = 0; k < r->ntr; k++) {
			struct rb_err err = {0};
			r->cur = &r->tr[k];
			if (rb_exec_check_prog(obj, p, r->tr[k].t, &r->opts, &r->tr[k].st, &err) < 0) {
				fprintf(stderr, "execcheck: %s\n", err.msg);
				return -1;
			}
		}
	}
	return 0;
}

static int check_file(struct run *r, const char *arg)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s", arg);
	const char *only = NULL;
	struct stat sb;
	if (stat(path, &sb) != 0) {
		char *colon = strrchr(path, ':');
		if (colon) {
			*colon = 0;
			only = colon + 1;
		}
	}
	struct rb_object *obj = NULL;
	struct rb_err err = {0};
	if (rb_object_open(path, NULL, &obj, &err) < 0) {
		fprintf(stderr, "execcheck: %s\n", err.msg);
		r->bad_input = 1;
		return 0;
	}
	r->objects++;
	int rc = check_object(r, obj, only);
	rb_object_free(obj);
	return rc;
}

static int walk(struct run *r, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "execcheck: %s: cannot open directory\n", dir);
		r->bad_input = 1;
		return 0;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **v = realloc(names, cap * sizeof(*v));
			if (!v)
				break;
			names = v;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	/* a stable order */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char p[4096];
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		struct stat sb;
		if (stat(p, &sb) != 0)
			continue;
		size_t l = strlen(names[i]);
		if (S_ISDIR(sb.st_mode))
			rc = walk(r, p);
		else if (l > 2 && !strcmp(names[i] + l - 2, ".o"))
			rc = check_file(r, p);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* programs 0..n-1 of the run seed of one progen family (or all: fam < 0) */
static int progen_check(struct run *r, int fam, unsigned long long n)
{
	struct rb_progen_prog *p = malloc(sizeof(*p));
	struct rb_progen_object *h = malloc(sizeof(*h));
	int rc = 0;
	if (!p || !h) {
		fprintf(stderr, "execcheck: out of memory\n");
		rc = -1;
	}
	for (int f = 0; !rc && f < rb_progen_family_count(); f++) {
		if (fam >= 0 && f != fam)
			continue;
		for (unsigned long long i = 0; !rc && i < n; i++) {
			rb_progen_generate(f, r->opts.seed, i, p);
			rb_progen_object(p, h);
			rc = check_object(r, &h->obj, NULL);
		}
	}
	free(p);
	free(h);
	return rc;
}

int cmd_execcheck(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"trackers", required_argument, 0, 't'}, {"gen", required_argument, 0, 'g'},
		{"family", required_argument, 0, 'f'},   {"seed", required_argument, 0, 's'},
		{"runs", required_argument, 0, 'r'},     {"show", required_argument, 0, 'k'},
		{"log", no_argument, 0, 'l'},           {"progen", required_argument, 0, 'p'},
		{"progen-family", required_argument, 0, 'P'},
		{"help", no_argument, 0, 'h'},           {0, 0, 0, 0},
	};
	struct run r;
	memset(&r, 0, sizeof(r));
	r.show = 10;
	r.opts.runs = 20;
	r.opts.report = on_violation;
	r.opts.report_ctx = &r;
	const char *trackers = RB_ROLE_BASELINE "," RB_ROLE_CANDIDATE, *family = NULL, *pfamily = NULL;
	unsigned long long gen = 0, progen = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 't': trackers = optarg; break;
		case 'g':
		case 's':
		case 'r':
		case 'k': {
			/* --gen 1..10^7, --seed any, --runs 1..10^6, --show 0..10^6 */
			unsigned long long v, lo = c == 'g' || c == 'r' ? 1 : 0,
					      hi = c == 's' ? ~0ull : c == 'g' ? 10000000 : 1000000;
			if (rb_opt_uint(optarg, lo, hi, true, &v) < 0) {
				fprintf(stderr, "rangebench execcheck: --%s wants a number from %llu to %llu, not '%s'\n",
					c == 'g' ? "gen" : c == 's' ? "seed" : c == 'r' ? "runs" : "show", lo, hi, optarg);
				return 2;
			}
			if (c == 'g')
				gen = v;
			else if (c == 's')
				r.opts.seed = v;
			else if (c == 'r')
				r.opts.runs = (unsigned)v;
			else
				r.show = (unsigned)v;
			break;
		}
		case 'f': family = optarg; break;
		case 'l': r.opts.log = stdout; break;
		case 'p': progen = strtoull(optarg, NULL, 0); break;
		case 'P': pfamily = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!gen && !progen && optind >= argc) {
		usage(stderr);
		return 2;
	}
	char tl[256];
	snprintf(tl, sizeof(tl), "%s", trackers);
	for (char *save = NULL, *tok = strtok_r(tl, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct rb_tracker *t = rb_tracker_get(tok, 64);
		if (!t || r.ntr == 4) {
			fprintf(stderr, "execcheck: unknown tracker '%s'\n", tok);
			return 2;
		}
		r.tr[r.ntr++].t = t;
	}
	if (family) {
		bool ok = false;
		for (int i = 0; rb_exec_gen_families[i]; i++)
			ok |= !strcmp(family, rb_exec_gen_families[i]);
		if (!ok) {
			fprintf(stderr, "execcheck: unknown family '%s' (alu, link, mem, all)\n", family);
			return 2;
		}
	}
	int pfam = -1;
	if (pfamily && strcmp(pfamily, "all") && (pfam = rb_progen_family_find(pfamily)) < 0) {
		fprintf(stderr, "execcheck: unknown progen family '%s' (", pfamily);
		for (int f = 0; f < rb_progen_family_count(); f++)
			fprintf(stderr, "%s%s", f ? ", " : "", rb_progen_family_name(f));
		fprintf(stderr, ", all)\n");
		return 2;
	}
	if (progen && progen_check(&r, pfam, progen))
		return 2;
	for (int fi = 0; gen && rb_exec_gen_families[fi]; fi++) {
		const char *fam = rb_exec_gen_families[fi];
		if (family && strcmp(family, fam))
			continue;
		for (unsigned long long i = 0; i < gen; i++) {
			struct rb_object *obj = NULL;
			struct rb_err err = {0};
			if (rb_exec_gen(fam, r.opts.seed + i, &obj, &err) < 0) {
				fprintf(stderr, "execcheck: %s\n", err.msg);
				return 2;
			}
			int rc = check_object(&r, obj, NULL);
			rb_object_free(obj);
			if (rc)
				return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		struct stat sb;
		int rc = (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) ? walk(&r, argv[i]) : check_file(&r, argv[i]);
		if (rc)
			return 2;
	}
	printf("%-8s %9s %9s %11s %14s %14s %10s %9s %9s\n", "tracker", "programs", "skipped", "executions",
	       "insns_checked", "regs_checked", "violations", "diverged", "aborted");
	uint64_t viol = 0;
	for (int k = 0; k < r.ntr; k++) {
		const struct rb_exec_stats *s = &r.tr[k].st;
		printf("%-8s %9llu %9llu %11llu %14llu %14llu %10llu %9llu %9llu\n", r.tr[k].t->name,
		       (unsigned long long)s->programs, (unsigned long long)s->skipped, (unsigned long long)s->executions,
		       (unsigned long long)s->insns_checked, (unsigned long long)s->regs_checked,
		       (unsigned long long)s->violations, (unsigned long long)s->diverged, (unsigned long long)s->aborted);
		if (s->skipped)
			printf("  %s: skipped %llu: %llu of a program type without a model, %llu not accepted, "
			       "%llu with too large a tree\n",
			       r.tr[k].t->name, (unsigned long long)s->skipped, (unsigned long long)s->skipped_type,
			       (unsigned long long)s->skipped_verdict, (unsigned long long)s->skipped_tree);
		for (int a = 0; a < s->naborts; a++)
			printf("  %s: aborted %llu: %s\n", r.tr[k].t->name, (unsigned long long)s->aborts[a].n,
			       s->aborts[a].why);
		viol += s->violations;
	}
	if (viol)
		return 1;
	return r.bad_input ? 2 : 0;
}
