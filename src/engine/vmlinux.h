/* vmlinux.h — the running kernel's BTF (/sys/kernel/btf/vmlinux), parsed
 * at most once and shared by every program a caller verifies. Parsing it
 * takes 15-40 ms, far more than verifying a small tracing program, so a
 * caller that verifies many programs (the driver, `verify` with several
 * objects) creates one handle and passes it in rb_engine_opts/
 * rb_verify_opts. The BTF is loaded on first use (programs that never
 * need it never pay for it); the handle is safe to share between threads
 * (the first load is under a lock, the parsed BTF is only read). */
#ifndef RB_ENGINE_VMLINUX_H
#define RB_ENGINE_VMLINUX_H

#include <stdbool.h>
#include <stdint.h>

#include "loader/object.h"

struct btf;
struct rb_vmlinux;

/* NULL when out of memory */
struct rb_vmlinux *rb_vmlinux_new(void);
/* the BTF in file `path` (raw BTF or an ELF with .BTF: another kernel's
 * vmlinux, for a kernel profile other than the running kernel's) instead
 * of the running kernel's; NULL path: as rb_vmlinux_new */
struct rb_vmlinux *rb_vmlinux_new_file(const char *path);
/* the parsed BTF, loading it on the first call; NULL when unreadable (the
 * failure is remembered: no retry) */
const struct btf *rb_vmlinux_get(struct rb_vmlinux *v);
/* btf__find_by_name_kind(rb_vmlinux_get(v), name, kind) (the first type
 * of that kind and name, <= 0 when none; -1 when the BTF is unreadable),
 * each (name, kind) searched once per handle: the search walks every type
 * of the BTF, and a struct_ops program's stores alone ask for a dozen names */
int32_t rb_vmlinux_find(struct rb_vmlinux *v, const char *name, int kind);
/* the handle as a lender of its BTF to the loader (rb_load_opts.lend_btf:
 * libbpf then uses this parse too, for an object opened for this
 * handle's kernel); the handle must outlive the opens */
struct rb_btf_lend rb_vmlinux_lend(struct rb_vmlinux *v);
/* how many times this handle parsed the file (0 or 1; for tests) */
unsigned rb_vmlinux_loads(const struct rb_vmlinux *v);
void rb_vmlinux_free(struct rb_vmlinux *v);

#endif
