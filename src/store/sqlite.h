/*
 * sqlite.h - the SQLite backend: what its files (sqlite*.c) share.
 *
 * One database file in WAL mode with foreign keys on and a busy timeout;
 * the schema is db/NNN_name.sql, compiled in and applied in order on
 * open, tracked by PRAGMA user_version.  Not for use outside src/store/.
 */
#ifndef DESPATCH_STORE_SQLITE_H
#define DESPATCH_STORE_SQLITE_H

#include <sqlite3.h>

#include "store/backend.h"

/* Prepared statements are kept and reused: preparing one costs more than
 * running most of ours, and the same few dozen run for every mail.  Keyed
 * by the SQL text; a statement in use (a loop over rows that runs the
 * same SQL inside) is not handed out twice: the second gets one of its
 * own, finalized when released. */
#define STMT_CACHE 128

struct stmt_slot {
	char *sql;
	sqlite3_stmt *st;
	int in_use;
};

struct sqlite_store {
	struct store base;  /* first: a struct store * is one of these */
	sqlite3 *db;
	int in_tx;
	int full;          /* the last write found the disk full */
	int upgraded_from; /* the schema version this open migrated from */
	char copy[4200];   /* where the store was copied before it, or "" */
	struct stmt_slot cache[STMT_CACHE];
};

/* The backend's store behind s. */
#define SQ(s) ((struct sqlite_store *)(s))

/* The implementation of each operation of ops.h: sqlite_NAME. */
#define STORE_OP(ret, name, params, args) ret sqlite_##name params;
#define STORE_VOP(name, params, args) void sqlite_##name params;
#include "store/ops.h"
#undef STORE_OP
#undef STORE_VOP

int sqlite_claims(const char *where);
int sqlite_open(const char *path, int create, int max_version,
    struct store **out, struct err *e);
void sqlite_close(struct store *s);

/* SQL run as it is, for the backend's own files (and white-box tests). */

/* Runs one statement with arguments described by types: 'i' int64_t,
 * 'I' int (as int64), 't' const char * (NULL binds NULL), 'b' const void *
 * then size_t, 'n' NULL.  For statements without rows. */
int store_exec(struct store *s, struct err *e, const char *sql,
    const char *types, ...);
/* Runs a query for one value: 1 and *out from the first column of the
 * first row, 0 when there is no row, -1 with e set on error. */
int store_query_int(struct store *s, struct err *e, int64_t *out,
    const char *sql, const char *types, ...);
/* The same where no row means the value none: *out is none or the first
 * column's value; 0, or -1 with e set. */
int store_query_int_or(struct store *s, struct err *e, int64_t *out,
    int64_t none, const char *sql, const char *types, ...);
/* The same for a text or blob value: *out is malloc'd and NUL-terminated
 * (its length in *len if len is not NULL); NULL when there is no row. */
int store_query_text(struct store *s, struct err *e, char **out, size_t *len,
    const char *sql, const char *types, ...);

/* The cached statement for sql (sqlite3_prepare_v3 with the cache), to
 * give back with store_stmt_release; SQLITE_OK or SQLite's error. */
int store_stmt_get(struct store *s, const char *sql, sqlite3_stmt **st);
/* Every cached statement finalized (at close). */
void store_stmt_cache_free(struct store *s);
/* The database's last error into e, as ERR_TEMP when it will pass
 * (locked, full, I/O) and ERR_DATA otherwise; returns -1. */
int store_db_err(struct store *s, struct err *e, const char *what);

/* A cached statement for sql, its parameters bound from the types string
 * and the arguments that follow (as store_exec); 0, or -1 with e set. */
int store_prepare(struct store *s, struct err *e, sqlite3_stmt **st,
    const char *sql, const char *types, ...);
/* Steps a prepared query once: 1 with its first row in st (the caller
 * releases it), 0 when it has none, -1 with e set from what (what was
 * being done); st released unless there is a row. */
int store_first_row(struct store *s, sqlite3_stmt *st, const char *what,
    struct err *e);
/* A statement back to the cache (reset) or finalized. */
void store_stmt_release(struct store *s, sqlite3_stmt *st);
/* How many rows the last statement changed. */
int store_changes(struct store *s);
/* Column col as text into out (empty when NULL), cut to size. */
void store_col_text(sqlite3_stmt *st, int col, char *out, size_t size);
/* Column col as a malloc'd copy, NUL-terminated (empty when NULL), its
 * length in *len if len is not NULL; NULL when out of memory. */
char *store_col_dup(sqlite3_stmt *st, int col, size_t *len);
/* A setting read by st, a query whose first row (if any) is its value
 * and whose it is (a game's or a campaign's id, 0 for the server):
 * 1 with *value (malloc'd) and *from (when not NULL), 0 when there is no
 * row (*value NULL), -1 with e set from what.  st is released
 * (sqlite_games.c). */
int store_setting_row(struct store *s, sqlite3_stmt *st, const char *what,
    char **value, int64_t *from, struct err *e);

/* The battle's state of its ruleset's own (sqlite_rules.c): saved with
 * the rest of its state; loaded into a battle fresh from its scenario,
 * 1 if it fits it, 0 if not (the state is damaged), -1 with e set. */
int store_rules_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e);
int store_rules_load(struct store *s, int64_t game, struct battle *b,
    struct err *e);

#endif
