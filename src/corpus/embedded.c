/* embedded.c — find BPF ELF objects embedded in other files (see embedded.h).
 * Field offsets follow the ELF-64 specification (System V gABI); all reads
 * are little-endian by construction, independent of the host. */
#include "corpus/embedded.h"
#include "util/grow.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum {
	EHDR_SIZE = 64, /* sizeof(Elf64_Ehdr) */
	SHDR_SIZE = 64, /* sizeof(Elf64_Shdr) */
	PHDR_SIZE = 56, /* sizeof(Elf64_Phdr) */
	SHT_NOBITS_ = 8,
	SHN_LORESERVE_ = 0xff00,
};

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

/* end = off + cnt * ent, false on overflow */
static bool span_end(uint64_t off, uint64_t cnt, uint64_t ent, uint64_t *end)
{
	if (ent && cnt > UINT64_MAX / ent)
		return false;
	uint64_t bytes = cnt * ent;
	if (off > UINT64_MAX - bytes)
		return false;
	*end = off + bytes;
	return true;
}

__attribute__((format(printf, 3, 4))) static enum rb_embedded_check bad(char *reason, size_t reason_len,
									  const char *fmt, ...)
{
	if (reason && reason_len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(reason, reason_len, fmt, ap);
		va_end(ap);
	}
	return RB_EMB_BAD;
}

enum rb_embedded_check rb_embedded_check(const uint8_t *buf, size_t len, size_t off, size_t *size,
					 char *reason, size_t reason_len)
{
	static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
	if (off > len || len - off < 20)
		return RB_EMB_NOT_BPF;
	const uint8_t *h = buf + off;
	uint64_t avail = len - off;
	/* EI_CLASS 2 = 64-bit, EI_DATA 1 = little-endian, e_machine at 18 */
	if (memcmp(h, magic, 4) || h[4] != 2 || h[5] != 1 || rd16(h + 18) != RB_EM_BPF)
		return RB_EMB_NOT_BPF;
	if (avail < EHDR_SIZE)
		return bad(reason, reason_len, "ELF header truncated: %llu of 64 bytes present",
			   (unsigned long long)avail);
	if (h[6] != 1 || rd32(h + 20) != 1)
		return bad(reason, reason_len, "unknown ELF version %u/%u", h[6], rd32(h + 20));
	uint64_t phoff = rd64(h + 32), shoff = rd64(h + 40);
	uint16_t ehsize = rd16(h + 52), phentsize = rd16(h + 54), phnum = rd16(h + 56);
	uint16_t shentsize = rd16(h + 58), shnum = rd16(h + 60), shstrndx = rd16(h + 62);
	if (ehsize != EHDR_SIZE)
		return bad(reason, reason_len, "e_ehsize %u, expected 64", ehsize);
	if (shentsize != SHDR_SIZE)
		return bad(reason, reason_len, "e_shentsize %u, expected 64", shentsize);
	if (shnum == 0)
		return bad(reason, reason_len, "no section headers (e_shnum 0; extended numbering unsupported)");
	if (shnum >= SHN_LORESERVE_)
		return bad(reason, reason_len, "e_shnum %u in the reserved range", shnum);
	if (shstrndx >= shnum)
		return bad(reason, reason_len, "e_shstrndx %u out of range (e_shnum %u)", shstrndx, shnum);
	uint64_t end = EHDR_SIZE, e;
	if (shoff < EHDR_SIZE)
		return bad(reason, reason_len, "section header table at 0x%llx overlaps the ELF header",
			   (unsigned long long)shoff);
	if (!span_end(shoff, shnum, SHDR_SIZE, &e) || e > avail)
		return bad(reason, reason_len,
			   "section header table (offset 0x%llx, %u entries) extends past the end of the file (%llu bytes left)",
			   (unsigned long long)shoff, shnum, (unsigned long long)avail);
	end = e;
	if (phnum) {
		if (phentsize != PHDR_SIZE)
			return bad(reason, reason_len, "e_phentsize %u, expected 56", phentsize);
		if (!span_end(phoff, phnum, PHDR_SIZE, &e) || e > avail)
			return bad(reason, reason_len, "program header table extends past the end of the file");
		if (e > end)
			end = e;
	}
	for (uint16_t i = 0; i < shnum; i++) {
		const uint8_t *s = h + shoff + (uint64_t)i * SHDR_SIZE;
		uint32_t type = rd32(s + 4);
		uint64_t soff = rd64(s + 24), ssize = rd64(s + 32);
		if (type == 0 /* SHT_NULL */ || type == SHT_NOBITS_ || ssize == 0)
			continue;
		if (!span_end(soff, 1, ssize, &e) || e > avail)
			return bad(reason, reason_len,
				   "section %u (offset 0x%llx, size %llu) extends past the end of the file (%llu bytes left)",
				   i, (unsigned long long)soff, (unsigned long long)ssize, (unsigned long long)avail);
		if (e > end)
			end = e;
	}
	*size = (size_t)end;
	return RB_EMB_OK;
}

int rb_embedded_scan(const uint8_t *buf, size_t len, const char *name, struct rb_embedded_list *out,
		     struct rb_err *err)
{
	static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
	size_t cap = 0, bad_cap = 0, pos = 0;
	memset(out, 0, sizeof(*out));
	while (pos < len && len - pos >= 4) {
		const uint8_t *p = memmem(buf + pos, len - pos, magic, 4);
		if (!p)
			break;
		size_t off = (size_t)(p - buf), size = 0;
		char why[sizeof(out->bad[0].reason)];
		enum rb_embedded_check c = rb_embedded_check(buf, len, off, &size, why, sizeof(why));
		if (c == RB_EMB_OK) {
			if (RB_GROW(out->objs, out->cnt + 1, &cap, 8) < 0)
				goto nomem;
			out->objs[out->cnt++] = (struct rb_embedded){off, size};
			pos = off + size;
		} else {
			if (c == RB_EMB_BAD) {
				if (RB_GROW(out->bad, out->bad_cnt + 1, &bad_cap, 8) < 0)
					goto nomem;
				struct rb_embedded_bad *b = &out->bad[out->bad_cnt++];
				b->offset = off;
				snprintf(b->reason, sizeof(b->reason), "%s", why);
			}
			pos = off + 1;
		}
	}
	return 0;
nomem:
	rb_embedded_list_free(out);
	return rb_errf(err, "%s: out of memory while scanning for embedded BPF objects", name);
}

void rb_embedded_list_free(struct rb_embedded_list *l)
{
	free(l->objs);
	free(l->bad);
	memset(l, 0, sizeof(*l));
}
