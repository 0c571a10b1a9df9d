/* prog_type.h — which program type each program of an object is loaded
 * as, when its section name alone does not tell libbpf.
 *
 * The resolver asks, in this order:
 *   1. libbpf's own section table: mainline's for the sections 1.1 does
 *      not know (and usdt's attach type), else 1.1's
 *      (libbpf_prog_type_by_name): final, nothing below overrides it;
 *   2. the user: `--prog-type TYPE [--attach-type TYPE]` on the command
 *      line, or the `prog_type` column of a corpus manifest (one type per
 *      object, as `bpftool prog load OBJ type TYPE` and `tc ... bpf obj`
 *      give one type to the whole object);
 *   2b. the rangebench.types file of the object's directory (type_hints.h):
 *      glob rules per object and section;
 *   3. the conventions of other loaders (table in prog_type.c): iproute2
 *      (tc loads every section as SCHED_CLS, `ip link ... xdp` loads
 *      section "prog" as XDP, "N/M" sections are tail-call targets of
 *      the prog array with id N), Cilium's tc sections ("from-container",
 *      "to-netdev", ...), and the prefix matching of libbpf before 1.0 and
 *      of the kernel's samples/bpf/bpf_load.c ("xdp_prog", "socket1");
 *   4. the object: a tail-call section "N/M", or any section other than
 *      .text of a tc/ip object (struct bpf_elf_map maps, or a section with
 *      one of iproute2's default names "classifier", "action", "prog", or
 *      an "N/M" section), gets the type every other typed program of the
 *      object has (tc and ip load the whole object as one type);
 *      SCHED_CLS when they disagree or there are none.
 * What none of them decides stays unknown, and says so in one line naming
 * the section and how to set the type (rb_prog_type_unknown_msg). */
#ifndef RB_LOADER_PROG_TYPE_H
#define RB_LOADER_PROG_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"
#include "result/result.h"
#include "util/err.h"

/* What a section name alone says: libbpf's table or a convention (steps 1
 * and 3). Returns false when neither decides. *from gets the rule's name
 * ("libbpf" for 1.1's table, "libbpf>1.1" for a section only mainline
 * libbpf knows, or whose attach type it chooses otherwise; "iproute2",
 * "cilium", "libbpf<1.0", "tcx-like"). */
bool rb_section_prog_type(const char *sec, uint32_t *type, uint32_t *eat, const char **from);

/* The same, with what mainline libbpf adds at load for the sections 1.1
 * does not know (libbpf_prepare_prog_load): prog_flags (BPF_F_SLEEPABLE)
 * and whether the attach target is the BTF name after the '/'. For 1.1's
 * own sections prog_flags is 0 and attach_btf false (1.1 applies them). */
struct rb_sec_info {
	uint32_t type, eat, prog_flags;
	bool attach_btf;
	const char *from;
};
bool rb_section_info(const char *sec, struct rb_sec_info *si);
/* rb_section_info() when libbpf (1.1 or mainline) names the section
 * (si->from "libbpf" or "libbpf>1.1"), else false */
bool rb_section_by_libbpf(const char *sec, struct rb_sec_info *si);

/* The --prog-type to verify a stored program with again (attribute,
 * explain, run --keep-logs): the type a run stored for it (has_type), by
 * libbpf's name, only where neither libbpf nor the loader's own section
 * table types its section — a type given for every program would replace
 * the loader's, attach type and all. NULL: none needed. */
const char *rb_prog_type_rerun(const char *section, bool has_type, uint32_t stored_type);

/* "N/M" with N and M numbers as C writes them (decimal, 0x hex): iproute2's
 * tail-call target naming. */
bool rb_section_tail_call(const char *sec, uint32_t *map_id, uint32_t *slot);

/* Parse a --prog-type argument: a program type as libbpf names it
 * ("sched_cls", "xdp", "kprobe", ...) or a section name libbpf knows
 * ("tc", "kprobe/x", "cgroup/skb"), which also gives an attach type.
 * *has_eat tells whether it did. Returns -1 (err: the reason) if neither. */
int rb_prog_type_parse(const char *text, uint32_t *type, uint32_t *eat, bool *has_eat, struct rb_err *err);
/* Parse an --attach-type argument as libbpf names attach types
 * ("cgroup_inet_ingress", "xdp", ...). */
int rb_attach_type_parse(const char *text, uint32_t *eat, struct rb_err *err);

/* Steps 1-4 for every program of obj (both open paths call it). Returns
 * -1 only for a bad user type in opts (err names it). */
int rb_resolve_prog_types(struct rb_object *obj, const struct rb_load_opts *opts, struct rb_err *err);

/* The one-line reason a program has no type. */
void rb_prog_type_unknown_msg(const struct rb_prog *p, char *buf, size_t len);

/* Outcomes decided before any verifier runs, the same for every tracker
 * and the kernel (one taxonomy): a program the loader could not prepare
 * is load_error, or refused when what is missing is this machine's (an
 * attach target, a kernel symbol: kfuncs of a module that is not loaded);
 * a program whose type is unknown is load_error. True when *res (cleared
 * first, err_insn -1) holds such an outcome. */
bool rb_prog_prepare_outcome(const struct rb_prog *p, struct rb_result *res);

#endif
