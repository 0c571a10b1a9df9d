/* helper_probe.c — the running kernel's helper sets (see helper_probe.h).
 * A probe is `call id; r0 = 0; exit` loaded with a level-1 log: the
 * kernel's get_func_proto answer is in the first message (6.18
 * check_helper_call: "invalid func" for an id it does not know, "program
 * of this type cannot use helper" for one the type's get_func_proto does
 * not give); any other outcome (loaded, an argument refused, the return
 * code refused) means the helper is there. */
#include "oracle/helper_probe.h"

#include <linux/bpf.h>
#include <string.h>
#include <unistd.h>

#include "engine/prog_types.h"
#include "oracle/bpf_sys.h"

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int rb_helper_probe_one(uint32_t prog_type, uint32_t attach_type, int32_t helper_id)
{
	struct bpf_insn prog[3] = {
		{.code = BPF_JMP | BPF_CALL, .imm = helper_id},
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	char log[512];
	log[0] = 0;
	struct rb_prog_load_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = prog_type;
	a.expected_attach_type = attach_type;
	/* syscall programs load only sleepable */
	a.prog_flags = prog_type == BPF_PROG_TYPE_SYSCALL ? BPF_F_SLEEPABLE : 0;
	a.insn_cnt = 3;
	a.insns = ptr(prog);
	a.license = ptr("GPL");
	a.log_level = 1;
	a.log_size = sizeof(log);
	a.log_buf = ptr(log);
	int fd = rb_sys_prog_load(&a);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	/* an empty log (EPERM, ENOMEM, a type that needs an attach type):
	 * no answer about the helper; any message other than these two is
	 * about a later check (arguments, bpf_get_func_ip's ENOTSUPP, ...) */
	log[sizeof(log) - 1] = 0;
	if (strstr(log, "invalid func") || strstr(log, "unknown func") || strstr(log, "cannot use helper"))
		return 0;
	return log[0] ? 1 : -1;
}

/* whether a pair's probe can be trusted: an id beyond every kernel's
 * helpers must be reported unknown, one every type has,
 * bpf_map_lookup_elem, available */
static bool probe_trusted(uint32_t type, uint32_t attach)
{
	return rb_helper_probe_one(type, attach, 100000) == 0 &&
	       rb_helper_probe_one(type, attach, BPF_FUNC_map_lookup_elem) == 1;
}

#define BIT(a, id) (((a)[(id) / 64] >> ((id) % 64)) & 1)

/* id of pair i probed (not yet known); false when it has no answer */
static bool probe_id(struct rb_helper_probe *hp, int i, int id)
{
	int r = rb_helper_probe_one(hp->e[i].type, hp->e[i].attach, id);
	if (r < 0) {
		hp->e[i].ok = false;
		hp->nmeasured--;
		return false;
	}
	hp->e[i].known[id / 64] |= 1ull << (id % 64);
	if (r)
		hp->e[i].set[id / 64] |= 1ull << (id % 64);
	return true;
}

/* the entry of a pair, made (its trust probed) at its first use; -1 when
 * it cannot be kept */
static int entry(struct rb_helper_probe *hp, uint32_t type, uint32_t attach)
{
	for (int i = 0; i < hp->n; i++)
		if (hp->e[i].type == type && hp->e[i].attach == attach)
			return i;
	if (hp->n >= RB_HELPER_PROBE_MAX)
		return -1;
	int i = hp->n++;
	memset(&hp->e[i], 0, sizeof(hp->e[i]));
	hp->e[i].type = type;
	hp->e[i].attach = attach;
	hp->e[i].ok = probe_trusted(type, attach);
	hp->e[i].partial = true;
	if (hp->e[i].ok) { /* the trust probe's answer for bpf_map_lookup_elem */
		hp->e[i].known[0] |= 1ull << BPF_FUNC_map_lookup_elem;
		hp->e[i].set[0] |= 1ull << BPF_FUNC_map_lookup_elem;
	}
	hp->nmeasured += hp->e[i].ok;
	return i;
}

const uint64_t *rb_helper_probe_set(struct rb_helper_probe *hp, uint32_t type, uint32_t attach)
{
	int i = hp->off ? -1 : entry(hp, type, attach);
	if (i < 0)
		return NULL;
	for (int id = 1; id < 256 && hp->e[i].ok && hp->e[i].partial; id++)
		if (!BIT(hp->e[i].known, id))
			probe_id(hp, i, id);
	hp->e[i].partial = false;
	return hp->e[i].ok ? hp->e[i].set : NULL;
}

bool rb_helper_probe_measured(struct rb_helper_probe *hp, uint32_t type, uint32_t attach)
{
	int i = hp->off ? -1 : entry(hp, type, attach);
	return i >= 0 && hp->e[i].ok;
}

int rb_helper_probe_has(struct rb_helper_probe *hp, uint32_t type, uint32_t attach, int32_t id)
{
	int i = hp->off ? -1 : entry(hp, type, attach);
	if (i < 0 || !hp->e[i].ok)
		return -1;
	if (id <= 0 || id >= 256)
		return 0;
	if (hp->e[i].partial && !BIT(hp->e[i].known, id) && !probe_id(hp, i, id))
		return -1;
	return (int)BIT(hp->e[i].set, id);
}

void rb_helper_probe_seed(struct rb_helper_probe *hp, uint32_t type, uint32_t attach, const uint64_t *set)
{
	rb_helper_probe_seed_known(hp, type, attach, set, NULL);
}

void rb_helper_probe_seed_known(struct rb_helper_probe *hp, uint32_t type, uint32_t attach, const uint64_t *set,
				const uint64_t *known)
{
	if (hp->off || hp->n >= RB_HELPER_PROBE_MAX)
		return;
	for (int i = 0; i < hp->n; i++)
		if (hp->e[i].type == type && hp->e[i].attach == attach)
			return;
	int i = hp->n++;
	memset(&hp->e[i], 0, sizeof(hp->e[i]));
	hp->e[i].type = type;
	hp->e[i].attach = attach;
	hp->e[i].ok = set != NULL;
	if (set && known) {
		hp->e[i].partial = true;
		memcpy(hp->e[i].known, known, sizeof(hp->e[i].known));
	}
	if (set)
		memcpy(hp->e[i].set, set, sizeof(hp->e[i].set));
	hp->nmeasured += hp->e[i].ok;
}

static const uint64_t *lookup(void *ctx, uint32_t type, uint32_t attach)
{
	return rb_helper_probe_set(ctx, type, attach);
}

static int lookup_id(void *ctx, uint32_t type, uint32_t attach, int32_t id)
{
	return rb_helper_probe_has(ctx, type, attach, id);
}

void rb_helper_probe_init_off(struct rb_helper_probe *hp, bool off)
{
	memset(hp, 0, sizeof(*hp));
	hp->src.ctx = hp;
	hp->src.set = lookup;
	hp->src.has = lookup_id;
	hp->off = off;
}

void rb_helper_probe_init(struct rb_helper_probe *hp, bool use_kernel)
{
	rb_helper_probe_init_off(hp, !use_kernel || !rb_bpf_available(NULL));
}

void rb_helper_probe_all(struct rb_helper_probe *hp)
{
	uint32_t keys[RB_HELPER_PROBE_MAX][2];
	size_t nk = rb_prog_helper_set_keys(keys, RB_HELPER_PROBE_MAX);
	for (size_t i = 0; i < nk && i < RB_HELPER_PROBE_MAX; i++)
		rb_helper_probe_set(hp, keys[i][0], keys[i][1]);
}

const char *rb_helper_probe_source(const struct rb_helper_probe *hp)
{
	if (hp->off || !hp->nmeasured)
		return "compiled-6.18";
	return hp->nmeasured == hp->n ? "kernel" : "kernel+compiled-6.18";
}
