/* cmd_query.c — `rangebench query NAME`: run db/queries/NAME.sql against the
 * results database and print the rows as a table (or CSV). */
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/row.h"
#include "cli/commands.h"
#include "util/list.h"
#include "util/root.h"
#include "report/query.h"
#include "report/table.h"
#include "store/store.h"
#include "tracker/tracker.h"
#include "util/sort.h"

static void print_table(const struct rb_table *t, void *ctx)
{
	bool csv = *(const bool *)ctx;
	rb_table_print(t, stdout, csv);
	if (!csv)
		printf("(%zu row%s)\n", t->nrows, t->nrows == 1 ? "" : "s");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench query [--db FILE] [--run RUN] [--csv] [--baseline NAME]\n"
		"                        [--candidate NAME] [NAME|FILE.sql]\n"
		"\n"
		"Runs the ready-made query db/queries/NAME.sql (or any .sql file) and prints a\n"
		"table. Without NAME: lists the queries. Queries that ask about one run use\n"
		"--run (an id or a label; default: the latest run): :run in the SQL is that\n"
		"verify run, :census_run and :bench_run the census and benchmark runs of the\n"
		"same label (else the latest ones). Queries comparing two trackers use\n"
		":baseline and :candidate (--baseline, --candidate; default old, cnum).\n");
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_queries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "rangebench query: cannot read %s\n", dir);
		return 2;
	}
	char *names[256];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 256) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".sql"))
			names[n++] = strndup(e->d_name, l - 4);
	}
	closedir(d);
	rb_sort(names, n, sizeof(names[0]), cmp_str);
	printf("queries in %s:\n", dir);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 300], desc[256] = "";
		snprintf(path, sizeof(path), "%s/%s.sql", dir, names[i]);
		FILE *f = fopen(path, "r");
		if (f) {
			/* the first comment line describes the query */
			if (fgets(desc, sizeof(desc), f) && !strncmp(desc, "-- ", 3)) {
				desc[strcspn(desc, "\n")] = 0;
				memmove(desc, desc + 3, strlen(desc + 3) + 1);
			} else {
				desc[0] = 0;
			}
			fclose(f);
		}
		printf("  %-22s %s\n", names[i], desc);
		free(names[i]);
	}
	return 0;
}

int cmd_query(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"db", required_argument, NULL, 'd'}, {"run", required_argument, NULL, 'r'},
		{"csv", no_argument, NULL, 'c'},      {"help", no_argument, NULL, 'h'},
		{"baseline", required_argument, NULL, 'B'}, {"candidate", required_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	char root[PATH_MAX], db_default[PATH_MAX + 32], qdir[PATH_MAX + 32];
	rb_project_root(root, sizeof(root));
	snprintf(db_default, sizeof(db_default), "%s/db/results.sqlite", root);
	snprintf(qdir, sizeof(qdir), "%s/db/queries", root);
	const char *db = db_default, *run = NULL;
	const char *baseline = RB_ROLE_BASELINE, *candidate = RB_ROLE_CANDIDATE;
	bool csv = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'r': run = optarg; break;
		case 'c': csv = true; break;
		case 'B': baseline = optarg; break;
		case 'C': candidate = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!rb_row_known(baseline, true) || !rb_row_known(candidate, true)) {
		char names[384];
		rb_row_names(names, sizeof(names), ", ", true);
		fprintf(stderr, "rangebench query: --baseline and --candidate take one of: %s\n", names);
		return 2;
	}
	if (optind == argc)
		return list_queries(qdir);
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[optind];
	char path[PATH_MAX * 2];
	size_t nl = strlen(name);
	if (strchr(name, '/') || (nl > 4 && !strcmp(name + nl - 4, ".sql")))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s.sql", qdir, name);
	char *sql = read_all(path);
	if (!sql) {
		fprintf(stderr, "rangebench query: no query '%s' (%s); 'rangebench query' lists them\n", name,
			path);
		return 2;
	}
	struct rb_store *st;
	struct rb_err err = {{0}};
	if (rb_store_open_read(db, &st, &err) < 0) {
		fprintf(stderr, "rangebench query: %s\n", err.msg);
		free(sql);
		return 2;
	}
	int rc = 0;
	/* :run is a verify run; :census_run and :bench_run the census and
	 * benchmark runs of the same label (or id), else the latest ones */
	static const char *const kinds[] = {"verify", "census", "bench"};
	int64_t ids[3] = {-1, -1, -1};
	for (int k = 0; k < 3; k++) {
		struct rb_err e2;
		if (run && rb_store_find_run(st, run, kinds[k], &ids[k], &e2) == 0)
			continue;
		int r = rb_store_latest_run(st, kinds[k], &ids[k], &err);
		if (r < 0) {
			fprintf(stderr, "rangebench query: %s\n", err.msg);
			rc = 2;
			goto out;
		}
		if (r > 0)
			ids[k] = -1; /* none yet: the parameter stays NULL */
	}
	int64_t any;
	if (run && rb_store_find_run(st, run, NULL, &any, &err) < 0) {
		fprintf(stderr, "rangebench query: %s\n", err.msg);
		rc = 2;
		goto out;
	}
	/* a query on a tracker pair needs both in the run, as compare does:
	 * else it would print no rows, as if nothing had changed */
	if (ids[0] >= 0 && strstr(sql, ":run") && (strstr(sql, ":baseline") || strstr(sql, ":candidate"))) {
		char lab[128], stat[32], trk[256];
		const char *want[2] = {baseline, candidate};
		if (rb_store_run_describe(st, ids[0], lab, sizeof(lab), stat, sizeof(stat), trk, sizeof(trk), &err) < 0) {
			fprintf(stderr, "rangebench query: %s\n", err.msg);
			rc = 2;
			goto out;
		}
		static const char *const param[2] = {":baseline", ":candidate"};
		for (int i = 0; i < 2; i++)
			if (strstr(sql, param[i]) && !rb_list_has(trk, want[i])) {
				fprintf(stderr, "rangebench query: run %lld (%s) has no results of tracker '%s' (it has: %s)\n",
					(long long)ids[0], lab, want[i], *trk ? trk : "none");
				rc = 2;
				goto out;
			}
	}
	struct rb_query_params qp = {ids[0], ids[1], ids[2], baseline, candidate};
	if (rb_query_run(rb_store_db(st), sql, path, &qp, print_table, &csv, &err) < 0) {
		fprintf(stderr, "rangebench query: %s\n", err.msg);
		rc = 2;
	}
out:
	free(sql);
	rb_store_close(st);
	return rc;
}
