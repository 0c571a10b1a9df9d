/* pool.h — a block pool for one verification's many same-sized blocks
 * (verifier states, their frames and stack slots): blocks of up to
 * RB_POOL_MAX_BLOCK bytes come from big chunks, in size classes of 64
 * bytes, and a freed block goes on its class's free list for the next
 * one. Chunks of 2 MiB and more are asked to be backed by transparent huge
 * pages (madvise MADV_HUGEPAGE), so that the memory a long exploration
 * keeps costs one page fault per 2 MiB instead of one per 4 KiB (pyperf600
 * keeps 170 MB of states: 47,000 faults, half of old's exploration time in
 * a VM where a fault is dear). Everything goes when the pool is deleted.
 *
 * A pool kept from one verification to the next (rb_pool_reset) carves
 * the next one's blocks from memory already faulted in: in the VMs these
 * were measured on, a first touch costs about 16 us per 4 KiB page, and a
 * huge page the guest has not backed yet 0.5-1 GB/s of zeroing, where
 * memory used again is written at 10 GB/s.
 *
 * Each block starts with a 16-byte header naming its pool and class, so
 * that a block can be freed or grown without knowing where it came from;
 * rb_pool_alloc(NULL, n) is a plain malloc with the header (a block that
 * outlives every pool). A block of 2 MiB or more is mapped on its own,
 * with huge pages; a pool's stays mapped when freed and across a reset
 * (within the 256 MiB kept), for the pool's next big block that fits
 * (liveness's per-insn masks, verification after verification), while
 * one without a pool is unmapped when freed. Under
 * AddressSanitizer free blocks and the unused part of a chunk are
 * poisoned, so a use after free is still caught. */
#ifndef RB_UTIL_POOL_H
#define RB_UTIL_POOL_H

#include <stddef.h>

#define RB_POOL_MAX_BLOCK 8192

struct rb_pool;

/* NULL when out of memory */
struct rb_pool *rb_pool_new(void);
/* every block of the pool goes (a NULL pool: nothing) */
void rb_pool_delete(struct rb_pool *p);
/* every block of the pool is free again (none may be used after this),
 * the pool's chunks and then its big blocks kept, up to 256 MiB, for the
 * next blocks */
void rb_pool_reset(struct rb_pool *p);
/* the same, keeping no chunk or big block: the next blocks come from
 * fresh memory */
void rb_pool_release(struct rb_pool *p);

/* n bytes (16-byte aligned) from p, or from malloc when p is NULL or n is
 * larger than RB_POOL_MAX_BLOCK (and under 2 MiB: a mapping of its own
 * from there, p's when p is not NULL); NULL when out of memory */
void *rb_pool_alloc(struct rb_pool *p, size_t n);
void *rb_pool_calloc(struct rb_pool *p, size_t n);
/* a block of rb_pool_alloc (or NULL) back to where it came from */
void rb_pool_free(void *b);
/* the pool a block came from (NULL: malloc, or a mapping of no pool) */
struct rb_pool *rb_pool_of(const void *b);
/* b grown or shrunk to n bytes, from b's pool (p when b is NULL or has
 * none), its first min(old, n) bytes kept, as realloc; NULL (b kept) when
 * out of memory */
void *rb_pool_realloc(struct rb_pool *p, void *b, size_t n);

#endif
