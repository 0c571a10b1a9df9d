/* progdiff_guest.c — progdiff against a kernel image of kernels.conf
 * (see progdiff.h). The programs of each family are cut into batch files
 * of o->batch programs (progen/batch.h: five words each; the guest's own
 * rangebench generates the programs again); up to o->round programs go to
 * one rb_guest_run (one boot per guest, o->guest_jobs guests at once), whose
 * rows carry each program's verdict, message and counts and, in place of
 * the log, its summary (guest.h log_digest). The engine then verifies the
 * same programs here and the two are compared as the running kernel's
 * are (rb_progdiff_classify), the logs by their summaries: the trace (the
 * instructions walked, branch switches and prunings, whatever the state
 * format) and the state lines. The first o->show differing programs go to
 * one more guest, with whole logs, to be printed. */
#include "verify/progdiff_impl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest/guest.h"
#include "kernels/kernels.h"
#include "progen/batch.h"
#include "verify/verify.h"

#define DEF_BATCH 500
#define DEF_ROUND 20000
#define DEF_TIMEOUT_S 300

/* the reference's answer for one program */
struct kres {
	bool have, sum_ok;
	struct rb_result r;
	struct rb_progdiff_sum sum;
	char *log; /* whole logs (the show pass) */
};

/* one batch file */
struct pobj {
	char path[PATH_MAX];
	int fi; /* index into st->fam */
	int family;
	uint64_t first, count;
	struct kres *res;
	char fail[256]; /* the guest's "(object)" row: why some programs have no row */
};

struct collect {
	struct pobj *objs;
	size_t n, hint;
	bool whole_logs;
};

static struct pobj *find_obj(struct collect *c, const char *path)
{
	for (size_t k = 0; k < c->n; k++) {
		size_t i = (c->hint + k) % c->n;
		if (!strcmp(c->objs[i].path, path)) {
			c->hint = i;
			return &c->objs[i];
		}
	}
	return NULL;
}

static int put(void *ctx, const struct rb_result_row *row, const char *log)
{
	struct collect *c = ctx;
	struct pobj *o = find_obj(c, row->prog.obj_path);
	if (!o)
		return 0;
	if (!strcmp(row->prog.name, "(object)")) {
		snprintf(o->fail, sizeof(o->fail), "%s", row->res.msg);
		return 0;
	}
	const char *us = strrchr(row->prog.name, '_');
	char *end;
	errno = 0;
	unsigned long long idx = us ? strtoull(us + 1, &end, 10) : 0;
	if (!us || errno || *end || idx < o->first || idx - o->first >= o->count)
		return 0;
	struct kres *k = &o->res[idx - o->first];
	k->have = true;
	k->r = row->res;
	if (c->whole_logs) {
		free(k->log);
		if (!(k->log = strdup(log ? log : "")))
			return -1;
	} else {
		k->sum_ok = rb_progdiff_sum_parse(log, &k->sum) == 0;
	}
	return 0;
}

/* the engine's answer for one program, with its log */
static int engine(const struct rb_progen_prog *p, const char *tracker, bool et_wanted, struct rb_result *er,
		  char **et, struct rb_err *err)
{
	struct rb_progen_object *h = malloc(sizeof(*h));
	if (!h)
		return rb_errf(err, "progdiff: out of memory");
	rb_progen_object(p, h);
	size_t len = 0;
	*et = NULL;
	FILE *m = et_wanted ? open_memstream(et, &len) : NULL;
	int rc = -1;
	if (et_wanted && !m) {
		rb_errf(err, "progdiff: out of memory");
	} else {
		struct rb_verify_opts vo = {.tracker = tracker, .log = m};
		rc = rb_verify(&h->obj, 0, &vo, er, err);
		if (m)
			fclose(m);
	}
	free(h);
	return rc;
}

/* the programs to print in full: the first o->show of the gravest kind
 * first (verdicts, then messages and counts, then traces, then state
 * lines: against 7.2 nearly every program's state lines differ) */
struct shown {
	int family;
	uint64_t index;
	const char *why;
};
#define GRAVITIES 4

static int gravity(const char *why)
{
	return !strcmp(why, "verdicts differ") || !strcmp(why, "the engine gave no verdict") ? 0
	       : !strcmp(why, "traces differ")                                             ? 2
	       : !strcmp(why, "logs differ")                                               ? 3
										   : 1;
}

/* sh holds GRAVITIES lists of o->show entries; gather the first o->show
 * of them, gravest first, at its start */
static size_t pick_shown(struct shown *sh, const size_t *nsh, unsigned show)
{
	size_t n = 0;
	for (int g = 0; g < GRAVITIES; g++)
		for (size_t i = 0; i < nsh[g] && n < show; i++)
			sh[n++] = sh[(size_t)g * show + i];
	return n;
}

/* compare one program's guest row with the engine; *why: what differs */
static int compare(const struct rb_progen_prog *p, const char *tracker, const struct kres *k, bool logs,
		   struct rb_progdiff_counts *c, const char **why, struct rb_err *err)
{
	struct rb_result er;
	char *et = NULL;
	*why = NULL;
	if (engine(p, tracker, logs, &er, &et, err) < 0) {
		free(et);
		return -1;
	}
	struct rb_progdiff_sum es;
	int rc = logs ? rb_progdiff_summarise(et, &es) : 0;
	free(et);
	if (rc < 0)
		return rb_errf(err, "progdiff: out of memory");
	*why = rb_progdiff_classify(c, &k->r, &er);
	if (!logs)
		return 0;
	c->states += k->sum.nstates;
	if (!k->sum_ok || k->sum.trace != es.trace || k->sum.ntrace != es.ntrace) {
		c->trace_diffs++;
		*why = *why ? *why : "traces differ";
	}
	if (k->sum_ok && k->sum.states == es.states && k->sum.nstates == es.nstates) {
		c->states_same += k->sum.nstates;
	} else {
		c->log_diffs++;
		*why = *why ? *why : "logs differ";
	}
	return 0;
}

/* one guest run over objs[0..n), rows into their res arrays */
static int guest_round(const struct rb_kernel *k, struct pobj *objs, size_t n, const struct rb_progdiff_opts *o,
		       bool whole_logs, struct rb_progdiff_stats *st, struct rb_err *err)
{
	struct rb_guest_obj *g = calloc(n, sizeof(*g));
	if (!g)
		return rb_errf(err, "progdiff: out of memory");
	for (size_t i = 0; i < n; i++)
		g[i].path = objs[i].path;
	struct rb_guest_opts go = {
		.jobs = o->guest_jobs ? o->guest_jobs : 1,
		.want_log = whole_logs || !o->no_logs,
		.log_digest = !whole_logs,
		/* the cache holds rows, not logs: a batch file names its
		 * programs' digest, so its rows are sound to reuse */
		.no_cache = whole_logs || !o->no_logs,
		.idle_timeout_s = o->guest_timeout_s ? o->guest_timeout_s : DEF_TIMEOUT_S,
		.progress = o->progress,
	};
	struct collect c = {.objs = objs, .n = n, .whole_logs = whole_logs};
	struct rb_guest_stats gs;
	int rc = rb_guest_run(k, g, n, &go, put, &c, &gs, err);
	free(g);
	st->guests += gs.guests;
	if (gs.release[0])
		snprintf(st->release, sizeof(st->release), "%s", gs.release);
	if (gs.accel[0])
		snprintf(st->accel, sizeof(st->accel), "%s", gs.accel);
	return rc;
}

static void free_res(struct pobj *o)
{
	for (uint64_t i = 0; o->res && i < o->count; i++)
		free(o->res[i].log);
	free(o->res);
	o->res = NULL;
}

/* the show pass: each program alone in a batch, one guest, whole logs */
static int show_all(const struct rb_kernel *k, const char *dir, const struct shown *sh, size_t nsh,
		    const struct rb_progdiff_opts *o, const char *tracker, const char *ref,
		    struct rb_progdiff_stats *st, struct rb_err *err)
{
	struct pobj *objs = calloc(nsh, sizeof(*objs));
	struct rb_progen_prog *p = malloc(sizeof(*p));
	int rc = objs && p ? 0 : rb_errf(err, "progdiff: out of memory");
	for (size_t i = 0; rc == 0 && i < nsh; i++) {
		struct pobj *b = &objs[i];
		snprintf(b->path, sizeof(b->path), "%.3900s/show-%zu.rbpg", dir, i);
		b->family = sh[i].family;
		b->first = sh[i].index;
		b->count = 1;
		if (!(b->res = calloc(1, sizeof(*b->res))))
			rc = rb_errf(err, "progdiff: out of memory");
		else
			rc = rb_progen_write_batch(b->path, b->family, o->seed, b->first, 1, err);
	}
	if (rc == 0)
		rc = guest_round(k, objs, nsh, o, true, st, err);
	for (size_t i = 0; rc == 0 && i < nsh; i++) {
		const struct kres *kr = &objs[i].res[0];
		rb_progen_generate(sh[i].family, o->seed, sh[i].index, p);
		if (!kr->have) {
			fprintf(o->out, "program %s %llu (seed %llu): %s; verified again for its log: no row (%s)\n",
				rb_progen_family_name(sh[i].family), (unsigned long long)sh[i].index,
				(unsigned long long)o->seed, sh[i].why, objs[i].fail[0] ? objs[i].fail : "no answer");
			continue;
		}
		struct rb_result er;
		char *et = NULL;
		if (engine(p, tracker, true, &er, &et, err) < 0) {
			free(et);
			rc = -1;
			break;
		}
		struct rb_kdiff_lines ka, ea;
		if (rb_kdiff_lines(kr->log, &ka) < 0 || rb_kdiff_lines(et ? et : "", &ea) < 0) {
			rb_kdiff_lines_free(&ka);
			free(et);
			rc = rb_errf(err, "progdiff: out of memory");
			break;
		}
		rb_progdiff_show(o->out, p, ref, tracker, sh[i].why, &ka, &ea, rb_kdiff_first(&ka, &ea), kr->log,
				 &kr->r, &er, o->logs);
		rb_kdiff_lines_free(&ka);
		rb_kdiff_lines_free(&ea);
		free(et);
	}
	for (size_t i = 0; objs && i < nsh; i++) {
		free_res(&objs[i]);
		unlink(objs[i].path);
	}
	free(objs);
	free(p);
	return rc;
}

int rb_progdiff_guest(const struct rb_progdiff_opts *o, const char *tracker, const char *ref,
		      struct rb_progdiff_stats *st, struct rb_err *err)
{
	struct rb_kernel k;
	if (rb_kernel_find(ref, &k, err) < 0)
		return -1;
	char why[400];
	if (!rb_guest_available(&k, why, sizeof(why))) {
		st->skipped = true;
		snprintf(st->skip_reason, sizeof(st->skip_reason), "%.95s", why);
		return 0;
	}
	st->logs_compared = !o->no_logs;
	if (o->cases == 0)
		return 0;
	uint64_t batch = o->batch ? o->batch : DEF_BATCH, round = o->round ? o->round : DEF_ROUND;
	if (batch > RB_PROGEN_BATCH_MAX)
		batch = RB_PROGEN_BATCH_MAX;
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/rb-progdiff-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return rb_errf(err, "progdiff: cannot create a directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
			       strerror(errno));
	/* every batch file of the run: the first batch of every family, then
	 * the second, ..., so that a run stopped half way (or a round's
	 * progress line) covers every family alike */
	int nf = rb_progen_family_count();
	size_t nobj = 0, cap = 0;
	struct pobj *objs = NULL;
	int rc = 0;
	for (int f = o->family < 0 ? 0 : o->family; f < (o->family < 0 ? nf : o->family + 1); f++)
		if (st->nfam < RB_PROGDIFF_MAX_FAMILIES)
			st->fam_id[st->nfam++] = f;
	for (uint64_t s = o->first; rc == 0 && s - o->first < o->cases; s += batch) {
		for (int fi = 0; rc == 0 && fi < st->nfam; fi++) {
			int f = st->fam_id[fi];
			if (nobj == cap) {
				cap = cap ? cap * 2 : 64;
				struct pobj *no = realloc(objs, cap * sizeof(*no));
				if (!no) {
					rc = rb_errf(err, "progdiff: out of memory");
					break;
				}
				objs = no;
			}
			struct pobj *b = &objs[nobj++];
			memset(b, 0, sizeof(*b));
			b->fi = fi;
			b->family = f;
			b->first = s;
			b->count = o->cases - (s - o->first) < batch ? o->cases - (s - o->first) : batch;
			snprintf(b->path, sizeof(b->path), "%.3900s/%.32s-%llu.rbpg", dir, rb_progen_family_name(f),
				 (unsigned long long)s);
		}
	}
	struct rb_progen_prog *p = malloc(sizeof(*p));
	struct shown *sh = calloc(GRAVITIES * (size_t)(o->show ? o->show : 1), sizeof(*sh));
	size_t nsh[GRAVITIES] = {0}, noref_shown = 0;
	if (rc == 0 && (!p || !sh))
		rc = rb_errf(err, "progdiff: out of memory");
	time_t t0 = time(NULL);
	for (size_t i = 0, j; rc == 0 && i < nobj; i = j) {
		uint64_t total = 0;
		for (j = i; j < nobj && (j == i || total + objs[j].count <= round); j++) {
			total += objs[j].count;
			if (!(objs[j].res = calloc((size_t)objs[j].count, sizeof(struct kres))))
				rc = rb_errf(err, "progdiff: out of memory");
			else if (rb_progen_write_batch(objs[j].path, objs[j].family, o->seed, objs[j].first,
							 objs[j].count, err) < 0)
				rc = -1;
		}
		if (rc == 0)
			rc = guest_round(&k, objs + i, j - i, o, false, st, err);
		for (size_t b = i; rc == 0 && b < j; b++) {
			struct rb_progdiff_counts *c = &st->fam[objs[b].fi];
			for (uint64_t x = 0; rc == 0 && x < objs[b].count; x++) {
				const struct kres *kr = &objs[b].res[x];
				if (!kr->have) {
					c->no_reference++;
					if (o->out && noref_shown++ < o->show)
						fprintf(o->out, "program %s %llu (seed %llu): no row from %s (%s)\n",
							rb_progen_family_name(objs[b].family),
							(unsigned long long)(objs[b].first + x), (unsigned long long)o->seed,
							ref, objs[b].fail[0] ? objs[b].fail : "no answer");
					continue;
				}
				rb_progen_generate(objs[b].family, o->seed, objs[b].first + x, p);
				const char *d = NULL;
				rc = compare(p, tracker, kr, !o->no_logs, c, &d, err);
				int g = d ? gravity(d) : 0;
				if (d && nsh[g] < o->show)
					sh[(size_t)g * o->show + nsh[g]++] = (struct shown){objs[b].family, objs[b].first + x, d};
			}
		}
		for (size_t b = i; b < j; b++) {
			free_res(&objs[b]);
			unlink(objs[b].path);
		}
		if (o->progress) {
			struct rb_progdiff_counts t = {0};
			for (int f = 0; f < st->nfam; f++)
				rb_progdiff_add(&t, &st->fam[f]);
			fprintf(o->progress,
				"progdiff: %zu of %zu batch files done, %ld s, %u guests; so far %llu programs: verdicts %llu, "
				"insns %llu, messages %llu, traces %llu, no-ref %llu differ\n",
				j, nobj, (long)(time(NULL) - t0), st->guests, (unsigned long long)t.programs,
				(unsigned long long)t.verdict_diffs, (unsigned long long)t.insn_diffs,
				(unsigned long long)t.message_diffs, (unsigned long long)t.trace_diffs,
				(unsigned long long)t.no_reference);
		}
	}
	for (int f = 0; f < st->nfam; f++)
		rb_progdiff_add(&st->total, &st->fam[f]);
	size_t nshow = sh ? pick_shown(sh, nsh, o->show) : 0;
	if (rc == 0 && nshow && o->out)
		rc = show_all(&k, dir, sh, nshow, o, tracker, ref, st, err);
	for (size_t b = 0; b < nobj; b++) {
		free_res(&objs[b]);
		unlink(objs[b].path);
	}
	rmdir(dir);
	free(objs);
	free(sh);
	free(p);
	return rc;
}
