/* const_str.c — strings in read-only map values as helper arguments
 * (Linux 6.18 check_reg_const_str and check_bpf_snprintf_call, with the
 * format rules of bpf_bprintf_prepare when it is given no arguments). */
#include "engine/const_str.h"

#include <linux/bpf.h>
#include <string.h>

#include "engine/log.h"
#include "engine/mem.h"

/* the kernel's ctype on ASCII (lib/ctype.c): the verifier refuses any byte
 * above 127 before looking at these */
static bool k_isspace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool k_isprint(char c) { return c >= 0x20 && c <= 0x7e; }
static bool k_ispunct(char c)
{
	return k_isprint(c) && c != ' ' && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') &&
	       !(c >= 'A' && c <= 'Z');
}

/* the string at the register's constant address (NUL-terminated inside
 * the value: checked by rb_check_const_str_arg) */
static const char *str_at(struct rb_env *env, const struct rb_reg *reg)
{
	const struct rb_map *m = &env->obj->maps[reg->map_idx];
	return (const char *)m->init + reg->off + (int64_t)rb_reg_const_val(env, reg);
}

int rb_check_const_str_arg(struct rb_env *env, int regno)
{
	struct rb_reg *reg = &rb_cur_regs(env)[regno];
	char tn[48];
	if (reg->type != RT_MAP_VALUE || (reg->flags & RF_MAYBE_NULL))
		return rb_reject(env, "R%d type=%s expected=map_value", regno, rb_rtype_name(reg, tn, sizeof(tn)));
	const struct rb_map *m = &env->obj->maps[reg->map_idx];
	/* bpf_map_is_rdonly: BPF_F_RDONLY_PROG and frozen */
	if (!(m->map_flags & BPF_F_RDONLY_PROG) || !m->frozen)
		return rb_reject(env, "R%d does not point to a readonly map'", regno);
	if (!env->t->is_const(&reg->val))
		return rb_reject(env, "R%d is not a constant address'", regno);
	/* map_direct_value_addr: array maps only */
	if (m->type != BPF_MAP_TYPE_ARRAY)
		return rb_reject(env, "no direct value access support for this map type");
	int err = rb_check_mem_range(env, regno, -1, (uint64_t)((int64_t)m->value_size - reg->off), false, RB_MEM_READ);
	if (err)
		return err;
	int64_t off = reg->off + (int64_t)rb_reg_const_val(env, reg);
	/* array_map_direct_value_addr: one element, the offset inside it */
	if (m->max_entries != 1 || off < 0 || off >= (int64_t)m->value_size)
		return rb_reject(env, "direct value access on string failed");
	if (!m->init || m->init_size < m->value_size)
		return rb_unsupported(env, "a string in a read-only map without its contents");
	if (!memchr(m->init + off, 0, m->value_size - (size_t)off))
		return rb_reject(env, "string is not zero-terminated");
	return 0;
}

/* bpf_bprintf_prepare(fmt, UINT_MAX, NULL, num_args): is the format valid
 * for num_args arguments? */
static bool format_ok(const char *fmt, uint64_t num_args)
{
	uint64_t num_spec = 0;
	for (size_t i = 0; fmt[i]; i++) {
		if ((!k_isprint(fmt[i]) && !k_isspace(fmt[i])) || (unsigned char)fmt[i] > 127)
			return false;
		if (fmt[i] != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (num_spec >= num_args)
			return false;
		i++;
		/* the optional "[0 +-][num]" width */
		while (fmt[i] == '0' || fmt[i] == '+' || fmt[i] == '-' || fmt[i] == ' ')
			i++;
		if (fmt[i] >= '1' && fmt[i] <= '9') {
			i++;
			while (fmt[i] >= '0' && fmt[i] <= '9')
				i++;
		}
		if (fmt[i] == 'p') {
			char n = fmt[i + 1];
			if (n == 0 || k_isspace(n) || k_ispunct(n)) {
				/* %p */
			} else if ((n == 'k' || n == 'u') && fmt[i + 2] == 's') {
				i += 2;
				if (fmt[i + 1] != 0 && !k_isspace(fmt[i + 1]) && !k_ispunct(fmt[i + 1]))
					return false;
			} else if (n == 'K' || n == 'x' || n == 's' || n == 'S' || n == 'B') {
				i++;
			} else if ((n == 'i' || n == 'I') && (fmt[i + 2] == '4' || fmt[i + 2] == '6')) {
				i += 2;
			} else {
				return false;
			}
		} else if (fmt[i] == 's') {
			if (fmt[i + 1] != 0 && !k_isspace(fmt[i + 1]) && !k_ispunct(fmt[i + 1]))
				return false;
		} else if (fmt[i] != 'c') {
			if (fmt[i] == 'l')
				i++;
			if (fmt[i] == 'l')
				i++;
			if (fmt[i] != 'i' && fmt[i] != 'd' && fmt[i] != 'u' && fmt[i] != 'x' && fmt[i] != 'X')
				return false;
		}
		num_spec++;
		if (!fmt[i])
			break;
	}
	return true;
}

int rb_check_snprintf_format(struct rb_env *env)
{
	struct rb_reg *regs = rb_cur_regs(env);
	struct rb_bounds b;
	rb_reg_bounds(env, &regs[5], &b);
	/* data_len_reg->var_off.value: a size that is not a multiple of 8 is
	 * refused without a message */
	if (b.var_off.value % 8)
		return rb_reject(env, "%s", "");
	if (!format_ok(str_at(env, &regs[3]), b.var_off.value / 8))
		return rb_reject(env, "Invalid format string");
	return 0;
}
