/* legacy_btf_maps.h — BTF-defined maps (".maps") for the loader's own
 * path, for objects that mix them with legacy SEC("maps") definitions
 * (see legacy_btf_maps.c). Internal to the loader. */
#ifndef RB_LOADER_LEGACY_BTF_MAPS_H
#define RB_LOADER_LEGACY_BTF_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "loader/elf_view.h"
#include "loader/object.h"

/* Number of maps the object's ".maps" section defines (0 if none). */
size_t rb_btf_maps_count(const struct rb_elf *e);

/* Append them (and their inner-map templates) to obj->maps, which has room
 * for cap maps; offs[i] gets each new map's offset in ".maps" (UINT64_MAX
 * for templates). *nparsed: maps appended, templates not counted. */
int rb_btf_maps_parse(const struct rb_elf *e, struct rb_object *obj, size_t cap, uint64_t *offs,
		      size_t *nparsed, struct rb_err *err);

#endif
