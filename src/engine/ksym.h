/* ksym.h — ld_imm64 of a kernel symbol by BTF id (BPF_PSEUDO_BTF_ID):
 * typed ksyms and kfunc addresses (Linux 6.18 __check_pseudo_btf_id,
 * check_ld_imm). */
#ifndef RB_ENGINE_KSYM_H
#define RB_ENGINE_KSYM_H

#include <linux/bpf.h>

#include "engine/state.h"

/* dst = the symbol insn[0].imm names in vmlinux BTF (insn[1].imm: the BTF
 * object, 0 = vmlinux): a kfunc's address is read-only memory of size 0
 * (null when the kfunc is absent, so bpf_ksym_exists() tests fold), a
 * variable of struct type a BTF pointer to it, any other variable
 * read-only memory of its size. Per-CPU variables and module BTF are not
 * modelled (unsupported). */
int rb_ld_ksym(struct rb_env *env, const struct bpf_insn *insn, struct rb_reg *dst);

#endif
