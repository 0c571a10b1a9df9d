/* list.h — comma-separated name lists ("old,cnum,kernel"), as runs record
 * their trackers. */
#ifndef RB_UTIL_LIST_H
#define RB_UTIL_LIST_H

#include <stdbool.h>

/* is name one of the comma-separated list's items? */
bool rb_list_has(const char *list, const char *name);

#endif
