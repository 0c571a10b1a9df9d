/* writer.h — one writer thread for many producers.
 *
 * Worker threads hand finished result rows to rb_writer_put(); one thread
 * owns the database connection and stores them in batches, one transaction
 * per batch (at most `batch` rows, or whatever is queued when it wakes).
 * rb_writer_finish() stores everything still queued, joins the thread and
 * reports the first error. Rows are copied; the caller keeps its own. */
#ifndef RB_STORE_WRITER_H
#define RB_STORE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct rb_writer;

/* The writer uses st exclusively until rb_writer_finish(). */
int rb_writer_start(struct rb_store *st, size_t batch, struct rb_writer **out, struct rb_err *err);
/* Queue a copy of row; thread-safe. Returns < 0 once the writer failed. */
int rb_writer_put(struct rb_writer *w, const struct rb_result_row *row);
/* Store what is queued, stop the thread, free w. Returns the number of
 * rows stored, or < 0 with err set if any batch failed. */
int64_t rb_writer_finish(struct rb_writer *w, struct rb_err *err);

#endif
