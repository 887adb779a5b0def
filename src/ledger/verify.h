/*
 * verify.h - checking a game's archive from scratch (verify.c).
 */
#ifndef DESPATCH_LEDGER_VERIFY_H
#define DESPATCH_LEDGER_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include "ledger/record.h"

struct verify_opts {
	const char *head_hex;     /* a head a player kept, or NULL */
	/* Called after each step replayed (may be NULL). */
	void (*progress)(int done, int total, void *arg);
	void *arg;
};

struct verify_result {
	char game[64];
	char ruleset[BATTLE_ID_MAX];
	char engine[32];
	int steps;                /* step records replayed */
	int acts;                 /* operators' acts (pause, extend ...) */
	int conceded;             /* the battle ended with a concession */
	int chain;                /* steps the chain covers */
	int finished;             /* the archive says the battle is over */
	int sandbox, scripted;    /* a sandbox game; steps with scripted dice */
	int fog;
	int demo_key;             /* signed with the demo's published key */
	unsigned char pk[LEDGER_PK];
	int head_step;            /* the step whose head is --head (0 the
	                           * genesis); -1 when not asked */
	long long bytes;
	/* When it fails: the archive's line (1-based), the step (0: none),
	 * the field, and a sentence. */
	int line, step;
	char field[32];
	char msg[400];
};

/* Reads the archive from in and checks everything in it: the records'
 * chain (heads, signatures, links, seeds, roots, dice seeds), each leaf
 * from its orders and salt, and the battle replayed from the scenario,
 * each step's events and state against its record.  0 when it all
 * holds, else -1 with res naming the first line, step and field that
 * fails. */
int ledger_verify(FILE *in, const struct verify_opts *o,
    struct verify_result *res);

/* The engine versions this build reproduces exactly. */
int ledger_engine_known(const char *version);

#endif
