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
 *   - mainline libbpf (tools/lib/bpf/libbpf.c section_defs[], read in
 *     2026) knows sections 1.1 does not: uprobe.multi, kprobe.session,
 *     tcx/ingress, netkit/peer, netfilter, struct_ops.s, ... (the table
 *     newer[] below: type, expected attach type, and the flags libbpf's
 *     libbpf_prepare_prog_load adds, sleepable or XDP frags); these are
 *     final like 1.1's own names. On a kernel with uprobe-multi links
 *     (6.6+, so the running 6.18) it loads usdt programs with attach type
 *     BPF_TRACE_UPROBE_MULTI (SEC_USDT), which 1.1 does not;
 *   - other "tc/...", "tcx/...", "netkit/..." sections: SCHED_CLS (the
 *     attach point does not change verification).
 */
#include "loader/prog_type.h"
#include "loader/type_hints.h"
#include "loader/uapi_names.h"
#include "util/array_size.h"

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

#define SLEEPABLE BPF_F_SLEEPABLE
#define ATTACH_BTF (1u << 31) /* SEC_ATTACH_BTF: the target is the name after '/' */

/* mainline libbpf's sections that 1.1 lacks or types otherwise, in
 * mainline's order and with its matching: a name ending in '+' matches
 * itself or itself followed by '/' and anything; other names match exactly */
static const struct {
	const char *sec;
	uint32_t type, eat, flags;
} newer[] = {
	{"kprobe.session+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_KPROBE_SESSION, 0},
	{"uprobe.multi+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, 0},
	{"uretprobe.multi+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, 0},
	{"uprobe.session+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_SESSION, 0},
	{"uprobe.multi.s+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, SLEEPABLE},
	{"uretprobe.multi.s+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, SLEEPABLE},
	{"uprobe.session.s+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_SESSION, SLEEPABLE},
	/* SEC_USDT on a kernel with uprobe-multi links */
	{"usdt+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, 0},
	{"usdt.s+", BPF_PROG_TYPE_KPROBE, RB_BPF_TRACE_UPROBE_MULTI, SLEEPABLE},
	{"tc/ingress", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_TCX_INGRESS, 0},
	{"tc/egress", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_TCX_EGRESS, 0},
	{"tcx/ingress", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_TCX_INGRESS, 0},
	{"tcx/egress", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_TCX_EGRESS, 0},
	{"netkit/primary", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_NETKIT_PRIMARY, 0},
	{"netkit/peer", BPF_PROG_TYPE_SCHED_CLS, RB_BPF_NETKIT_PEER, 0},
	{"tracepoint.s+", BPF_PROG_TYPE_TRACEPOINT, 0, SLEEPABLE},
	{"tp.s+", BPF_PROG_TYPE_TRACEPOINT, 0, SLEEPABLE},
	{"raw_tracepoint.s+", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, SLEEPABLE},
	{"raw_tp.s+", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, SLEEPABLE},
	{"tp_btf.s+", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, ATTACH_BTF | SLEEPABLE},
	{"fsession+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FSESSION, ATTACH_BTF},
	{"fsession.s+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FSESSION, ATTACH_BTF | SLEEPABLE},
	{"fsession.multi+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FSESSION_MULTI, 0},
	{"fsession.multi.s+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FSESSION_MULTI, SLEEPABLE},
	{"fentry.multi+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FENTRY_MULTI, 0},
	{"fexit.multi+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FEXIT_MULTI, 0},
	{"fentry.multi.s+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FENTRY_MULTI, SLEEPABLE},
	{"fexit.multi.s+", BPF_PROG_TYPE_TRACING, RB_BPF_TRACE_FEXIT_MULTI, SLEEPABLE},
	{"sk_skb/verdict", BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_VERDICT, 0},
	{"cgroup/connect_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, RB_BPF_CGROUP_UNIX_CONNECT, 0},
	{"cgroup/sendmsg_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, RB_BPF_CGROUP_UNIX_SENDMSG, 0},
	{"cgroup/recvmsg_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, RB_BPF_CGROUP_UNIX_RECVMSG, 0},
	{"cgroup/getpeername_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, RB_BPF_CGROUP_UNIX_GETPEERNAME, 0},
	{"cgroup/getsockname_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, RB_BPF_CGROUP_UNIX_GETSOCKNAME, 0},
	{"struct_ops.s+", BPF_PROG_TYPE_STRUCT_OPS, 0, SLEEPABLE},
	{"netfilter", RB_BPF_PROG_TYPE_NETFILTER, RB_BPF_NETFILTER, 0},
};

/* libbpf's sec_def_matches() */
static bool sec_matches(const char *def, const char *sec)
{
	size_t len = strlen(def);
	if (def[len - 1] != '+')
		return !strcmp(def, sec);
	len--;
	return !strncmp(def, sec, len) && (sec[len] == 0 || sec[len] == '/');
}

static bool newer_type(const char *sec, struct rb_sec_info *si)
{
	for (size_t i = 0; i < ARRAY_SIZE(newer); i++)
		if (sec_matches(newer[i].sec, sec)) {
			si->type = newer[i].type;
			si->eat = newer[i].eat;
			si->prog_flags = newer[i].flags & ~ATTACH_BTF;
			si->attach_btf = (newer[i].flags & ATTACH_BTF) != 0;
			si->from = "libbpf>1.1";
			return true;
		}
	return false;
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

/* libbpf 1.1's sections with SEC_SLEEPABLE (its section_defs[]; the
 * newer ones are in newer[]): an object opened by the loader's own path
 * gets the flag libbpf would have set */
static bool sleepable_11(const char *sec)
{
	static const char *const defs[] = {"uprobe.s+", "uretprobe.s+", "fentry.s+", "fmod_ret.s+",
					   "fexit.s+",  "lsm.s+",       "iter.s+",   "syscall"};
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		if (sec_matches(defs[i], sec))
			return true;
	return false;
}

/* decided by libbpf's own table (1.1's or mainline's): final */
static bool by_libbpf(const char *from)
{
	return !strcmp(from, "libbpf") || !strcmp(from, "libbpf>1.1");
}

bool rb_section_info(const char *sec, struct rb_sec_info *si)
{
	memset(si, 0, sizeof(*si));
	if (newer_type(sec, si))
		return true;
	return rb_section_prog_type(sec, &si->type, &si->eat, &si->from);
}

bool rb_section_by_libbpf(const char *sec, struct rb_sec_info *si)
{
	return rb_section_info(sec, si) && by_libbpf(si->from);
}

bool rb_section_prog_type(const char *sec, uint32_t *type, uint32_t *eat, const char **from)
{
	struct rb_sec_info si = {0};
	if (newer_type(sec, &si)) {
		*type = si.type;
		*eat = si.eat;
		*from = si.from;
		return true;
	}
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
		*from = "tcx-like";
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sloppy_prefixes); i++)
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
	if (rb_prog_type_by_str(text, type))
		return 0;
	const char *from;
	if (rb_section_prog_type(text, type, eat, &from) && by_libbpf(from)) {
		*has_eat = true;
		return 0;
	}
	return rb_errf(err, "unknown program type '%s' (a type as libbpf names it, e.g. sched_cls, xdp, "
			    "socket_filter, kprobe, or a section name libbpf knows, e.g. tc, kprobe/NAME)", text);
}

int rb_attach_type_parse(const char *text, uint32_t *eat, struct rb_err *err)
{
	if (rb_attach_type_by_str(text, eat))
		return 0;
	return rb_errf(err, "unknown attach type '%s' (an attach type as libbpf names it, e.g. "
			    "cgroup_inet_ingress, xdp, trace_fentry)", text);
}

static void set_type(struct rb_prog *p, uint32_t type, uint32_t eat, const char *from)
{
	p->prog_type = type;
	p->expected_attach_type = eat;
	p->type_known = true;
	snprintf(p->type_from, sizeof(p->type_from), "%s", from);
	const char *tn = rb_prog_type_str(type);
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
	const struct rb_type_hints *hints = opts ? opts->hints : NULL;
	const struct rb_type_rule *rule;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct rb_prog *p = &obj->progs[i];
		struct rb_sec_info si;
		p->type_rule[0] = 0;
		p->tail_call = rb_section_tail_call(p->section, &p->tail_map_id, &p->tail_slot);
		if (p->type_known && by_libbpf(p->type_from))
			continue;
		bool by_section = rb_section_info(p->section, &si);
		if (by_section && by_libbpf(si.from)) {
			set_type(p, si.type, si.eat, si.from);
			p->prog_flags |= si.prog_flags | (sleepable_11(p->section) ? BPF_F_SLEEPABLE : 0);
		} else if (user) {
			set_type(p, ut, ue, "user");
		} else if ((rule = rb_type_hints_match(hints, obj->path, p->section))) {
			set_type(p, rule->type, rule->eat, "hints");
			snprintf(p->type_rule, sizeof(p->type_rule), RB_TYPE_HINTS_FILE ":%u %.64s:%.64s", rule->line,
				 rule->obj_glob, rule->sec_glob);
		} else if (by_section)
			set_type(p, si.type, si.eat, si.from);
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
		 "(or a prog_type column in the corpus manifest, or a rule in the directory's " RB_TYPE_HINTS_FILE ")",
		 p->section);
}

bool rb_prog_prepare_outcome(const struct rb_prog *p, struct rb_result *res)
{
	memset(res, 0, sizeof(*res));
	res->err_insn = -1;
	if (p->error[0] || !p->insns || !p->insn_cnt) {
		/* libbpf >= 1.5 refuses a struct_ops program no struct_ops map
		 * uses before the kernel sees it (1.1 loaded it without
		 * attach_btf_id and the kernel refused it: errno 524) */
		bool target = strstr(p->error, "BTF type ID") || strstr(p->error, "attach") ||
			      strstr(p->error, "missing from vmlinux BTF") ||
			      strstr(p->error, "program isn't referenced anywhere");
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

const char *rb_prog_type_rerun(const char *section, bool has_type, uint32_t stored_type)
{
	struct rb_sec_info si;
	if (!has_type || (section && rb_section_info(section, &si)))
		return NULL;
	return libbpf_bpf_prog_type_str((enum bpf_prog_type)stored_type);
}
