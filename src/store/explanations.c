/* explanations.c — rb_store_explanation() (explanations.h). */
#include "store/explanations.h"

#include <sqlite3.h>

#include "store/store_impl.h"

static void bind_insn(sqlite3_stmt *s, int i, int v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int(s, i, v);
}

int rb_store_explanation(struct rb_store *st, const struct rb_explanation_row *r, struct rb_err *err)
{
	sqlite3 *db = rb_store_db(st);
	sqlite3_stmt *s;
	static const char sql[] =
		"INSERT OR REPLACE INTO explanations (run_id, program_id, baseline, candidate, part, part_insn, "
		"deciding, first_insn, cause_insn, cause_loc, cause_text, source_line, class, counterfactual, "
		"cf_given, explained, more_causes, explained_at) "
		"SELECT ?1, p.id, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
		"strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM programs p "
		"JOIN results res ON res.program_id = p.id AND res.run_id = ?1 AND res.tracker = ?4 "
		"WHERE p.obj_path = ?2 AND p.name = ?3 LIMIT 1";
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "%s: prepare explanation insert: %s", rb_store_path(st), sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, r->run_id);
	rb_bind_text(s, 2, r->obj_path);
	rb_bind_text(s, 3, r->program);
	rb_bind_text(s, 4, r->baseline);
	rb_bind_text(s, 5, r->candidate);
	rb_bind_text(s, 6, r->part);
	bind_insn(s, 7, r->part_insn);
	rb_bind_text(s, 8, r->deciding);
	bind_insn(s, 9, r->first_insn);
	bind_insn(s, 10, r->cause_insn);
	rb_bind_text(s, 11, r->cause_loc);
	rb_bind_text(s, 12, r->cause_text);
	rb_bind_text(s, 13, r->source_line);
	rb_bind_text(s, 14, r->cls);
	rb_bind_text(s, 15, r->counterfactual);
	rb_bind_text(s, 16, r->cf_given);
	sqlite3_bind_int(s, 17, r->explained);
	rb_bind_text(s, 18, r->more_causes);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return rb_errf(err, "%s: store explanation of %s: %s", rb_store_path(st), r->program,
			       sqlite3_errmsg(db));
	return 0;
}
