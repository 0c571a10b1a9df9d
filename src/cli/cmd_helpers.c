/* cmd_helpers.c — `rangebench helpers`: the running kernel's helper sets
 * (oracle/helper_probe.h) against the engine's compiled-in 6.18 sets, one
 * line per (program type, attach type) with the helpers that differ. Exit
 * 0 when every pair was measured and equal, 1 when some differ, 2 when
 * nothing could be measured. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "engine/names.h"
#include "engine/prog_types.h"
#include "oracle/helper_probe.h"

int cmd_helpers(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: rangebench helpers\n");
		return 2;
	}
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, true);
	if (hp.off) {
		fprintf(stderr, "rangebench helpers: bpf() is refused here: the compiled-in 6.18 sets are used\n");
		return 2;
	}
	rb_helper_probe_all(&hp);
	int differ = 0;
	for (int i = 0; i < hp.n; i++) {
		const struct rb_prog_type *pt = rb_prog_type(hp.e[i].type);
		printf("%-18s attach %-3u ", pt ? pt->name : "?", hp.e[i].attach);
		if (!hp.e[i].ok) {
			printf("not measured (compiled-in set)\n");
			continue;
		}
		const uint64_t *c = rb_prog_helper_set(pt, hp.e[i].attach);
		int n = 0;
		for (int id = 1; id < 256; id++) {
			bool k = (hp.e[i].set[id / 64] >> (id % 64)) & 1, m = c && ((c[id / 64] >> (id % 64)) & 1);
			if (k == m)
				continue;
			char lb[64];
			printf("%s%s%s", n++ ? " " : "", k ? "+" : "-", rb_helper_label(id, lb, sizeof(lb)));
		}
		printf("%s\n", n ? "" : "same");
		differ += n > 0;
	}
	printf("helper sets: %s (%d of %d pairs measured, %d differ from the compiled-in sets)\n",
	       rb_helper_probe_source(&hp), hp.nmeasured, hp.n, differ);
	return differ ? 1 : 0;
}
