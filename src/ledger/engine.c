/*
 * engine.c - the engines this build knows.
 *
 * A row stays here for good once its engine has played a game: a build
 * must read the records of every engine before it and make their state
 * hashes, so that a game begun under one can be carried over to this
 * one (docs/ledger.md, "Engines and upgrades").  Only the rows marked
 * replays are played again by verify; for the others it names the build
 * that does.
 */
#include "ledger/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/engine.h"

static const struct ledger_engine engines[] = {
	/* Their state hashes (despatch/state/v1 and v2) were not kept: a
	 * game of theirs is checked as a chain, but cannot be carried over
	 * by this build. */
	{ .number = 1, .genesis_name = "0.1.0", .build = "despatch 0.1.0",
	  .events_hash = ledger_events_hash_text },
	{ .number = 2, .genesis_name = "0.2.0", .build = "despatch 0.2.0",
	  .events_hash = ledger_events_hash_text },
	/* The last 0.3.0 builds hashed the state as engine 4 does (v3);
	 * the first ones, before each unit's ruleset values joined the
	 * state, hashed v2, and cannot be carried over.  The second
	 * ruleset's event texts and forced moves through woods changed
	 * after it: its results cannot be given again by this build. */
	{ .number = 3, .genesis_name = "0.3.0", .build = "despatch 0.3.0",
	  .state_hash = ledger_state_hash,
	  .events_hash = ledger_events_hash_text },
	/* Engines 4 and 5 play alike; 4 signed each event's sentence, 5
	 * its message id and typed values, so that a sentence may be
	 * reworded.  The catalogues keep 4's sentences, so its games are
	 * still played again. */
	{ .number = 4, .genesis_name = "0.4.0", .build = "despatch 0.4.0 or later",
	  .replays = 1, .state_hash = ledger_state_hash,
	  .events_hash = ledger_events_hash_text },
	{ .number = 5, .genesis_name = "5", .build = "despatch 0.5.0 or later",
	  .replays = 1, .state_hash = ledger_state_hash,
	  .events_hash = ledger_events_hash, .typed_events = 1 },
};

const struct ledger_engine *
ledger_engine_get(int n)
{
	size_t i;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i].number == n)
			return &engines[i];
	return NULL;
}

/* An older engine to play as, for the upgrade tests (0: none). */
static int engine_test;

int
ledger_engine_test(const char *n)
{
	char *end;
	long v;

	engine_test = 0;
	if (n == NULL || *n == '\0')
		return 0;
	v = strtol(n, &end, 10);
	if (*end != '\0' || v <= 0 || v >= ENGINE_NUMBER ||
	    ledger_engine_get((int)v) == NULL)
		return -1;
	engine_test = (int)v;
	return 0;
}

int
ledger_engine_current(void)
{
	return engine_test != 0 ? engine_test : ENGINE_NUMBER;
}

int
ledger_engine_parse(const char *name)
{
	size_t i;
	char *end;
	long n;

	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(name, engines[i].genesis_name) == 0)
			return engines[i].number;
	/* Engines after the numbers began are named by them alone. */
	if (name[0] < '1' || name[0] > '9')
		return 0;
	n = strtol(name, &end, 10);
	if (*end != '\0' || n <= 4 || n > 1000000)
		return 0;
	return (int)n;
}

void
ledger_engine_name(int n, char *out, size_t size)
{
	const struct ledger_engine *en = ledger_engine_get(n);

	if (en != NULL)
		snprintf(out, size, "%s", en->genesis_name);
	else
		snprintf(out, size, "%d", n);
}
