/*
 * sqlite_games.c - a game's clock, settings and ending in the store: its
 * deadline and pause, the reminders sent, the phase closed for its
 * nonces, how it ended, the address its mail goes out from, what the
 * ledger and an upgrade keep with it, and the operator's settings (per
 * game, game 0 holding the server's).  See ops.h.
 */
#include "store/store.h"

#include <sqlite3.h>

#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

/* --- the clock -------------------------------------------------------- */

int
sqlite_game_clock(struct store *s, int64_t game, struct store_clock *c,
    struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	memset(c, 0, sizeof(*c));
	if (store_prepare(s, e, &st, "SELECT coalesce(deadline_at, 0), "
	    "paused_at IS NOT NULL, coalesce(pause_left, 0), coalesce((SELECT "
	    "max(adjudicated_at) FROM turns WHERE turns.game_id = games.id AND "
	    "turns.step < games.step), started_at, 0) FROM games WHERE id = ?",
	    "i", game) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading", e)) != 1)
		return got;
	c->deadline = sqlite3_column_int64(st, 0);
	c->paused = sqlite3_column_int(st, 1);
	c->pause_left = sqlite3_column_int64(st, 2);
	c->opened = sqlite3_column_int64(st, 3);
	store_stmt_release(s, st);
	return 0;
}

int
sqlite_game_set_deadline(struct store *s, int64_t game, int64_t at,
    struct err *e)
{
	if (at == 0)
		return store_exec(s, e, "UPDATE games SET deadline_at = NULL "
		    "WHERE id = ?", "i", game);
	return store_exec(s, e, "UPDATE games SET deadline_at = ? WHERE id = ?",
	    "ii", at, game);
}

int
sqlite_game_pause(struct store *s, int64_t game, int64_t now,
    const char *why, int64_t left, struct err *e)
{
	return store_exec(s, e, "UPDATE games SET paused_at = ?, pause_why = ?, "
	    "pause_left = ? WHERE id = ?", "itii", now, why, left, game);
}

int
sqlite_game_resume(struct store *s, int64_t game, int64_t deadline,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET paused_at = NULL, pause_why = "
	    "NULL, pause_left = NULL, deadline_at = NULLIF(?, 0) WHERE id = ?",
	    "ii", deadline, game);
}

int
sqlite_reminder_add(struct store *s, int64_t game, int step, int64_t ahead,
    struct err *e)
{
	return store_exec(s, e, "INSERT OR IGNORE INTO reminders_sent (game_id, "
	    "step, ahead) VALUES (?, ?, ?)", "iIi", game, step, ahead);
}

int
sqlite_reminder_sent(struct store *s, int64_t game, int step, int64_t ahead,
    struct err *e)
{
	int64_t n = 0;

	if (store_query_int(s, e, &n, "SELECT count(*) FROM reminders_sent "
	    "WHERE game_id = ? AND step = ? AND ahead <= ?", "iIi", game, step,
	    ahead) < 0)
		return -1;
	return n > 0;
}

/* --- a phase closed for its nonces ------------------------------------ */

int
sqlite_game_closed(struct store *s, int64_t game, int64_t *step,
    int64_t *until, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	*step = 0;
	if (until != NULL)
		*until = 0;
	if (store_prepare(s, e, &st, "SELECT coalesce(closed_step, 0), "
	    "coalesce(reveal_until, 0) FROM games WHERE id = ?", "i", game) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading", e)) != 1)
		return got;
	*step = sqlite3_column_int64(st, 0);
	if (until != NULL)
		*until = sqlite3_column_int64(st, 1);
	store_stmt_release(s, st);
	return 0;
}

int
sqlite_game_close(struct store *s, int64_t game, int step, int64_t now,
    const unsigned char root[32], int64_t until, struct err *e)
{
	return store_exec(s, e, "UPDATE games SET closed_step = ?, closed_at = ?, "
	    "closed_root = ?, reveal_until = ? WHERE id = ?", "Iibii", step, now,
	    (const void *)root, (size_t)32, until, game);
}

int
sqlite_game_closed_root(struct store *s, int64_t game, int step,
    unsigned char **root, size_t *len, struct err *e)
{
	char *v = NULL;
	int rc;

	*len = 0;
	rc = store_query_text(s, e, &v, len, "SELECT closed_root FROM games "
	    "WHERE id = ? AND closed_step = ?", "iI", game, step);
	*root = (unsigned char *)v;
	return rc;
}

int
sqlite_game_close_done(struct store *s, int64_t game, struct err *e)
{
	/* The time the nonces were awaited until is left: it is read only
	 * while a step is closed, and the next close sets it anew. */
	return store_exec(s, e, "UPDATE games SET closed_step = NULL, closed_at = "
	    "NULL, closed_root = NULL WHERE id = ?", "i", game);
}

/* --- the game --------------------------------------------------------- */

int
sqlite_game_step(struct store *s, int64_t game, int64_t *step, struct err *e)
{
	return store_query_int_or(s, e, step, 0, "SELECT step FROM games "
	    "WHERE id = ?", "i", game);
}

int
sqlite_game_find(struct store *s, const char *name, int64_t *id,
    enum game_status *status, int64_t *step, struct err *e)
{
	sqlite3_stmt *st = NULL;
	const char *t;
	int got;

	if (store_prepare(s, e, &st, "SELECT id, status, step FROM games WHERE "
	    "name = ?", "t", name) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading", e)) != 1)
		return got;
	*id = sqlite3_column_int64(st, 0);
	t = (const char *)sqlite3_column_text(st, 1);
	*status = t != NULL && strcmp(t, "running") == 0 ? GAME_RUNNING :
	    t != NULL && strcmp(t, "finished") == 0 ? GAME_FINISHED : GAME_SETUP;
	*step = sqlite3_column_int64(st, 2);
	store_stmt_release(s, st);
	return 1;
}

int
sqlite_game_result(struct store *s, int64_t game, char **text, struct err *e)
{
	return store_query_text(s, e, text, NULL, "SELECT result FROM games "
	    "WHERE id = ? AND result IS NOT NULL", "i", game);
}

int
sqlite_game_set_result(struct store *s, int64_t game, const char *text,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET result = ? WHERE id = ?", "ti",
	    text, game);
}

int
sqlite_game_from(struct store *s, int64_t game, char **addr, struct err *e)
{
	return store_query_text(s, e, addr, NULL, "SELECT from_addr FROM games "
	    "WHERE id = ? AND from_addr IS NOT NULL", "i", game);
}

int
sqlite_game_set_from(struct store *s, int64_t game, const char *addr,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET from_addr = ? WHERE id = ?",
	    "ti", addr, game);
}

int
sqlite_game_set_visibility(struct store *s, int64_t game,
    const char *visibility, struct err *e)
{
	return store_exec(s, e, "UPDATE games SET visibility = ? WHERE id = ?",
	    "ti", visibility, game);
}

int
sqlite_game_remove(struct store *s, int64_t game, struct err *e)
{
	/* Settings name their game without a reference to it (game 0 is
	 * the server), so they do not go with it by themselves. */
	if (store_exec(s, e, "DELETE FROM settings WHERE game_id = ?", "i",
	    game) != 0)
		return -1;
	return store_exec(s, e, "DELETE FROM games WHERE id = ?", "i", game);
}

/* --- what the ledger and an upgrade keep with a game ------------------ */

int
sqlite_game_chain_steps(struct store *s, int64_t game, int64_t *steps,
    struct err *e)
{
	return store_query_int_or(s, e, steps, 0, "SELECT "
	    "coalesce(chain_steps, 0) FROM games WHERE id = ?", "i", game);
}

int
sqlite_game_set_chain_steps(struct store *s, int64_t game, int steps,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET chain_steps = ? WHERE id = ?",
	    "Ii", steps, game);
}

int
sqlite_game_last_state(struct store *s, int64_t game, char **text,
    struct err *e)
{
	return store_query_text(s, e, text, NULL, "SELECT last_state FROM games "
	    "WHERE id = ? AND last_state IS NOT NULL", "i", game);
}

int
sqlite_game_set_last_state(struct store *s, int64_t game, const char *text,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET last_state = ? WHERE id = ?",
	    "ti", text, game);
}

int
sqlite_game_upgrade_told(struct store *s, int64_t game, int64_t *step,
    struct err *e)
{
	return store_query_int_or(s, e, step, 0, "SELECT upgrade_told FROM "
	    "games WHERE id = ?", "i", game);
}

int
sqlite_game_set_upgrade_told(struct store *s, int64_t game, int step,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET upgrade_told = ? WHERE id = ?",
	    "Ii", step, game);
}

/* --- settings --------------------------------------------------------- */

/* Contract (sqlite.h). */
int
store_setting_row(struct store *s, sqlite3_stmt *st, const char *what,
    char **value, int64_t *from, struct err *e)
{
	int got;

	*value = NULL;
	if ((got = store_first_row(s, st, what, e)) != 1)
		return got;
	*value = store_col_dup(st, 0, NULL);
	if (*value == NULL) {
		store_stmt_release(s, st);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	if (from != NULL)
		*from = sqlite3_column_int64(st, 1);
	store_stmt_release(s, st);
	return 1;
}

int
sqlite_setting_get(struct store *s, int64_t game, const char *key,
    char **value, int64_t *from, struct err *e)
{
	sqlite3_stmt *st = NULL;

	*value = NULL;
	if (store_prepare(s, e, &st, "SELECT value, game_id FROM settings WHERE "
	    "key = ? AND game_id IN (?, 0) ORDER BY game_id DESC LIMIT 1", "ti",
	    key, game) != 0)
		return -1;
	return store_setting_row(s, st, "reading", value, from, e);
}

int
sqlite_setting_set(struct store *s, int64_t game, const char *key,
    const char *value, struct err *e)
{
	return store_exec(s, e, "INSERT INTO settings (game_id, key, value) "
	    "VALUES (?, ?, ?) ON CONFLICT (game_id, key) DO UPDATE SET value = "
	    "excluded.value", "itt", game, key, value);
}

/* Column 0 of every row of st, newline-separated, into *out (malloc'd;
 * "" for no row); st is released.  0, or -1 with e set. */
static int
lines_of(struct store *s, sqlite3_stmt *st, const char *what, char **out,
    struct err *e)
{
	size_t len = 0;
	int rc;

	*out = calloc(1, 1);
	while (*out != NULL && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		size_t k = v != NULL ? strlen(v) : 0;
		char *nb = realloc(*out, len + k + 2);

		if (nb == NULL) {
			free(*out);
			*out = NULL;
			break;
		}
		*out = nb;
		memcpy(*out + len, v != NULL ? v : "", k);
		len += k;
		(*out)[len++] = '\n';
		(*out)[len] = '\0';
	}
	if (*out == NULL) {
		store_stmt_release(s, st);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	if (rc != SQLITE_DONE) {
		store_db_err(s, e, what);
		store_stmt_release(s, st);
		free(*out);
		*out = NULL;
		return -1;
	}
	store_stmt_release(s, st);
	return 0;
}

int
sqlite_setting_values(struct store *s, const char *key, char **values,
    struct err *e)
{
	sqlite3_stmt *st = NULL;

	*values = NULL;
	if (store_prepare(s, e, &st, "SELECT DISTINCT value FROM settings "
	    "WHERE key = ?", "t", key) != 0)
		return -1;
	return lines_of(s, st, "reading the settings", values, e);
}

int
sqlite_games_due(struct store *s, int64_t until, char **names,
    struct err *e)
{
	sqlite3_stmt *st = NULL;

	*names = NULL;
	/* Each half names the partial index of 026 by repeating its WHERE:
	 * the first reads a range of games_by_deadline, the second walks
	 * games_running and probes orders_by_step and order_state's key for
	 * each game's open step; a game's row is read only for its name. */
	if (store_prepare(s, e, &st, "SELECT name FROM games WHERE status = "
	    "'running' AND paused_at IS NULL AND deadline_at <= ?1 "
	    "UNION SELECT name FROM games g WHERE status = 'running' AND "
	    "paused_at IS NULL AND (closed_step IS NOT NULL OR EXISTS (SELECT 1 "
	    "FROM orders o WHERE o.game_id = g.id AND o.step = g.step AND "
	    "o.superseded = 0) OR EXISTS (SELECT 1 FROM order_state os WHERE "
	    "os.game_id = g.id AND os.step = g.step)) ORDER BY name", "i",
	    until) != 0)
		return -1;
	return lines_of(s, st, "reading the games due", names, e);
}

int
sqlite_games_nonce_bound(struct store *s, int any_nonces, int64_t *n,
    struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM games g "
	    "WHERE g.status = 'running' AND (g.closed_step IS NOT NULL OR (? "
	    "AND EXISTS (SELECT 1 FROM settings s WHERE s.game_id = g.id AND "
	    "s.key = 'nonces' AND s.value = 'on')))", "I", any_nonces);
}

int
sqlite_game_lock(struct store *s, int64_t game, struct err *e)
{
	/* The write transaction (BEGIN IMMEDIATE) is the lock: one writer
	 * at a time, for the whole file. */
	(void)game;
	if (!sqlite_in_tx(s))
		return err_set(e, ERR_INTERNAL, "a game's lock is taken inside a "
		    "transaction");
	return 0;
}
