/* object.c — rb_object_open(): read the file, check its structure
 * (elf_view.c), then open it with libbpf (open_libbpf.c) or, for legacy
 * objects that libbpf 1.x refuses or sees no program in, with our own ELF
 * path (open_legacy.c); then give every program a type (prog_type.c).
 * Files of the verifier-tests corpus (the kernel's test_verifier tables,
 * one raw program per file, types given) go to open_rbvt.c; progen batch
 * files (progdiff's random programs for a guest) to progen/batch.c. */
#include "loader/object.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "loader/bpf_standin.h"
#include "loader/elf_view.h"
#include "loader/open_paths.h"
#include "loader/prog_type.h"
#include "loader/sha256.h"
#include "loader/type_hints.h"
#include "progen/batch.h"
#include "util/file.h"

/* code sections other than .text (program sections), and whether .text has code */
static size_t program_sections(const struct rb_elf *e, bool *text)
{
	size_t n = 0;
	*text = false;
	for (size_t i = 1; i < e->nsec; i++) {
		const struct rb_elf_sec *s = &e->secs[i];
		if (s->sh.sh_type != SHT_PROGBITS || !(s->sh.sh_flags & SHF_EXECINSTR) || !s->sh.sh_size)
			continue;
		if (!strcmp(s->name, ".text"))
			*text = true;
		else
			n++;
	}
	return n;
}

static const char *no_program_reason(const struct rb_elf *e)
{
	bool text;
	if (program_sections(e, &text))
		return "its code sections hold no program symbol";
	return text ? "code only in .text, all of it sub-programs" : "no code section (data or maps only)";
}

/* CO-RE relocations in .BTF.ext (header field core_relo_len, from hdr_len 32) */
static bool has_core_relos(const struct rb_elf *e)
{
	if (!e->btf_ext)
		return false;
	const struct rb_elf_sec *s = &e->secs[e->btf_ext];
	if (s->sh.sh_size < 32 || rb_rd32(s->data + 4) < 32)
		return false;
	return rb_rd32(s->data + 28) != 0;
}

static void object_clear(struct rb_object *obj)
{
	for (size_t i = 0; i < obj->map_cnt; i++)
		free(obj->maps[i].init);
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		free(obj->progs[i].insns);
		free(obj->progs[i].func_info);
		free(obj->progs[i].line_info);
	}
	free(obj->maps);
	free(obj->progs);
	free(obj->btf);
	obj->maps = NULL;
	obj->progs = NULL;
	obj->btf = NULL;
	obj->map_cnt = obj->prog_cnt = 0;
	obj->btf_size = 0;
	obj->legacy_maps = obj->own_path = obj->iproute2 = false;
}

/* a program libbpf left out for a call to a function without definition */
static bool calls_undefined(const struct rb_object *obj)
{
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (strstr(obj->progs[i].error, "calls a function the object does not define"))
			return true;
	return false;
}

/* Legacy SEC("maps") objects go to our own path. Everything else goes to
 * libbpf; when libbpf refuses the object or finds no program in it
 * although it has program sections (static or STT_NOTYPE program
 * symbols, iproute2-style sections, BTF maps with tc's pinning values,
 * objects from old toolchains), our own path tries, unless the object
 * needs what only libbpf does (CO-RE relocations). libbpf's error stands
 * if both fail. */
/* a call in .text relocated against a symbol the object does not define */
static bool text_calls_undefined(const struct rb_elf *e)
{
	for (size_t i = 1; i < e->nsec; i++) {
		const struct rb_elf_sec *rs = &e->secs[i];
		if (rs->sh.sh_type != SHT_REL || !rs->data || strcmp(e->secs[rs->sh.sh_info].name, ".text"))
			continue;
		const struct rb_elf_sec *t = &e->secs[rs->sh.sh_info];
		for (size_t k = 0; k < rs->sh.sh_size / sizeof(Elf64_Rel); k++) {
			Elf64_Rel r;
			memcpy(&r, rs->data + k * sizeof(r), sizeof(r));
			Elf64_Sym s = rb_elf_sym(e, ELF64_R_SYM(r.r_info));
			/* elf_view.c checked the offset against the section */
			if (s.st_shndx == SHN_UNDEF && t->data && r.r_offset + 8 <= t->sh.sh_size &&
			    t->data[r.r_offset] == (BPF_JMP | BPF_CALL))
				return true;
		}
	}
	return false;
}

static int open_either(const struct rb_elf *elf, const struct rb_load_opts *opts, struct rb_object *obj,
		       struct rb_err *err)
{
	if (elf->legacy_maps) {
		obj->legacy_maps = obj->own_path = true;
		return rb_open_legacy(elf, obj, err);
	}
	/* libbpf 1.1 takes the lone function of a .text-only object for a
	 * program; when it calls a function no object defines,
	 * bpf_object__reloc_code copies overlapping memory (ASan
	 * memcpy-param-overlap, heap corruption: tests/objects/hostile/,
	 * found again by make fuzz). Our own path keeps the call for the
	 * verifier, as it does in other objects. */
	bool text_only;
	if (program_sections(elf, &text_only) == 0 && text_only && text_calls_undefined(elf)) {
		obj->own_path = true;
		return rb_open_legacy(elf, obj, err);
	}
	int ret = rb_open_libbpf(elf, opts, obj, err);
	bool text;
	size_t nsec = program_sections(elf, &text);
	/* libbpf leaves out a program that calls a function the object does
	 * not define (open_libbpf.c drop_extern); our own path keeps it, the
	 * call as the file has it, for the verifier to reject as the kernel
	 * does (issue 9: report that verdict). Without CO-RE relocations that
	 * path is as exact, so it is preferred when it keeps every program. */
	bool undefined_call = ret == 0 && calls_undefined(obj);
	if (has_core_relos(elf) || !nsec || (ret == 0 && obj->prog_cnt > 0 && !undefined_call))
		return ret;
	struct rb_object alt = {0};
	struct rb_err aerr = {{0}};
	if (rb_open_legacy(elf, &alt, &aerr) == 0 && alt.prog_cnt > 0 &&
	    (!undefined_call || alt.prog_cnt >= obj->prog_cnt)) {
		object_clear(obj);
		obj->maps = alt.maps;
		obj->map_cnt = alt.map_cnt;
		obj->progs = alt.progs;
		obj->prog_cnt = alt.prog_cnt;
		obj->btf = alt.btf;
		obj->btf_size = alt.btf_size;
		obj->own_path = true;
		obj->iproute2 = alt.iproute2;
		return 0;
	}
	object_clear(&alt);
	return ret;
}

/* An object without a "license" section: libbpf loads its programs with
 * an empty license (not GPL-compatible: the kernel refuses GPL-only
 * helpers and kfuncs); --license gives one instead. */
static void apply_license(const struct rb_elf *e, const struct rb_load_opts *opts, struct rb_object *obj)
{
	for (size_t i = 1; i < e->nsec; i++)
		if (!strcmp(e->secs[i].name, "license"))
			return;
	obj->no_license = true;
	if (!opts || !opts->license)
		return;
	obj->license_given = true;
	for (size_t i = 0; i < obj->prog_cnt; i++)
		snprintf(obj->progs[i].license, sizeof(obj->progs[i].license), "%s", opts->license);
}

void rb_object_license_note(const struct rb_object *obj, char *buf, size_t len)
{
	if (!obj->no_license)
		snprintf(buf, len, "%s", "");
	else if (obj->license_given)
		snprintf(buf, len, "no license section: loaded with license '%s' (--license)",
			 obj->prog_cnt ? obj->progs[0].license : "");
	else
		snprintf(buf, len, "no license section: loaded with an empty license, as libbpf does "
				   "(GPL-only helpers and kfuncs refused; --license LICENSE to give one)");
}

void rb_object_types_line(const struct rb_object *obj, char *buf, size_t len)
{
	size_t at = 0;
	bool any = false;
	buf[0] = 0;
	for (size_t i = 0; i < obj->prog_cnt && at < len; i++) {
		const struct rb_prog *p = &obj->progs[i];
		any |= p->type_known && strcmp(p->type_from, "libbpf");
		const char *by = !p->type_known ? "no rule: unknown"
				 : p->type_rule[0] ? p->type_rule
						   : p->type_from;
		int w = snprintf(buf + at, len - at, "%s%s %s by %s", i ? ", " : "types: ", p->name,
				 p->type_known && p->libbpf_type_name[0] ? p->libbpf_type_name : "-", by);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (!any)
		buf[0] = 0;
}

int rb_object_open_mem(const char *path, const void *buf, size_t size, const struct rb_load_opts *opts,
		       struct rb_object **out, struct rb_err *err)
{
	*out = NULL;
	struct rb_object *obj = calloc(1, sizeof(*obj));
	if (!obj)
		return rb_errf(err, "%s: out of memory", path);
	snprintf(obj->path, sizeof(obj->path), "%s", path);
	obj->file_size = size;
	rb_sha256_hex(buf, size, obj->sha256);
	/* a scratch context for the whole open, so that libbpf messages from
	 * calls outside a load (section-name lookups) are captured too */
	struct rb_standin scratch = {.lend = opts ? opts->lend_btf : NULL};
	libbpf_set_print(rb_standin_libbpf_print);
	struct rb_standin *prev = rb_standin_begin(&scratch);
	struct rb_elf elf;
	int ret;
	if (rb_is_rbvt(buf, size)) {
		ret = rb_open_rbvt(path, buf, size, opts, obj, err);
	} else if (rb_progen_is_batch(buf, size)) {
		ret = rb_progen_open_batch(path, buf, size, obj, err);
	} else if ((ret = rb_elf_parse(&elf, path, buf, size, err)) == 0) {
		ret = open_either(&elf, opts, obj, err);
		if (ret == 0)
			apply_license(&elf, opts, obj);
		if (ret == 0)
			ret = rb_map_fix_object(obj, err);
		if (ret == 0)
			ret = rb_resolve_prog_types(obj, opts, err);
		if (ret == 0)
			rb_fill_prog_arrays(obj);
		if (ret == 0 && obj->prog_cnt == 0)
			ret = rb_errf(err, "%s: no programs: %s", path, no_program_reason(&elf));
		rb_elf_free(&elf);
	}
	rb_standin_end(prev);
	rb_standin_free(&scratch);
	if (ret) {
		rb_object_free(obj);
		return -1;
	}
	*out = obj;
	return 0;
}

int rb_object_open(const char *path, const struct rb_load_opts *opts, struct rb_object **out,
		   struct rb_err *err)
{
	*out = NULL;
	uint8_t *buf = NULL;
	size_t size = 0;
	if (rb_read_file(path, RB_MAX_FILE_SIZE, &buf, &size, err))
		return -1;
	/* the type hints of the object's directory, unless the caller has them */
	struct rb_type_hints hints;
	bool found = false;
	struct rb_load_opts with = opts ? *opts : (struct rb_load_opts){0};
	if (!with.hints && rb_type_hints_load(path, &hints, &found, err)) {
		free(buf);
		return -1;
	}
	if (found)
		with.hints = &hints;
	int ret = rb_object_open_mem(path, buf, size, &with, out, err);
	if (found)
		rb_type_hints_free(&hints);
	free(buf);
	return ret;
}

void rb_object_free(struct rb_object *obj)
{
	if (!obj)
		return;
	object_clear(obj);
	free(obj);
}

void rb_prog_undefined_note(const struct rb_prog *p, char *buf, size_t len)
{
	if (!p->undefined_calls[0]) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len,
		 "calls %s, not defined in this object (a function of another object to link in first, "
		 "e.g. with bpftool gen object, or an uninlined library call): the verdict is for the call "
		 "left unresolved",
		 p->undefined_calls);
}

bool rb_prog_set_names(struct rb_prog *p, const char *name, const char *section)
{
	size_t nl = strlen(name), sl = strlen(section);
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->section, sizeof(p->section), "%s", section);
	if (nl < sizeof(p->name) && sl < sizeof(p->section))
		return true;
	snprintf(p->error, sizeof(p->error), "%s of %zu bytes is longer than the %zu rangebench keeps: not verified",
		 nl >= sizeof(p->name) ? "program name" : "section name", nl >= sizeof(p->name) ? nl : sl,
		 (nl >= sizeof(p->name) ? sizeof(p->name) : sizeof(p->section)) - 1);
	return false;
}
