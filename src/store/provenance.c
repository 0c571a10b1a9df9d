/* provenance.c — rb_store_run_provenance() (provenance.h). */
#include "store/provenance.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

int rb_store_run_provenance(struct rb_store *st, int64_t run_id, struct rb_provenance *p, struct rb_err *err)
{
	memset(p, 0, sizeof(*p));
	p->dirty = -1;
	sqlite3 *db = rb_store_db(st);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT git_commit, git_dirty, diff_sha256, diff_text FROM runs WHERE id = ?1", -1,
			       &s, NULL) != SQLITE_OK)
		return rb_errf(err, "%s: read run provenance: %s", rb_store_path(st), sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(s, 0);
		const char *h = (const char *)sqlite3_column_text(s, 2);
		const char *d = (const char *)sqlite3_column_text(s, 3);
		snprintf(p->commit, sizeof(p->commit), "%s", c ? c : "");
		if (sqlite3_column_type(s, 1) != SQLITE_NULL)
			p->dirty = sqlite3_column_int(s, 1);
		snprintf(p->diff_sha256, sizeof(p->diff_sha256), "%s", h ? h : "");
		p->diff = d ? strdup(d) : NULL;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rb_errf(err, "%s: no run %lld", rb_store_path(st), (long long)run_id);
	return 0;
}

void rb_provenance_free(struct rb_provenance *p)
{
	free(p->diff);
	p->diff = NULL;
}

void rb_provenance_line(const struct rb_provenance *p, char *buf, size_t len)
{
	if (!p->commit[0]) {
		snprintf(buf, len, "commit unknown");
		return;
	}
	if (!p->diff_sha256[0]) {
		snprintf(buf, len, "commit %.12s%s", p->commit,
			 p->dirty > 0 ? " + uncommitted changes (no diff recorded)" : p->dirty == 0 ? " (clean)" : "");
		return;
	}
	size_t lines = 0;
	for (const char *c = p->diff; c && *c; c++)
		lines += *c == '\n';
	snprintf(buf, len, "commit %.12s + uncommitted diff sha256 %.16s (%zu lines)", p->commit, p->diff_sha256,
		 lines);
}
