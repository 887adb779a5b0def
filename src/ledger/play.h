/*
 * play.h - the one way a step is played (play.c): by the referee when a
 * phase is due, and by `despatch verify` over an archive, from the same
 * inputs a step record commits to.
 */
#ifndef DESPATCH_LEDGER_PLAY_H
#define DESPATCH_LEDGER_PLAY_H

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"
#include "core/ruleset.h"
#include "ledger/record.h"

struct orders_parser;

/* One seat's order set for the step, as its leaf records it: the side it
 * plays and its orders in canonical form, a line each ("" for none:
 * mailed, standing orders, or nothing). */
struct play_seat {
	int side;                 /* index into the battle's sides */
	const char *orders;
};

struct play_in {
	int step;
	const struct play_seat *seats;   /* in seat order */
	int nseats;
	/* The dice: the stream under dice_seed, or when it is NULL the
	 * scripted values (a sandbox step); with script_all every scripted
	 * value must be used. */
	const unsigned char *dice_seed;
	const int *script;
	int nscript, script_all;
};

/* Why a step could not be played: the order sets did not read, the
 * ruleset refused, or the scripted dice did not fit. */
enum play_fail { PLAY_OK = 0, PLAY_ORDERS, PLAY_RULES, PLAY_DICE };

struct play_out {
	long rolls;                      /* dice rolled */
	enum play_fail fail;
	int side;                        /* PLAY_ORDERS: the side */
};

/* Plays step in->step on b: each side's order sets joined in seat order
 * and read by op in replay mode (each line must read as it was taken),
 * then the ruleset's adjudication with the step's dice, its events
 * added to ev.  0, or -1 with e and out->fail saying why (b and ev are
 * then partly played). */
int ledger_play_step(const struct ruleset *rs, struct orders_parser *op,
    struct battle *b, const struct play_in *in, struct events *ev,
    struct play_out *out, struct err *e);

#endif
