/*
 * engine.h - the rules engines a build knows (engine.c): the one it
 * plays, and the older ones whose records it can still read and whose
 * state hashes it can still make, though it may not replay their steps.
 */
#ifndef DESPATCH_LEDGER_ENGINE_H
#define DESPATCH_LEDGER_ENGINE_H

#include <stddef.h>

#include "core/battle.h"
#include "ledger/record.h"

struct ledger_engine {
	int number;
	/* As a genesis record names it: engines before numbers were kept
	 * apart from the package version were named by that version. */
	const char *genesis_name;
	const char *build;       /* the build that replays its steps */
	int replays;             /* this build replays its steps exactly */
	int (*state_hash)(const struct battle *b, unsigned char out[LEDGER_HASH]);
	/* How its step records hash the events; NULL for engines whose
	 * way is not kept. */
	int (*events_hash)(const struct events *ev,
	    unsigned char out[LEDGER_HASH]);
	/* Its archives give each event's message and typed values (1), or
	 * its sentence (0). */
	int typed_events;
};

/* The engine this build plays: ENGINE_NUMBER, or the older one
 * ledger_engine_test named. */
int ledger_engine_current(void);
/* For the upgrade tests only (the fronts pass $DESPATCH_TEST_ENGINE):
 * play as the older engine numbered n, one this build knows; -1 (and
 * this build's engine) for any other, 0 for NULL or "". */
int ledger_engine_test(const char *n);
/* The engine numbered n, or NULL when this build does not know it. */
const struct ledger_engine *ledger_engine_get(int n);
/* The number of the engine a genesis names ("0.4.0", "5"); 0 when it is
 * none this build can read. */
int ledger_engine_parse(const char *genesis_name);
/* How a genesis names engine n. */
void ledger_engine_name(int n, char *out, size_t size);

#endif
