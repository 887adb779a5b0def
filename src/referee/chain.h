/*
 * chain.h - the referee's side of the ledger (chain.c).
 */
#ifndef DESPATCH_REFEREE_CHAIN_H
#define DESPATCH_REFEREE_CHAIN_H

#include "core/events.h"
#include "ledger/record.h"
#include "referee/internal.h"

/* The server's signing key: the demo's (r->key_demo), the file r->key_path,
 * or DATABASE.key beside the database, made there at first use. */
int chain_key(struct referee *r, const struct ledger_key **out,
    struct err *e);

/* Writes game g's genesis record (in the caller's transaction) unless it
 * has one; from_step is the first step its chain commits. */
int chain_genesis(struct referee *r, const struct store_game *g,
    const struct battle *b, int from_step, struct err *e);

/* What one player's order set for a step was: what the turn plays. */
struct chain_played {
	int side;
	int64_t player;
	int seat;
	int mailed;                        /* from a mail (its salt below) */
	unsigned char salt[LEDGER_SALT];
	const char *orders;                /* canonical lines, "" if none */
	unsigned char commit[LEDGER_HASH]; /* nonces: its COMMIT, or zero */
	char nonce[LEDGER_NONCE_MAX + 1];  /* nonces: revealed, "" none */
};

struct chain_leaf {
	int side;
	int64_t player;
	int seat;
	int mailed;
	unsigned char salt[LEDGER_SALT];
	char *orders;
	unsigned char commit[LEDGER_HASH];
	char nonce[LEDGER_NONCE_MAX + 1];
	unsigned char leaf[LEDGER_HASH];
};

/* A step's commitments, made before it is played (the dice seed needs
 * them all). */
struct chain_prep {
	int steps;                 /* the chain's length */
	int nonces;                /* the game uses nonces */
	int64_t reveal_secs;       /* (at a close) how long nonces are awaited */
	int need_genesis;          /* a game begun before the ledger */
	unsigned char prev[LEDGER_HASH];  /* the last step's dice seed (the
	                                   * genesis head before the first):
	                                   * the dice hang on it */
	unsigned char s_step[LEDGER_HASH];
	int n;
	struct chain_leaf leaf[MAX_PLAYERS];
	unsigned char root[LEDGER_HASH];
	unsigned char dice_seed[LEDGER_HASH];
};

/* Leaves, root, S_step, the previous head and the dice seed of step, from
 * the order sets played (in seat order). */
int chain_prepare(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, const struct chain_played *played,
    int nplayed, struct chain_prep *cp, struct err *e);
void chain_prep_free(struct chain_prep *cp);

/* Appends the step's signed record (and the genesis first for a game that
 * lacked one) in the caller's transaction; fails if the ledger moved
 * since chain_prepare. */
int chain_record(struct referee *r, const struct store_game *g,
    const struct battle *after, int step, const struct chain_prep *cp,
    const struct events *ev, int scripted, long rolls,
    unsigned char head[LEDGER_HASH], unsigned char sig[LEDGER_SIG],
    struct err *e);

/* The last record of game: its seq and head (seq -1 when it has none);
 * 0, or -1 with e set. */
int chain_last(struct referee *r, int64_t game, int64_t *seq,
    unsigned char head[LEDGER_HASH], struct err *e);

/* Appends an operator's act on game (a running game with a genesis; for
 * any other, nothing) in the caller's transaction: act as in struct
 * ledger_act, player the one it concerns (0: none), new_email a
 * replacement's address. */
int chain_act(struct referee *r, int64_t game, const char *act,
    int64_t player, const char *new_email, int64_t amount, const char *text,
    struct err *e);

/* 1 if game uses nonces (the setting, fixed at the start), else 0;
 * -1 with e set. */
/* The engine game is played by (the genesis's, or the last upgrade's;
 * this build's when the game has no ledger) and, *last_state set, the
 * state hash of its last step record. */
int chain_engine(struct referee *r, int64_t game, int *engine,
    int *last_state, unsigned char state[LEDGER_HASH], struct err *e);
/* Writes the act carrying game over from engine from to engine to, its
 * checkpoint (the state carried, as ledger_state_json gives it) hashing
 * to state_from under from's rules and state_to under to's. */
int chain_upgrade(struct referee *r, int64_t game, int from, int to,
    const unsigned char state_from[LEDGER_HASH],
    const unsigned char state_to[LEDGER_HASH], const char *checkpoint,
    struct err *e);
int chain_nonces(struct referee *r, int64_t game, struct err *e);

/* How many players committed a nonce for step of game and have not yet
 * revealed it, in *owe; -1 with e set. */
int chain_nonces_owed(struct referee *r, int64_t game, int step,
    int64_t *owe, struct err *e);

/* The genesis of game: its fields and head; 0, or -1 (ERR_DATA when the
 * game has none or it is damaged). */
int chain_genesis_get(struct referee *r, int64_t game,
    struct ledger_genesis *gen, unsigned char head[LEDGER_HASH],
    struct err *e);

#endif
