/* log.h — the verifier log in the kernel's level-2 format (Linux 6.18 print_verifier_state, print_bpf_insn). */
#ifndef RB_ENGINE_LOG_H
#define RB_ENGINE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/state.h"

void rb_log_insn(struct rb_env *env, int idx);
void rb_log_state(struct rb_env *env, const struct rb_vstate *st, int frameno, bool all);
void rb_log_insn_state(struct rb_env *env);
void rb_print_reg(struct rb_env *env, const struct rb_func *f, const struct rb_reg *r, char *buf, size_t len);
void rb_disasm(const struct bpf_insn *insn, const struct rb_object *obj, char *buf, size_t len);
const char *rb_rtype_name(const struct rb_reg *r, char *buf, size_t len);
const char *rb_rtype_str(const struct rb_reg *r, char *buf, size_t len);
/* a tnum as 6.18's tnum_strn (kernel/bpf/log.c) prints it in messages: a
 * constant as its value (decimal up to 0xffff, else hex), otherwise
 * "(value; mask)" in the kernel's %#llx (which writes 0 as 0x0) */
const char *rb_tnum_str(uint64_t value, uint64_t mask, char *buf, size_t len);
/* "local", "ringbuf", ... (dynptr_type_str) */
const char *rb_dynptr_type_str(int type);
/* the log's "dynptr_ringbuf(id=1,ref_id=2,dynptr_id=1)" of a dynptr's first slot */
void rb_dynptr_slot_str(const struct rb_slot *s, char *buf, size_t len);
/* the log's "iter_num(ref_id=1,state=active,depth=0)" of an iterator slot */
void rb_iter_slot_str(struct rb_env *env, const struct rb_slot *s, char *buf, size_t len);

#endif
