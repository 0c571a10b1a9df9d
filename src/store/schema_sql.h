/* schema_sql.h — the SQL files of db/ embedded into the binary, so a
 * database can be created or upgraded wherever rangebench runs. */
#ifndef RB_STORE_SCHEMA_SQL_H
#define RB_STORE_SCHEMA_SQL_H

/* db/schema.sql: the current schema, for a new database */
extern const char rb_sql_schema[];
/* db/views.sql: every view, re-created on each open */
extern const char rb_sql_views[];

/* db/migrations/NNN_*.sql: the step that produces schema version NNN */
struct rb_migration {
	int version;
	const char *sql;
};
extern const struct rb_migration rb_migrations[];
extern const unsigned rb_migration_count;

#endif
