/*
 * referee.h - the game server: the lifecycle of a game and of each step.
 *
 * new -> player add -> start -> (orders arrive, each stored and answered)
 * -> turn (adjudicate the open step) -> ... -> finished.
 *
 * Every entry point runs in one store transaction: it either changes
 * everything it should (state, events, orders, the mails it queues) or
 * nothing.  Outgoing mail is only ever queued in the outbox; delivering it
 * is someone else's job (despatch outbox write/send).
 */
#ifndef DESPATCH_REFEREE_H
#define DESPATCH_REFEREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

#define REFEREE_SECRET_MAX 128

/* The referee: opaque outside src/referee/ (referee_open makes one). */
struct referee;

/* What the fronts configure (from their configuration file, else the
 * environment, read once there): NULL or 0 members take the defaults. */
struct referee_opts {
	const char *from;       /* the From of the server's mail (default
	                         * "despatch <despatch@localhost>") */
	const char *domain;     /* of our Message-IDs (default From's) */
	const char *key_path;   /* the ledger's key (default DATABASE.key) */
	const char *templates;  /* the narrative templates' folder */
	long busy_ms;           /* how long a write waits for another
	                         * writer (default 15 s) */
	int64_t fixed_now;      /* a clock that starts here and ticks a
	                         * minute a call (the demo) */
	int key_demo;           /* sign with the demo's published key */
};

/* Opens the store at db (create: a new one, for `despatch new` and the
 * demo), migrating it if it is older, and a referee on it that owns it.
 * 0 and *out, or -1 with e set. */
int referee_open(const char *db, int create, const struct referee_opts *o,
    struct referee **out, struct err *e);
/* Frees the referee and closes its store (NULL: nothing). */
void referee_free(struct referee *r);
/* The schema version referee_open upgraded the store from (0 when it did
 * not), the version it is at now in *now, and in *copy where the store
 * as it was is kept. */
int referee_store_upgraded(struct referee *r, int *now, const char **copy);
/* The store read whole (a daemon's start, a backup): 0, or -1 with e
 * naming the first damage. */
int referee_store_check(struct referee *r, struct err *e);
/* 1 when the last write failed for a full disk. */
int referee_store_full(struct referee *r);
/* A consistent copy of the store into the new file to (0600). */
int referee_store_copy(struct referee *r, const char *to, struct err *e);
/* The store at path (a copy, a backup) read whole, migrated if it is
 * older: 0, or -1 with e naming the damage. */
int referee_store_file_check(const char *path, struct err *e);
/* The From of the server's mail. */
const char *referee_from(const struct referee *r);
/* What despatchd (process pid) is doing at time at, for 'despatch
 * status': state, and detail (may be NULL). */
int referee_daemon_says(struct referee *r, int pid, const char *state,
    const char *detail, int64_t at, struct err *e);

/* mkdir -p: the parents 0755, dir itself made with exactly mode (an
 * existing one is left as it is).  0, or -1 with errno. */
int referee_mkdir_p(const char *dir, unsigned mode);
/* Writes the queued mail into dir (made 0700 if need be) as .eml files,
 * each 0600, and marks it sent; *written counts them.  told (if not NULL)
 * is given each file's path, or (path NULL) why a mail could not be
 * written: the others still go, and then the call returns -1 with e
 * saying how many did not. */
int referee_outbox_write(struct referee *r, const char *dir,
    void (*told)(void *arg, const char *path, const char *failed), void *arg,
    int *written, struct err *e);

/* The mail waiting to go out, listed to out (as JSON with as_json;
 * docs/json.md): each with its tries and why they failed. */
int referee_outbox_print(struct referee *r, FILE *out, int as_json,
    struct err *e);

/* Whether a despatchd serves the database, as a front found it from the
 * daemon's lock (DATABASE.despatchd.lock): the store knows no processes. */
enum referee_daemon_lock {
	REFEREE_LOCK_FREE,      /* no despatchd holds it (or there is none) */
	REFEREE_LOCK_HELD,      /* a despatchd holds it */
	REFEREE_LOCK_UNKNOWN    /* it could not be looked at */
};

/* What status finds, as its exit code (despatch(1), status): all well;
 * warnings (mail failed for good, spooled mail the intake failed on, a
 * mail server the daemon cannot reach, a game waiting for an upgrade);
 * despatchd not running; unknown. */
#define REFEREE_STATUS_OK 0
#define REFEREE_STATUS_WARN 1
#define REFEREE_STATUS_DOWN 2
#define REFEREE_STATUS_UNKNOWN 3

/* The server at a glance, to out (as JSON with as_json; docs/json.md):
 * whether despatchd runs (from lock; lock_note says why when it is
 * unknown) and what it said it did last, the outbox and the spool, each
 * game's phase and deadline, and the warnings.  Returns the
 * REFEREE_STATUS_ that sums it up, or -1 with e set (nothing printed)
 * when the store fails. */
int referee_status_print(struct referee *r, FILE *out, int as_json,
    enum referee_daemon_lock lock, const char *lock_note, struct err *e);
/* The same when the database itself cannot be looked at (why says
 * what): returns REFEREE_STATUS_UNKNOWN. */
int referee_status_unknown(FILE *out, int as_json, const char *why);
/* Every game, one a line (name, ruleset, status setup|running|paused|
 * over, turn/turns, the deadline in the game's time zone or "-"), or as a
 * JSON array: 0, or -1 with e set. */
int referee_games_print(struct referee *r, FILE *out, int as_json,
    struct err *e);

/* Game's ledger as stored, to out: each record with its head, and the
 * chain checked (every head, signature, link, seed and root); with
 * as_json one JSON object (docs/json.md).  0 when it
 * holds, 1 when it does not (the first record and field that fails
 * said), -1 with e set. */
int referee_ledger_print(struct referee *r, const char *game, FILE *out,
    int as_json, struct err *e);

/* A game as the fronts show it. */
struct referee_game {
	int64_t id;
	char name[64];
	char title[BATTLE_NAME_MAX * 2];
	char ruleset[BATTLE_ID_MAX];
	const char *status;     /* "setup", "running", "finished" */
	int running, finished;
	int step;
	int sandbox;
	char visibility[8];
	char result[256];       /* how it ended ("" while it goes on) */
};
/* The game called name and its battle as it stands (*b new; battle_free):
 * 0, or -1 with e set (ERR_USER when there is no such game). */
int referee_game_load(struct referee *r, const char *name,
    struct referee_game *g, struct battle **b, struct err *e);
/* The narrative templates of rs, loaded once (referee_templates_check
 * loads them all); NULL with e set when they do not load. */
struct narrative;
struct ruleset;
const struct narrative *referee_narrative(struct referee *r,
    const struct ruleset *rs, struct err *e);

/* The events of game's step (0: of every step), with each event's step in
 * *steps (malloc'd). */
int referee_game_events(struct referee *r, int64_t game, int step,
    struct events *ev, int **steps, struct err *e);

/* A running referee's options changed (a daemon's reload): the From of
 * games made from now on, and the templates folder, whose files are all
 * loaded before any replaces the old.  The key and the database are not
 * changed.  0, or -1 with e set and the old options kept whole. */
int referee_reconfigure(struct referee *r, const struct referee_opts *o,
    struct err *e);
/* Whether the referee's key is the one every game being played was
 * begun with (its genesis commits it): 0 when so, 1 when some differ
 * (their names in games, comma-separated), -1 with e set. */
int referee_key_agrees(struct referee *r, char *games, size_t size,
    struct err *e);

/* Loads the narrative templates of every ruleset, so that a mistake in
 * an operator's templates stops the daemon at its start, not a turn.
 * 0, or -1 with e naming the file and line. */
int referee_templates_check(struct referee *r, struct err *e);

/* The ledger's signing key (made at first use): its public half, and the
 * file it is in ("(demo)" or "(memory)" for those). */
int referee_key(struct referee *r, unsigned char pk[32], char *path,
    size_t psize, struct err *e);

/* Writes game's archive (despatch-archive(5)) to out: the scenario and
 * every ledger record with what it hashes.  Players' addresses only with
 * with_addresses (the records hold their hashes). */
int referee_export(struct referee *r, const char *game, FILE *out,
    int with_addresses, struct err *e);

/* Seconds since the epoch (the fixed clock when set). */
int64_t referee_now(struct referee *r);

/* Creates game `name` in set-up from the scenario file at path.  A
 * non-NULL seed_secret fixes the game's dice secret (the demo's documented
 * seed); NULL draws one at random. */
int referee_new_game(struct referee *r, const char *name, const char *path,
    int sandbox, const unsigned char *seed_secret, struct err *e);

/* Campaigns (issue 26; src/referee/campaign.c).  new: a campaign in
 * set-up from the campaign file at path (it and its battlefield files
 * are kept in the store).  player_add: a player of side, with their
 * secret into secret_out (REFEREE_SECRET_MAX bytes; password: the
 * operator's choice, or NULL for a new one).  start: every side has a
 * player; the signed genesis is written and the campaign runs.
 * state_print: where every column is and its strength (as_json: the
 * shape docs/campaign.md gives).  show: the campaign, its players and
 * its chain's heads.  new's seed_secret fixes the campaign's secret, from
 * which its battles' are made too (the demo); NULL draws one. */
int referee_campaign_new(struct referee *r, const char *name,
    const char *path, int sandbox, const unsigned char *seed_secret,
    struct err *e);
/* player_add's columns: the columns of the side the player commands,
 * names joined by ',' (NULL or "": all of them). */
int referee_campaign_player_add(struct referee *r, const char *name,
    const char *side, const char *email, const char *columns,
    const char *password,
    char *secret_out, struct err *e);
int referee_campaign_start(struct referee *r, const char *name,
    struct err *e);
int referee_campaign_state_print(struct referee *r, const char *name,
    int as_json, FILE *out, struct err *e);
int referee_campaign_show(struct referee *r, const char *name, FILE *out,
    struct err *e);
/* orders: side's orders for the next turn from text, each line answered
 * on out; those understood replace the side's for their columns, and
 * *refused counts the others (*taken, when not NULL, those understood);
 * player (store_cplayer.id; 0 for the operator, who orders every column)
 * may order only the columns they command (referee_cplayer_commands).
 * turn: plays the next turn's march (its
 * signed record, a game for each battle, started), or, when its battles
 * are over, ends it (what they carry back, the day, the record). */
int referee_campaign_orders(struct referee *r, const char *name,
    const char *side, int64_t player, const char *text, FILE *out,
    int *refused, int *taken, struct err *e);
int referee_campaign_turn(struct referee *r, const char *name, FILE *out,
    struct err *e);
/* The campaign's operational map as it stands into path (.png or .svg),
 * for side (its columns and what it sees), or every column (NULL). */
int referee_campaign_map(struct referee *r, const char *name,
    const char *side, const char *path, struct err *e);
/* The campaign's archive (docs/campaign.md, Archive): its file and
 * battlefields, every record of its chain with the orders each march
 * committed, and every battle's own archive. */
int referee_campaign_export(struct referee *r, const char *name, FILE *out,
    struct err *e);
/* The names of the campaigns, newline-separated, malloc'd (NULL when
 * out of memory). */
char *referee_campaign_names(struct referee *r);

/* Removes a game that has not started, with its players and settings
 * (mail already queued for it stays in the outbox, unattached). */
int referee_game_remove(struct referee *r, const char *game, struct err *e);


/* --- keeping the store small (vacuum.c) ------------------------------ */

struct vacuum_result {
	int64_t messages;          /* received mails cut to their headers */
	int64_t outbox;            /* delivered mails of an older despatch */
	int64_t before, after;     /* the database's bytes */
};

/* Cuts every received and delivered mail whose bytes are no longer
 * needed, then VACUUMs. */
int referee_vacuum(struct referee *r, struct vacuum_result *vr,
    struct err *e);
/* VACUUMs if a battle ended in the transaction just committed. */
void referee_vacuum_due(struct referee *r);

/* --- engines and upgrades (upgrade.c, docs/ledger.md) ---------------- */

struct upgrade_result {
	int from, to;                       /* the engines */
	char state_hex[2 * 32 + 1];         /* the checkpoint's state hash */
};

/* The rules engine game (by id) is played by: its genesis's, or its
 * last upgrade's; this build's for a game with no ledger yet. */
int referee_engine_of(struct referee *r, int64_t game, int *engine,
    struct err *e);
/* Carries a running game over to this build's engine: a signed upgrade
 * act with its checkpoint, and the players told.  Refused (ERR_USER) for
 * a game already on it, one on a newer engine, or one whose phase is
 * closed for its nonces. */
int referee_game_upgrade(struct referee *r, const char *game,
    struct upgrade_result *ur, struct err *e);
/* Before a step of game is closed or played: 0 when it may be (carried
 * over first, *upgraded set, when auto_ok and the server's upgrade
 * setting is auto); 1 when it waits for an upgrade, e saying why, the
 * players told once (*told set the time they are); -1 on error. */
int referee_engine_gate(struct referee *r, const char *game, int auto_ok,
    int *upgraded, int *told, struct err *e);

/* Adds a player.  With password NULL a secret is generated; either way
 * the secret is written to secret_out (REFEREE_SECRET_MAX bytes).
 * brigades (NULL: the whole side) names the brigades the player commands
 * when a side has several players: comma-separated brigade names, and
 * "army" for the army commander; no brigade may have two players. */
int referee_player_add(struct referee *r, const char *game, const char *side,
    const char *email, const char *password, const char *brigades,
    char *secret_out, struct err *e);

/* Adds (or sets the delay of) an observer of game: EMAIL gets every
 * phase's whole picture `delay` phases after it is played (delay < 0:
 * the game's observer-delay setting).  A player of the game cannot
 * observe it. */
int referee_observer_add(struct referee *r, const char *game,
    const char *email, int delay, struct err *e);

/* Removes a player from a game still in set-up. */
int referee_player_remove(struct referee *r, const char *game,
    const char *email, struct err *e);

/* Gives a player a new secret (generated, or password if not NULL),
 * written to secret_out; in a started game a mail tells the player. */
int referee_player_reset(struct referee *r, const char *game,
    const char *email, const char *password, char *secret_out, struct err *e);

/* Hands a player's place in a running game to new_email with a new
 * secret (generated, or password), written to secret_out.  who is the
 * player's address, or a side with one player.  The new player gets the
 * secret, the help and the forces; the old one and the others are told. */
int referee_player_replace(struct referee *r, const char *game,
    const char *who, const char *new_email, const char *password,
    char *secret_out, struct err *e);

/* Writes one line a player ("side email", and the brigades) of game to
 * out, a malloc'd string; with as_json a JSON array of {side, email,
 * brigades} (docs/json.md). */
int referee_player_list(struct referee *r, const char *game, int as_json,
    char **out, struct err *e);

/* Freezes the roster, queues a welcome to every player and opens step 1. */
int referee_start(struct referee *r, const char *game, struct err *e);

enum submit_outcome {
	SUBMIT_STORED = 0,     /* stored (and answered where appropriate) */
	SUBMIT_DUPLICATE       /* seen before: neither stored nor answered */
};

struct submit_result {
	enum submit_outcome outcome;
	char status[32];       /* what the message was: orders, commands,
	                        * no-orders, rejected, unknown-game, no-header,
	                        * ignored, unreadable, rate-limited, duplicate */
	char note[256];        /* one line for the operator */
	int replies;           /* mails queued in answer */
};

/* Takes one raw message (the pipe path).  Returns 0 once it is safely
 * stored or recognised as a duplicate; -1 with e set only when it could
 * not be stored (e->kind ERR_TEMP: try again later). */
int referee_submit(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, struct submit_result *res, struct err *e);
/* The same, for a mail the mailbox took at arrived (seconds since the
 * epoch: IMAP's INTERNALDATE, the Maildir delivery time), which is the
 * time stored with it; 0 is now. */
int referee_submit_at(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, int64_t arrived, struct submit_result *res,
    struct err *e);

/* The spool (spool.c): a mail made durable first and read after.  add
 * inserts one (inside a batch, so a batch is one sync); run reads the
 * spooled mails in order, batch of them a transaction, each deleted in
 * the transaction that reads it, calling report (may be NULL) for each
 * with its source and what the intake made of it (res NULL when it
 * failed, e saying why).  It stops at a passing failure (the mail stays
 * for the next run); a mail the intake fails on for good keeps its row
 * with the error and is not tried again.  -1 only for a store error. */
struct spool_result {
	int read;       /* read and answered (or known as duplicates) */
	int waiting;    /* left for a passing failure */
	int failed;     /* kept with an error */
};
int referee_spool_add(struct referee *r, const char *raw, size_t len,
    int64_t arrived, const char *source, struct err *e);
int referee_spool_run(struct referee *r, int batch, void (*report)(void *arg,
    const char *source, const struct submit_result *res, const struct err *e),
    void *arg, struct spool_result *out, struct err *e);
int referee_spool_pending(struct referee *r, int64_t *waiting,
    int64_t *failed, struct err *e);

/* A batch of mails stored in one transaction: between begin and commit,
 * each referee_submit is a savepoint of it (its own mail rolled back on
 * its own failure), and only the commit makes them durable, with one
 * sync for the batch.  A caller moves the mails out of its mailbox only
 * after the commit.  abort undoes every mail of the batch. */
int referee_batch_begin(struct referee *r, struct err *e);
/* The order replies that a process which died (between its intake's
 * commit and drawing their maps) left held for their map: due at once,
 * as text.  For a daemon's start, when no other process of its own is
 * drawing one.  Returns how many, or -1 with e set. */
int referee_previews_orphaned(struct referee *r, struct err *e);
int referee_batch_commit(struct referee *r, struct err *e);
void referee_batch_abort(struct referee *r);

struct turn_result {
	int step, turn, side;  /* what was played (side -1: simultaneous) */
	int events, rolls;
	int finished;          /* the battle is over */
	int closed;            /* (a game with nonces) the step was closed to
	                        * orders, not played: the nonces are awaited */
};

/* Adjudicates the open step of game.  dice/ndice: scripted dice (sandbox
 * games only), or NULL for the game's dice stream.  In a game with
 * nonces, a step not yet closed is closed instead (res->closed), and a
 * closed one is played only once every nonce is in or the time for them
 * has passed (else ERR_USER says how many are awaited, until when). */
int referee_turn(struct referee *r, const char *game, const int *dice,
    int ndice, struct turn_result *res, struct err *e);

/* Closes the open step of a game with nonces to orders: its leaves are
 * frozen and the Close notice, asking for the nonces, is queued.  The
 * step is played later (referee_turn) with the nonces revealed. */
int referee_close(struct referee *r, const char *game, struct err *e);

/* Sets a setting of game (NULL: of the whole server).  Known keys and
 * their values are checked; ERR_USER names what would be right. */
int referee_setting_set(struct referee *r, const char *game, const char *key,
    const char *value, struct err *e);
/* Writes the known keys, their values and meaning, a line each. */
void referee_setting_help(FILE *f);
/* A game at a glance (status, phase, orders stored, players, settings)
 * as a malloc'd text in *out, or with as_json as one JSON object
 * (docs/json.md).  0, or -1 with e set and *out NULL. */
int referee_show(struct referee *r, const char *game, int as_json,
    char **out, struct err *e);

struct mail_smtp;

struct send_result {
	int sent, deferred, failed;
	char last_error[300];   /* why the last mail put off was */
};

/* Sends the queued mail that is due (all that is not sent or failed, with
 * all set) over SMTP; each is marked sent after the server's 250, put off
 * on a passing failure, failed on a permanent one.  -1 only for a store
 * error. */
int referee_outbox_send(struct referee *r, const struct mail_smtp *smtp,
    int all, struct send_result *res, struct err *e);
/* The same over a kept session (mail_smtp_session_new): the connection,
 * its TLS and its login outlive the call, for the daemon's next round. */
int referee_outbox_send_on(struct referee *r, const struct mail_smtp *smtp,
    void *session, int all, struct send_result *res, struct err *e);

/* "48h", "2d", "90m", "30s" or none/0 (0) as seconds; -1 if unreadable. */
int referee_parse_time(const char *v, int64_t *secs);

struct tick_result {
	int played;       /* steps played */
	int reminders;    /* reminder mails queued */
	int errors;       /* steps (or campaign turns) that could not be
	                   * played */
	int campaign_turns; /* campaign turns marched or settled */
	char last[300];   /* what happened last, for the operator */
};

/* Does what the game clock says is due now, once, for every game: plays a
 * phase whose players have all sent orders (unless a player asked to WAIT
 * or the game has fixed deadlines) or whose deadline and grace have
 * passed, and sends the reminders that are due.  -1 only when the store
 * fails. */
int referee_tick(struct referee *r, struct tick_result *res, struct err *e);
/* The campaigns' part of a tick (campaign_clock.c): marches each
 * campaign's turn once every side's orders are in and its settle time has
 * passed, or at its deadline after the turn opened, and before that
 * deadline reminds the players of the sides that have sent none (each
 * reminder once, counted in res->reminders); settles a turn once its
 * battles are over.  The times are the campaign's settings, else the
 * server's.  -1 only when the store fails (a turn that cannot be played
 * counts in res->errors). */
int referee_campaign_tick(struct referee *r, int64_t now,
    struct tick_result *res, struct err *e);
/* A campaign's own clock (settings.c): key (deadline, settle or
 * reminders) set to value for campaign name, the value checked as
 * referee_setting_set checks it (a refusal changes nothing); and the
 * three printed to out as they stand, each with where its value comes
 * from (the campaign, the server or the default), with the open turn's
 * deadline. */
int referee_campaign_setting_set(struct referee *r, const char *name,
    const char *key, const char *value, struct err *e);
int referee_campaign_settings_print(struct referee *r, const char *name,
    FILE *out, struct err *e);
/* Pauses (pause 1) or resumes a running game; every player is told, with
 * why (may be NULL).  Paused, no phase is played and no deadline runs. */
int referee_pause(struct referee *r, const char *game, int pause,
    const char *why, struct err *e);
/* Puts the open phase's deadline off by secs; every player is told. */
int referee_extend(struct referee *r, const char *game, int64_t secs,
    struct err *e);

/* Moves the keyed-hash keys an older despatch kept in the database into
 * the file beside the ledger's key (DATABASE.key.secrets, 0600) and wipes
 * them from the database (secure_delete, then VACUUM), so a copy of the
 * database alone lets nobody test guesses at a secret.  Outside any
 * transaction, at a daemon's start or before a command; done also, but
 * without the VACUUM, the first time a key is needed.  0, or -1. */
int referee_keys_settle(struct referee *r, struct err *e);

/* After the store was put back from a backup taken at taken (text, for
 * people): each game with a ledger gets a restore act naming the head it
 * goes on from, and the players of each game being played are told that
 * what the server did since is void, which phase will be played again,
 * and that orders sent since must be sent again.  *games is how many.
 * 0, or -1 with e set. */
int referee_restored(struct referee *r, const char *taken, int *games,
    struct err *e);

/* The keyed hash under which a player's secret is stored. */
int referee_secret_hash(struct referee *r, const char *secret,
    unsigned char out[32], struct err *e);


#endif
