/*
 * bb3_int.h - what the files of the bb3 adjudicator share: the step's
 * working state, the table's small questions, and the functions one file
 * calls in another (prefixed b3_).  Not for use outside src/rules/bb3*.c;
 * the ruleset's interface is bb3.h.
 *
 *   bb3.c         the player turn: initiative, panic, rally, charges,
 *                 movement, officers
 *   bb3_combat.c  firing, howitzers, officer casualties, melee, morale,
 *                 running away and the reform
 *   bb3_data.c    the numbers, the troop types, the orders, the words
 *   bb3_preview.c what the order reply warns of
 */
#ifndef DESPATCH_RULES_BB3_INT_H
#define DESPATCH_RULES_BB3_INT_H

#include <string.h>

#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"
#include "rules/bb3.h"
#include "rules/bb3_msgs.h"

struct ctx {
	struct battle *b;
	struct dice *d;
	struct events *ev;
	int step, turn, side;
	const struct order *ord[BATTLE_MAX_UNITS];  /* its line this step */
	int cas[BATTLE_MAX_UNITS];        /* figures hit this step, still on
	                                     its stands until the reform */
	int fire_cas[BATTLE_MAX_UNITS];   /* ... in this firing phase */
	int fire_base[BATTLE_MAX_UNITS];  /* its figures as the phase began */
	int responded[BATTLE_MAX_UNITS];  /* answered a charge this step */
	int face[BATTLE_MAX_UNITS];       /* a charger's: 0 the target's
	                                     front, 1 flank, 2 rear */
	int ran[BATTLE_MAX_UNITS];        /* inches it ran this step */
	int fell_back[BATTLE_MAX_UNITS];  /* fell back for its officer's loss */
	fx gap_before[BATTLE_MAX_UNITS];  /* a move's step: each enemy's gap
	                                     before it */
	fx last_paid;                     /* b3_move_along's last: inches of
	                                     the move it used */
	fx double_radius;                 /* a doubled move being tried: it
	                                     may come no nearer an enemy
	                                     than this (0: none) */
	int double_broken;                /* ... and did */
	int firing_phase;                 /* in the firing phase (the 25%
	                                     test is its; a charger's own
	                                     test follows a response's fire) */
	const struct order_set *mine;     /* the moving side's orders */
	int failed;
	char buf[4][32];
};

static inline int
P(const struct ctx *c, const char *name)
{
	return ruleset_param(&ruleset_bb3, c->b, name);
}

static inline const char *
fmt_in(struct ctx *c, int slot, fx v)
{
	return geom_fmt_fx(v, c->buf[slot & 3], (int)sizeof(c->buf[0]));
}

#define FOR_STANDS(b, u, s) \
	for ((s) = (b)->units[u].first_stand; \
	    (s) < (b)->units[u].first_stand + (b)->units[u].nstands; (s)++)

static inline int
alive(const struct battle *b, int s)
{
	return !(b->stands[s].flags & ST_GONE);
}

/* The figures on a unit's stands still on the table (and, for a
 * reinforcement, those still to come): the core's strength measure. */
static inline int
figures(const struct battle *b, int u)
{
	return battle_unit_sp(b, u);
}

static inline int
on_table(const struct battle *b, int u)
{
	return battle_unit_alive(b, u) > 0;
}

static inline int
cls(const struct battle *b, int u)
{
	return b->units[u].rules[B3_CLASS];
}

static inline int
fleeing(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && (b->stands[s].flags & ST_ROUTED) == ST_ROUTED)
			return 1;
	return 0;
}

static inline int
disordered(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && (b->stands[s].flags & ST_DISORDERED))
			return 1;
	return 0;
}

static inline int
mounted(const struct battle *b, int u)
{
	return b->units[u].kind == KIND_MOUNTED;
}

static inline int
facing_of(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s))
			return b->stands[s].facing;
	return 0;
}

/* Events and dice (bb3.c). */
void b3_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
int b3_roll(struct ctx *c, int sides, int unit, const char *msg,
    const char *types, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The table (bb3.c). */
void b3_set_flags(struct battle *b, int u, unsigned set, unsigned clear);
void b3_remove(struct ctx *c, int u);
int b3_nearest_enemy(const struct battle *b, int u, fx *gap);
struct pt b3_front(const struct battle *b, int u);
fx b3_point_gap(const struct battle *b, struct pt p, int v);
int b3_sees_unit(const struct battle *b, int u, int t);
/* 1 if u is in contact with an enemy. */
int b3_in_contact(const struct ctx *c, int u);
/* 1 for a verb that moves or turns a unit (a command roll's). */
int b3_moving_verb(int v);
/* 1 if a stand of u lies over a stand of v (not merely touching). */
int b3_overlaps(const struct battle *b, int u, int v);
/* Lays unit u's stands out about cen facing `facing`: a line abreast,
 * or a column one behind another. */
void b3_lay_out(struct battle *b, int u, struct pt cen, int column,
    int facing);
/* The response unit u answers a charge with as the battle stands (its
 * own, else its side's, else stand), and the responses' words. */
int b3_response_of(const struct battle *b, int u);
extern const char *const b3_response_words[B3R_COUNT];
/* The stands (stand equivalents) unit u has lost in the battle. */
int b3_stands_lost(const struct battle *b, int u);
/* The target value of b3_move_along that lets the mover touch any enemy
 * (a pursuit). */
#define B3_ANY_ENEMY (-2)
void b3_turn_in_place(struct battle *b, int u, int to);
int b3_in_cover(const struct battle *b, int u);
/* The line of kind k (a fence, hedge, stream, river) the segment a-z
 * crosses, or -1. */
int b3_crosses(const struct battle *b, struct pt a, struct pt z,
    enum terrain_kind k);
int b3_in_woods(const struct battle *b, int u);
/* Moves unit u up to len inches of ground along bearing dir (its facing
 * kept), paying for the ground it crosses; the inches of ground it went.
 * target: an enemy it may touch (a charge), else -1; *stop the unit
 * that stopped it, -2 the table's edge, -3 a river, or -1. */
fx b3_move_along(struct ctx *c, int u, int dir, fx len, int target,
    int *stop);
/* The same, going at most dist inches (0: no limit) for len inches of
 * the move paid (the ground's cost counted). */
fx b3_move_upto(struct ctx *c, int u, int dir, fx dist, fx len, int target,
    int *stop);

/* Combat and morale (bb3_combat.c). */
/* A morale test: 1 passed.  dice: 2 or 3; mod: added to the value. */
int b3_morale(struct ctx *c, int u, int dice, int mod, const char *why);
/* The unit breaks and runs 2d6" (3d6" cavalry) away from unit `from`
 * (-1: the nearest enemy); it is fleeing. */
void b3_break(struct ctx *c, int u, int from);
/* It runs its 2d6" (3d6" cavalry) away from unit `from` (-1: straight
 * back), at once. */
void b3_run_from(struct ctx *c, int u, int from);
/* It runs `dist` along dir, round other units; 1 if still on the table. */
int b3_run(struct ctx *c, int u, int dir, fx dist);
/* Unit u fires at t; half: at half effect (about face).  How many
 * figures it killed, -1 if it could not fire. */
int b3_fire(struct ctx *c, int u, int t, int half, int pick_off);
int b3_can_fire_at(struct ctx *c, int u, int t, char *why, size_t size);
/* Unit u's weapon's range and short (canister) range; -1 for none. */
void b3_ranges(const struct ctx *c, int u, fx *lng, fx *shrt);
/* The officer attached to unit u, or -1. */
int b3_officer_with(const struct battle *b, int u);
void b3_firing_phase(struct ctx *c);
void b3_melee_phase(struct ctx *c);
void b3_reform(struct ctx *c);
int b3_figures_morale_mod(struct ctx *c, int u);

#endif
