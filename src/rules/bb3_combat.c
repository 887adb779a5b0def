/*
 * bb3_combat.c - firing (and howitzers), officer casualties, melee,
 * morale tests, running away, and the reform that turns a player turn's
 * casualties into stands removed, for Bloodybacks 3.
 *
 * docs/rules-bb3.md, "Firing" to "Reform", says what this does; every
 * number is bb3_data.c's.  Pure, as bb3.c.
 */
#include "rules/bb3_int.h"

#include <stdio.h>
#include <stdlib.h>

/* --- morale ------------------------------------------------------------ */

/* The modifiers every test takes, added to the morale value. */
int
b3_figures_morale_mod(struct ctx *c, int u)
{
	const struct battle *b = c->b;
	int m = 0, k, v;

	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].attached == u && !b->commanders[k].gone) {
			m += P(c, "morale.officer");
			break;
		}
	if (b3_in_cover(b, u))
		m += P(c, "morale.cover");
	for (v = 0; v < b->nunits; v++)
		if (v != u && b->units[v].side == b->units[u].side &&
		    on_table(b, v) && fleeing(b, v) &&
		    battle_unit_gap_within(b, u, v, P(c, "panic.radius"))) {
			m -= P(c, "morale.fleeing");
			break;
		}
	if ((figures(b, u) - c->cas[u]) * 2 <= b->units[u].rules[B3_FIGURES0])
		m -= P(c, "morale.half");
	return m;
}

int
b3_morale(struct ctx *c, int u, int dice, int mod, const char *why)
{
	struct battle *b = c->b;
	int n = dice, i, sum = 0, value;

	if (n == 0)
		n = (cls(b, u) & B3C_NATIVE) && !b3_in_woods(b, u) ?
		    P(c, "morale.native") : P(c, "morale.dice");
	value = b->units[u].rules[B3_MORALE] + mod + b3_figures_morale_mod(c, u);
	for (i = 0; i < n; i++)
		sum += b3_roll(c, 6, u, B3_R_MORALE, b->units[u].name, why, value);
	if (sum <= value) {
		b3_ev(c, EV_MORALE_PASS, u, -1, sum, B3_M_MORALE_PASSES,
		    b->units[u].name, why, sum, value);
		return 1;
	}
	b3_ev(c, EV_MORALE_FAIL, u, -1, sum, B3_M_MORALE_FAILS, b->units[u].name,
	    why, sum, value);
	return 0;
}

/* --- running ----------------------------------------------------------- */

/* 1 if a stand of u lies over a stand of a friend. */
static int
over_a_friend(const struct battle *b, int u)
{
	int v;

	for (v = 0; v < b->nunits; v++)
		if (v != u && b->units[v].side == b->units[u].side &&
		    on_table(b, v) && battle_unit_gap(b, u, v) == 0 &&
		    b3_overlaps(b, u, v))
			return 1;
	return 0;
}

int
b3_run(struct ctx *c, int u, int dir, fx dist)
{
	struct battle *b = c->b;
	static const int aside[3] = { 0, 45, 90 };
	fx went, paid, g;
	int stop, side, k, moved, switched = 0, off;
	struct pt cen;

	b3_turn_in_place(b, u, dir);
	went = b3_move_along(c, u, dir, dist, -1, &stop);
	paid = c->last_paid;
	off = stop == -2;
	if (stop >= 0 && paid < dist) {
		/* Round the unit in the way, still facing the way it runs: a
		 * quarter inch at a time, straight on where it can, else 45
		 * degrees aside, else square aside, to the side a die picks
		 * (the other, once, when that side is shut); straight on
		 * again once past it.  Straight on into the edge runs off;
		 * aside into it, or a river, that way is shut. */
		side = b3_roll(c, 6, u, B3_R_WAY, b->units[u].name) <= 3 ? -1 : 1;
		while (paid < dist && !off) {
			moved = 0;
			for (k = 0; k < 3 && !moved; k++) {
				g = b3_move_upto(c, u, dir + side * aside[k], FX(0.25),
				    dist - paid, -1, &stop);
				if (g > 0) {
					went += g;
					paid += c->last_paid;
					moved = 1;
				} else if (stop == -1)
					break;          /* the ground costs more than is left */
				else if (k == 0 && stop == -2)
					off = 1;
			}
			if (off || (!moved && stop == -1))
				break;
			if (!moved) {
				if (switched)
					break;
				side = -side;
				switched = 1;
			}
		}
	}
	/* A run never ends over a friend (one it was turned onto to run):
	 * it goes on, straight, until it is clear of it, or cannot. */
	for (k = 0; !off && k < 96 && over_a_friend(b, u); k++) {
		g = b3_move_upto(c, u, dir, FX(0.25), FX(1), -1, &stop);
		if (g <= 0) {
			off = stop == -2;
			break;
		}
		went += g;
	}
	c->ran[u] = went;
	if (off) {
		b3_ev(c, EV_ROUT, u, -1, went, B3_M_RUNS_OFF, b->units[u].name);
		b3_remove(c, u);
		return 0;
	}
	battle_unit_centre(b, u, &cen);
	b3_ev(c, EV_ROUT, u, -1, went, B3_M_RUNS, b->units[u].name,
	    fmt_in(c, 0, went), fmt_in(c, 1, cen.x), fmt_in(c, 2, cen.y));
	return 1;
}

void
b3_run_from(struct ctx *c, int u, int from)
{
	struct battle *b = c->b;
	struct pt a, z;
	int n = mounted(b, u) ? P(c, "flee.cavalry") : P(c, "flee.infantry"), i;
	fx dist = 0;
	int dir;

	for (i = 0; i < n; i++)
		dist += FX(b3_roll(c, 6, u, B3_R_RUN, b->units[u].name));
	battle_unit_centre(b, u, &a);
	if (from >= 0 && battle_unit_centre(b, from, &z) &&
	    (a.x != z.x || a.y != z.y))
		dir = geom_bearing(z, a);
	else
		dir = facing_of(b, u) + 180;
	b3_run(c, u, dir, dist);
}

void
b3_break(struct ctx *c, int u, int from)
{
	struct battle *b = c->b;

	if (!on_table(b, u))
		return;
	if (from < 0)
		from = b3_nearest_enemy(b, u, NULL);
	b3_set_flags(b, u, ST_ROUTED, 0);
	b3_ev(c, EV_ROUT, u, from, 0, B3_M_BREAKS, b->units[u].name);
	b3_run_from(c, u, from);
}

/* --- officers ---------------------------------------------------------- */

int
b3_officer_with(const struct battle *b, int u)
{
	int k;

	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].attached == u && !b->commanders[k].gone)
			return k;
	return -1;
}

static void
officer_killed(struct ctx *c, int k, int u)
{
	struct battle *b = c->b;

	b->commanders[k].gone = 1;
	b->commanders[k].attached = -1;
	b->commanders[k].out_until = BATTLE_STEP_AWAY;
	b->commanders[k].out_removed = 1;
	b3_ev(c, EV_COMMANDER, u, -1, k, B3_M_OFFICER_KILLED,
	    b->commanders[k].name, b->units[u].name);
}

/* After an officer's loss by fire: 3d6, failing falls back 2d6" in good
 * order away from `from`. */
static void
officer_loss_test(struct ctx *c, int u, int from)
{
	struct battle *b = c->b;
	struct pt a, z;
	fx dist = 0;
	int i, stop;

	if (b3_morale(c, u, P(c, "morale.native"), 0, "officer"))
		return;
	c->fell_back[u] = 1;
	for (i = 0; i < P(c, "officer.fall-back"); i++)
		dist += FX(b3_roll(c, 6, u, B3_R_FALL_BACK, b->units[u].name));
	battle_unit_centre(b, u, &a);
	battle_unit_centre(b, from, &z);
	dist = b3_move_along(c, u, geom_bearing(z, a), dist, -1, &stop);
	battle_unit_centre(b, u, &a);
	b3_ev(c, EV_RETREAT, u, from, dist, B3_M_FALLS_BACK, b->units[u].name,
	    fmt_in(c, 0, dist), fmt_in(c, 1, a.x), fmt_in(c, 2, a.y));
}

/* --- firing ------------------------------------------------------------ */

int
b3_in_contact(const struct ctx *c, int u)
{
	const struct battle *b = c->b;
	int v;

	for (v = 0; v < b->nunits; v++)
		if (b->units[v].side != b->units[u].side && on_table(b, v) &&
		    battle_unit_gap_within(b, u, v, P(c, "melee.contact")))
			return 1;
	return 0;
}

void
b3_ranges(const struct ctx *c, int u, fx *lng, fx *shrt)
{
	switch ((int)c->b->units[u].weapon) {
	case WEAPON_MUSKET:
		*lng = P(c, "range.musket");
		*shrt = P(c, "range.musket.short");
		break;
	case WEAPON_RIFLE:
		*lng = P(c, "range.rifle");
		*shrt = P(c, "range.rifle.short");
		break;
	case WEAPON_CARBINE:
		*lng = *shrt = P(c, "range.carbine");
		break;
	case WEAPON_LIGHT_GUN:
		*lng = P(c, "range.light-gun");
		*shrt = P(c, "range.light-gun.canister");
		break;
	case WEAPON_FIELD_GUN:
		*lng = P(c, "range.field-gun");
		*shrt = P(c, "range.field-gun.canister");
		break;
	case WEAPON_HEAVY_GUN:
		*lng = P(c, "range.heavy-gun");
		*shrt = P(c, "range.heavy-gun.canister");
		break;
	default:
		*lng = *shrt = -1;
	}
}

/* 1 if woods, buildings or ground higher than both ends lie on the line
 * a-z, outside the ground either end stands on: what a howitzer's shell
 * cannot pass over (fences and hedges it may). */
static int
terrain_between(const struct battle *b, struct pt a, struct pt z)
{
	fx len = geom_dist(a, z), at, st = FX(0.25);
	int top = battle_level_at(b, a) > battle_level_at(b, z) ?
	    battle_level_at(b, a) : battle_level_at(b, z);
	static const enum terrain_kind k[] = { T_WOOD, T_FOREST, T_THICKET,
	    T_TOWN, T_VILLAGE, T_WORKS };
	size_t i;

	for (at = FX(1); at < len - FX(1); at += st) {
		struct pt p = {
			a.x + (fx)((int64_t)(z.x - a.x) * at / len),
			a.y + (fx)((int64_t)(z.y - a.y) * at / len)
		};

		if (battle_level_at(b, p) > top)
			return 1;
		for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			if (battle_area_at(b, p, k[i]) && !battle_area_at(b, a, k[i]) &&
			    !battle_area_at(b, z, k[i]))
				return 1;
	}
	return 0;
}

int
b3_can_fire_at(struct ctx *c, int u, int t, char *why, size_t size)
{
	struct battle *b = c->b;
	fx lng, shrt, d;
	struct pt f, z;
	int off;

	why[0] = '\0';
	if (!on_table(b, u) || !on_table(b, t))
		snprintf(why, size, "its target is gone");
	else if (fleeing(b, u))
		snprintf(why, size, "it is fleeing");
	else if (b->units[u].state[B3_MARKS] & B3M_RALLIED)
		snprintf(why, size, "it has just rallied");
	else if (b3_in_contact(c, u))
		snprintf(why, size, "it is in melee");
	else if (b3_in_contact(c, t))
		snprintf(why, size, "its target is in melee");
	else if (b->units[u].weapon == WEAPON_NONE)
		snprintf(why, size, "it has no weapon to fire");
	else if (b->units[u].kind == KIND_ARTILLERY &&
	    battle_unit_form(b, u) == FORM_ROAD)
		snprintf(why, size, "its guns are limbered");
	if (why[0])
		return 0;
	f = b3_front(b, u);
	battle_unit_centre(b, t, &z);
	if (b->units[u].weapon == WEAPON_HOWITZER) {
		battle_unit_centre(b, u, &f);
		d = geom_dist(f, z);
		if (d < P(c, "howitzer.min") || d > P(c, "howitzer.max"))
			snprintf(why, size, "its target is %s\" away (a howitzer fires "
			    "at 8\" to 36\")", fmt_in(c, 3, d));
		else if (terrain_between(b, f, z))
			snprintf(why, size, "woods, buildings or higher ground lie "
			    "between it and its target (only low walls and hedges may)");
		return why[0] == '\0';
	}
	off = geom_turn(facing_of(b, u), geom_bearing(f, z));
	b3_ranges(c, u, &lng, &shrt);
	d = b3_point_gap(b, f, t);
	if (off > P(c, "arc") || off < -P(c, "arc"))
		snprintf(why, size, "its target is not within %d degrees of its "
		    "front", P(c, "arc"));
	else if (d > lng)
		snprintf(why, size, "its target is %s\" away, out of its range of "
		    "%s\"", fmt_in(c, 3, d), fmt_in(c, 2, lng));
	else if (!b3_sees_unit(b, u, t))
		snprintf(why, size, "it cannot see its target");
	return why[0] == '\0';
}

/* The firing points of unit u at range d (short: within its short
 * range). */
static int
fire_points(struct ctx *c, int u, int shrt)
{
	const struct battle *b = c->b;
	int s, n = 0, per;

	if (b->units[u].kind == KIND_ARTILLERY) {
		per = b->units[u].weapon == WEAPON_LIGHT_GUN ?
		    P(c, "points.light-gun") : b->units[u].weapon ==
		    WEAPON_FIELD_GUN ? P(c, "points.field-gun") :
		    P(c, "points.heavy-gun");
		if (shrt)
			per += P(c, "points.canister");
		FOR_STANDS(b, u, s)
			n += alive(b, s) ? per : 0;
		return n;
	}
	FOR_STANDS(b, u, s)
		n += alive(b, s);
	if (mounted(b, u)) {
		n /= P(c, "points.cavalry");
		return n < 1 ? 1 : n;
	}
	return n * ((cls(b, u) & B3C_SKIRMISH) ? P(c, "points.skirmish") :
	    P(c, "points.formed"));
}

/* 1 if a fence or hedge crosses the line from a to z within 2" of z:
 * cover in front of a target at z from fire from a. */
static int
behind_obstacle(const struct battle *b, struct pt a, struct pt z)
{
	fx len = geom_dist(a, z);
	struct pt near = z;

	if (len > FX(2)) {
		near.x = z.x + (fx)((int64_t)(a.x - z.x) * FX(2) / len);
		near.y = z.y + (fx)((int64_t)(a.y - z.y) * FX(2) / len);
	} else
		near = a;
	return b3_crosses(b, near, z, T_FENCE) >= 0 ||
	    b3_crosses(b, near, z, T_HEDGE) >= 0;
}

/* A modifier v of fire, told in why (its words, "" to start). */
static void
mod_word(char *why, size_t size, int v, const char *what)
{
	size_t n = strlen(why);

	if (v != 0 && n < size)
		snprintf(why + n, size - n, "%s%+d %s", n ? ", " : "", v, what);
}

/* The modifiers the target's state and ground give fire at it, told in
 * why (NULL: not told). */
static int
target_mods(struct ctx *c, int u, int t, char *why, size_t size)
{
	struct battle *b = c->b;
	struct pt z, a;
	char scratch[8];
	int m = 0;

	if (why == NULL) {
		why = scratch;
		size = sizeof(scratch);
	}
	why[0] = '\0';
	if (cls(b, t) & (B3C_SKIRMISH | B3C_CREW)) {
		m -= P(c, "fire.skirmish");
		mod_word(why, size, -P(c, "fire.skirmish"), cls(b, t) & B3C_CREW ?
		    "at a gun's crew" : "at skirmishers");
	}
	battle_unit_centre(b, t, &z);
	battle_unit_centre(b, u, &a);
	if (battle_area_at(b, z, T_TOWN) || battle_area_at(b, z, T_VILLAGE) ||
	    battle_area_at(b, z, T_WORKS)) {
		m -= P(c, "fire.hard");
		mod_word(why, size, -P(c, "fire.hard"), "hard cover");
	} else if (b3_in_woods(b, t) || behind_obstacle(b, a, z)) {
		m -= P(c, "fire.soft");
		mod_word(why, size, -P(c, "fire.soft"), b3_in_woods(b, t) ?
		    "in the woods" : "behind a fence or hedge");
	}
	return m;
}

/* Figures hit on t by u (kills), the officer's d10 where one is with it,
 * and the 25% test. */
static void
take_fire(struct ctx *c, int u, int t, int kills)
{
	struct battle *b = c->b;
	int k = b3_officer_with(b, t), r;

	if (kills <= 0)
		return;
	if (kills > figures(b, t) - c->cas[t])
		kills = figures(b, t) - c->cas[t];
	if (k >= 0) {
		int need = b->units[u].weapon == WEAPON_RIFLE ?
		    P(c, "officer.rifle") : P(c, "officer.fire");

		r = b3_roll(c, 10, t, B3_R_OFFICER, b->commanders[k].name, need);
		if (r >= need) {
			kills--;
			officer_killed(c, k, t);
			c->cas[t] += kills;
			c->fire_cas[t] += kills;
			b3_ev(c, EV_LOSS, t, u, kills, B3_M_LOSES, b->units[t].name,
			    kills, kills == 1 ? "" : "s");
			officer_loss_test(c, t, u);
			goto test;
		}
	}
	c->cas[t] += kills;
	c->fire_cas[t] += kills;
	b3_ev(c, EV_LOSS, t, u, kills, B3_M_LOSES, b->units[t].name, kills,
	    kills == 1 ? "" : "s");
test:
	if (c->firing_phase && on_table(b, t) && !fleeing(b, t) &&
	    c->fire_base[t] > 0 &&
	    c->fire_cas[t] * 100 >= c->fire_base[t] * P(c, "fire.test") &&
	    c->fire_cas[t] - kills < (c->fire_base[t] * P(c, "fire.test") +
	    99) / 100 && !b3_morale(c, t, 0, 0, "fire"))
		b3_break(c, t, u);
}

static void howitzer(struct ctx *c, int u, int t);

int
b3_fire(struct ctx *c, int u, int t, int half, int pick_off)
{
	struct battle *b = c->b;
	char why[128];
	fx lng, shrt, d;
	int pts, r, score, k, i, mods;

	if (b->units[u].weapon == WEAPON_HOWITZER) {
		/* (a howitzer answering a charge fires its shell) */
		howitzer(c, u, t);
		return 0;
	}
	if (!b3_can_fire_at(c, u, t, why, sizeof(why))) {
		b3_ev(c, EV_ORDER_REFUSED, u, t, 0, B3_M_CANNOT_FIRE,
		    b->units[u].name, why);
		return -1;
	}
	if (c->fire_base[t] == 0)
		c->fire_base[t] = figures(b, t) - c->cas[t];
	b3_ranges(c, u, &lng, &shrt);
	d = b3_point_gap(b, b3_front(b, u), t);
	pts = fire_points(c, u, d <= shrt);
	/* American skirmishers' points spent on officers. */
	if (pick_off > 0 && (cls(b, u) & B3C_AMERICAN) &&
	    (k = b3_officer_with(b, t)) >= 0) {
		int need = b->units[u].weapon == WEAPON_RIFLE ?
		    P(c, "officer.rifle") : P(c, "officer.fire");

		if (pick_off > pts)
			pick_off = pts;
		pts -= pick_off;
		for (i = 0; i < pick_off; i++)
			if (b3_roll(c, 10, u, B3_R_PICK_OFF, b->commanders[k].name,
			    need) >= need) {
				officer_killed(c, k, t);
				officer_loss_test(c, t, u);
				break;
			}
		if (!on_table(b, t))
			return 0;
	}
	r = b3_roll(c, 3, u, B3_R_FIRE, b->units[u].name, b->units[t].name);
	mods = target_mods(c, u, t, why, sizeof(why));
	if (cls(b, u) & B3C_ELITE) {
		mods += P(c, "fire.elite");
		mod_word(why, sizeof(why), P(c, "fire.elite"), "elite");
	}
	if (cls(b, u) & B3C_MILITIA) {
		mods -= P(c, "fire.militia");
		mod_word(why, sizeof(why), -P(c, "fire.militia"), "militia");
	}
	if (!(b->units[u].state[B3_MARKS] & B3M_VOLLEYED)) {
		mods += P(c, "fire.first");
		mod_word(why, sizeof(why), P(c, "fire.first"), "first volley");
		b->units[u].state[B3_MARKS] |= B3M_VOLLEYED;
	}
	if (why[0] != '\0' && strlen(why) + 4 <= sizeof(why)) {
		memmove(why + 2, why, strlen(why) + 1);
		why[0] = ' ';
		why[1] = '(';
		strncat(why, ")", sizeof(why) - strlen(why) - 1);
	}
	score = pts + r + mods;
	if (d > shrt)
		score /= 2;
	if (half)
		score /= 2;
	if (score < 0)
		score = 0;
	b3_ev(c, EV_FIRE, u, t, score, B3_M_FIRES, b->units[u].name,
	    b->units[t].name, pts, r, mods, d > shrt && half ?
	    ", halved at long range and again for turning about" : d > shrt ?
	    ", halved at long range" : half ? ", halved for turning about" : "",
	    score, why);
	take_fire(c, u, t, score);
	return score;
}

/* A howitzer's shell at t. */
static void
howitzer(struct ctx *c, int u, int t)
{
	struct battle *b = c->b;
	char why[128];
	struct pt p;
	int covered[BATTLE_MAX_UNITS], n = 0, v, hit, score;
	fx radius = P(c, "howitzer.burst") / 2;

	if (!b3_can_fire_at(c, u, t, why, sizeof(why))) {
		b3_ev(c, EV_ORDER_REFUSED, u, t, 0, B3_M_CANNOT_FIRE,
		    b->units[u].name, why);
		return;
	}
	battle_unit_centre(b, t, &p);
	if (b3_roll(c, 6, u, B3_R_SCATTER, b->units[u].name) >
	    P(c, "howitzer.hit")) {
		int faces = P(c, "howitzer.direction");
		int dir = b3_roll(c, faces, u, B3_R_DIRECTION, b->units[u].name) *
		    360 / faces;
		int a = b3_roll(c, 6, u, B3_R_DISTANCE, b->units[u].name);
		fx go = (fx)a * P(c, "howitzer.step");

		if (a == P(c, "howitzer.misfire")) {
			b3_ev(c, EV_FIRE, u, t, 0, B3_M_MISFIRE, b->units[u].name);
			return;
		}
		p = geom_offset(p, dir, go);
		b3_ev(c, EV_FIRE, u, t, (int)(go / FX(1)), B3_M_SCATTERS,
		    b->units[u].name, (int)(go / FX(1)), dir % 360);
	} else
		b3_ev(c, EV_FIRE, u, t, 0, B3_M_SHELL_ON, b->units[u].name,
		    b->units[t].name);
	for (v = 0; v < b->nunits; v++)
		if (on_table(b, v) && b3_point_gap(b, p, v) <= radius)
			covered[n++] = v;
	if (n == 0) {
		b3_ev(c, EV_FIRE, u, -1, 0, B3_M_SHELL_EMPTY, b->units[u].name);
		return;
	}
	hit = n == 1 ? covered[0] : covered[b3_roll(c, n, u, B3_R_WHICH,
	    b->units[u].name) - 1];
	if (c->fire_base[hit] == 0)
		c->fire_base[hit] = figures(b, hit) - c->cas[hit];
	for (score = 0, v = 0; v < P(c, "howitzer.dice"); v++)
		score += b3_roll(c, 3, u, B3_R_SHELL, b->units[hit].name);
	score += target_mods(c, u, hit, NULL, 0);
	if (score < 0)
		score = 0;
	b3_ev(c, EV_FIRE, u, hit, score, B3_M_SHELL_HITS, b->units[u].name,
	    b->units[hit].name, score);
	take_fire(c, u, hit, score);
}

void
b3_firing_phase(struct ctx *c)
{
	struct battle *b = c->b;
	int u, i, j;

	memset(c->fire_cas, 0, sizeof(c->fire_cas));
	memset(c->fire_base, 0, sizeof(c->fire_base));
	c->firing_phase = 1;
	/* In the order of the lines. */
	for (j = 0; c->mine != NULL && j < c->mine->n; j++) {
		const struct order *o = &c->mine->orders[j];
		int t = -1, pick = 0;

		u = o->who;
		if (o->special != 0 || o->is_commander || !on_table(b, u))
			continue;
		for (i = 0; i < o->nsteps; i++) {
			if (o->steps[i].verb == V_FIRE_AT)
				t = o->steps[i].target;
			else if (o->steps[i].verb == B3_V_PICK_OFF)
				pick = o->steps[i].angle;
		}
		if (t < 0)
			continue;
		if (b->units[u].weapon == WEAPON_HOWITZER)
			howitzer(c, u, t);
		else
			b3_fire(c, u, t, 0, pick);
	}
	c->firing_phase = 0;
}

/* --- melee ------------------------------------------------------------- */

/* 1 if stands s and t are within lim of each other, edge to edge. */
static int
stands_within(const struct battle *b, int s, int t, fx lim)
{
	struct pt r[4], q[4];

	if (battle_stands_apart(b, s, t, lim))
		return 0;
	battle_stand_rect(b, s, r);
	battle_stand_rect(b, t, q);
	return geom_rect_dist(r, q) <= lim;
}

/* The figures of u on stands in contact with v, or overlapping: touching
 * a stand of u that is. */
static int
melee_figures(struct ctx *c, int u, int v)
{
	struct battle *b = c->b;
	unsigned char in[BATTLE_MAX_STANDS];
	fx lim = P(c, "melee.contact");
	int s, t, n = 0;

	FOR_STANDS(b, u, s) {
		in[s] = 0;
		if (!alive(b, s))
			continue;
		FOR_STANDS(b, v, t)
			if (alive(b, t) && stands_within(b, s, t, lim))
				in[s] = 1;
	}
	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		if (in[s]) {
			n += b->stands[s].sp;
			continue;
		}
		FOR_STANDS(b, u, t)
			if (t != s && alive(b, t) && in[t] &&
			    stands_within(b, s, t, lim)) {
				n += b->stands[s].sp;
				break;
			}
	}
	return n;
}

/* Stands of u's side, of other units out of contact, within 3" behind
 * u's stands (at most melee.support.max). */
static int
supports(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int v, s, t, n = 0;

	for (v = 0; v < b->nunits; v++) {
		if (v == u || b->units[v].side != b->units[u].side ||
		    !on_table(b, v) || b3_in_contact(c, v) || fleeing(b, v))
			continue;
		FOR_STANDS(b, v, s) {
			if (!alive(b, s))
				continue;
			FOR_STANDS(b, u, t)
				if (alive(b, t) && stands_within(b, s, t,
				    P(c, "melee.support.range")) &&
				    abs(geom_turn(b->stands[t].facing,
				    geom_bearing(b->stands[t].pos, b->stands[s].pos))) >
				    90) {
					n++;
					break;
				}
		}
	}
	return n > P(c, "melee.support.max") ? P(c, "melee.support.max") : n;
}

static int
melee_mods(struct ctx *c, int u, int v)
{
	struct battle *b = c->b;
	struct pt a, z;
	int m = 0;

	if (b->units[u].state[B3_MARKS] & (B3M_CHARGED | B3M_PURSUED))
		m += P(c, "melee.charging");
	battle_unit_centre(b, u, &a);
	battle_unit_centre(b, v, &z);
	if (battle_level_at(b, a) > battle_level_at(b, z) ||
	    (!(b->units[u].state[B3_MARKS] & (B3M_CHARGED | B3M_PURSUED)) &&
	    (battle_near_line(b, a, T_FENCE, FX(2)) ||
	    battle_near_line(b, a, T_HEDGE, FX(2)))))
		m += P(c, "melee.uphill");
	m += supports(c, u) * P(c, "melee.support");
	if ((b->units[u].state[B3_MARKS] & B3M_CHARGED) && c->face[u] != 0)
		m += P(c, "melee.flank");
	if (cls(b, u) & B3C_ELITE)
		m += P(c, "melee.elite");
	if (cls(b, u) & B3C_MILITIA)
		m -= P(c, "melee.militia");
	if (disordered(b, u))
		m -= P(c, "melee.disordered");
	return m;
}

static int
melee_dice(struct ctx *c, int u, int v, int *sixes)
{
	struct battle *b = c->b;
	int figs = melee_figures(c, u, v), n, i, hits = 0;

	n = figs / (mounted(b, u) ? P(c, "melee.horse") : P(c, "melee.foot"));
	if (n < 1)
		n = 1;
	*sixes = 0;
	for (i = 0; i < n; i++) {
		int r = b3_roll(c, 6, u, B3_R_MELEE, b->units[u].name);

		if (r >= P(c, "melee.hit"))
			hits++;
		if (r >= P(c, "melee.officer"))
			(*sixes)++;
	}
	return hits;
}

static void
melee_officers(struct ctx *c, int u, int v, int sixes)
{
	struct battle *b = c->b;
	int k, i;

	for (i = 0; i < sixes && (k = b3_officer_with(b, v)) >= 0; i++)
		if (b3_roll(c, 10, u, B3_R_OFFICER, b->commanders[k].name,
		    P(c, "officer.melee")) >= P(c, "officer.melee"))
			officer_killed(c, k, v);
}

static void
pursue(struct ctx *c, int w, int l)
{
	struct battle *b = c->b;
	struct pt a, z;
	fx dist = 0;
	int i, stop, v, caught;

	for (i = 0; i < P(c, "pursuit.dice"); i++)
		dist += FX(b3_roll(c, 6, w, B3_R_PURSUIT, b->units[w].name));
	caught = on_table(b, l) && dist >= c->ran[l];
	if (caught) {
		b3_ev(c, EV_ELIMINATED, l, w, 0, B3_M_CAUGHT, b->units[l].name,
		    b->units[w].name);
		b3_remove(c, l);
	}
	dist = b3_move_along(c, w, facing_of(b, w), dist, B3_ANY_ENEMY, &stop);
	battle_unit_centre(b, w, &a);
	b3_ev(c, EV_MOVE, w, l, dist, B3_M_PURSUES, b->units[w].name,
	    fmt_in(c, 0, dist), fmt_in(c, 1, a.x), fmt_in(c, 2, a.y));
	/* After a catch it may wheel up to 45 degrees: towards the nearest
	 * enemy. */
	if (caught && (v = b3_nearest_enemy(b, w, NULL)) >= 0 &&
	    battle_unit_centre(b, v, &z)) {
		int turn = geom_turn(facing_of(b, w), geom_bearing(a, z)), lim;

		lim = P(c, "charge.wheel");
		turn = turn > lim ? lim : turn < -lim ? -lim : turn;
		if (turn != 0) {
			b3_turn_in_place(b, w, facing_of(b, w) + turn);
			b3_ev(c, EV_FACING, w, v, turn, B3_M_WHEELS, b->units[w].name,
			    geom_norm(facing_of(b, w)));
		}
	}
	/* Into contact with a fresh enemy: it fights it in the next melee
	 * phase, as charging. */
	if (b3_in_contact(c, w))
		b->units[w].state[B3_MARKS] |= B3M_PURSUED;
}

static void
melee(struct ctx *c, int u, int v)
{
	struct battle *b = c->b;
	int hu, hv, su, sv, score_u, score_v, w, l, diff, m;

	b3_ev(c, EV_MELEE_WON, u, v, 0, B3_M_MELEE, b->units[u].name,
	    b->units[v].name);
	hu = melee_dice(c, u, v, &su);
	hv = melee_dice(c, v, u, &sv);
	melee_officers(c, u, v, su);
	melee_officers(c, v, u, sv);
	c->cas[v] += hu > figures(b, v) - c->cas[v] ? figures(b, v) - c->cas[v] :
	    hu;
	c->cas[u] += hv > figures(b, u) - c->cas[u] ? figures(b, u) - c->cas[u] :
	    hv;
	score_u = hu + melee_mods(c, u, v);
	score_v = hv + melee_mods(c, v, u);
	if (score_u != score_v) {
		w = score_u > score_v ? u : v;
		diff = score_u > score_v ? score_u - score_v : score_v - score_u;
	} else {
		/* A draw: a d6 each, the lower loses (ties rolled again). */
		int ru, rv;

		do {
			ru = b3_roll(c, 6, u, B3_R_DRAW, b->units[u].name);
			rv = b3_roll(c, 6, v, B3_R_DRAW, b->units[v].name);
		} while (ru == rv && !c->d->failed);
		w = ru > rv ? u : v;
		diff = 0;
	}
	l = w == u ? v : u;
	if (score_u == score_v)
		b3_ev(c, EV_MELEE_WON, w, l, 0, B3_M_WINS_DRAW, b->units[w].name,
		    b->units[l].name, score_u);
	else
		b3_ev(c, EV_MELEE_WON, w, l, diff, B3_M_WINS, b->units[w].name,
		    b->units[l].name, w == u ? score_u : score_v, w == u ? score_v :
		    score_u);
	b3_ev(c, EV_MELEE_LOST, l, w, diff, B3_M_LOSES_MELEE, b->units[l].name);
	if (b3_morale(c, l, 0, -diff, "melee"))
		return;
	b3_break(c, l, w);
	for (m = 0; m < b->nunits; m++)
		if (m != l && b->units[m].side == b->units[l].side &&
		    on_table(b, m) && (cls(b, m) & B3C_MILITIA) &&
		    mounted(b, m) == mounted(b, l) && !fleeing(b, m) &&
		    battle_unit_gap_within(b, m, l, P(c, "militia.radius")) &&
		    !b3_morale(c, m, 0, 0, "militia"))
			b3_break(c, m, w);
	if (mounted(b, w) && on_table(b, w) && !fleeing(b, w))
		pursue(c, w, l);
}

void
b3_melee_phase(struct ctx *c)
{
	struct battle *b = c->b;
	unsigned char fought[BATTLE_MAX_UNITS], pursued[BATTLE_MAX_UNITS];
	int pass, u, v;

	memset(fought, 0, sizeof(fought));
	/* A pursuit into contact counts as charging in the melee phase after
	 * it, and then no more. */
	for (u = 0; u < b->nunits; u++)
		pursued[u] = (b->units[u].state[B3_MARKS] & B3M_PURSUED) != 0;
	for (pass = 0; pass < 2; pass++)
		for (u = 0; u < b->nunits; u++) {
			if ((b->units[u].side == c->side) != (pass == 0) ||
			    fought[u] || !on_table(b, u))
				continue;
			for (v = 0; v < b->nunits; v++)
				if (b->units[v].side != b->units[u].side && !fought[v] &&
				    on_table(b, v) && battle_unit_gap_within(b, u, v,
				    P(c, "melee.contact"))) {
					fought[u] = fought[v] = 1;
					melee(c, u, v);
					break;
				}
		}
	for (u = 0; u < b->nunits; u++)
		if (pursued[u])
			b->units[u].state[B3_MARKS] &= ~B3M_PURSUED;
}

/* --- reform ------------------------------------------------------------ */

static void
reform_unit(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int e = b->units[u].rules[B3_EQUIV], n, odd, i, s, six = 0, removed = 0,
	    left = 0, cas = c->cas[u];

	c->cas[u] = 0;
	if (e <= 0)
		e = 6;
	n = cas / e;
	odd = cas % e;
	for (i = 0; i < odd; i++)
		if (b3_roll(c, 6, u, B3_R_ODD, b->units[u].name) >= P(c, "reform.odd"))
			six = 1;
	n += six;
	for (s = b->units[u].first_stand + b->units[u].nstands - 1;
	    s >= b->units[u].first_stand && removed < n * e; s--)
		if (alive(b, s)) {
			removed += b->stands[s].sp;
			b->stands[s].flags |= ST_GONE;
		}
	battle_unit_moved(b, u);
	FOR_STANDS(b, u, s)
		left += alive(b, s);
	if (n > 0)
		b3_ev(c, EV_LOSS, u, -1, n, B3_M_REFORMS, b->units[u].name, cas,
		    n, n == 1 ? "" : "s");
	else
		b3_ev(c, EV_REFORM, u, -1, 0, B3_M_REFORMS_WHOLE, b->units[u].name,
		    cas);
	if (left == 0) {
		b3_remove(c, u);
		return;
	}
	if (left <= 1 && !(cls(b, u) & (B3C_SKIRMISH | B3C_CONVERGED))) {
		b3_remove(c, u);
		return;
	}
	if (fleeing(b, u))
		return;
	if (n > 0 || ((cls(b, u) & B3C_MILITIA) && !b3_in_cover(b, u))) {
		if (!b3_morale(c, u, 0, -n, "reform"))
			b3_break(c, u, -1);
	}
}

void
b3_reform(struct ctx *c)
{
	struct battle *b = c->b;
	int pass, u;

	for (pass = 0; pass < 2; pass++)
		for (u = 0; u < b->nunits; u++)
			if ((b->units[u].side == c->side) == (pass == 0) &&
			    c->cas[u] > 0 && on_table(b, u))
				reform_unit(c, u);
}
