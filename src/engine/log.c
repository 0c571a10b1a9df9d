/* log.c — the per-instruction log in Linux 6.18's level-2 format:
 * "N: (op) disasm" lines (kernel/bpf/disasm.c syntax), the state of the
 * registers and stack slots touched by the instruction appended after
 * ";" at the kernel's alignment, full states after branch switches
 * ("from A to B: ..."). Scalars print through the tracker's print(). */
#include <string.h>

#include "engine/btf.h"
#include "engine/btf_names.h"
#include "engine/helper_table.h"
#include "engine/iter.h"
#include "engine/dynptr.h"
#include "engine/alloc_obj.h"
#include "engine/log.h"
#include "engine/names.h"
#include "engine/profile.h"
#include "util/array_size.h"

static const char *const alu_s[16] = {"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
				      "neg", "%=", "^=", "=", "s>>=", "endian", "?", "?"};
static const char *const jmp_s[16] = {"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=",
				      "call", "exit", "<", "<=", "s<", "s<=", "(null)", "?"};
/* ([14]: 6.18's bpf_jmp_string has no BPF_JCOND entry, so a JCOND that is
 * not may_goto prints the NULL string as "(null)") */
static const char *const size_s[4] = {"u32", "u16", "u8", "u64"};


/* the names of dynptr and iterator slots, as the log prints them (here,
 * not in dynptr.c and iter.c, so the log printer calls into nothing that
 * calls back into it) */
const char *rb_dynptr_type_str(int type)
{
	switch (type) {
	case RB_DYNPTR_LOCAL: return "local";
	case RB_DYNPTR_RINGBUF: return "ringbuf";
	case RB_DYNPTR_SKB: return "skb";
	case RB_DYNPTR_XDP: return "xdp";
	default: return "unknown";
	}
}

void rb_dynptr_slot_str(const struct rb_slot *s, char *buf, size_t len)
{
	const struct rb_reg *r = &s->spilled;
	int n = snprintf(buf, len, "dynptr_%s(", rb_dynptr_type_str(RB_DYNPTR_TYPE(r)));
	const char *sep = "";
	if (r->id && n >= 0 && (size_t)n < len) {
		n += snprintf(buf + n, len - (size_t)n, "id=%u", r->id);
		sep = ",";
	}
	if (r->ref_obj_id && n >= 0 && (size_t)n < len) {
		n += snprintf(buf + n, len - (size_t)n, "%sref_id=%u", sep, r->ref_obj_id);
		sep = ",";
	}
	/* 6.18 prints the union member that shares first_slot's bytes as dynptr_id */
	if (RB_DYNPTR_FIRST(r) && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%sdynptr_id=1", sep);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ")");
}

void rb_iter_slot_str(struct rb_env *env, const struct rb_slot *s, char *buf, size_t len)
{
	static const char *const states[] = {"invalid", "active", "drained"};
	const char *nm = rb_btf_name(env, (uint32_t)RB_ITER_BTF_ID(&s->spilled));
	if (nm && !strncmp(nm, "bpf_iter_", 9))
		nm += 9;
	int st = RB_ITER_STATE(&s->spilled);
	snprintf(buf, len, "iter_%s(ref_id=%u,state=%s,depth=%d)", nm ? nm : "?", s->spilled.ref_obj_id,
		 st >= 0 && st <= 2 ? states[st] : "?", RB_ITER_DEPTH(&s->spilled));
}


void rb_disasm(const struct bpf_insn *in, const struct rb_object *obj, char *buf, size_t len)
{
	(void)obj;
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	char r = cls == BPF_ALU ? 'w' : 'r';
	int n = snprintf(buf, len, "(%02x) ", in->code);
	buf += n;
	len -= (size_t)n;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_END) {
			if (cls == BPF_ALU64)
				snprintf(buf, len, "r%d = bswap%d r%d", in->dst_reg, in->imm, in->dst_reg);
			else
				snprintf(buf, len, "r%d = %s%d r%d", in->dst_reg,
					 BPF_SRC(in->code) == BPF_TO_BE ? "be" : "le", in->imm, in->dst_reg);
		} else if (op == BPF_NEG) {
			snprintf(buf, len, "%c%d = -%c%d", r, in->dst_reg, r, in->dst_reg);
		} else if (BPF_SRC(in->code) == BPF_X) {
			if (op == BPF_MOV && cls == BPF_ALU64 && in->off == 1) /* addr_space_cast */
				snprintf(buf, len, "r%d = addr_space_cast(r%d, %u, %u)", in->dst_reg, in->src_reg,
					 (uint32_t)in->imm >> 16, (unsigned)(uint16_t)in->imm);
			else if (op == BPF_MOV && in->off)
				snprintf(buf, len, "%c%d = (s%d)%c%d", r, in->dst_reg, in->off, r, in->src_reg);
			else
				snprintf(buf, len, "%c%d %s%s %c%d", r, in->dst_reg, in->off == 1 ? "s" : "",
					 alu_s[op >> 4], r, in->src_reg);
		} else {
			snprintf(buf, len, "%c%d %s%s %d", r, in->dst_reg, in->off == 1 ? "s" : "", alu_s[op >> 4],
				 in->imm);
		}
		break;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_MEM) {
			snprintf(buf, len, "*(%s *)(r%d %+d) = r%d", size_s[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off,
				 in->src_reg);
		} else if (BPF_MODE(in->code) == BPF_ATOMIC) {
			const char *sz = BPF_SIZE(in->code) == BPF_DW ? "64" : "";
			int aop = in->imm & ~BPF_FETCH;
			const char *an = aop == BPF_ADD ? "add" : aop == BPF_AND ? "and" : aop == BPF_OR ? "or" : "xor";
			if (in->imm == BPF_CMPXCHG)
				snprintf(buf, len, "r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)", sz,
					 size_s[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off, in->src_reg);
			else if (in->imm == BPF_XCHG)
				snprintf(buf, len, "r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)", in->src_reg, sz,
					 size_s[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off, in->src_reg);
			else if (in->imm == 0x100) /* BPF_LOAD_ACQ */
				snprintf(buf, len, "r%d = load_acquire((%s *)(r%d %+d))", in->dst_reg,
					 size_s[BPF_SIZE(in->code) >> 3], in->src_reg, in->off);
			else if (in->imm == 0x110) /* BPF_STORE_REL */
				snprintf(buf, len, "store_release((%s *)(r%d %+d), r%d)", size_s[BPF_SIZE(in->code) >> 3],
					 in->dst_reg, in->off, in->src_reg);
			else if (aop != BPF_ADD && aop != BPF_AND && aop != BPF_OR && aop != BPF_XOR)
				/* 6.18 print_bpf_insn(): an unknown atomic op, without the
				 * "(code) " prefix */
				snprintf(buf - n, len + (size_t)n, "BUG_%02x", in->code);
			else if (in->imm & BPF_FETCH)
				snprintf(buf, len, "r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)", in->src_reg, sz, an,
					 size_s[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off, in->src_reg);
			else
				snprintf(buf, len, "lock *(%s *)(r%d %+d) %s r%d", size_s[BPF_SIZE(in->code) >> 3],
					 in->dst_reg, in->off, alu_s[aop >> 4], in->src_reg);
		} else {
			snprintf(buf - n, len + (size_t)n, "BUG_%02x", in->code);
		}
		break;
	case BPF_ST:
		snprintf(buf, len, "*(%s *)(r%d %+d) = %d", size_s[BPF_SIZE(in->code) >> 3], in->dst_reg, in->off,
			 in->imm);
		break;
	case BPF_LDX:
		if (BPF_MODE(in->code) == BPF_MEMSX)
			snprintf(buf, len, "r%d = *(s%d *)(r%d %+d)", in->dst_reg,
				 BPF_SIZE(in->code) == BPF_B ? 8 : BPF_SIZE(in->code) == BPF_H ? 16 : 32, in->src_reg,
				 in->off);
		else
			snprintf(buf, len, "r%d = *(%s *)(r%d %+d)", in->dst_reg, size_s[BPF_SIZE(in->code) >> 3],
				 in->src_reg, in->off);
		break;
	case BPF_LD:
		if (BPF_MODE(in->code) == BPF_ABS)
			snprintf(buf, len, "r0 = *(%s *)skb[%d]", size_s[BPF_SIZE(in->code) >> 3], in->imm);
		else if (BPF_MODE(in->code) == BPF_IND)
			snprintf(buf, len, "r0 = *(%s *)skb[r%d + %d]", size_s[BPF_SIZE(in->code) >> 3], in->src_reg,
				 in->imm);
		else if (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
			/* the kernel prints the map's kernel address here; we print a stand-in */
			snprintf(buf, len, "r%d = 0xffff0000%08x", in->dst_reg,
				 (unsigned)(in->imm << 12) + (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE ? (unsigned)in[1].imm : 0));
		else if (in->src_reg == BPF_PSEUDO_BTF_ID)
			/* the kernel prints the symbol's address (ksym.c); a stand-in from its BTF id */
			snprintf(buf, len, "r%d = 0xffffffff%08x", in->dst_reg, (unsigned)in->imm);
		else
			snprintf(buf, len, "r%d = 0x%llx", in->dst_reg,
				 (unsigned long long)((uint64_t)(uint32_t)in->imm | ((uint64_t)(uint32_t)in[1].imm << 32)));
		break;
	case BPF_JMP:
	case BPF_JMP32: {
		char jr = cls == BPF_JMP32 ? 'w' : 'r';
		if (op == BPF_CALL) {
			if (in->src_reg == BPF_PSEUDO_CALL)
				snprintf(buf, len, "call pc%+d", in->imm);
			else if (in->src_reg == BPF_PSEUDO_KFUNC_CALL)
				snprintf(buf, len, "call kernel-function");
			else {
				char lb[64];
				snprintf(buf, len, "call %s", rb_helper_label(in->imm, lb, sizeof(lb)));
			}
		} else if (op == BPF_EXIT) {
			snprintf(buf, len, "exit");
		} else if (op == 0xe0 /* BPF_JCOND */ && cls == BPF_JMP && in->src_reg == 0) {
			snprintf(buf, len, "may_goto pc%+d", in->off);
		} else if (op == BPF_JA) {
			if (cls == BPF_JMP)
				snprintf(buf, len, "goto pc%+d", in->off);
			else
				snprintf(buf, len, "gotol pc%+d", in->imm);
		} else if (BPF_SRC(in->code) == BPF_X) {
			snprintf(buf, len, "if %c%d %s %c%d goto pc%+d", jr, in->dst_reg, jmp_s[op >> 4], jr, in->src_reg,
				 in->off);
		} else {
			snprintf(buf, len, "if %c%d %s 0x%x goto pc%+d", jr, in->dst_reg, jmp_s[op >> 4], (unsigned)in->imm,
				 in->off);
		}
		break;
	}
	}
}

void rb_log_insn(struct rb_env *env, int idx)
{
	char buf[160];
	const struct bpf_insn *in = &env->insns[idx];
	if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		/* the kernel names the kfunc from its BTF ("call #0" when unresolved) */
		const char *nm = in->off ? NULL : rb_kfunc_name(rb_need_vmlinux(env), in->imm);
		snprintf(buf, sizeof(buf), "(%02x) call %s#%d", in->code, nm ? nm : "", in->imm);
	} else {
		rb_disasm(in, env->obj, buf, sizeof(buf));
	}
	char line[200];
	int n = snprintf(line, sizeof(line), "%d: %s", idx, buf);
	rb_log(env, "%s", line);
	/* the line stays open: the state of the touched registers follows on it */
	env->line_open = true;
	env->insn_print_len = n + 1; /* counting the newline the kernel printed */
}

/* kernel log.c verbose_snum: decimal within the signed 16-bit range */
static void snum(char *buf, size_t len, int64_t v)
{
	if (v >= -32768 && v <= 32767)
		snprintf(buf, len, "%lld", (long long)v);
	else
		snprintf(buf, len, "%#llx", (unsigned long long)v);
}

const char *rb_rtype_str(const struct rb_reg *r, char *buf, size_t len)
{
	static const char *const names[] = {
		[RT_NOT_INIT] = "?",        [RT_SCALAR] = "scalar",       [RT_CTX] = "ctx",
		[RT_MAP_PTR] = "map_ptr",   [RT_MAP_VALUE] = "map_value", [RT_MAP_KEY] = "map_key",
		[RT_STACK] = "fp",          [RT_PKT] = "pkt",             [RT_PKT_META] = "pkt_meta",
		[RT_PKT_END] = "pkt_end",   [RT_FLOW_KEYS] = "flow_keys", [RT_SOCK_COMMON] = "sock_common",
		[RT_SOCKET] = "sock",       [RT_TCP_SOCK] = "tcp_sock",   [RT_MEM] = "mem",
		[RT_TP_BUFFER] = "tp_buffer", [RT_BTF_ID] = "ptr_",       [RT_FUNC] = "func", [RT_XDP_SOCK] = "xdp_sock",
		[RT_CONST_DYNPTR] = "dynptr_ptr", [RT_ARENA] = "arena", [RT_BUF] = "buf",
	};
	const char *parts[8] = {(r->flags & RF_RDONLY) ? "rdonly_" : "", (r->flags & RF_RINGBUF) ? "ringbuf_" : "",
				(r->flags & RF_PERCPU) ? "percpu_" : "", (r->flags & RF_RCU) ? "rcu_" : "",
				(r->flags & RF_UNTRUSTED) ? "untrusted_" : "", (r->flags & RF_TRUSTED) ? "trusted_" : "",
				r->type < ARRAY_SIZE(names) ? names[r->type] : "?",
				(r->flags & RF_MAYBE_NULL) ? (r->type == RT_BTF_ID ? "or_null_" : "_or_null") : ""};
	/* the parts one after the other, cut at len - 1 as snprintf would
	 * (no format parsing: helper arguments and pointer arithmetic name
	 * the type at every call, for the message they may make) */
	size_t n = 0;
	if (!len)
		return buf;
	for (int i = 0; i < 8; i++)
		for (const char *c = parts[i]; *c && n + 1 < len; c++)
			buf[n++] = *c;
	buf[n] = 0;
	return buf;
}

const char *rb_rtype_name(const struct rb_reg *r, char *buf, size_t len)
{
	return rb_rtype_str(r, buf, len);
}

/* Appends to buf; the kernel's print_reg_state. */
static void print_reg(struct rb_env *env, int frameno, const struct rb_reg *r, char *buf, size_t len)
{
	char tmp[256], fields[400];
	const struct rb_tracker *t = env->t;
	size_t n = 0;
#define AP(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	if (r->type == RT_SCALAR && r->precise)
		AP("P");
	if (r->type == RT_SCALAR && t->is_const(&r->val)) {
		snum(tmp, sizeof(tmp), (int64_t)rb_reg_const_val(env, r));
		AP("%s", tmp);
		return;
	}
	rb_rtype_str(r, tmp, sizeof(tmp));
	AP("%s", tmp);
	if (RB_IS_PROG_BTF(r))
		AP("%s", rb_alloc_type_name(env, (uint32_t)r->map_idx));
	else if (r->type == RT_BTF_ID)
		AP("%s", rb_btf_name(env, (uint32_t)r->map_idx));
	if (r->type == RT_STACK) {
		if (frameno != r->frameno)
			AP("[%d]", r->frameno);
		if (t->is_const(&r->val)) {
			snum(tmp, sizeof(tmp), (int64_t)rb_reg_const_val(env, r) + r->off);
			AP("%s", tmp);
			return;
		}
	}
	AP("(");
	const char *sep = "";
	if (r->id) {
		AP("%sid=%u", sep, r->id & RB_ID_MASK);
		sep = ",";
	}
	if (r->id & RB_ADD_CONST)
		AP("%+d", r->off);
	if (r->ref_obj_id) {
		AP("%sref_obj_id=%u", sep, r->ref_obj_id);
		sep = ",";
	}
	if (RB_IS_NON_OWN(r)) {
		AP("%snon_own_ref", sep);
		sep = ",";
	}
	if ((r->type == RT_MAP_PTR || r->type == RT_MAP_VALUE || r->type == RT_MAP_KEY) && r->map_idx >= 0) {
		const struct rb_map *m = &env->obj->maps[r->map_idx];
		/* the inner-map template of a map-in-map has no name in 6.18
		 * (bpf_map_meta_alloc): its pointers print "map_ptr(ks=..,vs=..)" */
		if (m->name[0] && !m->inner_template) {
			AP("%smap=%.15s", sep, m->name); /* BPF_OBJ_NAME_LEN - 1 */
			sep = ",";
		}
		AP("%sks=%u,vs=%u", sep, m->key_size, m->value_size);
		sep = ",";
	}
	/* 7.2 (profile.h log_ptr_whole): a pointer's whole value below */
	bool whole = env->prof->log_ptr_whole && r->type != RT_SCALAR;
	if (r->type != RT_SCALAR && r->off && !whole) {
		snum(tmp, sizeof(tmp), r->off);
		AP("%soff=%s", sep, tmp);
		sep = ",";
	}
	if (r->type == RT_PKT || r->type == RT_PKT_META) {
		/* verbose_unum: the negative markers print as huge unsigned numbers */
		if (r->range >= 0 && r->range <= 0xffff)
			snprintf(tmp, sizeof(tmp), "%d", r->range);
		else
			snprintf(tmp, sizeof(tmp), "%#llx", (unsigned long long)(int64_t)r->range);
		AP("%sr=%s", sep, tmp);
		sep = ",";
	}
	if (r->type == RT_MEM) {
		snum(tmp, sizeof(tmp), r->range);
		AP("%ssz=%s", sep, tmp);
		sep = ",";
	}
	if (r->type == RT_CONST_DYNPTR) {
		AP("%stype=%s", sep, rb_dynptr_type_str(RB_DYNPTR_TYPE(r)));
		sep = ",";
	}
	rb_val wv;
	const rb_val *pv = &r->val;
	if (whole && r->off) {
		rb_ptr_whole_val(env, r, &wv);
		pv = &wv;
	}
	if (t->is_const(pv)) {
		struct rb_bounds wb;
		t->bounds(pv, &wb);
		uint64_t v = wb.var_off.value;
		if (v) {
			snum(tmp, sizeof(tmp), (int64_t)v);
			AP("%simm=%s", sep, tmp);
		}
	} else {
		t->print(pv, fields, sizeof(fields));
		if (fields[0])
			AP("%s%s", sep, fields);
	}
	AP(")");
#undef AP
}

void rb_print_reg(struct rb_env *env, const struct rb_func *f, const struct rb_reg *r, char *buf, size_t len)
{
	buf[0] = 0;
	print_reg(env, f->frameno, r, buf, len);
}

/* slot_type_char (6.18 and 7.2.13 log.c) */
static const char slot_ch[] = {'?', 'r', 'm', '0', 'i', 'd', 'f'};

void rb_log_state(struct rb_env *env, const struct rb_vstate *st, int frameno, bool all)
{
	const struct rb_func *f = st->frame[frameno];
	char buf[700];
	if (f->frameno)
		rb_log(env, " frame%d:", f->frameno);
	for (int i = 0; i < RB_MAX_REG; i++) {
		const struct rb_reg *r = &f->regs[i];
		if (r->type == RT_NOT_INIT)
			continue;
		if (!all && !(env->scratched_regs & (1u << i)))
			continue;
		rb_print_reg(env, f, r, buf, sizeof(buf));
		rb_log(env, " R%d=%s", i, buf);
	}
	for (int s = 0; s < f->nslots; s++) {
		if (!all && s < 64 && !(env->scratched_stack & (1ull << s)))
			continue;
		const struct rb_slot *sl = &f->stack[s];
		char types[9];
		bool valid = false;
		for (int j = 0; j < 8; j++) {
			if (sl->type[j] != SLOT_INVALID)
				valid = true;
			types[j] = sl->type[j] < sizeof(slot_ch) ? slot_ch[sl->type[j]] : '?';
		}
		types[8] = 0;
		if (!valid)
			continue;
		if (sl->type[7] == SLOT_DYNPTR) {
			/* 6.18 prints a dynptr at its first slot, when it meets the second */
			if (RB_DYNPTR_FIRST(&sl->spilled) || s + 1 >= f->nslots)
				continue;
			rb_dynptr_slot_str(&f->stack[s + 1], buf, sizeof(buf));
			rb_log(env, " fp%d=%s", (-s - 2) * 8, buf);
			s++;
		} else if (sl->type[7] == SLOT_ITER) {
			/* only an iterator's first slot has its reference and is printed */
			if (!sl->spilled.ref_obj_id)
				continue;
			rb_iter_slot_str(env, sl, buf, sizeof(buf));
			rb_log(env, " fp%d=%s", (-s - 1) * 8, buf);
		} else if (sl->type[7] == SLOT_SPILL) {
			int j;
			for (j = 0; j < 8; j++)
				if (sl->type[j] == SLOT_SPILL)
					break;
			types[j] = 0;
			rb_print_reg(env, f, &sl->spilled, buf, sizeof(buf));
			rb_log(env, " fp%d=%s%s", (-s - 1) * 8, types, buf);
		} else {
			rb_log(env, " fp%d=%s", (-s - 1) * 8, types);
		}
	}
	/* 6.18 prints them when the first has an id (a lock on global data has none) */
	if (st->nrefs && st->refs[0]) {
		rb_log(env, " refs=%u", st->refs[0]);
		for (int i = 1; i < st->nrefs; i++)
			if (st->refs[i])
				rb_log(env, ",%u", st->refs[i]);
	}
	if (f->in_callback_fn)
		rb_log(env, " cb");
	if (f->in_async_callback_fn)
		rb_log(env, " async_cb");
	rb_log(env, "\n");
	if (!all) {
		env->scratched_regs = 0;
		env->scratched_stack = 0;
	}
}

/* print_insn_state: after the insn on the same line, or on a line of its own */
void rb_log_insn_state(struct rb_env *env)
{
	if (!env->log)
		return;
	if (env->line_open) {
		int pos = env->insn_print_len;
		int a = pos + 4 > 40 ? pos + 4 : 40;
		a = (a + 7) / 8 * 8 - pos - 1;
		env->line_open = false;
		fprintf(env->log, "%*c;", a, ' ');
	} else {
		rb_log(env, "%d:", env->insn_idx);
	}
	rb_log_state(env, env->cur, env->cur->curframe, false);
}

const char *rb_tnum_str(uint64_t value, uint64_t mask, char *buf, size_t len)
{
	if (!mask) {
		if (value <= 0xffff)
			snprintf(buf, len, "%llu", (unsigned long long)value);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)value);
	} else {
		snprintf(buf, len, "(0x%llx; 0x%llx)", (unsigned long long)value, (unsigned long long)mask);
	}
	return buf;
}
