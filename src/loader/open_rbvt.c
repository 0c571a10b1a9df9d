/* open_rbvt.c — the raw-program format of the verifier-tests corpus.
 *
 * The kernel's own verifier unit tests (test_verifier's tables) are not
 * ELF objects: each test is an instruction array, a program type, map
 * fix-ups and flags. programs/recipe/verifier-tests-gen.c writes each test
 * as one "rbvt" file that opens into the same rb_object as an ELF object
 * (one program, its maps, optional BTF and func_info), so the driver, the
 * engine and the kernel oracle treat it like any other object.
 *
 * Layout (little-endian u32 fields):
 *   "RBVTEST1"
 *   prog_type, expected_attach_type, prog_flags, attach_btf_id,
 *   insn_cnt, map_cnt, btf_size, func_info_cnt
 *   char name[128], section[64], attach_name[64]   (NUL-terminated)
 *   map_cnt x { char name[16]; type, key_size, value_size, max_entries,
 *               map_flags, btf_key_type_id, btf_value_type_id,
 *               inner_map_idx (s32, -1 = none) }
 *   btf_size bytes of raw BTF (header, types, strings)
 *   func_info_cnt x { insn_off, type_id }
 *   insn_cnt x struct bpf_insn
 *   optional: "RBVTKF01", kfunc_cnt, kfunc_cnt x { insn_idx, char name[64] }
 *             (the kfunc each of those calls names, test_verifier's
 *             fixup_kfunc_btf_id)
 * Map references in the instructions are already in the map-index form
 * (object.h). Every field is checked; a bad file is an error naming it.
 *
 * BTF ids are the kernel's: the generator resolved them in the BTF of the
 * kernel it ran on, so they are resolved again by name when the file is
 * opened, in the BTF of the kernel the object is opened for (--btf, the
 * kernel inputs of a later profile's row, else the running kernel's: in a
 * kernel image's guest, that kernel's), as test_verifier resolves them on
 * the kernel it runs on: each kfunc call's id (0 when the kernel has no
 * such function, as test_verifier's fixup leaves it) and a tracing or LSM
 * program's attach target (libbpf's prefixes: btf_trace_, bpf_lsm_,
 * bpf_iter_; a target the kernel lacks refuses the program, as libbpf
 * does). Without a readable BTF the recorded ids stay. */
#include "loader/open_paths.h"
#include "loader/uapi_names.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 128
#define SEC_LEN 64
#define ATTACH_LEN 64
#define MAP_NAME_LEN 16
#define HDR_SIZE (8 + 8 * 4 + NAME_LEN + SEC_LEN + ATTACH_LEN)
#define MAP_REC (MAP_NAME_LEN + 8 * 4)
#define MAX_MAPS 64
#define MAX_BTF (1u << 20)
#define MAX_FUNC_INFO 4096
#define KF_MAGIC "RBVTKF01"
#define KF_NAME_LEN 64
#define MAX_KFUNCS 64

struct kf_fix {
	uint32_t insn;
	char name[KF_NAME_LEN];
};

bool rb_is_rbvt(const void *buf, size_t size)
{
	return size >= 8 && !memcmp(buf, RB_RBVT_MAGIC, 8);
}

struct rd {
	const uint8_t *p;
	size_t left;
};

static bool take(struct rd *r, void *out, size_t n)
{
	if (r->left < n)
		return false;
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return true;
}

static bool u32(struct rd *r, uint32_t *v)
{
	return take(r, v, 4);
}

static bool str(struct rd *r, char *out, size_t n)
{
	if (!take(r, out, n) || !memchr(out, 0, n))
		return false;
	return true;
}

/* the BTF of the kernel the object is opened for (see the top), or NULL */
static struct btf *kernel_btf(const struct rb_load_opts *opts)
{
	if (opts && opts->btf_path)
		return btf__parse(opts->btf_path, NULL);
	if (opts && opts->kernel_inputs) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/btf", opts->kernel_inputs);
		return btf__parse(path, NULL);
	}
	return btf__load_vmlinux_btf();
}

/* libbpf 1.7 find_attach_btf_id/btf_attach_type: the name and kind a
 * tracing or LSM program's target has in vmlinux BTF */
static int attach_id(const struct btf *b, uint32_t eat, const char *name)
{
	const char *pre = "";
	int kind = BTF_KIND_FUNC;
	if (eat == BPF_TRACE_RAW_TP) {
		pre = "btf_trace_";
		kind = BTF_KIND_TYPEDEF;
	} else if (eat == BPF_LSM_MAC || eat == BPF_LSM_CGROUP) {
		pre = "bpf_lsm_";
	} else if (eat == BPF_TRACE_ITER) {
		pre = "bpf_iter_";
	}
	char full[160];
	snprintf(full, sizeof(full), "%s%s", pre, name);
	return btf__find_by_name_kind(b, full, kind);
}

static void resolve_ids(struct rb_prog *p, const struct kf_fix *kf, uint32_t kf_cnt, const struct rb_load_opts *opts)
{
	struct btf *b = kernel_btf(opts);
	if (!b)
		return; /* the recorded ids */
	for (uint32_t i = 0; i < kf_cnt; i++) {
		int id = btf__find_by_name_kind(b, kf[i].name, BTF_KIND_FUNC);
		p->insns[kf[i].insn].imm = id > 0 ? id : 0;
	}
	if ((p->prog_type == BPF_PROG_TYPE_TRACING || p->prog_type == BPF_PROG_TYPE_LSM) && p->attach_name[0]) {
		int id = attach_id(b, p->expected_attach_type, p->attach_name);
		if (id > 0)
			p->attach_btf_id = (uint32_t)id;
		else
			snprintf(p->error, sizeof(p->error), "attach target '%.100s' is not in the kernel's BTF",
				 p->attach_name);
	}
	btf__free(b);
}

int rb_open_rbvt(const char *path, const void *buf, size_t size, const struct rb_load_opts *opts,
		 struct rb_object *obj, struct rb_err *err)
{
	struct rd r = {(const uint8_t *)buf + 8, size >= 8 ? size - 8 : 0};
	uint32_t h[8];
	for (int i = 0; i < 8; i++)
		if (!u32(&r, &h[i]))
			return rb_errf(err, "%s: truncated verifier-test header", path);
	uint32_t prog_type = h[0], eat = h[1], flags = h[2], attach_id = h[3];
	uint32_t insn_cnt = h[4], map_cnt = h[5], btf_size = h[6], fi_cnt = h[7];
	if (insn_cnt == 0 || insn_cnt > RB_MAX_INSNS)
		return rb_errf(err, "%s: %u instructions (1..%u allowed)", path, insn_cnt, RB_MAX_INSNS);
	if (map_cnt > MAX_MAPS)
		return rb_errf(err, "%s: %u maps (at most %u)", path, map_cnt, MAX_MAPS);
	if (btf_size > MAX_BTF)
		return rb_errf(err, "%s: BTF of %u bytes (at most %u)", path, btf_size, MAX_BTF);
	if (fi_cnt > MAX_FUNC_INFO)
		return rb_errf(err, "%s: %u func_info records (at most %u)", path, fi_cnt, MAX_FUNC_INFO);
	if (prog_type == BPF_PROG_TYPE_UNSPEC || prog_type > 64)
		return rb_errf(err, "%s: unknown program type %u", path, prog_type);
	struct rb_prog *p = calloc(1, sizeof(*p));
	if (!p)
		return rb_errf(err, "%s: out of memory", path);
	obj->progs = p;
	obj->prog_cnt = 1;
	char attach[ATTACH_LEN];
	if (!str(&r, p->name, NAME_LEN) || !str(&r, p->section, SEC_LEN) || !str(&r, attach, ATTACH_LEN))
		return rb_errf(err, "%s: truncated or unterminated name fields", path);
	if (!p->name[0])
		return rb_errf(err, "%s: empty program name", path);
	if (map_cnt) {
		obj->maps = calloc(map_cnt, sizeof(*obj->maps));
		if (!obj->maps)
			return rb_errf(err, "%s: out of memory", path);
	}
	obj->map_cnt = map_cnt;
	for (uint32_t i = 0; i < map_cnt; i++) {
		struct rb_map *m = &obj->maps[i];
		char nm[MAP_NAME_LEN];
		uint32_t f[8];
		if (!str(&r, nm, sizeof(nm)))
			return rb_errf(err, "%s: map %u: truncated or unterminated name", path, i);
		for (int k = 0; k < 8; k++)
			if (!u32(&r, &f[k]))
				return rb_errf(err, "%s: map %u: truncated", path, i);
		snprintf(m->name, sizeof(m->name), "%s", nm);
		m->type = f[0];
		m->key_size = f[1];
		m->value_size = f[2];
		m->max_entries = f[3];
		m->map_flags = f[4];
		m->btf_key_type_id = f[5];
		m->btf_value_type_id = f[6];
		m->inner_map_idx = (int32_t)f[7];
		if (m->type == BPF_MAP_TYPE_UNSPEC || m->type > 64)
			return rb_errf(err, "%s: map %u: unknown map type %u", path, i, m->type);
		if (m->inner_map_idx != -1 && (m->inner_map_idx < 0 || (uint32_t)m->inner_map_idx >= map_cnt ||
					       (uint32_t)m->inner_map_idx == i))
			return rb_errf(err, "%s: map %u: bad inner map index %d", path, i, m->inner_map_idx);
		if ((m->btf_key_type_id || m->btf_value_type_id) && !btf_size)
			return rb_errf(err, "%s: map %u has BTF types but the file has no BTF", path, i);
	}
	for (uint32_t i = 0; i < map_cnt; i++) {
		int32_t in = obj->maps[i].inner_map_idx;
		if (in >= 0) {
			if (obj->maps[in].inner_map_idx != -1)
				return rb_errf(err, "%s: map %u: inner map %d is itself a map of maps", path, i, in);
			obj->maps[in].inner_template = true;
		}
	}
	if (btf_size) {
		obj->btf = malloc(btf_size);
		if (!obj->btf || !take(&r, obj->btf, btf_size))
			return rb_errf(err, "%s: truncated BTF", path);
		obj->btf_size = btf_size;
	}
	if (fi_cnt) {
		p->func_info = calloc(fi_cnt, 8);
		if (!p->func_info || !take(&r, p->func_info, (size_t)fi_cnt * 8))
			return rb_errf(err, "%s: truncated func_info", path);
		p->func_info_rec_size = 8;
		p->func_info_cnt = fi_cnt;
	}
	if (r.left < (size_t)insn_cnt * sizeof(struct bpf_insn))
		return rb_errf(err, "%s: %zu bytes of instructions, expected %u instructions", path, r.left, insn_cnt);
	p->insns = malloc((size_t)insn_cnt * sizeof(struct bpf_insn));
	if (!p->insns)
		return rb_errf(err, "%s: out of memory", path);
	take(&r, p->insns, (size_t)insn_cnt * sizeof(struct bpf_insn));
	p->insn_cnt = insn_cnt;
	struct kf_fix kf[MAX_KFUNCS];
	uint32_t kf_cnt = 0;
	if (r.left) {
		char magic[8];
		if (!take(&r, magic, 8) || memcmp(magic, KF_MAGIC, 8) || !u32(&r, &kf_cnt) || kf_cnt > MAX_KFUNCS)
			return rb_errf(err, "%s: %zu bytes after the instructions that are not a kfunc table", path,
				       r.left);
		for (uint32_t i = 0; i < kf_cnt; i++) {
			if (!u32(&r, &kf[i].insn) || !str(&r, kf[i].name, KF_NAME_LEN))
				return rb_errf(err, "%s: kfunc %u: truncated or unterminated", path, i);
			const struct bpf_insn *in = kf[i].insn < insn_cnt ? &p->insns[kf[i].insn] : NULL;
			if (!in || in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_KFUNC_CALL)
				return rb_errf(err, "%s: kfunc %u (%s) names insn %u, not a kfunc call", path, i,
					       kf[i].name, kf[i].insn);
		}
		if (r.left)
			return rb_errf(err, "%s: %zu bytes after the kfunc table", path, r.left);
	}
	for (uint32_t i = 0; i < insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) &&
		    (in->imm < 0 || (uint32_t)in->imm >= map_cnt))
			return rb_errf(err, "%s: insn %u refers to map %d of %u", path, i, in->imm, map_cnt);
	}
	p->prog_type = prog_type;
	p->expected_attach_type = eat;
	p->prog_flags = flags;
	p->attach_btf_id = attach_id;
	snprintf(p->attach_name, sizeof(p->attach_name), "%s", attach);
	p->autoload = true;
	p->type_known = true;
	snprintf(p->license, sizeof(p->license), "GPL");
	const char *tn = rb_prog_type_str(prog_type);
	snprintf(p->libbpf_type_name, sizeof(p->libbpf_type_name), "%s", tn ? tn : "");
	bool tracing = (prog_type == BPF_PROG_TYPE_TRACING || prog_type == BPF_PROG_TYPE_LSM) && attach[0];
	if (kf_cnt || tracing)
		resolve_ids(p, kf, kf_cnt, opts);
	return 0;
}
