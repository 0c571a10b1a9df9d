/* provenance.h — what tree a run was made from: the commit and the
 * uncommitted diff (hash and text) runinfo.h recorded, read back for
 * `compare` and `explain`. */
#ifndef RB_STORE_PROVENANCE_H
#define RB_STORE_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"
#include "util/err.h"

struct rb_provenance {
	char commit[64];      /* "" unknown */
	int dirty;            /* -1 unknown */
	char diff_sha256[65]; /* "" none recorded */
	char *diff;           /* malloc'd text, or NULL */
};

int rb_store_run_provenance(struct rb_store *st, int64_t run_id, struct rb_provenance *p, struct rb_err *err);
void rb_provenance_free(struct rb_provenance *p);
/* one line: "commit 1234abcd5678 + uncommitted diff sha256 9abc... (N lines)",
 * "commit ... (clean)", or "commit unknown" */
void rb_provenance_line(const struct rb_provenance *p, char *buf, size_t len);

#endif
