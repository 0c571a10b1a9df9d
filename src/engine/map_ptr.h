/* map_ptr.h — reads of struct bpf_map fields through a map pointer (Linux
 * 6.18 check_ptr_to_map_access). */
#ifndef RB_ENGINE_MAP_PTR_H
#define RB_ENGINE_MAP_PTR_H

#include <stdbool.h>

#include "engine/state.h"

/* an access at off (reg->off included) of size bytes through the map
 * pointer in register regno: 0 with the loaded value in register
 * value_regno (when >= 0; a scalar narrower than 8 bytes zero-extended),
 * or the kernel's rejection */
int rb_map_ptr_access(struct rb_env *env, int regno, int off, int size, bool write, int value_regno);

#endif
