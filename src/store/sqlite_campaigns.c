/*
 * sqlite_campaigns.c - campaigns in the SQLite backend (db/028): the
 * campaign, its battlefield files, its players and its chain; and its
 * clock (db/029): its own settings and the reminders sent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

int
sqlite_campaign_insert(struct store *s, const char *name, const char *title,
    const char *ruleset, const char *file, const char *text, size_t len,
    const struct store_cfield *fields, int nfields, int sandbox,
    const unsigned char seed_secret[32], int64_t now, int64_t *id,
    struct err *e)
{
	int i;

	if (store_exec(s, e, "INSERT INTO campaigns (name, title, ruleset, "
	    "file_name, file_text, seed_secret, sandbox, created_at) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?)", "ttttbbIi", name, title, ruleset, file,
	    (const void *)text, len, (const void *)seed_secret, (size_t)32,
	    sandbox, now) != 0)
		return -1;
	*id = store_last_id(s);
	for (i = 0; i < nfields; i++)
		if (store_exec(s, e, "INSERT INTO campaign_fields (campaign_id, "
		    "path, text) VALUES (?, ?, ?)", "itb", *id, fields[i].path,
		    (const void *)fields[i].text, fields[i].len) != 0)
			return -1;
	return 0;
}

int
sqlite_campaign_get(struct store *s, const char *name,
    struct store_campaign *c, struct err *e)
{
	sqlite3_stmt *st = NULL;
	const char *status;
	int got;

	memset(c, 0, sizeof(*c));
	if (store_prepare(s, e, &st, "SELECT id, name, title, ruleset, "
	    "file_name, file_text, status, turn, state_text, seed_secret, "
	    "sandbox, created_at, COALESCE(started_at, 0), pending FROM campaigns "
	    "WHERE "
	    "name = ? COLLATE NOCASE", "t", name) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading a campaign", e)) != 1)
		return got < 0 ? -1 : err_set(e, ERR_USER, "no campaign called "
		    "\"%s\" in this database", name);
	c->id = sqlite3_column_int64(st, 0);
	store_col_text(st, 1, c->name, sizeof(c->name));
	store_col_text(st, 2, c->title, sizeof(c->title));
	store_col_text(st, 3, c->ruleset, sizeof(c->ruleset));
	store_col_text(st, 4, c->file_name, sizeof(c->file_name));
	c->file_text = store_col_dup(st, 5, &c->file_len);
	status = (const char *)sqlite3_column_text(st, 6);
	c->status = strcmp(status, "running") == 0 ? GAME_RUNNING :
	    strcmp(status, "finished") == 0 ? GAME_FINISHED : GAME_SETUP;
	c->turn = sqlite3_column_int(st, 7);
	if (sqlite3_column_type(st, 8) != SQLITE_NULL &&
	    (c->state_text = store_col_dup(st, 8, &c->state_len)) == NULL) {
		store_stmt_release(s, st);
		store_campaign_clear(c);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	if (sqlite3_column_bytes(st, 9) == 32)
		memcpy(c->seed_secret, sqlite3_column_blob(st, 9), 32);
	c->sandbox = sqlite3_column_int(st, 10);
	c->created_at = sqlite3_column_int64(st, 11);
	c->started_at = sqlite3_column_int64(st, 12);
	if (sqlite3_column_type(st, 13) != SQLITE_NULL &&
	    (c->pending = store_col_dup(st, 13, &c->pending_len)) == NULL) {
		store_stmt_release(s, st);
		store_campaign_clear(c);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	store_stmt_release(s, st);
	if (c->file_text == NULL) {
		store_campaign_clear(c);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	return 0;
}

char *
sqlite_campaign_names(struct store *s)
{
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	size_t len = 0;

	if (store_stmt_get(s, "SELECT name FROM campaigns ORDER BY name",
	    &st) != SQLITE_OK)
		return NULL;
	out = calloc(1, 1);
	while (out != NULL && sqlite3_step(st) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		size_t k = strlen(n);
		char *nb = realloc(out, len + k + 2);

		if (nb == NULL) {
			free(out);
			out = NULL;
			break;
		}
		out = nb;
		memcpy(out + len, n, k);
		len += k;
		out[len++] = '\n';
		out[len] = '\0';
	}
	store_stmt_release(s, st);
	return out;
}

int
sqlite_campaign_fields(struct store *s, int64_t campaign,
    struct store_cfield **out, int *n, struct err *e)
{
	sqlite3_stmt *st = NULL;
	struct store_cfield *f = NULL;
	int cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (store_prepare(s, e, &st, "SELECT path, text FROM campaign_fields "
	    "WHERE campaign_id = ? ORDER BY path", "i", campaign) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			struct store_cfield *nf = realloc(f, (size_t)(cap + 8) *
			    sizeof(*f));

			if (nf == NULL)
				goto oom;
			f = nf;
			cap += 8;
		}
		memset(&f[*n], 0, sizeof(f[*n]));
		store_col_text(st, 0, f[*n].path, sizeof(f[*n].path));
		f[*n].text = store_col_dup(st, 1, &f[*n].len);
		if (f[*n].text == NULL)
			goto oom;
		(*n)++;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE) {
		store_cfields_free(f, *n);
		*n = 0;
		return store_db_err(s, e, "reading a campaign's battlefields");
	}
	*out = f;
	return 0;
oom:
	store_stmt_release(s, st);
	store_cfields_free(f, *n);
	*n = 0;
	return err_set(e, ERR_INTERNAL, "out of memory");
}

int
sqlite_campaign_set_state(struct store *s, int64_t campaign,
    enum game_status stt, int turn, const char *state, size_t len,
    int64_t now, struct err *e)
{
	if (state != NULL && store_exec(s, e, "UPDATE campaigns SET state_text "
	    "= ? WHERE id = ?", "bi", (const void *)state, len, campaign) != 0)
		return -1;
	return store_exec(s, e, "UPDATE campaigns SET status = ?, turn = ?, "
	    "started_at = CASE WHEN ? = 'running' THEN COALESCE(started_at, ?) "
	    "ELSE started_at END WHERE id = ?", "tItii", store_status_name(stt),
	    turn, store_status_name(stt), now, campaign);
}

int
sqlite_campaign_player_add(struct store *s, int64_t campaign,
    const char *side, const char *email, const unsigned char hash[32],
    const char *columns, int64_t now, struct err *e)
{
	return store_exec(s, e, "INSERT INTO campaign_players (campaign_id, "
	    "side, email, secret_hash, columns, created_at) VALUES (?, ?, ?, ?, "
	    "NULLIF(?, ''), ?)", "ittbti", campaign, side, email,
	    (const void *)hash, (size_t)32, columns != NULL ? columns : "", now);
}

int
sqlite_campaign_players(struct store *s, int64_t campaign,
    struct store_cplayer *out, int max, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc;

	if (store_prepare(s, e, &st, "SELECT id, side, email, secret_hash, "
	    "mail_format, columns FROM campaign_players WHERE campaign_id = ? "
	    "ORDER BY id", "i", campaign) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].id = sqlite3_column_int64(st, 0);
		store_col_text(st, 1, out[n].side, sizeof(out[n].side));
		store_col_text(st, 2, out[n].email, sizeof(out[n].email));
		if (sqlite3_column_bytes(st, 3) == 32)
			memcpy(out[n].secret_hash, sqlite3_column_blob(st, 3), 32);
		store_col_text(st, 4, out[n].mail_format,
		    sizeof(out[n].mail_format));
		store_col_text(st, 5, out[n].columns, sizeof(out[n].columns));
		n++;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_err(s, e, "reading a campaign's players");
	return n;
}

int
sqlite_campaign_player_set_format(struct store *s, int64_t player,
    const char *format, struct err *e)
{
	return store_exec(s, e, "UPDATE campaign_players SET mail_format = ? "
	    "WHERE id = ?", "ti", format, player);
}

int
sqlite_campaign_record_append(struct store *s, int64_t campaign, int64_t seq,
    const char *kind, const unsigned char *rec, size_t len,
    const unsigned char head[32], const unsigned char sig[64], int64_t now,
    struct err *e)
{
	return store_exec(s, e, "INSERT INTO campaign_records (campaign_id, seq, "
	    "kind, record, head, sig, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
	    "iitbbbi", campaign, seq, kind, (const void *)rec, len,
	    (const void *)head, (size_t)32, (const void *)sig, (size_t)64, now);
}

int
sqlite_campaign_records(struct store *s, int64_t campaign,
    struct store_crecord **out, int *n, struct err *e)
{
	sqlite3_stmt *st = NULL;
	struct store_crecord *r = NULL;
	int cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (store_prepare(s, e, &st, "SELECT seq, kind, record, head, sig, "
	    "created_at FROM campaign_records WHERE campaign_id = ? ORDER BY seq",
	    "i", campaign) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			struct store_crecord *nr = realloc(r, (size_t)(cap + 16) *
			    sizeof(*r));

			if (nr == NULL)
				goto oom;
			r = nr;
			cap += 16;
		}
		memset(&r[*n], 0, sizeof(r[*n]));
		r[*n].seq = sqlite3_column_int64(st, 0);
		store_col_text(st, 1, r[*n].kind, sizeof(r[*n].kind));
		r[*n].rec = (unsigned char *)store_col_dup(st, 2, &r[*n].len);
		if (r[*n].rec == NULL)
			goto oom;
		if (sqlite3_column_bytes(st, 3) == 32)
			memcpy(r[*n].head, sqlite3_column_blob(st, 3), 32);
		if (sqlite3_column_bytes(st, 4) == 64)
			memcpy(r[*n].sig, sqlite3_column_blob(st, 4), 64);
		r[*n].created_at = sqlite3_column_int64(st, 5);
		(*n)++;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE) {
		store_crecords_free(r, *n);
		*n = 0;
		return store_db_err(s, e, "reading a campaign's records");
	}
	*out = r;
	return 0;
oom:
	store_stmt_release(s, st);
	store_crecords_free(r, *n);
	*n = 0;
	return err_set(e, ERR_INTERNAL, "out of memory");
}

int
sqlite_campaign_orders_set(struct store *s, int64_t campaign, int turn,
    const char *side, const char *orders, int64_t now, struct err *e)
{
	return store_exec(s, e, "INSERT OR REPLACE INTO campaign_orders "
	    "(campaign_id, turn, side, orders, created_at) VALUES (?, ?, ?, ?, ?)",
	    "iItti", campaign, turn, side, orders, now);
}

int
sqlite_campaign_orders_get(struct store *s, int64_t campaign, int turn,
    const char *side, char **out, struct err *e)
{
	/* store_query_text: 1 with a row, 0 without */
	return store_query_text(s, e, out, NULL, "SELECT orders FROM "
	    "campaign_orders WHERE campaign_id = ? AND turn = ? AND side = ?",
	    "iIt", campaign, turn, side) < 0 ? -1 : 0;
}

int
sqlite_campaign_set_pending(struct store *s, int64_t campaign,
    const char *text, size_t len, struct err *e)
{
	if (text == NULL)
		return store_exec(s, e, "UPDATE campaigns SET pending = NULL WHERE "
		    "id = ?", "i", campaign);
	return store_exec(s, e, "UPDATE campaigns SET pending = ? WHERE id = ?",
	    "bi", (const void *)text, len, campaign);
}

int
sqlite_campaign_battle_add(struct store *s, int64_t campaign, int turn,
    int idx, int64_t game, struct err *e)
{
	return store_exec(s, e, "INSERT INTO campaign_battles (campaign_id, turn, "
	    "idx, game_id) VALUES (?, ?, ?, ?)", "iIIi", campaign, turn, idx,
	    game);
}

int
sqlite_campaign_battles(struct store *s, int64_t campaign, int turn,
    int64_t *out, int max, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc;

	if (store_prepare(s, e, &st, "SELECT game_id FROM campaign_battles WHERE "
	    "campaign_id = ? AND turn = ? ORDER BY idx", "iI", campaign,
	    turn) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
		out[n++] = sqlite3_column_int64(st, 0);
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_err(s, e, "reading a campaign's battles");
	return n;
}

int
sqlite_game_name_of(struct store *s, int64_t game, char *name, struct err *e)
{
	char *n = NULL;

	if (store_query_text(s, e, &n, NULL, "SELECT name FROM games WHERE id = ?",
	    "i", game) < 0)
		return -1;
	if (n == NULL)
		return err_set(e, ERR_DATA, "no game %lld", (long long)game);
	snprintf(name, 64, "%s", n);
	free(n);
	return 0;
}

int
sqlite_game_set_campaign(struct store *s, int64_t game, int64_t campaign,
    struct err *e)
{
	return store_exec(s, e, "UPDATE games SET campaign_id = ? WHERE id = ?",
	    "ii", campaign, game);
}

int
sqlite_game_campaign(struct store *s, int64_t game, char *name, struct err *e)
{
	char *n = NULL;

	name[0] = '\0';
	if (store_query_text(s, e, &n, NULL, "SELECT c.name FROM games g JOIN "
	    "campaigns c ON c.id = g.campaign_id WHERE g.id = ?", "i", game) < 0)
		return -1;
	if (n == NULL)
		return 0;
	snprintf(name, 64, "%s", n);
	free(n);
	return 1;
}

int
sqlite_campaign_orders_at(struct store *s, int64_t campaign, int turn,
    const char *side, int64_t *at, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc, found = 0;

	if (store_prepare(s, e, &st, "SELECT created_at FROM campaign_orders "
	    "WHERE campaign_id = ? AND turn = ? AND side = ?", "iIt", campaign,
	    turn, side) != 0)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*at = sqlite3_column_int64(st, 0);
		found = 1;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_err(s, e, "reading a campaign's orders");
	return found;
}

int
sqlite_campaign_opened(struct store *s, int64_t campaign, int64_t *at,
    struct err *e)
{
	/* The last record by the primary key, not every record's bytes. */
	return store_query_int_or(s, e, at, 0, "SELECT created_at FROM "
	    "campaign_records WHERE campaign_id = ? ORDER BY seq DESC LIMIT 1",
	    "i", campaign);
}

/* --- its clock (db/029) ------------------------------------------------ */

int
sqlite_campaign_setting_get(struct store *s, int64_t campaign,
    const char *key, char **value, int64_t *from, struct err *e)
{
	sqlite3_stmt *st = NULL;

	*value = NULL;
	/* Its own first (a campaign's id is never 0), else the server's. */
	if (store_prepare(s, e, &st, "SELECT value, campaign_id FROM "
	    "campaign_settings WHERE campaign_id = ?1 AND key = ?2 UNION ALL "
	    "SELECT value, 0 FROM settings WHERE game_id = 0 AND key = ?2 "
	    "ORDER BY 2 DESC LIMIT 1", "it", campaign, key) != 0)
		return -1;
	return store_setting_row(s, st, "reading a campaign's setting", value,
	    from, e);
}

int
sqlite_campaign_setting_set(struct store *s, int64_t campaign,
    const char *key, const char *value, struct err *e)
{
	return store_exec(s, e, "INSERT INTO campaign_settings (campaign_id, "
	    "key, value) VALUES (?, ?, ?) ON CONFLICT (campaign_id, key) DO "
	    "UPDATE SET value = excluded.value", "itt", campaign, key, value);
}

int
sqlite_campaign_reminder_add(struct store *s, int64_t campaign, int turn,
    int64_t ahead, struct err *e)
{
	return store_exec(s, e, "INSERT OR IGNORE INTO campaign_reminders_sent "
	    "(campaign_id, turn, ahead) VALUES (?, ?, ?)", "iIi", campaign,
	    turn, ahead);
}

int
sqlite_campaign_reminder_sent(struct store *s, int64_t campaign, int turn,
    int64_t ahead, struct err *e)
{
	int64_t n = 0;

	if (store_query_int(s, e, &n, "SELECT count(*) FROM "
	    "campaign_reminders_sent WHERE campaign_id = ? AND turn = ? AND "
	    "ahead <= ?", "iIi", campaign, turn, ahead) < 0)
		return -1;
	return n > 0;
}
