/* helper_gpl.h — licences and GPL-only helpers (Linux 6.18: a program
 * whose licence is not GPL-compatible cannot call a helper whose
 * bpf_func_proto has gpl_only set). */
#ifndef RB_ENGINE_HELPER_GPL_H
#define RB_ENGINE_HELPER_GPL_H

#include <stdbool.h>
#include <stdint.h>

/* the kernel's license_is_gpl_compatible(): six exact strings */
bool rb_license_gpl_compatible(const char *license);
/* is the prototype of helper `id` for this program and attach type GPL-only? */
bool rb_helper_gpl_only(int32_t id, uint32_t prog_type, uint32_t attach_type);

#endif
