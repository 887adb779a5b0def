/*
 * ops.h - every operation a store backend implements, one line each.
 *
 * No include guard: whoever includes it first defines
 *
 *   STORE_OP(ret, name, params, args)    an operation returning ret
 *   STORE_VOP(name, params, args)        one returning nothing
 *
 * and gets one expansion per operation.  store.h declares the public
 * store_NAME functions from it, backend.h the table's function pointers,
 * backend.c the store_NAME functions that call through s->be, and each
 * backend its NAME_BACKEND_NAME implementations and its table (see
 * sqlite.h).  The first parameter is always the store, named s.
 *
 * Adding an operation: a line here (with what it does, above it), and
 * its implementation in every backend.  A backend that lacks one does
 * not compile.
 */

/* --- the file ---------------------------------------------------------- */

/* A consistent copy of the whole store in a new file to (mode 0600),
 * taken while others go on writing.  0, or -1. */
STORE_OP(int, backup, (struct store *s, const char *to, struct err *e),
    (s, to, e))
/* 0 when the store is whole, -1 with e (ERR_DATA) naming the first
 * damage found.  It reads everything, so it is for a daemon's start, not
 * for every open. */
STORE_OP(int, quick_check, (struct store *s, struct err *e), (s, e))
/* The schema version this open upgraded the store from (0 when it did
 * not), and in *copy (if not NULL) the copy of the store as it was then,
 * path.before-N, made before the first migration; only the latest such
 * copy is kept.  A front says so once. */
STORE_OP(int, upgraded_from, (const struct store *s, const char **copy),
    (s, copy))
/* The schema version the store is at. */
STORE_OP(int, version, (struct store *s), (s))
/* The store's file name ("" for one in memory). */
STORE_OP(const char *, path, (struct store *s), (s))
/* VACUUM, and the WAL truncated: the store's size before and after. */
STORE_OP(int, vacuum, (struct store *s, int64_t *before, int64_t *after,
    struct err *e), (s, before, after, e))

/* --- transactions ------------------------------------------------------ */

/* A read: one consistent snapshot, taking no write lock (end it with
 * store_rollback), for work that must not hold writers up. */
STORE_OP(int, begin_read, (struct store *s, struct err *e), (s, e))
/* Begin (taking the write lock at once) / commit / roll back.  Inside
 * another transaction they are a savepoint, its release and its
 * rollback: the outermost commit is the one that makes the work
 * durable. */
STORE_OP(int, begin, (struct store *s, struct err *e), (s, e))
STORE_OP(int, commit, (struct store *s, struct err *e), (s, e))
STORE_VOP(rollback, (struct store *s), (s))
/* 1 when the last write failed because the disk is full, until a write
 * commits again. */
STORE_OP(int, full, (const struct store *s), (s))
/* 1 while a transaction is open on s. */
STORE_OP(int, in_tx, (const struct store *s), (s))
/* The id of the row the last insert made. */
STORE_OP(int64_t, last_id, (struct store *s), (s))

/* --- server keys ------------------------------------------------------- */

/* The key name as the store holds it: 1 and key, 0 when it holds none
 * (nothing is made), -1 with e set. */
STORE_OP(int, server_key_find, (struct store *s, const char *name,
    unsigned char key[32], struct err *e), (s, name, key, e))
/* Deletes every server key so that no byte of one is left in the store's
 * files (overwritten, its free pages and log truncated).  0, or -1. */
STORE_OP(int, server_keys_wipe, (struct store *s, struct err *e), (s, e))
/* The 32-byte server key named name, made at random on first use. */
STORE_OP(int, server_key, (struct store *s, const char *name,
    unsigned char key[32], struct err *e), (s, name, key, e))

/* --- the spool --------------------------------------------------------- */

/* A mail the daemon spooled: 1 with its bytes in *raw (malloc'd,
 * NUL-terminated), when it came and where from; 0 when there is no such
 * row; -1 with e set. */
STORE_OP(int, spool_get, (struct store *s, int64_t id, char **raw,
    size_t *len, int64_t *arrived, char *source, size_t ssize,
    struct err *e), (s, id, raw, len, arrived, source, ssize, e))

/* --- games ------------------------------------------------------------- */

/* 0 and *g filled; -1 with ERR_USER "no game called ..." if absent.
 * Game names are matched without regard to case. */
STORE_OP(int, game_get, (struct store *s, const char *name,
    struct store_game *g, struct err *e), (s, name, g, e))
/* Names of all games, newline-separated, in a malloc'd string. */
STORE_OP(char *, game_names, (struct store *s), (s))
/* Names of the running games that may have something due, by name,
 * newline-separated, in a malloc'd string (*names, "" for none): those
 * whose clock runs (not paused) and whose deadline is at or before until
 * (the time of the tick and the longest reminder), or that have orders or
 * an order mail's state for their open step, or a phase closed for its
 * nonces.  Every other game has nothing due (the referee checks each one
 * named).  Read through indexes, without reading the others' rows.  0, or
 * -1 with e set. */
STORE_OP(int, games_due, (struct store *s, int64_t until, char **names,
    struct err *e), (s, until, names, e))
STORE_OP(int, game_insert, (struct store *s, const char *name,
    const struct battle *b, const char *file, const char *text, size_t len,
    int sandbox, const unsigned char seed_secret[32], int64_t now,
    int64_t *id, struct err *e),
    (s, name, b, file, text, len, sandbox, seed_secret, now, id, e))
STORE_OP(int, game_set_status, (struct store *s, int64_t game,
    enum game_status st, int step, int64_t now, struct err *e),
    (s, game, st, step, now, e))

/* --- the battle state -------------------------------------------------- */

/* Writes the live parts of b (brigades, commanders, units, stands,
 * sides, the ruleset's own) for game, replacing what was there. */
STORE_OP(int, battle_save, (struct store *s, int64_t game,
    const struct battle *b, struct err *e), (s, game, b, e))
/* Rebuilds the battle: the scenario text gives the table and terrain,
 * the rows give the forces as they are now.  *out is new (battle_free). */
STORE_OP(int, battle_load, (struct store *s, const struct store_game *g,
    struct battle **out, struct err *e), (s, g, out, e))
/* Sets side's sighting of each enemy unit with a stand in seen (a flag a
 * stand) to where those stands are now, after step (of turn). */
STORE_OP(int, sightings_update, (struct store *s, int64_t game,
    const struct battle *b, int side, const unsigned char *seen, int step,
    int turn, struct err *e), (s, game, b, side, seen, step, turn, e))
/* Forgets side's sightings of each unit u with gone[u] set (nunits
 * flags): units it saw leave play, so known to be gone, not to be shown
 * where they were last seen. */
STORE_OP(int, sightings_forget, (struct store *s, int64_t game, int side,
    const unsigned char *gone, int nunits, struct err *e),
    (s, game, side, gone, nunits, e))
/* Side's sightings made before step (the units it does not see since),
 * of units still in the battle's list, at most max into out: how many,
 * or -1. */
STORE_OP(int, sightings_before, (struct store *s, int64_t game, int side,
    int step, struct sighting *out, int max, struct err *e),
    (s, game, side, step, out, max, e))

/* --- players ----------------------------------------------------------- */

/* Adds a player; the secret in clear is kept until the welcome mail
 * carries it (see store_player_secret_take). */
STORE_OP(int, player_add, (struct store *s, int64_t game, int side,
    const char *email, const unsigned char hash[32], const char *secret,
    const char *brigades, int64_t now, struct err *e),
    (s, game, side, email, hash, secret, brigades, now, e))
/* The secret hashes of every player of every game, as a malloc'd array of
 * *n 32-byte hashes in memcmp order (NULL when there are none). */
STORE_OP(int, secret_hashes, (struct store *s, unsigned char **out, int *n,
    struct err *e), (s, out, n, e))
/* Writes the player's secret in clear to out and forgets it; "" if it is
 * no longer kept. */
STORE_OP(int, player_secret_take, (struct store *s, int64_t player,
    char *out, size_t size, struct err *e), (s, player, out, size, e))
/* Removes the player with this address from game; 1 if one was removed,
 * 0 if none plays there. */
STORE_OP(int, player_remove, (struct store *s, int64_t game,
    const char *email, struct err *e), (s, game, email, e))
/* Gives the player a new secret hash; 1 if the player exists, else 0. */
STORE_OP(int, player_rehash, (struct store *s, int64_t game,
    const char *email, const unsigned char hash[32], int64_t *player,
    int *side, struct err *e), (s, game, email, hash, player, side, e))
/* Sets the player's new secret waiting to be used (SECRET), replacing
 * any waiting before. */
STORE_OP(int, player_pending_set, (struct store *s, int64_t player,
    const unsigned char hash[32], struct err *e), (s, player, hash, e))
/* Makes the player's waiting secret their secret (the old one stops):
 * 1, or 0 when none was waiting. */
STORE_OP(int, player_pending_take, (struct store *s, int64_t player,
    struct err *e), (s, player, e))
/* Keeps an absence of the player from first to last (YYYY-MM-DD). */
STORE_OP(int, absence_add, (struct store *s, int64_t player,
    const char *first, const char *last, int64_t now, struct err *e),
    (s, player, first, last, now, e))
/* Ends the player's absences not over by today: one not begun goes, one
 * under way ends on yesterday.  How many were changed, or -1. */
STORE_OP(int, absence_cancel, (struct store *s, int64_t player,
    const char *today, const char *yesterday, struct err *e),
    (s, player, today, yesterday, e))
/* The days of every absence the player has kept, over or not, into
 * *days. */
STORE_OP(int, absence_days, (struct store *s, int64_t player, int64_t *days,
    struct err *e), (s, player, days, e))
/* Up to max absences of game's players that end on since or later, in
 * the order they begin: how many, or -1. */
STORE_OP(int, absences, (struct store *s, int64_t game, const char *since,
    struct store_absence *out, int max, struct err *e),
    (s, game, since, out, max, e))
/* Up to max players of game (side -1: all sides), in the order added. */
STORE_OP(int, players, (struct store *s, int64_t game, int side,
    struct store_player *out, int max, struct err *e),
    (s, game, side, out, max, e))

/* --- received mail ----------------------------------------------------- */

/* 1 if a message with this Message-ID (may be NULL) or raw hash is
 * stored already, 0 if not, -1 on error. */
STORE_OP(int, message_seen, (struct store *s, const char *message_id,
    const unsigned char sha[32], struct err *e), (s, message_id, sha, e))
STORE_OP(int, message_insert, (struct store *s, const char *message_id,
    const unsigned char sha[32], const char *sender, const char *subject,
    int64_t game, int64_t player, int step, const char *status,
    const char *note, const void *raw, size_t len, const char *text,
    size_t text_len, int64_t now, int64_t *id, struct err *e),
    (s, message_id, sha, sender, subject, game, player, step, status, note,
    raw, len, text, text_len, now, id, e))
STORE_OP(int, message_count, (struct store *s, int64_t *n, struct err *e),
    (s, n, e))
/* Cuts to its headers each received mail whose bytes are no longer
 * needed: a player's mail of game for a step up to played (game 0:
 * none), and any game's mail older than STORE_KEEP_RAW but a player's
 * orders for a step not yet played.  A mail stored before its text was
 * kept (text NULL) is left whole: referee_vacuum keeps its text first. */
STORE_OP(int, messages_trim, (struct store *s, int64_t game, int played,
    int64_t now, struct err *e), (s, game, played, now, e))
/* How many received mails store_messages_trim(s, 0, 0, now) would cut,
 * into *n: a tick writes only when some are due. */
STORE_OP(int, messages_stale, (struct store *s, int64_t now, int64_t *n,
    struct err *e), (s, now, n, e))

/* --- orders ------------------------------------------------------------ */

/* Marks the current orders of one player for (game, step, side)
 * superseded; returns how many sets there were in *had (0 or more). */
STORE_OP(int, orders_supersede, (struct store *s, int64_t game, int step,
    int side, int64_t player, int *had, struct err *e),
    (s, game, step, side, player, had, e))
/* Files what side has sent for step `from` (every set, with its salt,
 * its state and any nonce committed) under step `to` instead: for a
 * ruleset that decides the order of a turn's steps only as the turn
 * before it ends, when orders sent ahead were filed under the step the
 * scenario's order gave. */
STORE_OP(int, orders_refile, (struct store *s, int64_t game, int from,
    int to, int side, struct err *e), (s, game, from, to, side, e))
/* The sender of the mail behind the current orders of (game, step, side),
 * written to out ("" if none). */
STORE_OP(int, orders_sender, (struct store *s, int64_t game, int step,
    int side, char *out, size_t size, struct err *e),
    (s, game, step, side, out, size, e))
/* The current rows of one player's set for (game, step, side), in their
 * order: a malloc'd array into *rows (free with store_order_rows_free)
 * and how many into *n. */
STORE_OP(int, orders_rows, (struct store *s, int64_t game, int step,
    int side, int64_t player, struct store_order_row **rows, int *n,
    struct err *e), (s, game, step, side, player, rows, n, e))
STORE_OP(int, order_insert, (struct store *s, int64_t game, int step,
    int side, int64_t player, int64_t message, int seq, int line,
    const char *raw, const char *canonical, struct err *e),
    (s, game, step, side, player, message, seq, line, raw, canonical, e))
/* The canonical lines of the current orders of (game, step, side), of
 * one player (player > 0) or of all the side's players in the order they
 * joined (0), newline-separated, in a malloc'd string ("" if none);
 * *count lines. */
STORE_OP(int, orders_text, (struct store *s, int64_t game, int step,
    int side, int64_t player, char **text, int *count, struct err *e),
    (s, game, step, side, player, text, count, e))
/* The canonical lines of a player's standing orders, as
 * store_orders_text gives orders. */
STORE_OP(int, standing_text, (struct store *s, int64_t game,
    int64_t player, char **text, int *count, struct err *e),
    (s, game, player, text, count, e))

/* --- turns and events -------------------------------------------------- */

STORE_OP(int, turn_insert, (struct store *s, int64_t game, int step,
    int turn, int side, const unsigned char *seed, int scripted, long rolls,
    int64_t now, struct err *e),
    (s, game, step, turn, side, seed, scripted, rolls, now, e))
STORE_OP(int, events_insert, (struct store *s, int64_t game, int step,
    const struct events *ev, struct err *e), (s, game, step, ev, e))
/* Events of one step (step > 0) or of all steps (step 0), in order.
 * Each event's step is returned in the parallel array *steps. */
STORE_OP(int, events_load, (struct store *s, int64_t game, int step,
    struct events *ev, int **steps, struct err *e),
    (s, game, step, ev, steps, e))

/* --- the outbox -------------------------------------------------------- */

/* Queues a mail, with its text part (NULL: none to keep).  Once it is
 * delivered its bytes go but for the headers and a note
 * (store_outbox_delivered); the text is kept compressed unless the mail
 * is sensitive (it holds a secret). */
STORE_OP(int, outbox_add, (struct store *s, int64_t game,
    const char *message_id, const char *recipient, const char *subject,
    const char *kind, const char *raw, size_t len, int sensitive,
    const char *text, int64_t now, struct err *e),
    (s, game, message_id, recipient, subject, kind, raw, len, sensitive,
    text, now, e))
/* A delivered mail's bytes cut to its headers and a note (what
 * store_outbox_delivered does after marking it). */
STORE_OP(int, outbox_cut, (struct store *s, int64_t id, struct err *e),
    (s, id, e))
/* The hash of the bytes sent for mail id, when they are not the ones
 * queued (a welcome whose map was drawn at sending). */
STORE_OP(int, outbox_hash, (struct store *s, int64_t id, const char *raw,
    size_t len, struct err *e), (s, id, raw, len, e))
/* The text kept of mail id into *text (malloc'd): 1, 0 when none is
 * kept, -1 with e set. */
STORE_OP(int, outbox_text, (struct store *s, int64_t id, char **text,
    struct err *e), (s, id, text, e))
/* Queued (undelivered) mail when pending = 1, else all; *out is a
 * malloc'd array of *n mails (free with store_mails_free). */
STORE_OP(int, outbox_list, (struct store *s, int pending,
    struct store_mail **out, int *n, struct err *e), (s, pending, out, n, e))
STORE_OP(int, outbox_delivered, (struct store *s, int64_t id, int64_t now,
    struct err *e), (s, id, now, e))
/* Mail due to be sent now: undelivered, not failed, its next attempt
 * due; as store_outbox_list. */
STORE_OP(int, outbox_due, (struct store *s, int64_t now,
    struct store_mail **out, int *n, struct err *e), (s, now, out, n, e))
/* Lifts the hold of every mail held back for at most hold seconds past
 * now and never yet tried (an order reply waiting for its map), so it is
 * due at once; a mail held for an observer's delay or put off after a
 * failed try is left.  Returns how many, or -1 with e set. */
STORE_OP(int, outbox_unhold, (struct store *s, int64_t now, int64_t hold,
    struct err *e), (s, now, hold, e))
/* An attempt that may pass later: counted, and the next one put off by
 * a wait that doubles with each attempt, from first seconds (60 when 0)
 * up to 1 hour. */
STORE_OP(int, outbox_retry, (struct store *s, int64_t id, int64_t now,
    int64_t first, const char *why, struct err *e),
    (s, id, now, first, why, e))
/* The mail server is back after an outage: every mail put off by a
 * failed try (attempts > 0, undelivered, not failed, not held) is due at
 * now, so that the queue goes out at once and in its order, not each
 * mail at the end of its own backoff.  Returns how many, or -1. */
STORE_OP(int, outbox_bring_forward, (struct store *s, int64_t now,
    struct err *e), (s, now, e))
/* Refused for good: never tried again, shown by 'despatch outbox'. */
STORE_OP(int, outbox_failed, (struct store *s, int64_t id, int64_t now,
    const char *why, struct err *e), (s, id, now, why, e))

/* --- games: their clock, settings and ending ---------------------------- */

/* Takes game's lock until the transaction ends, so that no other server
 * sharing the store plays or changes the game meanwhile.  Called inside
 * store_begin, before what was read is written back.  SQLite's write
 * transaction holds the whole file already, so its lock is that; a
 * shared backend locks the game's row (SELECT ... FOR UPDATE). */
STORE_OP(int, game_lock, (struct store *s, int64_t game, struct err *e),
    (s, game, e))

/* The game's clock (struct store_clock) into *c: 0, all of it 0 when
 * there is no such game; -1 with e set. */
STORE_OP(int, game_clock, (struct store *s, int64_t game,
    struct store_clock *c, struct err *e), (s, game, c, e))
/* When the open phase of game is due: at (0: it has no deadline). */
STORE_OP(int, game_set_deadline, (struct store *s, int64_t game, int64_t at,
    struct err *e), (s, game, at, e))
/* The operator pauses game at now, saying why (may be NULL); left is
 * what was left of its deadline (0: none ran). */
STORE_OP(int, game_pause, (struct store *s, int64_t game, int64_t now,
    const char *why, int64_t left, struct err *e),
    (s, game, now, why, left, e))
/* The pause of game ends; its open phase is due at deadline (0: none). */
STORE_OP(int, game_resume, (struct store *s, int64_t game, int64_t deadline,
    struct err *e), (s, game, deadline, e))
/* The players of game were reminded of the deadline of step, ahead seconds
 * before it: noted once (a second note of it is no error). */
STORE_OP(int, reminder_add, (struct store *s, int64_t game, int step,
    int64_t ahead, struct err *e), (s, game, step, ahead, e))
/* 1 if the players of game were reminded of the deadline of step ahead
 * seconds before it or nearer to it (a later reminder stands for an
 * earlier one), 0 if not, -1 with e set. */
STORE_OP(int, reminder_sent, (struct store *s, int64_t game, int step,
    int64_t ahead, struct err *e), (s, game, step, ahead, e))
/* The phase of game closed for its nonces: its step into *step (0: none
 * is closed), and into *until (when not NULL) the time its nonces are
 * awaited until.  0, or -1 with e set. */
STORE_OP(int, game_closed, (struct store *s, int64_t game, int64_t *step,
    int64_t *until, struct err *e), (s, game, step, until, e))
/* Step of game closes for its nonces at now: its order sets frozen under
 * root (a 32-byte hash), the nonces awaited until until. */
STORE_OP(int, game_close, (struct store *s, int64_t game, int step,
    int64_t now, const unsigned char root[32], int64_t until, struct err *e),
    (s, game, step, now, root, until, e))
/* The root the order sets of step of game were frozen under when it
 * closed: 1 and *root (malloc'd, *len bytes), 0 when step is not the
 * phase closed (*root NULL), -1 with e set. */
STORE_OP(int, game_closed_root, (struct store *s, int64_t game, int step,
    unsigned char **root, size_t *len, struct err *e),
    (s, game, step, root, len, e))
/* The closed phase of game is played: no phase of it is closed now. */
STORE_OP(int, game_close_done, (struct store *s, int64_t game,
    struct err *e), (s, game, e))
/* The open step of game into *step (0 when there is no such game). */
STORE_OP(int, game_step, (struct store *s, int64_t game, int64_t *step,
    struct err *e), (s, game, step, e))
/* The game named exactly name (as store_game_names gives them): 1 with
 * its id, status and open step, 0 when there is none, -1 with e set. */
STORE_OP(int, game_find, (struct store *s, const char *name, int64_t *id,
    enum game_status *status, int64_t *step, struct err *e),
    (s, name, id, status, step, e))
/* How the battle of game ended, to tell: 1 and *text (malloc'd), 0 when
 * it is not told (*text NULL), -1 with e set. */
STORE_OP(int, game_result, (struct store *s, int64_t game, char **text,
    struct err *e), (s, game, text, e))
/* How the battle of game ended (it is finished by store_game_set_status). */
STORE_OP(int, game_set_result, (struct store *s, int64_t game,
    const char *text, struct err *e), (s, game, text, e))
/* The address game's mail goes out from: 1 and *addr (malloc'd), 0 for a
 * game made before one was kept (*addr NULL: the server's), -1. */
STORE_OP(int, game_from, (struct store *s, int64_t game, char **addr,
    struct err *e), (s, game, addr, e))
/* The address game's mail is to go out from, kept when it is made. */
STORE_OP(int, game_set_from, (struct store *s, int64_t game,
    const char *addr, struct err *e), (s, game, addr, e))
/* Whether game is played in the open or in fog: "open" or "fog", as
 * store_game_get gives it. */
STORE_OP(int, game_set_visibility, (struct store *s, int64_t game,
    const char *visibility, struct err *e), (s, game, visibility, e))
/* The steps game's seed chain was made for (its genesis), into *steps;
 * 0 for a game begun before the ledger. */
STORE_OP(int, game_chain_steps, (struct store *s, int64_t game,
    int64_t *steps, struct err *e), (s, game, steps, e))
/* The steps game's seed chain is made for, when its genesis is written. */
STORE_OP(int, game_set_chain_steps, (struct store *s, int64_t game,
    int steps, struct err *e), (s, game, steps, e))
/* The state game's last step left, as the archive shows it (JSON): 1 and
 * *text (malloc'd), 0 when none is kept (*text NULL), -1 with e set. */
STORE_OP(int, game_last_state, (struct store *s, int64_t game, char **text,
    struct err *e), (s, game, text, e))
/* Keeps the state game's step left until the next step replaces it. */
STORE_OP(int, game_set_last_state, (struct store *s, int64_t game,
    const char *text, struct err *e), (s, game, text, e))
/* The step whose wait for an upgrade game's players were told of, into
 * *step (0: none, nor for no such game). */
STORE_OP(int, game_upgrade_told, (struct store *s, int64_t game,
    int64_t *step, struct err *e), (s, game, step, e))
/* The players of game were told that step waits for an upgrade. */
STORE_OP(int, game_set_upgrade_told, (struct store *s, int64_t game,
    int step, struct err *e), (s, game, step, e))
/* Removes game, its settings and all it holds.  0, or -1. */
STORE_OP(int, game_remove, (struct store *s, int64_t game, struct err *e),
    (s, game, e))
/* The value of setting key for game: its own, else the server's (game 0
 * holds the server's).  1 and *value (malloc'd), with in *from (when not
 * NULL) the game whose value it is (0: the server's); 0 when neither is
 * set (*value NULL); -1 with e set. */
STORE_OP(int, setting_get, (struct store *s, int64_t game, const char *key,
    char **value, int64_t *from, struct err *e),
    (s, game, key, value, from, e))
/* Every value setting key has, the server's and any game's, each once,
 * newline-separated, in a malloc'd string (*values, "" for none).  0, or
 * -1 with e set. */
STORE_OP(int, setting_values, (struct store *s, const char *key,
    char **values, struct err *e), (s, key, values, e))
/* Sets key to value for game (0: for the server), replacing its value. */
STORE_OP(int, setting_set, (struct store *s, int64_t game, const char *key,
    const char *value, struct err *e), (s, game, key, value, e))
/* How many running games a server-wide nonce setting would move under:
 * those with a phase closed for its nonces, and with any_nonces those
 * that use nonces at all (set on for the game), into *n. */
STORE_OP(int, games_nonce_bound, (struct store *s, int any_nonces,
    int64_t *n, struct err *e), (s, any_nonces, n, e))

/* --- the ledger and the dice's secrets ---------------------------------- */

/* How many records game's ledger holds (they are 0 to n - 1) into *n: 0
 * for a game with none. */
STORE_OP(int, ledger_count, (struct store *s, int64_t game, int64_t *n,
    struct err *e), (s, game, n, e))
/* The seq of game's last record into *seq, -1 when it has none. */
STORE_OP(int, ledger_last_seq, (struct store *s, int64_t game, int64_t *seq,
    struct err *e), (s, game, seq, e))
/* The head of game's record seq: 1 and head, 0 when there is no such
 * record or its head is damaged (not 32 bytes), -1 with e set. */
STORE_OP(int, ledger_head, (struct store *s, int64_t game, int64_t seq,
    unsigned char head[32], struct err *e), (s, game, seq, head, e))
/* Game's record seq into *r: 1, 0 when there is none, -1 with e set;
 * r->bytes is NULL but after 1. */
STORE_OP(int, ledger_record, (struct store *s, int64_t game, int64_t seq,
    struct store_record *r, struct err *e), (s, game, seq, r, e))
/* Game's last step record (what the next step's dice hang on), as
 * store_ledger_record. */
STORE_OP(int, ledger_last_step, (struct store *s, int64_t game,
    struct store_record *r, struct err *e), (s, game, r, e))
/* Game's last upgrade (the last record with a checkpoint), as
 * store_ledger_record. */
STORE_OP(int, ledger_last_upgrade, (struct store *s, int64_t game,
    struct store_record *r, struct err *e), (s, game, r, e))
/* Appends record seq to game's ledger, of kind "genesis", "step" or
 * "act" at step: its bytes, their head and the server's signature of the
 * head.  ERR_CONFLICT when the game has a record seq already. */
STORE_OP(int, ledger_append, (struct store *s, int64_t game, int64_t seq,
    const char *kind, int step, const void *bytes, size_t len,
    const unsigned char head[32], const unsigned char sig[64],
    struct err *e), (s, game, seq, kind, step, bytes, len, head, sig, e))
/* The checkpoint of an upgrade (the state it carried over, as the archive
 * shows it) kept with game's record seq. */
STORE_OP(int, ledger_checkpoint_set, (struct store *s, int64_t game,
    int64_t seq, const char *checkpoint, struct err *e),
    (s, game, seq, checkpoint, e))
/* The checkpoint kept with game's record seq into *text (malloc'd,
 * NUL-terminated, its length in *len): 1, 0 when it has none (any record
 * but an upgrade), -1 with e set. */
STORE_OP(int, ledger_checkpoint, (struct store *s, int64_t game, int64_t seq,
    char **text, size_t *len, struct err *e), (s, game, seq, text, len, e))
/* How many leaves the orders root of game's step has, into *n. */
STORE_OP(int, ledger_leaves_count, (struct store *s, int64_t game, int step,
    int64_t *n, struct err *e), (s, game, step, n, e))
/* Leaf idx of the orders root of game's step into *l: 1, 0 when there is
 * none, -1 with e set; l->orders is NULL but after 1. */
STORE_OP(int, ledger_leaf, (struct store *s, int64_t game, int step, int idx,
    struct store_leaf *l, struct err *e), (s, game, step, idx, l, e))
/* Keeps what leaf idx of the orders root of game's step was made of: the
 * seat (of player, on side) whose orders they were, whether they came by
 * mail, their salt, and the leaf hashed of them. */
STORE_OP(int, ledger_leaf_add, (struct store *s, int64_t game, int step,
    int idx, int side, int64_t player, int seat, int mailed,
    const unsigned char salt[16], const char *orders,
    const unsigned char leaf[32], struct err *e),
    (s, game, step, idx, side, player, seat, mailed, salt, orders, leaf, e))

/* The player's commitment (the SHA-256 of the nonce to be revealed) for
 * game's step: 1 and hash, 0 when the player sent none (or it is damaged:
 * not 32 bytes), -1 with e set. */
STORE_OP(int, nonce_commit, (struct store *s, int64_t game, int step,
    int64_t player, unsigned char hash[32], struct err *e),
    (s, game, step, player, hash, e))
/* Keeps the player's commitment for game's step, in place of any
 * before. */
STORE_OP(int, nonce_commit_set, (struct store *s, int64_t game, int step,
    int64_t player, const unsigned char hash[32], struct err *e),
    (s, game, step, player, hash, e))
/* The nonce the player revealed for game's step, into out (cut to size):
 * 1, 0 when none is revealed (out ""), -1 with e set. */
STORE_OP(int, nonce_reveal, (struct store *s, int64_t game, int step,
    int64_t player, char *out, size_t size, struct err *e),
    (s, game, step, player, out, size, e))
/* Keeps the nonce the player revealed for game's step, in place of any
 * before. */
STORE_OP(int, nonce_reveal_set, (struct store *s, int64_t game, int step,
    int64_t player, const char *nonce, struct err *e),
    (s, game, step, player, nonce, e))
/* How many players committed for game's step and have not revealed their
 * nonce yet, into *n. */
STORE_OP(int, nonces_owed, (struct store *s, int64_t game, int step,
    int64_t *n, struct err *e), (s, game, step, n, e))

/* Keeps the player's secret in clear (in place of any kept) until the
 * welcome mail carries it (store_player_secret_take). */
STORE_OP(int, player_secret_keep, (struct store *s, int64_t player,
    const char *secret, struct err *e), (s, player, secret, e))

/* --- mail, players and orders ------------------------------------------- */

/* The spool: mail taken from the mailbox, kept until it is read (see
 * store_spool_get). */

/* Spools a mail: when it came (0: unknown) and where from (NULL: ""). */
STORE_OP(int, spool_add, (struct store *s, const char *raw, size_t len,
    int64_t arrived, const char *source, struct err *e),
    (s, raw, len, arrived, source, e))
/* How many spooled mails wait to be read, and how many the intake failed
 * on: 0, or -1 with e set. */
STORE_OP(int, spool_counts, (struct store *s, int64_t *waiting,
    int64_t *failed, struct err *e), (s, waiting, failed, e))
/* The first spooled mail waiting to be read after mail after (0: the
 * first of all) into *id, 0 when none: 0, or -1 with e set.  Inside a
 * write transaction the mail is this caller's to read until the
 * transaction ends: SQLite's transaction excludes every other writer; a
 * shared backend claims the row (FOR UPDATE SKIP LOCKED), so two servers
 * never read the same mail. */
STORE_OP(int, spool_next, (struct store *s, int64_t after, int64_t *id,
    struct err *e), (s, after, id, e))
/* A spooled mail read: it leaves the spool. */
STORE_OP(int, spool_done, (struct store *s, int64_t id, struct err *e),
    (s, id, e))
/* A spooled mail the intake failed on (not a player's mistake): kept,
 * with why, and never read again by itself. */
STORE_OP(int, spool_failed, (struct store *s, int64_t id, int64_t now,
    const char *why, struct err *e), (s, id, now, why, e))

/* What the daemon (process pid) says it is doing at time at, for
 * 'despatch status': its state ("running", "stopped", ...) and a line of
 * detail; it replaces what it said before. */
STORE_OP(int, daemon_status_set, (struct store *s, int pid,
    const char *state, const char *detail, int64_t at, struct err *e),
    (s, pid, state, detail, at, e))
/* What the daemon said last: 1 with *state and *detail (malloc'd; detail
 * "" when it gave none), its pid and when; 0 when no daemon ever ran on
 * the store (*state and *detail NULL, the rest 0); -1 with e set. */
STORE_OP(int, daemon_status, (struct store *s, char **state, char **detail,
    int64_t *pid, int64_t *at, struct err *e),
    (s, state, detail, pid, at, e))

/* Received mail (see store_message_insert). */

/* The bytes received from sender (whatever the case of the address)
 * since time since into *bytes, 0 when none: 0, or -1 with e set. */
STORE_OP(int, messages_bytes_from, (struct store *s, const char *sender,
    int64_t since, int64_t *bytes, struct err *e),
    (s, sender, since, bytes, e))
/* How many mails came from sender (whatever its case) since time since,
 * counted up to max at most, so that a flood costs no more to count:
 * into *n; 0, or -1 with e set. */
STORE_OP(int, messages_from, (struct store *s, const char *sender,
    int64_t since, int64_t max, int64_t *n, struct err *e),
    (s, sender, since, max, n, e))
/* The note kept with received mail id (why it was not answered). */
STORE_OP(int, message_note, (struct store *s, int64_t id, const char *note,
    struct err *e), (s, id, note, e))
/* How many received mails still have their bytes whole (not yet cut to
 * their headers by store_messages_trim), into *n: 0, or -1. */
STORE_OP(int, messages_whole, (struct store *s, int64_t *n, struct err *e),
    (s, n, e))
/* The first received mail of a game after mail after (0: the first of
 * all) whose text was never kept and whose bytes are whole (a store older
 * than the trimming): 1 and *id, 0 when none, -1 with e set. */
STORE_OP(int, message_next_textless, (struct store *s, int64_t after,
    int64_t *id, struct err *e), (s, after, id, e))
/* The bytes of received mail id: 1 with *raw (malloc'd, NUL-terminated)
 * and *len, 0 when there is no such mail, -1 with e set. */
STORE_OP(int, message_raw, (struct store *s, int64_t id, char **raw,
    size_t *len, struct err *e), (s, id, raw, len, e))
/* The text read from received mail id, kept so that its bytes may go. */
STORE_OP(int, message_keep_text, (struct store *s, int64_t id,
    const char *text, struct err *e), (s, id, text, e))

/* Players (see store_players). */

/* How many players of game (0: of any game) have the address email,
 * whatever its case, into *n: 0, or -1 with e set. */
STORE_OP(int, players_with_email, (struct store *s, int64_t game,
    const char *email, int64_t *n, struct err *e), (s, game, email, n, e))
/* How many players game has on side (-1: on every side), into *n. */
STORE_OP(int, players_count, (struct store *s, int64_t game, int side,
    int64_t *n, struct err *e), (s, game, side, n, e))
/* How many players of game asked for the full time to the deadline of
 * step (WAIT), into *n. */
STORE_OP(int, players_waiting, (struct store *s, int64_t game, int step,
    int64_t *n, struct err *e), (s, game, step, n, e))
/* A mail of the player changed (or tried to change) their set for step
 * of game, at now: clean when none of its lines was refused.  Their READY
 * for the step is withdrawn. */
STORE_OP(int, order_state_set, (struct store *s, int64_t game, int step,
    int64_t player, int clean, int64_t now, struct err *e),
    (s, game, step, player, clean, now, e))
/* The player's READY for step: their set counts as in, as it stands. */
STORE_OP(int, order_state_ready, (struct store *s, int64_t game, int step,
    int64_t player, struct err *e), (s, game, step, player, e))
/* Of the players of game on side (-1: every side) for step: how many
 * there are, how many are in (the latest mail that changed their set
 * read cleanly, or READY since; a player whose orders were stored before
 * the settle time counts as in), how many sent READY, and when the last
 * mail that changed a set came (0: none). */
STORE_OP(int, order_state_summary, (struct store *s, int64_t game,
    int step, int side, int64_t *players, int64_t *in, int64_t *ready,
    int64_t *last, struct err *e),
    (s, game, step, side, players, in, ready, last, e))
/* The player asks that step not be played before its deadline (WAIT);
 * step 0 withdraws that (READY). */
STORE_OP(int, player_wait, (struct store *s, int64_t player, int step,
    struct err *e), (s, player, step, e))
/* How the player wants their reports ("text", "html" or "full") into
 * out: 1, 0 when there is no such player (out untouched), -1 with e
 * set. */
STORE_OP(int, player_mail_format, (struct store *s, int64_t player,
    char *out, size_t size, struct err *e), (s, player, out, size, e))
/* The player's choice of format for their reports (SET MAIL). */
STORE_OP(int, player_set_mail_format, (struct store *s, int64_t player,
    const char *format, struct err *e), (s, player, format, e))
/* One more phase in a row the player sent no orders for: how many so far
 * into *count (0 when there is no such player). */
STORE_OP(int, player_nmr, (struct store *s, int64_t player, int64_t *count,
    struct err *e), (s, player, count, e))
/* The player sent orders: the phases without them count from 0 again. */
STORE_OP(int, player_nmr_clear, (struct store *s, int64_t player,
    struct err *e), (s, player, e))
/* The player's place goes to someone else: a new address and secret
 * hash, no phase missed yet and no WAIT. */
STORE_OP(int, player_replace, (struct store *s, int64_t player,
    const char *email, const unsigned char hash[32], struct err *e),
    (s, player, email, hash, e))

/* Observers: people who follow a game without playing it. */

/* Adds email as an observer of game, who gets each phase delay phases
 * after it is played; an observer already there gets the new delay. */
STORE_OP(int, observer_add, (struct store *s, int64_t game,
    const char *email, int delay, int64_t now, struct err *e),
    (s, game, email, delay, now, e))
/* The observers of game, in the order they were added: *out is a
 * malloc'd array of *n (NULL when none; free it). */
STORE_OP(int, observers, (struct store *s, int64_t game,
    struct store_observer **out, int *n, struct err *e), (s, game, out, n, e))

/* Orders (see store_order_insert). */

/* How many orders are stored (the current ones) for step of game, of side
 * (-1: of any side) and of player (0: of any player), into *n. */
STORE_OP(int, orders_count, (struct store *s, int64_t game, int step,
    int side, int64_t player, int64_t *n, struct err *e),
    (s, game, step, side, player, n, e))
/* How many of the players of side (-1: of any side) have orders stored
 * for step of game, into *n. */
STORE_OP(int, orders_players, (struct store *s, int64_t game, int step,
    int side, int64_t *n, struct err *e), (s, game, step, side, n, e))
/* How many orders of side are stored for step of game or a later one,
 * into *n. */
STORE_OP(int, orders_ahead, (struct store *s, int64_t game, int side,
    int step, int64_t *n, struct err *e), (s, game, side, step, n, e))
/* The mark of game's orders for step and of its standing orders (see
 * struct store_orders_mark). */
STORE_OP(int, orders_mark, (struct store *s, int64_t game, int step,
    struct store_orders_mark *m, struct err *e), (s, game, step, m, e))
/* The salt the order reply told for the player's current orders of step
 * of game, side: 1 with salt[16], 0 when there is none of that size
 * (orders stored before the ledger), -1 with e set. */
STORE_OP(int, orders_salt, (struct store *s, int64_t game, int step,
    int side, int64_t player, unsigned char salt[16], struct err *e),
    (s, game, step, side, player, salt, e))
/* Keeps salt with the player's current orders of step of game, side:
 * the whole set, whichever mails its lines came in (a merged set). */
STORE_OP(int, orders_salt_set, (struct store *s, int64_t game, int step,
    int side, int64_t player, const unsigned char salt[16],
    struct err *e), (s, game, step, side, player, salt, e))
/* Forgets a player's standing orders (a new set replaces them whole). */
STORE_OP(int, standing_clear, (struct store *s, int64_t game,
    int64_t player, struct err *e), (s, game, player, e))
/* One line of a player's standing orders, as store_order_insert. */
STORE_OP(int, standing_insert, (struct store *s, int64_t game, int side,
    int64_t player, int64_t message, int seq, int line, const char *raw,
    const char *canonical, struct err *e),
    (s, game, side, player, message, seq, line, raw, canonical, e))
/* How many standing orders the player of game has, into *n. */
STORE_OP(int, standing_count, (struct store *s, int64_t game,
    int64_t player, int64_t *n, struct err *e), (s, game, player, n, e))

/* The outbox, as the referee reads and holds it (see store_outbox_add). */

/* The bytes of mail id: 1 with *raw (malloc'd, NUL-terminated) and *len,
 * 0 when there is no such mail, -1 with e set. */
STORE_OP(int, outbox_raw, (struct store *s, int64_t id, char **raw,
    size_t *len, struct err *e), (s, id, raw, len, e))
/* The subject of mail id: 1 with *subject (malloc'd), 0 when there is no
 * such mail, -1 with e set. */
STORE_OP(int, outbox_subject, (struct store *s, int64_t id, char **subject,
    struct err *e), (s, id, subject, e))
/* The game mail id is about into *game (0: none): 1, 0 when there is no
 * such mail, -1 with e set. */
STORE_OP(int, outbox_game, (struct store *s, int64_t id, int64_t *game,
    struct err *e), (s, id, game, e))
/* The first mail after mail after (0: the first of all) delivered and
 * kept whole by a despatch older than the trimming, and holding no
 * secret: 1 and *id, 0 when none, -1 with e set. */
STORE_OP(int, outbox_next_whole, (struct store *s, int64_t after,
    int64_t *id, struct err *e), (s, after, id, e))
/* For such a mail: the hash of its bytes raw and its text (NULL: none to
 * keep), compressed, kept as store_outbox_add keeps them, so that
 * store_outbox_cut may cut it. */
STORE_OP(int, outbox_keep, (struct store *s, int64_t id, const char *raw,
    size_t len, const char *text, struct err *e), (s, id, raw, len, text, e))
/* The latest turn report of game to recipient (whatever its case), of
 * this subject (NULL: of any): 1 and *id, 0 when none, -1 with e set. */
STORE_OP(int, outbox_last_report, (struct store *s, int64_t game,
    const char *recipient, const char *subject, int64_t *id,
    struct err *e), (s, game, recipient, subject, id, e))
/* The mail of kind (a "report", an "observer"'s) that game queued to
 * recipient (whatever its case), in the order it was queued: *out a
 * malloc'd array of *n (free it), each with its id, subject and whether
 * it is still held back (store_outbox_hold).  HISTORY reads only these,
 * so an answer holds nothing sent to another address.  0, or -1. */
STORE_OP(int, outbox_sent, (struct store *s, int64_t game,
    const char *recipient, const char *kind, struct store_sent **out,
    int *n, struct err *e), (s, game, recipient, kind, out, n, e))
/* Mail id (an observer's report) held back until its game has played
 * step: no sender takes it before store_outbox_release. */
STORE_OP(int, outbox_hold, (struct store *s, int64_t id, int step,
    struct err *e), (s, id, step, e))
/* The mail of game held back (store_outbox_hold) until step or before,
 * or all of it when all is not 0 (the battle is over), due at once. */
STORE_OP(int, outbox_release, (struct store *s, int64_t game, int step,
    int all, struct err *e), (s, game, step, all, e))
/* The mail of Message-ID message_id not tried before time until (a reply
 * waiting for its map). */
STORE_OP(int, outbox_put_off, (struct store *s, const char *message_id,
    int64_t until, struct err *e), (s, message_id, until, e))
/* The reply of Message-ID message_id, put off for its map, due at once,
 * with raw (len bytes) as its bytes (NULL: as it was queued); nothing
 * when it is sent already or its wait was over by now. */
STORE_OP(int, outbox_preview, (struct store *s, const char *message_id,
    const char *raw, size_t len, int64_t now, struct err *e),
    (s, message_id, raw, len, now, e))
/* The mail of game queued to recipient (whatever its case), not yet
 * sent, that holds a secret is withdrawn (the secret changed); *welcomes
 * is how many welcomes to them were waiting before. */
STORE_OP(int, outbox_withdraw_secrets, (struct store *s, int64_t game,
    const char *recipient, int64_t *welcomes, struct err *e),
    (s, game, recipient, welcomes, e))
/* Mail id's map is drawn when it is sent: the field at the start of the
 * battle, for reports in format. */
STORE_OP(int, outbox_draw, (struct store *s, int64_t id, const char *format,
    struct err *e), (s, id, format, e))

/* --- campaigns (issue 26) ---------------------------------------------- */

/* A new campaign in set-up, named name, from its file (text, len bytes,
 * named file) and the battlefield files it names (nfields of them); its
 * id into *id.  ERR_CONFLICT when the name is taken. */
STORE_OP(int, campaign_insert, (struct store *s, const char *name,
    const char *title, const char *ruleset, const char *file,
    const char *text, size_t len, const struct store_cfield *fields,
    int nfields, int sandbox, const unsigned char seed_secret[32],
    int64_t now, int64_t *id, struct err *e),
    (s, name, title, ruleset, file, text, len, fields, nfields, sandbox,
    seed_secret, now, id, e))
/* The campaign named name: 0 with *c set (store_campaign_clear), or -1
 * with e (ERR_USER when there is none). */
STORE_OP(int, campaign_get, (struct store *s, const char *name,
    struct store_campaign *c, struct err *e), (s, name, c, e))
/* Names of all campaigns, newline-separated, malloc'd ("" for none). */
STORE_OP(char *, campaign_names, (struct store *s), (s))
/* Its battlefield files: *out malloc'd (store_cfields_free), *n of them,
 * in path order. */
STORE_OP(int, campaign_fields, (struct store *s, int64_t campaign,
    struct store_cfield **out, int *n, struct err *e),
    (s, campaign, out, n, e))
/* Its status, turns played and state text (state NULL: keep it). */
STORE_OP(int, campaign_set_state, (struct store *s, int64_t campaign,
    enum game_status st, int turn, const char *state, size_t len,
    int64_t now, struct err *e), (s, campaign, st, turn, state, len, now, e))
STORE_OP(int, campaign_player_add, (struct store *s, int64_t campaign,
    const char *side, const char *email, const unsigned char hash[32],
    const char *columns, int64_t now, struct err *e),
    (s, campaign, side, email, hash, columns, now, e))
/* Its players in the order they joined, at most max into out; how many,
 * or -1. */
STORE_OP(int, campaign_players, (struct store *s, int64_t campaign,
    struct store_cplayer *out, int max, struct err *e),
    (s, campaign, out, max, e))
/* How campaign player `player` (store_cplayer.id) wants its mail:
 * "text", "html" or "full". */
STORE_OP(int, campaign_player_set_format, (struct store *s, int64_t player,
    const char *format, struct err *e), (s, player, format, e))
/* Appends a record to its chain as seq (0 the genesis). */
STORE_OP(int, campaign_record_append, (struct store *s, int64_t campaign,
    int64_t seq, const char *kind, const unsigned char *rec, size_t len,
    const unsigned char head[32], const unsigned char sig[64], int64_t now,
    struct err *e), (s, campaign, seq, kind, rec, len, head, sig, now, e))
/* Its records in order: *out malloc'd (store_crecords_free), *n. */
STORE_OP(int, campaign_records, (struct store *s, int64_t campaign,
    struct store_crecord **out, int *n, struct err *e),
    (s, campaign, out, n, e))
/* A side's orders for turn (canonical lines), replacing what it had;
 * and reading them back (*out malloc'd, NULL for none). */
STORE_OP(int, campaign_orders_set, (struct store *s, int64_t campaign,
    int turn, const char *side, const char *orders, int64_t now,
    struct err *e), (s, campaign, turn, side, orders, now, e))
/* When side last gave orders for turn: 1 with *at, 0 when it has not,
 * -1 on error. */
STORE_OP(int, campaign_orders_at, (struct store *s, int64_t campaign,
    int turn, const char *side, int64_t *at, struct err *e),
    (s, campaign, turn, side, at, e))
STORE_OP(int, campaign_orders_get, (struct store *s, int64_t campaign,
    int turn, const char *side, char **out, struct err *e),
    (s, campaign, turn, side, out, e))
/* The turn marched and waiting for its battles (NULL: none). */
STORE_OP(int, campaign_set_pending, (struct store *s, int64_t campaign,
    const char *text, size_t len, struct err *e), (s, campaign, text, len, e))
/* Battle idx of turn is game; and the games of turn's battles in order
 * (at most max into out; how many, or -1). */
STORE_OP(int, campaign_battle_add, (struct store *s, int64_t campaign,
    int turn, int idx, int64_t game, struct err *e),
    (s, campaign, turn, idx, game, e))
STORE_OP(int, campaign_battles, (struct store *s, int64_t campaign, int turn,
    int64_t *out, int max, struct err *e), (s, campaign, turn, out, max, e))
/* When its open turn opened: the time its last record was written into
 * *at (0 for a campaign with none).  0, or -1 with e set. */
STORE_OP(int, campaign_opened, (struct store *s, int64_t campaign,
    int64_t *at, struct err *e), (s, campaign, at, e))
/* The value of clock setting key (db/029) for campaign: its own, else the
 * server's (settings of game 0).  1 and *value (malloc'd), with in *from
 * (when not NULL) campaign when it is its own, 0 when the server's; 0
 * when neither is set (*value NULL); -1 with e set. */
STORE_OP(int, campaign_setting_get, (struct store *s, int64_t campaign,
    const char *key, char **value, int64_t *from, struct err *e),
    (s, campaign, key, value, from, e))
/* Sets key to value for campaign, replacing its value. */
STORE_OP(int, campaign_setting_set, (struct store *s, int64_t campaign,
    const char *key, const char *value, struct err *e),
    (s, campaign, key, value, e))
/* Campaign's players owing orders for turn were reminded of its deadline
 * ahead seconds before it: noted once (a second note is no error); and
 * whether they were, then or nearer the deadline (a later reminder
 * stands for an earlier one): 1, 0, or -1 with e set. */
STORE_OP(int, campaign_reminder_add, (struct store *s, int64_t campaign,
    int turn, int64_t ahead, struct err *e), (s, campaign, turn, ahead, e))
STORE_OP(int, campaign_reminder_sent, (struct store *s, int64_t campaign,
    int turn, int64_t ahead, struct err *e), (s, campaign, turn, ahead, e))
/* The game id's name into name (64 bytes): 0, or -1 with e. */
STORE_OP(int, game_name_of, (struct store *s, int64_t game, char *name,
    struct err *e), (s, game, name, e))
/* Game belongs to campaign. */
STORE_OP(int, game_set_campaign, (struct store *s, int64_t game,
    int64_t campaign, struct err *e), (s, game, campaign, e))
/* The name of the campaign game belongs to into name (64 bytes): 1, or 0
 * (name "") for a game of no campaign, -1 on error. */
STORE_OP(int, game_campaign, (struct store *s, int64_t game, char *name,
    struct err *e), (s, game, name, e))
