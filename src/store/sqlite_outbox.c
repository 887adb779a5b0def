/*
 * sqlite_outbox.c - the mail waiting to go out: queued in the same transaction as
 * what caused it, handed to a sender, retried, marked delivered or failed
 * (see store.h).
 */
#include "store/store.h"

#include <sodium.h>
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

/* --- outbox ----------------------------------------------------------- */

int
sqlite_outbox_add(struct store *s, int64_t game, const char *message_id,
    const char *recipient, const char *subject, const char *kind,
    const char *raw, size_t len, int sensitive, const char *text,
    int64_t now, struct err *e)
{
	unsigned char sha[32], *z = NULL;
	size_t zl = 0;
	int rc;

	/* The text is kept for good (RESEND, the audit), so never one that
	 * holds a secret. */
	if (text != NULL && !sensitive && store_zip(text, strlen(text), &z,
	    &zl) != 0)
		return err_set(e, ERR_TEMP, "out of memory compressing a mail");
	crypto_hash_sha256(sha, (const unsigned char *)raw, len);
	rc = store_exec(s, e, "INSERT INTO outbox (game_id, message_id, "
	    "recipient, subject, kind, raw, sensitive, created_at, sha256, step, "
	    "text_z) VALUES (NULLIF(?, 0), ?, ?, ?, ?, ?, ?, ?, ?, (SELECT step "
	    "FROM games WHERE id = ?), ?)", "ittttbIibib", game, message_id,
	    recipient, subject, kind, (const void *)raw, len, sensitive, now,
	    (const void *)sha, (size_t)32, game, (const void *)z, zl);
	free(z);
	return rc;
}

/* The rows of a prepared outbox query (the columns of OUTBOX_COLS). */
#define OUTBOX_COLS "o.id, o.message_id, o.recipient, o.subject, o.kind, " \
	"o.created_at, o.delivered_at, o.raw, g.name, o.attempts, " \
	"o.next_attempt_at, coalesce(o.failed_at, 0), coalesce(o.last_error, ''), " \
	"coalesce(o.draw, '')"

static int
outbox_rows(struct store *s, sqlite3_stmt *st, struct store_mail **out, int *n,
    struct err *e)
{
	struct store_mail *v = NULL;
	int cnt = 0, cap = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct store_mail *m;

		if (cnt == cap) {
			struct store_mail *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (nv == NULL) {
				store_mails_free(v, cnt);
				store_stmt_release(s, st);
				return err_set(e, ERR_INTERNAL, "out of memory");
			}
			v = nv;
		}
		m = &v[cnt];
		memset(m, 0, sizeof(*m));
		m->id = sqlite3_column_int64(st, 0);
		store_col_text(st, 1, m->message_id, sizeof(m->message_id));
		store_col_text(st, 2, m->recipient, sizeof(m->recipient));
		store_col_text(st, 3, m->subject, sizeof(m->subject));
		store_col_text(st, 4, m->kind, sizeof(m->kind));
		store_col_text(st, 8, m->game, sizeof(m->game));
		m->created_at = sqlite3_column_int64(st, 5);
		m->delivered_at = sqlite3_column_int64(st, 6);
		m->attempts = sqlite3_column_int(st, 9);
		m->next_attempt_at = sqlite3_column_int64(st, 10);
		m->failed_at = sqlite3_column_int64(st, 11);
		store_col_text(st, 12, m->last_error, sizeof(m->last_error));
		store_col_text(st, 13, m->draw, sizeof(m->draw));
		m->raw = store_col_dup(st, 7, &m->len);
		if (m->raw == NULL) {
			store_mails_free(v, cnt);
			store_stmt_release(s, st);
			return err_set(e, ERR_INTERNAL, "out of memory");
		}
		cnt++;
	}
	store_stmt_release(s, st);
	*out = v;
	*n = cnt;
	return 0;
}

/* The mail that where (SQL on outbox o, with one integer parameter)
 * picks, in the order it was queued. */
static int
outbox_where(struct store *s, const char *where, int64_t arg,
    struct store_mail **out, int *n, struct err *e)
{
	sqlite3_stmt *st = NULL;
	char sql[512];

	*out = NULL;
	*n = 0;
	snprintf(sql, sizeof(sql), "SELECT " OUTBOX_COLS " FROM outbox o LEFT "
	    "JOIN games g ON g.id = o.game_id WHERE %s ORDER BY o.id", where);
	if (store_prepare(s, e, &st, sql, "i", arg) != 0)
		return -1;
	return outbox_rows(s, st, out, n, e);
}

int
sqlite_outbox_list(struct store *s, int pending, struct store_mail **out,
    int *n, struct err *e)
{
	return outbox_where(s, "(? = 0 OR (o.delivered_at IS NULL AND "
	    "o.hold_step IS NULL))", pending, out, n, e);
}

int
sqlite_outbox_due(struct store *s, int64_t now, struct store_mail **out,
    int *n, struct err *e)
{
	return outbox_where(s, "o.delivered_at IS NULL AND o.failed_at IS NULL "
	    "AND o.hold_step IS NULL AND o.next_attempt_at <= ?", now, out, n, e);
}

int
sqlite_outbox_unhold(struct store *s, int64_t now, int64_t hold,
    struct err *e)
{
	if (store_exec(s, e, "UPDATE outbox SET next_attempt_at = 0 WHERE "
	    "delivered_at IS NULL AND failed_at IS NULL AND hold_step IS NULL "
	    "AND attempts = 0 AND next_attempt_at > ? AND next_attempt_at <= ?",
	    "ii", now, now + hold) != 0)
		return -1;
	return store_changes(s);
}

int
sqlite_outbox_bring_forward(struct store *s, int64_t now, struct err *e)
{
	if (store_exec(s, e, "UPDATE outbox SET next_attempt_at = ? WHERE "
	    "delivered_at IS NULL AND failed_at IS NULL AND hold_step IS NULL "
	    "AND attempts > 0 AND next_attempt_at > ?", "ii", now, now) != 0)
		return -1;
	return store_changes(s);
}

int
sqlite_outbox_retry(struct store *s, int64_t id, int64_t now, int64_t first,
    const char *why, struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET attempts = attempts + 1, "
	    "last_error = ?, next_attempt_at = ? + min(3600, ? * (1 << "
	    "min(attempts, 6))) WHERE id = ?", "tiii", why, now,
	    first > 0 ? first : 60, id);
}

int
sqlite_outbox_failed(struct store *s, int64_t id, int64_t now, const char *why,
    struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET attempts = attempts + 1, "
	    "last_error = ?, failed_at = ? WHERE id = ?", "tii", why, now, id);
}

void
store_mails_free(struct store_mail *m, int n)
{
	int i;

	if (m == NULL)
		return;
	for (i = 0; i < n; i++)
		free(m[i].raw);
	free(m);
}

