/* btf_check.c — validation of .BTF and .BTF.ext before libbpf sees them.
 *
 * libbpf 1.1 checks the BTF header and that each type record fits, but not
 * that referenced type ids and string offsets exist (later libbpf releases
 * added that), and several of its walkers dereference the NULL that a bad
 * id yields, or loop forever on a typedef that names itself. The rules
 * below follow the format in the kernel's Documentation/bpf/btf.rst
 * (BTF version 1, kinds 1..19 as of Linux 6.18); our own code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf_view.h"

enum {
	K_INT = 1, K_PTR, K_ARRAY, K_STRUCT, K_UNION, K_ENUM, K_FWD, K_TYPEDEF, K_VOLATILE, K_CONST,
	K_RESTRICT, K_FUNC, K_FUNC_PROTO, K_VAR, K_DATASEC, K_FLOAT, K_DECL_TAG, K_TYPE_TAG, K_ENUM64,
	K_MAX = K_ENUM64,
};

#define BTF_MAGIC_LE 0xeB9F
#define MAX_CHAIN 64

struct bt {
	const uint8_t *types;
	uint32_t types_len;
	uint32_t str_len;
	uint32_t n;        /* number of types, ids 1..n */
	uint32_t *off;     /* off[id] = byte offset of type id in types */
};

static uint32_t kind_of(uint32_t info) { return (info >> 24) & 0x1f; }

/* bytes following the 12-byte common header, or -1 for an unknown kind */
static int64_t extra_size(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case K_INT: case K_VAR: case K_DECL_TAG: return 4;
	case K_ARRAY: return 12;
	case K_STRUCT: case K_UNION: case K_DATASEC: case K_ENUM64: return 12ll * vlen;
	case K_ENUM: case K_FUNC_PROTO: return 8ll * vlen;
	case K_PTR: case K_FWD: case K_TYPEDEF: case K_VOLATILE: case K_CONST: case K_RESTRICT:
	case K_FUNC: case K_FLOAT: case K_TYPE_TAG: return 0;
	default: return -1;
	}
}

static uint32_t kind_id(const struct bt *b, uint32_t id)
{
	return id == 0 ? 0 : kind_of(rb_rd32(b->types + b->off[id] + 4));
}

/* next type along a chain that never passes through a struct, union,
 * function prototype or base type; 0 when the chain ends there */
static uint32_t chain_next(const struct bt *b, uint32_t id)
{
	const uint8_t *t = b->types + b->off[id];
	switch (kind_of(rb_rd32(t + 4))) {
	case K_PTR: case K_TYPEDEF: case K_VOLATILE: case K_CONST: case K_RESTRICT: case K_TYPE_TAG:
	case K_VAR: case K_DECL_TAG:
		return rb_rd32(t + 8);
	case K_ARRAY:
		return rb_rd32(t + 12);
	default:
		return 0;
	}
}

#define FAIL(...) do { snprintf(reason, reason_sz, __VA_ARGS__); goto out; } while (0)

bool rb_btf_check(const uint8_t *d, size_t size, uint32_t *nr_types, uint32_t *str_len, char *reason,
		  size_t reason_sz)
{
	struct bt b = {0};
	bool ok = false;
	if (size < 24)
		FAIL("header truncated");
	if (rb_rd16(d) != BTF_MAGIC_LE)
		FAIL("bad magic 0x%x", rb_rd16(d));
	if (d[2] != 1 || d[3] != 0)
		FAIL("unsupported version %u / flags %u", d[2], d[3]);
	uint32_t hdr_len = rb_rd32(d + 4), type_off = rb_rd32(d + 8), type_len = rb_rd32(d + 12);
	uint32_t str_off = rb_rd32(d + 16), slen = rb_rd32(d + 20);
	if (hdr_len < 24 || hdr_len > size)
		FAIL("bad header length %u", hdr_len);
	uint64_t body = size - hdr_len;
	if ((uint64_t)type_off + type_len > body || (uint64_t)str_off + slen > body)
		FAIL("type or string section outside the blob");
	if (type_off % 4)
		FAIL("misaligned type section");
	if (slen == 0 || d[hdr_len + str_off] != 0 || d[hdr_len + str_off + slen - 1] != 0)
		FAIL("string section not NUL-delimited");
	b.types = d + hdr_len + type_off;
	b.types_len = type_len;
	b.str_len = slen;
	/* pass 1: sizes, count */
	b.off = malloc(sizeof(uint32_t) * ((size_t)type_len / 12 + 2));
	if (!b.off)
		FAIL("out of memory");
	uint32_t pos = 0;
	while (pos < type_len) {
		if (type_len - pos < 12)
			FAIL("type %u truncated", b.n + 1);
		uint32_t info = rb_rd32(b.types + pos + 4);
		int64_t extra = extra_size(kind_of(info), info & 0xffff);
		if (extra < 0)
			FAIL("type %u has unknown kind %u", b.n + 1, kind_of(info));
		if ((uint64_t)extra > type_len - pos - 12)
			FAIL("type %u truncated", b.n + 1);
		b.off[++b.n] = pos;
		pos += 12 + (uint32_t)extra;
	}
	/* pass 2: references and names */
	for (uint32_t id = 1; id <= b.n; id++) {
		const uint8_t *t = b.types + b.off[id];
		uint32_t name = rb_rd32(t), info = rb_rd32(t + 4), ref = rb_rd32(t + 8);
		uint32_t kind = kind_of(info), vlen = info & 0xffff;
		if (name >= slen)
			FAIL("type %u name offset %u outside strings", id, name);
		switch (kind) {
		case K_PTR: case K_TYPEDEF: case K_VOLATILE: case K_CONST: case K_RESTRICT: case K_TYPE_TAG:
			if (ref > b.n)
				FAIL("type %u refers to missing type %u", id, ref);
			break;
		case K_VAR: case K_DECL_TAG:
			if (ref == 0 || ref > b.n)
				FAIL("type %u refers to missing type %u", id, ref);
			break;
		case K_FUNC:
			if (ref == 0 || ref > b.n || kind_id(&b, ref) != K_FUNC_PROTO)
				FAIL("function %u does not refer to a prototype", id);
			break;
		case K_ARRAY:
			if (rb_rd32(t + 12) > b.n || rb_rd32(t + 16) > b.n)
				FAIL("array %u refers to a missing type", id);
			break;
		case K_STRUCT: case K_UNION:
			for (uint32_t i = 0; i < vlen; i++) {
				const uint8_t *m = t + 12 + 12 * i;
				if (rb_rd32(m) >= slen || rb_rd32(m + 4) == 0 || rb_rd32(m + 4) > b.n)
					FAIL("member %u of type %u is bad", i, id);
			}
			break;
		case K_ENUM: case K_ENUM64:
			for (uint32_t i = 0; i < vlen; i++)
				if (rb_rd32(t + 12 + (kind == K_ENUM ? 8 : 12) * i) >= slen)
					FAIL("enumerator %u of type %u has a bad name", i, id);
			break;
		case K_FUNC_PROTO:
			if (ref > b.n)
				FAIL("prototype %u returns a missing type", id);
			for (uint32_t i = 0; i < vlen; i++) {
				const uint8_t *p = t + 12 + 8 * i;
				if (rb_rd32(p) >= slen || rb_rd32(p + 4) > b.n)
					FAIL("parameter %u of prototype %u is bad", i, id);
			}
			break;
		case K_DATASEC:
			for (uint32_t i = 0; i < vlen; i++) {
				uint32_t v = rb_rd32(t + 12 + 12 * i);
				uint32_t vk = v <= b.n ? kind_id(&b, v) : 0;
				if (vk != K_VAR && vk != K_FUNC)
					FAIL("data section %u entry %u is not a variable", id, i);
			}
			break;
		default:
			break;
		}
	}
	/* pass 3: modifier/typedef/pointer/array chains must end */
	for (uint32_t id = 1; id <= b.n; id++) {
		uint32_t cur = id;
		int steps = 0;
		while ((cur = chain_next(&b, cur)) != 0)
			if (++steps > MAX_CHAIN)
				FAIL("type %u starts a reference chain that is cyclic or deeper than %d", id, MAX_CHAIN);
	}
	*nr_types = b.n;
	*str_len = slen;
	ok = true;
out:
	free(b.off);
	return ok;
}

/* one .BTF.ext sub-section: func_info (0), line_info (1) or core_relo (2) */
static bool ext_sub(const uint8_t *data, uint32_t len, int which, uint32_t nr_types, uint32_t str_len, char *reason,
		    size_t reason_sz)
{
	static const char *const what[] = {"func_info", "line_info", "core_relo"};
	static const uint32_t min_rec[] = {8, 16, 16};
	/* core_relo kinds: enum bpf_core_relo_kind, BPF_CORE_FIELD_BYTE_OFFSET
	 * (0) to BPF_CORE_TYPE_MATCHES (12, libbpf 1.0+, clang 15+) */
	if (len < 4)
		FAIL("%s: no record size", what[which]);
	uint32_t rec = rb_rd32(data);
	if (rec < min_rec[which] || rec % 4 || rec > 1024)
		FAIL("%s: bad record size %u", what[which], rec);
	uint32_t pos = 4;
	while (pos < len) {
		if (len - pos < 8)
			FAIL("%s: truncated section header", what[which]);
		uint32_t name = rb_rd32(data + pos), num = rb_rd32(data + pos + 4);
		pos += 8;
		if (name >= str_len)
			FAIL("%s: section name offset %u outside strings", what[which], name);
		if (num == 0 || (uint64_t)num * rec > len - pos)
			FAIL("%s: %u records do not fit", what[which], num);
		for (uint32_t i = 0; i < num; i++, pos += rec) {
			const uint8_t *r = data + pos;
			if (rb_rd32(r) % 8)
				FAIL("%s: misaligned instruction offset %u", what[which], rb_rd32(r));
			if (which == 0 && rb_rd32(r + 4) > nr_types)
				FAIL("func_info: missing type %u", rb_rd32(r + 4));
			if (which == 1 && (rb_rd32(r + 4) >= str_len || rb_rd32(r + 8) >= str_len))
				FAIL("line_info: string offset outside strings");
			if (which == 2 && (rb_rd32(r + 4) == 0 || rb_rd32(r + 4) > nr_types ||
					   rb_rd32(r + 8) >= str_len || rb_rd32(r + 12) > 12))
				FAIL("core_relo: bad record (type %u, kind %u)", rb_rd32(r + 4), rb_rd32(r + 12));
		}
	}
	return true;
out:
	return false;
}

bool rb_btf_ext_check(const uint8_t *d, size_t size, uint32_t nr_types, uint32_t str_len, char *reason,
		      size_t reason_sz)
{
	if (size < 24)
		FAIL("header truncated");
	if (rb_rd16(d) != BTF_MAGIC_LE || d[2] != 1 || d[3] != 0)
		FAIL("bad magic/version/flags");
	uint32_t hdr_len = rb_rd32(d + 4);
	if (hdr_len < 24 || hdr_len > size)
		FAIL("bad header length %u", hdr_len);
	uint64_t body = size - hdr_len;
	for (int which = 0; which < 3; which++) {
		uint32_t hoff = 8 + 8 * (uint32_t)which;
		if (hoff + 8 > hdr_len)
			break;
		uint32_t off = rb_rd32(d + hoff), len = rb_rd32(d + hoff + 4);
		if (len == 0)
			continue;
		if (off % 4 || (uint64_t)off + len > body)
			FAIL("sub-section %d outside the blob", which);
		if (!ext_sub(d + hdr_len + off, len, which, nr_types, str_len, reason, reason_sz))
			return false;
	}
	return true;
out:
	return false;
}
