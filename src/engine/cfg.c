/* cfg.c — the static passes before exploration (Linux 6.18 check_subprogs,
 * check_cfg/visit_insn prune and jump points; live registers: live_regs.c). */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/callbacks.h"
#include "engine/arena.h"
#include "engine/cfg.h"
#include "engine/const_fold.h"
#include "engine/insn_fields.h"
#include "engine/subprog_topo.h"
#include "engine/profile.h"
#include "engine/live_regs.h"
#include "engine/stack_live72.h"
#include "engine/helper_table.h"
#include "engine/prog_types.h"
#include "util/grow.h"
#include "util/sort.h"

static bool is_ldimm64(const struct bpf_insn *i) { return i->code == (BPF_LD | BPF_IMM | BPF_DW); }
static bool is_pseudo_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL) && i->src_reg == BPF_PSEUDO_CALL;
}

static bool is_pseudo_func(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_IMM | BPF_DW) && i->src_reg == BPF_PSEUDO_FUNC;
}

static int add_subprog(struct rb_env *env, int start, int *cap)
{
	for (int i = 0; i < env->nsubprogs; i++)
		if (env->subprogs[i].start == start)
			return 0;
	if (RB_GROW(env->subprogs, env->nsubprogs + 1, cap, 8) < 0)
		return RB_E_NOMEM;
	env->subprogs[env->nsubprogs++] = (struct rb_subprog){.start = start, .bad_arg = -1};
	return 0;
}

static int cmp_sub(const void *a, const void *b)
{
	return ((const struct rb_subprog *)a)->start - ((const struct rb_subprog *)b)->start;
}

/* btf_prepare_func_args (6.18) for sp from its prototype: integers are
 * scalars, a pointer to the program type's context struct is ctx (the
 * ctx_struct of its prog_types.c row), a pointer to a sized type is memory
 * of that size that may be NULL. Returns 0 when the kernel's preparation
 * succeeds, 1 when it fails (ret_not_scalar or bad_arg say why, for the
 * log), -1 when an argument is of a kind not modelled (*what names it). */
static int prepare_args(struct btf *btf, const char *ctxname, const struct btf_type *proto, struct rb_subprog *sp,
			int *what, bool void_ok)
{
	const struct btf_param *pa = btf_params(proto);
	sp->nargs = btf_vlen(proto);
	uint32_t rid = proto->type;
	const struct btf_type *rt = btf__type_by_id(btf, rid);
	while (rid && rt && (btf_is_mod(rt) || btf_is_typedef(rt)))
		rt = btf__type_by_id(btf, rid = rt->type);
	/* 7.2 btf_validate_return_type (profile.h global_void_return):
	 * void is accepted too */
	sp->ret_void = void_ok && !rid;
	sp->ret_not_scalar = !sp->ret_void && (!rid || !rt || !(btf_is_int(rt) || btf_is_any_enum(rt)));
	for (int a = 0; a < sp->nargs; a++) {
		uint32_t id = pa[a].type;
		const struct btf_type *at = btf__type_by_id(btf, id);
		while (at && (btf_is_mod(at) || btf_is_typedef(at)))
			at = btf__type_by_id(btf, at->type);
		if (at && (btf_is_int(at) || btf_is_any_enum(at))) {
			sp->arg_kind[a] = GARG_SCALAR;
			continue;
		}
		if (at && btf_is_ptr(at)) {
			uint32_t tid = at->type;
			const struct btf_type *pt = btf__type_by_id(btf, tid);
			while (pt && (btf_is_mod(pt) || btf_is_typedef(pt))) {
				tid = pt->type;
				pt = btf__type_by_id(btf, tid);
			}
			if (pt && btf_is_composite(pt) && ctxname &&
			    !strcmp(btf__name_by_offset(btf, pt->name_off), ctxname)) {
				sp->arg_kind[a] = GARG_CTX;
				continue;
			}
			int64_t sz = pt ? btf__resolve_size(btf, tid) : -1;
			if (sz > 0) {
				sp->arg_kind[a] = GARG_MEM;
				sp->arg_size[a] = (uint32_t)sz;
				continue;
			}
			if (pt && btf_is_fwd(pt)) {
				/* 6.18: "size cannot be determined" */
				sp->bad_arg = a;
				snprintf(sp->bad_type, sizeof(sp->bad_type), "%s", btf__name_by_offset(btf, pt->name_off));
				return 1;
			}
		}
		*what = a;
		return -1;
	}
	return sp->ret_not_scalar ? 1 : 0;
}

/* Global (non-static) subprograms are verified on their own, with
 * arguments typed from the program's BTF (prepare_args). The main program
 * is global too when its BTF says so: a call into it is a global call,
 * and 6.18's do_check_common checks its prototype first (one argument,
 * the context), marking it unreliable otherwise, which refuses every call
 * into it ("Caller passes invalid args", btf_check_subprog_call). */
static int prepare_global_subprogs(struct rb_env *env)
{
	const struct rb_prog *p = env->prog;
	if (!env->obj->btf || !p->func_info || p->func_info_rec_size < sizeof(struct bpf_func_info))
		return 0;
	struct btf *btf = btf__new(env->obj->btf, (uint32_t)env->obj->btf_size);
	if (!btf)
		return 0;
	int rc = 0;
	const char *ctxname = env->ptype->ctx_struct;
	for (uint32_t i = 0; i < p->func_info_cnt && !rc; i++) {
		const struct bpf_func_info *fi =
			(const void *)((const char *)p->func_info + (size_t)i * p->func_info_rec_size);
		const struct btf_type *t = btf__type_by_id(btf, fi->type_id);
		if (!t || !btf_is_func(t))
			continue;
		struct rb_subprog *sp = NULL;
		for (int s = 0; s < env->nsubprogs; s++)
			if (env->subprogs[s].start == (int)fi->insn_off)
				sp = &env->subprogs[s];
		if (!sp)
			continue;
		const struct btf_type *fp = btf__type_by_id(btf, t->type);
		sp->btf_nargs = fp && btf_is_func_proto(fp) ? btf_vlen(fp) : 0;
		if (BTF_INFO_VLEN(t->info) != BTF_FUNC_GLOBAL)
			continue;
		bool main = fi->insn_off == 0;
		sp->global = true;
		sp->bad_arg = -1;
		snprintf(sp->name, sizeof(sp->name), "%s", btf__name_by_offset(btf, t->name_off));
		const struct btf_type *proto = btf__type_by_id(btf, t->type);
		int what = -1, prep = -1;
		if (proto && btf_is_func_proto(proto) && btf_vlen(proto) <= 5)
			prep = prepare_args(btf, ctxname, proto, sp, &what, env->prof->global_void_return);
		if (main) {
			sp->unreliable = prep != 0 || sp->nargs != 1 || sp->arg_kind[0] != GARG_CTX;
			continue;
		}
		env->insn_idx = (int)fi->insn_off;
		if (prep < 0 && what < 0) {
			rc = rb_unsupported(env, "global function %s prototype", sp->name);
			break;
		}
		if (prep < 0) {
			rc = rb_unsupported(env, "global function %s argument %d", sp->name, what);
			break;
		}
		for (int k = sp->start; k < sp->end; k++) {
			const struct bpf_insn *in = &env->insns[k];
			if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0 && rb_helper_changes_pkt(in->imm))
				sp->changes_pkt = true;
		}
	}
	btf__free(btf);
	return rc;
}

static void mark_prune(struct rb_env *env, int i)
{
	if (i >= 0 && i < env->insn_cnt)
		env->aux[i].prune_point = true;
}
static void mark_jmp(struct rb_env *env, int i)
{
	if (i >= 0 && i < env->insn_cnt)
		env->aux[i].jmp_point = true;
}

/* 6.18 bpf_opcode_in_insntable() (kernel/bpf/core.c): the opcodes the
 * verifier accepts at all (ld_imm64 is checked apart) */
static bool opcode_in_insntable(uint8_t code)
{
	uint8_t cls = BPF_CLASS(code), op = BPF_OP(code), src = BPF_SRC(code);
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_NEG)
			return src == BPF_K;
		if (op == BPF_END)
			return cls == BPF_ALU || src == BPF_K;
		return op <= BPF_ARSH;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_JA)
			return src == BPF_K;
		if (op == BPF_CALL || op == BPF_EXIT)
			return cls == BPF_JMP && src == BPF_K;
		if (op == 0xe0) /* BPF_JCOND: may_goto */
			return cls == BPF_JMP && src == BPF_K;
		return op == BPF_JEQ || op == BPF_JGT || op == BPF_JGE || op == BPF_JSET || op == BPF_JNE ||
		       op == BPF_JSGT || op == BPF_JSGE || op == BPF_JLT || op == BPF_JLE || op == BPF_JSLT ||
		       op == BPF_JSLE;
	case BPF_STX:
		if (BPF_MODE(code) == BPF_ATOMIC)
			return true; /* every size (6.18 has 8- and 16-bit load-acquire/store-release) */
		return BPF_MODE(code) == BPF_MEM;
	case BPF_ST:
		return BPF_MODE(code) == BPF_MEM;
	case BPF_LDX:
		return BPF_MODE(code) == BPF_MEM || (BPF_MODE(code) == BPF_MEMSX && BPF_SIZE(code) != BPF_DW);
	case BPF_LD:
		return (BPF_MODE(code) == BPF_ABS || BPF_MODE(code) == BPF_IND) && BPF_SIZE(code) != BPF_DW;
	}
	return false;
}

/* the subprograms: one at 0 and one at every pseudo-call target, sorted,
 * each instruction knowing its own (6.18 add_subprog_and_kfunc) */
static int find_subprogs(struct rb_env *env)
{
	int n = env->insn_cnt, cap = 0;
	const struct bpf_insn *insns = env->insns;
	if (add_subprog(env, 0, &cap))
		return RB_E_NOMEM;
	for (int i = 0; i < n; i++) {
		if (is_pseudo_call(&insns[i])) {
			int t = i + 1 + insns[i].imm;
			if (t < 0 || t >= n) {
				env->insn_idx = i;
				return rb_reject(env, "function offset %d is out of range", t);
			}
			if (add_subprog(env, t, &cap))
				return RB_E_NOMEM;
		}
		if (is_pseudo_func(&insns[i])) {
			/* a callback's address: the target starts a subprogram */
			int t = i + 1 + insns[i].imm;
			if (t < 0 || t >= n) {
				env->insn_idx = i;
				return rb_reject(env, "function offset %d is out of range", t);
			}
			if (add_subprog(env, t, &cap))
				return RB_E_NOMEM;
		}
	}
	rb_sort(env->subprogs, (size_t)env->nsubprogs, sizeof(struct rb_subprog), cmp_sub);
	for (int s = 0; s < env->nsubprogs; s++) {
		env->subprogs[s].end = s + 1 < env->nsubprogs ? env->subprogs[s + 1].start : n;
		for (int i = env->subprogs[s].start; i < env->subprogs[s].end; i++)
			env->aux[i].subprog = s;
	}
	return 0;
}

/* 6.18 check_subprogs(): jumps stay inside their subprogram; the last
 * insn of each is an exit or an unconditional jump (every insn is
 * visited, the second half of an ld_imm64 too) */
static int check_subprog_jumps(struct rb_env *env)
{
	int n = env->insn_cnt;
	const struct bpf_insn *insns = env->insns;
	for (int i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		uint8_t cls = BPF_CLASS(in->code);
		int s = env->aux[i].subprog;
		env->insn_idx = i;
		if (cls == BPF_JMP || cls == BPF_JMP32) {
			uint8_t op = BPF_OP(in->code);
			if (op != BPF_CALL && op != BPF_EXIT) {
				int off = (op == BPF_JA && cls == BPF_JMP32) ? in->imm : in->off;
				int t = i + 1 + off;
				if (t < env->subprogs[s].start || t >= env->subprogs[s].end)
					return rb_reject(env, "jump out of range from insn %d to %d", i, t);
			}
		}
		if (i == env->subprogs[s].end - 1 && in->code != (BPF_JMP | BPF_EXIT) &&
		    in->code != (BPF_JMP32 | BPF_JA) && in->code != (BPF_JMP | BPF_JA))
			return rb_reject(env, "last insn is not an exit or jmp");
	}
	return 0;
}

/* 6.18 resolve_pseudo_ldimm64(): LDX reserved fields, the static form
 * of every ld_imm64 (direct map value offsets too), known opcodes; 7.2
 * check_and_resolve_insns() also every register number and reserved
 * field (insn_fields.c, profile.h insn_fields_static) */
static int check_insn_forms(struct rb_env *env)
{
	int n = env->insn_cnt;
	const bool f72 = env->prof->insn_fields_static;
	const struct bpf_insn *insns = env->insns;
	for (int i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		env->insn_idx = i;
		/* 7.2 (insn_fields_static): register numbers first, the LDX
		 * fields with the others after the opcode */
		int err;
		if (f72 && (err = rb_insn_regs_72(env, in)))
			return err;
		if (!f72 && BPF_CLASS(in->code) == BPF_LDX &&
		    ((BPF_MODE(in->code) != BPF_MEM && BPF_MODE(in->code) != BPF_MEMSX) || in->imm))
			return rb_reject(env, "BPF_LDX uses reserved fields");
		if (!is_ldimm64(in)) {
			if (!opcode_in_insntable(in->code))
				return rb_reject(env, "unknown opcode %02x", in->code);
			if (f72 && (err = rb_insn_fields_72(env, in)))
				return err;
			continue;
		}
		if (i == n - 1 || in[1].code || in[1].dst_reg || in[1].src_reg || in[1].off)
			return rb_reject(env, "invalid bpf_ld_imm64 insn");
		if (f72 && in->off)
			return rb_reject(env, "BPF_LD_IMM64 uses reserved fields");
		switch (in->src_reg) {
		case 0:
		case BPF_PSEUDO_BTF_ID:
		case BPF_PSEUDO_FUNC:
		case BPF_PSEUDO_MAP_VALUE:
		case BPF_PSEUDO_MAP_IDX_VALUE:
			break;
		case BPF_PSEUDO_MAP_FD:
		case BPF_PSEUDO_MAP_IDX:
			if (in[1].imm == 0)
				break;
			return rb_reject(env, "unrecognized bpf_ld_imm64 insn");
		default:
			return rb_reject(env, "unrecognized bpf_ld_imm64 insn");
		}
		/* add_used_map(): the loader turns every reference to a map of
		 * the object into an index (BPF_PSEUDO_MAP_IDX*), so a raw fd
		 * left in the instructions names no map (the kernel tries the
		 * loading process's fd table: e.g. fd 0 or 1 of the verifier
		 * tests, which are no maps either) */
		if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE)
			return rb_reject(env, "fd %d is not pointing to valid bpf_map", in->imm);
		/* map_direct_value_addr(): single-entry arrays, offset inside the value */
		if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE && in->imm >= 0 && (size_t)in->imm < env->obj->map_cnt) {
			const struct rb_map *m = &env->obj->maps[in->imm];
			/* a variable in an arena (.addr_space.1): arena.c */
			if (m->type == RB_MAP_TYPE_ARENA)
				goto next;
			if (m->type != BPF_MAP_TYPE_ARRAY && !m->global_data)
				return rb_reject(env, "no direct value access support for this map type");
			if (m->max_entries != 1 || (uint32_t)in[1].imm >= m->value_size)
				return rb_reject(env, "invalid access to map value pointer, value_size=%u off=%u",
						 m->value_size, (uint32_t)in[1].imm);
		}
	next:
		i++;
	}
	return 0;
}

/* prune and jump points, as 6.18's visit_insn marks them */
static void mark_prune_points(struct rb_env *env)
{
	int n = env->insn_cnt;
	const struct bpf_insn *insns = env->insns;
	for (int i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		uint8_t cls = BPF_CLASS(in->code);
		int sz = is_ldimm64(in) ? 2 : 1;
		if (is_pseudo_func(in)) {
			/* 6.18 visit_insn: a callback's address is visited as a call */
			mark_prune(env, i + 2);
			mark_jmp(env, i + 2);
			mark_prune(env, i);
			mark_prune(env, i + 1 + in->imm);
			mark_jmp(env, i + 1 + in->imm);
			i++;
			continue;
		}
		if (cls != BPF_JMP && cls != BPF_JMP32) {
			i += sz - 1;
			continue;
		}
		uint8_t op = BPF_OP(in->code);
		if (op == BPF_EXIT)
			continue;
		if (op == BPF_CALL) {
			rb_cfg_mark_callback_insn(env, i);
			mark_prune(env, i + 1);
			mark_jmp(env, i + 1);
			if (in->src_reg == BPF_PSEUDO_CALL) {
				int t = i + 1 + in->imm;
				mark_prune(env, i);
				mark_prune(env, t);
				mark_jmp(env, t);
			}
			continue;
		}
		if (op == BPF_JA) {
			int t = i + 1 + (cls == BPF_JMP ? in->off : in->imm);
			mark_prune(env, t);
			mark_jmp(env, t);
			continue;
		}
		mark_prune(env, i);
		/* 6.18 bpf_is_may_goto_insn(): JCOND with src_reg BPF_MAY_GOTO
		 * (0); another src_reg is refused later without a checkpoint */
		if (op == 0xe0 /* BPF_JCOND: may_goto */ && in->src_reg == 0)
			env->aux[i].force_checkpoint = true;
		mark_prune(env, i + 1 + in->off);
		mark_jmp(env, i + 1 + in->off);
	}
}

/* the instructions control may go to after insn i, as the kernel's
 * check_cfg and compute_scc walk them (a call falls through): how many,
 * into succ */
static int insn_successors(const struct bpf_insn *in, int i, int succ[2])
{
	uint8_t cls = BPF_CLASS(in->code);
	if (cls != BPF_JMP && cls != BPF_JMP32) {
		succ[0] = i + (is_ldimm64(in) ? 2 : 1);
		return 1;
	}
	uint8_t op = BPF_OP(in->code);
	if (op == BPF_EXIT)
		return 0;
	if (op == BPF_CALL) {
		succ[0] = i + 1;
		return 1;
	}
	if (op == BPF_JA) {
		succ[0] = i + 1 + (cls == BPF_JMP ? in->off : in->imm);
		return 1;
	}
	succ[0] = i + 1;
	succ[1] = i + 1 + in->off;
	return 2;
}

/* unreachable instructions (the kernel's check_cfg DFS) */
static int check_reachable(struct rb_env *env)
{
	int n = env->insn_cnt;
	const struct bpf_insn *insns = env->insns;
	size_t un = n > 0 ? (size_t)n : 1;
	uint8_t *seen = calloc(un, 1);
	int *work = malloc(sizeof(int) * (un + 1));
	if (!seen || !work) {
		free(seen);
		free(work);
		return RB_E_NOMEM;
	}
	int top = 0;
	for (int s = 0; s < env->nsubprogs; s++) {
		work[top++] = env->subprogs[s].start;
		seen[env->subprogs[s].start] = 1;
		while (top) {
			int i = work[--top];
			int succ[2], ns = insn_successors(&insns[i], i, succ);
			for (int k = 0; k < ns; k++) {
				int t = succ[k];
				if (t >= n || t < 0) {
					free(seen);
					free(work);
					env->insn_idx = i;
					return rb_reject(env, "jump out of range from insn %d to %d", i, t);
				}
				if (!seen[t]) {
					seen[t] = 1;
					work[top++] = t;
				}
			}
		}
	}
	for (int i = 0; i < n; i++) {
		if (!seen[i]) {
			free(seen);
			free(work);
			env->insn_idx = i;
			return rb_reject(env, "unreachable insn %d", i);
		}
		if (is_ldimm64(&insns[i])) {
			if (i + 1 < n && seen[i + 1]) {
				free(seen);
				free(work);
				env->insn_idx = i;
				return rb_reject(env, "jump into the middle of ldimm64 insn %d", i);
			}
			i++;
		}
	}
	free(seen);
	free(work);
	return 0;
}

int rb_check_cfg(struct rb_env *env)
{
	int err;
	if ((err = find_subprogs(env)) || (err = check_subprog_jumps(env)) || (err = check_insn_forms(env)))
		return err;
	mark_prune_points(env);
	if ((err = check_reachable(env)))
		return err;
	/* 7.2 bpf_check: constant branches folded before live registers and SCCs */
	if (env->prof->const_fold_branches && (err = rb_const_fold_branches(env)))
		return err;
	/* 7.2 bpf_check: sort_subprogs_topo refuses recursion before exploring */
	if (env->prof->recursion_static && (err = rb_subprog_topo_check(env)))
		return err;
	rb_compute_live_regs(env);
	if ((err = rb_compute_scc(env)))
		return err;
	/* 7.2 bpf_compute_live_registers runs the stack liveness first */
	if (env->prof->static_stack_liveness && (err = rb_live72_compute(env)))
		return err;
	return prepare_global_subprogs(env);
}

/* Strongly connected components of the instruction graph (Linux 6.17+
 * compute_scc, intraprocedural: calls fall through), numbered from 1;
 * instructions outside any loop keep 0. Iterative Tarjan. */
int rb_compute_scc(struct rb_env *env)
{
	int n = env->insn_cnt;
	size_t un = (size_t)n;
	int *index = malloc(sizeof(int) * un), *low = malloc(sizeof(int) * un), *stack = malloc(sizeof(int) * un);
	int *cs = malloc(sizeof(int) * un), *ci = malloc(sizeof(int) * un);
	bool *on = calloc(un, 1);
	if (!index || !low || !stack || !cs || !ci || !on) {
		free(index); free(low); free(stack); free(cs); free(ci); free(on);
		return RB_E_NOMEM;
	}
	for (int i = 0; i < n; i++)
		index[i] = -1;
	int idx = 0, sp = 0, next_scc = 1;
	for (int root = 0; root < n; root++) {
		if (index[root] >= 0)
			continue;
		int csp = 0;
		cs[csp] = root;
		ci[csp++] = 0;
		index[root] = low[root] = idx++;
		stack[sp++] = root;
		on[root] = true;
		while (csp) {
			int v = cs[csp - 1];
			int succ[2], ns = insn_successors(&env->insns[v], v, succ);
			if (ci[csp - 1] < ns) {
				int w = succ[ci[csp - 1]++];
				if (w < 0 || w >= n)
					continue;
				if (index[w] < 0) {
					index[w] = low[w] = idx++;
					stack[sp++] = w;
					on[w] = true;
					cs[csp] = w;
					ci[csp++] = 0;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			csp--;
			if (csp && low[v] < low[cs[csp - 1]])
				low[cs[csp - 1]] = low[v];
			if (low[v] == index[v]) {
				int size = 0, w, first = sp;
				do {
					w = stack[--first];
					size++;
				} while (w != v);
				/* a single insn is a loop only if it jumps to itself */
				bool self = false;
				if (size == 1) {
					const struct bpf_insn *in2 = &env->insns[v];
					uint8_t c2 = BPF_CLASS(in2->code);
					if ((c2 == BPF_JMP || c2 == BPF_JMP32) && BPF_OP(in2->code) != BPF_CALL &&
					    BPF_OP(in2->code) != BPF_EXIT &&
					    v + 1 + (BPF_OP(in2->code) == BPF_JA && c2 == BPF_JMP32 ? in2->imm : in2->off) == v)
						self = true;
				}
				/* a call to a helper that calls its callback
				 * synchronously is an implicit loop (6.18.44;
				 * mainline "scc-for-callbacks", backported) */
				if (size == 1 && env->aux[v].calls_callback)
					self = true;
				int id = (size > 1 || self) ? next_scc++ : 0;
				while (sp > first) {
					w = stack[--sp];
					on[w] = false;
					env->aux[w].scc = id;
				}
			}
		}
	}
	free(index); free(low); free(stack); free(cs); free(ci); free(on);
	return 0;
}
