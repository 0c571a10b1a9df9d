#include "loader/open_paths.h"
int rb_open_legacy(const struct rb_elf *elf, struct rb_object *obj, struct rb_err *err)
{
	(void)obj;
	return rb_errf(err, "%s: legacy maps not yet supported", elf->path);
}
