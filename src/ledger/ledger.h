/*
 * ledger.h - the dice seeds of a game and the keyed dice stream.
 *
 * DESIGN's verifiable-dice scheme: a step's dice are the ChaCha20-IETF
 * keystream (RFC 8439) keyed by a 32-byte step seed, read a byte at a
 * time; a die of N sides takes the next byte b below 256 - 256 mod N and
 * shows b mod N + 1 (bytes at or above the bound are skipped, so every
 * face is equally likely).
 *
 * In this version the step seed is SHA-256 over a domain tag, the game's
 * 32-byte secret (drawn when the game is created), the game's name and
 * the step number, each length-prefixed.  The ledger issue replaces this
 * derivation with the committed seed chain; the dice stream and the rules
 * do not change.
 */
#ifndef DESPATCH_LEDGER_H
#define DESPATCH_LEDGER_H

#include <stdint.h>

#include "core/err.h"

#define LEDGER_SEED_BYTES 32

/* The seed of step `step` of game `name`. */
void ledger_step_seed(const unsigned char secret[LEDGER_SEED_BYTES],
    const char *name, int step, unsigned char out[LEDGER_SEED_BYTES]);

struct ledger_dice {
	unsigned char key[LEDGER_SEED_BYTES];
	uint32_t block;        /* next keystream block */
	unsigned char buf[64];
	int pos;               /* next unread byte of buf; 64 = empty */
	long bytes;            /* bytes consumed, for the record */
};

void ledger_dice_init(struct ledger_dice *d,
    const unsigned char seed[LEDGER_SEED_BYTES]);
/* A dice source (see core/dice.h); never fails for 2 <= sides <= 256. */
int ledger_dice_next(void *ctx, int sides, int *out, struct err *e);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void ledger_hex(const unsigned char *in, int n, char *out);
/* Parses 2n hex digits; -1 if not. */
int ledger_unhex(const char *in, unsigned char *out, int n);

#endif
