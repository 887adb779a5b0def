/*
 * ledger.h - the keyed dice stream of a step.
 *
 * DESIGN's verifiable-dice scheme: a step's dice are the ChaCha20-IETF
 * keystream (RFC 8439) keyed by the step's 32-byte dice seed, read a byte
 * at a time; a die of N sides takes the next byte b below 256 - 256 mod N
 * and shows b mod N + 1 (bytes at or above the bound are skipped, so every
 * face is equally likely).  Where the dice seed comes from (the seed
 * chain, the orders' root, the previous head) is record.h's and
 * docs/ledger.md's.
 */
#ifndef DESPATCH_LEDGER_H
#define DESPATCH_LEDGER_H

#include <stdint.h>

#include "core/err.h"

#define LEDGER_SEED_BYTES 32

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

/* Makes the file path, mode 0600, holding len bytes of data: written and
 * synced beside it, then linked into place (and the folder synced), so a
 * crash never leaves half of it and an existing file is never replaced.
 * 1 made, 0 there was one already (another process's), -1 with e set. */
int ledger_file_make(const char *path, const void *data, size_t len,
    struct err *e);

/* Lowercase hex of n bytes into out (2n+1 bytes). */
void ledger_hex(const unsigned char *in, int n, char *out);
/* Parses 2n hex digits, either case (what a person types); -1 if not. */
int ledger_unhex(const char *in, unsigned char *out, int n);
/* The same for what despatch itself wrote: lowercase digits only, so an
 * archive has one spelling of each value and no byte of it can change
 * unseen. */
int ledger_unhex_exact(const char *in, unsigned char *out, int n);

#endif
