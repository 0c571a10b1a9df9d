/* kptr_access.h — loads and stores of a map value's kptr fields (Linux
 * 6.18 and 7.2.13 check_map_access, check_map_kptr_access). See
 * kptr_access.c. */
#ifndef RB_ENGINE_KPTR_ACCESS_H
#define RB_ENGINE_KPTR_ACCESS_H

#include <stdbool.h>

#include "engine/state.h"

/* an access of size bytes at off (the register's fixed offset included)
 * past map value reg, by the instruction (value_regno: its loaded or
 * stored register, -1 none) or by a helper: 0 when it touches no kptr, 1
 * when it loaded or stored one (value_regno then set for a load), or the
 * engine's negative error */
int rb_kptr_map_access(struct rb_env *env, const struct rb_reg *reg, int off, int size, bool helper,
		       int value_regno);

#endif
