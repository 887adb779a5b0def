/*
 * vnb_wing.c - adjudicating a phase of "At War in the Americas", the
 * Volley & Bayonet wing-scale variant for the AWI (shared/seeds/003).
 *
 * docs/rules-vnb-wing.md describes, in our words, what this file does and
 * which reading it takes where the text is silent; tests/rules/vnb-wing/
 * pins each paragraph with worked cases.  The numbers live in
 * vnb_wing_data.c.
 *
 * Pure: the state, the orders and a dice source in; the state changed and
 * events out.  No clock, no I/O, integers only, and every loop runs in a
 * fixed order (order lines, then scenario order) so that a phase played
 * twice gives the same bytes.
 *
 * Workload: a phase touches a few hundred stands; movement steps every
 * quarter inch and checks every enemy stand at each step, a few million
 * integer operations at most.
 */
#include "rules/vnb_wing_int.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* --- events and markers ---------------------------------------------- */

void
vw_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
{
	va_list ap;
	int side = unit >= 0 ? c->b->units[unit].side : -1;

	va_start(ap, fmt);
	events_vsay(c->ev, k, side, unit, target, value, msg, types, fmt, ap);
	va_end(ap);
}

int
vw_roll(struct ctx *c, int unit, const char *msg, const char *types,
    const char *fmt, ...)
{
	va_list ap;
	int v;

	c->d->side = unit >= 0 ? c->b->units[unit].side : -1;
	va_start(ap, fmt);
	v = dice_vroll(c->d, 6, unit, msg, types, fmt, ap);
	va_end(ap);
	return v;
}

void
vw_remove_stand(struct ctx *c, int s, enum vw_gone why)
{
	/* One message a reason, each of two values: the unit, the stand. */
	static const struct event_msg gone_msgs[] = {
		[VW_GONE_DESTROYED] = EVENT_MSG(VW_M_STAND_DESTROYED),
		[VW_GONE_ROUTS_OFF] = EVENT_MSG(VW_M_STAND_ROUTS_OFF),
		[VW_GONE_ROUTS_AGAIN] = EVENT_MSG(VW_M_STAND_ROUTS_AGAIN),
		[VW_GONE_COLLAPSE] = EVENT_MSG(VW_M_STAND_GONE_IN_COLLAPSE),
		[VW_GONE_MORALE_ROUTED] = EVENT_MSG(VW_M_STAND_FAILS_MORALE_ROUTED),
		[VW_GONE_RIDDEN_DOWN] = EVENT_MSG(VW_M_STAND_RIDDEN_DOWN),
		[VW_GONE_MELEE_ROUTED] = EVENT_MSG(VW_M_STAND_LOSES_MELEE_ROUTED),
	};
	struct battle *b = c->b;
	int u = b->stands[s].unit, n = s - b->units[u].first_stand + 1;
	const char *name = b->units[u].name;
	const struct event_msg *m;

	if (!alive(b, s))
		return;
	b->stands[s].flags |= ST_GONE;
	b->stands[s].flags &= ~ST_STATIONARY;
	battle_unit_moved(b, u);
	m = &gone_msgs[why];
	/* Each sentence is "%s: stand %d ...": patterns.py checks them
	 * against their letters, "up", as gcc cannot through the table. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	vw_ev(c, EV_ELIMINATED, u, -1, n, m->id, m->types, m->fmt, name, n);
#pragma GCC diagnostic pop
}

void
vw_lose_sp(struct ctx *c, int s, int n, const char *why)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	int u = st->unit;

	if (!alive(b, s) || n <= 0)
		return;
	if (n > st->sp)
		n = st->sp;
	st->sp -= n;
	vw_ev(c, EV_LOSS, u, -1, n, VW_M_STAND_LOSES_SP,
	    b->units[u].name, s - b->units[u].first_stand + 1, n, why, st->sp);
	if (st->sp == 0)
		vw_remove_stand(c, s, VW_GONE_DESTROYED);
}

void
vw_disorder(struct ctx *c, int s, const char *why)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit;

	/* A stand with either marker is disordered already; a red marker
	 * alone (militia, a rallied stand) must not turn into a rout. */
	if (!alive(b, s) || disordered(b, s))
		return;
	b->stands[s].flags |= ST_DISORDERED;
	b->stands[s].flags &= ~ST_STATIONARY;
	vw_ev(c, EV_DISORDER, u, -1, 0, VW_M_STAND_DISORDERED,
	    b->units[u].name, s - b->units[u].first_stand + 1, why);
}

/* --- command ---------------------------------------------------------- */

/* Marks in in_cmd[] the stands of side that are in command now: within
 * command.radius of a commander of their chain (an artillery stand, of any
 * commander of its side), or touching, directly or through other stands
 * of their unit, a stand of their unit that is.  See
 * docs/rules-vnb-wing.md, Command. */
fx
vnb_command_reach(const struct battle *b, int k)
{
	return ruleset_param(&ruleset_vnb_wing, b,
	    b->commanders[k].rank == RANK_UNIT ? "command.unit-radius" :
	    "command.radius");
}

void
vnb_command_stands(const struct battle *b, int side, unsigned char *in_cmd)
{
	fx contact = ruleset_param(&ruleset_vnb_wing, b, "contact");
	int u, s, i, changed;

	memset(in_cmd, 0, (size_t)b->nstands);
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];

		if (un->side != side)
			continue;
		FOR_STANDS(b, u, s) {
			if (!alive(b, s))
				continue;
			for (i = 0; i < b->ncommanders && !in_cmd[s]; i++) {
				const struct commander *k = &b->commanders[i];

				/* Guns answer to any commander of their
				 * side, each at his own reach. */
				if (k->side != un->side || k->gone ||
				    commander_out(k) ||
				    (!battle_in_chain(b, i, u) &&
				    un->kind != KIND_ARTILLERY))
					continue;
				if (geom_dist(k->pos, b->stands[s].pos) <=
				    vnb_command_reach(b, i))
					in_cmd[s] = 1;
			}
		}
		/* Command passes along touching stands of the same unit. */
		do {
			int t;

			changed = 0;
			FOR_STANDS(b, u, s) {
				if (!alive(b, s) || in_cmd[s])
					continue;
				FOR_STANDS(b, u, t)
					if (t != s && in_cmd[t] &&
					    stand_gap(b, s, t) <= contact) {
						in_cmd[s] = 1;
						changed = 1;
						break;
					}
			}
		} while (changed);
	}
}

/* How many of unit u's stands able to move are out of command, and in
 * *of how many there are. */
static int
unit_out_of_command(struct ctx *c, int u, int *of)
{
	int s, n = 0, all = 0;

	FOR_STANDS(c->b, u, s)
		if (active(c->b, s)) {
			all++;
			n += !c->in_cmd[s];
		}
	if (of != NULL)
		*of = all;
	return n;
}

/* A unit is in command when every stand of it able to move is: it moves
 * as a block, so one stand out of command holds the whole unit to what
 * that stand may do. */
int
vw_unit_in_command(struct ctx *c, int u)
{
	return unit_out_of_command(c, u, NULL) == 0;
}

/* 1 if no stand of unit u able to move is in command. */
static int
unit_in_command_none(struct ctx *c, int u)
{
	int of;

	return unit_out_of_command(c, u, &of) == of;
}

static void
phase_command(struct ctx *c)
{
	struct battle *b = c->b;
	fx radius = P(c, "command.radius");
	int u;

	vnb_command_stands(b, c->side, c->in_cmd);
	for (u = 0; u < b->nunits; u++) {
		int n, of;

		if (b->units[u].side != c->side)
			continue;
		n = unit_out_of_command(c, u, &of);
		if (n == 0)
			continue;
		if (n == of)
			vw_ev(c, EV_OUT_OF_COMMAND, u, -1, 0,
			    VW_M_OUT_OF_COMMAND, b->units[u].name,
			    fmt_in(c, 0, radius));
		else
			vw_ev(c, EV_OUT_OF_COMMAND, u, -1, n,
			    VW_M_PARTLY_OUT_OF_COMMAND,
			    b->units[u].name, n, of, fmt_in(c, 0, radius));
	}
}

/* --- orders ---------------------------------------------------------- */

static void do_unit_steps(struct ctx *c, const struct order *o);

/* Each commander of the phasing side attached to a unit (JOIN) who has
 * no orders of his own this phase moves with it; one whose unit has no
 * stand left able to move is attached no more. */
static void
find_riders(struct ctx *c, const struct order_set *mine)
{
	struct battle *b = c->b;
	int k, i;

	for (k = 0; k < b->ncommanders; k++) {
		struct commander *cm = &b->commanders[k];
		struct pt tmp;

		c->rides[k] = -1;
		if (cm->side != c->side || cm->attached < 0)
			continue;
		if (cm->gone || cm->out_removed ||
		    !unit_active_centre(b, cm->attached, &tmp)) {
			cm->attached = -1;
			continue;
		}
		for (i = 0; mine != NULL && i < mine->n; i++)
			if (mine->orders[i].special == 0 &&
			    mine->orders[i].is_commander && mine->orders[i].who == k)
				break;
		if (mine == NULL || i == mine->n)
			c->rides[k] = cm->attached;
	}
}

/* A unit's orders, and the commanders attached to it carried along: the
 * same place relative to its centre and facing. */
static void
do_unit_order(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	int u = o->who, k, f0, f1;
	struct pt c0, c1;

	if (!unit_active_centre(b, u, &c0)) {
		do_unit_steps(c, o);
		return;
	}
	f0 = unit_facing(b, u);
	do_unit_steps(c, o);
	if (!unit_active_centre(b, u, &c1))
		return;
	f1 = unit_facing(b, u);
	if (c0.x == c1.x && c0.y == c1.y && f0 == f1)
		return;
	for (k = 0; k < b->ncommanders; k++) {
		struct commander *cm = &b->commanders[k];
		struct pt p;

		if (c->rides[k] != u)
			continue;
		p = geom_rotate(cm->pos, c0, geom_turn(f0, f1));
		p.x += c1.x - c0.x;
		p.y += c1.y - c0.y;
		if (p.x < 0 || p.y < 0 || p.x > b->width || p.y > b->depth)
			continue;
		cm->pos = p;
		events_say(c->ev, EV_COMMANDER, cm->side, u, -1, 0,
		    VW_M_RIDES_WITH, cm->name, b->units[u].name,
		    fmt_in(c, 1, p.x), fmt_in(c, 2, p.y));
	}
}

static void
do_unit_steps(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	int u = o->who, i, s;
	const struct unit *un = &b->units[u];
	long budget, spent = 0;
	int ooc, charging = 0, charged = 0;

	if (battle_unit_alive(b, u) == 0)
		return;
	{
		struct pt tmp;

		if (!unit_active_centre(b, u, &tmp)) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_ROUTED,
			    un->name);
			return;
		}
	}
	ooc = !vw_unit_in_command(c, u);
	for (i = 0; i < o->nsteps; i++) {
		if (o->steps[i].verb == V_CHARGE)
			charging = 1;
		if (o->steps[i].verb == V_HURRY)
			c->hurry[u] = 1;
	}
	/* Good Going and Bad Going add to the move or take from it. */
	budget = COST(unit_rate(b, u) + vw_card_move(c, u));
	if (budget < 0)
		budget = 0;
	if (unit_form(b, u) == FORM_ROAD)
		budget *= 1;   /* road march multiplies per step (move_unit) */
	if (ooc)
		budget /= 2;
	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		struct move_result r;
		struct pt cen, dest;
		long fc;
		int brg;

		if (!unit_active_centre(b, u, &cen))
			return;   /* every stand able to move has gone */
		switch (st->verb) {
		case V_ADVANCE:
			dest = geom_offset(cen, unit_facing(b, u), st->dist);
			r = vw_move_unit(c, u, dest, budget - spent, MOVE_NORMAL, -1);
			spent += r.spent;
			vw_report_move(c, u, &r, st->dist);
			break;
		case V_MOVE_TO:
			brg = geom_bearing(cen, st->pt);
			if (abs(geom_turn(unit_facing(b, u), brg)) > 45) {
				fc = vw_face_unit(c, u, brg, 0, budget - spent);
				if (fc < 0)
					return;
				spent += fc;
				unit_active_centre(b, u, &cen);
			}
			r = vw_move_unit(c, u, st->pt, budget - spent, MOVE_NORMAL, -1);
			spent += r.spent;
			vw_report_move(c, u, &r, geom_dist(cen, st->pt));
			break;
		case V_WHEEL:
		case V_FACE:
			/* A charger's turn before it sets off is part of the
			 * charge: it costs half the move. */
			fc = vw_face_unit(c, u, st->verb == V_FACE ? st->angle :
			    unit_facing(b, u) + st->angle, charging, budget - spent);
			if (fc < 0)
				return;
			spent += fc;
			break;
		case V_FORM: {
			fx before = unit_rate(b, u), after;

			fc = vw_change_formation(c, u, st->form, budget - spent);
			if (fc < 0)
				return;
			spent += fc;
			/* Mounting or dismounting changes the rate: what is
			 * left of the move keeps its share of it. */
			after = unit_rate(b, u);
			if (after != before && before > 0)
				budget = spent + (budget - spent) * after / before;
			break;
		}
		case V_FIRE_AT:
			c->fire_target[u] = st->target;
			break;
		case V_HOLD:
			c->hold[u] = 1;
			break;
		case V_HURRY:
			break;   /* read before the moves (do_unit_steps) */
		case V_NO_ADVANCE:
			c->stay[u] = 1;
			break;
		case V_RETIRE:
			if (un->kind != KIND_MOUNTED ||
			    unit_form(b, u) == FORM_DISMOUNTED) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_CANNOT_RETIRE_FIRE, un->name);
				break;
			}
			FOR_STANDS(b, u, s)
				if (active(b, s))
					b->stands[s].flags |= ST_RETIRES;
			vw_ev(c, EV_MOVE, u, -1, 0, VW_M_WILL_RETIRE_FIRE,
			    un->name);
			break;
		case V_REFORM: {
			int any = 0;

			if (c->w->reform != NULL) {
				if (c->w->reform(c, u))
					i = o->nsteps;   /* the rest dropped */
				break;
			}

			if (i != 0 && i != o->nsteps - 1) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_MAY_REFORM_ONLY, un->name);
				break;
			}
			if (unit_in_command_none(c, u)) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_CANNOT_REFORM_OUT, un->name);
				break;
			}
			if (vw_unit_in_enemy_contact(c, u)) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_CANNOT_REFORM_CONTACT, un->name);
				break;
			}
			if (unit_form(b, u) != FORM_SKIRMISH && (area_at(b, cen, T_FOREST) ||
			    area_at(b, cen, T_THICKET) || area_at(b, cen, T_SWAMP) ||
			    (un->kind == KIND_MOUNTED && area_at(b, cen, T_BROKEN)))) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_CANNOT_REFORM_GROUND, un->name);
				break;
			}
			if (spent + COST(unit_rate(b, u) / 2) > budget) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_NO_MOVEMENT_TO_REFORM, un->name);
				break;
			}
			/* Only stands in command may recover. */
			FOR_STANDS(b, u, s)
				if (active(b, s) && c->in_cmd[s] &&
				    (b->stands[s].flags & ST_DISORDERED)) {
					b->stands[s].flags &= ~ST_DISORDERED;
					any = 1;
				}
			if (!any) {
				if (ooc)
					vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
					    VW_M_NO_DISORDER_IN_COMMAND,
					    un->name);
				else
					vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
					    VW_M_NO_DISORDER, un->name);
				break;
			}
			spent += COST(unit_rate(b, u) / 2);
			c->moved[u] = 1;
			FOR_STANDS(b, u, s)
				b->stands[s].flags &= ~ST_STATIONARY;
			vw_ev(c, EV_REFORM, u, -1, 0,
			    VW_M_RECOVERS_DISORDER_HALF, un->name);
			break;
		}
		case V_CHARGE: {
			int t = st->target;
			struct pt tc;

			/* A charge after the first names where a breakthrough
			 * goes (phase_morale), if the first target gives way. */
			if (charged) {
				c->bt[u][c->nbt[u]++] = t;
				break;
			}
			charged = 1;
			if (!battle_unit_centre(b, t, &tc)) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
				    VW_M_CANNOT_CHARGE_TARGET_GONE, un->name,
				    b->units[t].name);
				break;
			}
			if (unit_exhausted(b, u)) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
				    VW_M_CANNOT_CHARGE_BRIGADE, un->name);
				break;
			}
			if (ooc) {
				if (unit_in_command_none(c, u))
					vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
					    VW_M_CANNOT_CHARGE_OUT, un->name);
				else
					vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
					    VW_M_CANNOT_CHARGE_PART,
					    un->name);
				break;
			}
			if ((unit_form(b, u) == FORM_SKIRMISH &&
			    !(un->abil & ABIL_NA)) || unit_form(b, u) == FORM_ROAD ||
			    un->kind == KIND_ARTILLERY) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
				    VW_M_CANNOT_CHARGE_IN, un->name,
				    un->kind == KIND_ARTILLERY ?
				    "as artillery" : unit_form(b, u) == FORM_ROAD ?
				    "road march" : "skirmish order");
				break;
			}
			/* A charge turns only at the start of the move, then
			 * goes straight at the target. */
			if (c->walked[u]) {
				vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
				    VW_M_CANNOT_CHARGE_AFTER, un->name);
				break;
			}
			if (c->w->charge_begins != NULL)
				c->w->charge_begins(c, u, t);
			brg = geom_bearing(cen, tc);
			if (abs(geom_turn(unit_facing(b, u), brg)) > 45) {
				/* "A unit engaged in charging an enemy may not
				 * make a second change of facing." */
				if (c->fchanges[u] > 0) {
					vw_ev(c, EV_ORDER_REFUSED, u, -1, t,
					    VW_M_CANNOT_CHARGE_SECOND_TURN, un->name,
					    b->units[t].name);
					break;
				}
				fc = vw_face_unit(c, u, brg, 1, budget - spent);
				if (fc < 0)
					return;
				spent += fc;
			}
			/* Native Americans form from skirmish order to charge,
			 * for nothing (their morale test comes at contact). */
			if (unit_form(b, u) == FORM_SKIRMISH && (un->abil & ABIL_NA)) {
				int k;

				unit_save(b, u, c->saved);
				FOR_STANDS(b, u, k)
					if (alive(b, k))
						b->stands[k].form = FORM_LINE;
				vw_lay_out_line(b, u, cen, unit_facing(b, u));
				if (!vw_unit_has_room(b, u))
					unit_restore(b, u, c->saved);
				unit_active_centre(b, u, &cen);
			}
			c->charge_from[u] = cen;
			r = vw_move_unit(c, u, tc, budget - spent, MOVE_CHARGE, t);
			spent += r.spent;
			if (r.contact) {
				c->charge_target[u] = t;
				vw_ev(c, EV_MOVE, u, t, r.moved,
				    VW_M_CHARGES_MAKES_CONTACT, un->name,
				    b->units[t].name);
			} else {
				vw_report_move(c, u, &r, 1);
				vw_ev(c, EV_ORDER_REFUSED, u, t, 0,
				    VW_M_CHARGE_FALLS_SHORT, un->name,
				    b->units[t].name);
			}
			break;
		}
		case V_JOIN:
		default:
			break;
		}
	}
	if (ooc && c->moved[u])
		FOR_STANDS(b, u, s)
			if (active(b, s) && !c->in_cmd[s])
				vw_disorder(c, s, "moved out of command");
}

/* Moves commander k straight towards dest as a foot stand pays for ground
 * (forest, thicket, swamp and camp 2 for 1; a tree line, fence or hedge
 * 2"; a stream, ford or works half the 24" move; no river but at a ford
 * or bridge; hills and woods free), out of *budget.  Returns the distance
 * moved; *why says why it stopped short, if it did. */
static fx
commander_move(struct ctx *c, struct commander *k, struct pt dest, long *budget,
    const char **why)
{
	struct battle *b = c->b;
	struct pt start = k->pos, cur = k->pos, pmid = k->pos;
	fx total = geom_dist(start, dest), moved = 0, step = P(c, "terrain.step");

	*why = NULL;
	while (moved < total) {
		fx len = total - moved < step ? total - moved : step, h;
		struct pt next, mid;
		long cost;
		int f = 1, i;

		/* Ground is judged at the middle of steps cut at area edges,
		 * as for units (move_unit). */
		next = vw_along(start, dest, total, moved + len);
		h = vw_area_edge_ahead(b, cur, next);
		if (h > 0 && h < len) {
			len = h;
			next = vw_along(start, dest, total, moved + len);
		}
		mid.x = cur.x + (next.x - cur.x) / 2;
		mid.y = cur.y + (next.y - cur.y) / 2;
		if (area_at(b, mid, T_FOREST) || area_at(b, mid, T_THICKET) ||
		    area_at(b, mid, T_SWAMP) || area_at(b, mid, T_CAMP))
			f = 2;
		cost = COST(len) * f;
		if (area_at(b, mid, T_WORKS) && !area_at(b, pmid, T_WORKS))
			cost += COST(FX(12));
		for (i = 0; i < b->nterrain; i++) {
			const struct terrain *t = &b->terrain[i];
			int crosses = 0;

			if (t->kind < T_FIRST_LINE || t->kind == T_ROAD)
				continue;
			crosses = vw_step_crosses(b, t, cur, next);
			if (!crosses)
				continue;
			if (t->kind == T_RIVER && !vw_crossing_allowed_at(b, cur) &&
			    !vw_crossing_allowed_at(b, next)) {
				*why = "a river can be crossed only at a ford or bridge";
				goto done;
			}
			if (t->kind == T_STREAM || t->kind == T_RIVER ||
			    t->kind == T_SUNKEN_ROAD)
				cost += COST(FX(12));
			else if (t->kind == T_TREELINE || t->kind == T_FENCE ||
			    t->kind == T_HEDGE)
				cost += COST(FX(2));
		}
		if (cost > *budget) {
			/* A part step where only the ground's rate applies. */
			if (cost == COST(len) * f && *budget >= COST(1) * f) {
				fx part = (fx)(*budget / (COST(1) * f));

				next = vw_along(start, dest, total, moved + part);
				*budget -= COST(part) * f;
				moved += part;
				cur = next;
			}
			*why = "its 24\" move is spent";
			goto done;
		}
		*budget -= cost;
		moved += len;
		cur = next;
		pmid = mid;
	}
done:
	k->pos = cur;
	return moved;
}

static int commander_touches(struct ctx *c, int k, int u);

static void
do_commander_order(struct ctx *c, const struct order *o)
{
	struct battle *b = c->b;
	struct commander *k = &b->commanders[o->who];
	long budget = COST(FX(24));
	const char *why = NULL;
	int i;

	if (k->gone)
		return;
	if (k->out_removed) {
		vw_ev(c, EV_ORDER_REFUSED, -1, -1, 0, VW_M_OUT_OF_PLAY,
		    k->name);
		c->ev->v[c->ev->n - 1].side = k->side;
		return;
	}
	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		struct pt dest = k->pos;
		fx d;

		/* Any order of his own ends an attachment; JOIN makes one. */
		k->attached = -1;
		if (st->verb == V_MOVE_TO) {
			dest = st->pt;
		} else if (st->verb == V_JOIN) {
			struct pt cen;
			int t = st->target;

			if (!unit_active_centre(b, t, &cen) &&
			    !battle_unit_centre(b, t, &cen))
				continue;
			/* Behind the unit's centre, touching its rear edge. */
			dest = geom_offset(cen, unit_facing(b, t) + 180,
			    vw_unit_depth(b, t) / 2 + FX(0.75));
		} else {
			continue;
		}
		if (dest.x < 0 || dest.y < 0 || dest.x > b->width || dest.y > b->depth) {
			events_say(c->ev, EV_ORDER_REFUSED, k->side, -1, -1, 0,
			    VW_M_CANNOT_RIDE_OFF, k->name);
			continue;
		}
		d = commander_move(c, k, dest, &budget, &why);
		if (d == 0 && why != NULL) {
			events_say(c->ev, EV_ORDER_REFUSED, k->side, -1, -1, 0,
			    VW_M_COMMANDER_DOES_NOT_MOVE, k->name, why);
			continue;
		}
		dest = k->pos;
		if (d > 0 && why != NULL)
			events_say(c->ev, EV_COMMANDER, k->side, -1, -1, d,
			    VW_M_RIDES_STOPPING, k->name, fmt_in(c, 0, d),
			    fmt_in(c, 1, dest.x), fmt_in(c, 2, dest.y), why);
		else if (d > 0)
			events_say(c->ev, EV_COMMANDER, k->side, -1, -1, d,
			    VW_M_RIDES, k->name, fmt_in(c, 0, d),
			    fmt_in(c, 1, dest.x), fmt_in(c, 2, dest.y));
		if (st->verb == V_JOIN && commander_touches(c, o->who,
		    st->target)) {
			k->attached = st->target;
			events_say(c->ev, EV_COMMANDER, k->side, st->target, -1,
			    0,
			    VW_M_JOINS_WILL_MOVE, k->name,
			    b->units[st->target].name);
		}
	}
}

/* 1 if commander k's base touches a stand of unit u able to move. */
static int
commander_touches(struct ctx *c, int k, int u)
{
	struct battle *b = c->b;
	const struct commander *cm = &b->commanders[k];
	struct pt r1[4], r2[4];
	int s;

	geom_rect(cm->pos, cm->facing, FX(1.5), FX(1.5), r2);
	FOR_STANDS(b, u, s) {
		if (!active(b, s))
			continue;
		battle_stand_rect(b, s, r1);
		if (geom_rect_dist(r1, r2) <= P(c, "contact"))
			return 1;
	}
	return 0;
}

/* --- rally ----------------------------------------------------------- */

/* A rallied stand's free change of facing: the player cannot order it
 * when it happens, so it turns in place to face the nearest enemy unit it
 * can see, if any (docs/rules-vnb-wing.md, Rally). */
void
vw_rally_face(struct ctx *c, int s)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	fx best = -1;
	int v, to = st->facing;

	for (v = 0; v < b->nunits; v++) {
		struct pt pc;

		if (!enemy(b, st->unit, v) || !battle_unit_centre(b, v, &pc) ||
		    !vw_can_see(b, st->pos, pc))
			continue;
		if (best < 0 || geom_dist(st->pos, pc) < best) {
			best = geom_dist(st->pos, pc);
			to = geom_bearing(st->pos, pc);
		}
	}
	if (to == st->facing)
		return;
	st->facing = geom_norm(to);
	vw_ev(c, EV_FACING, st->unit, -1, st->facing, VW_M_STAND_TURNS_TO_FACE,
	    b->units[st->unit].name,
	    s - b->units[st->unit].first_stand + 1, st->facing);
}

int
vw_superior_touching(struct ctx *c, int u, int s)
{
	struct battle *b = c->b;
	struct pt r1[4];
	int i;

	battle_stand_rect(b, s, r1);
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *k = &b->commanders[i];
		struct pt r2[4];

		if (k->gone || commander_out(k) || k->rank == RANK_UNIT ||
		    !battle_in_chain(b, i, u))
			continue;
		geom_rect(k->pos, k->facing, FX(1.5), FX(1.5), r2);
		if (geom_rect_dist(r1, r2) <= P(c, "contact"))
			return i;
	}
	return -1;
}

void
vw_rally_stand(struct ctx *c, int s, int commander, const char *card)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit, sn = s - b->units[u].first_stand + 1;

	b->stands[s].flags &= ~ST_DISORDERED;
	if (commander >= 0)
		vw_ev(c, EV_RALLY, u, -1, sn, VW_M_STAND_RALLIES_TO_COMMANDER,
		    b->units[u].name, sn,
		    b->commanders[commander].name);
	else
		vw_ev(c, EV_RALLY, u, -1, sn, VW_M_STAND_RALLIES_ALONE,
		    b->units[u].name, sn, card);
	vw_rally_face(c, s);
}

static void
phase_rally(struct ctx *c)
{
	struct battle *b = c->b;
	int u, s, i;

	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != c->side)
			continue;
		FOR_STANDS(b, u, s) {
			if (!alive(b, s) || !routed(b, s))
				continue;
			/* A unit commander may never rally. */
			i = vw_superior_touching(c, u, s);
			if (i >= 0)
				vw_rally_stand(c, s, i, NULL);
		}
	}
}

/* Each brigade's loss: the SP it no longer has on the table. */
static void
update_losses(struct battle *b)
{
	int br, u;

	for (br = 0; br < b->nbrigades; br++) {
		int now = 0;

		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == br)
				now += battle_unit_sp(b, u);
		b->brigades[br].lost = b->brigades[br].sp0 - now;
	}
}

void
vw_check_exhaustion(struct ctx *c)
{
	struct battle *b = c->b;
	int br, u, s;

	update_losses(b);
	for (br = 0; br < b->nbrigades; br++) {
		struct brigade *g = &b->brigades[br];

		if (!(g->flags & BR_EXHAUSTED) && g->lost * 10 >= g->level10) {
			g->flags |= BR_EXHAUSTED;
			events_say(c->ev, EV_EXHAUSTED, g->side, -1, -1,
			    g->lost,
			    VW_M_EXHAUSTED, g->name, g->lost, g->sp0,
			    g->level10 / 10,
			    g->level10 % 10);
			for (u = 0; u < b->nunits; u++)
				if (b->units[u].brigade == br)
					FOR_STANDS(b, u, s)
						b->stands[s].flags &= ~ST_STATIONARY;
		}
	}
}

static void
phase_combat(struct ctx *c)
{
	struct battle *b = c->b;
	int i, u;

	for (i = 0; i < b->nbrigades; i++)
		b->brigades[i].hits = 0;
	/* The attacker decides the order of all combat: each of the phasing
	 * side's units in the order of its order lines (then the rest in
	 * scenario order) fights its melee or fires. */
	for (i = 0; i < c->nrank; i++) {
		u = c->rank[i];
		if (c->charge_target[u] >= 0) {
			vw_melee(c, u, c->charge_target[u]);
			continue;
		}
		if (b->units[u].side != c->side || battle_unit_alive(b, u) == 0)
			continue;
		vw_unit_fires(c, u);
	}
	vw_check_exhaustion(c);
}

enum { COLLAPSE_REMOVE = 1, COLLAPSE_ROUT, COLLAPSE_PERMANENT };

static void
phase_collapse(struct ctx *c)
{
	struct battle *b = c->b;
	struct pt away[BATTLE_MAX_UNITS];
	int br, u, s;

	for (br = 0; br < b->nbrigades; br++) {
		struct brigade *g = &b->brigades[br];
		int r;

		if (!(g->flags & BR_EXHAUSTED) || (g->flags & BR_COLLAPSED) ||
		    g->hits == 0)
			continue;
		c->d->side = g->side;
		r = dice_roll(c->d, 6, -1, VW_R_MORALE_COLLAPSE, g->name,
		    g->hits);
		if (r > g->hits) {
			events_say(c->ev, EV_MORALE_PASS, g->side, -1, -1, r,
			    VW_M_HOLDS_TOGETHER,
			    g->name, r, g->hits, g->hits == 1 ? "hit" : "hits");
			continue;
		}
		g->flags |= BR_COLLAPSED;
		events_say(c->ev, EV_COLLAPSE, g->side, -1, -1, r,
		    VW_M_MORALE_COLLAPSE,
		    g->name, r, g->hits, g->hits == 1 ? "hit" : "hits");
		/* Each stand's effect comes from its state as the brigade
		 * collapses: decide them all, then apply them (the routs
		 * last, as they move).  A routing stand turns away from the
		 * nearest enemy unit as they stood then. */
		for (u = 0; u < b->nunits; u++) {
			struct pt uc, vc;
			fx best = INT32_MAX;
			int v;

			if (b->units[u].brigade != br)
				continue;
			away[u] = b->commanders[g->commander].pos;
			if (battle_unit_centre(b, u, &uc))
				for (v = 0; v < b->nunits; v++)
					if (enemy(b, u, v) &&
					    battle_unit_centre(b, v, &vc) &&
					    geom_dist(uc, vc) < best) {
						best = geom_dist(uc, vc);
						away[u] = vc;
					}
			FOR_STANDS(b, u, s)
				c->mark[s] = !alive(b, s) ? 0 : routed(b, s) ?
				    COLLAPSE_REMOVE : disordered(b, s) ?
				    COLLAPSE_ROUT : COLLAPSE_PERMANENT;
		}
		c->collapsing = br;
		for (u = 0; u < b->nunits; u++) {
			if (b->units[u].brigade != br)
				continue;
			FOR_STANDS(b, u, s)
				if (c->mark[s] == COLLAPSE_REMOVE)
					vw_remove_stand(c, s, VW_GONE_COLLAPSE);
				else if (c->mark[s] == COLLAPSE_PERMANENT)
					b->stands[s].flags |= ST_PERMANENT;
		}
		for (u = 0; u < b->nunits; u++) {
			if (b->units[u].brigade != br)
				continue;
			FOR_STANDS(b, u, s)
				if (c->mark[s] == COLLAPSE_ROUT)
					vw_rout_stand(c, s, away[u], "brigade collapse");
		}
		c->collapsing = -1;
	}
}

static void
phase_stationary(struct ctx *c)
{
	struct battle *b = c->b;
	int u, s;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		unsigned char can[BATTLE_MAX_STANDS];
		int ok, n, of;

		if (un->side != c->side || !c->hold[u] || c->moved[u])
			continue;
		ok = (un->kind == KIND_INFANTRY || un->kind == KIND_ARTILLERY) &&
		    !unit_exhausted(b, u) && unit_form(b, u) != FORM_ROAD;
		/* Stand by stand: disorder is no bar (the text: in command, no
		 * move, no recovery); being out of command is, and so are
		 * forest, thicket and swamp. */
		memset(can, 0, sizeof(can));
		n = of = 0;
		FOR_STANDS(b, u, s) {
			struct pt p = b->stands[s].pos;

			if (!active(b, s))
				continue;
			of++;
			if (ok && c->in_cmd[s] && !area_at(b, p, T_FOREST) &&
			    !area_at(b, p, T_THICKET) && !area_at(b, p, T_SWAMP)) {
				can[s - un->first_stand] = 1;
				n++;
			}
		}
		if (n == 0) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_CANNOT_GO_STATIONARY, un->name);
			continue;
		}
		FOR_STANDS(b, u, s)
			if (can[s - un->first_stand])
				b->stands[s].flags |= ST_STATIONARY;
		if (n == of)
			vw_ev(c, EV_STATIONARY, u, -1, 0, VW_M_STATIONARY,
			    un->name);
		else
			vw_ev(c, EV_STATIONARY, u, -1, n,
			    VW_M_STATIONARY_IN_PART, un->name, n, of);
	}
}

/*
 * A step's context, zeroed but for two scratch tables each written
 * before it is read: the entries of the hits scratch (a hit is written
 * whole when scored and read only below hits.n) and the stands saved to
 * undo a unit's move (unit_save copies the unit's stands, unit_restore
 * reads back as many).  The context is 1.4 MB, 1.31 MB of it those two,
 * of which a phase uses a few KB.  calloc zeroed all of it every step,
 * and each page it first touches is a page fault: at 100 and 200 stands
 * that was most of the first phases' time (issue 24: phase 2 took 180
 * and 299 faults, 3.7 and 7.1 ms against medians of 0.9 and 2.4), no
 * work of the rules.  Left alone, the tables' pages are faulted in only
 * as far as they are used.
 */
_Static_assert(offsetof(struct ctx, hits) + sizeof(struct hits) <=
    offsetof(struct ctx, saved), "ctx_new zeroes around hits, then saved");

static struct ctx *
ctx_new(void)
{
	struct ctx *c = malloc(sizeof(*c));
	size_t h0 = offsetof(struct ctx, hits.v);
	size_t h1 = h0 + sizeof(c->hits.v);
	size_t s0 = offsetof(struct ctx, saved);
	size_t s1 = s0 + sizeof(c->saved);

	if (c == NULL)
		return NULL;
	memset(c, 0, h0);
	memset((char *)c + h1, 0, s0 - h1);
	memset((char *)c + s1, 0, sizeof(*c) - s1);
	return c;
}

static const struct vw_rules vnb_rules = {
	.rs = &ruleset_vnb_wing,
	.cards = 1,
};

int
vnb_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *evs, struct err *e)
{
	return vw_adjudicate(&vnb_rules, NULL, b, step, orders, nsets, d, evs,
	    e);
}

int
vw_adjudicate(const struct vw_rules *w, void *ext, struct battle *b,
    int step, const struct order_set *orders, int nsets, struct dice *d,
    struct events *evs, struct err *e)
{
	struct ctx *c = ctx_new();
	const struct order_set *mine = NULL;
	unsigned char *ranked = NULL;
	int i, u, side, rc = -1;
	int clock;

	if (c == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	c->collapsing = -1;
	ranked = calloc(BATTLE_MAX_UNITS, 1);
	if (ranked == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto out;
	}
	c->b = b;
	c->rs = w->rs;
	c->w = w;
	c->ext = ext;
	c->d = d;
	battle_ground_index(b);
	/* Each unit's box in a grid (issue 24), kept by battle_unit_moved
	 * wherever a stand moves, goes, or changes its size: the searches
	 * of the enemy near a unit walk what it lists. */
	battle_units_index(b);
	c->ev = evs;
	c->step = step;
	c->turn = battle_step_turn(b, step);
	side = c->side = battle_step_side(b, step);
	for (i = 0; i < BATTLE_MAX_UNITS; i++)
		c->fire_target[i] = c->charge_target[i] = -1;
	for (i = 0; i < nsets; i++)
		if (orders[i].side == side)
			mine = &orders[i];
	clock = b->first_minute + (c->turn - 1) * b->minutes;
	events_phase(evs, side, c->turn, b->sides[side].id, clock,
	    b->sides[side].name);
	/* Unit order: order lines first, then scenario order, phasing side
	 * first. */
	for (i = 0; mine != NULL && i < mine->n; i++)
		if (mine->orders[i].special == 0 && !mine->orders[i].is_commander &&
		    !ranked[mine->orders[i].who]) {
			ranked[mine->orders[i].who] = 1;
			c->rank[c->nrank++] = mine->orders[i].who;
		}
	for (u = 0; u < b->nunits; u++)
		if (!ranked[u] && b->units[u].side == side) {
			ranked[u] = 1;
			c->rank[c->nrank++] = u;
		}
	for (u = 0; u < b->nunits; u++)
		if (!ranked[u]) {
			ranked[u] = 1;
			c->rank[c->nrank++] = u;
		}

	/* An election to retire from fire lasts until the side's next
	 * phase. */
	for (i = 0; i < b->nstands; i++)
		if (b->units[b->stands[i].unit].side == side)
			b->stands[i].flags &= ~ST_RETIRES;
	if (w->cards)
		vw_cards_begin(c, mine);
	phase_command(c);
	find_riders(c, mine);
	if (w->phase_begin != NULL)
		w->phase_begin(c);
	for (i = 0; mine != NULL && i < mine->n; i++) {
		if (mine->orders[i].special != 0)
			continue;   /* played above */
		if (mine->orders[i].is_commander)
			do_commander_order(c, &mine->orders[i]);
		else
			do_unit_order(c, &mine->orders[i]);
	}
	phase_stationary(c);
	(w->rally != NULL ? w->rally : phase_rally)(c);
	(w->morale != NULL ? w->morale : vw_phase_morale)(c);
	(w->combat != NULL ? w->combat : phase_combat)(c);
	phase_collapse(c);
	if (w->cards) {
		vw_cards_panic(c);
		vw_cards_end(c);
	}
	if (w->phase_end != NULL)
		w->phase_end(c);
	update_losses(b);
	if (d->failed) {
		*e = d->err;
		goto out;
	}
	if (evs->overflow || c->overflow) {
		err_set(e, ERR_INTERNAL, "the step went past one of the engine's "
		    "limits (events, hits or tie roll-offs); nothing was changed");
		goto out;
	}
	/* A unit with nothing left takes back its base kind, as a reloaded
	 * battle does. */
	battle_sync_kinds(b);
	rc = 0;
out:
	battle_units_unindex(b);
	free(ranked);
	free(c);
	return rc;
}

int
vnb_prepare(struct battle *b, struct err *e)
{
	const struct ruleset *rs = &ruleset_vnb_wing;
	int br, u, s;

	{
		/* A weapon's short range may not reach past its long. */
		int w;

		for (w = WEAPON_MUSKET; w < WEAPON_COUNT; w++) {
			char sn[48], ln[48];

			snprintf(sn, sizeof(sn), "range.%s.short",
			    battle_weapon_name((enum weapon)w));
			snprintf(ln, sizeof(ln), "range.%s.long",
			    battle_weapon_name((enum weapon)w));
			if (!ruleset_has_param(rs, sn) || !ruleset_has_param(rs, ln))
				continue;
			if (ruleset_param(rs, b, sn) > ruleset_param(rs, b, ln))
				return err_set(e, ERR_USER, "%s is longer than %s: set "
				    "them so that short range ends before long range "
				    "does", sn, ln);
		}
	}
	/* Every weapon on the table must be one the ruleset has ranges for. */
	for (u = 0; u < b->nunits; u++) {
		char ln[48];

		if (b->units[u].weapon == WEAPON_NONE)
			continue;
		snprintf(ln, sizeof(ln), "range.%s.long",
		    battle_weapon_name(b->units[u].weapon));
		if (!ruleset_has_param(rs, ln))
			return err_set(e, ERR_USER, "unit \"%s\": vnb-wing has no "
			    "%s (its weapons: musket, rifle, native, light-gun, "
			    "field-gun, howitzer, heavy-gun)", b->units[u].name,
			    battle_weapon_name(b->units[u].weapon));
	}
	for (br = 0; br < b->nbrigades; br++) {
		struct brigade *g = &b->brigades[br];

		g->sp0 = 0;
		g->level10 = 0;
		for (u = 0; u < b->nunits; u++) {
			const struct unit *un = &b->units[u];
			int pct, m = un->morale;
			char name[32];

			if (un->brigade != br)
				continue;
			if (m < ruleset_param(rs, b, "exhaust.morale-min"))
				m = ruleset_param(rs, b, "exhaust.morale-min");
			if (m > ruleset_param(rs, b, "exhaust.morale-max"))
				m = ruleset_param(rs, b, "exhaust.morale-max");
			snprintf(name, sizeof(name), "exhaust.morale%d", m);
			pct = ruleset_param(rs, b, name);
			FOR_STANDS(b, u, s) {
				if (b->stands[s].flags & ST_DETACH)
					continue;
				g->sp0 += b->stands[s].sp0;
				/* tenths of an SP: sp * pct / 10 */
				g->level10 += b->stands[s].sp0 * pct / 10;
			}
		}
		if (g->sp0 == 0)
			return err_set(e, ERR_USER, "brigade \"%s\" has no units",
			    g->name);
	}
	if (vw_prepare_detachments(b, e) != 0)
		return -1;
	battle_sync_kinds(b);
	return 0;
}
