/* prog_type.c — the program-type resolver (see prog_type.h).
 *
 * The conventions are written from the loaders that define them:
 *   - iproute2 6.1 (lib/bpf_legacy.c): `tc filter ... bpf obj O [sec S]`
 *     loads section S (default "classifier") as SCHED_CLS, `tc action`
 *     (default "action") as SCHED_ACT, `ip link set ... xdp obj O`
 *     (default "prog") as XDP; every other section of the object is
 *     loaded with the same type, and a section "N/M" goes into slot M of
 *     the prog array whose struct bpf_elf_map has id N;
 *   - Cilium's datapath, loaded by tc: "from-container", "to-netdev",
 *     "from-overlay", ... (any "from-*" / "to-*" section) are SCHED_CLS;
 *   - libbpf before 1.0 (SEC_SLOPPY_PFX) and samples/bpf/bpf_load.c
 *     matched a section by prefix: "xdp_prog" is XDP, "socket1" a socket
 *     filter. libbpf 1.x dropped that; the prefix is handed back to
 *     libbpf's table so the two agree on what each prefix means;
 *   - libbpf 1.3+ names the tcx hooks "tc/ingress", "tcx/egress", ...:
 *     SCHED_CLS (the attach point does not change verification).
 */
#include "loader/prog_type.h"

#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prefixes that libbpf < 1.0 and bpf_load.c matched without a '/', longest
 * first so that "sk_skb/stream_parser" wins over "sk_skb" */
static const char *const sloppy_prefixes[] = {
	"cgroup_skb/ingress", "cgroup_skb/egress", "sk_skb/stream_parser", "sk_skb/stream_verdict",
	"flow_dissector", "lwt_seg6local", "sk_reuseport", "perf_event", "lirc_mode2", "classifier",
	"cgroup/skb", "cgroup/sock", "lwt_xmit", "cgroup/dev", "sockops", "lwt_out", "lwt_in",
	"sk_skb", "sk_msg", "action", "socket", "xdp",
};

static bool starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

bool rb_section_tail_call(const char *sec, uint32_t *map_id, uint32_t *slot)
{
	/* iproute2 reads "%i/%i": decimal, 0x hex or 0 octal */
	char *end;
	if (sec[0] < '0' || sec[0] > '9')
		return false;
	unsigned long n = strtoul(sec, &end, 0);
	if (*end != '/' || end[1] < '0' || end[1] > '9')
		return false;
	unsigned long m = strtoul(end + 1, &end, 0);
	if (*end || n > UINT32_MAX || m > UINT32_MAX)
		return false;
	*map_id = (uint32_t)n;
	*slot = (uint32_t)m;
	return true;
}

static bool libbpf_type(const char *sec, uint32_t *type, uint32_t *eat)
{
	enum bpf_prog_type t;
	enum bpf_attach_type e;
	if (libbpf_prog_type_by_name(sec, &t, &e))
		return false;
	*type = t;
	*eat = e;
	return true;
}

bool rb_section_prog_type(const char *sec, uint32_t *type, uint32_t *eat, const char **from)
{
	if (libbpf_type(sec, type, eat)) {
		*from = "libbpf";
		return true;
	}
	*eat = 0;
	if (!strcmp(sec, "prog")) {
		*type = BPF_PROG_TYPE_XDP;
		*from = "iproute2";
		return true;
	}
	if (!strcmp(sec, "ingress") || !strcmp(sec, "egress")) {
		*type = BPF_PROG_TYPE_SCHED_CLS;
		*from = "iproute2";
		return true;
	}
	if ((starts_with(sec, "from-") && sec[5]) || (starts_with(sec, "to-") && sec[3])) {
		*type = BPF_PROG_TYPE_SCHED_CLS;
		*from = "cilium";
		return true;
	}
	if (starts_with(sec, "tc/") || starts_with(sec, "tcx/") || starts_with(sec, "netkit/")) {
		*type = BPF_PROG_TYPE_SCHED_CLS;
		*from = "libbpf>=1.3";
		return true;
	}
	for (size_t i = 0; i < sizeof(sloppy_prefixes) / sizeof(sloppy_prefixes[0]); i++)
		if (starts_with(sec, sloppy_prefixes[i]) && libbpf_type(sloppy_prefixes[i], type, eat)) {
			*from = "libbpf<1.0";
			return true;
		}
	return false;
}

int rb_prog_type_parse(const char *text, uint32_t *type, uint32_t *eat, bool *has_eat, struct rb_err *err)
{
	*has_eat = false;
	*eat = 0;
	for (uint32_t t = 1; t < 64; t++) {
		const char *n = libbpf_bpf_prog_type_str((enum bpf_prog_type)t);
		if (n && !strcmp(n, text)) {
			*type = t;
			return 0;
		}
	}
	if (libbpf_type(text, type, eat)) {
		*has_eat = true;
		return 0;
	}
	return rb_errf(err, "unknown program type '%s' (a type as libbpf names it, e.g. sched_cls, xdp, "
			    "socket_filter, kprobe, or a section name libbpf knows, e.g. tc, kprobe/NAME)", text);
}

int rb_attach_type_parse(const char *text, uint32_t *eat, struct rb_err *err)
{
	for (uint32_t t = 0; t < 128; t++) {
		const char *n = libbpf_bpf_attach_type_str((enum bpf_attach_type)t);
		if (n && !strcmp(n, text)) {
			*eat = t;
			return 0;
		}
	}
	return rb_errf(err, "unknown attach type '%s' (an attach type as libbpf names it, e.g. "
			    "cgroup_inet_ingress, xdp, trace_fentry)", text);
}

static void set_type(struct rb_prog *p, uint32_t type, uint32_t eat, const char *from)
{
	p->prog_type = type;
	p->expected_attach_type = eat;
	p->type_known = true;
	snprintf(p->type_from, sizeof(p->type_from), "%s", from);
	const char *tn = libbpf_bpf_prog_type_str((enum bpf_prog_type)type);
	snprintf(p->libbpf_type_name, sizeof(p->libbpf_type_name), "%s", tn ? tn : "");
}

/* the one type the typed programs of obj share, or SCHED_CLS (tc's) */
static uint32_t object_type(const struct rb_object *obj, uint32_t *eat)
{
	uint32_t t = 0, e = 0;
	bool any = false;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const struct rb_prog *p = &obj->progs[i];
		if (!p->type_known || !strcmp(p->type_from, "object"))
			continue;
		if (any && (p->prog_type != t || p->expected_attach_type != e)) {
			*eat = 0;
			return BPF_PROG_TYPE_SCHED_CLS;
		}
		any = true;
		t = p->prog_type;
		e = p->expected_attach_type;
	}
	*eat = any ? e : 0;
	return any ? t : BPF_PROG_TYPE_SCHED_CLS;
}

int rb_resolve_prog_types(struct rb_object *obj, const struct rb_load_opts *opts, struct rb_err *err)
{
	uint32_t ut = 0, ue = 0;
	bool user = opts && opts->prog_type && opts->prog_type[0], has_ue = false;
	if (user && rb_prog_type_parse(opts->prog_type, &ut, &ue, &has_ue, err))
		return -1;
	if (opts && opts->attach_type && opts->attach_type[0]) {
		if (!user)
			return rb_errf(err, "--attach-type needs --prog-type");
		if (rb_attach_type_parse(opts->attach_type, &ue, err))
			return -1;
	}
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct rb_prog *p = &obj->progs[i];
		uint32_t t, e;
		const char *from;
		p->tail_call = rb_section_tail_call(p->section, &p->tail_map_id, &p->tail_slot);
		if (p->type_known && !strcmp(p->type_from, "libbpf"))
			continue;
		bool by_section = rb_section_prog_type(p->section, &t, &e, &from);
		if (by_section && !strcmp(from, "libbpf"))
			set_type(p, t, e, from);
		else if (user)
			set_type(p, ut, ue, "user");
		else if (by_section)
			set_type(p, t, e, from);
		else {
			p->type_known = false;
			p->prog_type = BPF_PROG_TYPE_UNSPEC;
			p->type_from[0] = 0;
			p->libbpf_type_name[0] = 0;
		}
	}
	/* step 4: tail-call sections, and every section of a tc/ip object:
	 * bpf_elf_map maps, or a section with iproute2's default names */
	bool tc_object = obj->iproute2;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		const char *sec = obj->progs[i].section;
		tc_object |= obj->progs[i].tail_call || !strcmp(sec, "classifier") || !strcmp(sec, "action") ||
			     !strcmp(sec, "prog");
	}
	uint32_t oe, ot = object_type(obj, &oe);
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct rb_prog *p = &obj->progs[i];
		if (!p->type_known && (p->tail_call || tc_object) && strcmp(p->section, ".text"))
			set_type(p, ot, oe, "object");
	}
	return 0;
}

void rb_prog_type_unknown_msg(const struct rb_prog *p, char *buf, size_t len)
{
	snprintf(buf, len,
		 "section '%.64s' names no program type: set one with --prog-type TYPE "
		 "(or a prog_type column in the corpus manifest)",
		 p->section);
}

bool rb_prog_prepare_outcome(const struct rb_prog *p, struct rb_result *res)
{
	memset(res, 0, sizeof(*res));
	res->err_insn = -1;
	if (p->error[0] || !p->insns || !p->insn_cnt) {
		bool target = strstr(p->error, "BTF type ID") || strstr(p->error, "attach") ||
			      strstr(p->error, "missing from vmlinux BTF");
		res->verdict = target ? RB_REFUSED : RB_LOAD_ERROR;
		snprintf(res->msg, sizeof(res->msg), "%s", p->error[0] ? p->error : "program has no instructions");
		return true;
	}
	if (!p->type_known) {
		res->verdict = RB_LOAD_ERROR;
		rb_prog_type_unknown_msg(p, res->msg, sizeof(res->msg));
		return true;
	}
	return false;
}
