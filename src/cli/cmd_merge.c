/* cmd_merge.c — `rangebench merge OUT.sqlite IN.sqlite...`: results
 * databases (shards of one run spread over machines, or separate runs)
 * into one (src/store/merge.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "store/merge.h"
#include "store/store.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rangebench merge OUT.sqlite IN.sqlite...\n"
		"\n"
		"Merges the runs, programs, results, census and bench rows of each IN database\n"
		"into OUT (created if missing). Programs are matched by object content, section\n"
		"and name; rows already in OUT are kept, so merging twice changes nothing. The\n"
		"shards of one 'run --shard K/N' (same label and N) become one run again,\n"
		"complete when all N shards are in. An IN with another schema version or other\n"
		"columns is refused with the reason; the INs are opened read-only.\n");
}

int cmd_merge(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 3) {
		usage(stderr);
		return 2;
	}
	struct rb_store *st;
	struct rb_err err = {{0}};
	struct stat sb;
	bool existed = stat(argv[1], &sb) == 0;
	if (rb_store_open(argv[1], &st, &err) < 0) {
		fprintf(stderr, "rangebench merge: %s\n", err.msg);
		return 2;
	}
	int rc = 0, merged = 0;
	struct rb_merge_stats total = {0};
	for (int i = 2; i < argc; i++) {
		struct rb_merge_stats s = {0};
		if (rb_store_merge(st, argv[i], &s, &err) < 0) {
			fprintf(stderr, "rangebench merge: %s\n", err.msg);
			rc = 2;
			continue;
		}
		merged++;
		printf("%s: %llu new runs, %llu joined, %llu new programs, %llu results, %llu census rows, %llu bench "
		       "rows\n",
		       argv[i], (unsigned long long)s.runs_new, (unsigned long long)s.runs_joined,
		       (unsigned long long)s.programs_new, (unsigned long long)s.results_new,
		       (unsigned long long)s.census_new, (unsigned long long)s.bench_new);
		total.results_new += s.results_new;
	}
	rb_store_close(st);
	if (!merged) {
		/* every input refused: an OUT this merge created is removed,
		 * not left as an empty database */
		if (!existed) {
			char side[4200];
			unlink(argv[1]);
			snprintf(side, sizeof(side), "%s-wal", argv[1]);
			unlink(side);
			snprintf(side, sizeof(side), "%s-shm", argv[1]);
			unlink(side);
		}
		fprintf(stderr, "rangebench merge: nothing merged into %s%s\n", argv[1],
			existed ? " (left as it was)" : " (not created)");
		return 2;
	}
	printf("merged into %s: %llu result rows added%s\n", argv[1], (unsigned long long)total.results_new,
	       rc ? " (some inputs refused, see above)" : "");
	return rc;
}
