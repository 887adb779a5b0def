/*
 * sqlite_mail.c - mail, players and orders as the referee and the fronts
 * ask about them (see ops.h): the spool, what the daemon says it does,
 * received mail, players' counts and choices, observers, orders and
 * standing orders, and the outbox as the referee reads and holds it.
 */
#include "store/store.h"

#include <sodium.h>
#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

/* next_attempt_at of a held mail: no clock reaches it. */
#define HELD ((int64_t)1 << 60)

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
	if (after == 0)
		return store_query_int_or(s, e, id, 0, "SELECT min(id) FROM "
		    "spool WHERE failed_at IS NULL", "");
	return store_query_int_or(s, e, id, 0, "SELECT coalesce(min(id), 0) "
	    "FROM spool WHERE failed_at IS NULL AND id > ?", "i", after);
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
	int got;

	*state = *detail = NULL;
	*pid = *at = 0;
	if (store_prepare(s, e, &st, "SELECT state, detail, pid, at FROM "
	    "daemon_status WHERE id = 1", "") != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading", e)) != 1)
		return got;
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
	return store_query_int_or(s, e, bytes, 0, "SELECT "
	    "coalesce(sum(length(raw)), 0) FROM messages WHERE sender = ? "
	    "COLLATE NOCASE AND received_at > ?", "ti", sender, since);
}

int
sqlite_messages_from(struct store *s, const char *sender, int64_t since,
    int64_t max, int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM (SELECT 1 "
	    "FROM messages WHERE sender = ? COLLATE NOCASE AND "
	    "received_at > ? LIMIT ?)", "tii", sender, since, max);
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
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM messages "
	    "WHERE trimmed_at IS NULL", "");
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

/* --- players ---------------------------------------------------------- */

int
sqlite_players_with_email(struct store *s, int64_t game, const char *email,
    int64_t *n, struct err *e)
{
	if (game == 0)
		return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
		    "players WHERE email = ? COLLATE NOCASE", "t", email);
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM players "
	    "WHERE game_id = ? AND email = ? COLLATE NOCASE", "it", game,
	    email);
}

int
sqlite_players_count(struct store *s, int64_t game, int side, int64_t *n,
    struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM players "
	    "WHERE game_id = ? AND (? < 0 OR side_idx = ?)", "iII", game, side,
	    side);
}

int
sqlite_players_waiting(struct store *s, int64_t game, int step, int64_t *n,
    struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM players "
	    "WHERE game_id = ? AND waiting = ?", "iI", game, step);
}

int
sqlite_player_wait(struct store *s, int64_t player, int step, struct err *e)
{
	return store_exec(s, e, "UPDATE players SET waiting = ? WHERE id = ?",
	    "Ii", step, player);
}

int
sqlite_player_mail_format(struct store *s, int64_t player, char *out,
    size_t size, struct err *e)
{
	char *v = NULL;
	int got;

	got = store_query_text(s, e, &v, NULL, "SELECT mail_format FROM "
	    "players WHERE id = ?", "i", player);
	if (got == 1)
		snprintf(out, size, "%s", v);
	free(v);
	return got;
}

int
sqlite_player_set_mail_format(struct store *s, int64_t player,
    const char *format, struct err *e)
{
	return store_exec(s, e, "UPDATE players SET mail_format = ? WHERE "
	    "id = ?", "ti", format, player);
}

int
sqlite_player_nmr(struct store *s, int64_t player, int64_t *count,
    struct err *e)
{
	*count = 0;
	if (store_exec(s, e, "UPDATE players SET nmr_count = nmr_count + 1 "
	    "WHERE id = ?", "i", player) != 0 ||
	    store_query_int(s, e, count, "SELECT nmr_count FROM players WHERE "
	    "id = ?", "i", player) < 0)
		return -1;
	return 0;
}

int
sqlite_player_nmr_clear(struct store *s, int64_t player, struct err *e)
{
	return store_exec(s, e, "UPDATE players SET nmr_count = 0 WHERE id = ?",
	    "i", player);
}

int
sqlite_player_replace(struct store *s, int64_t player, const char *email,
    const unsigned char hash[32], struct err *e)
{
	return store_exec(s, e, "UPDATE players SET email = ?, secret_hash = "
	    "?, pending_hash = NULL, nmr_count = 0, waiting = 0 WHERE id = ?", "tbi", email,
	    (const void *)hash, (size_t)32, player);
}

/* --- observers -------------------------------------------------------- */

int
sqlite_observer_add(struct store *s, int64_t game, const char *email,
    int delay, int64_t now, struct err *e)
{
	return store_exec(s, e, "INSERT INTO observers (game_id, email, delay, "
	    "added_at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id, email) DO "
	    "UPDATE SET delay = excluded.delay", "itIi", game, email, delay,
	    now);
}

int
sqlite_observers(struct store *s, int64_t game, struct store_observer **out,
    int *n, struct err *e)
{
	struct store_observer *v = NULL;
	sqlite3_stmt *st = NULL;
	int cnt = 0, cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (store_prepare(s, e, &st, "SELECT delay, email FROM observers WHERE "
	    "game_id = ? ORDER BY id", "i", game) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			struct store_observer *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (nv == NULL) {
				free(v);
				store_stmt_release(s, st);
				return err_set(e, ERR_INTERNAL,
				    "out of memory");
			}
			v = nv;
		}
		v[cnt].delay = sqlite3_column_int(st, 0);
		store_col_text(st, 1, v[cnt].email, sizeof(v[cnt].email));
		cnt++;
	}
	if (rc != SQLITE_DONE) {
		store_db_err(s, e, "reading");
		store_stmt_release(s, st);
		free(v);
		return -1;
	}
	store_stmt_release(s, st);
	*out = v;
	*n = cnt;
	return 0;
}

/* --- orders ----------------------------------------------------------- */

int
sqlite_orders_count(struct store *s, int64_t game, int step, int side,
    int64_t player, int64_t *n, struct err *e)
{
	if (side >= 0 && player > 0)
		return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
		    "orders WHERE game_id = ? AND step = ? AND side_idx = ? "
		    "AND player_id = ? AND superseded = 0", "iIIi", game, step,
		    side, player);
	if (player > 0)
		return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
		    "orders WHERE game_id = ? AND step = ? AND player_id = ? "
		    "AND superseded = 0", "iIi", game, step, player);
	if (side >= 0)
		return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
		    "orders WHERE game_id = ? AND step = ? AND side_idx = ? "
		    "AND superseded = 0", "iII", game, step, side);
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM orders "
	    "WHERE game_id = ? AND step = ? AND superseded = 0", "iI", game,
	    step);
}

int
sqlite_orders_players(struct store *s, int64_t game, int step, int side,
    int64_t *n, struct err *e)
{
	if (side >= 0)
		return store_query_int_or(s, e, n, 0, "SELECT count(DISTINCT "
		    "player_id) FROM orders WHERE game_id = ? AND step = ? AND "
		    "side_idx = ? AND superseded = 0", "iII", game, step, side);
	return store_query_int_or(s, e, n, 0, "SELECT count(DISTINCT "
	    "player_id) FROM orders WHERE game_id = ? AND step = ? AND "
	    "superseded = 0", "iI", game, step);
}

int
sqlite_orders_ahead(struct store *s, int64_t game, int side, int step,
    int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM orders "
	    "WHERE game_id = ? AND side_idx = ? AND step >= ? AND "
	    "superseded = 0", "iII", game, side, step);
}

int
sqlite_orders_mark(struct store *s, int64_t game, int step,
    struct store_orders_mark *m, struct err *e)
{
	/* The highest ids tell a set stored and another dropped since; the
	 * counts, orders superseded or cleared. */
	if (store_query_int(s, e, &m->last_order, "SELECT coalesce(max(id), "
	    "0) FROM orders WHERE game_id = ? AND step = ?", "iI", game,
	    step) < 0 ||
	    sqlite_orders_count(s, game, step, -1, 0, &m->orders, e) != 0 ||
	    store_query_int(s, e, &m->last_standing, "SELECT coalesce(max(id), "
	    "0) FROM standing_orders WHERE game_id = ?", "i", game) < 0 ||
	    store_query_int(s, e, &m->standing, "SELECT count(*) FROM "
	    "standing_orders WHERE game_id = ?", "i", game) < 0)
		return -1;
	return 0;
}

int
sqlite_standing_clear(struct store *s, int64_t game, int64_t player,
    struct err *e)
{
	return store_exec(s, e, "DELETE FROM standing_orders WHERE game_id = ? "
	    "AND player_id = ?", "ii", game, player);
}

int
sqlite_standing_insert(struct store *s, int64_t game, int side,
    int64_t player, int64_t message, int seq, int line, const char *raw,
    const char *canonical, struct err *e)
{
	return store_exec(s, e, "INSERT INTO standing_orders (game_id, "
	    "side_idx, player_id, message, seq, line, raw, canonical) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?)", "iIiiIItt", game, side, player, message,
	    seq, line, raw, canonical);
}

int
sqlite_standing_count(struct store *s, int64_t game, int64_t player,
    int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
	    "standing_orders WHERE game_id = ? AND player_id = ?", "ii", game,
	    player);
}

int
sqlite_order_state_set(struct store *s, int64_t game, int step,
    int64_t player, int clean, int64_t now, struct err *e)
{
	return store_exec(s, e, "INSERT INTO order_state (game_id, step, "
	    "player_id, clean, ready, changed_at) VALUES (?, ?, ?, ?, 0, ?) "
	    "ON CONFLICT (game_id, step, player_id) DO UPDATE SET clean = "
	    "excluded.clean, ready = 0, changed_at = excluded.changed_at",
	    "iIiIi", game, step, player, clean ? 1 : 0, now);
}

int
sqlite_order_state_ready(struct store *s, int64_t game, int step,
    int64_t player, struct err *e)
{
	/* A READY with no mail before it: nothing changed, so it sets no
	 * time for the settle to count from. */
	return store_exec(s, e, "INSERT INTO order_state (game_id, step, "
	    "player_id, clean, ready, changed_at) VALUES (?, ?, ?, 1, 1, 0) "
	    "ON CONFLICT (game_id, step, player_id) DO UPDATE SET ready = 1",
	    "iIi", game, step, player);
}

int
sqlite_order_state_summary(struct store *s, int64_t game, int step, int side,
    int64_t *players, int64_t *in, int64_t *ready, int64_t *last,
    struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*players = *in = *ready = *last = 0;
	if (store_prepare(s, e, &st, "SELECT count(*), coalesce(sum(CASE WHEN "
	    "os.player_id IS NULL THEN EXISTS (SELECT 1 FROM orders o WHERE "
	    "o.game_id = p.game_id AND o.step = ?1 AND o.player_id = p.id AND "
	    "o.superseded = 0) ELSE (os.clean = 1 OR os.ready = 1) END), 0), "
	    "coalesce(sum(os.ready), 0), coalesce(max(os.changed_at), 0) "
	    "FROM players p LEFT JOIN order_state os ON os.game_id = p.game_id "
	    "AND os.step = ?1 AND os.player_id = p.id WHERE p.game_id = ?2 AND "
	    "(?3 < 0 OR p.side_idx = ?3)", "IiI", step, game, side) != 0)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*players = sqlite3_column_int64(st, 0);
		*in = sqlite3_column_int64(st, 1);
		*ready = sqlite3_column_int64(st, 2);
		*last = sqlite3_column_int64(st, 3);
	} else {
		store_db_err(s, e, "reading who has sent orders");
	}
	store_stmt_release(s, st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int
sqlite_orders_salt(struct store *s, int64_t game, int step, int side,
    int64_t player, unsigned char salt[16], struct err *e)
{
	char *v = NULL;
	size_t n = 0;
	int got;

	got = store_query_text(s, e, &v, &n, "SELECT salt FROM orders WHERE "
	    "game_id = ? AND step = ? AND side_idx = ? AND player_id = ? AND "
	    "superseded = 0 AND salt IS NOT NULL LIMIT 1", "iIIi", game, step,
	    side, player);
	if (got < 0)
		return -1;
	got = v != NULL && n == 16;
	if (got)
		memcpy(salt, v, 16);
	free(v);
	return got;
}

int
sqlite_orders_salt_set(struct store *s, int64_t game, int step, int side,
    int64_t player, const unsigned char salt[16], struct err *e)
{
	return store_exec(s, e, "UPDATE orders SET salt = ? WHERE game_id = ? AND "
	    "step = ? AND side_idx = ? AND player_id = ? AND superseded = 0",
	    "biIIi", (const void *)salt, (size_t)16, game, step, side, player);
}

/* --- the outbox, as the referee reads and holds it -------------------- */

int
sqlite_outbox_raw(struct store *s, int64_t id, char **raw, size_t *len,
    struct err *e)
{
	return store_query_text(s, e, raw, len, "SELECT raw FROM outbox WHERE "
	    "id = ?", "i", id);
}

int
sqlite_outbox_subject(struct store *s, int64_t id, char **subject,
    struct err *e)
{
	return store_query_text(s, e, subject, NULL, "SELECT subject FROM "
	    "outbox WHERE id = ?", "i", id);
}

int
sqlite_outbox_game(struct store *s, int64_t id, int64_t *game, struct err *e)
{
	return store_query_int(s, e, game, "SELECT coalesce(game_id, 0) FROM "
	    "outbox WHERE id = ?", "i", id);
}

int
sqlite_outbox_next_whole(struct store *s, int64_t after, int64_t *id,
    struct err *e)
{
	return store_query_int(s, e, id, "SELECT id FROM outbox WHERE "
	    "delivered_at IS NOT NULL AND sha256 IS NULL AND NOT sensitive AND "
	    "id > ? ORDER BY id LIMIT 1", "i", after);
}

int
sqlite_outbox_keep(struct store *s, int64_t id, const char *raw, size_t len,
    const char *text, struct err *e)
{
	unsigned char sha[32], *z = NULL;
	size_t zl = 0;
	int rc;

	crypto_hash_sha256(sha, (const unsigned char *)raw, len);
	if (text != NULL && store_zip(text, strlen(text), &z, &zl) != 0)
		return err_set(e, ERR_TEMP, "out of memory");
	rc = store_exec(s, e, "UPDATE outbox SET sha256 = ?, text_z = ? WHERE "
	    "id = ?", "bbi", (const void *)sha, (size_t)32, (const void *)z, zl,
	    id);
	free(z);
	return rc;
}

int
sqlite_outbox_last_report(struct store *s, int64_t game,
    const char *recipient, const char *subject, int64_t *id, struct err *e)
{
	if (subject != NULL)
		return store_query_int(s, e, id, "SELECT id FROM outbox WHERE "
		    "game_id = ? AND kind = 'report' AND recipient = ? COLLATE "
		    "NOCASE AND subject = ? ORDER BY id DESC LIMIT 1", "itt",
		    game, recipient, subject);
	return store_query_int(s, e, id, "SELECT id FROM outbox WHERE "
	    "game_id = ? AND kind = 'report' AND recipient = ? COLLATE NOCASE "
	    "ORDER BY id DESC LIMIT 1", "it", game, recipient);
}

int
sqlite_outbox_sent(struct store *s, int64_t game, const char *recipient,
    const char *kind, struct store_sent **out, int *n, struct err *e)
{
	sqlite3_stmt *st = NULL;
	struct store_sent *v = NULL, *nv;
	int cnt = 0, cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (store_prepare(s, e, &st, "SELECT id, hold_step IS NOT NULL, "
	    "subject FROM outbox WHERE game_id = ? AND kind = ? AND recipient = "
	    "? COLLATE NOCASE ORDER BY id", "itt", game, kind, recipient) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 32;
			if ((nv = realloc(v, (size_t)cap * sizeof(*v))) == NULL) {
				free(v);
				store_stmt_release(s, st);
				return err_set(e, ERR_TEMP, "out of memory");
			}
			v = nv;
		}
		v[cnt].id = sqlite3_column_int64(st, 0);
		v[cnt].held = sqlite3_column_int(st, 1);
		store_col_text(st, 2, v[cnt].subject, sizeof(v[cnt].subject));
		cnt++;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE) {
		free(v);
		return err_set(e, ERR_TEMP, "reading the mail sent to %s: %s",
		    recipient, sqlite3_errstr(rc));
	}
	*out = v;
	*n = cnt;
	return 0;
}

int
sqlite_outbox_hold(struct store *s, int64_t id, int step, struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET hold_step = ?, "
	    "next_attempt_at = ? WHERE id = ?", "Iii", step, HELD, id);
}

int
sqlite_outbox_release(struct store *s, int64_t game, int step, int all,
    struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET next_attempt_at = 0, "
	    "hold_step = NULL WHERE game_id = ? AND hold_step IS NOT NULL AND "
	    "delivered_at IS NULL AND (hold_step <= ? OR ? != 0)", "iII", game,
	    step, all);
}

int
sqlite_outbox_put_off(struct store *s, const char *message_id, int64_t until,
    struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET next_attempt_at = ? WHERE "
	    "message_id = ?", "it", until, message_id);
}

int
sqlite_outbox_preview(struct store *s, const char *message_id,
    const char *raw, size_t len, int64_t now, struct err *e)
{
	unsigned char sha[32];

	if (raw == NULL)
		return store_exec(s, e, "UPDATE outbox SET next_attempt_at = 0 "
		    "WHERE message_id = ? AND delivered_at IS NULL AND "
		    "next_attempt_at > ?", "ti", message_id, now);
	crypto_hash_sha256(sha, (const unsigned char *)raw, len);
	return store_exec(s, e, "UPDATE outbox SET raw = ?, sha256 = ?, "
	    "next_attempt_at = 0 WHERE message_id = ? AND delivered_at IS NULL "
	    "AND next_attempt_at > ?", "bbti", (const void *)raw, len,
	    (const void *)sha, (size_t)32, message_id, now);
}

int
sqlite_outbox_withdraw_secrets(struct store *s, int64_t game,
    const char *recipient, int64_t *welcomes, struct err *e)
{
	*welcomes = 0;
	if (store_query_int(s, e, welcomes, "SELECT count(*) FROM outbox WHERE "
	    "game_id = ? AND recipient = ? COLLATE NOCASE AND kind = 'welcome' "
	    "AND delivered_at IS NULL", "it", game, recipient) < 0 ||
	    store_exec(s, e, "DELETE FROM outbox WHERE game_id = ? AND "
	    "recipient = ? COLLATE NOCASE AND sensitive = 1 AND delivered_at "
	    "IS NULL", "it", game, recipient) != 0)
		return -1;
	return 0;
}

int
sqlite_outbox_draw(struct store *s, int64_t id, const char *format,
    struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET draw = 'start ' || ? WHERE "
	    "id = ?", "ti", format, id);
}
