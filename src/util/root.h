/* root.h — where the project's files (db/, plots/, programs/) are. */
#ifndef RB_UTIL_ROOT_H
#define RB_UTIL_ROOT_H

#include <stddef.h>

/* The top of the rangebench checkout: the nearest of the executable's
 * ancestor directories (up to four levels) holding db/schema.sql, else
 * the current directory ("."). */
void rb_project_root(char *out, size_t len);

#endif
