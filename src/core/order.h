/*
 * order.h - typed orders, as the rules core receives them.
 *
 * The order parser (orders/) turns mail lines into these; the store keeps
 * each order as its canonical text and parses it again at adjudication,
 * so what a player was told we understood is exactly what is played.
 */
#ifndef DESPATCH_CORE_ORDER_H
#define DESPATCH_CORE_ORDER_H

#include "core/battle.h"

/* The verbs more than one ruleset has, whose argument the canonical text
 * writes in its own way.  A ruleset's own verbs are numbered from
 * V_RULESET up in its own header; the parser knows every verb only by
 * the ruleset's table (its word and the shape of its argument), so
 * adding one touches no shared file. */
enum verb {
	V_ADVANCE = 0, V_MOVE_TO, V_WHEEL, V_FACE, V_FORM, V_FIRE_AT, V_CHARGE,
	V_HOLD, V_REFORM, V_JOIN, V_HURRY, V_RETIRE, V_NO_ADVANCE, V_RALLY,
	V_DEPLOY,       /* the deployment step's, read by the parser itself
	                   for every ruleset (core/deploy.h) */
	V_RULESET = 64
};

/* What a verb takes after its word. */
enum verb_arg {
	ARG_NONE = 0,
	ARG_DIST,       /* a distance in inches */
	ARG_POINT,      /* x,y */
	ARG_TURN,       /* LEFT|RIGHT and degrees */
	ARG_BEARING,    /* degrees */
	ARG_FORMATION,  /* LINE|SKIRMISH|ROAD|MOUNTED|DISMOUNTED */
	ARG_ENEMY,      /* an enemy unit */
	ARG_FRIEND,     /* a friendly unit */
	ARG_COUNT       /* a whole number, 1 to 12 (into order_step.angle) */
};

/* One verb of a ruleset's order language: the parser reads this table. */
struct verb_def {
	const char *word;     /* "ADVANCE", "MOVE TO", "FIRE AT" */
	int verb;             /* an enum verb, or the ruleset's own */
	enum verb_arg arg;
	int for_units;
	int for_commanders;
	const char *help;     /* one line for HELP and the docs */
};

struct order_step {
	int verb;             /* as verb_def.verb */
	fx dist;
	struct pt pt;
	int angle;            /* WHEEL: signed turn; FACE: bearing; a count */
	int target;           /* unit index */
	enum formation form;
};

#define ORDER_MAX_STEPS 4

struct order {
	int is_commander;
	int who;              /* unit or commander index; for a special
	                         line, what it names (-1: nothing) */
	int special;          /* a line in the ruleset's own words
	                         (struct ruleset.order_line): not 0, its
	                         number for it; 0 for
	                         every unit's and commander's order */
	int special_arg;      /* ... and what else it says, the ruleset's
	                         to read */
	struct pt at;         /* ... and the point it names */
	int line;             /* line in the mail, for messages */
	int nsteps;
	struct order_step steps[ORDER_MAX_STEPS];
};

#define ORDER_SET_MAX (BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS)

/* The orders of one side for one step, in the order they were written. */
struct order_set {
	int side;
	int n;
	struct order orders[ORDER_SET_MAX];
};

#endif
