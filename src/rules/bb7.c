/*
 * bb7.c - adjudicating a phase of Bloodybacks 7 (shared/seeds/000):
 * activation by a hand of d12s, the actions a unit earns (move, shoot,
 * rally, resupply), hits and disruption, and morale.
 *
 * docs/rules-bb7.md describes, in our words, what this file does and
 * which reading it takes where the text is silent; tests/rules/bb7/ pins
 * each paragraph with worked cases.  The numbers live in bb7_data.c.
 *
 * Pure: the state, the orders and a dice source in; the state changed and
 * events out.  No clock, no I/O, integers only, every loop in a fixed
 * order (order lines, then scenario order).
 *
 * Workload: a phase activates a few dozen units (a few hundred in issue
 * 24's largest benchmark battles); a move is stepped every quarter inch,
 * each step tested against the bases of the units near the mover, which
 * the battle's unit index (battle_units_index) finds without walking
 * every unit: every change to a unit's stands here tells it
 * (battle_unit_moved).
 */
#include "rules/bb7_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"

/* An event of the catalogue (bb7_msgs.h), for unit's side. */
void
b7_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	events_vsay(c->ev, k, unit >= 0 ? c->b->units[unit].side : -1, unit,
	    target, value, msg, types, fmt, ap);
	va_end(ap);
}

int
b7_roll(struct ctx *c, int sides, int unit, const char *msg,
    const char *types, const char *fmt, ...)
{
	va_list ap;
	int v;

	c->d->side = unit >= 0 ? c->b->units[unit].side : -1;
	va_start(ap, fmt);
	v = dice_vroll(c->d, sides, unit, msg, types, fmt, ap);
	va_end(ap);
	return v;
}

static int
on_road(struct ctx *c, struct pt p)
{
	return battle_near_line(c->b, p, T_ROAD, P(c, "road.half-width"));
}

/* 1 if from a, z can be seen: the line between them runs through no
 * more than sight.woods of woods (the text leaves sight to the players;
 * a default). */
static int
sees_point(const struct battle *b, struct pt a, struct pt z)
{
	fx len = geom_dist(a, z), t, st = ruleset_param(&ruleset_bb7, b, "step");
	fx limit = ruleset_param(&ruleset_bb7, b, "sight.woods"), in = 0;

	for (t = st / 2; t < len; t += st) {
		struct pt p = {
			a.x + (fx)((int64_t)(z.x - a.x) * t / (len > 0 ? len : 1)),
			a.y + (fx)((int64_t)(z.y - a.y) * t / (len > 0 ? len : 1))
		};

		if (battle_area_at(b, p, T_WOOD) || battle_area_at(b, p, T_FOREST)) {
			in += st;
			if (in > limit)
				return 0;
		}
	}
	return 1;
}

void
bb7_sees(const struct battle *b, int side, unsigned char *seen)
{
	int s, k, c;

	for (s = 0; s < b->nstands; s++) {
		seen[s] = 0;
		if (b->stands[s].flags & ST_GONE)
			continue;
		if (b->units[b->stands[s].unit].side == side) {
			seen[s] = 1;
			continue;
		}
		for (k = 0; k < b->nstands && !seen[s]; k++)
			if (b->units[b->stands[k].unit].side == side && alive(b, k) &&
			    sees_point(b, b->stands[k].pos, b->stands[s].pos))
				seen[s] = 1;
		/* (not a commander off the table: one still to come on) */
		for (c = 0; c < b->ncommanders && !seen[s]; c++)
			if (b->commanders[c].side == side && !b->commanders[c].gone &&
			    !b->commanders[c].out_removed &&
			    sees_point(b, b->commanders[c].pos, b->stands[s].pos))
				seen[s] = 1;
	}
}

/* 1 if a base of unit u sees a base of unit t. */
int
b7_unit_sees(const struct battle *b, int u, int t)
{
	int s, k;

	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		FOR_STANDS(b, t, k)
			if (alive(b, k) && sees_point(b, b->stands[s].pos,
			    b->stands[k].pos))
				return 1;
	}
	return 0;
}

static void
translate(struct battle *b, int u, fx dx, fx dy)
{
	int s;

	FOR_STANDS(b, u, s) {
		b->stands[s].pos.x += dx;
		b->stands[s].pos.y += dy;
	}
	battle_unit_moved(b, u);
}

/* 1 if unit u, where it stands, is off the table, within stop-short of an
 * enemy base, or on another unit's base. */
static int
blocked(struct ctx *c, int u)
{
	struct battle *b = c->b;
	fx stop_short = P(c, "stop-short");
	int near[BATTLE_MAX_UNITS];
	int v, s, i, n;

	FOR_STANDS(b, u, s) {
		struct pt r[4];

		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r);
		for (i = 0; i < 4; i++)
			if (r[i].x < 0 || r[i].y < 0 || r[i].x > b->width ||
			    r[i].y > b->depth) {
				c->stopped_by[u] = -2;
				return 1;
			}
	}
	/* The units that may be within the larger of the two limits, in
	 * scenario order, or every unit (issue 24: the first that blocks is
	 * the same either way). */
	n = battle_units_near(b, u, stop_short - 1 > 0 ? stop_short - 1 : 0,
	    near);
	for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
		v = n >= 0 ? near[i] : i;
		if (v == u || battle_unit_alive(b, v) == 0)
			continue;
		/* Only whether the gap is under the limit matters, and
		 * stands certainly further are not measured (issue 24). */
		if (battle_unit_gap_within(b, u, v,
		    b->units[v].side != b->units[u].side ? stop_short - 1 : 0)) {
			c->stopped_by[u] = v;
			return 1;
		}
	}
	return 0;
}

/* The commander quality unit u acts with: the best of its chain within
 * reach of its centre, else 0. */
int
b7_command_quality(struct ctx *c, int u, int *who)
{
	struct battle *b = c->b;
	struct pt cen;
	int k, best = 0;

	*who = -1;
	if (!battle_unit_centre(b, u, &cen))
		return 0;
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *m = &b->commanders[k];

		if (m->gone || m->out_until != 0 || !battle_in_chain(b, k, u) ||
		    geom_dist(m->pos, cen) > P(c, "command.radius"))
			continue;
		if (m->quality > best) {
			best = m->quality;
			*who = k;
		}
	}
	return best;
}

/* The unit turns about its centre to face `to`, its bases with it. */
void
b7_turn_in_place(struct battle *b, int u, int to)
{
	struct pt cen;
	int s;

	if (!battle_unit_centre(b, u, &cen))
		return;
	FOR_STANDS(b, u, s) {
		b->stands[s].pos = geom_rotate(b->stands[s].pos, cen,
		    geom_turn(b->stands[s].facing, to));
		b->stands[s].facing = geom_norm(to);
	}
	battle_unit_moved(b, u);
}


/* --- movement ---------------------------------------------------------- */

/* The nearest enemy of u among the n units of list (every unit when
 * list is NULL), ties to the first; its gap into *gap. */
static int
nearest_enemy_of(const struct battle *b, int u, const int *list, int n,
    fx *gap)
{
	fx best = -1;
	int i, v, who = -1;

	for (i = 0; i < n; i++) {
		fx g;

		v = list != NULL ? list[i] : i;
		if (b->units[v].side == b->units[u].side ||
		    battle_unit_alive(b, v) == 0)
			continue;
		g = battle_unit_gap_below(b, u, v, NULL, best);
		if (g >= 0 && (best < 0 || g < best)) {
			best = g;
			who = v;
		}
	}
	*gap = best;
	return who;
}

int
b7_nearest_enemy(const struct battle *b, int u)
{
	int near[BATTLE_MAX_UNITS];
	fx r, gap;
	int n, who;

	/* Search ever wider about u (issue 24): once the nearest of the
	 * units that may be within r is within r, every unit as near is
	 * among them, so it is the nearest of all, ties to the first as
	 * when every unit is walked.  Past the table's size, walk them all. */
	for (r = FX(12); r / 2 <= b->width + b->depth; r *= 2) {
		if ((n = battle_units_near(b, u, r, near)) < 0)
			break;
		who = nearest_enemy_of(b, u, near, n, &gap);
		if (who >= 0 && gap <= r)
			return who;
	}
	return nearest_enemy_of(b, u, NULL, b->nunits, &gap);
}

/* What one move takes a unit, without dice (a rout, a push back). */
fx
b7_one_move(struct ctx *c, int u)
{
	const struct unit *un = &c->b->units[u];
	int form = unit_form(c->b, u);

	switch (un->kind) {
	case KIND_MOUNTED:
		return form == FORM_ROAD ? P(c, "move.cavalry.column") :
		    P(c, "rout.cavalry");
	case KIND_ARTILLERY:
		if (form == FORM_ROAD)
			return P(c, "move.limbered");
		return un->weapon == WEAPON_LIGHT_GUN ?
		    P(c, "move.unlimbered.light") : un->weapon == WEAPON_HEAVY_GUN ?
		    0 : P(c, "move.unlimbered.field");
	default:
		return form == FORM_ROAD ? P(c, "move.infantry") :
		    P(c, "move.infantry") - FX(un->state[B7_DENSITY]);
	}
}

/* A move the unit has no say in (a rout, a push back, an
 * evasion) along bearing dir: one move, less what woods on the way take
 * from infantry and guns (the text's deduction is for any move in woods;
 * cavalry's fixed rout move has no dice for woods to limit). */
fx
b7_forced_move(struct ctx *c, int u, int dir)
{
	fx allow = b7_one_move(c, u);
	int woods;

	if (c->b->units[u].kind == KIND_MOUNTED)
		return allow;
	woods = b7_woods_on(c, u, dir, allow);
	if (woods >= 0)
		allow -= woods == T_FOREST ? P(c, "woods.heavy") :
		    P(c, "woods.light");
	return allow < 0 ? 0 : allow;
}

/* Moves the unit up to len along bearing dir, step by step, stopping
 * before it would be blocked; how far it went. */
fx
b7_move_along(struct ctx *c, int u, int dir, fx len)
{
	struct battle *b = c->b;
	fx went = 0, st = P(c, "step");

	c->stopped_by[u] = -1;
	while (went < len) {
		fx part = len - went < st ? len - went : st;
		struct pt o = { 0, 0 }, to = geom_offset(o, dir, part);

		translate(b, u, to.x, to.y);
		if (blocked(c, u)) {
			translate(b, u, -to.x, -to.y);
			break;
		}
		went += part;
	}
	if (went > 0) {
		b->units[u].state[B7_MARKS] |= UM_MOVED;
		b->units[u].state[B7_MARKS] &= ~UM_SMOKE;   /* it leaves its smoke */
	}
	return went;
}

/* The worst woods along len from the unit's centre on bearing dir:
 * T_FOREST, T_WOOD, or -1. */
int
b7_woods_on(struct ctx *c, int u, int dir, fx len)
{
	struct pt cen;
	fx t;
	int worst = -1;

	if (!battle_unit_centre(c->b, u, &cen))
		return -1;
	for (t = 0; t <= len; t += P(c, "step")) {
		struct pt p = geom_offset(cen, dir, t);

		if (battle_area_at(c->b, p, T_FOREST))
			return T_FOREST;
		if (battle_area_at(c->b, p, T_WOOD))
			worst = T_WOOD;
	}
	return worst;
}

/* A cavalry move: two d12, and the die, sum or difference the ground
 * allows that comes nearest `want` (the smaller on a tie). */
static fx
cavalry_move(struct ctx *c, int u, int woods, fx want)
{
	const struct unit *un = &c->b->units[u];
	int a = b7_roll(c, 12, u, B7_R_MOVE_FIRST_DIE, un->name);
	int d = b7_roll(c, 12, u, B7_R_MOVE_SECOND_DIE, un->name);
	int opt[4], n = 0, i, best = -1;
	const char *how = "the lower die";

	if (woods == T_FOREST) {
		opt[n++] = a < d ? a : d;
	} else {
		opt[n++] = a;
		opt[n++] = d;
		opt[n++] = abs(a - d);
		if (woods != T_WOOD)
			opt[n++] = a + d;
	}
	for (i = 0; i < n; i++) {
		fx o = FX(opt[i]), bo;

		if (best < 0) {
			best = i;
			continue;
		}
		bo = FX(opt[best]);
		if (llabs((long long)o - want) < llabs((long long)bo - want) ||
		    (llabs((long long)o - want) == llabs((long long)bo - want) &&
		    o < bo))
			best = i;
	}
	if (woods != T_FOREST)
		how = opt[best] == a + d && n == 4 ? "the sum" :
		    opt[best] == abs(a - d) ? "the difference" : "one die";
	b7_ev(c, EV_MOVE, u, -1, opt[best], B7_M_ROLLS_MOVE_TAKES, un->name, a,
	    d, how, opt[best]);
	return FX(opt[best]);
}

/* How far unit u's move action takes it along bearing dir when it wants
 * to go `want` (cavalry rolls its dice here, and must go exactly as far
 * as the option it takes: *exact set); -1 (with an event) if it may not
 * move at all. */
fx
b7_allowance(struct ctx *c, int u, int dir, fx want, int *exact)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	struct pt cen;
	int woods, form = unit_form(b, u);
	fx allow;

	*exact = 0;
	c->woods_cost[u] = 0;
	if (!battle_unit_centre(b, u, &cen))
		return -1;
	if (un->kind == KIND_ARTILLERY && form != FORM_ROAD &&
	    un->weapon == WEAPON_HEAVY_GUN) {
		b7_ev(c, EV_ORDER_REFUSED, u, -1, 0,
		    B7_M_DOES_NOT_MOVE_UNLIMBERED, un->name);
		return -1;
	}
	if (un->kind == KIND_ARTILLERY && form != FORM_ROAD &&
	    (un->state[B7_MARKS] & UM_MOVED)) {
		b7_ev(c, EV_ORDER_REFUSED, u, -1, 0, B7_M_DOES_NOT_MOVE_AGAIN,
		    un->name);
		return -1;
	}
	if (un->kind == KIND_MOUNTED && form != FORM_ROAD) {
		/* The woods on the way as far as the longest option could go. */
		woods = b7_woods_on(c, u, dir, want < FX(24) ? want : FX(24));
		*exact = 1;
		return cavalry_move(c, u, woods, want);
	}
	allow = b7_one_move(c, u);
	if (un->kind == KIND_ARTILLERY && form == FORM_ROAD)
		allow = P(c, "move.limbered.road");
	/* The woods on the part of the way the unit can cover. */
	woods = b7_woods_on(c, u, dir, want < allow ? want : allow);
	allow = b7_one_move(c, u);
	if (un->kind == KIND_ARTILLERY && form == FORM_ROAD &&
	    on_road(c, cen) && on_road(c, geom_offset(cen, dir,
	    want < P(c, "move.limbered.road") ? want :
	    P(c, "move.limbered.road"))))
		allow = P(c, "move.limbered.road");
	/* The text takes inches off infantry and guns; cavalry in column
	 * has no dice for the woods to limit. */
	if (woods >= 0 && un->kind != KIND_MOUNTED) {
		c->woods_cost[u] = woods == T_FOREST ? P(c, "woods.heavy") :
		    P(c, "woods.light");
		allow -= c->woods_cost[u];
	}
	return allow < 0 ? 0 : allow;
}

/* The unit turns to face dir unless that is within its front. */
void
b7_face_towards(struct ctx *c, int u, int dir)
{
	if (abs(geom_turn(unit_facing(c->b, u), dir)) <= P(c, "arc"))
		return;
	b7_turn_in_place(c->b, u, dir);
}

/* Unit u's move of went to now: in woods or not (what they took of it),
 * and stopped or not (at the table's edge, or by a unit in the way). */
static void
move_event(struct ctx *c, int u, fx went, struct pt now, int stopped)
{
	const struct battle *b = c->b;
	const char *n = b->units[u].name, *d = fmt_in(c, 0, went),
	    *x = fmt_in(c, 1, now.x), *y = fmt_in(c, 2, now.y),
	    *wd = fmt_in(c, 3, c->woods_cost[u]);
	int by = c->stopped_by[u], woods = c->woods_cost[u] > 0;

	if (!stopped && !woods)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES, n, d, x, y);
	else if (!stopped)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_IN_WOODS, n, d, x,
		    y, wd);
	else if (by >= 0 && !woods)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_STOPPED_BY, n, d, x,
		    y, b->units[by].name);
	else if (by >= 0)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_IN_WOODS_STOPPED_BY,
		    n, d, x, y, wd, b->units[by].name);
	else if (by == -2 && !woods)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_TO_THE_EDGE, n, d,
		    x, y);
	else if (by == -2)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_IN_WOODS_TO_THE_EDGE,
		    n, d, x, y, wd);
	else if (!woods)
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_STOPPED, n, d, x, y);
	else
		b7_ev(c, EV_MOVE, u, -1, (int)went, B7_M_MOVES_IN_WOODS_STOPPED, n,
		    d, x, y, wd);
}

int
b7_move_goal(const struct battle *b, int u, const struct order_step *st,
    struct pt *cen, int *dir, fx *want)
{
	if (!battle_unit_centre(b, u, cen))
		return 0;
	if (st->verb == V_MOVE_TO) {
		*dir = geom_bearing(*cen, st->pt);
		*want = geom_dist(*cen, st->pt);
	} else {
		*dir = unit_facing(b, u);
		*want = st->dist;
	}
	return 1;
}

/* One move action towards dest (MOVE TO) or straight ahead `dist`
 * (ADVANCE: dest unused). */
static void
move_action(struct ctx *c, int u, const struct order_step *st)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	struct pt cen;
	int dir, exact;
	fx want, allow;

	if (!b7_move_goal(b, u, st, &cen, &dir, &want))
		return;
	allow = b7_allowance(c, u, dir, want, &exact);
	if (allow < 0)
		return;
	if (exact || want > allow)
		want = allow;
	b7_face_towards(c, u, dir);
	{
		fx went = b7_move_along(c, u, dir, want);
		struct pt now;

		battle_unit_centre(b, u, &now);
		move_event(c, u, went, now, went < want);
		if (went == 0)
			un->state[B7_MARKS] |= UM_MOVED;   /* its one move, if guns */
	}
}

static void
turn_action(struct ctx *c, int u, int to)
{
	struct battle *b = c->b;

	b7_turn_in_place(b, u, to);
	b7_ev(c, EV_FACING, u, -1, geom_norm(to), B7_M_TURNS_TO_FACE,
	    b->units[u].name, geom_norm(to));
}

/* Lays the unit's bases out about its centre: side by side across its
 * facing, or one behind another in column. */
static void
lay_out(struct battle *b, int u, struct pt cen, int column)
{
	int s, n = battle_unit_alive(b, u), i = 0, facing = unit_facing(b, u);

	FOR_STANDS(b, u, s) {
		fx w, d, off;

		if (!alive(b, s))
			continue;
		battle_stand_size(b, s, &w, &d);
		if (column) {
			off = (fx)((int64_t)(n - 1 - 2 * i) * d / 2);
			b->stands[s].pos = geom_offset(cen, facing, off);
		} else {
			off = (fx)((int64_t)(2 * i - (n - 1)) * w / 2);
			b->stands[s].pos = geom_offset(cen, facing + 90, off);
		}
		i++;
	}
	battle_unit_moved(b, u);
}

void
b7_form_action(struct ctx *c, int u, enum formation f)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	struct stand *save;
	struct pt cen;
	int s, was = unit_form(b, u);

	if (!battle_unit_centre(b, u, &cen))
		return;
	save = malloc((size_t)un->nstands * sizeof(save[0]));
	if (save == NULL) {
		c->failed = 1;
		return;
	}
	memcpy(save, &b->stands[un->first_stand],
	    (size_t)un->nstands * sizeof(save[0]));
	FOR_STANDS(b, u, s)
		b->stands[s].form = f;
	battle_unit_moved(b, u);       /* a column's bases reach further */
	/* Infantry and cavalry change their frontage: into a column one
	 * base behind another, out of it side by side again. */
	if (un->kind != KIND_ARTILLERY && (f == FORM_ROAD) != (was == FORM_ROAD)) {
		lay_out(b, u, cen, f == FORM_ROAD);
		if (blocked(c, u)) {
			memcpy(&b->stands[un->first_stand], save,
			    (size_t)un->nstands * sizeof(save[0]));
			battle_unit_moved(b, u);
			free(save);
			b7_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    B7_M_NO_ROOM_TO_FORM, un->name);
			return;
		}
	}
	free(save);
	un->state[B7_DENSITY] = f == FORM_SKIRMISH ? P(c, "density.min") : un->rules[B7_DENSITY0];
	if (un->kind == KIND_ARTILLERY && f == FORM_ROAD)
		b7_ev(c, EV_MOVE, u, -1, 0, B7_M_LIMBERS_GUNS, un->name);
	else if (un->kind == KIND_ARTILLERY)
		b7_ev(c, EV_MOVE, u, -1, 0, B7_M_UNLIMBERS_GUNS, un->name);
	else
		b7_ev(c, EV_MOVE, u, -1, un->state[B7_DENSITY], B7_M_FORMS_DENSITY,
		    un->name, f == FORM_ROAD ? "column" : f == FORM_SKIRMISH ?
		    "dispersed" : "line", un->state[B7_DENSITY]);
}

/* --- activation ---------------------------------------------------------- */

static const char *
verb_word(int v)
{
	int i;

	for (i = 0; i < bb7_nverbs; i++)
		if (bb7_verbs[i].verb == v)
			return bb7_verbs[i].word;
	return "?";
}

/* A commander rides where he is sent, up to move.commander, over any
 * ground and past any unit (the text moves only units: a default). */
void
b7_commander_order(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	struct commander *k = &b->commanders[o->who];
	int i;

	/* gone, or not come on yet */
	if (k->gone || k->out_removed)
		return;
	for (i = 0; i < o->nsteps; i++) {
		fx d, go;
		struct pt to;

		if (o->steps[i].verb != V_MOVE_TO)
			continue;
		d = geom_dist(k->pos, o->steps[i].pt);
		go = d < P(c, "move.commander") ? d : P(c, "move.commander");
		/* Exactly there when he can reach it (bearings are whole
		 * degrees). */
		to = go == d ? o->steps[i].pt : geom_offset(k->pos,
		    geom_bearing(k->pos, o->steps[i].pt), go);
		if (to.x < 0)
			to.x = 0;
		if (to.y < 0)
			to.y = 0;
		if (to.x > b->width)
			to.x = b->width;
		if (to.y > b->depth)
			to.y = b->depth;
		k->pos = to;
		b7_ev(c, EV_COMMANDER, -1, -1, (int)go, B7_M_RIDES,
		    k->name, fmt_in(c, 0, go), fmt_in(c, 1, to.x),
		    fmt_in(c, 2, to.y));
		/* Told to his side (the event was stored unless the list
		 * is full or out of memory). */
		if (c->ev->n > 0 && !c->ev->overflow)
			c->ev->v[c->ev->n - 1].side = k->side;
		break;
	}
}

/* Gun g of battery u rolls a d12 to make up its ammunition. */
static void
resupply_gun(struct ctx *c, int u, int g)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int r = b7_roll(c, 12, u, B7_R_RESUPPLY_GUN, un->name,
	    g - un->first_stand + 1, P(c, "resupply.on"));

	if (r <= P(c, "resupply.on")) {
		b->stands[g].flags &= ~(ST_LOW_CANISTER | ST_LOW_ROUNDSHOT);
		b7_ev(c, EV_RALLY, u, -1, r, B7_M_GUN_RESUPPLIED, un->name,
		    g - un->first_stand + 1);
	} else {
		b7_ev(c, EV_RALLY, u, -1, r, B7_M_GUN_WAITS_AMMUNITION,
		    un->name, g - un->first_stand + 1);
	}
}

static int
gun_is_low(const struct battle *b, int g)
{
	return alive(b, g) && (b->stands[g].flags &
	    (ST_LOW_CANISTER | ST_LOW_ROUNDSHOT)) != 0;
}

static void
not_done(struct ctx *c, int u, const struct order_step *st, int i)
{
	b7_ev(c, EV_ORDER_REFUSED, u, -1, i + 1, B7_M_NO_ACTION_LEFT,
	    c->b->units[u].name, verb_word(st->verb),
	    i + 1);
}

/* One part of a unit's orders, one action (guns: the guns marked, NULL
 * for all). */
static void
do_part(struct ctx *c, int u, const struct order_step *st, int no_pursuit,
    const unsigned char *guns)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];

	switch (st->verb) {
	case V_MOVE_TO:
	case V_ADVANCE:
		move_action(c, u, st);
		break;
	case V_WHEEL:
		turn_action(c, u, unit_facing(b, u) + st->angle);
		break;
	case V_FACE:
		turn_action(c, u, st->angle);
		break;
	case V_FORM:
		b7_form_action(c, u, st->form);
		break;
	case V_FIRE_AT:
		b7_shoot_action(c, u, st->target, guns);
		break;
	case V_CHARGE:
		b7_charge_action(c, u, st->target, !no_pursuit);
		break;
	case B7_V_DENSITY: {
		int n = st->angle;

		/* The text: bases may be spread out to lower the density,
		 * never below 3; closing up again goes back to the formed
		 * density at most. */
		if (n < P(c, "density.min") || n > un->rules[B7_DENSITY0]) {
			b7_ev(c, EV_ORDER_REFUSED, u, -1, n,
			    B7_M_CANNOT_TAKE_DENSITY, un->name, n,
			    P(c, "density.min"), un->rules[B7_DENSITY0]);
			break;
		}
		if (n < un->state[B7_DENSITY])
			b7_ev(c, EV_MOVE, u, -1, n, B7_M_OPENS_FILES_DENSITY,
			    un->name, n);
		else if (n > un->state[B7_DENSITY])
			b7_ev(c, EV_MOVE, u, -1, n, B7_M_CLOSES_FILES_DENSITY,
			    un->name, n);
		else
			b7_ev(c, EV_MOVE, u, -1, n, B7_M_KEEPS_DENSITY,
			    un->name,
			    n);
		un->state[B7_DENSITY] = n;
		break;
	}
	case V_RALLY:
		if (un->state[B7_DISRUPTION] > 0) {
			un->state[B7_DISRUPTION]--;
			b7_ev(c, EV_RALLY, u, -1, un->state[B7_DISRUPTION],
			    B7_M_RALLIES_DISRUPTION_LEFT, un->name,
			    un->state[B7_DISRUPTION],
			    un->state[B7_DISRUPTION] == 1 ? "point" : "points");
		} else {
			b7_ev(c, EV_RALLY, u, -1, 0, B7_M_RALLIES_NO_DISRUPTION,
			    un->name);
		}
		break;
	case B7_V_RESUPPLY: {
		int g = -1, s;

		if (un->kind != KIND_ARTILLERY) {
			b7_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    B7_M_NO_GUNS_TO_RESUPPLY, un->name);
			break;
		}
		/* The action is for one gun: the first that is low. */
		FOR_STANDS(b, u, s)
			if (g < 0 && gun_is_low(b, s))
				g = s;
		if (g < 0)
			b7_ev(c, EV_RALLY, u, -1, 0, B7_M_NEEDS_NO_AMMUNITION,
			    un->name);
		else
			resupply_gun(c, u, g);
		break;
	}
	default:
		break;
	}
}

/* A battery's guns each take the battery's actions, through the parts
 * of its line: a RESUPPLY part is taken by a gun that is low and passed
 * over by one that is not, so one gun may resupply while the others
 * shoot.  The guns that come to a SHOOT in the same action shoot it
 * together; any other part (a move, a formation, a rally) is the whole
 * battery's, taken once. */
static void
battery_actions(struct ctx *c, int u, const struct order *o, int actions,
    int no_pursuit)
{
	struct battle *b = c->b;
	int next[BATTLE_MAX_STANDS], a, s, i;
	unsigned char *guns = calloc(BATTLE_MAX_STANDS, 1);
	unsigned char done[ORDER_MAX_STEPS];

	if (guns == NULL) {
		c->failed = 1;
		return;
	}
	memset(done, 0, sizeof(done));
	FOR_STANDS(b, u, s)
		next[s] = 0;
	for (a = 0; a < actions; a++) {
		int shoot_at = -1, unit_part = -1;

		memset(guns, 0, BATTLE_MAX_STANDS);
		FOR_STANDS(b, u, s) {
			const struct order_step *st;

			if (!alive(b, s))
				continue;
			/* Instructions, and resupply for a gun not low, are
			 * passed over. */
			while (next[s] < o->nsteps &&
			    (o->steps[next[s]].verb == V_NO_ADVANCE ||
			    o->steps[next[s]].verb == B7_V_DICE ||
			    (o->steps[next[s]].verb == B7_V_RESUPPLY &&
			    !gun_is_low(b, s))))
				next[s]++;
			if (next[s] >= o->nsteps)
				continue;
			st = &o->steps[next[s]];
			if (st->verb == B7_V_RESUPPLY) {
				resupply_gun(c, u, s);
			} else if (st->verb == V_FIRE_AT) {
				guns[s] = 1;
				shoot_at = next[s];
			} else if (unit_part < 0) {
				unit_part = next[s];
			}
			next[s]++;
		}
		if (shoot_at >= 0)
			do_part(c, u, &o->steps[shoot_at], no_pursuit, guns);
		if (unit_part >= 0 && !done[unit_part]) {
			done[unit_part] = 1;
			do_part(c, u, &o->steps[unit_part], no_pursuit, NULL);
		}
	}
	/* What no gun came to. */
	for (i = 0; i < o->nsteps; i++) {
		int reached = 0;

		FOR_STANDS(b, u, s)
			reached |= alive(b, s) && next[s] > i;
		if (!reached && o->steps[i].verb != V_NO_ADVANCE &&
		    o->steps[i].verb != B7_V_DICE && !(o->steps[i].verb == B7_V_RESUPPLY))
			not_done(c, u, &o->steps[i], i);
	}
	free(guns);
}

static void
activate(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	int u = o->who, i, hand, need, ok = 0, actions, cq, k;
	int no_pursuit = 0, part = 0, resupply = 0, hold = 0;
	struct unit *un = &b->units[u];

	if (battle_unit_alive(b, u) == 0)
		return;
	for (i = 0; i < o->nsteps; i++)
		hold |= o->steps[i].verb == V_HOLD;
	/* HOLD anywhere in the line: the unit does not activate. */
	if (hold) {
		b7_ev(c, EV_STATIONARY, u, -1, 0, B7_M_HOLDS,
		    un->name);
		return;
	}
	hand = P(c, "hand") - (un->state[B7_DISRUPTION] < P(c, "hand.dp-max") ?
	    un->state[B7_DISRUPTION] : P(c, "hand.dp-max"));
	cq = b7_command_quality(c, u, &k);
	need = un->rules[B7_QUALITY] + cq;
	for (i = 0; i < hand; i++)
		if (b7_roll(c, 12, u, B7_R_ACTIVATION_SUCCEEDS_LESS,
		    un->name, need) <= need)
			ok++;
	actions = ok >= P(c, "actions.three") ? 3 : ok >= P(c, "actions.two") ?
	    2 : ok >= P(c, "actions.one") ? 1 : 0;
	if (k >= 0)
		b7_ev(c, EV_COMMANDER, u, -1, actions,
		    B7_M_ACTIVATES_DICE_SUCCEED, un->name,
		    b->commanders[k].name, ok, hand, need, actions,
		    actions == 1 ? "action" : "actions");
	else
		b7_ev(c, EV_COMMANDER, u, -1, actions, B7_M_ACTIVATES_ALONE,
		    un->name, ok, hand, need, actions, actions == 1 ? "action" :
		    "actions");
	if (actions == 0) {
		b7_morale_check(c, u, "no success on activation", 0);
		return;
	}
	/* NO PURSUIT and DICE are instructions for the phase, not actions. */
	c->dice_cap[u] = 0;
	for (i = 0; i < o->nsteps; i++) {
		no_pursuit |= o->steps[i].verb == V_NO_ADVANCE;
		if (o->steps[i].verb == B7_V_DICE)
			c->dice_cap[u] = o->steps[i].angle;
		resupply |= o->steps[i].verb == B7_V_RESUPPLY;
	}
	/* A battery whose orders resupply works gun by gun. */
	if (un->kind == KIND_ARTILLERY && resupply &&
	    battle_unit_alive(b, u) > 1) {
		battery_actions(c, u, o, actions, no_pursuit);
		return;
	}
	for (i = 0; i < o->nsteps && battle_unit_alive(b, u) > 0; i++) {
		const struct order_step *st = &o->steps[i];

		if (st->verb == V_NO_ADVANCE || st->verb == B7_V_DICE)
			continue;
		if (part++ >= actions) {
			not_done(c, u, st, i);
			continue;
		}
		do_part(c, u, st, no_pursuit, NULL);
	}
}

int
bb7_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *evs, struct err *e)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const struct order_set *mine = NULL;
	int i, u, clock, rc = -1;

	if (c == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	c->b = b;
	c->d = d;
	c->ev = evs;
	c->step = step;
	battle_ground_index(b);
	battle_units_index(b);
	c->turn = battle_step_turn(b, step);
	c->side = battle_step_side(b, step);
	for (i = 0; i < BATTLE_MAX_UNITS; i++)
		c->shot[i] = -1;
	for (i = 0; i < nsets; i++)
		if (orders[i].side == c->side)
			mine = &orders[i];
	clock = b->first_minute + (c->turn - 1) * b->minutes;
	events_phase(evs, c->side, c->turn, b->sides[c->side].id, clock,
	    b->sides[c->side].name);
	/* The side's units start their phase having neither moved nor
	 * shot (a rout in the enemy's phase does not use up a gun's one
	 * move). */
	for (u = 0; u < b->nunits; u++)
		if (b->units[u].side == c->side)
			b->units[u].state[B7_MARKS] &= ~(UM_SHOT | UM_MOVED);
	/* A new game turn: every unit's first hit counts again. */
	if (c->side == b->side_order[0])
		for (u = 0; u < b->nunits; u++)
			b->units[u].state[B7_MARKS] &= ~UM_HIT;
	for (i = 0; mine != NULL && i < mine->n; i++) {
		if (mine->orders[i].special != 0)
			continue;
		if (mine->orders[i].is_commander)
			b7_commander_order(c, &mine->orders[i]);
		else
			activate(c, &mine->orders[i]);
	}
	/* Each brigade's figures lost. */
	for (i = 0; i < b->nbrigades; i++) {
		int now = 0;

		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == i)
				now += figures(b, u);
		b->brigades[i].lost = b->brigades[i].sp0 - now;
	}
	/* Smoke stays only over a unit that shot this phase. */
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];

		if (un->side != c->side)
			continue;
		if (!(un->state[B7_MARKS] & UM_SHOT))
			un->state[B7_MARKS] &= ~UM_SMOKE;
	}
	if (d->failed) {
		*e = d->err;
		goto out;
	}
	if (c->failed) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if (evs->overflow) {
		err_set(e, ERR_INTERNAL, "the step went past the engine's limit of "
		    "events; nothing was changed");
		goto out;
	}
	rc = 0;
out:
	/* Nothing after the step keeps the index true. */
	battle_units_unindex(b);
	free(c);
	return rc;
}

void
bb7_unit_number_set(struct battle *b, int u, int k, int v)
{
	if (k == B7_N_QUALITY)
		b->units[u].rules[B7_QUALITY] = v;
	else
		b->units[u].state[B7_DENSITY] = v;
}

int
bb7_prepare(struct battle *b, struct err *e)
{
	int u, k;

	if (b->sequence != SEQ_ALTERNATE)
		return err_set(e, ERR_USER, "bb7 plays in alternate phases: write "
		    "'sequence alternate SIDE SIDE'");
	/* A unit's quality and density: the scenario's, else its troop
	 * type's; it forms at that density. */
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];
		const struct troop_type *t = ruleset_type(&ruleset_bb7, un->type);

		if (un->rules[B7_QUALITY] == 0 && t != NULL)
			un->rules[B7_QUALITY] = t->numbers[B7_N_QUALITY];
		if (un->state[B7_DENSITY] == 0 && t != NULL)
			un->state[B7_DENSITY] = t->numbers[B7_N_DENSITY];
		un->rules[B7_DENSITY0] = un->state[B7_DENSITY];
	}
	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].quality == 0)
			b->commanders[k].quality = ruleset_param(&ruleset_bb7, b,
			    "command.quality");
	/* A brigade's strength is its figures. */
	for (k = 0; k < b->nbrigades; k++) {
		b->brigades[k].sp0 = 0;
		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == k)
				b->brigades[k].sp0 += figures(b, u);
	}
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];

		if (un->weapon != WEAPON_MUSKET && un->weapon != WEAPON_RIFLE &&
		    un->weapon != WEAPON_CARBINE && un->weapon != WEAPON_NONE &&
		    un->weapon != WEAPON_LIGHT_GUN && un->weapon != WEAPON_FIELD_GUN &&
		    un->weapon != WEAPON_HEAVY_GUN)
			return err_set(e, ERR_USER, "unit \"%s\": bb7 has no %s (its "
			    "weapons: musket, rifle, carbine, light-gun, field-gun, "
			    "heavy-gun)", un->name, ruleset_weapon_name(&ruleset_bb7, un->weapon));
		if (un->rules[B7_QUALITY] < 1 || un->state[B7_DENSITY] < 3)
			return err_set(e, ERR_USER, "unit \"%s\" needs a quality "
			    "(1-5) and a density (3-7)", un->name);
	}
	/* A unit placed dispersed is at the least density; its formed
	 * density is what it returns to.  One placed in column stands in
	 * column, its bases one behind another about its centre. */
	for (u = 0; u < b->nunits; u++) {
		struct pt cen;

		if (unit_form(b, u) == FORM_SKIRMISH)
			b->units[u].state[B7_DENSITY] = ruleset_param(&ruleset_bb7, b,
			    "density.min");
		if (unit_form(b, u) == FORM_ROAD &&
		    b->units[u].kind != KIND_ARTILLERY &&
		    battle_unit_centre(b, u, &cen)) {
			int v;

			lay_out(b, u, cen, 1);
			for (v = 0; v < b->nunits; v++)
				if (v != u && battle_unit_gap(b, u, v) == 0)
					return err_set(e, ERR_USER, "unit \"%s\" in column "
					    "(its bases one behind another) stands on \"%s\"",
					    b->units[u].name, b->units[v].name);
		}
	}
	return 0;
}

/* How many of battery u's guns are low on that ammunition. */
static int
guns_low(const struct battle *b, int u, unsigned ammo)
{
	int s, n = 0;

	FOR_STANDS(b, u, s)
		n += alive(b, s) && (b->stands[s].flags & ammo);
	return n;
}

/* ", guns 1 and 2 low on canister" for the battery's low guns, or "". */
static const char *
low_note(const struct battle *b, int u, unsigned ammo, const char *what,
    char *buf, size_t size)
{
	int s, n = 0, low[64];
	size_t k;

	buf[0] = '\0';
	FOR_STANDS(b, u, s)
		if (alive(b, s) && (b->stands[s].flags & ammo) && n < 64)
			low[n++] = s - b->units[u].first_stand + 1;
	if (n == 0)
		return buf;
	k = (size_t)snprintf(buf, size, ", gun%s", n > 1 ? "s" : "");
	for (s = 0; s < n && k < size; s++)
		k += (size_t)snprintf(buf + k, size - k, "%s%d", s == 0 ? " " :
		    s == n - 1 ? " and " : ", ", low[s]);
	if (k < size)
		snprintf(buf + k, size - k, " low on %s", what);
	return buf;
}

const char *
bb7_form_word(const struct battle *b, int u, enum formation f)
{
	if (b->units[u].kind == KIND_ARTILLERY)
		return f == FORM_ROAD ? "LIMBERED" : "UNLIMBERED";
	return f == FORM_ROAD ? "COLUMN" : f == FORM_SKIRMISH ? "DISPERSED" :
	    "LINE";
}

const char *
bb7_form_phrase(const struct battle *b, int u)
{
	int f = unit_form(b, u);

	if (b->units[u].kind == KIND_ARTILLERY)
		return f == FORM_ROAD ? "limbered" : "unlimbered";
	return f == FORM_ROAD ? "in column" : f == FORM_SKIRMISH ? "dispersed" :
	    "";
}

fx
b7_longest_range(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	const char *w = ruleset_weapon_name(&ruleset_bb7, un->weapon);
	char name[48];
	fx best = -1;
	int n;

	if (un->kind == KIND_ARTILLERY) {
		for (n = 1; n <= 4; n++) {
			snprintf(name, sizeof(name), "gun.%s.%d", un->weapon ==
			    WEAPON_LIGHT_GUN ? "light" : un->weapon == WEAPON_HEAVY_GUN ?
			    "heavy" : "field", n);
			if (ruleset_has_param(&ruleset_bb7, name) &&
			    ruleset_param(&ruleset_bb7, b, name) > best)
				best = ruleset_param(&ruleset_bb7, b, name);
		}
		return best;
	}
	snprintf(name, sizeof(name), "range.%s.long", w);
	if (ruleset_has_param(&ruleset_bb7, name))
		best = ruleset_param(&ruleset_bb7, b, name);
	snprintf(name, sizeof(name), "range.%s.close", w);
	if (ruleset_has_param(&ruleset_bb7, name) &&
	    ruleset_param(&ruleset_bb7, b, name) > best)
		best = ruleset_param(&ruleset_bb7, b, name);
	return best;
}

/* The line of unit u's situation that names the nearest enemy its side
 * sees (seen: a flag a stand, NULL for all), and whether u could shoot
 * at it as the table stands. */
static void
nearest_line(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size)
{
	const struct unit *un = &b->units[u];
	struct pt uc, tc;
	fx best = -1, reach;
	int v, s, near = -1, brg;
	char w1[24], w2[24];

	for (v = 0; v < b->nunits; v++) {
		int shown = seen == NULL;
		fx g;

		if (b->units[v].side == un->side || battle_unit_alive(b, v) == 0)
			continue;
		FOR_STANDS(b, v, s)
			if (alive(b, s) && seen != NULL && seen[s])
				shown = 1;
		if (!shown)
			continue;
		/* Measured to the stands the side sees, no others. */
		g = battle_unit_gap_seen(b, u, v, seen);
		if (g >= 0 && (best < 0 || g < best)) {
			best = g;
			near = v;
		}
	}
	if (near < 0 || !battle_unit_centre(b, u, &uc) ||
	    !battle_unit_centre_seen(b, near, seen, &tc)) {
		snprintf(out, size, "      no enemy in sight\n");
		return;
	}
	brg = geom_bearing(uc, tc);
	reach = b7_longest_range(b, u);
	snprintf(out, size, "      nearest enemy in sight: %s, %s\" off at "
	    "bearing %d,\n        %s\n", b->units[near].name,
	    geom_fmt_fx(best, w1, sizeof(w1)), brg, reach < 0 ?
	    "it has no weapon to shoot with" : best > reach ? "out of range" :
	    abs(geom_turn(unit_facing(b, u), brg)) >
	    ruleset_param(&ruleset_bb7, b, "arc") ?
	    "in range but not in front of it (FACE or WHEEL to shoot)" :
	    !b7_unit_sees(b, u, near) ? "in range but hidden by the woods" :
	    "in range");
	if (reach >= 0 && best > reach) {
		size_t k = strlen(out) - 1;

		snprintf(out + k, size - k, " (its %s reach%s %s\")\n",
		    un->kind == KIND_ARTILLERY ? "guns" :
		    ruleset_weapon_name(&ruleset_bb7, un->weapon), un->kind == KIND_ARTILLERY ?
		    "" : "es", geom_fmt_fx(reach, w2, sizeof(w2)));
	}
}

void
bb7_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size)
{
	const struct unit *un = &b->units[u];
	struct pt cen;
	int k, best = -1;
	char lc[48], lr[48];

	(void)seen;
	/* The disruption points are on the unit's line above. */
	snprintf(out, size, "      density %d%s%s%s\n", un->state[B7_DENSITY],
	    (un->state[B7_MARKS] & UM_SMOKE) ? ", in its smoke" : "",
	    low_note(b, u, ST_LOW_CANISTER, "canister", lc, sizeof(lc)),
	    low_note(b, u, ST_LOW_ROUNDSHOT, "roundshot", lr, sizeof(lr)));
	if (!battle_unit_centre(b, u, &cen))
		return;
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *m = &b->commanders[k];

		if (m->gone || m->out_until != 0 || !battle_in_chain(b, k, u) ||
		    geom_dist(m->pos, cen) > ruleset_param(&ruleset_bb7, b,
		    "command.radius"))
			continue;
		if (best < 0 || m->quality > b->commanders[best].quality)
			best = k;
	}
	{
		size_t n = strlen(out);

		int hand = ruleset_param(&ruleset_bb7, b, "hand") -
		    (un->state[B7_DISRUPTION] < ruleset_param(&ruleset_bb7, b, "hand.dp-max") ?
		    un->state[B7_DISRUPTION] : ruleset_param(&ruleset_bb7, b, "hand.dp-max"));

		char r[24];

		geom_fmt_fx(ruleset_param(&ruleset_bb7, b, "command.radius"), r,
		    sizeof(r));
		if (best >= 0)
			snprintf(out + n, size - n, "      activates with %d d12 on %d "
			    "or less (%s within %s\")\n", hand, un->rules[B7_QUALITY] +
			    b->commanders[best].quality, b->commanders[best].name, r);
		else
			snprintf(out + n, size - n, "      activates with %d d12 on %d "
			    "or less (no commander within %s\")\n", hand,
			    un->rules[B7_QUALITY], r);
		n = strlen(out);
		nearest_line(b, u, seen, out + n, size - n);
	}
}

void
bb7_crib(const struct battle *b, int side, char *out, size_t size)
{
	const struct ruleset *rs = &ruleset_bb7;
	char w[5][24];

	(void)side;
	snprintf(out, size,
	    "The numbers that decide your turn (bb7; the operator's 'despatch "
	    "rules bb7' lists\nevery number):\n"
	    "  Activation: a hand of %d d12, one fewer for each disruption point; "
	    "a die\n    succeeds at or below the unit's quality plus the "
	    "quality of a commander of\n    its chain within %s\" (centre to "
	    "centre). 1-2 successes: one action, 3-5: two,\n    6: three; none: "
	    "a morale check. The parts of the order line are the\n    actions, "
	    "in order.\n"
	    "  Moves: infantry 12\" less its density (column 12\"); cavalry two "
	    "d12 (column\n    18\"); limbered guns 8\" (12\" on a road), "
	    "unlimbered light 6\", field 4\".\n"
	    "  Ranges: musket %s\" close, %s\" long (+2); rifle %s\" long; "
	    "carbine %s\" close.\n    A shot hits at or below the target's "
	    "density; a 1 always hits.\n"
	    "  Melee: CHARGE; closing needs 3 successes at twice the quality; a "
	    "d12 for every\n    3 figures at quality plus density.\n",
	    ruleset_param(rs, b, "hand"),
	    geom_fmt_fx(ruleset_param(rs, b, "command.radius"), w[0], 24),
	    geom_fmt_fx(ruleset_param(rs, b, "range.musket.close"), w[1], 24),
	    geom_fmt_fx(ruleset_param(rs, b, "range.musket.long"), w[2], 24),
	    geom_fmt_fx(ruleset_param(rs, b, "range.rifle.long"), w[3], 24),
	    geom_fmt_fx(ruleset_param(rs, b, "range.carbine.close"), w[4], 24));
}

int
bb7_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f)
{
	const struct unit *un = &b->units[u];
	int n = 0, s, fig = 0;

	/* An enemy in a fog game: the figures of the bases in sight, its
	 * density, disruption markers and smoke, which the table shows;
	 * not its quality or its guns' ammunition. */
	if (seen != NULL) {
		FOR_STANDS(b, u, s)
			if (alive(b, s) && seen[s])
				fig += b->stands[s].sp;
		f[n++] = (struct unit_field){ "figures", FIELD_INT, fig };
		f[n++] = (struct unit_field){ "density", FIELD_INT, un->state[B7_DENSITY] };
		f[n++] = (struct unit_field){ "disruption_points", FIELD_INT,
		    un->state[B7_DISRUPTION] };
		f[n++] = (struct unit_field){ "smoke", FIELD_BOOL,
		    (un->state[B7_MARKS] & UM_SMOKE) != 0 };
		return n;
	}
	f[n++] = (struct unit_field){ "figures", FIELD_INT, figures(b, u) };
	f[n++] = (struct unit_field){ "quality", FIELD_INT, un->rules[B7_QUALITY] };
	f[n++] = (struct unit_field){ "density", FIELD_INT, un->state[B7_DENSITY] };
	f[n++] = (struct unit_field){ "disruption_points", FIELD_INT,
	    un->state[B7_DISRUPTION] };
	f[n++] = (struct unit_field){ "smoke", FIELD_BOOL,
	    (un->state[B7_MARKS] & UM_SMOKE) != 0 };
	f[n++] = (struct unit_field){ "low_canister", FIELD_INT,
	    guns_low(b, u, ST_LOW_CANISTER) };
	f[n++] = (struct unit_field){ "low_roundshot", FIELD_INT,
	    guns_low(b, u, ST_LOW_ROUNDSHOT) };
	f[n++] = (struct unit_field){ "frontage", FIELD_INCHES, un->base_w };
	return n;
}

void
bb7_unit_marks(const struct battle *b, int u, struct ruleset_marks *m)
{
	const struct unit *un = &b->units[u];
	int dp = un->state[B7_DISRUPTION];

	if (dp > 0) {
		snprintf(m->label, sizeof(m->label), "%d DP", dp);
		snprintf(m->state, sizeof(m->state), "%d disruption point%s", dp,
		    dp == 1 ? "" : "s");
	}
	if (un->rules[B7_QUALITY] > 0)
		snprintf(m->rated, sizeof(m->rated), "quality %d",
		    un->rules[B7_QUALITY]);
	m->clouded = (un->state[B7_MARKS] & UM_SMOKE) != 0;
}

int
bb7_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize)
{
	const struct unit *u = &b->units[who];
	int guns = u->kind == KIND_ARTILLERY;
	int gun_word = strcasecmp(word, "LIMBERED") == 0 ||
	    strcasecmp(word, "UNLIMBERED") == 0;
	int troop_word = strcasecmp(word, "LINE") == 0 ||
	    strcasecmp(word, "COLUMN") == 0 || strcasecmp(word, "DISPERSED") == 0;

	/* bb7's own words: guns limber and unlimber, troops form line,
	 * column or (infantry) dispersed. */
	if ((guns && gun_word) || (!guns && troop_word &&
	    (f != FORM_SKIRMISH || u->kind == KIND_INFANTRY)))
		return 0;
	snprintf(msg, msize, "%s cannot form %s: %s", u->name, word,
	    u->kind == KIND_ARTILLERY ? "guns are LIMBERED or UNLIMBERED" :
	    u->kind == KIND_MOUNTED ? "cavalry forms LINE or COLUMN" :
	    "infantry forms LINE, COLUMN or DISPERSED");
	return -1;
}

/* Contract (struct ruleset): what no table can make possible. */
int
bb7_step_check(const struct battle *b, int who, int is_cmd,
    const struct order_step *st, char *msg, size_t msize)
{
	const struct unit *u;
	int guns, lo;

	if (is_cmd)
		return 0;
	u = &b->units[who];
	guns = u->kind == KIND_ARTILLERY;
	lo = ruleset_param(&ruleset_bb7, b, "density.min");
	switch (st->verb) {
	case V_CHARGE:
		if (!guns)
			return 0;
		snprintf(msg, msize, "%s cannot CHARGE: guns do not charge (they "
		    "SHOOT, or MOVE TO when limbered)", u->name);
		return -1;
	case B7_V_RESUPPLY:
	case B7_V_DICE:
		if (guns)
			return 0;
		snprintf(msg, msize, "%s is for guns, and %s has none (%s)",
		    st->verb == B7_V_DICE ? "DICE" : "RESUPPLY", u->name,
		    st->verb == B7_V_DICE ? "small arms roll a die for every 6 "
		    "figures" : "troops with muskets do not run low");
		return -1;
	case B7_V_DENSITY:
		if (guns) {
			snprintf(msg, msize, "%s cannot take a DENSITY: guns have "
			    "none", u->name);
			return -1;
		}
		if (st->angle >= lo && st->angle <= u->rules[B7_DENSITY0])
			return 0;
		if (lo == u->rules[B7_DENSITY0])
			snprintf(msg, msize, "%s keeps density %d: it cannot open or "
			    "close its files", u->name, lo);
		else
			snprintf(msg, msize, "%s may take a density from %d to its "
			    "formed %d, for example \"DENSITY %d\"", u->name, lo,
			    u->rules[B7_DENSITY0], lo);
		return -1;
	default:
		return 0;
	}
}
