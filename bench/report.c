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

static const struct rb_bench_result *find(const struct rb_bench_result *r, size_t n, const char *op,
					  const char *tracker)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].op, op) && !strcmp(r[i].tracker, tracker))
			return &r[i];
	return NULL;
}

void rb_bench_print(const struct rb_bench_result *r, size_t n)
{
	printf("\n%-18s %10s %10s %9s\n", "operation", "old ns/op", "cnum ns/op", "cnum/old");
	double logsum = 0;
	int cnt = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(r[i].tracker, "old"))
			continue;
		const struct rb_bench_result *c = find(r, n, r[i].op, "cnum");
		if (!c || r[i].ns_per_op <= 0)
			continue;
		double ratio = c->ns_per_op / r[i].ns_per_op;
		printf("%-18s %10.2f %10.2f %9.2f\n", r[i].op, r[i].ns_per_op, c->ns_per_op, ratio);
		logsum += __builtin_log(ratio);
		cnt++;
	}
	if (cnt)
		printf("%-18s %10s %10s %9.2f  (geometric mean over %d operations)\n", "all", "", "",
		       __builtin_exp(logsum / cnt), cnt);
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
	struct rb_run_info info = {
		.kind = "bench",
		.label = label,
		.git_commit = ri.git_commit[0] ? ri.git_commit : NULL,
		.git_dirty = ri.git_dirty,
		.kernel_release = ri.kernel_release,
		.host = ri.host,
		.options = options,
		.trackers = "old,cnum",
	};
	if (rb_store_run_begin(b->st, &info, &b->run, &err) < 0) {
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
