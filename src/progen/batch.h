/* batch.h — a batch of progen programs as one object file (issue 22:
 * progdiff against a kernel image). The file is one line of text,
 *
 *   RBPROGEN1 FAMILY SEED FIRST COUNT DIGEST
 *
 * and opens (rb_object_open) into an object of COUNT programs: programs
 * FIRST .. FIRST+COUNT-1 of FAMILY for SEED, each as rb_progen_object
 * builds it (named "FAMILY_INDEX", its own maps: map indexes shifted).
 * A guest booted with this rangebench binary generates the very programs
 * the host did from these words, so a batch of ten thousand programs
 * costs a guest's initramfs a few bytes. DIGEST (16 hex digits) is an
 * FNV-1a digest of the programs' instructions and maps as the writer
 * generated them: a binary whose progen generates other programs refuses
 * the file, and the guest's result cache, keyed by the file's contents,
 * never answers for programs it did not verify. */
#ifndef RB_PROGEN_BATCH_H
#define RB_PROGEN_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"
#include "util/err.h"

#define RB_PROGEN_BATCH_MAGIC "RBPROGEN1 "
#define RB_PROGEN_BATCH_MAX 20000 /* programs in one batch file */

bool rb_progen_is_batch(const void *buf, size_t size);
/* Fill obj (zeroed, path and sha256 set by the caller) from a batch
 * file's contents: 0, or -1 with err naming path and what is wrong. */
int rb_progen_open_batch(const char *path, const void *buf, size_t size, struct rb_object *obj,
			 struct rb_err *err);
/* Write a batch file: 0, or -1 with err. */
int rb_progen_write_batch(const char *path, int family, uint64_t seed, uint64_t first, uint64_t count,
			  struct rb_err *err);

#endif
