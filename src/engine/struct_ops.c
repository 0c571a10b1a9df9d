/* struct_ops.c — struct_ops programs, following Linux 6.18:
 * check_struct_ops_btf_id (kernel/bpf/verifier.c: the licence, the struct
 * named by attach_btf_id, the member named by expected_attach_type, a
 * function pointer with a cfi stub, check_member), the member's prototype
 * as the context (btf_ctx_access, arguments trusted; "__nullable" stub
 * parameters NULL-able: bpf_struct_ops_desc_init's arg_info), and each
 * struct_ops type's bpf_verifier_ops: tcp_congestion_ops
 * (net/ipv4/bpf_tcp_ca.c: struct sock arguments promoted to tcp_sock,
 * writes to a few tcp_sock fields, setsockopt refused to release()) and
 * bpf_dummy_ops (net/bpf/bpf_dummy_struct_ops.c: writes to
 * bpf_dummy_ops_state, no helpers, only test_sleepable sleepable).
 *
 * The tables hold what BTF does not: which members have a cfi stub and its
 * name, and the helper sets, measured on 6.18.44 (a call-only probe per
 * helper id and member, as prog_types.c's sets; docs/kernel-facts.md).
 * The running kernel registers only these two types (its vmlinux BTF has
 * bpf_struct_ops_tcp_congestion_ops and bpf_struct_ops_bpf_dummy_ops); a
 * struct_ops type it registers but this table lacks is "unsupported". */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_gpl.h"
#include "engine/helper_set_lists.h"
#include "engine/profile.h"
#include "engine/struct_ops.h"
#include "engine/struct_ops_scx.h"
#include "util/array_size.h"

/* measured (helper_set_lists.h): every member but release, and release
 * (no bpf_setsockopt) */
static const uint64_t hs_tcp_ca[4] = RB_HELPER_BITS(RB_HS618_TCP_CA);
static const uint64_t hs_tcp_ca_release[4] = RB_HELPER_BITS(RB_HS618_TCP_CA_RELEASE);
/* bpf_dummy_ops: no helper at all */
static const uint64_t hs_none[4] = {0, 0, 0, 0};

static const struct rb_st_member tcp_ca_members[] = {
	{"ssthresh", "bpf_tcp_ca_ssthresh", NULL, false, 0},
	{"cong_avoid", "bpf_tcp_ca_cong_avoid", NULL, false, 0},
	{"set_state", "bpf_tcp_ca_set_state", NULL, false, 0},
	{"cwnd_event", "bpf_tcp_ca_cwnd_event", NULL, false, 0},
	{"in_ack_event", "bpf_tcp_ca_in_ack_event", NULL, false, 0},
	{"pkts_acked", "bpf_tcp_ca_pkts_acked", NULL, false, 0},
	{"min_tso_segs", "bpf_tcp_ca_min_tso_segs", NULL, false, 0},
	{"cong_control", "bpf_tcp_ca_cong_control", NULL, false, 0},
	{"undo_cwnd", "bpf_tcp_ca_undo_cwnd", NULL, false, 0},
	{"sndbuf_expand", "bpf_tcp_ca_sndbuf_expand", NULL, false, 0},
	{"init", "__bpf_tcp_ca_init", NULL, false, 0},
	{"release", "__bpf_tcp_ca_release", hs_tcp_ca_release, false, 0},
	/* get_info has no stub: "attach to unsupported member" */
};

static const struct rb_st_member dummy_members[] = {
	{"test_1", "bpf_dummy_ops__test_1", NULL, false, 0},
	{"test_2", "bpf_dummy_test_2", NULL, false, 0},
	{"test_sleepable", "bpf_dummy_test_sleepable", NULL, true, 0},
};

/* offset and size of a member of struct sname by a dotted path, false when absent */
bool rb_struct_ops_member_at(struct rb_env *env, const char *sname, const char *path, int *off, int *size)
{
	int32_t id = rb_btf_struct_id(env, sname);
	if (id <= 0)
		return false;
	const struct btf *b = env->vmlinux;
	const struct btf_type *t = btf__type_by_id(b, (uint32_t)id);
	int base = 0;
	char part[64];
	while (*path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(part))
			return false;
		memcpy(part, path, n);
		part[n] = 0;
		path += dot ? n + 1 : n;
		while (t && (btf_is_mod(t) || btf_is_typedef(t)))
			t = btf__type_by_id(b, t->type);
		if (!t || !btf_is_composite(t))
			return false;
		const struct btf_member *m = btf_members(t);
		int i, vlen = btf_vlen(t);
		for (i = 0; i < vlen; i++, m++)
			if (!strcmp(btf__name_by_offset(b, m->name_off), part) &&
			    !btf_member_bitfield_size(t, (uint32_t)i))
				break;
		if (i == vlen)
			return false;
		base += (int)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		id = (int32_t)m->type;
		t = btf__type_by_id(b, m->type);
	}
	int64_t sz = btf__resolve_size(b, (uint32_t)id);
	if (sz <= 0)
		return false;
	*off = base;
	*size = (int)sz;
	return true;
}

/* bpf_tcp_ca_btf_struct_access (6.18): only tcp_sock, and only these
 * members (icsk_ca_priv anywhere inside, the others at their start) */
static int tcp_ca_write(struct rb_env *env, int regno, uint32_t struct_id, int off, int size)
{
	(void)regno;
	static const struct {
		const char *sname, *path;
		bool range;
	} fields[] = {
		{"sock", "sk_pacing_rate", false},
		{"sock", "sk_pacing_status", false},
		{"inet_connection_sock", "icsk_ca_priv", true},
		{"inet_connection_sock", "icsk_ack.pending", false},
		{"tcp_sock", "snd_cwnd", false},
		{"tcp_sock", "snd_cwnd_cnt", false},
		{"tcp_sock", "snd_cwnd_stamp", false},
		{"tcp_sock", "snd_ssthresh", false},
		{"tcp_sock", "ecn_flags", false},
		{"tcp_sock", "app_limited", false},
	};
	if ((int32_t)struct_id != rb_btf_struct_id(env, "tcp_sock"))
		return rb_reject(env, "only read is supported");
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		int fo, fs;
		if (!rb_struct_ops_member_at(env, fields[i].sname, fields[i].path, &fo, &fs))
			return rb_unsupported(env, "struct %s has no member %s", fields[i].sname, fields[i].path);
		if (off == fo || (fields[i].range && off > fo && off < fo + fs)) {
			if (off + size > fo + fs)
				return rb_reject(env,
						 "write access at off %d with size %d beyond the member of tcp_sock ended at %d",
						 off, size, fo + fs);
			return 0;
		}
	}
	return rb_reject(env, "no write support to tcp_sock at off %d", off);
}

/* bpf_dummy_ops_btf_struct_access (6.18) */
static int dummy_write(struct rb_env *env, int regno, uint32_t struct_id, int off, int size)
{
	(void)regno;
	int32_t sid = rb_btf_struct_id(env, "bpf_dummy_ops_state");
	if (sid <= 0 || (uint32_t)sid != struct_id)
		return rb_reject(env, "only access to bpf_dummy_ops_state is supported");
	const struct btf_type *t = btf__type_by_id(env->vmlinux, (uint32_t)sid);
	if ((int64_t)off + size > (int64_t)t->size)
		return rb_reject(env, "write access at off %d with size %d", off, size);
	return 0;
}

#define MEMBERS(a) a, (int)(ARRAY_SIZE(a))

static const struct rb_st_ops types[] = {
	{"tcp_congestion_ops", MEMBERS(tcp_ca_members), hs_tcp_ca, false, "sock", "tcp_sock", tcp_ca_write, NULL,
	 RB_ST_PLAIN},
	{"bpf_dummy_ops", MEMBERS(dummy_members), hs_none, true, NULL, NULL, dummy_write, NULL, RB_ST_PLAIN},
};

static const struct rb_st_ops *find_type(const struct rb_env *env, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	/* sched_ext exists only in the 7.2 profile (6.18.44 here has no sched_ext) */
	return env->prof->sched_ext ? rb_struct_ops_scx(name) : NULL;
}

/* btf_type_resolve_func_ptr: the member's function prototype, or NULL */
static const struct btf_type *func_ptr_proto(const struct btf *b, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(b, t->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(b, t->type);
	return t && btf_is_func_proto(t) ? t : NULL;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n > m && !strcmp(s + n - m, suf);
}

/* the stub's parameters: "__nullable" ones (bit per argument), "__ref" unsupported */
static int stub_args(struct rb_env *env, const char *stub, int nargs)
{
	const struct btf *b = env->vmlinux;
	int32_t fid = rb_btf_find(env, stub, BTF_KIND_FUNC);
	if (fid <= 0)
		return rb_unsupported(env, "struct_ops stub %s not in vmlinux BTF", stub);
	const struct btf_type *proto = btf__type_by_id(b, btf__type_by_id(b, (uint32_t)fid)->type);
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) != nargs)
		return rb_unsupported(env, "struct_ops stub %s does not match its member", stub);
	const struct btf_param *pa = btf_params(proto);
	for (int i = 0; i < nargs; i++) {
		const char *n = btf__name_by_offset(b, pa[i].name_off);
		if (!n)
			continue;
		if (has_suffix(n, "__nullable"))
			env->arg_nullable |= (uint16_t)(1u << i);
		else if (has_suffix(n, "__ref"))
			return rb_unsupported(env, "struct_ops refcounted argument %s of %s", n, stub);
	}
	return 0;
}

static int init(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	if (!rb_license_gpl_compatible(p->license))
		return rb_reject(env, "struct ops programs must have a GPL compatible license");
	if (!p->attach_btf_id) {
		/* Linux 6.18 check_struct_ops_btf_id: -ENOTSUPP (524) with
		 * nothing logged, before any instruction is verified: the
		 * program is refused, not rejected by verification (a
		 * struct_ops program no .struct_ops map names gets no
		 * attach_btf_id from libbpf) */
		env->res->verdict = RB_REFUSED;
		env->res->sys_errno = 524;
		env->res->err_insn = -1;
		snprintf(env->res->msg, sizeof(env->res->msg),
			 "struct_ops program without attach_btf_id: BPF_PROG_LOAD failed with errno 524 (empty log)");
		env->done = true;
		return RB_E_REJECT;
	}
	const struct btf *b = rb_need_vmlinux(env);
	if (!b)
		return rb_unsupported(env, "vmlinux BTF not readable");
	const struct btf_type *t = btf__type_by_id(b, p->attach_btf_id);
	const char *sname = t && btf_is_struct(t) ? btf__name_by_offset(b, t->name_off) : NULL;
	char value_name[160];
	snprintf(value_name, sizeof(value_name), "bpf_struct_ops_%s", sname ? sname : "");
	/* registered struct_ops types have a bpf_struct_ops_<name> value type */
	if (!sname || !sname[0] || rb_btf_struct_id(env, value_name) <= 0)
		return rb_reject(env, "attach_btf_id %u is not a supported struct", p->attach_btf_id);
	const struct rb_st_ops *so = find_type(env, sname);
	if (!so)
		return rb_unsupported(env, "struct_ops type %s is not modelled", sname);
	uint32_t idx = p->expected_attach_type;
	if (idx >= btf_vlen(t))
		return rb_reject(env, "attach to invalid member idx %u of struct %s", idx, sname);
	const struct btf_member *m = btf_members(t) + idx;
	const char *mname = btf__name_by_offset(b, m->name_off);
	const struct btf_type *proto = func_ptr_proto(b, m->type);
	if (!proto)
		return rb_reject(env, "attach to invalid member %s(@idx %u) of struct %s", mname, idx, sname);
	const struct rb_st_member *sm = NULL;
	for (int i = 0; i < so->nmembers; i++)
		if (!strcmp(so->members[i].member, mname))
			sm = &so->members[i];
	bool sleepable = (p->prog_flags & BPF_F_SLEEPABLE) != 0;
	if (!sm || (so->sleepable_listed && sleepable && !sm->sleepable))
		return rb_reject(env, "attach to unsupported member %s of struct %s", mname, sname);
	int n = btf_vlen(proto);
	if (n > 12)
		return rb_unsupported(env, "struct_ops member with %d arguments", n);
	env->arg_nullable = 0;
	int err = stub_args(env, sm->stub, n);
	if (err)
		return err;
	const struct btf_param *pa = btf_params(proto);
	for (int i = 0; i < n; i++)
		env->arg_type[i] = pa[i].type;
	env->nargs = n;
	env->ret_void = proto->type == 0;
	snprintf(env->func_name, sizeof(env->func_name), "%s", mname);
	env->st_ops = so;
	env->st_member = sm;
	if (so->helper_set)
		so->helper_set(env->st_helpers);
	return 0;
}

int rb_struct_ops_init(struct rb_env *env)
{
	/* the kernel refuses before any instruction (no error insn) */
	int saved = env->insn_idx;
	env->insn_idx = -1;
	int err = init(env);
	env->insn_idx = saved;
	return err;
}

bool rb_struct_ops_arg_nullable(struct rb_env *env, int arg)
{
	return env->st_ops && arg >= 0 && arg < 16 && ((env->arg_nullable >> arg) & 1);
}

void rb_struct_ops_promote(struct rb_env *env, struct rb_reg *r)
{
	const struct rb_st_ops *so = env->st_ops;
	if (!so || !so->promote_from || r->type != RT_BTF_ID || (r->flags & RF_UNTRUSTED))
		return;
	int32_t from = rb_btf_struct_id(env, so->promote_from), to = rb_btf_struct_id(env, so->promote_to);
	if (from > 0 && to > 0 && r->map_idx == from)
		r->map_idx = to;
}

int rb_struct_ops_write(struct rb_env *env, int regno, uint32_t struct_id, int off, int size)
{
	if (!env->st_ops || !env->st_ops->write)
		return rb_reject(env, "only read is supported");
	return env->st_ops->write(env, regno, struct_id, off, size);
}

const uint64_t *rb_struct_ops_helper_set(const struct rb_env *env)
{
	if (!env->st_ops)
		return NULL;
	if (env->st_member && env->st_member->helpers)
		return env->st_member->helpers;
	return env->st_ops->helper_set ? env->st_helpers : env->st_ops->helpers;
}
