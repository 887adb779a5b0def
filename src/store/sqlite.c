/*
 * sqlite.c - the SQLite backend (see store.h for the contract, ops.h
 * for each operation).
 *
 * Workload: a handful of statements per incoming mail and a few hundred
 * rows rewritten per adjudicated step; every write goes through one
 * IMMEDIATE transaction so a crash leaves either the old step or the new
 * one, never half of each.
 */
#include "store/store.h"

#include <sqlite3.h>
#include <sodium.h>

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/text.h"
#include "scenario/scenario.h"
#include "store/sqlite.h"
#include "store/migrations.h"

static unsigned
sql_hash(const char *sql)
{
	unsigned h = 2166136261u;

	while (*sql != '\0')
		h = (h ^ (unsigned char)*sql++) * 16777619u;
	return h;
}

/* sqlite3_prepare_v2 with the cache. */
int
store_stmt_get(struct store *s, const char *sql, sqlite3_stmt **st)
{
	struct stmt_slot *slot = &SQ(s)->cache[sql_hash(sql) % STMT_CACHE];
	int rc;

	if (slot->st != NULL && !slot->in_use && strcmp(slot->sql, sql) == 0) {
		slot->in_use = 1;
		*st = slot->st;
		return SQLITE_OK;
	}
	rc = sqlite3_prepare_v3(SQ(s)->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL);
	if (rc != SQLITE_OK || slot->in_use)
		return rc;
	/* The slot is free: this statement takes it. */
	if (slot->st != NULL)
		sqlite3_finalize(slot->st);
	free(slot->sql);
	slot->sql = strdup(sql);
	slot->st = slot->sql != NULL ? *st : NULL;
	slot->in_use = slot->st != NULL;
	return rc;
}

/* sqlite3_finalize for what store_stmt_get gave: a kept statement is reset
 * for the next use. */
void
store_stmt_release(struct store *s, sqlite3_stmt *st)
{
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < STMT_CACHE; i++)
		if (SQ(s)->cache[i].st == st) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			SQ(s)->cache[i].in_use = 0;
			return;
		}
	sqlite3_finalize(st);
}

void
store_stmt_cache_free(struct store *s)
{
	size_t i;

	for (i = 0; i < STMT_CACHE; i++) {
		if (SQ(s)->cache[i].st != NULL)
			sqlite3_finalize(SQ(s)->cache[i].st);
		free(SQ(s)->cache[i].sql);
		SQ(s)->cache[i].st = NULL;
		SQ(s)->cache[i].sql = NULL;
	}
}

int
store_db_err(struct store *s, struct err *e, const char *what)
{
	int code = sqlite3_extended_errcode(SQ(s)->db) & 0xff;
	enum err_kind k = ERR_DATA;

	if (code == SQLITE_FULL)
		SQ(s)->full = 1;
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_FULL ||
	    code == SQLITE_IOERR || code == SQLITE_NOMEM || code == SQLITE_CANTOPEN ||
	    code == SQLITE_PROTOCOL)
		k = ERR_TEMP;
	else if (sqlite3_extended_errcode(SQ(s)->db) == SQLITE_CONSTRAINT_UNIQUE ||
	    sqlite3_extended_errcode(SQ(s)->db) == SQLITE_CONSTRAINT_PRIMARYKEY)
		k = ERR_CONFLICT;
	return err_set(e, k, "database: %s: %s", what, sqlite3_errmsg(SQ(s)->db));
}

/* Transactions nest: the outermost is BEGIN ... COMMIT, each inner one a
 * savepoint, so a batch of mails can commit (and fsync) once while each
 * mail still has a transaction of its own to roll back. */
static int
tx_begin(struct store *s, const char *outer, struct err *e)
{
	char sql[48];

	if (SQ(s)->in_tx == 0)
		snprintf(sql, sizeof(sql), "%s", outer);
	else
		snprintf(sql, sizeof(sql), "SAVEPOINT sp%d", SQ(s)->in_tx);
	if (sqlite3_exec(SQ(s)->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_err(s, e, "starting a transaction");
	SQ(s)->in_tx++;
	return 0;
}

int
sqlite_begin(struct store *s, struct err *e)
{
	return tx_begin(s, "BEGIN IMMEDIATE", e);
}

int
sqlite_begin_read(struct store *s, struct err *e)
{
	return tx_begin(s, "BEGIN DEFERRED", e);
}

int
sqlite_in_tx(const struct store *s)
{
	return SQ(s)->in_tx > 0;
}

int
sqlite_commit(struct store *s, struct err *e)
{
	char sql[48];

	/* SQLite undoes a whole transaction by itself after some errors (a
	 * full disk or database, out of memory): nothing is left to commit,
	 * and the work must be done again. */
	if (sqlite3_get_autocommit(SQ(s)->db)) {
		SQ(s)->in_tx = 0;
		return err_set(e, ERR_TEMP, "database: the transaction was undone "
		    "after an error (%s); it is tried again later",
		    SQ(s)->full ? "the disk or the database is full" :
		    sqlite3_errmsg(SQ(s)->db));
	}
	if (SQ(s)->in_tx > 1)
		snprintf(sql, sizeof(sql), "RELEASE sp%d", SQ(s)->in_tx - 1);
	else
		snprintf(sql, sizeof(sql), "COMMIT");
	if (sqlite3_exec(SQ(s)->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		store_db_err(s, e, "committing");
		/* The outermost is rolled back here (the caller's rollback
		 * then does nothing); an inner one by the caller. */
		if (SQ(s)->in_tx == 1)
			store_rollback(s);
		return -1;
	}
	SQ(s)->in_tx--;
	if (SQ(s)->in_tx == 0)
		SQ(s)->full = 0;
	return 0;
}

void
sqlite_rollback(struct store *s)
{
	char sql[64];

	if (SQ(s)->in_tx == 0)
		return;
	if (SQ(s)->in_tx > 1)
		snprintf(sql, sizeof(sql), "ROLLBACK TO sp%d; RELEASE sp%d",
		    SQ(s)->in_tx - 1, SQ(s)->in_tx - 1);
	else
		snprintf(sql, sizeof(sql), "ROLLBACK");
	sqlite3_exec(SQ(s)->db, sql, NULL, NULL, NULL);
	SQ(s)->in_tx--;
}

const char *
sqlite_path(struct store *s)
{
	const char *p = sqlite3_db_filename(SQ(s)->db, "main");

	return p != NULL ? p : "";
}

int
store_changes(struct store *s)
{
	return sqlite3_changes(SQ(s)->db);
}

int64_t
sqlite_last_id(struct store *s)
{
	return sqlite3_last_insert_rowid(SQ(s)->db);
}

static int
bindv(sqlite3_stmt *st, const char *types, va_list ap)
{
	int i, rc = SQLITE_OK;

	for (i = 0; types[i] && rc == SQLITE_OK; i++) {
		switch (types[i]) {
		case 'i':
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
			break;
		case 'I':
			rc = sqlite3_bind_int(st, i + 1, va_arg(ap, int));
			break;
		case 't': {
			const char *t = va_arg(ap, const char *);

			rc = t ? sqlite3_bind_text(st, i + 1, t, -1, SQLITE_TRANSIENT) :
			    sqlite3_bind_null(st, i + 1);
			break;
		}
		case 'b': {
			const void *p = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);

			rc = p ? sqlite3_bind_blob64(st, i + 1, p, n, SQLITE_TRANSIENT) :
			    sqlite3_bind_null(st, i + 1);
			break;
		}
		case 'n':
			rc = sqlite3_bind_null(st, i + 1);
			break;
		default:
			/* A type letter this does not know is a bug in the
			 * caller, never a NULL to store. */
			assert(!"store: an unknown bind type");
			rc = SQLITE_MISUSE;
			break;
		}
	}
	return rc;
}

int
store_prepare(struct store *s, struct err *e, sqlite3_stmt **st, const char *sql,
    const char *types, ...)
{
	va_list ap;
	int rc;

	if (store_stmt_get(s, sql, st) != SQLITE_OK)
		return store_db_err(s, e, "preparing a statement");
	va_start(ap, types);
	rc = bindv(*st, types, ap);
	va_end(ap);
	if (rc != SQLITE_OK) {
		store_db_err(s, e, "binding");
		store_stmt_release(s, *st);
		*st = NULL;
		return -1;
	}
	return 0;
}

int
store_first_row(struct store *s, sqlite3_stmt *st, const char *what,
    struct err *e)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE)
		return store_db_err(s, e, what);
	return 0;
}

int
store_exec(struct store *s, struct err *e, const char *sql, const char *types,
    ...)
{
	sqlite3_stmt *st = NULL;
	va_list ap;
	int rc;

	if (store_stmt_get(s, sql, &st) != SQLITE_OK)
		return store_db_err(s, e, "preparing a statement");
	va_start(ap, types);
	rc = bindv(st, types, ap);
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_db_err(s, e, "writing");
		store_stmt_release(s, st);
		return -1;
	}
	store_stmt_release(s, st);
	if (SQ(s)->in_tx == 0)
		SQ(s)->full = 0;   /* written and committed */
	return 0;
}

int
sqlite_full(const struct store *s)
{
	return SQ(s)->full;
}

/* Prepares sql, binds the arguments and steps once: SQLITE_ROW with the
 * statement in *st (the caller finalizes), SQLITE_DONE with it finalized,
 * or -1 with e set. */
static int
query_first(struct store *s, struct err *e, sqlite3_stmt **st,
    const char *sql, const char *types, va_list ap)
{
	int rc;

	*st = NULL;
	if (store_stmt_get(s, sql, st) != SQLITE_OK)
		return store_db_err(s, e, "preparing a statement");
	rc = bindv(*st, types, ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(*st);
	if (rc == SQLITE_ROW)
		return rc;
	store_stmt_release(s, *st);
	*st = NULL;
	if (rc != SQLITE_DONE)
		return store_db_err(s, e, "reading");
	return SQLITE_DONE;
}

/* store_query_int with its arguments in ap. */
static int
query_intv(struct store *s, struct err *e, int64_t *out, const char *sql,
    const char *types, va_list ap)
{
	sqlite3_stmt *st = NULL;
	int rc = query_first(s, e, &st, sql, types, ap);

	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -1;
	*out = sqlite3_column_int64(st, 0);
	store_stmt_release(s, st);
	return 1;
}

int
store_query_int(struct store *s, struct err *e, int64_t *out,
    const char *sql, const char *types, ...)
{
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = query_intv(s, e, out, sql, types, ap);
	va_end(ap);
	return rc;
}

int
store_query_int_or(struct store *s, struct err *e, int64_t *out,
    int64_t none, const char *sql, const char *types, ...)
{
	va_list ap;
	int rc;

	*out = none;
	va_start(ap, types);
	rc = query_intv(s, e, out, sql, types, ap);
	va_end(ap);
	return rc < 0 ? -1 : 0;
}

int
store_query_text(struct store *s, struct err *e, char **out, size_t *len,
    const char *sql, const char *types, ...)
{
	sqlite3_stmt *st = NULL;
	va_list ap;
	int rc;

	*out = NULL;
	va_start(ap, types);
	rc = query_first(s, e, &st, sql, types, ap);
	va_end(ap);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -1;
	*out = store_col_dup(st, 0, len);
	store_stmt_release(s, st);
	if (*out == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	return 1;
}

void
store_col_text(sqlite3_stmt *st, int col, char *out, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(out, size, "%s", t ? (const char *)t : "");
}

char *
store_col_dup(sqlite3_stmt *st, int col, size_t *len)
{
	const void *v = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	char *p = malloc(n + 1);

	if (p == NULL)
		return NULL;
	if (n > 0)
		memcpy(p, v, n);
	p[n] = '\0';
	if (len != NULL)
		*len = n;
	return p;
}

/* query_first with its arguments given directly. */
static int
query_row(struct store *s, struct err *e, sqlite3_stmt **st, const char *sql,
    const char *types, ...)
{
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = query_first(s, e, st, sql, types, ap);
	va_end(ap);
	return rc;
}

int
sqlite_spool_get(struct store *s, int64_t id, char **raw, size_t *len,
    int64_t *arrived, char *source, size_t ssize, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*raw = NULL;
	rc = query_row(s, e, &st, "SELECT raw, arrived, source FROM spool WHERE "
	    "id = ?", "I", id);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -1;
	*raw = store_col_dup(st, 0, len);
	if (*raw == NULL) {
		store_stmt_release(s, st);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	*arrived = sqlite3_column_int64(st, 1);
	store_col_text(st, 2, source, ssize);
	store_stmt_release(s, st);
	return 1;
}


int
sqlite_server_key_find(struct store *s, const char *name,
    unsigned char key[32], struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	if (store_prepare(s, e, &st, "SELECT key FROM server_keys WHERE name = ?",
	    "t", name) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading a server key", e)) != 1)
		return got;
	got = sqlite3_column_bytes(st, 0) == 32;
	if (got)
		memcpy(key, sqlite3_column_blob(st, 0), 32);
	store_stmt_release(s, st);
	return got;
}

int
sqlite_server_keys_wipe(struct store *s, struct err *e)
{
	int64_t n = 0;

	if (store_query_int(s, e, &n, "SELECT count(*) FROM server_keys", "") < 0)
		return -1;
	if (n == 0)
		return 0;
	if (sqlite3_exec(SQ(s)->db, "PRAGMA secure_delete = ON", NULL, NULL,
	    NULL) != SQLITE_OK)
		return store_db_err(s, e, "turning secure_delete on");
	if (store_exec(s, e, "DELETE FROM server_keys", "") != 0)
		return -1;
	if (SQ(s)->in_tx > 0)
		return 0;
	if (sqlite3_exec(SQ(s)->db, "VACUUM; PRAGMA wal_checkpoint(TRUNCATE)", NULL,
	    NULL, NULL) != SQLITE_OK)
		return store_db_err(s, e, "vacuuming after the keys left");
	return 0;
}

int
sqlite_server_key(struct store *s, const char *name, unsigned char key[32],
    struct err *e)
{
	int got = sqlite_server_key_find(s, name, key, e);

	if (got != 0)
		return got < 0 ? -1 : 0;
	randombytes_buf(key, 32);
	return store_exec(s, e, "INSERT INTO server_keys (name, key) VALUES (?, ?)",
	    "tb", name, (const void *)key, (size_t)32);
}

/* --- games ------------------------------------------------------------ */

const char *
store_status_name(enum game_status st)
{
	return st == GAME_SETUP ? "setup" : st == GAME_RUNNING ? "running" :
	    "finished";
}

void
store_game_clear(struct store_game *g)
{
	if (g == NULL)
		return;
	free(g->scenario_text);
	memset(g, 0, sizeof(*g));
}

int
sqlite_game_get(struct store *s, const char *name, struct store_game *g,
    struct err *e)
{
	sqlite3_stmt *st = NULL;
	const char *status;
	int got;

	memset(g, 0, sizeof(*g));
	if (store_prepare(s, e, &st, "SELECT id, name, title, ruleset, scenario_file, "
	    "scenario_text, sandbox, status, step, seed_secret, visibility, "
	    "result FROM games WHERE name = ? COLLATE NOCASE", "t", name) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading a game", e)) != 1)
		return got < 0 ? -1 : err_set(e, ERR_USER, "no game called \"%s\" "
		    "in this database", name);
	g->id = sqlite3_column_int64(st, 0);
	store_col_text(st, 1, g->name, sizeof(g->name));
	store_col_text(st, 2, g->title, sizeof(g->title));
	store_col_text(st, 3, g->ruleset, sizeof(g->ruleset));
	store_col_text(st, 4, g->scenario_file, sizeof(g->scenario_file));
	g->scenario_text = store_col_dup(st, 5, &g->scenario_len);
	if (g->scenario_text == NULL) {
		store_stmt_release(s, st);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	g->sandbox = sqlite3_column_int(st, 6);
	status = (const char *)sqlite3_column_text(st, 7);
	g->status = strcmp(status, "running") == 0 ? GAME_RUNNING :
	    strcmp(status, "finished") == 0 ? GAME_FINISHED : GAME_SETUP;
	g->step = sqlite3_column_int(st, 8);
	if (sqlite3_column_bytes(st, 9) == 32)
		memcpy(g->seed_secret, sqlite3_column_blob(st, 9), 32);
	store_col_text(st, 10, g->visibility, sizeof(g->visibility));
	store_col_text(st, 11, g->result, sizeof(g->result));
	store_stmt_release(s, st);
	return 0;
}

char *
sqlite_game_names(struct store *s)
{
	sqlite3_stmt *st = NULL;
	char *out = NULL;
	size_t len = 0;

	if (store_stmt_get(s, "SELECT name FROM games ORDER BY name", &st) != SQLITE_OK)
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
sqlite_game_insert(struct store *s, const char *name, const struct battle *b,
    const char *file, const char *text, size_t len, int sandbox,
    const unsigned char seed_secret[32], int64_t now, int64_t *id,
    struct err *e)
{
	unsigned char sha[32];

	crypto_hash_sha256(sha, (const unsigned char *)text, len);
	if (store_exec(s, e, "INSERT INTO games (name, title, ruleset, "
	    "scenario_file, scenario_text, scenario_sha256, sandbox, seed_secret, "
	    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", "tttttbIbi",
	    name, b->title, b->ruleset, file, text,
	    (const void *)sha, (size_t)32, sandbox, (const void *)seed_secret,
	    (size_t)32, now) != 0)
		return -1;
	*id = store_last_id(s);
	return 0;
}

int
sqlite_game_set_status(struct store *s, int64_t game, enum game_status st,
    int step, int64_t now, struct err *e)
{
	if (st == GAME_RUNNING)
		return store_exec(s, e, "UPDATE games SET status = ?, step = ?, "
		    "started_at = COALESCE(started_at, ?) WHERE id = ?", "tIii",
		    store_status_name(st), step, now, game);
	return store_exec(s, e, "UPDATE games SET status = ?, step = ? WHERE id = ?",
	    "tIi", store_status_name(st), step, game);
}

/* --- battle state ----------------------------------------------------- */

int
sqlite_battle_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e)
{
	int i;

	if (store_exec(s, e, "DELETE FROM terrain_state WHERE game_id = ?", "i",
	    game) ||
	    store_exec(s, e, "DELETE FROM stands WHERE game_id = ?", "i", game) ||
	    store_exec(s, e, "DELETE FROM units WHERE game_id = ?", "i", game) ||
	    store_exec(s, e, "DELETE FROM battle_rules WHERE game_id = ?", "i",
	    game) ||
	    store_exec(s, e, "DELETE FROM commanders WHERE game_id = ?", "i", game) ||
	    store_exec(s, e, "DELETE FROM brigades WHERE game_id = ?", "i", game))
		return -1;
	for (i = 0; i < b->nsides; i++)
		if (store_exec(s, e, "INSERT OR IGNORE INTO sides (game_id, idx, "
		    "side_id, name) VALUES (?, ?, ?, ?)", "iItt", game, i,
		    b->sides[i].id, b->sides[i].name))
			return -1;
	for (i = 0; i < b->nterrain; i++)
		if (b->terrain[i].trodden && store_exec(s, e, "INSERT INTO "
		    "terrain_state (game_id, idx, trodden) VALUES (?, ?, ?)", "iII",
		    game, i, b->terrain[i].trodden))
			return -1;
	for (i = 0; i < b->nbrigades; i++) {
		const struct brigade *g = &b->brigades[i];

		if (store_exec(s, e, "INSERT INTO brigades (game_id, idx, side_idx, "
		    "name, commander, level10, sp0, sp_lost, exhausted, collapsed) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "iIItIIIIII", game, i,
		    g->side, g->name, g->commander, g->level10, g->sp0, g->lost,
		    (g->flags & BR_EXHAUSTED) ? 1 : 0,
		    (g->flags & BR_COLLAPSED) ? 1 : 0))
			return -1;
	}
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *c = &b->commanders[i];

		if (store_exec(s, e, "INSERT INTO commanders (game_id, idx, side_idx, "
		    "brigade, name, x, y, facing, gone, attached, out_until, "
		    "out_removed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    "iIIItIIIIIII", game, i, c->side, c->brigade, c->name, c->pos.x,
		    c->pos.y, c->facing, c->gone, c->attached, c->out_until,
		    c->out_removed))
			return -1;
	}
	for (i = 0; i < b->nunits; i++) {
		const struct unit *u = &b->units[i];

		if (store_exec(s, e, "INSERT INTO units (game_id, idx, side_idx, "
		    "brigade, name, type, kind, speed, morale, weapon, abilities) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "iIIIttIIIII", game,
		    i, u->side, u->brigade, u->name, u->type, (int)u->kind,
		    u->speed, u->morale, (int)u->weapon, (int)u->abil))
			return -1;
	}
	if (store_rules_save(s, game, b, e) != 0)
		return -1;
	for (i = 0; i < b->nstands; i++) {
		const struct stand *t = &b->stands[i];

		if (store_exec(s, e, "INSERT INTO stands (game_id, idx, unit_idx, sp, "
		    "sp0, x, y, facing, formation, flags) VALUES (?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?)", "iIIIIIIIII", game, i, t->unit, t->sp, t->sp0,
		    t->pos.x, t->pos.y, t->facing, (int)t->form, (int)t->flags))
			return -1;
	}
	return 0;
}

int
sqlite_battle_load(struct store *s, const struct store_game *g,
    struct battle **out, struct err *e)
{
	struct battle *b = NULL;
	sqlite3_stmt *st = NULL;
	int n = 0, rc = -1;

	*out = NULL;
	if (scenario_parse(g->scenario_text, g->scenario_len, g->scenario_file, 0,
	    &b, e) != 0) {
		e->kind = ERR_DATA;
		return -1;
	}
	if (store_prepare(s, e, &st, "SELECT idx, trodden FROM terrain_state WHERE "
	    "game_id = ?", "i", g->id) != 0)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0);

		if (i < 0 || i >= b->nterrain)
			goto bad;
		b->terrain[i].trodden = sqlite3_column_int(st, 1);
	}
	store_stmt_release(s, st);
	st = NULL;
	if (store_prepare(s, e, &st, "SELECT idx, sp_lost, exhausted, collapsed FROM "
	    "brigades WHERE game_id = ? ORDER BY idx", "i", g->id) != 0)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0);

		if (i < 0 || i >= b->nbrigades)
			goto bad;
		b->brigades[i].lost = sqlite3_column_int(st, 1);
		b->brigades[i].flags = (sqlite3_column_int(st, 2) ? BR_EXHAUSTED : 0) |
		    (sqlite3_column_int(st, 3) ? BR_COLLAPSED : 0);
		n++;
	}
	store_stmt_release(s, st);
	st = NULL;
	if (n != b->nbrigades)
		goto bad;
	n = 0;
	if (store_prepare(s, e, &st, "SELECT idx, x, y, facing, gone, attached, "
	    "out_until, out_removed FROM commanders WHERE game_id = ? ORDER BY "
	    "idx", "i", g->id) != 0)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0);

		if (i < 0 || i >= b->ncommanders)
			goto bad;
		b->commanders[i].pos.x = sqlite3_column_int(st, 1);
		b->commanders[i].pos.y = sqlite3_column_int(st, 2);
		b->commanders[i].facing = sqlite3_column_int(st, 3);
		b->commanders[i].gone = sqlite3_column_int(st, 4);
		b->commanders[i].attached = sqlite3_column_int(st, 5);
		b->commanders[i].out_until = sqlite3_column_int(st, 6);
		b->commanders[i].out_removed = sqlite3_column_int(st, 7);
		if (b->commanders[i].attached < -1 ||
		    b->commanders[i].attached >= b->nunits ||
		    b->commanders[i].out_until < 0 ||
		    b->commanders[i].out_removed < 0 ||
		    b->commanders[i].out_removed > 1)
			goto bad;
		n++;
	}
	store_stmt_release(s, st);
	st = NULL;
	if (n != b->ncommanders)
		goto bad;
	n = 0;
	if (store_prepare(s, e, &st, "SELECT idx, unit_idx, sp, x, y, facing, formation, "
	    "flags FROM stands WHERE game_id = ? ORDER BY idx", "i", g->id) != 0)
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0);
		struct stand *t;

		if (i < 0 || i >= b->nstands ||
		    b->stands[i].unit != sqlite3_column_int(st, 1))
			goto bad;
		t = &b->stands[i];
		t->sp = sqlite3_column_int(st, 2);
		t->pos.x = sqlite3_column_int(st, 3);
		t->pos.y = sqlite3_column_int(st, 4);
		t->facing = sqlite3_column_int(st, 5);
		t->form = (enum formation)sqlite3_column_int(st, 6);
		t->flags = (unsigned)sqlite3_column_int(st, 7);
		n++;
	}
	store_stmt_release(s, st);
	st = NULL;
	if (n != b->nstands)
		goto bad;
	/* What a step changes of the ruleset's own. */
	n = store_rules_load(s, g->id, b, e);
	if (n < 0)
		goto out;
	if (n == 0)
		goto bad;
	battle_sync_kinds(b);
	*out = b;
	b = NULL;
	rc = 0;
	goto out;
bad:
	err_set(e, ERR_DATA, "game \"%s\": the stored forces do not match its "
	    "scenario: the database is damaged, or the game was begun by an "
	    "older despatch that laid out its forces differently (finish it "
	    "with that version, or create it again)", g->name);
out:
	store_stmt_release(s, st);
	battle_free(b);
	return rc;
}

/* --- players ---------------------------------------------------------- */

int
sqlite_player_add(struct store *s, int64_t game, int side, const char *email,
    const unsigned char hash[32], const char *secret, const char *brigades,
    int64_t now, struct err *e)
{
	if (store_exec(s, e, "INSERT INTO players (game_id, side_idx, email, "
	    "secret_hash, brigades, created_at) VALUES (?, ?, ?, ?, ?, ?)",
	    "iItbti", game, side, email, (const void *)hash, (size_t)32,
	    brigades != NULL && brigades[0] ? brigades : NULL, now) != 0)
		return -1;
	return store_exec(s, e, "INSERT INTO player_secrets (player_id, secret) "
	    "VALUES (?, ?)", "it", store_last_id(s), secret);
}

int
sqlite_player_remove(struct store *s, int64_t game, const char *email,
    struct err *e)
{
	/* One player, never two: an address added twice in different
	 * cases by an older version goes one at a time, the exact spelling
	 * first. */
	if (store_exec(s, e, "DELETE FROM players WHERE id = (SELECT id FROM "
	    "players WHERE game_id = ? AND email = ? COLLATE NOCASE ORDER BY "
	    "email = ? DESC, id LIMIT 1)", "itt", game, email, email) != 0)
		return -1;
	return sqlite3_changes(SQ(s)->db) > 0;
}

int
sqlite_player_rehash(struct store *s, int64_t game, const char *email,
    const unsigned char hash[32], int64_t *player, int *side, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	if (store_prepare(s, e, &st, "SELECT id, side_idx FROM players WHERE game_id = ? "
	    "AND email = ? COLLATE NOCASE ORDER BY email = ? DESC, id LIMIT 1",
	    "itt", game, email, email) != 0)
		return -1;
	if ((got = store_first_row(s, st, "finding a player", e)) != 1)
		return got;
	*player = sqlite3_column_int64(st, 0);
	*side = sqlite3_column_int(st, 1);
	store_stmt_release(s, st);
	/* A secret waiting from SECRET goes too: the operator's is the one. */
	if (store_exec(s, e, "UPDATE players SET secret_hash = ?, pending_hash = "
	    "NULL WHERE id = ?", "bi", (const void *)hash, (size_t)32,
	    *player) != 0)
		return -1;
	return 1;
}

int
sqlite_secret_hashes(struct store *s, unsigned char **out, int *n,
    struct err *e)
{
	sqlite3_stmt *st = NULL;
	unsigned char *v = NULL;
	int cnt = 0, rc;

	*out = NULL;
	*n = 0;
	/* Sorted as memcmp sorts them, for a binary search; the secrets
	 * waiting to be used (SECRET) are secrets too. */
	if (store_prepare(s, e, &st, "SELECT secret_hash FROM players UNION ALL "
	    "SELECT pending_hash FROM players WHERE pending_hash IS NOT NULL "
	    "ORDER BY 1", "") != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		unsigned char *nv;

		if (sqlite3_column_bytes(st, 0) != 32)
			continue;
		nv = realloc(v, (size_t)(cnt + 1) * 32);
		if (nv == NULL) {
			free(v);
			store_stmt_release(s, st);
			return err_set(e, ERR_INTERNAL, "out of memory");
		}
		v = nv;
		memcpy(v + (size_t)cnt * 32, sqlite3_column_blob(st, 0), 32);
		cnt++;
	}
	store_stmt_release(s, st);
	if (rc != SQLITE_DONE) {
		free(v);
		return store_db_err(s, e, "reading secret hashes");
	}
	*out = v;
	*n = cnt;
	return 0;
}

int
sqlite_player_secret_take(struct store *s, int64_t player, char *out,
    size_t size, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	out[0] = '\0';
	if (store_prepare(s, e, &st, "SELECT secret FROM player_secrets WHERE "
	    "player_id = ?", "i", player) != 0)
		return -1;
	if ((got = store_first_row(s, st, "reading a player's secret", e)) < 0)
		return -1;
	if (got == 1) {
		store_col_text(st, 0, out, size);
		store_stmt_release(s, st);
	}
	return store_exec(s, e, "DELETE FROM player_secrets WHERE player_id = ?",
	    "i", player);
}

int
sqlite_sightings_update(struct store *s, int64_t game, const struct battle *b,
    int side, const unsigned char *seen, int step, int turn, struct err *e)
{
	int u, k;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		struct pt c;
		int n, facing = 0;

		if (un->side == side ||
		    (n = battle_unit_centre_seen(b, u, seen, &c)) == 0)
			continue;
		/* The facing of the first stand seen. */
		for (k = un->first_stand; k < un->first_stand + un->nstands; k++)
			if (seen[k] && !(b->stands[k].flags & ST_GONE)) {
				facing = b->stands[k].facing;
				break;
			}
		if (store_exec(s, e, "INSERT INTO sightings (game_id, side_idx, "
		    "unit_idx, x, y, facing, stands, step, turn) VALUES (?, ?, ?, "
		    "?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, side_idx, unit_idx) DO "
		    "UPDATE SET x = excluded.x, y = excluded.y, facing = "
		    "excluded.facing, stands = excluded.stands, step = "
		    "excluded.step, turn = excluded.turn", "iIIiiIIII", game, side,
		    u, (int64_t)c.x, (int64_t)c.y, facing, n, step, turn) != 0)
			return -1;
	}
	return 0;
}

int
sqlite_sightings_forget(struct store *s, int64_t game, int side,
    const unsigned char *gone, int nunits, struct err *e)
{
	int u;

	for (u = 0; u < nunits; u++)
		if (gone[u] && store_exec(s, e, "DELETE FROM sightings WHERE "
		    "game_id = ? AND side_idx = ? AND unit_idx = ?", "iII", game,
		    side, u) != 0)
			return -1;
	return 0;
}

int
sqlite_sightings_before(struct store *s, int64_t game, int side, int step,
    struct sighting *out, int max, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc;

	if (store_prepare(s, e, &st, "SELECT unit_idx, x, y, facing, stands, step, "
	    "turn FROM sightings WHERE game_id = ? AND side_idx = ? AND step < "
	    "? ORDER BY unit_idx", "iII", game, side, step) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		out[n].unit = sqlite3_column_int(st, 0);
		out[n].x = (fx)sqlite3_column_int64(st, 1);
		out[n].y = (fx)sqlite3_column_int64(st, 2);
		out[n].facing = sqlite3_column_int(st, 3);
		out[n].stands = sqlite3_column_int(st, 4);
		out[n].step = sqlite3_column_int(st, 5);
		out[n].turn = sqlite3_column_int(st, 6);
		n++;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_db_err(s, e, "reading sightings");
		store_stmt_release(s, st);
		return -1;
	}
	store_stmt_release(s, st);
	return n;
}

int
sqlite_players(struct store *s, int64_t game, int side,
    struct store_player *out, int max, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int n = 0, rc;

	if (store_prepare(s, e, &st, "SELECT id, side_idx, email, secret_hash, "
	    "coalesce(brigades, ''), pending_hash FROM players WHERE game_id = ? "
	    "AND (? < 0 OR side_idx = ?) ORDER BY id",
	    "iII", game, side, side) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == max) {
			store_stmt_release(s, st);
			return err_set(e, ERR_DATA, "more than %d players in one game",
			    max);
		}
		out[n].id = sqlite3_column_int64(st, 0);
		out[n].side = sqlite3_column_int(st, 1);
		store_col_text(st, 2, out[n].email, sizeof(out[n].email));
		if (sqlite3_column_bytes(st, 3) == 32)
			memcpy(out[n].secret_hash, sqlite3_column_blob(st, 3), 32);
		store_col_text(st, 4, out[n].brigades, sizeof(out[n].brigades));
		out[n].pending = sqlite3_column_bytes(st, 5) == 32;
		if (out[n].pending)
			memcpy(out[n].pending_hash, sqlite3_column_blob(st, 5), 32);
		n++;
	}
	if (rc != SQLITE_DONE) {
		store_db_err(s, e, "reading players");
		store_stmt_release(s, st);
		return -1;
	}
	store_stmt_release(s, st);
	return n;
}

/* --- messages --------------------------------------------------------- */

int
sqlite_message_seen(struct store *s, const char *message_id,
    const unsigned char sha[32], struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	if (store_prepare(s, e, &st, "SELECT 1 FROM messages WHERE sha256 = ? OR "
	    "(? IS NOT NULL AND message_id = ?)", "btt", (const void *)sha,
	    (size_t)32, message_id, message_id) != 0)
		return -1;
	if ((got = store_first_row(s, st, "looking up a message", e)) == 1)
		store_stmt_release(s, st);
	return got;
}

int
sqlite_message_insert(struct store *s, const char *message_id,
    const unsigned char sha[32], const char *sender, const char *subject,
    int64_t game, int64_t player, int step, const char *status,
    const char *note, const void *raw, size_t len, const char *text,
    size_t text_len, int64_t now, int64_t *id, struct err *e)
{
	char *t = NULL;
	int rc;

	if (text != NULL) {
		t = malloc(text_len + 1);
		if (t == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		memcpy(t, text, text_len);
		t[text_len] = '\0';
	}
	rc = store_exec(s, e, "INSERT INTO messages (message_id, sha256, sender, "
	    "subject, game_id, player_id, step, status, note, raw, received_at, "
	    "text) VALUES (?, ?, ?, ?, NULLIF(?, 0), NULLIF(?, 0), NULLIF(?, 0), ?, "
	    "?, ?, ?, ?)", "tbttiiIttbit", message_id, (const void *)sha,
	    (size_t)32, sender, subject, game, player, step, status, note,
	    raw ? raw : "", len, now, t);
	free(t);
	if (rc != 0)
		return -1;
	if (id != NULL)
		*id = store_last_id(s);
	return 0;
}

int
sqlite_message_count(struct store *s, int64_t *n, struct err *e)
{
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, e, &st, "SELECT count(*) FROM messages", "") != 0)
		return -1;
	*n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	store_stmt_release(s, st);
	return 0;
}

/* --- orders ----------------------------------------------------------- */

int
sqlite_orders_supersede(struct store *s, int64_t game, int step, int side,
    int64_t player, int *had, struct err *e)
{
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, e, &st, "SELECT count(DISTINCT message) FROM orders WHERE "
	    "game_id = ? AND step = ? AND side_idx = ? AND player_id = ? AND "
	    "superseded = 0", "iIIi", game, step, side, player) != 0)
		return -1;
	*had = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	store_stmt_release(s, st);
	/* Only the current rows: rows superseded before stay as they are, so
	 * a new set costs what the last set had, not every set before it. */
	if (*had == 0)
		return 0;
	return store_exec(s, e, "UPDATE orders SET superseded = 1 WHERE game_id = ? "
	    "AND step = ? AND side_idx = ? AND player_id = ? AND superseded = 0",
	    "iIIi", game, step, side, player);
}

int
sqlite_orders_refile(struct store *s, int64_t game, int from, int to,
    int side, struct err *e)
{
	if (store_exec(s, e, "UPDATE orders SET step = ? WHERE game_id = ? AND "
	    "step = ? AND side_idx = ?", "IiII", to, game, from, side) != 0)
		return -1;
	if (store_exec(s, e, "UPDATE order_state SET step = ? WHERE game_id = ? "
	    "AND step = ? AND player_id IN (SELECT id FROM players WHERE "
	    "game_id = ? AND side_idx = ?)", "IiIiI", to, game, from, game,
	    side) != 0)
		return -1;
	return store_exec(s, e, "UPDATE nonce_commits SET step = ? WHERE "
	    "game_id = ? AND step = ? AND player_id IN (SELECT id FROM players "
	    "WHERE game_id = ? AND side_idx = ?)", "IiIiI", to, game, from, game,
	    side);
}

int
sqlite_orders_sender(struct store *s, int64_t game, int step, int side,
    char *out, size_t size, struct err *e)
{
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	if (store_prepare(s, e, &st, "SELECT m.sender FROM orders o JOIN messages m ON "
	    "m.id = o.message WHERE o.game_id = ? AND o.step = ? AND o.side_idx = ? "
	    "AND o.superseded = 0 ORDER BY o.id LIMIT 1", "iII", game, step,
	    side) != 0)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		store_col_text(st, 0, out, size);
	store_stmt_release(s, st);
	return 0;
}

int
sqlite_order_insert(struct store *s, int64_t game, int step, int side,
    int64_t player, int64_t message, int seq, int line, const char *raw,
    const char *canonical, struct err *e)
{
	return store_exec(s, e, "INSERT INTO orders (game_id, step, side_idx, "
	    "player_id, message, seq, line, raw, canonical) VALUES (?, ?, ?, ?, ?, "
	    "?, ?, ?, ?)", "iIIiiIItt", game, step, side, player, message, seq,
	    line, raw, canonical);
}

void
store_order_rows_free(struct store_order_row *rows, int n)
{
	int i;

	for (i = 0; rows != NULL && i < n; i++) {
		free(rows[i].raw);
		free(rows[i].canonical);
	}
	free(rows);
}

int
sqlite_orders_rows(struct store *s, int64_t game, int step, int side,
    int64_t player, struct store_order_row **rows, int *n, struct err *e)
{
	sqlite3_stmt *st = NULL;
	struct store_order_row *v = NULL;
	int k = 0, cap = 0, rc;

	*rows = NULL;
	*n = 0;
	if (store_prepare(s, e, &st, "SELECT message, line, raw, canonical FROM "
	    "orders WHERE game_id = ? AND step = ? AND side_idx = ? AND "
	    "player_id = ? AND superseded = 0 ORDER BY seq", "iIIi", game, step,
	    side, player) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == cap) {
			struct store_order_row *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (nv == NULL)
				goto oom;
			v = nv;
		}
		v[k].message = sqlite3_column_int64(st, 0);
		v[k].line = sqlite3_column_int(st, 1);
		v[k].raw = store_col_dup(st, 2, NULL);
		v[k].canonical = store_col_dup(st, 3, NULL);
		k++;
		if (v[k - 1].raw == NULL || v[k - 1].canonical == NULL)
			goto oom;
	}
	if (rc != SQLITE_DONE) {
		store_db_err(s, e, "reading the stored orders");
		store_stmt_release(s, st);
		store_order_rows_free(v, k);
		return -1;
	}
	store_stmt_release(s, st);
	*rows = v;
	*n = k;
	return 0;
oom:
	store_stmt_release(s, st);
	store_order_rows_free(v, k);
	return err_set(e, ERR_TEMP, "out of memory reading the stored orders");
}

/* Joins column 0 of every row of a prepared statement, a line each. */
static int
lines_text(struct store *s, sqlite3_stmt *st, char **text, int *count,
    struct err *e)
{
	char *out = calloc(1, 1);
	size_t len = 0;
	int rc;

	*text = NULL;
	*count = 0;
	if (out == NULL) {
		store_stmt_release(s, st);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		size_t k = c ? strlen(c) : 0;
		char *nb = realloc(out, len + k + 2);

		if (nb == NULL) {
			free(out);
			store_stmt_release(s, st);
			return err_set(e, ERR_INTERNAL, "out of memory");
		}
		out = nb;
		if (k > 0)
			memcpy(out + len, c, k);
		len += k;
		out[len++] = '\n';
		out[len] = '\0';
		(*count)++;
	}
	if (rc != SQLITE_DONE) {
		store_db_err(s, e, "reading orders");
		store_stmt_release(s, st);
		free(out);
		*count = 0;
		return -1;
	}
	store_stmt_release(s, st);
	*text = out;
	return 0;
}

int
sqlite_orders_text(struct store *s, int64_t game, int step, int side,
    int64_t player, char **text, int *count, struct err *e)
{
	sqlite3_stmt *st = NULL;

	*text = NULL;
	*count = 0;
	if (store_prepare(s, e, &st, "SELECT canonical FROM orders WHERE game_id = ? AND "
	    "step = ? AND side_idx = ? AND superseded = 0 AND (? = 0 OR "
	    "player_id = ?) ORDER BY player_id, seq", "iIIii", game, step, side,
	    player, player) != 0)
		return -1;
	return lines_text(s, st, text, count, e);
}

int
sqlite_standing_text(struct store *s, int64_t game, int64_t player,
    char **text, int *count, struct err *e)
{
	sqlite3_stmt *st = NULL;

	*text = NULL;
	*count = 0;
	if (store_prepare(s, e, &st, "SELECT canonical FROM standing_orders WHERE "
	    "game_id = ? AND player_id = ? ORDER BY seq", "ii", game, player) != 0)
		return -1;
	return lines_text(s, st, text, count, e);
}

/* --- turns and events ------------------------------------------------- */

int
sqlite_turn_insert(struct store *s, int64_t game, int step, int turn, int side,
    const unsigned char *seed, int scripted, long rolls, int64_t now,
    struct err *e)
{
	return store_exec(s, e, "INSERT INTO turns (game_id, step, turn, side_idx, "
	    "seed, scripted, dice_rolled, adjudicated_at) VALUES (?, ?, ?, ?, ?, ?, "
	    "?, ?)", "iIIIbIii", game, step, turn, side, (const void *)seed,
	    (size_t)(seed ? 32 : 0), scripted, (int64_t)rolls, now);
}

/* An index (a side, a unit) bound to parameter col, or NULL for none
 * (a negative one). */
static void
bind_index(sqlite3_stmt *st, int col, int v)
{
	if (v >= 0)
		sqlite3_bind_int(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

int
sqlite_events_insert(struct store *s, int64_t game, int step,
    const struct events *ev, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int i;

	if (store_stmt_get(s, "INSERT INTO events (game_id, step, seq, "
	    "kind, side_idx, unit_idx, target, value, sides, text, msg, "
	    "arg_types, args) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    &st) != SQLITE_OK)
		return store_db_err(s, e, "preparing events");
	for (i = 0; i < ev->n; i++) {
		const struct event *x = &ev->v[i];

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, game);
		sqlite3_bind_int(st, 2, step);
		sqlite3_bind_int(st, 3, i + 1);
		sqlite3_bind_text(st, 4, events_kind_name(x->kind), -1, SQLITE_STATIC);
		bind_index(st, 5, x->side);
		bind_index(st, 6, x->unit);
		bind_index(st, 7, x->target);
		sqlite3_bind_int(st, 8, x->value);
		sqlite3_bind_int(st, 9, x->sides);
		sqlite3_bind_text(st, 10, x->text, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, x->msg, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 12, x->types, -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 13, x->args, (int)events_args_len(x),
		    SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			store_db_err(s, e, "writing events");
			store_stmt_release(s, st);
			return -1;
		}
	}
	store_stmt_release(s, st);
	return 0;
}

int
sqlite_events_load(struct store *s, int64_t game, int step, struct events *ev,
    int **steps, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int *sv = NULL, cap = 0, rc = SQLITE_DONE;

	*steps = NULL;
	events_init(ev);
	if (store_prepare(s, e, &st, "SELECT step, kind, side_idx, unit_idx, target, "
	    "value, sides, text, msg, arg_types, args FROM events WHERE game_id = "
	    "? AND (? = 0 OR step = ?) ORDER BY step, seq", "iII", game, step,
	    step) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = events_kind_parse((const char *)sqlite3_column_text(st, 1));

		events_add(ev, k < 0 ? EV_PHASE : (enum event_kind)k,
		    sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 2),
		    sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 3),
		    sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 4),
		    sqlite3_column_int(st, 5), "%s", sqlite3_column_text(st, 7));
		if (ev->overflow)
			break;
		ev->v[ev->n - 1].sides = sqlite3_column_int(st, 6);
		if (sqlite3_column_text(st, 8)[0] != '\0' &&
		    events_set_message(ev, (const char *)sqlite3_column_text(st, 8),
		    (const char *)sqlite3_column_text(st, 9),
		    sqlite3_column_blob(st, 10),
		    (size_t)sqlite3_column_bytes(st, 10)) != 0) {
			err_set(e, ERR_DATA, "the values of event %d of step %d are "
			    "damaged", ev->n, sqlite3_column_int(st, 0));
			store_stmt_release(s, st);
			free(sv);
			events_free(ev);
			return -1;
		}
		if (ev->n > cap) {
			int *nv;

			cap = ev->cap;
			nv = realloc(sv, (size_t)cap * sizeof(int));
			if (nv == NULL) {
				ev->overflow = 1;
				break;
			}
			sv = nv;
		}
		sv[ev->n - 1] = sqlite3_column_int(st, 0);
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_db_err(s, e, "reading events");
		store_stmt_release(s, st);
		free(sv);
		events_free(ev);
		return -1;
	}
	store_stmt_release(s, st);
	if (ev->overflow) {
		free(sv);
		events_free(ev);
		return err_set(e, ERR_INTERNAL, "out of memory reading events");
	}
	*steps = sv;
	return 0;
}
