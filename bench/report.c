/* report.c — printing the benchmark table and storing it in the results
 * database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench.h"
#include "store/runinfo.h"
#include "util/root.h"
#include "store/store.h"
#include "tracker/tracker.h"

static const struct rb_bench_result *find(const struct rb_bench_result *r, size_t n, const char *op,
					  const char *tracker)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].op, op) && !strcmp(r[i].tracker, tracker))
			return &r[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

size_t rb_bench_median(struct rb_bench_result *r, size_t n)
{
	double *ns = malloc((n ? n : 1) * sizeof(*ns));
	struct rb_bench_result *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t out = 0;
	if (!ns || !tmp) {
		free(ns);
		free(tmp);
		return n; /* the rows as they are: print takes the first of each */
	}
	/* in the order of the operations, then of the registry: a random
	 * interleaving leaves the rows shuffled */
	const struct rb_tracker *const *tl = rb_trackers(64);
	for (unsigned op = 0; op < rb_bench_count(); op++)
		for (const struct rb_tracker *const *t = tl; *t; t++) {
			size_t k = 0, first = n;
			uint64_t iters = 0;
			for (size_t j = 0; j < n; j++)
				if (!strcmp(r[j].op, rb_bench_op(op)) && !strcmp(r[j].tracker, (*t)->name)) {
					if (first == n)
						first = j;
					ns[k++] = r[j].ns_per_op;
					iters += r[j].iterations;
				}
			if (!k)
				continue;
			qsort(ns, k, sizeof(*ns), cmp_double);
			tmp[out] = r[first];
			tmp[out].ns_per_op = k % 2 ? ns[k / 2] : (ns[k / 2 - 1] + ns[k / 2]) / 2;
			tmp[out].ns_min = ns[0];
			tmp[out].ns_max = ns[k - 1];
			tmp[out].iterations = iters;
			out++;
		}
	memcpy(r, tmp, out * sizeof(*r));
	free(ns);
	free(tmp);
	return out;
}

/* ns/op of every registry tracker per operation and the candidate's ratio
 * to the baseline, then each tracker's ratio to the baseline (geometric
 * mean over the operations) */
void rb_bench_print(const struct rb_bench_result *r, size_t n)
{
	const struct rb_tracker *const *tl = rb_trackers(64);
	printf("\n%-18s", "operation (ns/op)");
	for (const struct rb_tracker *const *t = tl; *t; t++)
		printf(" %14s", (*t)->name);
	printf(" %14s\n", RB_ROLE_CANDIDATE "/" RB_ROLE_BASELINE);
	double logsum[16] = {0};
	int cnt[16] = {0};
	for (size_t i = 0; i < n; i++) {
		if (strcmp(r[i].tracker, RB_ROLE_BASELINE) || r[i].ns_per_op <= 0)
			continue;
		printf("%-18s", r[i].op);
		for (unsigned k = 0; tl[k] && k < 16; k++) {
			const struct rb_bench_result *c = find(r, n, r[i].op, tl[k]->name);
			if (!c) {
				printf(" %14s", "-");
				continue;
			}
			printf(" %14.2f", c->ns_per_op);
			logsum[k] += __builtin_log(c->ns_per_op / r[i].ns_per_op);
			cnt[k]++;
		}
		const struct rb_bench_result *cand = find(r, n, r[i].op, RB_ROLE_CANDIDATE);
		if (cand)
			printf(" %14.2f", cand->ns_per_op / r[i].ns_per_op);
		printf("\n");
	}
	printf("%-18s", "vs " RB_ROLE_BASELINE " (geomean)");
	for (unsigned k = 0; tl[k] && k < 16; k++)
		if (cnt[k])
			printf(" %13.2fx", __builtin_exp(logsum[k] / cnt[k]));
		else
			printf(" %14s", "-"); /* not measured (filtered out) */
	printf("\n");
}

struct rb_bench_db {
	struct rb_store *st;
	int64_t run;
	char path[4096];
};

int rb_bench_db_begin(const char *path, const char *label, const char *options,
		      struct rb_bench_db **out, char *msg, size_t msglen)
{
	struct rb_bench_db *b = calloc(1, sizeof(*b));
	struct rb_err err = {{0}};
	if (!b) {
		snprintf(msg, msglen, "%s: out of memory", path);
		return -1;
	}
	snprintf(b->path, sizeof(b->path), "%s", path);
	if (rb_store_open(path, &b->st, &err) < 0) {
		snprintf(msg, msglen, "%s", err.msg);
		free(b);
		return -1;
	}
	char root[4096];
	rb_project_root(root, sizeof(root));
	struct rb_runinfo ri;
	rb_runinfo_read(&ri, root);
	char trackers[256];
	rb_tracker_names(trackers, sizeof(trackers), ",", false);
	struct rb_run_info info = {
		.kind = "bench",
		.label = label,
		.git_commit = ri.git_commit[0] ? ri.git_commit : NULL,
		.git_dirty = ri.git_dirty,
		.kernel_release = ri.kernel_release,
		.host = ri.host,
		.options = options,
		.trackers = trackers,
		/* the patch measured: a bench run of a dirty checkout is told
		 * apart from another patch on the same commit, as verify runs */
		.diff_sha256 = ri.diff ? ri.diff_sha256 : NULL,
		.diff_text = ri.diff,
	};
	int rc = rb_store_run_begin(b->st, &info, &b->run, &err);
	rb_runinfo_free(&ri);
	if (rc < 0) {
		snprintf(msg, msglen, "%s", err.msg);
		rb_store_close(b->st);
		free(b);
		return -1;
	}
	*out = b;
	return 0;
}

int rb_bench_db_finish(struct rb_bench_db *b, const struct rb_bench_result *r, size_t n, int ok,
		       char *msg, size_t msglen)
{
	struct rb_err err = {{0}};
	struct rb_bench_row *rows = calloc(n ? n : 1, sizeof(*rows));
	int rc = rows ? 0 : rb_errf(&err, "%s: out of memory", b->path);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		snprintf(rows[i].op, sizeof(rows[i].op), "%s", r[i].op);
		snprintf(rows[i].tracker, sizeof(rows[i].tracker), "%s", r[i].tracker);
		rows[i].ns_per_op = r[i].ns_per_op;
		rows[i].iterations = r[i].iterations;
		rows[i].ns_min = r[i].ns_min;
		rows[i].ns_max = r[i].ns_max;
	}
	if (rc == 0)
		rc = rb_store_bench(b->st, b->run, rows, n, &err); /* one transaction */
	free(rows);
	struct rb_err e2;
	if (rb_store_run_end(b->st, b->run, rc == 0 && ok ? "complete" : "incomplete", &e2) < 0 &&
	    rc == 0) {
		err = e2;
		rc = -1;
	}
	if (rc < 0)
		snprintf(msg, msglen, "%s", err.msg);
	else
		snprintf(msg, msglen, "stored as bench run %lld in %s", (long long)b->run, b->path);
	rb_store_close(b->st);
	free(b);
	return rc;
}
