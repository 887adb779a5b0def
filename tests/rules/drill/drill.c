/*
 * drill.c - a ruleset for tests only, and the proof of the ruleset seam
 * (issue 21): it is registered through tests/CMakeLists.txt's
 * DESPATCH_TEST_RULESETS, so the test build of despatch (despatch-test)
 * plays it and the installed despatch does not, and adding it touched no
 * file in src/ at all.
 *
 * Its one rule: at each step every stand of every unit steps one inch
 * straight ahead, whatever the orders say, and the step logs one event
 * counting the units that moved.  No dice are rolled.  HOLD is its one
 * order, so that a player has something to send.
 */
#include "core/ruleset.h"

#include <stddef.h>

/* Its one message: how many units stepped. */
#define DRILL_M_STEP "step", "n", "%d units step forward 1\"."

static const struct troop_type drill_types[] = {
	{ .id = "drill-company", .kind = KIND_INFANTRY, .speed = 6,
	    .morale = 4, .weapon = WEAPON_MUSKET, .label = "a company at drill" },
};

static const struct verb_def drill_verbs[] = {
	{ .word = "HOLD", .verb = V_HOLD, .arg = ARG_NONE, .for_units = 1,
	    .help = "HOLD: the drill goes on regardless" },
};

static int
drill_turn_order(const struct battle *b, int turn, int *order)
{
	int i;

	for (i = 0; i < b->nsides; i++)
		order[i] = b->side_order[(i + turn - 1) % b->nsides];
	return 0;
}

static int
drill_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e)
{
	int i, moved = 0;

	(void)step;
	(void)orders;
	(void)nsets;
	(void)d;
	for (i = 0; i < b->nunits; i++) {
		const struct unit *u = &b->units[i];
		int k;

		for (k = 0; k < u->nstands; k++) {
			struct stand *s = &b->stands[u->first_stand + k];

			s->pos = geom_offset(s->pos, s->facing, FX_ONE);
		}
		moved += u->nstands > 0;
	}
	events_say(ev, EV_MOVE, -1, -1, -1, moved, DRILL_M_STEP, moved);
	if (ev->overflow)
		return err_set(e, ERR_INTERNAL, "out of memory for events");
	return 0;
}

static const struct event_msg drill_messages[] = {
	EVENT_MSG(DRILL_M_STEP),
	{ .id = NULL }
};

static const struct ruleset_words drill_words = {
	.messages = drill_messages,
	.yards_per_foot = 100,
	.column_word = "column",
	.scale_note = "SP are strength points.",
};

const struct ruleset ruleset_drill = {
	.name = "drill",
	.title = "Drill (a ruleset for despatch's tests)",
	.types = drill_types,
	.ntypes = (int)(sizeof(drill_types) / sizeof(drill_types[0])),
	.verbs = drill_verbs,
	.nverbs = (int)(sizeof(drill_verbs) / sizeof(drill_verbs[0])),
	.turn_minutes = 10,
	.turn_order = drill_turn_order,
	.adjudicate = drill_adjudicate,
	.form_words = "LINE",
	.words = &drill_words,
};
