/* verify.c — rb_verify(): one program of an opened object, verified by the
 * tracker named in the options: "kernel" is the running kernel through
 * bpf() (oracle/kload.h); "old" and "cnum" are the userspace engine
 * (engine/engine.h) with that scalar tracker at 64 bits. */
#include "verify/verify.h"

#include <string.h>

#include "engine/engine.h"
#include "oracle/kload.h"
#include "tracker/tracker.h"

int rb_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_verify_opts *opts,
	      struct rb_result *res, struct rb_err *err)
{
	const char *name = opts && opts->tracker ? opts->tracker : "old";
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu (%zu programs)", obj->path, prog_idx, obj->prog_cnt);
	if (!strcmp(name, "kernel")) {
		struct rb_kload_opts ko = {.want_log = opts && opts->log, .log = opts ? opts->log : NULL};
		return rb_kload_object_prog(obj, prog_idx, &ko, res, err);
	}
	const struct rb_tracker *t = rb_tracker_get(name, 64);
	if (!t)
		return rb_errf(err, "unknown tracker '%s' (old, cnum, kernel)", name);
	struct rb_engine_opts eo = {
		.insn_limit = opts ? opts->insn_limit : 0,
		.time_limit_s = opts ? opts->time_limit_s : 0,
		.log = opts ? opts->log : NULL,
		.vmlinux = opts ? opts->vmlinux : NULL,
	};
	return rb_engine_verify(obj, prog_idx, t, &eo, res, err);
}
