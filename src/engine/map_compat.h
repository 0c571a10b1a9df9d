/* map_compat.h — which helpers may take which maps, as data (Linux 6.18
 * check_map_func_compatibility): the rows are in map_compat.c. */
#ifndef RB_ENGINE_MAP_COMPAT_H
#define RB_ENGINE_MAP_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

/* may helper_id take a map of this type as its map argument? */
bool rb_map_helper_compatible(uint32_t map_type, int32_t helper_id);
/* is helper_id one of the sockmap/sockhash helpers (it takes either)? */
bool rb_helper_takes_sock_map(int32_t helper_id);

#endif
