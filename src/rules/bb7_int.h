/*
 * bb7_int.h - what the files of the bb7 adjudicator share: the phase's
 * working state, the table's small questions, and the functions one file
 * calls in the other (prefixed b7_).  Not for use outside
 * src/rules/bb7*.c; the ruleset's interface is bb7.h.
 *
 *   bb7.c         the phase: activation, orders, movement, sight
 *   bb7_combat.c  hits, morale, shooting and melee
 */
#ifndef DESPATCH_RULES_BB7_INT_H
#define DESPATCH_RULES_BB7_INT_H

#include <stdint.h>
#include <string.h>

#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"
#include "rules/bb7_msgs.h"
#include "rules/bb7.h"

/* The phase's working state. */
struct ctx {
	struct battle *b;
	struct dice *d;
	struct events *ev;
	int step, turn, side;
	/* A unit's first shot of the phase, which a further SHOOT action
	 * rolls again: its target and the dice that missed (small arms, and
	 * each kind of gun ammunition). */
	int shot[BATTLE_MAX_UNITS];          /* target, or -1 */
	int miss[BATTLE_MAX_UNITS];
	int gun_miss[BATTLE_MAX_STANDS];     /* ... each gun's, */
	unsigned gun_ammo[BATTLE_MAX_STANDS];   /* and what it fired */
	int need[BATTLE_MAX_UNITS];          /* the shot's density to beat */
	int mod[BATTLE_MAX_UNITS];           /* ... and what is added to a die */
	int failed;            /* out of memory: the step is thrown away */
	int dice_cap[BATTLE_MAX_UNITS];      /* DICE N: a gun rolls at most N */
	int stopped_by[BATTLE_MAX_UNITS];    /* what stopped its last move: a
	                                        unit, -2 the table's edge, -1 */
	fx woods_cost[BATTLE_MAX_UNITS];     /* what woods took off its move */
	char hit_why[BATTLE_MAX_UNITS][96];  /* how its shot's number came */
	char buf[4][32];
};

static inline int
P(struct ctx *c, const char *name)
{
	return ruleset_param(&ruleset_bb7, c->b, name);
}

static inline const char *
fmt_in(struct ctx *c, int slot, fx v)
{
	return geom_fmt_fx(v, c->buf[slot & 3], (int)sizeof(c->buf[0]));
}

/* --- the table ---------------------------------------------------------- */

#define FOR_STANDS(b, u, s) \
	for ((s) = (b)->units[u].first_stand; \
	    (s) < (b)->units[u].first_stand + (b)->units[u].nstands; (s)++)

static inline int
alive(const struct battle *b, int s)
{
	return !(b->stands[s].flags & ST_GONE);
}

/* The figures a unit has left: its size (a reinforcement's still to
 * come on are its own, not lost). */
static inline int
figures(const struct battle *b, int u)
{
	int s, n = 0;

	FOR_STANDS(b, u, s)
		if (alive(b, s) || (b->stands[s].flags & ST_AWAY))
			n += b->stands[s].sp;
	return n;
}

static inline int
unit_form(const struct battle *b, int u)
{
	return battle_unit_form(b, u);
}

static inline int
unit_facing(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s))
			return b->stands[s].facing;
	return 0;
}

/* In cover, for morale and shooting: buildings or works. */
static inline int
in_buildings(const struct battle *b, struct pt p)
{
	return battle_area_at(b, p, T_TOWN) || battle_area_at(b, p, T_VILLAGE) ||
	    battle_area_at(b, p, T_WORKS);
}

static inline int
in_cover(const struct battle *b, struct pt p)
{
	return in_buildings(b, p) || battle_area_at(b, p, T_WOOD) ||
	    battle_area_at(b, p, T_FOREST);
}

/* Events and dice (bb7.c): a message of the catalogue (bb7_msgs.h: each
 * B7_M_ and B7_R_ macro gives the id, the letters and the sentence), for
 * unit's side; a die of `sides` for unit's side. */
void b7_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
int b7_roll(struct ctx *c, int sides, int unit, const char *msg,
    const char *types, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The table and movement (bb7.c). */
int b7_unit_sees(const struct battle *b, int u, int t);
int b7_nearest_enemy(const struct battle *b, int u);
fx b7_one_move(struct ctx *c, int u);
/* A move the unit has no say in (rout, push back, evasion) along bearing
 * dir: one move, less what woods on the way take (not cavalry's). */
fx b7_forced_move(struct ctx *c, int u, int dir);
/* Where a MOVE TO or ADVANCE part st takes unit u: its centre now, the
 * bearing and the distance asked; 0 if the unit has no bases left. */
int b7_move_goal(const struct battle *b, int u, const struct order_step *st,
    struct pt *cen, int *dir, fx *want);
fx b7_move_along(struct ctx *c, int u, int dir, fx len);
fx b7_allowance(struct ctx *c, int u, int dir, fx want, int *exact);
void b7_face_towards(struct ctx *c, int u, int dir);
void b7_turn_in_place(struct battle *b, int u, int to);

/* bb7.c's own steps that the order preview (bb7_preview.c) plays with
 * the adjudicator's measures.  The commander quality
 * unit u acts with (the best of its chain within command.radius of its
 * centre; *who that commander, or -1), the worst woods on len of the way
 * from its centre on bearing dir (T_FOREST, T_WOOD or -1), a FORM
 * action, and a commander's order line. */
int b7_command_quality(struct ctx *c, int u, int *who);
int b7_woods_on(struct ctx *c, int u, int dir, fx len);
void b7_form_action(struct ctx *c, int u, enum formation f);
void b7_commander_order(struct ctx *c, const struct order *o);

/* The farthest unit u's weapon reaches (guns: their farthest band), or
 * -1 if the ruleset gives it no range. */
fx b7_longest_range(const struct battle *b, int u);

/* Combat (bb7_combat.c). */
void b7_morale_check(struct ctx *c, int u, const char *why, int worse);
/* A shoot action of unit u at t (guns: only the guns marked in `guns`,
 * NULL for all). */
void b7_shoot_action(struct ctx *c, int u, int t, const unsigned char *guns);
void b7_charge_action(struct ctx *c, int u, int t, int pursue);

#endif
