/* run.c — the census driver: options, work items, worker threads, rows. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "census/internal.h"
#include "util/grow.h"

void rb_census_ops_foreach(void (*cb)(const char *name, const char *kind, void *ctx), void *ctx)
{
	struct census_op ops[CENSUS_MAX_OPS];
	unsigned n = census_ops_build(ops);
	for (unsigned i = 0; i < n; i++)
		cb(ops[i].name, census_kind_name(ops[i].kind), ctx);
}

static bool name_selected(const struct census_op *op, const char *const *names)
{
	if (!names)
		return true;
	for (; *names; names++)
		if (!strcmp(*names, op->name) || !strcmp(*names, op->base))
			return true;
	return false;
}

int rb_census_check_opts(const struct rb_census_opts *o, struct rb_err *err)
{
	if (o->bits != 8 && o->bits != 16 && o->bits != 32 && o->bits != 64)
		return rb_errf(err, "census: width %u is not 8, 16, 32 or 64", o->bits);
	if (o->pairs > RB_CENSUS_MAX_PAIRS)
		return rb_errf(err, "census: %llu pairs is more than %u", (unsigned long long)o->pairs,
			       RB_CENSUS_MAX_PAIRS);
	if (o->sets > RB_CENSUS_MAX_PAIRS)
		return rb_errf(err, "census: %llu input sets is more than %u", (unsigned long long)o->sets,
			       RB_CENSUS_MAX_PAIRS);
	if (o->threads > 1024)
		return rb_errf(err, "census: %u threads is absurd", o->threads);
	if (o->ops) {
		struct census_op ops[CENSUS_MAX_OPS];
		unsigned n = census_ops_build(ops);
		for (const char *const *p = o->ops; *p; p++) {
			bool hit = false;
			for (unsigned i = 0; i < n && !hit; i++)
				hit = !strcmp(*p, ops[i].name) || !strcmp(*p, ops[i].base);
			if (!hit)
				return rb_errf(err, "census: unknown op '%s' (try 'rangebench ops --list')", *p);
		}
	}
	if (!o->custom && o->trackers)
		for (const char *const *p = o->trackers; *p; p++)
			if (!rb_tracker_get(*p, o->bits))
				return rb_errf(err, "census: unknown tracker '%s'", *p);
	if (!o->custom && o->baseline && !rb_tracker_get(o->baseline, o->bits))
		return rb_errf(err, "census: unknown baseline tracker '%s'", o->baseline);
	return 0;
}

struct shared {
	const struct census_run *run;
	struct census_item *items;
	size_t nitems;
	atomic_size_t next;
	atomic_size_t done;     /* work items finished */
	atomic_uint finished;   /* workers that have returned */
	volatile sig_atomic_t *stop; /* rb_census_opts.stop */
	int fail; /* set by a worker on allocation failure (read after join) */
};

static void *worker(void *arg)
{
	struct shared *sh = arg;
	const struct census_run *run = sh->run;
	struct census_scratch sc = {0};
	if (!run->sampled)
		for (unsigned t = 0; t < run->ntr; t++)
			if (!(sc.best[t] = calloc(CENSUS_BEST_CACHE, sizeof(struct census_best_entry)))) {
				for (unsigned u = 0; u < t; u++)
					free(sc.best[u]);
				return (void *)1;
			}
	for (;;) {
		if (sh->stop && *sh->stop)
			break;
		size_t i = atomic_fetch_add(&sh->next, 1);
		if (i >= sh->nitems)
			break;
		if (run->sampled)
			census_item_sampled(run, &sh->items[i]);
		else
			census_item_exact8(run, &sc, &sh->items[i]);
		atomic_fetch_add(&sh->done, 1);
	}
	for (unsigned t = 0; t < run->ntr; t++)
		free(sc.best[t]);
	atomic_fetch_add(&sh->finished, 1);
	return NULL;
}

/* the calling thread, while the workers run: progress about once a second
 * (a worker that fails its allocation returns at once, and counts too) */
static void watch_progress(struct shared *sh, unsigned started, const struct rb_census_opts *o)
{
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 200 * 1000 * 1000};
	for (unsigned n = 1; atomic_load(&sh->finished) < started; n++) {
		nanosleep(&tick, NULL);
		if (n % 5 == 0)
			o->progress(atomic_load(&sh->done), sh->nitems, o->progress_ctx);
	}
	o->progress(atomic_load(&sh->done), sh->nitems, o->progress_ctx);
}

static unsigned online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* work items: fixed-size chunks of each selected op's cases, so the
 * random stream of every case is independent of the thread count */
static int build_items(const struct census_run *run, const bool *selected, struct census_item **itemsp,
		       size_t *nitems, struct rb_err *err)
{
	size_t cap = 0;
	for (unsigned i = 0; i < run->nops; i++) {
		if (!selected[i])
			continue;
		const struct census_op *op = &run->ops[i];
		bool unary = !run->sampled && op->kind != CK_ALU2 && op->kind != CK_JMP;
		uint64_t total = unary ? census_unary_cases8(run, op) : run->pairs;
		uint64_t chunk = unary ? CENSUS_CHUNK_SETS : CENSUS_CHUNK_PAIRS;
		for (uint64_t lo = 0, c = 0; lo < total; lo += chunk, c++) {
			if (RB_GROW(*itemsp, *nitems + 1, &cap, 1024) < 0)
				return rb_errf(err, "census: out of memory");
			struct census_item *it = &(*itemsp)[(*nitems)++];
			memset(it, 0, sizeof(*it));
			it->op = i;
			it->lo = lo;
			it->hi = lo + chunk < total ? lo + chunk : total;
			it->chunk = (unsigned)c;
		}
	}
	return 0;
}

/* one op and tracker: the statistics of all its work items */
static struct census_stats merge_stats(const struct census_item *items, size_t nitems, unsigned op, unsigned t)
{
	struct census_stats m = {0};
	for (size_t k = 0; k < nitems; k++) {
		if (items[k].op != op)
			continue;
		const struct census_stats *s = &items[k].st[t];
		m.cases += s->cases;
		m.unsound += s->unsound;
		m.optimal += s->optimal;
		m.extra += s->extra;
		for (int c = 0; c < 4; c++) {
			m.cmp[c] += s->cmp[c];
			m.same[c] += s->same[c];
		}
		m.same_domain += s->same_domain;
		if (!m.cex && s->cex)
			m.cex = s->cex;
		if (s->loose && (!m.loose || (s->loose_same && !m.loose_same))) {
			m.loose = s->loose;
			m.loose_same = s->loose_same;
		}
	}
	return m;
}

int rb_census_run(const struct rb_census_opts *o, rb_census_cb cb, void *ctx, struct rb_census_summary *sum,
		  struct rb_err *err)
{
	if (rb_census_check_opts(o, err) < 0)
		return -1;
	struct census_run *run = calloc(1, sizeof(*run));
	struct census_item *items = NULL;
	size_t nitems = 0;
	bool selected[CENSUS_MAX_OPS] = {0};
	int ret = -1;
	if (!run)
		return rb_errf(err, "census: out of memory");
	run->bits = o->bits;
	run->sampled = o->bits != 8;
	run->seed = o->seed;
	run->sets = o->sets;
	run->pairs = o->pairs ? o->pairs : run->sampled ? RB_CENSUS_DEFAULT_PAIRS_WIDE : RB_CENSUS_DEFAULT_PAIRS_8;
	run->conc = rb_concrete_get(o->bits);
	run->base_i = -1;
	if (o->custom) {
		for (const struct rb_tracker *const *p = o->custom; *p && run->ntr < CENSUS_MAX_TRACKERS; p++)
			run->tr[run->ntr++] = *p;
	} else if (o->trackers) {
		for (const char *const *p = o->trackers; *p && run->ntr < CENSUS_MAX_TRACKERS; p++)
			run->tr[run->ntr++] = rb_tracker_get(*p, o->bits);
	} else {
		for (const struct rb_tracker *const *p = rb_trackers(o->bits); p && *p && run->ntr < CENSUS_MAX_TRACKERS; p++)
			run->tr[run->ntr++] = *p;
	}
	if (!run->ntr || !run->conc) {
		rb_errf(err, "census: no tracker at width %u", o->bits);
		goto out;
	}
	const char *base = o->baseline ? o->baseline : RB_ROLE_BASELINE;
	for (unsigned t = 0; t < run->ntr; t++)
		if (!strcmp(run->tr[t]->name, base))
			run->base_i = (int)t;
	run->nops = census_ops_build(run->ops);
	unsigned nsel = 0;
	for (unsigned i = 0; i < run->nops; i++)
		nsel += selected[i] = name_selected(&run->ops[i], o->ops);

	unsigned nth = o->threads ? o->threads : online_cores();
	if (!run->sampled) {
		if (!(run->pool = census_pool_build(run, err)))
			goto out;
		if (census_tables_build(run, selected, err) < 0)
			goto out;
	}

	if (build_items(run, selected, &items, &nitems, err) < 0)
		goto out;

	struct shared sh = {.run = run, .items = items, .nitems = nitems, .stop = o->stop};
	atomic_init(&sh.next, 0);
	atomic_init(&sh.done, 0);
	atomic_init(&sh.finished, 0);
	pthread_t th[1024];
	unsigned started = 0;
	for (; started < nth; started++)
		if (pthread_create(&th[started], NULL, worker, &sh))
			break;
	if (!started) {
		rb_errf(err, "census: cannot start a worker thread");
		goto out;
	}
	if (o->progress)
		watch_progress(&sh, started, o);
	for (unsigned i = 0; i < started; i++) {
		void *rv = NULL;
		pthread_join(th[i], &rv);
		if (rv)
			sh.fail = 1;
	}
	if (!sh.fail && o->stop && *o->stop) {
		ret = 2; /* stopped: no rows */
		goto out;
	}
	if (sh.fail || atomic_load(&sh.next) < nitems) {
		rb_errf(err, "census: out of memory in a worker");
		goto out;
	}

	if (sum) {
		memset(sum, 0, sizeof(*sum));
		sum->bits = run->bits;
		sum->threads = started;
		sum->sampled = run->sampled;
		sum->pairs = run->pairs;
		sum->input_sets = run->pool ? run->pool->n : 0;
		sum->ops = nsel;
	}
	ret = 0;
	for (unsigned i = 0; i < run->nops && ret == 0; i++) {
		if (!selected[i])
			continue;
		for (unsigned t = 0; t < run->ntr && ret == 0; t++) {
			struct census_stats m = merge_stats(items, nitems, i, t);
			struct rb_census_row row = {
				.op = run->ops[i].name,
				.kind = census_kind_name(run->ops[i].kind),
				.tracker = run->tr[t]->name,
				.baseline = run->base_i >= 0 ? run->tr[run->base_i]->name : NULL,
				.bits = run->bits,
				.sampled = run->sampled,
				.cases = m.cases,
				.unsound = m.unsound,
				.optimal = m.optimal,
				.extra_log2 = m.cases ? m.extra / (double)m.cases : 0,
				.has_cmp = !run->sampled && run->base_i >= 0 && (int)t != run->base_i,
				.tighter = m.cmp[CMP_TIGHTER],
				.looser = m.cmp[CMP_LOOSER],
				.equal = m.cmp[CMP_EQUAL],
				.incomparable = m.cmp[CMP_INCOMPARABLE],
				.same_cases = m.same[0] + m.same[1] + m.same[2] + m.same[3],
				.same_tighter = m.same[CMP_TIGHTER],
				.same_looser = m.same[CMP_LOOSER],
				.same_equal = m.same[CMP_EQUAL],
				.same_incomparable = m.same[CMP_INCOMPARABLE],
				.same_domain = m.same_domain,
				.looser_example = m.loose,
				.counterexample = m.cex,
			};
			if (sum) {
				sum->rows++;
				sum->cases += m.cases;
				sum->unsound += m.unsound;
			}
			if (cb)
				ret = cb(&row, ctx);
		}
	}
out:
	for (size_t k = 0; items && k < nitems; k++)
		for (unsigned t = 0; t < CENSUS_MAX_TRACKERS; t++)
			free(items[k].st[t].cex), free(items[k].st[t].loose);
	free(items);
	census_tables_free(run);
	census_pool_free(run->pool);
	free(run);
	return ret;
}
