/*
 * fog.c - what a side of a fog game knows beyond the enemy it sees now:
 * the enemy units it saw leave play in a step, and the words that tell a
 * player what the fog of a fog game is (docs/reports.md, Fog).
 *
 * A unit is known to be gone when the side saw its last stand go: that
 * stand, put back where it was removed, is one the side's stands or
 * commanders see by the ruleset's line of sight as they stand after the
 * step, or the side fought or exchanged fire with the unit in the step
 * (report_seen_contacts).  A unit that went out of the side's sight stays
 * where it was last seen.  Pure functions of the state and the events,
 * like the rest of report/; the rules core is not asked anything but its
 * line of sight.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"

/* The stand of unit u removed by the last event of ev that removed one
 * of its stands, as a stand index; -1 when that event names no stand (the
 * unit went whole) or there is none. */
static int
last_removed(const struct battle *b, const struct events *ev, int u)
{
	int i, k;

	for (i = ev->n - 1; i >= 0; i--) {
		const struct event *x = &ev->v[i];

		if (x->kind != EV_ELIMINATED || x->unit != u)
			continue;
		/* A stand is told by its number in its unit, from 1. */
		for (k = 0; k < x->nargs && x->types[k] != '\0'; k++)
			if (x->types[k] == 'p') {
				int n = atoi(events_arg(x, k));

				if (n >= 1 && n <= b->units[u].nstands)
					return b->units[u].first_stand + n - 1;
			}
		return -1;
	}
	return -1;
}

int
report_seen_gone(const struct battle *b, int side, const struct events *ev,
    const unsigned char *live_before, unsigned char *seen,
    unsigned char *gone)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	struct battle *was = NULL;
	unsigned char *sight = NULL;
	int u, s, n = 0;

	memset(gone, 0, (size_t)b->nunits);
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		int last, went = 0, saw = 0;

		if (un->side == side || battle_unit_alive(b, u) > 0)
			continue;
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (live_before[s])
				went++;
		if (went == 0)
			continue;   /* gone before this step */
		/* The field as it stood when the unit's last stand went: the
		 * state after the step, that stand (or, the unit gone whole,
		 * every stand it had at the start of the step) put back. */
		if (was == NULL && ((was = battle_new()) == NULL ||
		    (sight = calloc((size_t)b->nstands + 1, 1)) == NULL)) {
			n = -1;
			break;
		}
		*was = *b;
		last = last_removed(b, ev, u);
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (live_before[s] && (last < 0 || s == last))
				was->stands[s].flags &= ~ST_GONE;
		memset(sight, 0, (size_t)b->nstands);
		if (rs != NULL && rs->sees != NULL)
			rs->sees(was, side, sight);
		report_seen_contacts(was, side, ev, sight);
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (live_before[s] && (last < 0 || s == last) && sight[s])
				saw = 1;
		if (!saw)
			continue;
		gone[u] = 1;
		n++;
		/* What the unit did as it went is in the side's sight too. */
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (live_before[s])
				seen[s] = 1;
	}
	free(sight);
	battle_free(was);
	return n;
}

void
report_fog_help(struct text *t, const struct battle *b)
{
	text_add(t, "This is a fog game: you see the enemy only as your own "
	    "units and\ncommanders see it, by the line of sight of the %s "
	    "rules: ground,\nwoods and towns hide what lies beyond them, and no "
	    "mail tells you of\nan enemy unit that none of yours can see. An "
	    "enemy unit your side has\nlost sight of is shown where it was last "
	    "seen, marked with the turn (on\nthe map, a dashed outline); one "
	    "your side saw destroyed, rout off or\nleave the table is known to "
	    "be gone and is shown no more. The enemy's\norders, its dice and "
	    "the server's seeds stay hidden until the battle is\nover, when the "
	    "archive shows everything.\n\n", b->ruleset);
}

void
report_fog_note(struct text *t)
{
	text_add(t, "A fog game: you see the enemy only as your units and "
	    "commanders see it; an\nenemy out of sight is shown where it was "
	    "last seen, with the turn.\n");
}
