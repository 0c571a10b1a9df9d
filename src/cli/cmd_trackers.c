/* cmd_trackers.c — `rangebench trackers`: the tracker registry
 * (src/tracker/registry.c) as a table: name, role, representation size,
 * build flags, what it follows. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "tracker/tracker.h"

int cmd_trackers(int argc, char **argv)
{
	bool csv = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: rangebench trackers [--csv]\n"
			       "  Lists the tracker registry: every name --tracker/--trackers/--baseline/\n"
			       "  --candidate accept, its default role, the bytes of its representation\n"
			       "  (64-bit build), its extra build flags and what it follows.\n");
			return 0;
		} else {
			fprintf(stderr, "rangebench trackers: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (csv)
		printf("name,role,val_bytes,build_flags,follows\n");
	else
		printf("%-14s %-10s %6s  %-26s %s\n", "name", "role", "bytes", "build flags", "follows");
	for (const struct rb_tracker *const *t = rb_trackers(64); t && *t; t++) {
		const char *role = !strcmp((*t)->name, RB_ROLE_BASELINE)    ? "baseline"
				   : !strcmp((*t)->name, RB_ROLE_CANDIDATE) ? "candidate"
									    : "";
		const char *flags = (*t)->build_flags && *(*t)->build_flags ? (*t)->build_flags : "-";
		if (csv)
			printf("%s,%s,%zu,%s,\"%s\"\n", (*t)->name, role, (*t)->val_size, flags, (*t)->follows);
		else
			printf("%-14s %-10s %6zu  %-26s %s\n", (*t)->name, role, (*t)->val_size, flags, (*t)->follows);
	}
	return 0;
}
