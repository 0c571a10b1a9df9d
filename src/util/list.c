/* list.c — rb_list_has() (list.h). */
#include "util/list.h"

#include <string.h>

bool rb_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t k = c ? (size_t)(c - p) : strlen(p);
		if (k == n && !strncmp(p, name, n))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}
