/*
 * unit_main.c — the main of build/test/unit/tests, the one binary the unit
 * tests that share a link (tests/unit/test_X.c, but for test_exec_fault and
 * test_bench_report, which link other objects) are linked into. Each test
 * source is compiled with -Dmain=rb_unit_test_X (the Makefile), so its main
 * is a function of its own; build/test/test_X is a hard link to the binary,
 * and the name it was started by (argv[0]'s last component) chooses which
 * of them runs. A suite runs alone in its process, as a binary of its own
 * did: the same checks, the same cmocka output, the same exit status.
 *
 * Why: one link instead of 36 (each 0.15-0.2 s of CPU with gold, as much as
 * the whole binary's: 5.3 s of make test's build; issue 26).
 *
 * The list of suites, RB_UNIT(test_X) lines, is build/test/unit/suites.h,
 * which the Makefile writes from tests/unit/.
 */
#include <stdio.h>
#include <string.h>

#define RB_UNIT(name) int rb_unit_##name(void);
#include "suites.h"
#undef RB_UNIT

static const struct {
	const char *name;
	int (*run)(void);
} units[] = {
#define RB_UNIT(name) {#name, rb_unit_##name},
#include "suites.h"
#undef RB_UNIT
};

int main(int argc, char **argv)
{
	const char *self = argc > 0 && argv[0] ? argv[0] : "";
	const char *slash = strrchr(self, '/');
	const char *name = slash ? slash + 1 : self;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(units[i].name, name) == 0)
			return units[i].run();
	fprintf(stderr, "%s: no unit test of that name; run it as one of:", self);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		fprintf(stderr, " %s", units[i].name);
	fprintf(stderr, "\n");
	return 2;
}
