/* lsm.h — BPF LSM programs (Linux 6.18 bpf_lsm.c, check_return_code). */
#ifndef RB_ENGINE_LSM_H
#define RB_ENGINE_LSM_H

#include <stdbool.h>

#include "engine/state.h"

struct btf_type;

/* after rb_btf_init typed the hook's arguments: the attach target must be
 * an LSM hook, and the exit value's range (env->ret_*) follows from it */
int rb_lsm_init(struct rb_env *env, const struct btf_type *proto);

/* fname (a bpf_lsm_<hook> function) is one of the hooks a sleepable
 * program may attach to (6.18 bpf_lsm_is_sleepable_hook) */
bool rb_lsm_sleepable_hook(const char *fname);

/* a read of the hook's return value so far: its range in both widths */
void rb_lsm_retval(struct rb_env *env, struct rb_reg *r);

#endif
