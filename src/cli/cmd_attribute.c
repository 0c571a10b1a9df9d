/* cmd_attribute.c — `rangebench attribute`: why two kernels of a run
 * differ. For every program whose verdict, instructions or states differ
 * between the baseline kernel (default kernel, the running 6.18) and the
 * candidate (default the first kernel image of kernels.conf, kernel-7.2 as
 * shipped, in its guests), the
 * attribution: 'tracker' when the engine's old equals the baseline and
 * cnum-mainline the candidate in verdict, instructions and states (the
 * scalar tracker's change alone reproduces the candidate's figures),
 * else 'other', with where the two kernels' level-2 logs part (the paths
 * they explored, oracle/ktrace.h: map addresses normalised, the 7.2
 * pre-pass lines before the first state skipped) and the mechanism named
 * there. Stored in kernel_attributions (db/schema.sql), replacing the
 * run's earlier ones for the two kernels; read with `query
 * kernels_attribution` and the kernels_attribution chart. The candidate's
 * logs come from one guest batch of the 'other' programs (never cached),
 * the baseline's from bpf(). */
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/kdiff_trace.h"
#include "kernels/kernels.h"
#include "loader/prog_type.h"
#include "oracle/ktrace.h"
#include "store/store.h"
#include "util/filter.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: rangebench attribute [--db FILE] [--run RUN] [--baseline KERNEL] [--candidate KERNEL]\n"
		   "                            [--old TRACKER] [--new TRACKER] [--max-insns N] [--log-head MIB]\n"
		   "                            [--filter GLOB] [-j N] [-q]\n"
		   "  For every program whose verdict, instructions or states differ between two\n"
		   "  kernels of a run (default: kernel, the running one, and the first kernel\n"
		   "  image of kernels.conf, kernel-7.2 as shipped):\n"
		   "  'tracker' when the engine's --old (default old) equals the baseline and\n"
		   "  --new (default cnum-mainline) the candidate in all three, else 'other' with\n"
		   "  the first entry where the kernels' level-2 logs part and the mechanism\n"
		   "  there (oracle/ktrace.h). Stored in the database (kernel_attributions);\n"
		   "  `query kernels_attribution` and `plot --chart kernels_attribution` read it.\n"
		   "  --run: a run id or label (default: the newest run with both kernels);\n"
		   "  -j: the candidate's guests at once (default 1). --max-insns N: no logs for a\n"
		   "  program either kernel processed more than N instructions of (mechanism\n"
		   "  too_large): a level-2 log of 10^5 instructions takes minutes in a TCG guest.\n"
		   "  --log-head MIB: take only the first MIB MiB of each kernel's level-2 log (a\n"
		   "  second load with BPF_LOG_FIXED), so that programs of 10^5-10^6 instructions\n"
		   "  are compared where their paths start to differ; logs that do not part\n"
		   "  within both heads are 'beyond_head'.\n"
		   "  --filter GLOB: only the programs whose name or OBJECT.o/NAME matches (their\n"
		   "  earlier attributions are replaced, the others' kept).\n");
}

struct diff {
	int64_t program_id;
	char *path, *name, *source, *differ, *prog_type;
	bool tracker;
	char bfig[64], cfig[64];
	unsigned long long insns; /* the larger of the two kernels' counts */
	/* an 'other' program: both logs taken (have), where they part */
	bool have;
	struct rb_ktrace_part kp;
	const char *mech; /* NULL: tracker */
};

struct opts {
	const char *db, *run, *base, *cand, *old, *new_;
	char cand_default[sizeof(((struct rb_kernel *)0)->name)]; /* cand when not given */
	unsigned jobs;
	unsigned long long max_insns; /* no logs past this count (0: no bound) */
	size_t log_head;              /* only each log's first log_head bytes (0: whole logs) */
	const char *filter;           /* only the programs it matches (util/filter.h); NULL: all */
	bool quiet;
};

static char *dupcol(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	return strdup(t ? t : "");
}

/* --run, or the newest run with rows of both kernels */
static int find_run(struct rb_store *st, const struct opts *o, int64_t *run, struct rb_err *err)
{
	if (o->run)
		return rb_store_find_run(st, o->run, "verify", run, err);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(rb_store_db(st),
			       "SELECT run_id FROM results WHERE tracker = ?1 AND run_id IN (SELECT run_id FROM "
			       "results WHERE tracker = ?2) ORDER BY run_id DESC LIMIT 1",
			       -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "%s: %s", o->db, sqlite3_errmsg(rb_store_db(st)));
	sqlite3_bind_text(s, 1, o->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, o->cand, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s) == SQLITE_ROW ? 0 : -1;
	if (rc == 0)
		*run = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == 0 ? 0 : rb_errf(err, "%s: no run with rows of both %s and %s", o->db, o->base, o->cand);
}

/* sql prepared with ?1 the run, ?2 the baseline and ?3 the candidate
 * bound; NULL on error */
static sqlite3_stmt *prep(sqlite3 *db, const char *sql, int64_t run, const struct opts *o)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(s, 1, run);
	sqlite3_bind_text(s, 2, o->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, o->cand, -1, SQLITE_STATIC);
	return s;
}

/* the programs both kernels verified (success or failure) that differ */
static int load_diffs(sqlite3 *db, const struct opts *o, int64_t run, struct diff **out, size_t *n)
{
	static const char sql[] =
		"SELECT p.id, p.obj_path, p.name, coalesce(p.source, 'unknown'), p.prog_type, "
		"rtrim((CASE WHEN b.verdict <> c.verdict THEN 'verdict,' ELSE '' END) || "
		"(CASE WHEN b.insns_processed <> c.insns_processed THEN 'insns,' ELSE '' END) || "
		"(CASE WHEN b.total_states <> c.total_states THEN 'states,' ELSE '' END), ','), "
		"(o.verdict IS b.verdict AND o.insns_processed IS b.insns_processed AND o.total_states IS b.total_states "
		" AND m.verdict IS c.verdict AND m.insns_processed IS c.insns_processed AND m.total_states IS c.total_states), "
		"b.verdict || ' ' || b.insns_processed || '/' || b.total_states, "
		"c.verdict || ' ' || c.insns_processed || '/' || c.total_states, p.section, "
		"max(b.insns_processed, c.insns_processed) "
		"FROM results b JOIN results c ON c.run_id = b.run_id AND c.program_id = b.program_id AND c.tracker = ?3 "
		"JOIN programs p ON p.id = b.program_id "
		"LEFT JOIN results o ON o.run_id = b.run_id AND o.program_id = b.program_id AND o.tracker = ?4 "
		"LEFT JOIN results m ON m.run_id = b.run_id AND m.program_id = b.program_id AND m.tracker = ?5 "
		"WHERE b.run_id = ?1 AND b.tracker = ?2 AND b.verdict IN ('success', 'failure') "
		"AND c.verdict IN ('success', 'failure') AND (b.verdict <> c.verdict OR "
		"b.insns_processed <> c.insns_processed OR b.total_states <> c.total_states) "
		"ORDER BY p.source, p.obj_path, p.name";
	sqlite3_stmt *s = prep(db, sql, run, o);
	if (!s)
		return -1;
	sqlite3_bind_text(s, 4, o->old, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, o->new_, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			struct diff *nd = realloc(*out, cap * sizeof(**out));
			if (!nd)
				break;
			*out = nd;
		}
		const char *fpath = (const char *)sqlite3_column_text(s, 1), *fname = (const char *)sqlite3_column_text(s, 2);
		if (o->filter && !rb_filter_match(o->filter, fpath ? fpath : "", fname ? fname : ""))
			continue;
		struct diff *d = &(*out)[(*n)++];
		memset(d, 0, sizeof(*d));
		d->program_id = sqlite3_column_int64(s, 0);
		d->path = dupcol(s, 1);
		d->name = dupcol(s, 2);
		d->source = dupcol(s, 3);
		const char *pt = rb_prog_type_rerun((const char *)sqlite3_column_text(s, 9),
						    sqlite3_column_type(s, 4) != SQLITE_NULL, (uint32_t)sqlite3_column_int(s, 4));
		d->prog_type = pt ? strdup(pt) : NULL;
		d->differ = dupcol(s, 5);
		d->tracker = sqlite3_column_int(s, 6) != 0;
		snprintf(d->bfig, sizeof(d->bfig), "%s", (const char *)sqlite3_column_text(s, 7));
		snprintf(d->cfig, sizeof(d->cfig), "%s", (const char *)sqlite3_column_text(s, 8));
		d->insns = (unsigned long long)sqlite3_column_int64(s, 10);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int store(sqlite3 *db, int64_t run, const struct opts *o, const struct diff *d, const struct rb_ktrace_part *kp,
		 const char *mech)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO kernel_attributions (run_id, program_id, baseline, candidate, differ, "
		"attribution, part_index, common_line, baseline_line, candidate_line, mechanism, attributed_at) "
		"VALUES (?1, ?4, ?2, ?3, ?5, ?6, ?7, ?8, ?9, ?10, ?11, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))";
	sqlite3_stmt *s = prep(db, sql, run, o);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 4, d->program_id);
	sqlite3_bind_text(s, 5, d->differ, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, d->tracker ? "tracker" : "other", -1, SQLITE_STATIC);
	if (kp && kp->index >= 0) {
		sqlite3_bind_int64(s, 7, kp->index);
		sqlite3_bind_text(s, 8, kp->common, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 9, kp->a, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 10, kp->b, -1, SQLITE_STATIC);
	}
	if (mech)
		sqlite3_bind_text(s, 11, mech, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(s);
	return rc;
}

/* A log that fills its head (--log-head: the kernel kept its first
 * head - 1 bytes; an engine's log, written whole, is cut the same way):
 * true, and the log ends at its last whole line within the head, so that
 * a half-written line is never taken for a difference. */
static bool head_cut(char *log, size_t head)
{
	if (!head || !log || strlen(log) + 1 < head)
		return false;
	log[head - 1] = 0;
	char *nl = strrchr(log, '\n');
	if (nl)
		nl[1] = 0;
	return true;
}

/* the logs of the 'other' programs from both kernels (no database lock is
 * held meanwhile: the candidate's guests take minutes), and where each
 * pair parts */
static int attribute_others(const struct opts *o, struct diff *d, size_t n)
{
	size_t no = 0;
	for (size_t i = 0; i < n; i++) {
		bool large = !d[i].tracker && o->max_insns && d[i].insns > o->max_insns;
		if (large)
			d[i].mech = "too_large"; /* a level-2 log of that size takes too long in a TCG guest */
		no += !d[i].tracker && !large;
	}
	struct rb_guest_obj *objs = calloc(no ? no : 1, sizeof(*objs));
	size_t *which = calloc(no ? no : 1, sizeof(*which));
	struct rb_kdiff_logs lb = {.jobs = o->jobs, .progress = o->quiet ? NULL : stderr, .log_head = o->log_head},
			     lc = lb;
	int rc = objs && which && rb_kdiff_logs_alloc(&lb, (int)(no ? no : 1)) == 0 &&
				 rb_kdiff_logs_alloc(&lc, (int)(no ? no : 1)) == 0
			 ? 0
			 : -1;
	size_t k = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (!d[i].tracker && !d[i].mech) {
			objs[k] = (struct rb_guest_obj){
				.path = d[i].path, .source = d[i].source, .prog = d[i].name, .prog_type = d[i].prog_type};
			which[k++] = i;
		}
	struct rb_load_opts lo = {0};
	if (rc == 0 && no && (rb_kdiff_logs(o->base, objs, (int)no, &lo, &lb) < 0 ||
			      rb_kdiff_logs(o->cand, objs, (int)no, &lo, &lc) < 0))
		rc = -2;
	for (size_t j = 0; rc == 0 && j < no; j++) {
		struct diff *x = &d[which[j]];
		x->mech = "no_log";
		x->have = lb.got[j] && lc.got[j];
		bool cut_b = x->have && head_cut(lb.log[j], o->log_head), cut_c = x->have && head_cut(lc.log[j], o->log_head);
		if (x->have && rb_ktrace_part(lb.log[j], lc.log[j], &x->kp) < 0)
			rc = -1;
		else if (x->have && rb_ktrace_beyond_head(&x->kp, cut_b, cut_c))
			x->mech = "beyond_head"; /* the heads agree as far as they go */
		else if (x->have)
			x->mech = rb_ktrace_mechanism(&x->kp);
	}
	rb_kdiff_logs_free(&lb, (int)(no ? no : 1));
	rb_kdiff_logs_free(&lc, (int)(no ? no : 1));
	free(objs);
	free(which);
	return rc;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{"db", required_argument, NULL, 'd'},       {"run", required_argument, NULL, 'r'},
		{"baseline", required_argument, NULL, 'b'}, {"candidate", required_argument, NULL, 'c'},
		{"old", required_argument, NULL, 'o'},      {"new", required_argument, NULL, 'n'},
		{"max-insns", required_argument, NULL, 'm'}, {"log-head", required_argument, NULL, 'H'},
		{"filter", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	*o = (struct opts){.db = "db/results.sqlite", .base = RB_KERNEL_RUNNING, .old = "old",
			   .new_ = "cnum-mainline", .jobs = 1};
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "j:qh", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db = optarg; break;
		case 'r': o->run = optarg; break;
		case 'f': o->filter = optarg; break;
		case 'b': o->base = optarg; break;
		case 'c': o->cand = optarg; break;
		case 'o': o->old = optarg; break;
		case 'n': o->new_ = optarg; break;
		case 'm': {
			char *end;
			o->max_insns = strtoull(optarg, &end, 10);
			if (*end || !*optarg) {
				fprintf(stderr, "attribute: --max-insns wants a number, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'H': {
			char *end;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (*end || !*optarg || v < 1 || v > 1023) {
				fprintf(stderr, "attribute: --log-head wants 1..1023 (MiB), not '%s'\n", optarg);
				return 2;
			}
			o->log_head = (size_t)v << 20;
			break;
		}
		case 'j': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v < 1 || v > 64) {
				fprintf(stderr, "attribute: -j wants 1..64, not '%s'\n", optarg);
				return 2;
			}
			o->jobs = (unsigned)v;
			break;
		}
		case 'q': o->quiet = true; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!o->cand) {
		/* the first kernel image of the configuration (the running
		 * kernel is the list's first row) */
		struct rb_kernel ks[RB_KERNELS_MAX];
		size_t nk = 0;
		struct rb_err err = {{0}};
		if (rb_kernels_list(ks, RB_KERNELS_MAX, &nk, &err) < 0) {
			fprintf(stderr, "attribute: %s\n", err.msg);
			return 2;
		}
		for (size_t i = 0; i < nk && !o->cand; i++)
			if (ks[i].backend != RB_KBACK_RUNNING) {
				memcpy(o->cand_default, ks[i].name, sizeof(o->cand_default));
				o->cand_default[sizeof(o->cand_default) - 1] = 0;
				o->cand = o->cand_default;
			}
		if (!o->cand) {
			fprintf(stderr, "attribute: no kernel image in the configuration (kernels.conf): name one "
					"with --candidate\n");
			return 2;
		}
	}
	return 0;
}

int cmd_attribute(int argc, char **argv)
{
	struct opts o;
	int prc = parse(argc, argv, &o);
	if (prc)
		return prc == 1 ? 0 : 2;
	struct rb_store *st = NULL;
	struct rb_err err = {{0}};
	if (rb_store_open(o.db, &st, &err) < 0) {
		fprintf(stderr, "attribute: %s\n", err.msg);
		return 2;
	}
	sqlite3 *db = rb_store_db(st);
	int64_t run = 0;
	struct diff *d = NULL;
	size_t n = 0, ntracker = 0, named = 0;
	int rc = 0;
	if (find_run(st, &o, &run, &err) < 0) {
		fprintf(stderr, "attribute: %s\n", err.msg);
		rc = 2;
	} else if (load_diffs(db, &o, run, &d, &n) < 0) {
		fprintf(stderr, "attribute: %s: %s\n", o.db, sqlite3_errmsg(db));
		rc = 2;
	}
	if (rc == 0 && attribute_others(&o, d, n) < 0) {
		fprintf(stderr, "attribute: %s\n", n ? "taking the logs failed" : "out of memory");
		rc = 2;
	}
	if (rc == 0 && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		rc = 2;
	if (rc == 0 && !o.filter) {
		/* the whole run again (with --filter, INSERT OR REPLACE replaces
		 * the filtered programs' rows alone) */
		sqlite3_stmt *s = prep(db, "DELETE FROM kernel_attributions WHERE run_id = ?1 AND baseline = ?2 AND "
					   "candidate = ?3", run, &o);
		if (s) {
			rc = sqlite3_step(s) == SQLITE_DONE ? 0 : 2;
			sqlite3_finalize(s);
		} else {
			rc = 2;
		}
	}
	if (rc == 0 && !o.quiet)
		printf("source\tprogram\t%s\t%s\tattribution\tmechanism\tcommon entry\t%s entry\t%s entry\n", o.base,
		       o.cand, o.base, o.cand);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct diff *x = &d[i];
		bool part = x->have && x->kp.index >= 0;
		ntracker += x->tracker;
		named += x->have && strcmp(x->mech, "other");
		if (store(db, run, &o, x, x->have ? &x->kp : NULL, x->mech) < 0) {
			fprintf(stderr, "attribute: %s: storing: %s\n", o.db, sqlite3_errmsg(db));
			rc = 2;
		} else if (!o.quiet) {
			printf("%s\t%s:%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", x->source, x->path, x->name, x->bfig, x->cfig,
			       x->tracker ? "tracker" : "other", x->mech ? x->mech : "-", part ? x->kp.common : "-",
			       part ? x->kp.a : "-", part ? x->kp.b : "-");
		}
	}
	if (sqlite3_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && rc == 0) {
		fprintf(stderr, "attribute: %s: %s\n", o.db, sqlite3_errmsg(db));
		rc = 2;
	}
	if (rc == 0)
		fprintf(stderr, "attribute: run %lld, %s vs %s: %zu programs differ: %zu tracker, %zu other (%zu with a "
				"mechanism named); stored in %s (kernel_attributions)\n",
			(long long)run, o.base, o.cand, n, ntracker, n - ntracker, named, o.db);
	for (size_t i = 0; i < n; i++) {
		free(d[i].path);
		free(d[i].name);
		free(d[i].source);
		free(d[i].differ);
		free(d[i].prog_type);
	}
	free(d);
	rb_store_close(st);
	return rc;
}
