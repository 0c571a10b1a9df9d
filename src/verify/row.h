/* row.h — the verifier a result row names: a registry tracker run in the
 * engine, optionally with a kernel profile ("cnum-mainline@7.2", see
 * engine/profile.h), or "kernel", the running kernel. */
#ifndef RB_VERIFY_ROW_H
#define RB_VERIFY_ROW_H

#include <stdbool.h>
#include <stddef.h>

/* Is `row` a tracker name (rb_tracker_known, "kernel" when with_kernel)
 * or a registry tracker followed by '@' and a known profile? */
bool rb_row_known(const char *row, bool with_kernel);
/* the tracker names (rb_tracker_names), then how to name a profile, into
 * buf with snprintf conventions; for usage and error messages */
int rb_row_names(char *buf, size_t len, const char *sep, bool with_kernel);

#endif
