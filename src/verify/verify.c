/* verify.c — rb_verify(): one program of an opened object, verified by the
 * tracker named in the options: the running kernel (RB_KERNEL_RUNNING,
 * kernels/kernels.h) through bpf() (oracle/kload.h); every registry
 * tracker ("old", "cnum", ..., tracker.h) is the userspace engine
 * (engine/engine.h) with that scalar tracker at 64 bits. A kernel image
 * of kernels.conf verifies whole batches in a guest (guest/guest.h), never
 * one program here. */
#include "util/cpus.h"
#include "verify/verify.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "engine/profile.h"
#include "kernels/kernels.h"
#include "loader/prog_type.h"
#include "oracle/kload.h"
#include "oracle/kstruct.h"
#include "tracker/tracker.h"

const char *rb_verify_row_inputs(const char *tracker, const char *given, char *out, size_t len)
{
	char base[64], name[32];
	const struct rb_profile *prof = tracker ? rb_profile_split(tracker, base, sizeof(base)) : NULL;
	if (!prof || prof == rb_profile_default() || !rb_tracker_get(base, 64))
		return NULL;
	if (given)
		return strcmp(given, "none") && snprintf(out, len, "%s", given) < (int)len ? out : NULL;
	struct rb_kernel k;
	struct rb_err e;
	struct stat sb;
	char dir[4096];
	snprintf(name, sizeof(name), "kernel-%s", prof->name);
	if (rb_kernel_find(name, &k, &e) || k.backend == RB_KBACK_RUNNING)
		return NULL;
	rb_kernel_dir(&k, dir, sizeof(dir));
	if (!dir[0] || snprintf(out, len, "%s/inputs", dir) >= (int)len)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/btf", out);
	return stat(dir, &sb) == 0 && S_ISREG(sb.st_mode) ? out : NULL;
}

int rb_verify(const struct rb_object *obj, size_t prog_idx, const struct rb_verify_opts *opts,
	      struct rb_result *res, struct rb_err *err)
{
	const char *name = opts && opts->tracker ? opts->tracker : RB_ROLE_BASELINE;
	if (prog_idx >= obj->prog_cnt)
		return rb_errf(err, "%s: no program %zu (%zu programs)", obj->path, prog_idx, obj->prog_cnt);
	/* "NAME@PROFILE": the engine with tracker NAME following that kernel profile */
	char base[64];
	const struct rb_profile *prof = rb_profile_split(name, base, sizeof(base));
	const struct rb_tracker *t = prof ? rb_tracker_get(base, 64) : NULL;
	if (!t && !rb_kernel_is_running(name)) {
		if (rb_kernel_known(name))
			return rb_errf(err, "tracker '%s' is a kernel image: it verifies in a guest, not here", name);
		char names[256];
		rb_tracker_names(names, sizeof(names), ", ", true);
		return rb_errf(err, "unknown tracker '%s' (%s; NAME@PROFILE)", name, names);
	}
	if (prof && opts && opts->profile)
		prof = opts->profile;
	if (rb_prog_prepare_outcome(&obj->progs[prog_idx], res))
		return 0;
	if (rb_kernel_is_running(name)) {
		struct rb_kload_opts ko = {
			.want_log = opts && opts->log, .log = opts ? opts->log : NULL, .log_head = opts ? opts->log_head : 0,
			.ksyms = opts ? opts->ksyms : NULL};
		int rc = rb_kload_object_prog(obj, prog_idx, &ko, res, err);
		/* the kernel's own sizes, from its BTF: one bpf_reg_state, and
		 * a bpf_verifier_state with one bpf_func_state */
		struct rb_kstruct_sizes ks;
		if (rc == 0 && opts && opts->vmlinux && !rb_kstruct_sizes(rb_vmlinux_get(opts->vmlinux), &ks)) {
			res->reg_state_bytes = ks.reg;
			res->state_bytes = (uint64_t)ks.vstate + ks.func;
		}
		return rc;
	}
	struct rb_engine_opts eo = {
		.insn_limit = opts ? opts->insn_limit : 0,
		.time_limit_s = opts ? opts->time_limit_s : 0,
		.log = opts ? opts->log : NULL,
		.vmlinux = opts ? opts->vmlinux : NULL,
		/* helper sets measured on the running kernel hold where the
		 * profile takes 6.18's sets */
		.helpers = opts && !prof->helper_sets_72 ? opts->helpers : NULL,
		.rec = opts ? opts->rec : NULL,
		.profile = prof,
		/* the running kernel's nr_cpu_ids */
		.nr_cpu_ids = rb_possible_cpus(),
		.pool = opts ? opts->pool : NULL,
	};
	return rb_engine_verify(obj, prog_idx, t, &eo, res, err);
}
