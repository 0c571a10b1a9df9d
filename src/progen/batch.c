/* batch.c — progen batch files (see batch.h). */
#include "progen/batch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/uapi_names.h"
#include "progen/progen.h"

bool rb_progen_is_batch(const void *buf, size_t size)
{
	size_t m = strlen(RB_PROGEN_BATCH_MAGIC);
	return size >= m && !memcmp(buf, RB_PROGEN_BATCH_MAGIC, m);
}

/* one program of the batch into obj->progs[i], its maps from *nmaps on */
static int add_prog(struct rb_object *obj, size_t i, size_t *nmaps, const struct rb_progen_prog *p)
{
	struct rb_progen_object h;
	rb_progen_object(p, &h);
	struct rb_prog *dst = &obj->progs[i];
	*dst = h.prog;
	const char *tn = rb_prog_type_str(p->prog_type);
	snprintf(dst->libbpf_type_name, sizeof(dst->libbpf_type_name), "%s", tn ? tn : "");
	snprintf(dst->type_from, sizeof(dst->type_from), "object");
	dst->insns = malloc(p->insn_cnt * sizeof(struct bpf_insn));
	if (!dst->insns)
		return -1;
	memcpy(dst->insns, p->insns, p->insn_cnt * sizeof(struct bpf_insn));
	size_t base = *nmaps;
	for (size_t m = 0; m < h.obj.map_cnt; m++)
		obj->maps[(*nmaps)++] = h.maps[m];
	for (size_t k = 0; k < dst->insn_cnt; k++) {
		struct bpf_insn *in = &dst->insns[k];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (in->src_reg == BPF_PSEUDO_MAP_IDX || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE))
			in->imm += (int32_t)base;
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
			k++;
	}
	return 0;
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *c = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * 0x100000001b3ull;
	return h;
}

/* the digest of one more program */
static uint64_t digest_prog(uint64_t h, const struct rb_progen_prog *p)
{
	h = fnv(h, p->insns, p->insn_cnt * sizeof(struct bpf_insn));
	for (size_t m = 0; m < p->map_cnt; m++) {
		const struct rb_progen_map *d = &p->maps[m];
		uint32_t f[4] = {d->type, d->key_size, d->value_size, d->max_entries};
		h = fnv(h, f, sizeof(f));
	}
	return fnv(h, &p->prog_type, sizeof(p->prog_type));
}

int rb_progen_open_batch(const char *path, const void *buf, size_t size, struct rb_object *obj,
			 struct rb_err *err)
{
	char line[160], fam[40], nl = 0;
	if (size >= sizeof(line))
		return rb_errf(err, "%s: a progen batch file is one short line (%zu bytes)", path, size);
	memcpy(line, buf, size);
	line[size] = 0;
	uint64_t seed, first, count, want;
	int used = 0;
	if (sscanf(line, "RBPROGEN1 %39s %" SCNu64 " %" SCNu64 " %" SCNu64 " %16" SCNx64 "%c%n", fam, &seed, &first,
		   &count, &want, &nl, &used) != 6 ||
	    nl != '\n' || (size_t)used != size)
		return rb_errf(err, "%s: not a progen batch line 'RBPROGEN1 FAMILY SEED FIRST COUNT DIGEST'", path);
	int f = rb_progen_family_find(fam);
	if (f < 0)
		return rb_errf(err, "%s: no progen family '%s'", path, fam);
	if (count == 0 || count > RB_PROGEN_BATCH_MAX || first > UINT64_MAX - count)
		return rb_errf(err, "%s: %" PRIu64 " programs from %" PRIu64 " (1..%u in a batch)", path, count, first,
			       RB_PROGEN_BATCH_MAX);
	obj->progs = calloc((size_t)count, sizeof(*obj->progs));
	obj->maps = calloc((size_t)count * RB_PROGEN_MAX_MAPS, sizeof(*obj->maps));
	struct rb_progen_prog *p = malloc(sizeof(*p));
	int rc = obj->progs && obj->maps && p ? 0 : -1;
	size_t nmaps = 0;
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; rc == 0 && i < count; i++) {
		rb_progen_generate(f, seed, first + i, p);
		h = digest_prog(h, p);
		rc = add_prog(obj, (size_t)i, &nmaps, p);
		obj->prog_cnt = (size_t)i + (rc == 0);
	}
	obj->map_cnt = nmaps;
	free(p);
	if (rc < 0)
		return rb_errf(err, "%s: out of memory", path);
	if (h != want)
		return rb_errf(err,
			       "%s: the programs generated here have digest %016" PRIx64 ", the file says %016" PRIx64
			       " (written by a rangebench whose progen generates other programs)",
			       path, h, want);
	return 0;
}

int rb_progen_write_batch(const char *path, int family, uint64_t seed, uint64_t first, uint64_t count,
			  struct rb_err *err)
{
	const char *name = rb_progen_family_name(family);
	if (!name)
		return rb_errf(err, "progen batch: no family %d", family);
	struct rb_progen_prog *p = malloc(sizeof(*p));
	if (!p)
		return rb_errf(err, "progen batch: out of memory");
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; i < count; i++) {
		rb_progen_generate(family, seed, first + i, p);
		h = digest_prog(h, p);
	}
	free(p);
	FILE *f = fopen(path, "w");
	if (!f)
		return rb_errf(err, "%s: cannot create: %s", path, strerror(errno));
	fprintf(f, "%s%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", RB_PROGEN_BATCH_MAGIC, name, seed, first,
		count, h);
	if (fclose(f) != 0)
		return rb_errf(err, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}
