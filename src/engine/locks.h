/* locks.h — bpf_spin_lock / bpf_spin_unlock (Linux 6.18 process_spin_lock
 * and the rules of a bpf_spin_lock-ed region). */
#ifndef RB_ENGINE_LOCKS_H
#define RB_ENGINE_LOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/state.h"

/* the ref_insns marker of a lock held in a state's refs (6.18 keeps locks
 * in the same array as references, REF_TYPE_LOCK) */
#define RB_REF_LOCK (-2)
/* the marker of a bpf_res_spin_lock held on a value of map m (irq: taken
 * by bpf_res_spin_lock_irqsave; 6.18 REF_TYPE_RES_LOCK[_IRQ], whose `ptr`
 * is the map): -3 - 2m - irq */
#define RB_REF_RES_LOCK(m, irq) (-3 - 2 * (int32_t)(m) - ((irq) ? 1 : 0))
#define RB_REF_RES_LOCK_MAP(marker) ((-3 - (marker)) / 2)
#define RB_REF_RES_LOCK_IRQ(marker) ((-3 - (marker)) % 2)
/* the marker of saved IRQ flags (6.18 and 7.2.13 REF_TYPE_IRQ; irq_flags.c)
 * acquired at instruction insn: below every lock marker */
#define RB_REF_IRQ_BASE (-(1 << 30))
#define RB_REF_IRQ(insn) (RB_REF_IRQ_BASE - 1 - (int32_t)(insn))
#define RB_REF_IRQ_INSN(marker) (RB_REF_IRQ_BASE - 1 - (marker))
#define RB_REF_IS_IRQ(marker) ((marker) < RB_REF_IRQ_BASE)
/* the "map" of a lock in an allocated object (alloc_lock.c): 6.18 and
 * 7.2.13 key such locks by reg->btf, the program's BTF. Past any map
 * index, and small enough that RB_REF_RES_LOCK of it stays above
 * RB_REF_IRQ_BASE */
#define RB_LOCK_PROG_BTF 0x10000000
/* a refs entry that is a lock (6.18 REF_TYPE_LOCK_MASK), not a reference */
#define RB_REF_IS_LOCK(marker) ((marker) <= RB_REF_LOCK && (marker) >= RB_REF_IRQ_BASE)

/* ARG_PTR_TO_SPIN_LOCK of helper_id (bpf_spin_lock takes, bpf_spin_unlock releases) */
int rb_check_spin_lock_arg(struct rb_env *env, int32_t helper_id, int regno);
struct btf;
/* byte offset of a struct `name` member (nested too) of the map's BTF value type, -1 when none */
int32_t rb_map_struct_field_off(struct rb_env *env, int map_idx, const char *name);
/* the same of the special structs, remembered per map (rb_env field_offs) */
enum rb_map_field { RB_FIELD_SPIN_LOCK, RB_FIELD_RES_SPIN_LOCK, RB_FIELD_TIMER, RB_FIELD_WQ, RB_FIELD_TASK_WORK, RB_NFIELDS };
int32_t rb_map_field_off(struct rb_env *env, int map_idx, enum rb_map_field field);
/* ... of the program BTF's struct type_id, -1 when none */
int32_t rb_type_struct_field_off(struct rb_env *env, uint32_t type_id, const char *name);
/* byte offset of the map value's struct bpf_spin_lock (the map's BTF), -1 when none */
int32_t rb_map_spin_lock_off(struct rb_env *env, int map_idx);
/* do_check_insn: calls inside a locked region (before the call is checked) */
int rb_lock_check_call(struct rb_env *env, const struct bpf_insn *insn);
/* a load or store overlapping the map value's lock (check_map_access);
 * off includes the register's fixed offset */
int rb_lock_check_access(struct rb_env *env, const struct rb_reg *reg, int off, int size);
void rb_locks_free(struct rb_env *env);
/* check_reg_allocation_locked: a lock of this map value (id, map) is held */
bool rb_lock_held_on(struct rb_env *env, uint32_t id, int32_t map_idx);
/* the current state holds a lock (6.18 active_locks != 0) */
bool rb_lock_held(struct rb_env *env);
/* the map's BTF value type has a bpf_spin_lock or a bpf_res_spin_lock
 * (reg_may_point_to_spin_lock) */
bool rb_map_has_lock(struct rb_env *env, int map_idx);
struct rb_kfunc_call;
struct bpf_insn;
/* the `special` checker of bpf_res_spin_lock, bpf_res_spin_unlock and
 * their _irqsave / _irqrestore variants (kfunc_table.c) */
int rb_kfunc_res_spin_lock(struct rb_env *env, const struct bpf_insn *insn, const struct rb_kfunc_call *call);
/* check_map_prog_compatibility: maps with a bpf_spin_lock are refused to
 * socket filters and the tracing types, maps with a bpf_timer to the
 * tracing types (before verification) */
int rb_locks_precheck(struct rb_env *env);

#endif
