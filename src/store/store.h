/*
 * store.h - the database behind despatch.
 *
 * One store holds every game on a server.  Its operations are typed and
 * grouped by subject (ops.h lists them all, with what each does); which
 * backend keeps the store is chosen when it is opened (backend.h), and
 * nothing outside src/store/ knows which one it is.  Today's backend is
 * SQLite (sqlite.h): one file, schema db/NNN_name.sql compiled in and
 * applied in order on open.
 *
 * Every change of more than one row happens inside
 * store_begin()/store_commit(); a failure rolls the whole change back.
 *
 * Errors: a store that is locked, full or failing I/O is ERR_TEMP (the
 * pipe contract turns that into exit 75 so the MTA retries); a missing
 * row the caller asked for is ERR_USER with a message naming it; a row
 * that would break a unique key is ERR_CONFLICT.
 */
#ifndef DESPATCH_STORE_H
#define DESPATCH_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

struct store;

/* How long a store opened after this waits for another writer before
 * a write fails as busy (ERR_TEMP): ms milliseconds (default 15000; out
 * of 1..599999, the default).  The fronts pass $DESPATCH_BUSY_TIMEOUT. */
void store_busy_timeout(long ms);
/* Opens the store at path (a file for SQLite).  With create = 0 a
 * missing store is an error (only `despatch new` and the demo create
 * them).  Applies pending migrations up to max_version (-1: all).
 * Returns 0 and *out, or -1 with e set. */
int store_open(const char *path, int create, int max_version,
    struct store **out, struct err *e);
void store_close(struct store *s);
/* The name of the backend that keeps s ("sqlite"). */
const char *store_backend_name(const struct store *s);
/* The newest schema version this build knows. */
int store_latest_version(void);

enum game_status { GAME_SETUP = 0, GAME_RUNNING, GAME_FINISHED };
const char *store_status_name(enum game_status st);

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

/* A stored order line of a player's current set (store_orders_rows):
 * the mail it came in, its line there, its text as written and as
 * canonical; both strings malloc'd (store_order_rows_free). */
struct store_order_row {
	int64_t message;
	int line;
	char *raw;
	char *canonical;
};
void store_order_rows_free(struct store_order_row *rows, int n);

struct store_player {
	int64_t id;
	int side;
	char email[256];
	unsigned char secret_hash[32];
	char brigades[512];     /* the brigades the player commands, as the
	                         * operator named them; "" for the whole side */
	int pending;            /* a new secret (SECRET) waits to be used: */
	unsigned char pending_hash[32];  /* its hash */
};

/* A campaign (issue 26) as the store keeps it. */
struct store_campaign {
	int64_t id;
	char name[64];
	char title[BATTLE_NAME_MAX * 2];
	char ruleset[BATTLE_ID_MAX];
	char file_name[256];
	char *file_text;            /* owned (store_campaign_clear) */
	size_t file_len;
	enum game_status status;
	int turn;
	char *state_text;           /* owned; NULL before it starts */
	size_t state_len;
	char *pending;              /* owned; the turn marched, battles on */
	size_t pending_len;
	unsigned char seed_secret[32];
	int sandbox;
	int64_t created_at, started_at;
};
void store_campaign_clear(struct store_campaign *c);

/* A battlefield file a campaign names, and its text. */
struct store_cfield {
	char path[256];
	char *text;
	size_t len;
};
void store_cfields_free(struct store_cfield *f, int n);

struct store_cplayer {
	int64_t id;
	char side[BATTLE_ID_MAX];
	char email[256];
	unsigned char secret_hash[32];
	char mail_format[8];          /* "text", "html", "full"; "" for the
	                                 default, html */
	char columns[512];            /* the columns they command, names
	                                 joined by ", "; "" for all the
	                                 side's */
};

/* A record of a campaign's chain. */
struct store_crecord {
	int64_t seq;
	char kind[32];
	unsigned char *rec;         /* owned (store_crecords_free) */
	size_t len;
	unsigned char head[32], sig[64];
	int64_t created_at;
};
void store_crecords_free(struct store_crecord *r, int n);

/* An absence (ABSENT): its first and last days, YYYY-MM-DD in the game's
 * time zone. */
struct store_absence {
	int64_t id;
	int64_t player;
	char first[11], last[11];
};

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
void store_mails_free(struct store_mail *m, int n);

/* A received mail that is no player's orders keeps its bytes this long. */
#define STORE_KEEP_RAW (7 * 24 * 3600)

/* Games, their clock: where the open phase of a game stands (see
 * store_game_clock). */
struct store_clock {
	int64_t deadline;       /* when the open phase is due; 0: no deadline */
	int paused;             /* the operator has paused the game */
	int64_t pause_left;     /* while paused: what was left of the deadline
	                         * (0: none ran) */
	int64_t opened;         /* when the open phase opened: the time the
	                         * step before it was played, else the game's
	                         * start (0: not started) */
};

/* The ledger and the dice's secrets: one record of a game's ledger as the
 * store keeps it, and one leaf of a step's orders root.  A head,
 * signature or salt not of its size is damage: it is not copied, and its
 * _ok says so, for the caller to name. */
struct store_record {
	char kind[8];           /* "genesis", "step" or "act" */
	int step;
	unsigned char *bytes;   /* the record signed; malloc'd, the caller's */
	size_t len;
	unsigned char head[32];
	unsigned char sig[64];
	int head_ok, sig_ok;
};

struct store_leaf {
	int side;
	int seat;
	int mailed;             /* 0: standing orders or none */
	char *orders;           /* canonical; malloc'd, the caller's */
	unsigned char salt[16];
	int salt_ok;
};

/* Mail, players and orders: an observer of a game (store_observers). */
/* A mail queued to someone, as store_outbox_sent lists it. */
struct store_sent {
	int64_t id;
	int held;               /* held back for an observer's delay */
	char subject[256];
};
struct store_observer {
	char email[256];
	int delay;              /* phases late each report comes */
};
/* Mail, players and orders: what store_orders_mark gives.  Two marks of
 * the same step are equal only when no orders came or went between. */
struct store_orders_mark {
	int64_t last_order, orders, last_standing, standing;
};

/* The operations (ops.h): store_NAME for each. */
#define STORE_OP(ret, name, params, args) ret store_##name params;
#define STORE_VOP(name, params, args) void store_##name params;
#include "store/ops.h"
#undef STORE_OP
#undef STORE_VOP

/* text compressed (zlib, after a 4-byte length): 0, or -1 out of memory. */
int store_zip(const char *text, size_t n, unsigned char **out,
    size_t *outlen);
/* What store_zip made, as text (malloc'd); NULL when damaged. */
char *store_unzip(const unsigned char *z, size_t n);

#endif
