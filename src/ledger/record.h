/*
 * record.h - what the ledger commits to: the seed chain, order leaves and
 * their root, the dice seed, hashes of the state and the events, and the
 * signed records of a game's hash chain (docs/ledger.md).
 *
 * Every hash here is SHA-256 over a domain tag and fields, each written
 * as a 4-byte big-endian length and its bytes (a number as 8 bytes,
 * big-endian, two's complement): never a raw struct, so another program
 * can recompute every value from docs/ledger.md alone.  Nothing here
 * reads the store: an archive verifies without the database.
 */
#ifndef DESPATCH_LEDGER_RECORD_H
#define DESPATCH_LEDGER_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

#define LEDGER_HASH  32
#define LEDGER_SALT  16
#define LEDGER_PK    32
#define LEDGER_SK    64
#define LEDGER_SIG   64
#define LEDGER_VERSION 1   /* of the encoding and the record layout */
/* Step records from the engine numbers on name their engine (layout 2);
 * an upgrade act carries its checkpoint's hashes (layout 2). */
#define LEDGER_STEP_VERSION 2
#define LEDGER_UPGRADE_VERSION 2

/* A growing byte buffer the fields are written into. */
struct lbuf {
	unsigned char *p;  /* small, until more is needed */
	size_t n, cap;
	int oom;           /* an allocation failed: the contents are cut */
	unsigned char small[512];  /* so short hashes never allocate */
};

void ledger_buf_free(struct lbuf *b);
/* One field: its length, then its bytes. */
void ledger_buf_bytes(struct lbuf *b, const void *v, size_t n);
void ledger_buf_str(struct lbuf *b, const char *s);
void ledger_buf_int(struct lbuf *b, int64_t v);

/* SHA-256 over the tag (as a field) and then the bytes of fields. */
void ledger_hash(const char *tag, const struct lbuf *fields,
    unsigned char out[LEDGER_HASH]);

/* The seed chain.  S_{k-1} = H("despatch/seed-chain/v1", S_k): from the
 * secret tip S_n, ledger_chain_at gives S_k (0 <= k <= n). */
void ledger_chain_prev(const unsigned char sk[LEDGER_HASH],
    unsigned char out[LEDGER_HASH]);
void ledger_chain_at(const unsigned char tip[LEDGER_HASH], int n, int k,
    unsigned char out[LEDGER_HASH]);

/* A player's order set for a step: H("despatch/leaf/v1", game, step,
 * side id, seat, salt, canonical orders); -1 when out of memory. */
int ledger_leaf(const char *game, int step, const char *side, int seat,
    const unsigned char salt[LEDGER_SALT], const char *orders,
    unsigned char out[LEDGER_HASH]);
/* The salt of an order set: H("despatch/salt/v1", S_step, side id, seat,
 * orders), cut to 16 bytes.  It is fixed by the step's secret seed and
 * the orders, so nobody who lacks S_step can guess a short set from its
 * leaf, and the server has no choice of salt with which to steer the
 * dice; and playing a step again gives the same leaves. */
void ledger_salt(const unsigned char s_step[LEDGER_HASH], const char *side,
    int seat, const char *orders, unsigned char out[LEDGER_SALT]);
/* In a game with nonces (docs/ledger.md), the leaf also binds the
 * player's commitment: H("despatch/leaf/v1", game, step, side id, seat,
 * salt, orders, commitment), the commitment being SHA-256 of the nonce
 * the player will reveal (32 zero bytes for none). */
int ledger_leaf_committed(const char *game, int step, const char *side,
    int seat, const unsigned char salt[LEDGER_SALT], const char *orders,
    const unsigned char commit[LEDGER_HASH], unsigned char out[LEDGER_HASH]);
/* What a leaf adds to the dice seed of a game with nonces: the nonce as
 * revealed, or for none H("despatch/absent/v1", side id, seat). */
#define LEDGER_NONCE_MAX 128
/* H("despatch/orders-root/v1", game, step, each leaf in order). */
void ledger_root(const char *game, int step,
    const unsigned char (*leaves)[LEDGER_HASH], int n,
    unsigned char out[LEDGER_HASH]);
/* H("despatch/dice-seed/v1", game, step, S_step, root, previous head). */
void ledger_dice_seed(const char *game, int step,
    const unsigned char s_step[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev_head[LEDGER_HASH],
    unsigned char out[LEDGER_HASH]);
/* The same for a game with nonces: then, for each leaf in order, its
 * revealed nonce ("" for none: the absent value stands in). */
struct ledger_step;
void ledger_dice_seed_nonces(const char *game, int step,
    const unsigned char s_step[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev_head[LEDGER_HASH],
    const struct ledger_step *s, unsigned char out[LEDGER_HASH]);

/* What changes in a battle, and a step's events, hashed canonically;
 * -1 when out of memory. */
int ledger_state_hash(const struct battle *b, unsigned char out[LEDGER_HASH]);
/* 1 if b's ruleset keeps state of its own in this battle (struct
 * ruleset.tables, the first with rows): the state hash and the
 * archive's state object then carry it. */
int ledger_rules_kept(const struct battle *b);
/* A step's events as engines from 5 sign them: each event's kind, side,
 * units, value, die, message id and typed values but its wording
 * ("despatch/events/v2"), never its sentence. */
int ledger_events_hash(const struct events *ev, unsigned char out[LEDGER_HASH]);
/* As engines 3 and 4 signed them: the sentence in place of the message
 * ("despatch/events/v1"). */
int ledger_events_hash_text(const struct events *ev,
    unsigned char out[LEDGER_HASH]);

/* --- records -------------------------------------------------------- */

#define LEDGER_MAX_SEATS 64

struct ledger_seat {
	int seat;                     /* 1.. in the order players joined */
	char side[BATTLE_ID_MAX];
	unsigned char email_hash[LEDGER_HASH];  /* H("despatch/email/v1",
	                                         * lower-case address) */
};

struct ledger_genesis {
	char game[64];
	char title[BATTLE_NAME_MAX * 2];
	unsigned char scenario_sha256[LEDGER_HASH];
	char ruleset[BATTLE_ID_MAX];
	char engine[32];              /* the engine, as ledger_engine_name
	                               * names it */
	int steps;                    /* n: the chain's length */
	int from_step;                /* 1, or the step a game begun before
	                               * the ledger joined it at */
	int sandbox;                  /* dice may be scripted */
	int fog;                      /* seeds hidden until the end */
	int nonces;                   /* players commit and reveal nonces */
	int nsides;
	char sides[BATTLE_MAX_SIDES][BATTLE_ID_MAX];
	int nseats;
	struct ledger_seat seats[LEDGER_MAX_SEATS];
	unsigned char s0[LEDGER_HASH];
	unsigned char pk[LEDGER_PK];
};

struct ledger_leafrec {
	char side[BATTLE_ID_MAX];
	int seat;
	int mailed;                   /* 0: standing orders or none */
	unsigned char leaf[LEDGER_HASH];
	unsigned char commit[LEDGER_HASH];  /* nonces: H(nonce), or zero */
	char nonce[LEDGER_NONCE_MAX + 1];   /* nonces: as revealed, "" none */
};

struct ledger_step {
	int version;                  /* 1: before step records named their
	                               * engine; LEDGER_STEP_VERSION */
	int engine;                   /* the engine that played it; 0 in a
	                               * layout-1 record (the genesis's) */
	int step, turn;
	char phase[BATTLE_ID_MAX];    /* the phasing side's id; "" both */
	unsigned char prev[LEDGER_HASH];
	int nleaves;
	struct ledger_leafrec leaves[LEDGER_MAX_SEATS];
	unsigned char root[LEDGER_HASH];
	unsigned char s_step[LEDGER_HASH];
	unsigned char dice_seed[LEDGER_HASH];  /* zero when scripted */
	int scripted;
	int64_t rolls;
	unsigned char events[LEDGER_HASH];
	unsigned char state[LEDGER_HASH];
};

/* An operator's act on a running game, in the chain between steps:
 * "pause", "resume" (text: the reason given), "extend" (amount: seconds),
 * "replace" (seat, and the new address's hash), "reset" (seat: a new
 * secret), "upgrade" (the game carried from engine_from to engine_to:
 * its checkpoint, the state carried, hashes to state_from under the old
 * engine's rules, the last step's state, and to state_to under the new
 * one's).  step is the step open at the time. */
struct ledger_act {
	char act[16];
	int step;
	unsigned char prev[LEDGER_HASH];
	int seat;                     /* 0: none */
	unsigned char email_hash[LEDGER_HASH];  /* zero: none */
	int64_t amount;
	char text[300];
	int engine_from, engine_to;   /* upgrade only */
	unsigned char state_from[LEDGER_HASH], state_to[LEDGER_HASH];
};

/* A campaign's genesis (issue 26, docs/ledger.md, Campaigns): what it
 * is played from (the file and every battlefield file, by hash), its
 * rules and engine, the length of its seed chain (one seed a campaign
 * turn), its sides and seats, S_0 and the key. */
#define LEDGER_MAX_FIELDS 32

struct ledger_cgenesis {
	char campaign[64];
	char title[BATTLE_NAME_MAX * 2];
	unsigned char file_sha256[LEDGER_HASH];
	int nfields;
	char field_path[LEDGER_MAX_FIELDS][256];
	unsigned char field_sha256[LEDGER_MAX_FIELDS][LEDGER_HASH];
	char ruleset[BATTLE_ID_MAX];
	int engine;                   /* the campaign engine it began under
	                                 (campaign/campaign.h) */
	int turns;                    /* n: the chain's length */
	int sandbox;
	int nsides;
	char sides[BATTLE_MAX_SIDES][BATTLE_ID_MAX];
	int nseats;
	struct ledger_seat seats[LEDGER_MAX_SEATS];
	unsigned char state[LEDGER_HASH];   /* of the state at the start */
	unsigned char s0[LEDGER_HASH];
	unsigned char pk[LEDGER_PK];
};

/* A campaign turn's march: the orders' leaves (one a side) and root,
 * the turn's seed S_t and the dice seed of its generated fields, the
 * dice rolled, the state after the march (which fixes the forces of
 * each battle), and the battles opened (their place and game).  The
 * battles' scenarios name this record's head, so a battle's genesis
 * commits the record that opened it. */
#define LEDGER_MAX_CBATTLES 48

struct ledger_cmarch {
	int turn;
	unsigned char prev[LEDGER_HASH];
	int nleaves;
	char leaf_side[BATTLE_MAX_SIDES][BATTLE_ID_MAX];
	unsigned char leaf[BATTLE_MAX_SIDES][LEDGER_HASH];
	unsigned char root[LEDGER_HASH];
	unsigned char s_turn[LEDGER_HASH];
	unsigned char dice_seed[LEDGER_HASH];
	int64_t rolls;
	unsigned char state[LEDGER_HASH];
	int nbattles;
	char place[LEDGER_MAX_CBATTLES][BATTLE_NAME_MAX];
	char game[LEDGER_MAX_CBATTLES][64];
};

/* The end of a campaign turn: each battle's final head and the steps it
 * played, the state after the carry-over and the day, each side's
 * points, and whether the campaign is over and who won (-1: a draw, or
 * not over). */
struct ledger_csettle {
	int turn;
	unsigned char prev[LEDGER_HASH];
	int nbattles;
	char game[LEDGER_MAX_CBATTLES][64];
	unsigned char head[LEDGER_MAX_CBATTLES][LEDGER_HASH];
	int steps[LEDGER_MAX_CBATTLES];
	unsigned char state[LEDGER_HASH];
	int nsides;
	int points[BATTLE_MAX_SIDES];
	int over, winner;
};

int ledger_cmarch_encode(const struct ledger_cmarch *m, struct lbuf *out);
int ledger_csettle_encode(const struct ledger_csettle *m, struct lbuf *out);
int ledger_cmarch_decode(const unsigned char *rec, size_t n,
    struct ledger_cmarch *m);
int ledger_csettle_decode(const unsigned char *rec, size_t n,
    struct ledger_csettle *m);
/* A side's campaign orders for a turn: H("despatch/campaign-leaf/v1",
 * campaign, turn, side id, salt, orders); the salt is ledger_salt's of
 * S_t, the side and seat 0.  The root: H("despatch/campaign-root/v1",
 * campaign, turn, each leaf).  The dice seed:
 * H("despatch/campaign-dice/v1", campaign, turn, S_t, root, prev). */
void ledger_campaign_leaf(const char *campaign, int turn, const char *side,
    const unsigned char s_turn[LEDGER_HASH], const char *orders,
    unsigned char out[LEDGER_HASH]);
void ledger_campaign_root(const char *campaign, int turn,
    const unsigned char (*leaves)[LEDGER_HASH], int n,
    unsigned char out[LEDGER_HASH]);
void ledger_campaign_dice_seed(const char *campaign, int turn,
    const unsigned char s_turn[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev[LEDGER_HASH], unsigned char out[LEDGER_HASH]);

int ledger_cgenesis_encode(const struct ledger_cgenesis *g, struct lbuf *out);
int ledger_cgenesis_decode(const unsigned char *rec, size_t n,
    struct ledger_cgenesis *g);
/* H("despatch/campaign-state/v1", the state's canonical text). */
void ledger_campaign_state_hash(const char *text, size_t len,
    unsigned char out[LEDGER_HASH]);

/* The canonical bytes of a record (out is reset first); -1 when out of
 * memory. */
int ledger_genesis_encode(const struct ledger_genesis *g, struct lbuf *out);
int ledger_step_encode(const struct ledger_step *s, struct lbuf *out);
int ledger_act_encode(const struct ledger_act *a, struct lbuf *out);
/* Read a record's bytes back: 0, or -1 when they are not a whole record
 * of this layout (a field missing, of the wrong size, or left over). */
int ledger_record_kind(const unsigned char *rec, size_t n, char *kind,
    size_t size);
int ledger_genesis_decode(const unsigned char *rec, size_t n,
    struct ledger_genesis *g);
int ledger_step_decode(const unsigned char *rec, size_t n,
    struct ledger_step *s);
int ledger_act_decode(const unsigned char *rec, size_t n,
    struct ledger_act *a);
/* head = H("despatch/record/v1", record bytes). */
void ledger_head(const unsigned char *rec, size_t n,
    unsigned char out[LEDGER_HASH]);
/* H("despatch/email/v1", the address in lower case). */
void ledger_email_hash(const char *email, unsigned char out[LEDGER_HASH]);

/* --- the server's signing key (Ed25519) ------------------------------- */

struct ledger_key {
	unsigned char pk[LEDGER_PK];
	unsigned char sk[LEDGER_SK];
	int demo;                     /* the demo's published key */
};

/* Reads the key at path, or (create set, the file absent) makes one and
 * writes it there with mode 0600.  The file holds the 32-byte seed of
 * the key in hex on one line. */
int ledger_key_load(const char *path, int create, struct ledger_key *k,
    struct err *e);
/* The demo's key, from a seed published in docs/ledger.md: it proves
 * nothing, and verify says so. */
void ledger_key_demo(struct ledger_key *k);
int ledger_key_is_demo(const unsigned char pk[LEDGER_PK]);
void ledger_sign(const struct ledger_key *k, const unsigned char head[LEDGER_HASH],
    unsigned char sig[LEDGER_SIG]);
/* 0 if sig is pk's signature of head. */
int ledger_sign_check(const unsigned char pk[LEDGER_PK],
    const unsigned char head[LEDGER_HASH], const unsigned char sig[LEDGER_SIG]);

#endif
