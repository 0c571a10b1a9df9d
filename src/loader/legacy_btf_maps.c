/* legacy_btf_maps.c — BTF-defined maps (section ".maps") for the loader's
 * own path (open_legacy.c), for objects that have them next to legacy
 * SEC("maps") definitions (libbpf 1.x refuses those objects whole).
 *
 * The layout is libbpf's (parse_btf_map_def in libbpf 1.1): the ".maps"
 * DATASEC lists one VAR per map; the VAR's type is a struct whose members
 * encode the definition: an integer field N (type, max_entries, map_flags,
 * key_size, value_size, map_extra, pinning, numa_node) is a pointer to an
 * array of N elements, "key"/"value" are pointers to the key/value type
 * (their size is the size), and "values" is an array of pointers to the
 * inner map's own definition (map-in-map), from which the inner template
 * is made. Initial contents (".rel.maps" for prog arrays) are user space's
 * business and not read. */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "loader/legacy_btf_maps.h"

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	for (int depth = 0; t && depth < 32 && (btf_is_mod(t) || btf_is_typedef(t)); depth++) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/* the N of `int (*name)[N]` */
static bool int_field(const struct btf *btf, const struct btf_member *m, uint32_t *val)
{
	const struct btf_type *t = skip_mods(btf, m->type, NULL);
	if (!t || !btf_is_ptr(t))
		return false;
	const struct btf_type *a = skip_mods(btf, t->type, NULL);
	if (!a || !btf_is_array(a))
		return false;
	*val = btf_array(a)->nelems;
	return true;
}

static int parse_def(const struct btf *btf, const struct btf_type *def, struct rb_map *m, struct rb_map *inner,
		     bool *has_inner, const char *path, struct rb_err *err)
{
	const struct btf_member *mem = btf_members(def);
	for (int i = 0; i < btf_vlen(def); i++, mem++) {
		const char *name = btf__name_by_offset(btf, mem->name_off);
		uint32_t v = 0;
		if (!name)
			continue;
		if (!strcmp(name, "key") || !strcmp(name, "value")) {
			const struct btf_type *t = skip_mods(btf, mem->type, NULL);
			long sz = t && btf_is_ptr(t) ? btf__resolve_size(btf, t->type) : -1;
			if (sz < 0 || sz > UINT32_MAX)
				return rb_errf(err, "%s: map '%s': bad %s type", path, m->name, name);
			if (name[0] == 'k')
				m->key_size = (uint32_t)sz;
			else
				m->value_size = (uint32_t)sz;
		} else if (!strcmp(name, "values")) {
			const struct btf_type *a = skip_mods(btf, mem->type, NULL);
			const struct btf_type *p = a && btf_is_array(a) ? skip_mods(btf, btf_array(a)->type, NULL) : NULL;
			const struct btf_type *d = p && btf_is_ptr(p) ? skip_mods(btf, p->type, NULL) : NULL;
			if (!inner || !d || !btf_is_struct(d))
				return rb_errf(err, "%s: map '%s': bad values definition", path, m->name);
			snprintf(inner->name, sizeof(inner->name), "%.56s.inner", m->name);
			inner->inner_map_idx = -1;
			inner->inner_template = true;
			if (parse_def(btf, d, inner, NULL, NULL, path, err))
				return -1;
			*has_inner = true;
		} else if (int_field(btf, mem, &v)) {
			if (!strcmp(name, "type"))
				m->type = v;
			else if (!strcmp(name, "max_entries"))
				m->max_entries = v;
			else if (!strcmp(name, "map_flags"))
				m->map_flags = v;
			else if (!strcmp(name, "key_size"))
				m->key_size = v;
			else if (!strcmp(name, "value_size"))
				m->value_size = v;
			else if (!strcmp(name, "map_extra"))
				m->map_extra = v;
			/* pinning, numa_node: the loading program's business */
		}
	}
	return 0;
}

static const struct btf_type *maps_datasec(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC);
	return id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
}

size_t rb_btf_maps_count(const struct rb_elf *e)
{
	if (!e->btf)
		return 0;
	struct btf *btf = btf__new(e->secs[e->btf].data, e->secs[e->btf].sh.sh_size);
	if (!btf)
		return 0;
	const struct btf_type *sec = maps_datasec(btf);
	size_t n = sec ? (size_t)btf_vlen(sec) : 0;
	btf__free(btf);
	return n;
}

int rb_btf_maps_parse(const struct rb_elf *e, struct rb_object *obj, size_t cap, uint64_t *offs,
		      size_t *nparsed, struct rb_err *err)
{
	*nparsed = 0;
	if (!e->btf)
		return 0;
	struct btf *btf = btf__new(e->secs[e->btf].data, e->secs[e->btf].sh.sh_size);
	if (!btf)
		return rb_errf(err, "%s: .BTF cannot be parsed for the .maps definitions", e->path);
	const struct btf_type *sec = maps_datasec(btf);
	size_t maps_shndx = 0;
	for (size_t i = 1; i < e->nsec; i++)
		if (!strcmp(e->secs[i].name, ".maps"))
			maps_shndx = i;
	int ret = 0;
	const struct btf_var_secinfo *vi = sec ? btf_var_secinfos(sec) : NULL;
	for (int i = 0; sec && i < btf_vlen(sec) && !ret; i++, vi++) {
		const struct btf_type *var = btf__type_by_id(btf, vi->type);
		const struct btf_type *def = var && btf_is_var(var) ? skip_mods(btf, var->type, NULL) : NULL;
		if (!def || !btf_is_struct(def)) {
			ret = rb_errf(err, "%s: .maps entry %d is not a map definition", e->path, i);
			break;
		}
		if (obj->map_cnt + 2 > cap) {
			ret = rb_errf(err, "%s: too many maps", e->path);
			break;
		}
		struct rb_map *m = &obj->maps[obj->map_cnt], *in = &obj->maps[obj->map_cnt + 1];
		memset(m, 0, sizeof(*m) * 2);
		snprintf(m->name, sizeof(m->name), "%s", btf__name_by_offset(btf, var->name_off));
		m->inner_map_idx = -1;
		bool has_inner = false;
		ret = parse_def(btf, def, m, in, &has_inner, e->path, err);
		/* clang leaves the DATASEC offsets to the loader (libbpf fills
		 * them from the symbol table): so do we */
		offs[obj->map_cnt] = UINT64_MAX;
		for (size_t k = 1; e->symtab && k < e->nsyms; k++) {
			Elf64_Sym sym = rb_elf_sym(e, k);
			if (sym.st_shndx == maps_shndx && !strcmp(rb_elf_sym_name(e, &sym), m->name)) {
				offs[obj->map_cnt] = sym.st_value;
				break;
			}
		}
		obj->map_cnt++;
		(*nparsed)++;
		if (!ret && has_inner) {
			m->inner_map_idx = (int32_t)obj->map_cnt;
			offs[obj->map_cnt] = UINT64_MAX; /* no symbol: only a template */
			obj->map_cnt++;
		}
	}
	btf__free(btf);
	return ret;
}
