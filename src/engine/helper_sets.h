/* helper_sets.h — measured helper sets of tracing programs that the
 * running kernel loads (iterators and tp_btf), by attach type and
 * iterator target (the lists by name in helper_set_lists.h). */
#ifndef RB_ENGINE_HELPER_SETS_H
#define RB_ENGINE_HELPER_SETS_H

#include <stdint.h>

/* the helper set (a bit per helper id) of a BPF_PROG_TYPE_TRACING program
 * with this attach type; target is the BTF name of its attach target
 * ("bpf_iter_tcp", ...) or NULL. NULL when none was measured (fentry,
 * fexit, fmod_ret: the kernel here refuses to load them). */
const uint64_t *rb_tracing_helper_set(uint32_t attach_type, const char *target);

#endif
