/* cpus.c — see cpus.h. The kernel numbers possible CPUs from 0 without
 * holes on the machines this runs on; the last number of the list, plus
 * one, is nr_cpu_ids. */
#include "util/cpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned rb_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	if (!f)
		return 0;
	char line[256];
	char *ok = fgets(line, sizeof(line), f);
	fclose(f);
	if (!ok)
		return 0;
	/* the last number of the list ("0-3", "0-3,8-11", "0") */
	char *last = line;
	for (char *p = line; *p; p++)
		if (*p == ',' || *p == '-')
			last = p + 1;
	char *end;
	unsigned long n = strtoul(last, &end, 10);
	if (end == last || n >= 1u << 20)
		return 0;
	return (unsigned)n + 1;
}
