/* helper_probe.h — which helpers the running kernel lets each program type
 * call, measured the way bpftool's feature probe does: one call-only
 * program per (program type, attach type, helper id), "cannot use helper"
 * or "invalid func" in the log meaning unavailable. A pair is probed the
 * first time a program needs it and kept for the process (about 260 tiny
 * loads). Only pairs the engine has compiled-in sets for are probed
 * (engine/prog_types.c); where bpf() is refused, or a pair's probe cannot
 * be trusted (an unknown helper id not reported unknown, or
 * bpf_map_lookup_elem not available), nothing is measured and the engine
 * keeps its compiled-in 6.18 set. */
#ifndef RB_ORACLE_HELPER_PROBE_H
#define RB_ORACLE_HELPER_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

#define RB_HELPER_PROBE_MAX 64

struct rb_helper_probe {
	int n;             /* pairs probed (measured or not) */
	int nmeasured;     /* of them, with a set from the running kernel */
	bool off;          /* never probe: bpf() refused, or the caller said so */
	struct {
		uint32_t type, attach;
		bool ok; /* set measured (so far: trusted, and no id without an answer) */
		bool partial; /* only the ids in known[] probed yet (rb_helper_probe_has) */
		uint64_t set[4];
		uint64_t known[4];
	} e[RB_HELPER_PROBE_MAX];
	struct rb_helper_source src; /* for rb_engine_opts.helpers */
};

/* ready to probe on demand; use_kernel false (or bpf() refused): never
 * probe, every set compiled-in */
void rb_helper_probe_init(struct rb_helper_probe *hp, bool use_kernel);
/* as rb_helper_probe_init, told rather than testing whether bpf() works
 * (a run's verifier child: its parent tested, and hands over the sets) */
void rb_helper_probe_init_off(struct rb_helper_probe *hp, bool off);
/* probe every pair with a compiled-in set now (about 9,000 loads) */
void rb_helper_probe_all(struct rb_helper_probe *hp);
/* the running kernel's set for a pair, probing it if needed; NULL: not measured */
const uint64_t *rb_helper_probe_set(struct rb_helper_probe *hp, uint32_t prog_type, uint32_t attach_type);
/* whether the running kernel's set for a pair holds helper id (1..255): 1
 * or 0, -1 when the pair is not measured. Probes the pair's two trust
 * probes at its first use, then each id the first time it is asked about
 * (a program calls a few helpers: a verification of one object asked the
 * kernel about all 255, about 10 ms of system time per pair). An id
 * without an answer marks the pair unmeasured from then on, as the full
 * probe marks it. rb_helper_probe_set() completes a partial pair. */
int rb_helper_probe_has(struct rb_helper_probe *hp, uint32_t prog_type, uint32_t attach_type, int32_t id);
/* whether a pair is measured (its trust probes run at its first use); no id probed */
bool rb_helper_probe_measured(struct rb_helper_probe *hp, uint32_t prog_type, uint32_t attach_type);
/* a pair measured elsewhere (a run's parent process, which probes each
 * pair once per run and hands the sets to its verifier children): kept as
 * if probed here; set NULL when the probe there could not be trusted */
void rb_helper_probe_seed(struct rb_helper_probe *hp, uint32_t prog_type, uint32_t attach_type,
			  const uint64_t *set);
/* the same for the ids in known only (the rest probed here if asked) */
void rb_helper_probe_seed_known(struct rb_helper_probe *hp, uint32_t prog_type, uint32_t attach_type,
				const uint64_t *set, const uint64_t *known);
/* where the sets came from: "kernel" (every pair probed was measured),
 * "compiled-6.18" (none), "kernel+compiled-6.18" (some) */
const char *rb_helper_probe_source(const struct rb_helper_probe *hp);
/* one probe: 1 available, 0 unavailable, -1 no answer to trust */
int rb_helper_probe_one(uint32_t prog_type, uint32_t attach_type, int32_t helper_id);

#endif
