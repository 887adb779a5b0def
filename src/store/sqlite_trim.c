/*
 * sqlite_trim.c - what the store keeps of mail once it has served (issue 19):
 * a delivered mail's bytes give way to its headers, with a hash of them
 * and its text part compressed; a received mail's, once the step it was
 * for is played (or a week on, for mail that is not a player's), to its
 * headers and the text it was read from.  What despatch needs later
 * (duplicate detection, RESEND, the audit of what was read and sent)
 * stays; what it never reads again (maps, HTML, attachments, quoted
 * reports) goes.  store_vacuum gives the freed pages back to the disk.
 * The text is kept compressed (zip.c).
 */
#include "store/store.h"

#include <sodium.h>
#include <sqlite3.h>

#include <stdlib.h>
#include <string.h>

#include "store/sqlite.h"

int
sqlite_outbox_text(struct store *s, int64_t id, char **text, struct err *e)
{
	char *z = NULL;
	size_t n = 0;
	int got;

	*text = NULL;
	got = store_query_text(s, e, &z, &n, "SELECT text_z FROM outbox WHERE "
	    "id = ? AND text_z IS NOT NULL", "i", id);
	if (got <= 0)
		return got;
	*text = store_unzip((unsigned char *)z, n);
	free(z);
	if (*text == NULL)
		return err_set(e, ERR_DATA, "the text kept of mail %lld is damaged",
		    (long long)id);
	return 1;
}

int
sqlite_outbox_hash(struct store *s, int64_t id, const char *raw, size_t len,
    struct err *e)
{
	unsigned char sha[32];

	crypto_hash_sha256(sha, (const unsigned char *)raw, len);
	return store_exec(s, e, "UPDATE outbox SET sha256 = ? WHERE id = ?", "bi",
	    (const void *)sha, (size_t)32, id);
}

/* The headers of a mail's bytes, the blank line after them included, in
 * SQL: CRLF or bare LF line ends. */
#define HEADERS_OF(col) \
	"CASE WHEN instr(" col ", X'0D0A0D0A') > 0 THEN substr(" col ", 1, " \
	"instr(" col ", X'0D0A0D0A') + 3) WHEN instr(" col ", X'0A0A') > 0 " \
	"THEN substr(" col ", 1, instr(" col ", X'0A0A') + 1) ELSE " col " END"

int
sqlite_outbox_cut(struct store *s, int64_t id, struct err *e)
{
	/* The headers stay, with a note of what went.  A mail queued by an
	 * older despatch (no hash, no text kept) stays whole until 'despatch
	 * vacuum' keeps its text; one that held a secret never does. */
	return store_exec(s, e, "UPDATE outbox SET raw = CASE WHEN sensitive "
	    "THEN " HEADERS_OF("raw") " || CAST('[delivered; the body held a "
	    "player''s secret and was removed]' || X'0D0A' AS BLOB) WHEN sha256 "
	    "IS NOT NULL THEN " HEADERS_OF("raw") " || CAST(CASE WHEN text_z IS "
	    "NOT NULL THEN '[delivered; its text is kept, compressed]' ELSE "
	    "'[delivered]' END || X'0D0A' AS BLOB) ELSE raw END WHERE id = ? AND "
	    "delivered_at IS NOT NULL", "i", id);
}

int
sqlite_outbox_delivered(struct store *s, int64_t id, int64_t now, struct err *e)
{
	return store_exec(s, e, "UPDATE outbox SET delivered_at = ? WHERE id = ?",
	    "ii", now, id) != 0 ? -1 : store_outbox_cut(s, id, e);
}

/* A game's mail whose bytes may go a week on: not a player's orders for
 * a step still to be played (a paused game, one waiting for an upgrade),
 * and not one stored before its text was kept (vacuum keeps that first). */
#define STALE_WHERE \
	"trimmed_at IS NULL AND text IS NOT NULL AND game_id IS NOT NULL AND " \
	"received_at < ? AND NOT EXISTS (SELECT 1 FROM orders o JOIN games g " \
	"ON g.id = o.game_id WHERE o.message = messages.id AND o.step >= " \
	"g.step AND g.status = 'running')"

int
sqlite_messages_trim(struct store *s, int64_t game, int played, int64_t now,
    struct err *e)
{
	/* A player's mail for a step now played: what it said was read
	 * into the orders and the replies; its bytes are not needed. */
	if (game > 0 && store_exec(s, e, "UPDATE messages SET raw = "
	    HEADERS_OF("raw") ", trimmed_at = ? WHERE trimmed_at IS NULL AND "
	    "text IS NOT NULL AND game_id = ? AND step <= ? AND player_id IS "
	    "NOT NULL", "iiI", now, game, played) != 0)
		return -1;
	/* Any other mail of a game (an observer's, a command, one with no
	 * step), a week after it came.  Mail of no game (junk) is kept as
	 * the intake bounded it. */
	return store_exec(s, e, "UPDATE messages SET raw = " HEADERS_OF("raw")
	    ", trimmed_at = ? WHERE " STALE_WHERE, "ii", now,
	    now - STORE_KEEP_RAW);
}

int
sqlite_messages_stale(struct store *s, int64_t now, int64_t *n, struct err *e)
{
	return store_query_int_or(s, e, n, 0, "SELECT count(*) FROM messages "
	    "WHERE " STALE_WHERE, "i", now - STORE_KEEP_RAW);
}

int
sqlite_vacuum(struct store *s, int64_t *before, int64_t *after, struct err *e)
{
	int64_t pages = 0, size = 0;

	if (store_query_int(s, e, &pages, "PRAGMA page_count", "") < 0 ||
	    store_query_int(s, e, &size, "PRAGMA page_size", "") < 0)
		return -1;
	*before = pages * size;
	if (store_exec(s, e, "VACUUM", "") != 0 ||
	    store_exec(s, e, "PRAGMA wal_checkpoint(TRUNCATE)", "") != 0 ||
	    store_query_int(s, e, &pages, "PRAGMA page_count", "") < 0)
		return -1;
	*after = pages * size;
	return 0;
}
