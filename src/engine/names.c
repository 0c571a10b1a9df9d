/* names.c — helper names from the uapi header's __BPF_FUNC_MAPPER (in
 * enum order, so the position is the id) plus the Linux 6.18 helpers newer
 * than the header, kfunc names from vmlinux BTF. */
#include "engine/names.h"
#include "util/array_size.h"

#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stdio.h>

#define RB_HELPER_NAME(x) "bpf_" #x /* the mapper puts the commas */
static const char *const helper_names[] = {__BPF_FUNC_MAPPER(RB_HELPER_NAME)};
#define HEADER_CNT (ARRAY_SIZE(helper_names))

/* 6.18's helpers from id 210 on (Debian 12's header, Linux 6.1, ends at 209) */
static const char *const helper_names_618[RB_FUNC_MAX_ID - 210] = {"bpf_cgrp_storage_get", "bpf_cgrp_storage_delete"};

const char *rb_uapi_helper_name(int32_t id)
{
	if (id < 0 || id >= RB_FUNC_MAX_ID)
		return NULL;
	if ((size_t)id < HEADER_CNT)
		return helper_names[id];
	return id >= 210 ? helper_names_618[id - 210] : NULL;
}

const char *rb_helper_label(int32_t id, char *buf, size_t len)
{
	const char *nm = rb_uapi_helper_name(id);
	snprintf(buf, len, "%s#%d", nm ? nm : "unknown", id);
	return buf;
}

const char *rb_kfunc_name(const struct btf *vmlinux, int32_t id)
{
	if (!vmlinux || id <= 0)
		return NULL;
	const struct btf_type *t = btf__type_by_id(vmlinux, (uint32_t)id);
	if (!t || !btf_is_func(t))
		return NULL;
	return btf__name_by_offset(vmlinux, t->name_off);
}
