/* timers.h — struct bpf_timer in map values (Linux 6.18
 * process_timer_func and the timer rules of check_map_access and
 * check_map_prog_compatibility). See timers.c. */
#ifndef RB_ENGINE_TIMERS_H
#define RB_ENGINE_TIMERS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* byte offset of the map value's struct bpf_timer (the map's BTF), -1 when none */
int32_t rb_map_timer_off(struct rb_env *env, int map_idx);
/* the map value holds a timer, workqueue or task_work (the kernel's
 * btf_record_has_field(BPF_TIMER | BPF_WORKQUEUE | BPF_TASK_WORK)) */
bool rb_map_has_async(struct rb_env *env, int map_idx);
/* ARG_PTR_TO_TIMER in register regno; *map_idx, *map_uid: the timer's
 * map and its map_uid (meta->map.ptr, meta->map.uid) */
int rb_check_timer_arg(struct rb_env *env, int regno, int *map_idx, int32_t *map_uid);
/* a load or store overlapping the map value's timer (off includes the
 * register's fixed offset) */
int rb_timer_check_access(struct rb_env *env, const struct rb_reg *reg, int off, int size);
/* check_map_prog_compatibility: a map with a timer in a tracing program */
bool rb_map_timer_refused(struct rb_env *env, int map_idx);

#endif
