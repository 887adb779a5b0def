/*
 * sqlite_ledger.c - the ledger and the dice's secrets: each game's signed
 * records and the leaves of each step's orders root (docs/ledger.md), the
 * players' nonce commitments and reveals, and a new player's secret kept
 * until the welcome carries it (see ops.h).
 *
 * The records are written in the caller's transaction, so a record
 * exists exactly when its step does; nothing here hashes or signs (that
 * is src/ledger/'s), it keeps and gives back bytes.
 */
#include "store/store.h"

#include <sqlite3.h>

#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

/* Column col into out when it is exactly size bytes: 1, else 0 (damage,
 * out left alone). */
static int
col_fixed(sqlite3_stmt *st, int col, unsigned char *out, size_t size)
{
	const void *v = sqlite3_column_blob(st, col);

	if (v == NULL || (size_t)sqlite3_column_bytes(st, col) != size)
		return 0;
	memcpy(out, v, size);
	return 1;
}

/* A 32-byte hash from the first column of a prepared query's first row
 * into out: 1, 0 when there is no row or the value is not 32 bytes
 * (damage, out left alone), -1 with e set; st released. */
static int
first_hash(struct store *s, sqlite3_stmt *st, unsigned char out[32],
    struct err *e)
{
	int got = store_first_row(s, st, "reading", e);

	if (got != 1)
		return got;
	got = col_fixed(st, 0, out, 32);
	store_stmt_release(s, st);
	return got;
}

/* --- the records -------------------------------------------------------- */

int
sqlite_ledger_count(struct store *s, int64_t game, int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM ledger "
	    "WHERE game_id = ?", "i", game);
}

int
sqlite_ledger_last_seq(struct store *s, int64_t game, int64_t *seq,
    struct err *e)
{
	return store_query_int_or(s, e, seq, -1,
	    "SELECT coalesce(max(seq), -1) FROM ledger WHERE game_id = ?", "i",
	    game);
}

int
sqlite_ledger_head(struct store *s, int64_t game, int64_t seq,
    unsigned char head[32], struct err *e)
{
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, e, &st, "SELECT head FROM ledger WHERE "
	    "game_id = ? AND seq = ?", "ii", game, seq) != 0)
		return -1;
	return first_hash(s, st, head, e);
}

/* The columns a record is read from, in the order record_read takes
 * them. */
#define RECORD_COLS "kind, step, record, head, sig"

/* The record of a prepared query on RECORD_COLS into *r, as
 * store_ledger_record. */
static int
record_read(struct store *s, sqlite3_stmt *st, struct store_record *r,
    struct err *e)
{
	int got = store_first_row(s, st, "reading", e);

	if (got != 1)
		return got;
	store_col_text(st, 0, r->kind, sizeof(r->kind));
	r->step = sqlite3_column_int(st, 1);
	r->head_ok = col_fixed(st, 3, r->head, sizeof(r->head));
	r->sig_ok = col_fixed(st, 4, r->sig, sizeof(r->sig));
	r->bytes = (unsigned char *)store_col_dup(st, 2, &r->len);
	store_stmt_release(s, st);
	if (r->bytes == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	return 1;
}

int
sqlite_ledger_record(struct store *s, int64_t game, int64_t seq,
    struct store_record *r, struct err *e)
{
	sqlite3_stmt *st = NULL;

	memset(r, 0, sizeof(*r));
	if (store_prepare(s, e, &st, "SELECT " RECORD_COLS " FROM ledger WHERE "
	    "game_id = ? AND seq = ?", "ii", game, seq) != 0)
		return -1;
	return record_read(s, st, r, e);
}

int
sqlite_ledger_last_step(struct store *s, int64_t game, struct store_record *r,
    struct err *e)
{
	sqlite3_stmt *st = NULL;

	memset(r, 0, sizeof(*r));
	if (store_prepare(s, e, &st, "SELECT " RECORD_COLS " FROM ledger WHERE "
	    "game_id = ? AND kind = 'step' ORDER BY seq DESC LIMIT 1", "i",
	    game) != 0)
		return -1;
	return record_read(s, st, r, e);
}

int
sqlite_ledger_last_upgrade(struct store *s, int64_t game,
    struct store_record *r, struct err *e)
{
	sqlite3_stmt *st = NULL;

	/* Only an upgrade keeps a checkpoint with its record. */
	memset(r, 0, sizeof(*r));
	if (store_prepare(s, e, &st, "SELECT " RECORD_COLS " FROM ledger WHERE "
	    "game_id = ? AND checkpoint IS NOT NULL ORDER BY seq DESC LIMIT 1",
	    "i", game) != 0)
		return -1;
	return record_read(s, st, r, e);
}

int
sqlite_ledger_append(struct store *s, int64_t game, int64_t seq,
    const char *kind, int step, const void *bytes, size_t len,
    const unsigned char head[32], const unsigned char sig[64], struct err *e)
{
	return store_exec(s, e, "INSERT INTO ledger (game_id, seq, kind, step, "
	    "record, head, sig) VALUES (?, ?, ?, ?, ?, ?, ?)", "iitIbbb", game,
	    seq, kind, step, bytes, len, (const void *)head, (size_t)32,
	    (const void *)sig, (size_t)64);
}

int
sqlite_ledger_checkpoint_set(struct store *s, int64_t game, int64_t seq,
    const char *checkpoint, struct err *e)
{
	return store_exec(s, e, "UPDATE ledger SET checkpoint = ? WHERE "
	    "game_id = ? AND seq = ?", "tii", checkpoint, game, seq);
}

int
sqlite_ledger_checkpoint(struct store *s, int64_t game, int64_t seq,
    char **text, size_t *len, struct err *e)
{
	return store_query_text(s, e, text, len, "SELECT checkpoint FROM "
	    "ledger WHERE game_id = ? AND seq = ? AND checkpoint IS NOT NULL",
	    "ii", game, seq);
}

/* --- the leaves of a step's orders root --------------------------------- */

int
sqlite_ledger_leaves_count(struct store *s, int64_t game, int step,
    int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
	    "ledger_leaves WHERE game_id = ? AND step = ?", "iI", game, step);
}

int
sqlite_ledger_leaf(struct store *s, int64_t game, int step, int idx,
    struct store_leaf *l, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	memset(l, 0, sizeof(*l));
	if (store_prepare(s, e, &st, "SELECT side_idx, seat, mailed, orders, "
	    "salt FROM ledger_leaves WHERE game_id = ? AND step = ? AND "
	    "idx = ?", "iII", game, step, idx) != 0)
		return -1;
	got = store_first_row(s, st, "reading", e);
	if (got != 1)
		return got;
	l->side = sqlite3_column_int(st, 0);
	l->seat = sqlite3_column_int(st, 1);
	l->mailed = sqlite3_column_int(st, 2);
	l->salt_ok = col_fixed(st, 4, l->salt, sizeof(l->salt));
	l->orders = store_col_dup(st, 3, NULL);
	store_stmt_release(s, st);
	if (l->orders == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	return 1;
}

int
sqlite_ledger_leaf_add(struct store *s, int64_t game, int step, int idx,
    int side, int64_t player, int seat, int mailed,
    const unsigned char salt[16], const char *orders,
    const unsigned char leaf[32], struct err *e)
{
	return store_exec(s, e, "INSERT INTO ledger_leaves (game_id, step, "
	    "idx, side_idx, player_id, seat, mailed, salt, orders, leaf) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "iIIIiIIbtb", game, step,
	    idx, side, player, seat, mailed, (const void *)salt, (size_t)16,
	    orders, (const void *)leaf, (size_t)32);
}

/* --- the nonces of a game's dice ---------------------------------------- */

int
sqlite_nonce_commit(struct store *s, int64_t game, int step, int64_t player,
    unsigned char hash[32], struct err *e)
{
	sqlite3_stmt *st = NULL;

	memset(hash, 0, 32);
	if (store_prepare(s, e, &st, "SELECT hash FROM nonce_commits WHERE "
	    "game_id = ? AND step = ? AND player_id = ?", "iIi", game, step,
	    player) != 0)
		return -1;
	return first_hash(s, st, hash, e);
}

int
sqlite_nonce_commit_set(struct store *s, int64_t game, int step,
    int64_t player, const unsigned char hash[32], struct err *e)
{
	return store_exec(s, e, "INSERT OR REPLACE INTO nonce_commits "
	    "(game_id, step, player_id, hash) VALUES (?, ?, ?, ?)", "iIib",
	    game, step, player, (const void *)hash, (size_t)32);
}

int
sqlite_nonce_reveal(struct store *s, int64_t game, int step, int64_t player,
    char *out, size_t size, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int got;

	if (size > 0)
		out[0] = '\0';
	if (store_prepare(s, e, &st, "SELECT nonce FROM nonce_reveals WHERE "
	    "game_id = ? AND step = ? AND player_id = ?", "iIi", game, step,
	    player) != 0)
		return -1;
	got = store_first_row(s, st, "reading", e);
	if (got != 1)
		return got;
	store_col_text(st, 0, out, size);
	store_stmt_release(s, st);
	return 1;
}

int
sqlite_nonce_reveal_set(struct store *s, int64_t game, int step,
    int64_t player, const char *nonce, struct err *e)
{
	return store_exec(s, e, "INSERT OR REPLACE INTO nonce_reveals "
	    "(game_id, step, player_id, nonce) VALUES (?, ?, ?, ?)", "iIit",
	    game, step, player, nonce);
}

int
sqlite_nonces_owed(struct store *s, int64_t game, int step, int64_t *n,
    struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM "
	    "nonce_commits c WHERE c.game_id = ? AND c.step = ? AND NOT "
	    "EXISTS (SELECT 1 FROM nonce_reveals n WHERE n.game_id = "
	    "c.game_id AND n.step = c.step AND n.player_id = c.player_id)",
	    "iI", game, step);
}

/* --- a secret until the welcome carries it ------------------------------ */

int
sqlite_player_secret_keep(struct store *s, int64_t player, const char *secret,
    struct err *e)
{
	return store_exec(s, e, "INSERT OR REPLACE INTO player_secrets "
	    "(player_id, secret) VALUES (?, ?)", "it", player, secret);
}
