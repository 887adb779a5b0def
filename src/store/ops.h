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
 * sides, cards) for game, replacing what was there. */
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
/* The sender of the mail behind the current orders of (game, step, side),
 * written to out ("" if none). */
STORE_OP(int, orders_sender, (struct store *s, int64_t game, int step,
    int side, char *out, size_t size, struct err *e),
    (s, game, step, side, out, size, e))
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
/* Refused for good: never tried again, shown by 'despatch outbox'. */
STORE_OP(int, outbox_failed, (struct store *s, int64_t id, int64_t now,
    const char *why, struct err *e), (s, id, now, why, e))

/* --- games: their clock, settings and ending ---------------------------- */

/* --- the ledger and the dice's secrets ---------------------------------- */

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
 * first of all) into *id, 0 when none: 0, or -1 with e set. */
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
