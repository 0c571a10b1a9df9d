/* schema_sql.c — embeds db/schema.sql, db/views.sql and db/migrations/ with
 * the assembler's .incbin (paths relative to the top of the checkout, where
 * make runs; the Makefile makes this object depend on those files). Each
 * file becomes a NUL-terminated string. */
#include "store/schema_sql.h"
#include "util/array_size.h"

#define RB_INCBIN(sym, file)                                                                   \
	__asm__(".pushsection .rodata\n"                                                       \
		".global " #sym "\n"                                                           \
		".type " #sym ", @object\n" #sym ":\n"                                         \
		".incbin \"" file "\"\n"                                                       \
		".byte 0\n"                                                                    \
		".size " #sym ", . - " #sym "\n"                                               \
		".popsection\n")

RB_INCBIN(rb_sql_schema, "db/schema.sql");
RB_INCBIN(rb_sql_views, "db/views.sql");
RB_INCBIN(rb_sql_migration_002, "db/migrations/002_census_bench.sql");
RB_INCBIN(rb_sql_migration_003, "db/migrations/003_verdict_words.sql");
RB_INCBIN(rb_sql_migration_004, "db/migrations/004_peak_rss.sql");
RB_INCBIN(rb_sql_migration_005, "db/migrations/005_helper_sets.sql");
RB_INCBIN(rb_sql_migration_006, "db/migrations/006_explain_provenance.sql");
RB_INCBIN(rb_sql_migration_007, "db/migrations/007_program_ordinal.sql");
RB_INCBIN(rb_sql_migration_008, "db/migrations/008_run_process.sql");
RB_INCBIN(rb_sql_migration_009, "db/migrations/009_kernel_rows.sql");
RB_INCBIN(rb_sql_migration_010, "db/migrations/010_kernel_attributions.sql");
RB_INCBIN(rb_sql_migration_011, "db/migrations/011_result_logs.sql");
RB_INCBIN(rb_sql_migration_012, "db/migrations/012_bench_spread.sql");

extern const char rb_sql_migration_002[];
extern const char rb_sql_migration_003[];
extern const char rb_sql_migration_004[];
extern const char rb_sql_migration_005[];
extern const char rb_sql_migration_006[];
extern const char rb_sql_migration_007[];
extern const char rb_sql_migration_008[];
extern const char rb_sql_migration_009[];
extern const char rb_sql_migration_010[];
extern const char rb_sql_migration_011[];
extern const char rb_sql_migration_012[];

const struct rb_migration rb_migrations[] = {
	{2, rb_sql_migration_002},
	{3, rb_sql_migration_003},
	{4, rb_sql_migration_004},
	{5, rb_sql_migration_005},
	{6, rb_sql_migration_006},
	{7, rb_sql_migration_007},
	{8, rb_sql_migration_008},
	{9, rb_sql_migration_009},
	{10, rb_sql_migration_010},
	{11, rb_sql_migration_011},
	{12, rb_sql_migration_012},
};
const unsigned rb_migration_count = ARRAY_SIZE(rb_migrations);
