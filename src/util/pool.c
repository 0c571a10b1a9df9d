/* pool.c — the block pool of pool.h: size classes of 64 bytes, a free list
 * per class, chunks of 64 KiB, 256 KiB (malloc: small pages, for the many
 * small programs), then 2 MiB and 4 MiB mapped on their own, 2 MiB
 * aligned, with MADV_HUGEPAGE (one fault per 2 MiB: ld_abs_vlan_abs_test_1
 * keeps 1.7 MB of states, 400 small-page faults when the chunks grew by
 * doubling to 2 MiB, 16 us each here). A block of 2 MiB or more is a
 * mapping of its own, which its pool keeps (struct big). */
#include "util/pool.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define RB_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RB_POOL_ASAN 1
#endif
#endif
#ifdef RB_POOL_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(a, n) ASAN_POISON_MEMORY_REGION((a), (n))
#define UNPOISON(a, n) ASAN_UNPOISON_MEMORY_REGION((a), (n))
#else
#define POISON(a, n) ((void)(a), (void)(n))
#define UNPOISON(a, n) ((void)(a), (void)(n))
#endif

#define GRAIN 64
#define HDR 16
#define NCLS ((RB_POOL_MAX_BLOCK + HDR + GRAIN - 1) / GRAIN)
#define HEAP_CLS UINT32_MAX /* a block of malloc */
#define MAP_CLS (UINT32_MAX - 1) /* a block mapped on its own, huge pages */
#define BIG_CLS (UINT32_MAX - 2) /* the same, of a pool: kept when freed */
#define KEEP ((size_t)256 << 20) /* the chunks rb_pool_reset keeps */
#define FIRST_CHUNK ((size_t)64 << 10)
#define MAX_CHUNK ((size_t)4 << 20)
#define HUGE ((size_t)2 << 20)

/* a block's header; on a free list, next is the next free block; a
 * mapped block's length in len */
struct hdr {
	union {
		struct rb_pool *pool;
		struct hdr *next;
		size_t len;
	};
	uint32_t cls;
	uint32_t size;
};
_Static_assert(sizeof(struct hdr) == HDR, "a block's header is 16 bytes");

/* at the start of each chunk */
struct chunk {
	struct chunk *next;
	size_t size;
	int mapped;
};
#define CHUNK_HDR ((sizeof(struct chunk) + GRAIN - 1) / GRAIN * GRAIN)

/* at the start of a pool's block of 2 MiB or more, its header at
 * GRAIN - HDR and the block at GRAIN: kept mapped when freed, for the
 * pool's next big block (liveness's masks, 64 bytes an insn: a new
 * mapping per verification faulted ~30 huge pages in each, which the
 * host had taken back in between, ~2 ms each) */
struct big {
	struct big *next;
	size_t len; /* of the mapping */
	size_t n;   /* the block's bytes */
	int used;
};
_Static_assert(sizeof(struct big) <= GRAIN - HDR, "a big block's record fits before its header");

/* chunks in the order they were made; cur is the one being carved; bigs:
 * the big blocks, used or free */
struct rb_pool {
	struct hdr *free[NCLS];
	struct chunk *chunks, *cur;
	struct big *bigs;
	char *bump;
	size_t left, next_size;
};

struct rb_pool *rb_pool_new(void)
{
	struct rb_pool *p = calloc(1, sizeof(*p));
	if (p)
		p->next_size = FIRST_CHUNK;
	return p;
}

/* (unpoisoned first: ASan's shadow of an unmapped range stays as it
 * was, and the next mapping there would read as poisoned) */
static void chunk_free(struct chunk *c)
{
	UNPOISON(c, c->size);
	if (c->mapped)
		munmap(c, c->size);
	else
		free(c);
}

static void big_unmap(struct big *b)
{
	UNPOISON(b, b->len);
	munmap(b, b->len);
}

void rb_pool_delete(struct rb_pool *p)
{
	if (!p)
		return;
	for (struct chunk *c = p->chunks, *n; c; c = n) {
		n = c->next;
		chunk_free(c);
	}
	for (struct big *b = p->bigs, *n; b; b = n) {
		n = b->next;
		big_unmap(b);
	}
	free(p);
}

/* size bytes, 2 MiB aligned and madvised for huge pages; NULL on failure */
static void *map_huge(size_t size)
{
	size_t len = size + HUGE;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (a > m)
		munmap(m, (size_t)(a - m));
	if (a + size < m + len)
		munmap(a + size, (size_t)(m + len - (a + size)));
	madvise(a, size, MADV_HUGEPAGE); /* advice: without it, small pages */
	return a;
}

static void carve(struct rb_pool *p, struct chunk *c)
{
	p->cur = c;
	p->bump = (char *)c + CHUNK_HDR;
	p->left = c->size - CHUNK_HDR;
	POISON(p->bump, p->left);
}

/* the next chunk to carve: one kept by rb_pool_reset, or a new one */
static int new_chunk(struct rb_pool *p)
{
	if (p->cur && p->cur->next) {
		carve(p, p->cur->next);
		return 0;
	}
	size_t size = p->next_size;
	struct chunk *c = size >= HUGE ? map_huge(size) : malloc(size);
	if (!c)
		return -1;
	c->next = NULL;
	c->size = size;
	c->mapped = size >= HUGE;
	if (p->cur)
		p->cur->next = c;
	else
		p->chunks = c;
	carve(p, c);
	p->next_size = size < (FIRST_CHUNK << 2) ? FIRST_CHUNK << 2 : size < HUGE ? HUGE : MAX_CHUNK;
	return 0;
}

static void reset_keeping(struct rb_pool *p, size_t keep)
{
	if (!p)
		return;
	memset(p->free, 0, sizeof(p->free));
	size_t kept = 0;
	struct chunk **link = &p->chunks;
	while (*link) {
		struct chunk *c = *link;
		if (kept + c->size > keep) {
			*link = c->next;
			chunk_free(c);
			continue;
		}
		kept += c->size;
		POISON((char *)c + CHUNK_HDR, c->size - CHUNK_HDR);
		link = &c->next;
	}
	/* then the big blocks, free, in the order they were made */
	for (struct big **bl = &p->bigs; *bl;) {
		struct big *b = *bl;
		if (kept + b->len > keep) {
			*bl = b->next;
			big_unmap(b);
			continue;
		}
		kept += b->len;
		if (b->used)
			POISON((char *)b + GRAIN - HDR, b->len - (GRAIN - HDR));
		b->used = 0;
		bl = &b->next;
	}
	p->cur = NULL;
	p->bump = NULL;
	p->left = 0;
	if (p->chunks)
		carve(p, p->chunks);
	else
		p->next_size = FIRST_CHUNK;
}

void rb_pool_reset(struct rb_pool *p)
{
	reset_keeping(p, KEEP);
}

void rb_pool_release(struct rb_pool *p)
{
	reset_keeping(p, 0);
}

/* a big block of pool p: the smallest free one it fits in (zeroed when
 * asked: it was used before), else a new mapping (zero) */
static void *big_alloc(struct rb_pool *p, size_t n, bool zero)
{
	struct big *b = NULL;
	for (struct big *c = p->bigs; c; c = c->next)
		if (!c->used && c->len - GRAIN >= n && (!b || c->len < b->len))
			b = c;
	bool fresh = !b;
	if (fresh) {
		size_t len = (n + GRAIN + HUGE - 1) & ~(HUGE - 1);
		if (!(b = map_huge(len)))
			return NULL;
		b->len = len;
		b->next = p->bigs;
		p->bigs = b;
	}
	b->used = 1;
	b->n = n;
	struct hdr *h = (struct hdr *)((char *)b + GRAIN - HDR);
	UNPOISON(h, HDR + n);
	h->pool = p;
	h->cls = BIG_CLS;
	h->size = 0;
	if (zero && !fresh)
		memset(h + 1, 0, n);
	return h + 1;
}

static void *alloc(struct rb_pool *p, size_t n, bool zero)
{
	struct hdr *h;
	if (p && n + HDR >= HUGE)
		return big_alloc(p, n, zero);
	if (n + HDR >= HUGE) {
		size_t len = (n + HDR + HUGE - 1) & ~(HUGE - 1);
		if (!(h = map_huge(len)))
			return NULL;
		h->len = len;
		h->cls = MAP_CLS;
		h->size = 0;
		return h + 1;
	}
	if (!p || n > RB_POOL_MAX_BLOCK) {
		/* (calloc: memory glibc maps afresh is not written, its pages
		 * are faulted in as they are used) */
		if (!(h = zero ? calloc(1, HDR + (n ? n : 1)) : malloc(HDR + (n ? n : 1))))
			return NULL;
		h->pool = NULL;
		h->cls = HEAP_CLS;
		h->size = (uint32_t)n;
		return h + 1;
	}
	uint32_t cls = (uint32_t)((n + HDR + GRAIN - 1) / GRAIN - 1);
	size_t bytes = (size_t)(cls + 1) * GRAIN;
	if ((h = p->free[cls])) {
		UNPOISON(h, bytes);
		p->free[cls] = h->next;
	} else {
		if (p->left < bytes && new_chunk(p))
			return NULL;
		h = (struct hdr *)p->bump;
		UNPOISON(h, bytes);
		p->bump += bytes;
		p->left -= bytes;
	}
	h->pool = p;
	h->cls = cls;
	h->size = (uint32_t)n;
	if (zero)
		memset(h + 1, 0, n);
	return h + 1;
}

void *rb_pool_alloc(struct rb_pool *p, size_t n)
{
	return alloc(p, n, false);
}

/* (a block mapped afresh, or of calloc, is zero already, and its pages
 * stay untouched until used) */
void *rb_pool_calloc(struct rb_pool *p, size_t n)
{
	return alloc(p, n, true);
}

static struct big *big_of(struct hdr *h)
{
	return (struct big *)((char *)h - (GRAIN - HDR));
}

void rb_pool_free(void *b)
{
	if (!b)
		return;
	struct hdr *h = (struct hdr *)b - 1;
	if (h->cls == HEAP_CLS) {
		free(h);
		return;
	}
	if (h->cls == MAP_CLS) {
		munmap(h, h->len);
		return;
	}
	if (h->cls == BIG_CLS) {
		struct big *bb = big_of(h);
		bb->used = 0;
		POISON(h, bb->len - (GRAIN - HDR));
		return;
	}
	struct rb_pool *p = h->pool;
	uint32_t cls = h->cls;
	h->next = p->free[cls];
	p->free[cls] = h;
	POISON(h, (size_t)(cls + 1) * GRAIN);
}

struct rb_pool *rb_pool_of(const void *b)
{
	const struct hdr *h = (const struct hdr *)b - 1;
	return h->cls == MAP_CLS ? NULL : h->pool;
}

void *rb_pool_realloc(struct rb_pool *p, void *b, size_t n)
{
	if (!b)
		return rb_pool_alloc(p, n);
	struct hdr *h = (struct hdr *)b - 1;
	if (h->cls == HEAP_CLS && n + HDR < HUGE) {
		struct hdr *nh = realloc(h, HDR + (n ? n : 1));
		if (!nh)
			return NULL;
		nh->size = (uint32_t)n;
		return nh + 1;
	}
	if (h->cls < BIG_CLS && n <= RB_POOL_MAX_BLOCK && (n + HDR + GRAIN - 1) / GRAIN - 1 == h->cls) {
		h->size = (uint32_t)n;
		return b;
	}
	if (h->cls == BIG_CLS && n + HDR >= HUGE && n <= big_of(h)->len - GRAIN) {
		struct big *bb = big_of(h);
		UNPOISON((char *)b, n);
		bb->n = n;
		return b;
	}
	size_t old = h->cls == MAP_CLS ? h->len - HDR : h->cls == BIG_CLS ? big_of(h)->n : h->size;
	void *nb = rb_pool_alloc(h->cls >= MAP_CLS ? p : h->pool, n);
	if (!nb)
		return NULL;
	memcpy(nb, b, old < n ? old : n);
	rb_pool_free(b);
	return nb;
}
