/*
 * store.h - the SQLite database behind despatch.
 *
 * One database file holds every game on a server (schema: db/NNN_name.sql,
 * compiled in and applied in order on open, tracked by PRAGMA
 * user_version).  The store opens it in WAL mode with foreign keys on and
 * a busy timeout, and gives the rest of the program typed reads and
 * writes.  Every change of more than one row happens inside
 * store_begin()/store_commit(); a failure rolls the whole change back.
 *
 * Errors: a database that is locked, full or failing I/O is ERR_TEMP (the
 * pipe contract turns that into exit 75 so the MTA retries); a missing
 * row the caller asked for is ERR_USER with a message naming it.
 */
#ifndef DESPATCH_STORE_H
#define DESPATCH_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

struct store;

/* Opens path.  With create = 0 a missing file is an error (only `despatch
 * new` and the demo create databases).  Applies pending migrations up to
 * max_version (-1: all).  Returns 0 and *out, or -1 with e set. */
/* How long a store opened after this waits for another writer before
 * a write fails as busy (ERR_TEMP): ms milliseconds (default 15000; out
 * of 1..599999, the default).  The fronts pass $DESPATCH_BUSY_TIMEOUT. */
void store_busy_timeout(long ms);
int store_open(const char *path, int create, int max_version,
    struct store **out, struct err *e);
void store_close(struct store *s);

/* A consistent copy of the whole store in a new file to (mode 0600),
 * taken while others go on writing (SQLite's backup API).  0, or -1. */
int store_backup(struct store *s, const char *to, struct err *e);

/* PRAGMA quick_check: 0 when the file is whole, -1 with e (ERR_DATA)
 * naming the first damage found.  It reads every page, so it is for a
 * daemon's start, not for every open. */
int store_quick_check(struct store *s, struct err *e);

/* The schema version this open upgraded the file from (0 when it did
 * not), and in *copy (if not NULL) the copy of the file as it was then,
 * path.before-N, made with SQLite's backup API before the first
 * migration; only the latest such copy is kept.  A front says so once. */
int store_upgraded_from(const struct store *s, const char **copy);

/* The schema version the file is at, and the newest this build knows. */
int store_version(struct store *s);
int store_latest_version(void);

/* A read: one consistent snapshot, taking no write lock (end it with
 * store_rollback), for work that must not hold writers up. */
int store_begin_read(struct store *s, struct err *e);
/* BEGIN IMMEDIATE / COMMIT / ROLLBACK.  Inside another transaction they
 * are a savepoint, its release and its rollback: the outermost commit is
 * the one that makes the work durable. */
int store_begin(struct store *s, struct err *e);
int store_commit(struct store *s, struct err *e);
/* 1 when the last write failed because the disk is full (SQLITE_FULL),
 * until a write commits again. */
int store_full(const struct store *s);
/* 1 while a transaction is open on s. */
int store_in_tx(const struct store *s);
void store_rollback(struct store *s);

/* Runs one statement with arguments described by types: 'i' int64_t,
 * 'I' int (as int64), 't' const char * (NULL binds NULL), 'b' const void *
 * then size_t, 'n' NULL.  For statements without rows. */
int store_exec(struct store *s, struct err *e, const char *sql,
    const char *types, ...);
/* Runs a query for one value: 1 and *out from the first column of the
 * first row, 0 when there is no row, -1 with e set on error. */
int store_query_int(struct store *s, struct err *e, int64_t *out,
    const char *sql, const char *types, ...);
/* The same for a text or blob value: *out is malloc'd and NUL-terminated
 * (its length in *len if len is not NULL); NULL when there is no row. */
int store_query_text(struct store *s, struct err *e, char **out, size_t *len,
    const char *sql, const char *types, ...);
/* A mail the daemon spooled (the spool table): 1 with its bytes in *raw
 * (malloc'd, NUL-terminated), when it came and where from; 0 when there
 * is no such row; -1 with e set. */
int store_spool_get(struct store *s, int64_t id, char **raw, size_t *len,
    int64_t *arrived, char *source, size_t ssize, struct err *e);
/* The database's file name ("" for one in memory). */
const char *store_path(struct store *s);
/* The rowid of the last insert. */
int64_t store_last_id(struct store *s);

/* The 32-byte server key named name, made at random on first use. */
/* The key name as the database holds it: 1 and key, 0 when it holds none
 * (nothing is made), -1 with e set. */
int store_server_key_find(struct store *s, const char *name,
    unsigned char key[32], struct err *e);
/* Deletes every key of server_keys with secure_delete on (the bytes are
 * overwritten, not only unlinked), then, outside a transaction, VACUUMs
 * and truncates the WAL so no free page or log keeps them.  0, or -1. */
int store_server_keys_wipe(struct store *s, struct err *e);
int store_server_key(struct store *s, const char *name, unsigned char key[32],
    struct err *e);

/* --- games ------------------------------------------------------------ */

enum game_status { GAME_SETUP = 0, GAME_RUNNING, GAME_FINISHED };

struct store_game {
	int64_t id;
	char name[64];
	char title[BATTLE_NAME_MAX * 2];
	char ruleset[BATTLE_ID_MAX];
	char scenario_file[256];
	char *scenario_text;        /* owned; free with store_game_clear */
	size_t scenario_len;
	int sandbox;
	enum game_status status;
	int step;
	unsigned char seed_secret[32];
	char visibility[8];
	char result[256];           /* how it ended ("" while it goes on) */
};

void store_game_clear(struct store_game *g);
/* 0 and *g filled; -1 with ERR_USER "no game called ..." if absent.
 * Game names are matched without regard to case. */
int store_game_get(struct store *s, const char *name, struct store_game *g,
    struct err *e);
/* Names of all games, newline-separated, in a malloc'd string. */
char *store_game_names(struct store *s);
int store_game_insert(struct store *s, const char *name,
    const struct battle *b, const char *file, const char *text, size_t len,
    int sandbox, const unsigned char seed_secret[32], int64_t now,
    int64_t *id, struct err *e);
int store_game_set_status(struct store *s, int64_t game, enum game_status st,
    int step, int64_t now, struct err *e);
const char *store_status_name(enum game_status st);

/* --- the battle state ------------------------------------------------- */

/* Writes the live parts of b (brigades, commanders, units, stands,
 * sides) for game, replacing what was there. */
int store_battle_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e);
/* Rebuilds the battle: the scenario text gives the table and terrain,
 * the rows give the forces as they are now.  *out is new (battle_free). */
int store_battle_load(struct store *s, const struct store_game *g,
    struct battle **out, struct err *e);

/* --- players ---------------------------------------------------------- */

struct store_player {
	int64_t id;
	int side;
	char email[256];
	unsigned char secret_hash[32];
	char brigades[512];     /* the brigades the player commands, as the
	                         * operator named them; "" for the whole side */
};

/* Adds a player; the secret in clear is kept (player_secrets) until the
 * welcome mail carries it (see store_player_secret_take). */
int store_player_add(struct store *s, int64_t game, int side,
    const char *email, const unsigned char hash[32], const char *secret,
    const char *brigades, int64_t now, struct err *e);
/* The secret hashes of every player of every game, as a malloc'd array of
 * *n 32-byte hashes in memcmp order (NULL when there are none). */
int store_secret_hashes(struct store *s, unsigned char **out, int *n,
    struct err *e);
/* Writes the player's secret in clear to out and forgets it; "" if it is
 * no longer kept. */
int store_player_secret_take(struct store *s, int64_t player, char *out,
    size_t size, struct err *e);
/* Removes the player with this address from game; 1 if one was removed,
 * 0 if none plays there. */
int store_player_remove(struct store *s, int64_t game, const char *email,
    struct err *e);
/* Gives the player a new secret hash; 1 if the player exists, else 0. */
int store_player_rehash(struct store *s, int64_t game, const char *email,
    const unsigned char hash[32], int64_t *player, int *side, struct err *e);
/* Up to max players of game (side -1: all sides), in the order added. */
/* Sets side's sighting of each enemy unit with a stand in seen (a flag a
 * stand) to where those stands are now, after step (of turn). */
int store_sightings_update(struct store *s, int64_t game,
    const struct battle *b, int side, const unsigned char *seen, int step,
    int turn, struct err *e);
/* Side's sightings made before step (the units it does not see since),
 * of units still in the battle's list, at most max into out: how many,
 * or -1. */
int store_sightings_before(struct store *s, int64_t game, int side,
    int step, struct sighting *out, int max, struct err *e);

int store_players(struct store *s, int64_t game, int side,
    struct store_player *out, int max, struct err *e);

/* --- messages --------------------------------------------------------- */

/* 1 if a message with this Message-ID (may be NULL) or raw hash is
 * stored already, 0 if not, -1 on error. */
int store_message_seen(struct store *s, const char *message_id,
    const unsigned char sha[32], struct err *e);
int store_message_insert(struct store *s, const char *message_id,
    const unsigned char sha[32], const char *sender, const char *subject,
    int64_t game, int64_t player, int step, const char *status,
    const char *note, const void *raw, size_t len, const char *text,
    size_t text_len, int64_t now, int64_t *id, struct err *e);
int store_message_count(struct store *s, int64_t *n, struct err *e);

/* --- orders ----------------------------------------------------------- */

/* Marks the current orders of one player for (game, step, side)
 * superseded; returns how many sets there were in *had (0 or more). */
int store_orders_supersede(struct store *s, int64_t game, int step, int side,
    int64_t player, int *had, struct err *e);
/* The sender of the mail behind the current orders of (game, step, side),
 * written to out ("" if none). */
int store_orders_sender(struct store *s, int64_t game, int step, int side,
    char *out, size_t size, struct err *e);
int store_order_insert(struct store *s, int64_t game, int step, int side,
    int64_t player, int64_t message, int seq, int line, const char *raw,
    const char *canonical, struct err *e);
/* The canonical lines of the current orders of (game, step, side), of
 * one player (player > 0) or of all the side's players in the order they
 * joined (0), newline-separated, in a malloc'd string ("" if none);
 * *count lines. */
int store_orders_text(struct store *s, int64_t game, int step, int side,
    int64_t player, char **text, int *count, struct err *e);

/* The canonical lines of a player's standing orders, as store_orders_text
 * gives orders. */
int store_standing_text(struct store *s, int64_t game, int64_t player,
    char **text, int *count, struct err *e);

/* --- turns and events ------------------------------------------------- */

int store_turn_insert(struct store *s, int64_t game, int step, int turn,
    int side, const unsigned char *seed, int scripted, long rolls,
    int64_t now, struct err *e);
int store_events_insert(struct store *s, int64_t game, int step,
    const struct events *ev, struct err *e);
/* Events of one step (step > 0) or of all steps (step 0), in order.
 * Each event's step is returned in the parallel array *steps. */
int store_events_load(struct store *s, int64_t game, int step,
    struct events *ev, int **steps, struct err *e);

/* --- outbox ----------------------------------------------------------- */

struct store_mail {
	int64_t id;
	char message_id[256];
	char recipient[256];
	char subject[256];
	char kind[16];
	char game[64];          /* "" for mail about no game */
	int64_t created_at;
	int64_t delivered_at;   /* 0 if not yet */
	int attempts;           /* SMTP attempts that did not send it */
	int64_t next_attempt_at;
	int64_t failed_at;      /* refused for good (0: not) */
	char last_error[256];
	char draw[32];          /* "start FORMAT": its visuals are drawn
	                         * when it is sent; "" none */
	char *raw;              /* owned */
	size_t len;
};

/* Queues a mail, with its text part (NULL: none to keep).  Once it is
 * delivered its bytes go but for the headers and a note
 * (store_outbox_delivered); the text is kept compressed unless the mail
 * is sensitive (it holds a secret). */
int store_outbox_add(struct store *s, int64_t game, const char *message_id,
    const char *recipient, const char *subject, const char *kind,
    const char *raw, size_t len, int sensitive, const char *text,
    int64_t now, struct err *e);
/* A delivered mail's bytes cut to its headers and a note (what
 * store_outbox_delivered does after marking it). */
int store_outbox_cut(struct store *s, int64_t id, struct err *e);
/* The hash of the bytes sent for mail id, when they are not the ones
 * queued (a welcome whose map was drawn at sending). */
int store_outbox_hash(struct store *s, int64_t id, const char *raw,
    size_t len, struct err *e);
/* The text kept of mail id into *text (malloc'd): 1, 0 when none is
 * kept, -1 with e set. */
int store_outbox_text(struct store *s, int64_t id, char **text,
    struct err *e);
/* Queued (undelivered) mail when pending = 1, else all; *out is a
 * malloc'd array of *n mails (free with store_mails_free). */
int store_outbox_list(struct store *s, int pending, struct store_mail **out,
    int *n, struct err *e);
void store_mails_free(struct store_mail *m, int n);
int store_outbox_delivered(struct store *s, int64_t id, int64_t now,
    struct err *e);
/* Mail due to be sent now: undelivered, not failed, its next attempt
 * due; as store_outbox_list. */
int store_outbox_due(struct store *s, int64_t now, struct store_mail **out,
    int *n, struct err *e);
/* An attempt that may pass later: counted, and the next one put off by
 * a wait that doubles with each attempt, from first seconds (60 when 0)
 * up to 1 hour. */
/* Lifts the hold of every mail held back for at most hold seconds past
 * now and never yet tried (an order reply waiting for its map), so it is
 * due at once; a mail held for an observer's delay or put off after a
 * failed try is left.  Returns how many, or -1 with e set. */
int store_outbox_unhold(struct store *s, int64_t now, int64_t hold,
    struct err *e);
int store_outbox_retry(struct store *s, int64_t id, int64_t now,
    int64_t first, const char *why, struct err *e);
/* Refused for good: never tried again, shown by 'despatch outbox'. */
int store_outbox_failed(struct store *s, int64_t id, int64_t now,
    const char *why, struct err *e);

/* --- keeping the store small (trim.c) --------------------------------- */

/* A received mail that is no player's orders keeps its bytes this long. */
#define STORE_KEEP_RAW (7 * 24 * 3600)

/* text compressed (zlib, after a 4-byte length): 0, or -1 out of memory. */
int store_zip(const char *text, size_t n, unsigned char **out,
    size_t *outlen);
/* What store_zip made, as text (malloc'd); NULL when damaged. */
char *store_unzip(const unsigned char *z, size_t n);
/* Cuts to its headers each received mail whose bytes are no longer
 * needed: a player's mail of game for a step up to played (game 0:
 * none), and any game's mail older than STORE_KEEP_RAW but a player's
 * orders for a step not yet played.  A mail stored before its text was
 * kept (text NULL) is left whole: referee_vacuum keeps its text first. */
int store_messages_trim(struct store *s, int64_t game, int played,
    int64_t now, struct err *e);
/* How many received mails store_messages_trim(s, 0, 0, now) would cut,
 * into *n: a tick writes only when some are due. */
int store_messages_stale(struct store *s, int64_t now, int64_t *n,
    struct err *e);
/* VACUUM, and the WAL truncated: the database's size before and after. */
int store_vacuum(struct store *s, int64_t *before, int64_t *after,
    struct err *e);

#endif
