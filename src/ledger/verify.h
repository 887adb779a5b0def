/*
 * verify.h - checking a game's archive from scratch (verify.c).
 */
#ifndef DESPATCH_LEDGER_VERIFY_H
#define DESPATCH_LEDGER_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/battle.h"
#include "ledger/record.h"

struct verify_opts {
	const char *head_hex;     /* a head a player kept, or NULL */
	/* Called after each step replayed (may be NULL). */
	void (*progress)(int done, int total, void *arg);
	void *arg;
	/* Export's use (may be NULL).  Set, the step lines carry no "state"
	 * yet (those that do are refused): after each step is replayed and
	 * its state found to be the one its record signed, state() is given
	 * the archive's line (1-based), the step and the "state" object of
	 * ledger_state_json, which it may keep with json_incref; non-zero
	 * from it stops the run.  NULL, every step line must carry its
	 * "state", and it must be byte for byte the replay's.  So export
	 * writes the states that verify's own replay makes, and never an
	 * archive that does not verify. */
	int (*state)(int line, int step, json_t *state, void *arg);
	void *state_arg;
	/* A campaign's use (may be NULL): once everything holds, the
	 * battle as its last step replayed left it (NULL when its last
	 * steps are of an engine this build does not replay); non-zero
	 * from it fails the run. */
	int (*final)(const struct battle *b, void *arg);
	void *final_arg;
};

struct verify_result {
	char game[64];
	char ruleset[BATTLE_ID_MAX];
	char engine[32];
	int engine_now;           /* the engine of the last span */
	int steps;                /* step records checked */
	int upgrades;             /* upgrade acts among the acts */
	/* Steps of an engine this build does not replay, checked but for
	 * their play: how many, and the first such span's steps, engine
	 * and the build that replays it. */
	int unplayed, unplayed_from, unplayed_to, unplayed_engine;
	int unplayed_spans;       /* spans of engines not replayed */
	char unplayed_build[64];
	int acts;                 /* operators' acts (pause, extend ...) */
	int conceded;             /* the battle ended with a concession */
	int drawn;                /* ... with a draw every seat agreed */
	int chain;                /* steps the chain covers */
	int finished;             /* the archive says the battle is over */
	int sandbox, scripted;    /* a sandbox game; steps with scripted dice */
	int fog;
	int demo_key;             /* signed with the demo's published key */
	unsigned char pk[LEDGER_PK];
	/* The head of the archive's last record, once its chain holds
	 * (have_head 0 before). */
	unsigned char head[LEDGER_HASH];
	int have_head;
	int head_step;            /* the step whose head is --head (0 the
	                           * genesis); -1 when not asked */
	long long bytes;
	/* When it fails: the archive's line (1-based), the step (0: none),
	 * the field, and a sentence. */
	int line, step;
	char field[48];           /* "state.stands[12].facing" and the like */
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

/* The "state" object of an archive's step line (despatch-archive(5)):
 * exactly what ledger_state_hash hashes, field for field and in its
 * order, named, so that another program can rebuild the hash from it.
 * NULL when out of memory. */
json_t *ledger_state_json(const struct battle *b);

/* Sets b (the scenario's battle, its seats taken) to the state object
 * st: 0, or -1 when st is not exactly what ledger_state_json would write
 * for the battle it makes (a key missing, moved or extra, a count or a
 * value out of range). */
int ledger_state_read(struct battle *b, json_t *st);

#endif
