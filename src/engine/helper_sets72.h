/* helper_sets72.h — the helper sets of the 7.2 profile (Linux 7.2.13 as
 * measured in its guest), where they differ from the 6.18 sets of
 * prog_types.c and helper_sets.c; see helper_sets72.c. */
#ifndef RB_ENGINE_HELPER_SETS72_H
#define RB_ENGINE_HELPER_SETS72_H

#include <stdint.h>

struct rb_prog_type;

/* 7.2.13's helper set (a bit per helper id) of a program of type pt with
 * attach type at (target: the BTF name of its attach target, or NULL),
 * in static storage or in buf; NULL where 7.2.13 gives what 6.18 gives */
const uint64_t *rb_helper_set_72(const struct rb_prog_type *pt, uint32_t at, const char *target, uint64_t buf[4]);

#endif
