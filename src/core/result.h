/*
 * result.h - how a battle ends and who won it.
 *
 * The rules texts have no victory rules, so the scenario states them
 * (docs/scenario.md, Victory): objectives held at the end, enemy brigades
 * exhausted or collapsed, and an army that breaks when every brigade of it
 * is exhausted or collapsed.  Everything here is read from the battle's
 * state, so a replayed archive reaches the same result.
 */
#ifndef DESPATCH_CORE_RESULT_H
#define DESPATCH_CORE_RESULT_H

#include "core/battle.h"

enum result_kind {
	RESULT_NONE = 0,    /* not over */
	RESULT_DRAW,
	RESULT_VICTORY,     /* on points, by at least the margin */
	RESULT_BROKEN       /* every other side's army broke */
};

struct battle_result {
	int over;
	enum result_kind kind;
	int winner;                          /* side, or -1 */
	int points[BATTLE_MAX_SIDES];
	int broken[BATTLE_MAX_SIDES];        /* every brigade exhausted/collapsed */
	int holder[BATTLE_MAX_OBJECTIVES];   /* side holding it now, or -1 */
};

/* The default scoring a scenario starts from. */
void result_defaults(struct victory *v);

/* The standing after `played` steps: points, objectives held, and if the
 * battle is over (the last step played, or an army broken), its result. */
void battle_result(const struct battle *b, int played, struct battle_result *r);

/* 1 if the battle is over after `played` steps. */
int battle_over(const struct battle *b, int played);

/* "Continental victory, 7 points to 2" and the like, into out. */
void result_text(const struct battle *b, const struct battle_result *r,
    char *out, size_t size);

/* "victory", "draw", "broken" or "none". */
const char *result_kind_name(enum result_kind k);

#endif
