/* fault.c — the test-only fault switch (see fault.h). */
#include "driver/fault.h"

#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rb_fault_parse(const char *spec, const char *tracker)
{
	if (!spec || !*spec)
		return 0;
	int kinds = 0;
	const char *p = spec;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char item[64];
		if (n >= sizeof(item))
			return -1;
		memcpy(item, p, n);
		item[n] = 0;
		char *colon = strchr(item, ':');
		if (!colon)
			return -1;
		*colon = 0;
		const char *kind = colon + 1;
		int k = !strcmp(kind, "states")    ? RB_FAULT_STATES
			: !strcmp(kind, "insns")   ? RB_FAULT_INSNS
			: !strcmp(kind, "verdict") ? RB_FAULT_VERDICT
			: !strcmp(kind, "slow")    ? RB_FAULT_SLOW
			: !strcmp(kind, "crash")   ? RB_FAULT_CRASH
			: !strcmp(kind, "hang")    ? RB_FAULT_HANG
			: !strcmp(kind, "hog")     ? RB_FAULT_HOG
			: !strcmp(kind, "note")    ? RB_FAULT_NOTE
						   : -1;
		if (k < 0)
			return -1;
		if (!strcmp(item, tracker) || !strcmp(item, "*"))
			kinds |= k;
		p += n;
		if (*p == ',')
			p++;
	}
	return kinds;
}

bool rb_fault_named(const char *spec, const char *item)
{
	for (const char *p = spec; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == strlen(item) && !strncmp(p, item, n))
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

int rb_fault_open(const char *spec, const char *path)
{
	if (!spec || !*spec)
		return 0;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int kinds = 0;
	for (const char *p = spec; *p;) {
		size_t n = strcspn(p, ",");
		char item[64];
		if (n < sizeof(item)) {
			memcpy(item, p, n);
			item[n] = 0;
			char *colon = strrchr(item, ':');
			if (colon) {
				*colon = 0;
				const char *kind = colon + 1;
				bool target = !strcmp(item, "open") ||
					      (!strncmp(item, "open=", 5) && fnmatch(item + 5, base, 0) == 0);
				if (target && !strcmp(kind, "crash"))
					kinds |= RB_FAULT_CRASH;
				else if (target && !strcmp(kind, "hang"))
					kinds |= RB_FAULT_HANG;
				else if (target && !strcmp(kind, "hog"))
					kinds |= RB_FAULT_HOG;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return kinds;
}

void rb_fault_during(int kinds, const char *tracker)
{
	if (kinds & RB_FAULT_NOTE)
		fprintf(stderr, "RB_TEST_FAULT: verified %s\n", tracker);
	if (kinds & RB_FAULT_SLOW)
		usleep(200000);
	if (kinds & RB_FAULT_CRASH)
		abort();
	while (kinds & RB_FAULT_HANG)
		pause();
	while (kinds & RB_FAULT_HOG) {
		/* never freed: the process is killed */
		char *p = malloc((size_t)64 << 20);
		if (p)
			memset(p, 1, (size_t)64 << 20);
		__asm__ volatile("" : : "r"(p) : "memory"); /* keep the allocation */
		usleep(50000);
	}
}

void rb_fault_apply(int kinds, struct rb_result *res)
{
	if (kinds & RB_FAULT_STATES) {
		res->total_states = 2 * res->total_states + 1;
		res->peak_states = 2 * res->peak_states + 1;
	}
	if (kinds & RB_FAULT_INSNS)
		res->insns_processed = res->insns_processed * 3 / 2 + 1;
	if ((kinds & RB_FAULT_VERDICT) && res->verdict == RB_ACCEPT) {
		res->verdict = RB_REJECT;
		res->err_insn = 0;
		snprintf(res->msg, sizeof(res->msg), "RB_TEST_FAULT: verdict flipped");
	}
}

const char *rb_fault_env(void)
{
#ifdef RB_TEST_BUILD
	return getenv("RB_TEST_FAULT");
#else
	return NULL;
#endif
}
