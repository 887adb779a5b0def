/*
 * sqlite_mail.c - mail, players and orders as the referee and the fronts
 * ask about them (see ops.h): the spool, what the daemon says it does,
 * received mail, players' counts and choices, observers, orders and
 * standing orders, and the outbox as the referee reads and holds it.
 */
#include "store/store.h"

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

/* --- the spool -------------------------------------------------------- */

int
sqlite_spool_add(struct store *s, const char *raw, size_t len,
    int64_t arrived, const char *source, struct err *e)
{
	return store_exec(s, e, "INSERT INTO spool (raw, arrived, source) "
	    "VALUES (?, ?, ?)", "bit", (const void *)raw, len, arrived,
	    source != NULL ? source : "");
}

int
sqlite_spool_counts(struct store *s, int64_t *waiting, int64_t *failed,
    struct err *e)
{
	if (store_query_int(s, e, waiting, "SELECT count(*) FROM spool "
	    "WHERE failed_at IS NULL", "") < 0 ||
	    store_query_int(s, e, failed, "SELECT count(*) FROM spool "
	    "WHERE failed_at IS NOT NULL", "") < 0)
		return -1;
	return 0;
}

int
sqlite_spool_next(struct store *s, int64_t after, int64_t *id, struct err *e)
{
	*id = 0;
	if (after == 0)
		return store_query_int(s, e, id, "SELECT min(id) FROM spool "
		    "WHERE failed_at IS NULL", "") < 0 ? -1 : 0;
	return store_query_int(s, e, id, "SELECT coalesce(min(id), 0) FROM "
	    "spool WHERE failed_at IS NULL AND id > ?", "i", after) < 0 ?
	    -1 : 0;
}

int
sqlite_spool_done(struct store *s, int64_t id, struct err *e)
{
	return store_exec(s, e, "DELETE FROM spool WHERE id = ?", "i", id);
}

int
sqlite_spool_failed(struct store *s, int64_t id, int64_t now, const char *why,
    struct err *e)
{
	return store_exec(s, e, "UPDATE spool SET failed_at = ?, error = ? "
	    "WHERE id = ?", "iti", now, why, id);
}

/* --- what the daemon does --------------------------------------------- */

int
sqlite_daemon_status_set(struct store *s, int pid, const char *state,
    const char *detail, int64_t at, struct err *e)
{
	return store_exec(s, e, "INSERT INTO daemon_status (id, pid, state, "
	    "detail, at) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
	    "pid = excluded.pid, state = excluded.state, detail = "
	    "excluded.detail, at = excluded.at", "Itti", pid, state, detail,
	    at);
}

/* Column col as a malloc'd string ("" when NULL), or NULL out of
 * memory. */
static char *
col_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return strdup(t != NULL ? (const char *)t : "");
}

int
sqlite_daemon_status(struct store *s, char **state, char **detail,
    int64_t *pid, int64_t *at, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*state = *detail = NULL;
	*pid = *at = 0;
	if (store_prepare(s, e, &st, "SELECT state, detail, pid, at FROM "
	    "daemon_status WHERE id = 1", "") != 0)
		return -1;
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		store_stmt_release(s, st);
		if (rc != SQLITE_DONE)
			return store_db_err(s, e, "reading");
		return 0;
	}
	*state = col_dup(st, 0);
	*detail = col_dup(st, 1);
	*pid = sqlite3_column_int64(st, 2);
	*at = sqlite3_column_int64(st, 3);
	store_stmt_release(s, st);
	if (*state == NULL || *detail == NULL) {
		free(*state);
		free(*detail);
		*state = *detail = NULL;
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	return 1;
}

/* --- received mail ---------------------------------------------------- */

int
sqlite_messages_bytes_from(struct store *s, const char *sender,
    int64_t since, int64_t *bytes, struct err *e)
{
	*bytes = 0;
	return store_query_int(s, e, bytes, "SELECT coalesce(sum(length("
	    "raw)), 0) FROM messages WHERE sender = ? COLLATE NOCASE AND "
	    "received_at > ?", "ti", sender, since) < 0 ? -1 : 0;
}

int
sqlite_messages_from(struct store *s, const char *sender, int64_t since,
    int64_t max, int64_t *n, struct err *e)
{
	*n = 0;
	return store_query_int(s, e, n, "SELECT count(*) FROM (SELECT 1 FROM "
	    "messages WHERE sender = ? COLLATE NOCASE AND received_at > ? "
	    "LIMIT ?)", "tii", sender, since, max) < 0 ? -1 : 0;
}

int
sqlite_message_note(struct store *s, int64_t id, const char *note,
    struct err *e)
{
	return store_exec(s, e, "UPDATE messages SET note = ? WHERE id = ?",
	    "ti", note, id);
}

int
sqlite_messages_whole(struct store *s, int64_t *n, struct err *e)
{
	*n = 0;
	return store_query_int(s, e, n, "SELECT count(*) FROM messages WHERE "
	    "trimmed_at IS NULL", "") < 0 ? -1 : 0;
}

int
sqlite_message_next_textless(struct store *s, int64_t after, int64_t *id,
    struct err *e)
{
	return store_query_int(s, e, id, "SELECT id FROM messages WHERE "
	    "text IS NULL AND trimmed_at IS NULL AND game_id IS NOT NULL AND "
	    "id > ? ORDER BY id LIMIT 1", "i", after);
}

int
sqlite_message_raw(struct store *s, int64_t id, char **raw, size_t *len,
    struct err *e)
{
	return store_query_text(s, e, raw, len, "SELECT raw FROM messages "
	    "WHERE id = ?", "i", id);
}

int
sqlite_message_keep_text(struct store *s, int64_t id, const char *text,
    struct err *e)
{
	return store_exec(s, e, "UPDATE messages SET text = ? WHERE id = ?",
	    "ti", text, id);
}
