/*
 * bb3.c - adjudicating a player turn of Bloodybacks 3 (shared/seeds/002):
 * the initiative, panic tests, rallying, charges and the responses to
 * them, movement by a d10 command roll, and the officers' ride.  Firing,
 * melee, morale and the reform are bb3_combat.c's.
 *
 * docs/rules-bb3.md describes, in our words, what this file does and
 * which reading it takes where the text is silent or lost its numbers;
 * tests/rules/bb3/ pins each paragraph with worked cases.  The numbers
 * live in bb3_data.c.
 *
 * Pure: the state, the orders and a dice source in; the state changed and
 * events out.  No clock, no I/O, integers only, every loop in a fixed
 * order (order lines, then scenario order).
 */
#include "rules/bb3_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void
b3_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	events_vsay(c->ev, k, unit >= 0 ? c->b->units[unit].side : -1, unit,
	    target, value, msg, types, fmt, ap);
	va_end(ap);
}

int
b3_roll(struct ctx *c, int sides, int unit, const char *msg,
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

/* --- the table --------------------------------------------------------- */

void
b3_set_flags(struct battle *b, int u, unsigned set, unsigned clear)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s))
			b->stands[s].flags = (b->stands[s].flags & ~clear) | set;
}

/* The unit leaves the field: its stands are gone, its officers with it
 * are killed. */
void
b3_remove(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int s, k;

	FOR_STANDS(b, u, s)
		b->stands[s].flags |= ST_GONE;
	battle_unit_moved(b, u);
	b3_ev(c, EV_ELIMINATED, u, -1, 0, B3_M_REMOVED, b->units[u].name);
	/* An officer with the unit goes with it, and the players are told. */
	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].attached == u) {
			b->commanders[k].attached = -1;
			b->commanders[k].gone = 1;
			b3_ev(c, EV_COMMANDER, u, -1, k, B3_M_OFFICER_LOST,
			    b->commanders[k].name, b->units[u].name);
		}
}

/* The middle of the unit's front edge. */
struct pt
b3_front(const struct battle *b, int u)
{
	struct pt cen = { 0, 0 };
	fx w, d;
	int s;

	battle_unit_centre(b, u, &cen);
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &w, &d);
			if (b->stands[s].form == FORM_ROAD) {
				/* a column's front is its first stand's */
				return geom_offset(b->stands[s].pos, b->stands[s].facing,
				    d / 2);
			}
			return geom_offset(cen, b->stands[s].facing, d / 2);
		}
	return cen;
}

/* From point p to the nearest point of unit v's stands. */
fx
b3_point_gap(const struct battle *b, struct pt p, int v)
{
	fx best = -1;
	int s, i;

	FOR_STANDS(b, v, s) {
		struct pt r[4];
		fx g;

		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r);
		if (geom_in_poly(p, r, 4))
			return 0;
		for (i = 0; i < 4; i++) {
			g = geom_seg_dist(p, r[i], r[(i + 1) & 3]);
			if (best < 0 || g < best)
				best = g;
		}
	}
	return best;
}

/* The nearest enemy unit on the table (edge to edge), ties to the first;
 * its gap in *gap (-1: none). */
int
b3_nearest_enemy(const struct battle *b, int u, fx *gap)
{
	int v, who = -1;
	fx best = -1;

	for (v = 0; v < b->nunits; v++) {
		fx g;

		if (b->units[v].side == b->units[u].side || !on_table(b, v))
			continue;
		g = battle_unit_gap(b, u, v);
		if (g >= 0 && (best < 0 || g < best)) {
			best = g;
			who = v;
		}
	}
	if (gap != NULL)
		*gap = best;
	return who;
}

static int
woods_at(const struct battle *b, struct pt p)
{
	return battle_area_at(b, p, T_WOOD) || battle_area_at(b, p, T_FOREST) ||
	    battle_area_at(b, p, T_THICKET);
}

static int
built_at(const struct battle *b, struct pt p)
{
	return battle_area_at(b, p, T_TOWN) || battle_area_at(b, p, T_VILLAGE) ||
	    battle_area_at(b, p, T_WORKS);
}

int
b3_in_woods(const struct battle *b, int u)
{
	struct pt cen;

	return battle_unit_centre(b, u, &cen) && woods_at(b, cen);
}

/* In cover for morale: woods, a town or village, works. */
int
b3_in_cover(const struct battle *b, int u)
{
	struct pt cen;

	return battle_unit_centre(b, u, &cen) && (woods_at(b, cen) ||
	    built_at(b, cen));
}

/* 1 if the line a-z passes through no stand of a unit but u and t, and
 * through no more than sight.woods of woods or buildings. */
static int
clear_line(const struct battle *b, struct pt a, struct pt z, int u, int t)
{
	fx len = geom_dist(a, z), at, st = FX(0.25), in = 0;
	fx limit = ruleset_param(&ruleset_bb3, b, "sight.woods");
	int s, i;

	for (at = st / 2; at < len; at += st) {
		struct pt p = {
			a.x + (fx)((int64_t)(z.x - a.x) * at / (len > 0 ? len : 1)),
			a.y + (fx)((int64_t)(z.y - a.y) * at / (len > 0 ? len : 1))
		};

		if (woods_at(b, p) || built_at(b, p)) {
			in += st;
			if (in > limit)
				return 0;
		}
	}
	for (s = 0; s < b->nstands; s++) {
		struct pt r[4];

		if (!alive(b, s) || b->stands[s].unit == u ||
		    b->stands[s].unit == t)
			continue;
		battle_stand_rect(b, s, r);
		for (i = 0; i < 4; i++)
			if (geom_seg_cross(a, z, r[i], r[(i + 1) & 3]))
				return 0;
	}
	return 1;
}

int
b3_sees_unit(const struct battle *b, int u, int t)
{
	struct pt a = b3_front(b, u);
	int s;

	FOR_STANDS(b, t, s)
		if (alive(b, s) && clear_line(b, a, b->stands[s].pos, u, t))
			return 1;
	return 0;
}

void
bb3_sees(const struct battle *b, int side, unsigned char *seen)
{
	int s, v;

	for (s = 0; s < b->nstands; s++) {
		int t = b->stands[s].unit;

		seen[s] = 0;
		if (!alive(b, s))
			continue;
		if (b->units[t].side == side) {
			seen[s] = 1;
			continue;
		}
		for (v = 0; v < b->nunits && !seen[s]; v++)
			if (b->units[v].side == side && on_table(b, v) &&
			    clear_line(b, b3_front(b, v), b->stands[s].pos, v, t))
				seen[s] = 1;
	}
}

void
b3_turn_in_place(struct battle *b, int u, int to)
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

/* Lays the unit's stands out about cen: side by side across its facing,
 * touching, or (column) one behind another. */
void
b3_lay_out(struct battle *b, int u, struct pt cen, int column, int facing)
{
	int s, n = 0, i = 0;
	fx w = 0, d = 0;

	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			n++;
			b->stands[s].form = column ? FORM_ROAD :
			    b->stands[s].form == FORM_ROAD ? FORM_LINE :
			    b->stands[s].form;
			battle_stand_size(b, s, &w, &d);
		}
	FOR_STANDS(b, u, s) {
		fx off;

		if (!alive(b, s))
			continue;
		b->stands[s].facing = geom_norm(facing);
		if (column) {
			off = (fx)(((n - 1) * (int64_t)d) / 2 - i * (int64_t)d);
			b->stands[s].pos = geom_offset(cen, facing, off);
		} else {
			off = (fx)(i * (int64_t)w - ((n - 1) * (int64_t)w) / 2);
			b->stands[s].pos = geom_offset(cen, facing + 90, off);
		}
		i++;
	}
	battle_unit_moved(b, u);
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

/* In b3_move_along's gaps before a step: a friend the mover already
 * lies over, with their centres d apart, is B3_OVER - d; a step that
 * leaves it over the friend must take their centres further apart. */
#define B3_OVER (-5)

static fx
centres_apart(const struct battle *b, int u, int v)
{
	struct pt a, z;

	if (!battle_unit_centre(b, u, &a) || !battle_unit_centre(b, v, &z))
		return 0;
	return geom_dist(a, z);
}

/* 1 if a stand of u lies over a stand of v (not merely touching). */
int
b3_overlaps(const struct battle *b, int u, int v)
{
	int s, t;

	FOR_STANDS(b, u, s) {
		struct pt r[4], q[4];

		if (!alive(b, s))
			continue;
		battle_stand_rect_inset(b, s, FX(0.05), r);
		FOR_STANDS(b, v, t) {
			if (!alive(b, t))
				continue;
			battle_stand_rect_inset(b, t, FX(0.05), q);
			if (geom_rect_dist(r, q) == 0)
				return 1;
		}
	}
	return 0;
}

/* Whether the unit, where it stands, is off the table, on another unit,
 * or closer to an enemy than a move may take it (target: the enemy a
 * charge may touch).  The one that stops it in *who (-2: the edge). */
static int
blocked(struct ctx *c, int u, int target, int *who, const fx *before)
{
	struct battle *b = c->b;
	fx near = P(c, "move.stop");
	int v, s, i;

	FOR_STANDS(b, u, s) {
		struct pt r[4];

		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r);
		for (i = 0; i < 4; i++)
			if (r[i].x < 0 || r[i].y < 0 || r[i].x > b->width ||
			    r[i].y > b->depth) {
				*who = -2;
				return 1;
			}
	}
	for (v = 0; v < b->nunits; v++) {
		fx g;

		if (v == u || !on_table(b, v))
			continue;
		g = battle_unit_gap(b, u, v);
		if (g < 0)
			continue;
		/* (an enemy already as near, as a unit running from a melee
		 * has, stops only a step that comes nearer) */
		if (v != target && target != B3_ANY_ENEMY &&
		    b->units[v].side != b->units[u].side ?
		    g < near && (before == NULL || before[v] < 0 || g < before[v]) :
		    g == 0 && b3_overlaps(b, u, v) && (before == NULL ||
		    before[v] > B3_OVER || centres_apart(b, u, v) <=
		    B3_OVER - before[v])) {
			*who = v;
			return 1;
		}
	}
	return 0;
}

static int
difficult_at(const struct battle *b, struct pt p)
{
	return woods_at(b, p) || battle_area_at(b, p, T_SWAMP) ||
	    battle_area_at(b, p, T_MARSH) || battle_area_at(b, p, T_BROKEN) ||
	    battle_area_at(b, p, T_CROPS);
}

/* The line of kind k (a fence, a hedge, a stream, a river) that the
 * segment a-z crosses, or -1. */
int
b3_crosses(const struct battle *b, struct pt a, struct pt z,
    enum terrain_kind k)
{
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind != k)
			continue;
		/* (a step that starts on the line has crossed it already) */
		for (j = 0; j + 1 < t->npts; j++)
			if (geom_seg_cross(a, z, b->points[t->first_pt + j],
			    b->points[t->first_pt + j + 1]) &&
			    geom_seg_dist(a, b->points[t->first_pt + j],
			    b->points[t->first_pt + j + 1]) > 0)
				return i;
	}
	return -1;
}

/* The width of the ford at p (the long side of its box: the way across
 * the river, along its line), or -1. */
static fx
ford_width(const struct battle *b, struct pt p)
{
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		fx x0, y0, x1, y1, w, h;

		if (t->kind != T_FORD || !geom_in_poly(p, &b->points[t->first_pt],
		    t->npts))
			continue;
		x0 = x1 = b->points[t->first_pt].x;
		y0 = y1 = b->points[t->first_pt].y;
		for (j = 1; j < t->npts; j++) {
			const struct pt *q = &b->points[t->first_pt + j];

			x0 = q->x < x0 ? q->x : x0;
			x1 = q->x > x1 ? q->x : x1;
			y0 = q->y < y0 ? q->y : y0;
			y1 = q->y > y1 ? q->y : y1;
		}
		w = x1 - x0;
		h = y1 - y0;
		return w > h ? w : h;
	}
	return -1;
}

/* The unit's frontage: its stands' widths side by side. */
static fx
frontage(const struct battle *b, int u)
{
	fx w, d, n = 0;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &w, &d);
			n += b->stands[s].form == FORM_ROAD ? 0 : w;
			if (b->stands[s].form == FORM_ROAD && n == 0)
				n = w;
		}
	return n;
}

/* Whether the unit may cross the river it meets going from a to z: at a
 * bridge in column, at a ford in column or, as wide as its frontage, in
 * line. */
static int
may_cross_river(const struct battle *b, int u, struct pt z)
{
	int column = battle_unit_form(b, u) == FORM_ROAD;
	fx fw;

	if (battle_area_at(b, z, T_BRIDGE))
		return column;
	fw = ford_width(b, z);
	if (fw < 0)
		return 0;
	return column || fw >= frontage(b, u);
}

fx
b3_move_along(struct ctx *c, int u, int dir, fx len, int target, int *stop)
{
	return b3_move_upto(c, u, dir, -1, len, target, stop);
}

fx
b3_move_upto(struct ctx *c, int u, int dir, fx dist, fx len, int target,
    int *stop)
{
	struct battle *b = c->b;
	fx went = 0, paid = 0, st = FX(0.25);
	int cost = P(c, "terrain.cost"), free_woods, v;
	fx *before = c->gap_before;

	free_woods = (cls(b, u) & (B3C_SKIRMISH | B3C_LIGHT | B3C_NATIVE)) != 0;
	*stop = -1;
	while (paid < len && (dist < 0 || went < dist)) {
		struct pt o = { 0, 0 }, to = geom_offset(o, dir, st), a, z, fa, fz,
		    mid;
		fx price = st;
		int who;

		battle_unit_centre(b, u, &a);
		z.x = a.x + to.x;
		z.y = a.y + to.y;
		/* The ground of the step is where its middle lies. */
		mid.x = a.x + to.x / 2;
		mid.y = a.y + to.y / 2;
		if (difficult_at(b, mid) && !(free_woods && woods_at(b, mid) &&
		    !battle_area_at(b, mid, T_MARSH)))
			price = st * cost;
		fa = b3_front(b, u);
		fz.x = fa.x + to.x;
		fz.y = fa.y + to.y;
		if ((b3_crosses(b, a, z, T_RIVER) >= 0 ||
		    b3_crosses(b, fa, fz, T_RIVER) >= 0) &&
		    !may_cross_river(b, u, z) && !may_cross_river(b, u, fz)) {
			*stop = -3;
			break;
		}
		if (b3_crosses(b, a, z, T_FENCE) >= 0 ||
		    b3_crosses(b, a, z, T_HEDGE) >= 0 ||
		    b3_crosses(b, a, z, T_STREAM) >= 0)
			price += P(c, "obstacle.cost");
		if (paid + price > len || (dist >= 0 && went + st > dist))
			break;
		/* (a friend it already lies over, as a unit turned about to
		 * run may, does not hold it there: it may move off it) */
		for (v = 0; v < b->nunits; v++)
			before[v] = v == u || !on_table(b, v) ? -1 :
			    b->units[v].side != b->units[u].side ?
			    battle_unit_gap(b, u, v) : battle_unit_gap(b, u, v) == 0 &&
			    b3_overlaps(b, u, v) ? B3_OVER - centres_apart(b, u, v) : -1;
		translate(b, u, to.x, to.y);
		if (blocked(c, u, target, &who, before)) {
			translate(b, u, -to.x, -to.y);
			*stop = who;
			break;
		}
		paid += price;
		went += st;
		if (c->double_radius > 0) {
			int e;

			for (e = 0; e < b->nunits; e++)
				if (b->units[e].side != b->units[u].side && on_table(b, e) &&
				    battle_unit_gap_within(b, u, e, c->double_radius)) {
					c->double_broken = 1;
					break;
				}
			if (c->double_broken)
				break;
		}
		if (target >= 0 && battle_unit_gap_within(b, u, target, 0))
			break;
		if (target == B3_ANY_ENEMY) {
			int e, touch = 0;

			for (e = 0; e < b->nunits && !touch; e++)
				touch = b->units[e].side != b->units[u].side &&
				    on_table(b, e) && battle_unit_gap_within(b, u, e, 0);
			if (touch)
				break;
		}
	}
	c->last_paid = paid;
	return went;
}

/* --- the player turn: panic and rally ---------------------------------- */

/* The fleeing friends of u within panic.radius: how many, and the best
 * morale among them in *best. */
static int
fleeing_friends(const struct battle *b, int u, int *best,
    const unsigned char *fled)
{
	int v, n = 0;

	*best = 0;
	for (v = 0; v < b->nunits; v++) {
		if (v == u || b->units[v].side != b->units[u].side ||
		    !on_table(b, v) || !fled[v] ||
		    !battle_unit_gap_within(b, u, v,
		    ruleset_param(&ruleset_bb3, b, "panic.radius")))
			continue;
		n++;
		if (b->units[v].rules[B3_MORALE] > *best)
			*best = b->units[v].rules[B3_MORALE];
	}
	return n;
}

static void
panic_tests(struct ctx *c)
{
	struct battle *b = c->b;
	unsigned char fled[BATTLE_MAX_UNITS];
	int u, best;

	/* Who was fleeing as the turn began: one that breaks in a panic
	 * test sets off no other this turn. */
	for (u = 0; u < b->nunits; u++)
		fled[u] = (unsigned char)(on_table(b, u) && fleeing(b, u));
	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != c->side || !on_table(b, u) || fled[u] ||
		    fleeing_friends(b, u, &best, fled) == 0)
			continue;
		if (b3_morale(c, u, 0, 0, "panic"))
			continue;
		if (b->units[u].rules[B3_MORALE] <= best) {
			b3_ev(c, EV_ROUT, u, -1, 0, B3_M_PANIC_ROUTS, b->units[u].name);
			b3_break(c, u, -1);
		} else {
			b->units[u].state[B3_MARKS] |= B3M_PINNED;
			b3_ev(c, EV_STATIONARY, u, -1, 0, B3_M_PINNED, b->units[u].name);
		}
	}
}

/* A rallied unit's free FACE and FORM from its order line. */
static void
rally_stance(struct ctx *c, int u)
{
	const struct order *o = c->ord[u];
	int i;

	for (i = 0; o != NULL && i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		struct pt cen;

		if (st->verb == V_FACE)
			b3_turn_in_place(c->b, u, st->angle);
		else if (st->verb == V_FORM && (st->form == FORM_LINE ||
		    st->form == FORM_ROAD) && battle_unit_centre(c->b, u, &cen))
			b3_lay_out(c->b, u, cen, st->form == FORM_ROAD, facing_of(c->b, u));
	}
}

/* The nearest enemy unit u sees, else the nearest of all (-1: none). */
static int
nearest_seen_enemy(const struct battle *b, int u)
{
	int v, who = -1;
	fx best = -1;

	for (v = 0; v < b->nunits; v++) {
		fx g;

		if (b->units[v].side == b->units[u].side || !on_table(b, v) ||
		    !b3_sees_unit(b, u, v))
			continue;
		g = battle_unit_gap(b, u, v);
		if (g >= 0 && (best < 0 || g < best)) {
			best = g;
			who = v;
		}
	}
	return who >= 0 ? who : b3_nearest_enemy(b, u, NULL);
}

static void
rally(struct ctx *c)
{
	struct battle *b = c->b;
	int u;

	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != c->side || !on_table(b, u) || !fleeing(b, u))
			continue;
		if (b3_morale(c, u, 0, 0, "rally")) {
			b3_set_flags(b, u, 0, ST_ROUTED);
			b->units[u].state[B3_MARKS] |= B3M_RALLIED;
			b3_ev(c, EV_RALLY, u, -1, 0, B3_M_RALLIES, b->units[u].name);
			rally_stance(c, u);
		} else {
			b3_ev(c, EV_ROUT, u, -1, 0, B3_M_FAILS_TO_RALLY,
			    b->units[u].name);
			b3_run_from(c, u, nearest_seen_enemy(b, u));
		}
	}
}

/* --- charges ----------------------------------------------------------- */

int
b3_response_of(const struct battle *b, int u)
{
	const struct bb3_state *st = bb3_cstate(b);
	int r = st->response[u];

	if (r == B3R_NONE)
		r = st->side_response[b->units[u].side];
	if (r == B3R_NONE)
		r = B3R_STAND;
	if (r == B3R_EVADE && !(cls(b, u) & B3C_SKIRMISH))
		r = B3R_STAND;
	return r;
}

const char *const b3_response_words[B3R_COUNT] = {
	"none", "stand", "evade", "flee", "fire and flee", "about face"
};

/* Which face of t the charger u comes at: 0 front, 1 flank, 2 rear. */
static int
face_of(const struct battle *b, int u, int t)
{
	struct pt a, z;
	int off;

	battle_unit_centre(b, u, &a);
	battle_unit_centre(b, t, &z);
	off = geom_turn(facing_of(b, t), geom_bearing(z, a));
	off = off < 0 ? -off : off;
	return off <= 45 ? 0 : off > 135 ? 2 : 1;
}

/* The target answers the charge of u. */
static void
respond(struct ctx *c, int t, int u)
{
	struct battle *b = c->b;
	int r = b3_response_of(b, t), face = face_of(b, u, t);
	struct pt a, z;
	fx dist = 0;
	int i, n;

	c->responded[t] = 1;
	b3_ev(c, EV_FACING, t, u, r, B3_M_RESPONDS, b->units[t].name,
	    b3_response_words[r], b->units[u].name);
	if (r == B3R_STAND || r == B3R_FIRE_FLEE ||
	    (r == B3R_ABOUT_FACE && face == 0))
		b3_fire(c, t, u, 0, 0);
	if (r == B3R_ABOUT_FACE && face != 0) {
		battle_unit_centre(b, t, &z);
		battle_unit_centre(b, u, &a);
		b3_turn_in_place(b, t, geom_bearing(z, a));
		b3_fire(c, t, u, 1, 0);
	}
	if (r != B3R_EVADE && r != B3R_FLEE && r != B3R_FIRE_FLEE)
		return;
	if (!on_table(b, t))
		return;
	if (r == B3R_EVADE)
		for (i = 0; i < P(c, "evade.dice"); i++)
			dist += FX(b3_roll(c, 3, t, B3_R_EVADE, b->units[t].name));
	else if (r == B3R_FIRE_FLEE)
		for (i = 0; i < P(c, "fire-flee.dice"); i++)
			dist += FX(b3_roll(c, 3, t, B3_R_FALL_BACK, b->units[t].name));
	else {
		n = mounted(b, t) ? P(c, "flee.cavalry") : P(c, "flee.infantry");
		for (i = 0; i < n; i++)
			dist += FX(b3_roll(c, 6, t, B3_R_RUN, b->units[t].name));
	}
	battle_unit_centre(b, t, &z);
	battle_unit_centre(b, u, &a);
	if (r == B3R_FLEE) {
		b3_set_flags(b, t, ST_ROUTED, 0);
		b3_run(c, t, geom_bearing(a, z), dist);
	} else {
		int stop;
		fx went = b3_move_along(c, t, geom_bearing(a, z), dist, -1, &stop);

		battle_unit_centre(b, t, &z);
		b3_ev(c, EV_RETREAT, t, u, went, B3_M_FALLS_BACK, b->units[t].name,
		    fmt_in(c, 0, went), fmt_in(c, 1, z.x), fmt_in(c, 2, z.y));
	}
}

/* Puts charger u against face `face` of t, centred on it, facing it. */
static int
close_in(struct ctx *c, int u, int t, int face)
{
	struct battle *b = c->b;
	struct pt tc, to;
	fx w, td = 0, tw, ud = 0, half;
	int s, tf = facing_of(b, t), dir, v;

	battle_unit_centre(b, t, &tc);
	FOR_STANDS(b, t, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &tw, &td);
			break;
		}
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &w, &ud);
			break;
		}
	if (face == 0) {
		dir = tf;
		half = td / 2;
	} else if (face == 2) {
		dir = tf + 180;
		half = td / 2;
	} else {
		struct pt uc;

		battle_unit_centre(b, u, &uc);
		dir = geom_turn(tf, geom_bearing(tc, uc)) > 0 ? tf + 90 : tf - 90;
		half = frontage(b, t) / 2;
	}
	if (battle_unit_form(b, t) == FORM_ROAD && face == 0) {
		/* a column's front: its leading stand */
		half = (fx)(battle_unit_alive(b, t) * (int64_t)td / 2);
	}
	to = geom_offset(tc, dir, half + ud / 2 + (battle_unit_form(b, u) ==
	    FORM_ROAD ? (fx)((battle_unit_alive(b, u) - 1) * (int64_t)ud / 2) :
	    0));
	b3_lay_out(b, u, to, battle_unit_form(b, u) == FORM_ROAD, dir + 180);
	for (v = 0; v < b->nunits; v++)
		if (v != u && v != t && on_table(b, v) && b3_overlaps(b, u, v))
			return -1;
	return 0;
}

static void
charge(struct ctx *c, int u, int t)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct pt a, z;
	fx reach, went;
	int before = figures(b, u) - c->cas[u], stop, off, face, cas0;

	if (un->kind == KIND_ARTILLERY) {
		b3_ev(c, EV_ORDER_REFUSED, u, t, 0, B3_M_CANNOT_CHARGE,
		    un->name, "guns cannot charge");
		return;
	}
	if (un->state[B3_MARKS] & (B3M_PINNED | B3M_RALLIED) || fleeing(b, u) ||
	    !on_table(b, t) || b3_in_contact(c, u)) {
		b3_ev(c, EV_ORDER_REFUSED, u, t, 0, B3_M_CANNOT_CHARGE, un->name,
		    un->state[B3_MARKS] & B3M_PINNED ? "it is pinned" :
		    un->state[B3_MARKS] & B3M_RALLIED ? "it has just rallied" :
		    fleeing(b, u) ? "it is fleeing" : !on_table(b, t) ?
		    "its target is gone" : "it is already in melee");
		return;
	}
	battle_unit_centre(b, u, &a);
	battle_unit_centre(b, t, &z);
	off = geom_turn(facing_of(b, u), geom_bearing(a, z));
	if (off > P(c, "charge.wheel") || off < -P(c, "charge.wheel")) {
		b3_ev(c, EV_ORDER_REFUSED, u, t, 0, B3_M_CANNOT_CHARGE, un->name,
		    "its target is not within 45 degrees of its front");
		return;
	}
	face = face_of(b, u, t);
	c->face[u] = face;
	b->units[u].state[B3_MARKS] |= B3M_CHARGED | B3M_ACTED;
	b3_ev(c, EV_MOVE, u, t, face, B3_M_CHARGES, un->name,
	    b->units[t].name);
	cas0 = c->cas[u];
	if (!c->responded[t] && !fleeing(b, t))
		respond(c, t, u);
	if (!on_table(b, u))
		return;
	/* A charger that fell back at its officer's fall goes no further. */
	if (c->fell_back[u]) {
		b3_ev(c, EV_MOVE, u, t, 0, B3_M_CHARGE_STOPS, un->name);
		return;
	}
	/* A target that turned about meets the charge with its front. */
	if (on_table(b, t) && !fleeing(b, t))
		c->face[u] = face = face_of(b, u, t);
	if (figures(b, u) - c->cas[u] > 0 && (c->cas[u] - cas0) * 100 >=
	    before * P(c, "charger.test") && !fleeing(b, u)) {
		if (!b3_morale(c, u, 0, 0, "charge")) {
			b3_break(c, u, t);
			return;
		}
	}
	if (fleeing(b, u))
		return;
	if (mounted(b, u))
		reach = FX(P(c, "charge.cavalry.times") * b3_roll(c, 6, u,
		    B3_R_CHARGE, un->name));
	else
		reach = P(c, "charge.infantry");
	if (!on_table(b, t)) {
		went = b3_move_along(c, u, facing_of(b, u), reach, -1, &stop);
		battle_unit_centre(b, u, &a);
		b3_ev(c, EV_MOVE, u, -1, went, B3_M_MOVES, un->name,
		    fmt_in(c, 0, went), fmt_in(c, 1, a.x), fmt_in(c, 2, a.y));
		return;
	}
	battle_unit_centre(b, u, &a);
	battle_unit_centre(b, t, &z);
	b3_turn_in_place(b, u, geom_bearing(a, z));
	went = b3_move_along(c, u, facing_of(b, u), reach, t, &stop);
	if (battle_unit_gap_within(b, u, t, P(c, "melee.contact"))) {
		if (fleeing(b, t)) {
			b3_ev(c, EV_ELIMINATED, t, u, 0, B3_M_CAUGHT, b->units[t].name,
			    un->name);
			b3_remove(c, t);
			return;
		}
		if (close_in(c, u, t, face) != 0)
			b3_ev(c, EV_MOVE, u, t, 0, B3_M_CONTACT_CROWDED, un->name,
			    b->units[t].name);
		b3_ev(c, EV_MOVE, u, t, went, B3_M_CONTACT, un->name,
		    b->units[t].name, fmt_in(c, 0, went));
		return;
	}
	/* Short: cavalry go their whole distance. */
	if (mounted(b, u) && stop == -1 && c->last_paid < reach)
		went += b3_move_along(c, u, facing_of(b, u), reach - c->last_paid,
		    -1, &stop);
	battle_unit_centre(b, u, &a);
	b3_ev(c, EV_MOVE, u, t, went, B3_M_CHARGE_SHORT, un->name,
	    fmt_in(c, 0, went), fmt_in(c, 1, a.x), fmt_in(c, 2, a.y),
	    b->units[t].name);
}

/* --- movement ---------------------------------------------------------- */

/* The commander whose rating unit u moves by: its brigade's, else its
 * wing's, else its army's, if any is in the fight. */
static int
commander_of(const struct battle *b, int u)
{
	int k, best = -1, rank = -1;

	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *m = &b->commanders[k];
		int r;

		if (m->gone || m->out_until != 0 || !battle_in_chain(b, k, u) ||
		    m->rank == RANK_UNIT)
			continue;
		r = m->rank == RANK_BRIGADE ? 3 : m->rank == RANK_WING ? 2 : 1;
		if (r > rank) {
			rank = r;
			best = k;
		}
	}
	return best;
}

/* The rating unit u's command roll must not exceed, cas its casualties
 * not yet reformed; *who its commander. */
static int
command_rating(const struct battle *b, int u, int cas, int *who)
{
	struct pt cen;
	int k = commander_of(b, u), r, lost;

	*who = k;
	if (k < 0)
		return 0;
	r = b->commanders[k].quality + ruleset_param(&ruleset_bb3, b,
	    "command.base");
	battle_unit_centre(b, u, &cen);
	r -= ruleset_param(&ruleset_bb3, b, "command.per-12") *
	    (geom_dist(cen, b->commanders[k].pos) / ruleset_param(&ruleset_bb3,
	    b, "command.distance"));
	if (cls(b, u) & B3C_MILITIA)
		r -= ruleset_param(&ruleset_bb3, b, "command.militia");
	lost = b->units[u].rules[B3_FIGURES0] - figures(b, u) + cas;
	if (lost * 100 >= b->units[u].rules[B3_FIGURES0] *
	    ruleset_param(&ruleset_bb3, b, "command.losses"))
		r -= 1;
	if (cls(b, u) & (B3C_ELITE | B3C_LIGHT))
		r += ruleset_param(&ruleset_bb3, b, "command.elite");
	return r;
}

int
bb3_order_rating(const struct battle *b, int u, int *who)
{
	return command_rating(b, u, 0, who);
}

/* Its move rate, by arm and formation. */
static fx
move_rate(const struct ctx *c, int u)
{
	const struct battle *b = c->b;
	int form = battle_unit_form(b, u);

	switch (b->units[u].kind) {
	case KIND_MOUNTED:
		return P(c, "move.cavalry");
	case KIND_ARTILLERY:
		return form == FORM_ROAD ? P(c, "move.limbered") : 0;
	default:
		if (cls(b, u) & (B3C_LIGHT | B3C_SKIRMISH | B3C_NATIVE))
			return P(c, "move.light");
		return form == FORM_ROAD ? P(c, "move.column") : P(c, "move.line");
	}
}

int
b3_moving_verb(int v)
{
	return v == V_MOVE_TO || v == V_ADVANCE || v == B3_V_FALL_BACK ||
	    v == V_WHEEL || v == V_FACE || v == V_FORM;
}

/* The stands of the stands lost so far (figures lost / E). */
int
b3_stands_lost(const struct battle *b, int u)
{
	int e = b->units[u].rules[B3_EQUIV];

	return e > 0 ? (b->units[u].rules[B3_FIGURES0] - figures(b, u)) / e : 0;
}

/* Plays unit u's moving parts with `allow` inches; doubled: whether the
 * double move is being tried (a move that comes within double.radius of
 * an enemy is then refused, and the caller plays it single). */
static int
play_moves(struct ctx *c, int u, fx allow, int doubled)
{
	struct battle *b = c->b;
	const struct order *o = c->ord[u];
	fx left = allow, moved = 0;
	int i, stop = -1, turned = 0, v;
	struct pt cen;

	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		int dir = facing_of(b, u);
		fx want = 0, went;

		if (!b3_moving_verb(st->verb))
			continue;
		switch (st->verb) {
		case V_FACE:
		case V_WHEEL:
			if (!turned) {
				left /= 2;
				turned = 1;
			}
			b3_turn_in_place(b, u, st->verb == V_FACE ? st->angle :
			    facing_of(b, u) + st->angle);
			continue;
		case V_FORM:
			if (!turned) {
				left /= 2;
				turned = 1;
			}
			if (battle_unit_centre(b, u, &cen)) {
				if (b->units[u].kind == KIND_ARTILLERY) {
					FOR_STANDS(b, u, v)
						b->stands[v].form = st->form;
					battle_unit_moved(b, u);
				} else
					b3_lay_out(b, u, cen, st->form == FORM_ROAD,
					    facing_of(b, u));
			}
			continue;
		case V_MOVE_TO:
			battle_unit_centre(b, u, &cen);
			dir = geom_bearing(cen, st->pt);
			want = geom_dist(cen, st->pt);
			if (want <= 0)
				continue;   /* there already: no turn, no move */
			if (geom_turn(facing_of(b, u), dir) > 45 ||
			    geom_turn(facing_of(b, u), dir) < -45) {
				if (!turned) {
					left /= 2;
					turned = 1;
				}
				b3_turn_in_place(b, u, dir);
			}
			break;
		case V_ADVANCE:
			want = st->dist;
			break;
		case B3_V_FALL_BACK:
			/* at half speed: each inch back costs two */
			dir = facing_of(b, u) + 180;
			want = st->dist;
			break;
		}
		/* The order's distance is how far it goes; the ground's cost
		 * comes out of the move allowance, not out of that distance. */
		went = b3_move_upto(c, u, dir, want, st->verb == B3_V_FALL_BACK ?
		    left / 2 : left, -1, &stop);
		moved += went;
		left -= st->verb == B3_V_FALL_BACK ? c->last_paid * 2 :
		    c->last_paid;
		if (left < 0)
			left = 0;
		if (doubled && c->double_broken)
			return -1;
	}
	battle_unit_centre(b, u, &cen);
	if (stop == -3)
		b3_ev(c, EV_MOVE, u, -1, moved, B3_M_MOVES_RIVER,
		    b->units[u].name, fmt_in(c, 0, moved),
		    fmt_in(c, 1, cen.x), fmt_in(c, 2, cen.y));
	else
		b3_ev(c, EV_MOVE, u, -1, moved, B3_M_MOVES,
		    b->units[u].name, fmt_in(c, 0, moved),
		    fmt_in(c, 1, cen.x), fmt_in(c, 2, cen.y));
	return 0;
}

static void
move_unit(struct ctx *c, int u)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	fx allow, gap;
	int roll, rating, who, i, any = 0;

	for (i = 0; c->ord[u] != NULL && i < c->ord[u]->nsteps; i++)
		any |= b3_moving_verb(c->ord[u]->steps[i].verb);
	if (!any)
		return;
	if (un->state[B3_MARKS] & (B3M_PINNED | B3M_RALLIED | B3M_ACTED) ||
	    fleeing(b, u))
		return;
	for (i = 0; i < b->nunits; i++)
		if (b->units[i].side != un->side && on_table(b, i) &&
		    battle_unit_gap_within(b, u, i, P(c, "melee.contact"))) {
			b3_ev(c, EV_ORDER_REFUSED, u, i, 0, B3_M_IN_CONTACT, un->name,
			    b->units[i].name);
			return;
		}
	allow = move_rate(c, u);
	if (cls(b, u) & B3C_NATIVE) {
		int lost = b3_stands_lost(b, u);

		roll = b3_roll(c, 10, u, B3_R_NATIVE, un->name, lost);
		if (roll + lost >= P(c, "native.remove")) {
			b3_ev(c, EV_ROUT, u, -1, roll + lost, B3_M_NATIVE_LEAVE,
			    un->name, roll, lost);
			b3_remove(c, u);
			return;
		}
		b3_ev(c, EV_REFORM, u, -1, roll + lost, B3_M_NATIVE_STAY, un->name,
		    roll, lost);
	} else {
		rating = command_rating(b, u, c->cas[u], &who);
		roll = b3_roll(c, 10, u, B3_R_COMMAND, un->name, rating);
		if (roll > rating) {
			b3_ev(c, EV_OUT_OF_COMMAND, u, -1, roll, B3_M_NO_ORDER,
			    un->name, roll, rating);
			return;
		}
		b3_ev(c, EV_COMMANDER, u, -1, roll, B3_M_ORDERED, un->name, roll,
		    rating, fmt_in(c, 0, allow + FX(roll)));
		allow += FX(roll);
	}
	b->units[u].state[B3_MARKS] |= B3M_ACTED;
	b3_nearest_enemy(b, u, &gap);
	if (gap < 0 || gap > P(c, "double.radius")) {
		/* Tried at twice its move; one that comes within 12" of an
		 * enemy is put back (only its own stands moved) and played at
		 * its single move. */
		size_t n = (size_t)un->nstands * sizeof(struct stand);
		struct stand *save = malloc(n > 0 ? n : 1);
		int n0 = c->ev->n;

		if (save == NULL) {
			c->failed = 1;
			return;
		}
		memcpy(save, &b->stands[un->first_stand], n);
		c->double_radius = P(c, "double.radius");
		c->double_broken = 0;
		if (play_moves(c, u, allow * 2, 1) == 0) {
			c->double_radius = 0;
			free(save);
			return;
		}
		c->double_radius = 0;
		memcpy(&b->stands[un->first_stand], save, n);
		battle_unit_moved(b, u);
		c->ev->n = n0;
		free(save);
	}
	play_moves(c, u, allow, 0);
}

/* --- officers ---------------------------------------------------------- */

static void
officer_order(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	struct commander *k = &b->commanders[o->who];
	fx left = P(c, "officer.move");   /* one ride a turn, all its parts */
	int i;

	if (k->gone || k->out_until != 0)
		return;
	for (i = 0; i < o->nsteps && left > 0; i++) {
		const struct order_step *st = &o->steps[i];
		struct pt to, cen;
		fx d;

		if (st->verb == V_JOIN) {
			if (!on_table(b, st->target) || !battle_unit_centre(b,
			    st->target, &cen))
				continue;
			to = cen;
		} else if (st->verb == V_MOVE_TO)
			to = st->pt;
		else
			continue;
		if (k->attached >= 0 && st->verb == V_MOVE_TO)
			k->attached = -1;
		d = geom_dist(k->pos, to);
		if (d > left) {
			to = geom_offset(k->pos, geom_bearing(k->pos, to), left);
			d = left;
		} else if (st->verb == V_JOIN)
			k->attached = st->target;
		left -= d;
		k->pos = to;
		if (st->verb == V_JOIN && k->attached == st->target)
			b3_ev(c, EV_COMMANDER, -1, st->target, d, B3_M_JOINS, k->name,
			    fmt_in(c, 0, d), fmt_in(c, 1, to.x), fmt_in(c, 2, to.y));
		else
			b3_ev(c, EV_COMMANDER, -1, -1, d, B3_M_RIDES, k->name,
			    fmt_in(c, 0, d), fmt_in(c, 1, to.x), fmt_in(c, 2, to.y));
	}
}

/* Attached officers stand at their unit's centre. */
static void
officers_follow(struct battle *b)
{
	int k;

	for (k = 0; k < b->ncommanders; k++) {
		struct commander *m = &b->commanders[k];
		struct pt cen;

		if (m->attached < 0 || m->gone)
			continue;
		if (!on_table(b, m->attached)) {
			m->attached = -1;
			continue;
		}
		if (battle_unit_centre(b, m->attached, &cen))
			m->pos = cen;
	}
}

/* --- initiative -------------------------------------------------------- */

int
bb3_turn_order(const struct battle *b, int turn, int *order)
{
	const struct bb3_state *st = bb3_cstate(b);

	if (b->nsides != 2 || turn < 1 || turn >= B3_MAX_TURNS ||
	    st->first[turn] == 0)
		return -1;
	order[0] = st->first[turn] - 1;
	order[1] = 1 - order[0];
	return 0;
}

static void
initiative(struct ctx *c)
{
	struct battle *b = c->b;
	struct bb3_state *st = bb3_state(b);
	int die = P(c, "initiative.die"), r0, r1, hi, next = c->turn + 1;

	if (next >= B3_MAX_TURNS || b->nsides != 2)
		return;
	for (;;) {
		r0 = b3_roll(c, die, -1, B3_R_INITIATIVE, b->sides[0].name);
		r1 = b3_roll(c, die, -1, B3_R_INITIATIVE, b->sides[1].name);
		if (r0 != r1 || c->d->failed)
			break;
		b3_ev(c, EV_PHASE, -1, -1, r0, B3_M_INITIATIVE_TIE, r0);
	}
	hi = r0 > r1 ? 0 : 1;
	st->first[next] = (unsigned char)((st->second[hi] ? 1 - hi : hi) + 1);
	st->roll[next][0] = (unsigned char)r0;
	st->roll[next][1] = (unsigned char)r1;
	b3_ev(c, EV_PHASE, -1, -1, hi, B3_M_INITIATIVE, b->sides[hi].name,
	    r0 > r1 ? r0 : r1, r0 > r1 ? r1 : r0, st->second[hi] ? "second" :
	    "first", b->sides[st->first[next] - 1].name, next);
}

/* --- the step ---------------------------------------------------------- */

static void
special_line(struct ctx *c, const struct order *o)
{
	struct bb3_state *st = bb3_state(c->b);

	if (o->special == B3_SPECIAL_INITIATIVE)
		st->second[c->side] = (unsigned char)(o->special_arg != 0);
	else if (o->special == B3_SPECIAL_RESPONSE)
		st->side_response[c->side] = (unsigned char)o->special_arg;
	else if (o->special >= B3_SPECIAL_UNIT && o->who >= 0 &&
	    o->who < c->b->nunits)
		st->response[o->who] = (unsigned char)o->special_arg;
}

static void
unit_responses(struct ctx *c, const struct order *o)
{
	int i;

	for (i = 0; i < o->nsteps; i++) {
		int v = o->steps[i].verb;

		if (v >= B3_V_IF_STAND && v <= B3_V_IF_ABOUT_FACE)
			bb3_state(c->b)->response[o->who] = (unsigned char)(B3R_STAND +
			    (v - B3_V_IF_STAND));
	}
}

int
bb3_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *evs, struct err *e)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const struct order_set *mine = NULL;
	int i, u, clock, rc = -1, k, first;

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
	for (i = 0; i < nsets; i++)
		if (orders[i].side == c->side)
			mine = &orders[i];
	c->mine = mine;
	clock = b->first_minute + (c->turn - 1) * b->minutes;
	events_phase(evs, c->side, c->turn, b->sides[c->side].id, clock,
	    b->sides[c->side].name);
	/* Pinned and rallied last the game turn; what the moving side did
	 * in its last player turn is done with. */
	first = step - battle_deploy_steps(b) == (c->turn - 1) * b->nsides + 1;
	for (u = 0; u < b->nunits; u++) {
		if (first)
			b->units[u].state[B3_MARKS] &= ~(B3M_PINNED | B3M_RALLIED);
		if (b->units[u].side == c->side)
			b->units[u].state[B3_MARKS] &= ~(B3M_PINNED | B3M_RALLIED |
			    B3M_ACTED);
	}
	/* The unit's lines first, then the lines of the side's own words:
	 * a unit's response on a line of its own stands before one chained
	 * in its line of moves, whatever order the merged set has them in. */
	for (i = 0; mine != NULL && i < mine->n; i++) {
		const struct order *o = &mine->orders[i];

		if (o->special == 0 && !o->is_commander) {
			c->ord[o->who] = o;
			unit_responses(c, o);
		}
	}
	for (i = 0; mine != NULL && i < mine->n; i++)
		if (mine->orders[i].special != 0)
			special_line(c, &mine->orders[i]);
	panic_tests(c);
	rally(c);
	/* Charges, in the order of the lines. */
	for (i = 0; mine != NULL && i < mine->n; i++) {
		const struct order *o = &mine->orders[i];

		if (o->special != 0 || o->is_commander || !on_table(b, o->who))
			continue;
		for (k = 0; k < o->nsteps; k++)
			if (o->steps[k].verb == V_CHARGE) {
				charge(c, o->who, o->steps[k].target);
				break;
			}
	}
	for (i = 0; mine != NULL && i < mine->n; i++) {
		const struct order *o = &mine->orders[i];

		if (o->special == 0 && !o->is_commander && on_table(b, o->who))
			move_unit(c, o->who);
	}
	officers_follow(b);
	b3_firing_phase(c);
	b3_melee_phase(c);
	/* A charge counts in its own step's melee only. */
	for (u = 0; u < b->nunits; u++)
		b->units[u].state[B3_MARKS] &= ~B3M_CHARGED;
	b3_reform(c);
	officers_follow(b);
	for (i = 0; mine != NULL && i < mine->n; i++)
		if (mine->orders[i].special == 0 && mine->orders[i].is_commander)
			officer_order(c, &mine->orders[i]);
	/* Each brigade's figures lost. */
	for (i = 0; i < b->nbrigades; i++) {
		int now = 0;

		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == i)
				now += figures(b, u);
		b->brigades[i].lost = b->brigades[i].sp0 - now;
	}
	if (step - battle_deploy_steps(b) == c->turn * b->nsides &&
	    c->turn < b->turns)
		initiative(c);
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
	battle_units_unindex(b);
	free(c);
	return rc;
}
