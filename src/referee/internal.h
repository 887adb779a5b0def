/*
 * internal.h - what the referee's files share and nobody else sees.
 */
#ifndef DESPATCH_REFEREE_INTERNAL_H
#define DESPATCH_REFEREE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/text.h"
#include "referee/referee.h"
#include "store/store.h"

#define MAX_PLAYERS 64

struct orders_parser;
struct ledger_key;
struct narrative;
struct preview_job;

#define REFEREE_PARSERS 4

struct referee {
	struct store *st;
	/* Order parsers made once and kept (one per ruleset in use): making
	 * one compiles its patterns, too costly to do for every mail. */
	const void *parser_rs[REFEREE_PARSERS];
	struct orders_parser *parser[REFEREE_PARSERS];
	char from[256];          /* From of our mail: "despatch <addr>" */
	char domain[128];        /* right-hand side of our Message-IDs */
	int64_t fixed_now;       /* if non-zero: a clock that starts here and
	                          * ticks a minute a call (demo, tests) */
	long msg_counter;        /* with fixed_now: Message-IDs count up */
	/* Tests only: called after a step is adjudicated and before its
	 * result is written, while the referee holds no lock. */
	void (*after_play)(void *arg);
	void *after_play_arg;
	/* The battle kept across a batch of mails (battles.c): on counts
	 * the batches and mails that keep it; loads and hits (for tests)
	 * the battles read and lent. */
	struct {
		int on;
		int64_t game;
		int step, status;
		char *scenario;
		size_t len;
		struct battle *b;
		long loads, hits;
	} bc;
	/* How many games referee_tick has looked at, and how many battles
	 * it has read (tests: a game with nothing due is neither). */
	long tick_looks;
	long tick_loads;
	/* The ledger's signing key: the file key_path ("": DATABASE.key),
	 * or with key_demo the demo's published key; loaded on first use. */
	char key_path[4096];
	int key_demo;
	struct ledger_key *key;
	/* The narrative templates of each ruleset in use, loaded once:
	 * from templates_dir ($DESPATCH_TEMPLATES, the config's templates)
	 * when it holds the ruleset's file, else the built-in ones. */
	char templates_dir[4096];
	const void *narr_rs[REFEREE_PARSERS];
	struct narrative *narr[REFEREE_PARSERS];
	/* Order replies waiting for their preview map (preview.c): the
	 * orders whose reply is being queued, and the replies queued. */
	const char *hold_game;
	int hold_side;
	int64_t hold_player;
	const struct order_set *hold_set;
	struct preview_job **jobs;
	int njobs;
	/* Mails the SMTP server took whose "sent" mark could not be written
	 * (a full disk): not sent again while they wait to be marked. */
	int64_t *unmarked;
	int nunmarked;
	/* The mail server's outage, as this process saw it: failed
	 * connections in a row, and when to try the whole queue again. */
	int away_streak;
	int64_t away_next;
	/* A battle ended in a transaction not yet committed (a concession):
	 * the database is VACUUMed once it is (referee_vacuum_due). */
	int vacuum_due;
	/* The keyed-hash keys (keys.c), read once. */
	unsigned char skeys[2][32];
	int skeys_loaded;
};

/* A referee on st (not owned) with options o (NULL: every default);
 * referee_fini frees what it keeps, not the store.  For the referee's
 * own and white-box tests: the fronts use referee_open. */
void referee_init_with(struct referee *r, struct store *st,
    const struct referee_opts *o);
void referee_init(struct referee *r, struct store *st);
void referee_fini(struct referee *r);
/* at (seconds since 1970, UTC) written as "2026-12-03T18:00:00Z"
 * (ISO), "2026-12-03 18:00:00 UTC" (SECS) or "2026-12-03 18:00 UTC"
 * (MINUTES); "?" for a time this system's time_t or calendar cannot
 * hold. */
enum referee_utc { REFEREE_UTC_ISO, REFEREE_UTC_SECS, REFEREE_UTC_MINUTES };
void referee_utc(enum referee_utc how, int64_t at, char *out, size_t size);

/* The right-hand side of from's address, for Message-IDs ("localhost"
 * when it has none). */
void referee_domain_of(const char *from, char *out, size_t size);

/* The bytes to send for queued mail m: when it was queued to have its
 * visuals drawn at sending (a welcome's map of the field at the start),
 * *raw is the whole mail, drawn now (malloc'd, *len long); else NULL,
 * and m->raw goes as it is. */
struct store_mail;
int referee_mail_drawn(struct referee *r, const struct store_mail *m,
    char **raw, size_t *len, struct err *e);

/* Queues a notice with subject and body to every player of g. */

/* Begins a transaction (a savepoint inside another), reads game into g
 * (which it clears first) and takes the game's lock (store_game_lock).
 * 0, or -1 with e set and nothing left open. */
int referee_game_begin(struct referee *r, const char *game,
    struct store_game *g, struct err *e);
/* Ends what referee_game_begin began: commits it when rc is 0, rolls it
 * back otherwise or when the commit fails; then clears g.  Returns rc, or
 * -1 for a commit that failed. */
int referee_game_end(struct referee *r, struct store_game *g, int rc,
    struct err *e);

/* 1 (with why, if not NULL) when game g waits for an upgrade, *from its
 * engine; 0 when it plays this build's. */
int referee_engine_wait(struct referee *r, const struct store_game *g,
    int *from, char *why, size_t size, struct err *e);
/* Tells g's players, once a step, that it waits for an upgrade. */
int referee_engine_told(struct referee *r, const struct store_game *g,
    int from, int *told, struct err *e);
/* Queues a notice with subject and body to every player of g. */
int referee_tell_all(struct referee *r, const struct store_game *g,
    const char *subject,
    const char *body, struct err *e);

/* The ledger's key file: the configured one, else DATABASE.key ("" for a
 * database in memory). */
void referee_key_file(struct referee *r, char *path, size_t size);
/* The 32-byte keyed-hash key name ("secret-hash", "concede"), from the
 * file beside the ledger's key (keys.c).  0, or -1 with e set. */
int referee_server_key(struct referee *r, const char *name,
    unsigned char key[32], struct err *e);

/* Composes a mail and queues it in the outbox.  A sensitive one (it holds
 * a secret) loses its body once delivered. */
int referee_queue_mail_s(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, int sensitive, struct err *e);
int referee_queue_mail(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, struct err *e);

/* What goes beside a mail's text: an HTML part and images or attachments
 * (see struct mail_out). */
struct mail_part;
struct mail_extra {
	const char *reply_to;     /* where answers should go; NULL: us */
	const char *html;
	const struct mail_part *parts;
	int nparts;
	char cid[160];            /* room for the parts' names and ids */
	char png[128], svg[128], json[128];
	char inline_png[128];     /* the inline map's, beside FULL's png */
};
int referee_queue_mail_x(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, const struct mail_extra *x,
    int sensitive, struct err *e);

/* The order reply's preview map (preview.c).  Between hold and release,
 * every mail queued is kept back for its map (preview_note, called by
 * referee_queue_mail_x); after the transaction commits, flush draws the
 * maps and puts them in; drop forgets the jobs past the first keep (a
 * rolled back mail's). */
void preview_hold(struct referee *r, const char *game, int side,
    int64_t player, const struct order_set *set);
void preview_release(struct referee *r);
struct mail_out;
int preview_note(struct referee *r, const struct mail_out *m, int64_t now,
    struct err *e);
void referee_previews_flush(struct referee *r);
void referee_previews_drop(struct referee *r, int keep);

/* After step is written: each observer's report of it (held back by the
 * observer's delay), and the held reports now due released (all of them
 * when finished). */
struct narrative;
int referee_observers_report(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, const struct events *ev,
    const struct narrative *nar, const struct pt *from,
    const unsigned char *from_ok, int finished, struct err *e);

/* A player's SET MAIL choice ("text", "html" or "full") into buf. */
int referee_player_mail_format(struct referee *r, int64_t player, char *buf,
    size_t size, struct err *e);

/* The pictures and data a side's report mail may carry: the map of what
 * the side sees (PNG and SVG) and its JSON report. */
struct side_visuals {
	unsigned char *png, *svg;
	size_t png_len, svg_len;
	/* The map shown in the mail's HTML: a palette PNG of at most 60 KB
	 * of the side's part of the field (issue 25); png, svg and json are
	 * the whole field, drawn only for a FULL mail, which attaches them
	 * (NULL until then). */
	unsigned char *inline_png;
	size_t inline_len;
	char *json;
	size_t json_len;
};

/* Draws what a mail in format ("text", "html", "full") needs and v does
 * not hold yet (v starts zeroed, and is kept for the side's next
 * player): for "html" and "full" the inline map of the side's part of
 * the field (map_crop); for "full" also the whole field's map in full
 * colour and as SVG, and the JSON side report of step when ev is not
 * NULL.  All with the given subtitle.  seen: map_seen's mask in a fog
 * game, NULL in an open one.  from/from_ok: the units' centres before
 * the step, for its moves drawn as arrows (NULL: none).  On failure v
 * is freed. */
/* The subtitle of a side's map at the start: "Before turn 1 (07:00): as
 * crown sees it", or its deployment's. */
void referee_start_subtitle(const struct battle *b, int side,
    const char *clock, char *out, size_t size);
int referee_side_visuals_make(struct side_visuals *v,
    const struct store_game *g,
    const struct battle *b, int side, const unsigned char *seen,
    const char *subtitle, const struct events *ev,
    const struct narrative *nar, int step,
    const struct pt *from, const unsigned char *from_ok,
    const struct sighting *last, int nlast, const char *format,
    struct err *e);
void referee_side_visuals_free(struct side_visuals *v);

/* The HTML and parts of a report mail in the player's format ("text":
 * nothing; "html": the HTML with the map inline; "full": and the PNG,
 * SVG and JSON attached).  parts must have room for MAIL_PARTS_MAX; the
 * HTML (malloc'd, in x->html) is the caller's to free.  name ("cowpens-
 * turn3-crown") makes the image's Content-ID and the files' names. */
int report_extra(const char *format, const char *body, const char *title,
    const struct side_visuals *v, const char *name,
    struct mail_part *parts, struct mail_extra *x, char **html,
    struct err *e);

/* Reads a player's brigade list ("Main Line, Skirmish Line, army": names
 * or unique beginnings of the side's brigades, and "army" for the army
 * commander) into *mask and *army; writes the names in full to canon
 * (if not NULL).  "" or NULL: the whole side (mask 0).  ERR_USER names a
 * brigade that is not the side's. */
int referee_brigade_list(const struct battle *b, int side, const char *text,
    uint64_t *mask, int *army, char *canon, size_t csize, struct err *e);

/* The referee's parser for ruleset rs, made on first use and kept until
 * referee_fini; NULL with e set if it cannot be made.  Its brigade limit
 * is lifted. */
struct ruleset;
struct orders_parser *referee_parser(struct referee *r,
    const struct ruleset *rs, struct err *e);


/* What merging a mail's orders into a player's stored set did (merge.c):
 * orders stored before, kept, replaced by the mail's, and dropped (a
 * CLEAR, or a stored set that no longer reads); the mail's orders for
 * things without one before; the set's size now; and the set as it now
 * stands, a line an order marked "new" or "kept" (free list with
 * text_free). */
struct order_set;
struct merge_result {
	int had, kept, replaced, dropped, added, now;
	int unread;             /* the stored set did not read back */
	struct text list;
	struct order_set *set;  /* the set as it now stands (malloc'd) */
};
void referee_merge_result_free(struct merge_result *mr);
/* A ruleset's preview of a merged set (struct ruleset.preview) appended
 * to t: its "line N" is the order's line in this mail, and an order kept
 * from an earlier mail, which has none (line 0), is shown as "kept". */
void referee_preview_text(struct text *t, const char *warn);

/* Merges res's orders into the set player has stored for (game, step,
 * side): the mail's orders replace the stored orders of what they name,
 * the rest stand; with clear, the mail's orders are the whole set.  The
 * rows kept keep their mail.  0, or -1 with e set. */
struct orders_result;
int referee_orders_merge(struct referee *r, struct orders_parser *p,
    const struct battle *b, int64_t game, int step, int side, int64_t player,
    int64_t msg_row, const struct orders_result *res, int clear,
    struct merge_result *mr, struct err *e);

/* 1 if a is an address a player may be given (one '@', a dot after it,
 * no spaces or mail punctuation). */
int referee_valid_email(const char *a);

/* 1 if campaign player p of pl (np of them) commands column k: every
 * column of the side when p's list is empty; else those on it, and those
 * on no player's list (a column made by DETACH, or one given nobody). */
struct campaign;
struct store_cplayer;
int referee_cplayer_commands(const struct campaign *c,
    const struct store_cplayer *pl, int np, int p, int k);
/* The brigade list (as `player add --brigades` takes it) of campaign
 * player k of pl in battle b, on its side s, into out: "" (the whole
 * side) for a player of every column; else the brigades there of the
 * columns they command, and "army" when the army there is one of theirs.
 * How many brigades (or the army) that is, -1 meaning the whole side. */
struct battle;
int referee_campaign_seat(const struct campaign *c, const struct battle *b,
    int s, const struct store_cplayer *pl, int np, int k, char *out,
    size_t size);

/* Whose the phase of step is, as a reply names it: the phasing side's
 * name, "the deployment", or "every side". */
const char *referee_phase_who(const struct battle *b, int step);

/* The step at which side plays turn (-1 if none). */
int referee_step_for(const struct battle *b, int turn, int side);
/* After the step that decided the order of `turn`'s steps (a ruleset's
 * initiative, struct ruleset.turn_order; b the battle after it): files the
 * orders already sent for that turn under the steps their sides now
 * play.  0, or -1 with e set. */
int referee_refile_turn(struct referee *r, int64_t game,
    const struct battle *b, int turn, struct err *e);

/* The few lines on how to write an order mail, ending every refusal. */
extern const char referee_help_tail[];

struct mail_msg;
struct store_game;
struct submit_result;

/* One incoming mail while it is read and answered. */
/* The most of a received mail's text kept once its bytes go. */
#define TEXT_KEEP_MAX (8 * 1024)

/* What is kept of a mail's decoded body once its bytes go: as far as the
 * orders were read from it (read_len; 0: all), less the quoted lines
 * ('>'), which were never read, at most TEXT_KEEP_MAX bytes.  Malloc'd,
 * its length in *len; NULL when out of memory. */
char *referee_text_read_kept(const char *body, size_t body_len, size_t read_len,
    size_t *len);

/* The most a command's answer holds (commands.c, lobby.c). */
#define ANSWER_MAX (128 * 1024)

struct intake {
	struct referee *r;
	const char *raw;
	size_t len;
	unsigned char sha[32];
	struct mail_msg *m;
	const char *reply_to;   /* where answers go: Reply-To, From, else the
	                         * envelope sender */
	const char *sender;     /* From (or the envelope sender): who wrote */
	struct submit_result *res;
	struct err *e;
	char *stored;           /* raw with the secrets blanked */
	size_t stored_len;
	size_t read_len;          /* bytes of the body the orders were read
	                           * from (0: not read for orders) */
	int64_t game_id;
	int64_t player_id;
	int64_t msg_row;        /* the stored message's row */
	int64_t arrived;        /* when the mailbox took it (0: now) */
	int committed;          /* its COMMIT was stored with its orders */
	int step;
	int side;               /* the authenticated player's side, or -1 */
	int replies;            /* mails queued for this one so far */
	char game[64];
	char subject_re[300];
	char secret[128];       /* the secret as typed, "" if none */
	char registered[256];   /* the authenticated player's address */
	char brigades[512];     /* ... and the brigades they command ("": all) */
	struct orders_parser *op; /* the parser the header was found with */
};

/* Sets what the intake made of the mail: its status word and the note
 * for the operator. */
void referee_intake_status(struct intake *in, const char *status,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Stores the mail with what the intake made of it. */
int referee_intake_store(struct intake *in);
/* Stores the mail as refused with status and answers it with t. */
int referee_intake_refuse(struct intake *in, struct text *t,
    const char *status);
/* Authenticates the header's secret among the players of side of game
 * (secret.c); sets in->player_id and in->registered.  Returns 0
 * (player_id 0 when none matches), -1 on a store error. */
int referee_authenticate(struct intake *in, int64_t game, int side,
    const char *secret);
/* A secret as typed without what a mail wraps it in ("<secret>.",
 * "'secret'") into bare: 0, or -1 when it is the same as typed. */
int referee_secret_bare(const char *secret, char *bare, size_t size);

/* A mail whose header names a campaign (CAMPAIGN NAME, or GAME NAME where
 * no game is NAME and a campaign is): the side's campaign orders for the
 * next turn (campaign_mail.c), stored and answered.  -1 only for a
 * store failure. */
struct orders_header;
int referee_campaign_mail(struct intake *in, const struct orders_header *h);
/* The campaign as stored: its file parsed from the store's copies, its
 * state read onto it once started.  *out: campaign_free. */
struct store_campaign;
struct campaign;
int referee_campaign_load(struct referee *r, const struct store_campaign *sc,
    struct campaign **out, struct err *e);

/* Queues an answer to the mail: to its sender, and when the mail gave a
 * player's secret from another address, to the player's registered
 * address first (the sender never learns that address); mail that came
 * through a list, to the registered address alone.  kind is the
 * outbox kind, subject NULL for "Re: <their subject>".  A reply that
 * cannot be composed is noted on the stored mail, never undoes it; -1
 * only for a passing failure. */
int referee_intake_reply(struct intake *in, const char *kind,
    const char *subject,
    const char *body);

/* A setting (settings.c): the game's value (game_id > 0), else the
 * server's (game 0), else its default; written to out. */
int referee_setting_get(struct referee *r, int64_t game_id, const char *key,
    char *out, size_t size, struct err *e);
/* An on|off setting: 1 on, 0 off, -1 with e set. */
int referee_setting_on(struct referee *r, int64_t game_id, const char *key,
    struct err *e);
/* A time setting in seconds into *secs (0 for none, or a value that does
 * not read as a time); 0, or -1 with e set. */
int referee_setting_secs(struct referee *r, int64_t game_id, const char *key,
    int64_t *secs, struct err *e);
/* The longest time named in key (a list of times, as "reminders") by any
 * value it has, the default's, the server's or any game's, into *max (0
 * when none names one).  0, or -1 with e set. */
int referee_setting_max_secs(struct referee *r, const char *key,
    int64_t *max, struct err *e);

/* The battle of game g (read inside the caller's transaction) into *out,
 * the caller's to change and battle_free: while one is kept (a batch of
 * mails, or one mail and its map), a copy of the one kept when g is at
 * the same step and status with the same scenario, else read from the
 * store (and kept).  0, or -1 with e set (battles.c). */
int referee_battle_load(struct referee *r, const struct store_game *g,
    struct battle **out, struct err *e);
/* Keeps the battles read until the matching referee_battles_drop (they
 * nest: a mail inside a batch). */
void referee_battles_keep(struct referee *r);
void referee_battles_drop(struct referee *r);

/* Sets the open step's deadline from the game's schedule (none when it
 * has no deadline), counting from now. */
int referee_clock_open_step(struct referee *r, int64_t game, int64_t now,
    struct err *e);
/* t as a date and time in the game's time zone. */
void referee_clock_format(struct referee *r, int64_t game, int64_t t, char *out,
    size_t size);
/* When the open phase of g will be played if nothing changes, as
 * referee_tick decides it (clock.c): at (-1: not before its deadline),
 * with what it hangs on: the game's settle time, its players owing, how
 * many are in and READY, a WAIT, fixed deadlines. */
struct play_forecast {
	int64_t at;
	int64_t settle;
	int players, in, ready, all_ready, waiting, fixed;
};
int referee_forecast(struct referee *r, const struct store_game *g,
    const struct battle *b, int64_t now, struct play_forecast *f,
    struct err *e);

/* The open phase's deadline as a player of side reads it (or that the
 * operator plays each phase), a line or two appended to t: for the
 * welcome and HELP. */
void referee_deadline_note(struct referee *r, const struct store_game *g,
    const struct battle *b, int side, struct text *t);

/*
 * The reminder of list (a reminders setting, "24h,2h") whose time has
 * come at now, for a battle's phase or a campaign's turn that opened at
 * opened and is due at deadline (clock.c): 1 with its time before the
 * deadline in *ahead and its word in word, or 0 when none is due.  Of
 * several whose time has come only the nearest the deadline is given (it
 * stands for the others, which store_reminder_sent and
 * store_campaign_reminder_sent then count as sent), so one tick never
 * sends two.  A reminder whose time falls before the phase or turn
 * opened is skipped (the mail that opened it gave the deadline; a
 * deadline set later, by the operator, is reminded of as usual).  So is
 * one a minute or less before a later one.  Words that are not times are
 * passed over (the setting checked them when it was set).
 */
int referee_reminder_due(const char *list, int64_t opened, int64_t deadline,
    int64_t now, int64_t *ahead, char *word, size_t wsize);

/* A campaign's clock setting (settings.c): deadline, settle or
 * reminders, the campaign's own value, else the server's, else the
 * default, into out; and a time setting as seconds (0 for none). */
int referee_campaign_setting_get(struct referee *r, int64_t campaign,
    const char *key, char *out, size_t size, struct err *e);
int referee_campaign_setting_secs(struct referee *r, int64_t campaign,
    const char *key, int64_t *secs, struct err *e);
/* When the open turn of running campaign sc opened (its last record was
 * written) into *opened, and when its deadline falls into *deadline (0:
 * no deadline is set), from the store alone (campaign_clock.c).  While
 * the turn waits for its battles no deadline runs: the caller asks only
 * of a turn that takes orders.  0, or -1 with e set. */
int referee_campaign_deadline(struct referee *r,
    const struct store_campaign *sc, int64_t *opened, int64_t *deadline,
    struct err *e);

/* How long secs is, as a player reads it: "in 10 minutes", "in 47
 * hours", "in 3 days", "now". */
void referee_clock_until(int64_t secs, char *out, size_t size);
/* t in the game's time zone and how long from now: "Thursday 3 December
 * 2026, 18:00 GMT (UTC+0), in 47 hours". */
void referee_clock_when(struct referee *r, int64_t game, int64_t t,
    int64_t now, char *out, size_t size);

/* Two lines telling a player that no person reads the mail, and where
 * questions go (the operator setting, when set). */
void referee_operator_note(struct referee *r, int64_t game_id, char *out,
    size_t size);

/* Local time of t in zone tz (clock.c): 0, or -1 when this system's
 * time_t cannot hold t (32 bits, after January 2038: a build without
 * _TIME_BITS=64 on a 32-bit machine), rather than the wrapped time of
 * 1901. */
struct tm;
int referee_local_time(int64_t t, const char *tz, struct tm *tm);

/* A new secret that is easy to type into out (REFEREE_SECRET_MAX): five
 * groups of five letters and digits from a 31-symbol alphabet without
 * look-alikes, 123 bits (referee.c). */
void referee_make_secret(char *out);
/* referee_new_game from a scenario's text (fname names it in messages
 * and in the store); the game's id into *id (may be NULL). */
int referee_new_game_text(struct referee *r, const char *name,
    const char *fname, const char *text, size_t len, int sandbox,
    const unsigned char *seed_secret, int64_t *id, struct err *e);

/* SECRET [GAME] (secret.c): a player who lost their secret is mailed a
 * new one, at their registered address only, which waits beside the old
 * one until a mail first gives it.  game "" for the game the mail's From
 * plays, when it plays one.  The answer to the mail never tells whether
 * any address plays any game, unless it goes back to that address. */
int referee_commands_secret(struct intake *in, const char *game);
/* Whether hash is player p's secret: 1, or 2 when it is the secret
 * waiting (SECRET), which this makes the player's secret (the old one
 * stops) with a reset act in the ledger; 0 when neither, -1 on error. */
struct store_player;
int referee_secret_match(struct intake *in, const struct store_player *p,
    const unsigned char hash[32]);
/* A mail whose first line names a game but gives no secret: CMD_SECRET
 * (out its command, for the game of the header h) when a later line is
 * SECRET, else -1. */
struct orders_header;
struct orders_cmd;
int referee_secret_headed(struct orders_parser *op, const char *body,
    const struct orders_header *h, struct orders_cmd *out);

/* ABSENT FROM d TO d and ABSENT CANCEL of an authenticated player of g
 * (absence.c). */
int referee_commands_absent(struct intake *in, struct store_game *g,
    const struct battle *b, const struct orders_cmd *c);
/* With the game's absence setting extend: *at, the open phase's
 * deadline, put off past the absences of players owing it (at most
 * absence-cap days), with an extend act in the ledger saying by how
 * much; *at as it was otherwise.  0, or -1 with e set. */
int referee_absence_deadline(struct referee *r, int64_t game, int64_t *at,
    struct err *e);
/* 1 when player of game is away today (ABSENT), 0 when not, -1 with e
 * set. */
int referee_absent_today(struct referee *r, int64_t game, int64_t player,
    struct err *e);

/* Mail commands (commands.c): answers one command of an authenticated
 * player of game g, side in->side.  turn is the turn the header named (0
 * none). */
struct orders_cmd;
struct battle;
/* The lines of a mail of commands (and no order lines) that were
 * commands written wrong, each with what would be right, into t; so a
 * typo beside commands that were read is answered too. */
void referee_commands_unread(struct text *t, const struct orders_result *res);
int referee_commands_run(struct intake *in, struct store_game *g,
    struct battle *b,
    const struct orders_cmd *c, int turn);
/* The general HELP, for a mail with no header. */
int referee_commands_general_help(struct intake *in);
/* Ends the battle of g with the ledger act act (of player, 0: none):
 * result written as how it ended, observers' held mail released, and
 * every player mailed subj and where it ended (commands.c). */
int referee_battle_end(struct intake *in, struct store_game *g,
    const struct battle *b, const char *act, int64_t player,
    const char *result, const char *subj);
/* referee_player_reset, said to be at the player's own asking (SET
 * PASSWORD) when by_player. */
int referee_player_reset_by(struct referee *r, const char *game,
    const char *email, const char *password, int by_player, char *secret_out,
    struct err *e);
/* DRAW and DRAW WITHDRAW (draw.c). */
int referee_commands_draw(struct intake *in, struct store_game *g,
    const struct battle *b, int withdraw);
/* The answer to a mail without the header whose one command is HELP,
 * LIST or JOIN (c as orders_bare_command gave it; lobby.c). */
int referee_commands_bare(struct intake *in, const struct orders_cmd *c);
/* LIST [game] (lobby.c): the games open for joining and the asker's own,
 * or one of them in detail (game not "").  0, or -1 with in->e set. */
int referee_commands_list(struct intake *in, const char *game);
/* JOIN game side [brigades] (lobby.c; what is "side [brigades]"): a seat
 * for the mail's sender.  0, or -1 with in->e set (a refusal is an
 * answer, not an error). */
int referee_commands_join(struct intake *in, const char *game,
    const char *what);
/* HISTORY [TURN N | N-M] (history.c): the reports the player of in was
 * sent for those turns, again, as one digest mail to their registered
 * address.  _bare: the same for a mail without the header, from an
 * observer (their observer reports); anyone else gets
 * referee_commands_no_header's answer.  0, or -1 with in->e set. */
/* The field after each step steps[0..n) of game g, drawn again from its
 * archive played again (history_maps.c), as side sees it (side -1: an
 * observer, the whole field; else cropped to the side's part), for an
 * open game or an observer, whose field then was the whole field: into
 * png[i] a malloc'd palette PNG of len[i] bytes, subtitled
 * subtitles[i], or NULL where it would pass max bytes or the archive has
 * no state for the step.  0, or -1 with e set (and no map kept). */
int referee_phase_maps(struct referee *r, const struct store_game *g,
    const int *steps, const char *const *subtitles, int n, int side,
    size_t max, unsigned char **png, size_t *len, struct err *e);
/* 1 if addr (any case) observes game, 0 if not, -1 with e set. */
int referee_observes(struct referee *r, int64_t game, const char *addr,
    struct err *e);
int referee_commands_history(struct intake *in, struct store_game *g,
    struct battle *b, const struct orders_cmd *c);
int referee_commands_history_bare(struct intake *in,
    const struct orders_cmd *c);
/* What battle `game`, ended by its result in state b after `played`
 * steps, will carry back into its campaign, as side (the battle's side
 * index) will read it in the daily report, each unit's too
 * (campaign_carry_report), appended to out: 1, 0 when the game is no
 * campaign battle of the turn open (nothing appended), -1 with e set. */
struct text;
int referee_campaign_carry_preview(struct referee *r, int64_t game,
    const struct battle *b, int played, int side, struct text *out,
    struct err *e);
/* The answer to a mail without the header that gives no command it may
 * give (lobby.c): what the first line is, and that nothing was taken.
 * As referee_intake_reply. */
int referee_commands_no_header(struct intake *in);
/* The seats side has in game (the seats setting; 1 where it names none):
 * the players it may have.  -1 with e set. */
int referee_side_seats(struct referee *r, int64_t game,
    const struct battle *b, int side, struct err *e);

/* The body of the HELP answer for side of game g, appended to t. */
struct text;
void referee_commands_help_text(struct text *t, const struct store_game *g,
    const struct battle *b, int side);

/* Blanks, in buf, the typed secret and every word that follows PASSWORD,
 * SECRET or "secret:". */
void referee_redact(char *buf, size_t len, const char *secret);
/* Blanks every word of buf that is one of the n secrets whose keyed
 * hashes are in hashes (32 bytes each). */
void referee_redact_known(char *buf, size_t len, const unsigned char *hashes,
    int n,
    const unsigned char key[32]);
/* 1 if what occurs in buf, ignoring case. */
int referee_has_ci(const char *buf, size_t len, const char *what);
/* Blanks, in the msg-ids of the header block of in->stored (by its n
 * known secrets' hashes) and in the parsed mail's Message-ID and
 * In-Reply-To (the typed secret and the known ones), every part of an id
 * that is a secret, before the id is stored or echoed in an answer. */
void referee_redact_ids(struct intake *in, const unsigned char *hashes,
    int n, const unsigned char key[32]);

/* Mail that came through a mailing list (autoreply.c).  _ignored: 1,
 * with the status "ignored" set, when in came through a list and gave
 * no player's secret (nothing from it is answered), else 0.  _reply:
 * queues an answer for such a mail at the authenticated player's
 * registered address alone, saying why (nothing when no player gave
 * a secret); as referee_intake_reply. */
int referee_list_ignored(struct intake *in);
int referee_list_reply(struct intake *in, const char *kind,
    const char *subject, const char *body);
/* Queues body to `to` as an answer to in (intake.c); a reply that cannot
 * be composed is noted on the stored mail.  -1 only for a passing
 * failure. */
int referee_intake_queue(struct intake *in, const char *to, const char *kind,
    const char *subject, const char *body);

#endif
