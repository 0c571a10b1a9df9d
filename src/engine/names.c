/* names.c — helper names from the uapi header's __BPF_FUNC_MAPPER (in
 * enum order, so the position is the id), kfunc names from vmlinux BTF. */
#include "engine/names.h"

#include <bpf/btf.h>
#include <linux/bpf.h>

#define RB_HELPER_NAME(x) "bpf_" #x /* the mapper puts the commas */
static const char *const helper_names[] = {__BPF_FUNC_MAPPER(RB_HELPER_NAME)};

const char *rb_uapi_helper_name(int32_t id)
{
	if (id <= 0 || (size_t)id >= sizeof(helper_names) / sizeof(helper_names[0]))
		return NULL;
	return helper_names[id];
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
