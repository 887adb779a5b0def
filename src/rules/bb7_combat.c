/*
 * bb7_combat.c - hits, morale, shooting and melee for the bb7 adjudicator
 * (docs/rules-bb7.md: Shooting, Hits, Melee, Morale).  Pure, as the rest
 * of it.
 */
#include "rules/bb7_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- hits ------------------------------------------------------------- */

static void
remove_unit(struct ctx *c, int u, const char *why)
{
	struct battle *b = c->b;
	int s;

	FOR_STANDS(b, u, s)
		b->stands[s].flags |= ST_GONE;
	battle_unit_moved(b, u);
	b7_ev(c, EV_ELIMINATED, u, -1, 0, B7_M_REMOVED,
	    b->units[u].name, why);
}

static void
add_dp(struct ctx *c, int u, const char *why)
{
	struct unit *un = &c->b->units[u];

	if (un->state[B7_DISRUPTION] >= P(c, "dp.max"))
		return;
	un->state[B7_DISRUPTION]++;
	b7_ev(c, EV_DISORDER, u, -1, un->state[B7_DISRUPTION], B7_M_TAKES_DISRUPTION,
	    un->name, why, un->state[B7_DISRUPTION]);
}

/* n hits on unit t: the first of the game turn a DP (a kill at the
 * most), the others kills; each kill may bring a DP by a d6. */
static void
apply_hits(struct ctx *c, int t, int n)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[t];
	int i;

	for (i = 0; i < n && figures(b, t) > 0; i++) {
		int size, s, last = -1, r;

		if (!(un->state[B7_MARKS] & UM_HIT)) {
			un->state[B7_MARKS] |= UM_HIT;
			if (un->state[B7_DISRUPTION] < P(c, "dp.max")) {
				add_dp(c, t, "the first hit this turn");
				continue;
			}
		}
		size = figures(b, t);
		FOR_STANDS(b, t, s)
			if (alive(b, s) && b->stands[s].sp > 0)
				last = s;
		b->stands[last].sp--;
		b7_ev(c, EV_LOSS, t, -1, 1, B7_M_LOSES_FIGURE, un->name,
		    size - 1);
		if (b->stands[last].sp == 0) {
			b->stands[last].flags |= ST_GONE;
			battle_unit_moved(b, t);
		}
		/* The text: a DP if the d6 is greater than the size divided
		 * by 6, compared exactly. */
		r = b7_roll(c, 6, t, B7_R_KILL_DISRUPTION_POINT, un->name, size,
		    P(c, "kill.divisor"));
		if (r * P(c, "kill.divisor") > size)
			add_dp(c, t, "a kill");
		if (figures(b, t) == 0)
			remove_unit(c, t, "no figures left");
	}
}

/* --- morale ----------------------------------------------------------- */

/* A morale check; `worse` is taken from the success number (the melee
 * loser's difference in casualties). */
void
b7_morale_check(struct ctx *c, int u, const char *why, int worse)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	struct pt cen, ec;
	int i, need, ok = 0, foe;
	int cover;

	if (!battle_unit_centre(b, u, &cen))
		return;
	cover = in_cover(b, cen);
	need = (cover ? P(c, "morale.cover") + un->rules[B7_QUALITY] :
	    P(c, "morale.open") * un->rules[B7_QUALITY]) - worse;
	for (i = 0; i < P(c, "morale.dice"); i++)
		if (b7_roll(c, 12, u, B7_R_MORALE_SUCCEEDS_LESS,
		    un->name, why, need) <= need)
			ok++;
	foe = b7_nearest_enemy(b, u);
	if (ok == 0) {
		b7_ev(c, EV_MORALE_FAIL, u, -1, ok, B7_M_CHECKS_MORALE_FAILS,
		    un->name, why);
		remove_unit(c, u, "surrendered");
		return;
	}
	if (ok >= P(c, "morale.dice")) {
		b7_ev(c, EV_MORALE_PASS, u, -1, ok,
		    B7_M_CHECKS_MORALE_SUCCESSES, un->name, why, ok);
		return;
	}
	if (ok == 1)
		b7_ev(c, EV_MORALE_FAIL, u, -1, ok, B7_M_CHECKS_MORALE_ROUTS,
		    un->name, why, ok, "success");
	else
		b7_ev(c, EV_MORALE_FAIL, u, -1, ok, B7_M_CHECKS_MORALE_PUSHED_BACK,
		    un->name, why, ok, "successes");
	if (foe < 0 || !battle_unit_centre(b, foe, &ec))
		return;
	{
		int away = geom_bearing(ec, cen);
		fx went = b7_move_along(c, u, away, b7_forced_move(c, u, away));

		b7_turn_in_place(b, u, ok == 1 ? away : geom_norm(away + 180));
		if (ok == 1)
			b7_ev(c, EV_RETREAT, u, foe, (int)went, B7_M_ROUTS_FROM,
			    un->name, fmt_in(c, 0, went), b->units[foe].name);
		else
			b7_ev(c, EV_RETREAT, u, foe, (int)went,
			    B7_M_FALLS_BACK_FROM,
			    un->name, fmt_in(c, 0, went), b->units[foe].name);
	}
}

/* --- shooting ----------------------------------------------------------- */

/* Guns' dice at range g for calibre name ("light", "field", "heavy"):
 * 4 to 1, or 0 out of range. */
static int
gun_dice(struct ctx *c, const char *cal, fx g)
{
	int n;

	for (n = 4; n >= 1; n--) {
		char name[32];
		fx reach;

		snprintf(name, sizeof(name), "gun.%s.%d", cal, n);
		reach = P(c, name);
		if (reach > 0 && g <= reach)
			return n;
	}
	return 0;
}

static const char *
calibre(enum weapon w)
{
	return w == WEAPON_LIGHT_GUN ? "light" : w == WEAPON_HEAVY_GUN ?
	    "heavy" : "field";
}

/* Rolls n dice at the unit's shot; how many hit.  A 1 always hits; a
 * gun's 12 is noted in *twelve. */
static int
shoot_dice(struct ctx *c, int u, int t, int n, int need, int mod,
    const char *what, int *twelve)
{
	int i, hits = 0;

	for (i = 0; i < n; i++) {
		int r = b7_roll(c, 12, u, B7_R_HITS_LESS,
		    what, c->b->units[u].name, c->b->units[t].name, need - mod,
		    c->hit_why[u]);

		if (r == 12 && twelve != NULL)
			*twelve = 1;
		if (r == 1 || r + mod <= need)
			hits++;
	}
	return hits;
}

/* Gun s of battery u rolled a 12: it is low on what it fired. */
static void
gun_low(struct ctx *c, int u, int s, unsigned ammo)
{
	struct battle *b = c->b;

	b->stands[s].flags |= ammo;
	b7_ev(c, EV_FIRE, u, -1, s - b->units[u].first_stand + 1,
	    B7_M_GUN_ROLLED_LOW, b->units[u].name,
	    s - b->units[u].first_stand + 1, ammo == ST_LOW_CANISTER ?
	    "canister" : "roundshot");
}

void
b7_shoot_action(struct ctx *c, int u, int t, const unsigned char *guns)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	const struct unit *tu = &b->units[t];
	struct pt uc, tc;
	fx g;
	int need, mod = 0, hits = 0, dice = 0;

	if (battle_unit_alive(b, t) == 0 || !battle_unit_centre(b, u, &uc) ||
	    !battle_unit_centre(b, t, &tc)) {
		b7_ev(c, EV_ORDER_REFUSED, u, t, 0, B7_M_CANNOT_SHOOT_GONE,
		    un->name, tu->name);
		return;
	}
	/* A further SHOOT rolls the first shot's misses again. */
	if (c->shot[u] >= 0) {
		int tw = 0, h = 0, t0 = c->shot[u];

		int missed = c->miss[u], s;

		FOR_STANDS(b, u, s)
			missed += c->gun_miss[s];
		if (missed == 0 || battle_unit_alive(b, t0) == 0) {
			b7_ev(c, EV_FIRE, u, t0, 0, B7_M_NO_MISSED_DICE,
			    un->name);
			return;
		}
		/* Each extra action rolls again what has missed so far. */
		if (c->miss[u] > 0) {
			int k = shoot_dice(c, u, t0, c->miss[u], c->need[u], c->mod[u],
			    "shot again", NULL);

			h += k;
			c->miss[u] -= k;
		}
		FOR_STANDS(b, u, s) {
			int k;

			if (c->gun_miss[s] == 0 || !alive(b, s))
				continue;
			tw = 0;
			k = shoot_dice(c, u, t0, c->gun_miss[s], c->need[u], c->mod[u],
			    c->gun_ammo[s] == ST_LOW_CANISTER ? "canister again" :
			    "roundshot again", &tw);
			h += k;
			c->gun_miss[s] -= k;
			if (tw)
				gun_low(c, u, s, c->gun_ammo[s]);
		}
		b7_ev(c, EV_FIRE, u, t0, h, B7_M_SHOOTS_AGAIN_MORE,
		    un->name, b->units[t0].name, h, h == 1 ? "hit" : "hits");
		apply_hits(c, t0, h);
		return;
	}
	if (un->side == tu->side) {
		b7_ev(c, EV_ORDER_REFUSED, u, t, 0, B7_M_WILL_NOT_SHOOT_FRIEND,
		    un->name, tu->name);
		return;
	}
	if (abs(geom_turn(unit_facing(b, u), geom_bearing(uc, tc))) >
	    P(c, "arc")) {
		b7_ev(c, EV_ORDER_REFUSED, u, t, 0, B7_M_CANNOT_SHOOT_FRONT,
		    un->name, tu->name);
		return;
	}
	if (!b7_unit_sees(b, u, t)) {
		b7_ev(c, EV_ORDER_REFUSED, u, t, 0, B7_M_CANNOT_SHOOT_UNSEEN,
		    un->name, tu->name);
		return;
	}
	g = battle_unit_gap(b, u, t);
	/* What the target's density counts for. */
	/* The number to beat, and how it came, for the dice's purpose. */
	need = tu->state[B7_DENSITY];
	if (in_buildings(b, tc))
		need = P(c, "cover.density");
	if ((un->state[B7_MARKS] & UM_SMOKE) && (tu->state[B7_MARKS] & UM_SMOKE))
		need -= P(c, "smoke");
	if (need < P(c, "density.min"))
		need = P(c, "density.min");
	if (battle_area_at(b, tc, T_FOREST))
		mod += P(c, "cover.heavy-woods");
	else if (battle_area_at(b, tc, T_WOOD))
		mod += P(c, "cover.light-woods");
	{
		size_t l;

		l = (size_t)snprintf(c->hit_why[u], sizeof(c->hit_why[u]),
		    "density %d%s%s", in_buildings(b, tc) ? P(c, "cover.density") :
		    tu->state[B7_DENSITY], in_buildings(b, tc) ? " in buildings" : "",
		    (un->state[B7_MARKS] & UM_SMOKE) && (tu->state[B7_MARKS] & UM_SMOKE) ?
		    ", both in smoke -1" : "");
		if (mod > 0 && l < sizeof(c->hit_why[u]))
			snprintf(c->hit_why[u] + l, sizeof(c->hit_why[u]) - l,
			    ", %s woods +%d a die", battle_area_at(b, tc, T_FOREST) ?
			    "heavy" : "light", mod);
	}
	c->shot[u] = t;
	c->need[u] = need;
	c->mod[u] = mod;   /* cover; small arms add long range below */
	if (un->kind == KIND_ARTILLERY) {
		int s, tw;

		if (unit_form(b, u) == FORM_ROAD) {
			b7_ev(c, EV_ORDER_REFUSED, u, t, 0,
			    B7_M_CANNOT_SHOOT_GUNS, un->name);
			c->shot[u] = -1;
			return;
		}
		FOR_STANDS(b, u, s) {
			int n, h, can;

			if (!alive(b, s) || (guns != NULL && !guns[s]))
				continue;
			n = gun_dice(c, calibre(un->weapon), battle_gap_to_unit(b, s, t));
			if (n == 0)
				continue;
			/* The band decides the ammunition; DICE may roll fewer. */
			can = n >= 3;
			if (c->dice_cap[u] > 0 && n > c->dice_cap[u])
				n = c->dice_cap[u];
			if (b->stands[s].flags & (can ? ST_LOW_CANISTER :
			    ST_LOW_ROUNDSHOT)) {
				b7_ev(c, EV_ORDER_REFUSED, u, t, 0,
				    B7_M_GUN_OUT_OF_AMMUNITION, un->name,
				    s - un->first_stand + 1, can ?
				    "canister" : "roundshot");
				continue;
			}
			tw = 0;
			h = shoot_dice(c, u, t, n, need, mod, can ? "canister" :
			    "roundshot", &tw);
			hits += h;
			dice += n;
			c->gun_miss[s] = n - h;
			c->gun_ammo[s] = can ? ST_LOW_CANISTER : ST_LOW_ROUNDSHOT;
			if (tw)
				gun_low(c, u, s, c->gun_ammo[s]);
		}
		if (dice == 0) {
			b7_ev(c, EV_ORDER_REFUSED, u, t, 0,
			    B7_M_CANNOT_SHOOT_RANGE_OR_AMMUNITION, un->name, tu->name);
			c->shot[u] = -1;
			return;
		}
	} else {
		const char *w = ruleset_weapon_name(&ruleset_bb7, un->weapon);
		char cn[48], ln[48];
		fx close = -1, far = -1;

		snprintf(cn, sizeof(cn), "range.%s.close", w);
		snprintf(ln, sizeof(ln), "range.%s.long", w);
		if (ruleset_has_param(&ruleset_bb7, cn))
			close = P(c, cn);
		if (ruleset_has_param(&ruleset_bb7, ln))
			far = P(c, ln);
		if (close >= 0 && g <= close) {
			/* close range */
		} else if (far >= 0 && g <= far) {
			size_t l = strlen(c->hit_why[u]);

			mod += P(c, "shoot.long");
			snprintf(c->hit_why[u] + l, sizeof(c->hit_why[u]) - l,
			    ", long range +%d a die", P(c, "shoot.long"));
		} else {
			b7_ev(c, EV_ORDER_REFUSED, u, t, 0,
			    B7_M_CANNOT_SHOOT_OFF, un->name, tu->name, fmt_in(c,
			    0, g));
			c->shot[u] = -1;
			return;
		}
		dice = figures(b, u) / P(c, "shoot.figures");
		if (dice < 1)
			dice = 1;
		hits = shoot_dice(c, u, t, dice, need, mod, "shot", NULL);
		c->miss[u] = dice - hits;
		c->mod[u] = mod;
	}
	un->state[B7_MARKS] |= UM_SMOKE | UM_SHOT;
	b7_ev(c, EV_FIRE, u, t, hits, B7_M_SHOOTS,
	    un->name, tu->name, fmt_in(c, 0, g), dice, dice == 1 ? "die" :
	    "dice", hits, hits == 1 ? "hit" : "hits");
	apply_hits(c, t, hits);
}

/* --- melee ------------------------------------------------------------- */

/* British troops at density 5 close up as they make contact. */
static int
british(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];

	return strncmp(un->type, "british", 7) == 0 ||
	    strcmp(un->origin, "british") == 0 ||
	    strcmp(un->origin, "highlander") == 0;
}

/* Figures of unit u in a melee with unit foe: on bases in contact with,
 * or overlapping, a base of foe (within melee.reach of one). */
static int
melee_figures(struct ctx *c, int u, int foe)
{
	struct battle *b = c->b;
	int s, k, n = 0;

	FOR_STANDS(b, u, s) {
		struct pt r1[4];

		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r1);
		FOR_STANDS(b, foe, k) {
			struct pt r2[4];

			if (!alive(b, k))
				continue;
			battle_stand_rect(b, k, r2);
			if (geom_rect_dist(r1, r2) <= P(c, "melee.reach")) {
				n += b->stands[s].sp;
				break;
			}
		}
	}
	return n;
}

/* n figures of unit t killed in melee, from its last bases. */
static void
melee_kills(struct ctx *c, int t, int n)
{
	struct battle *b = c->b;
	int i, s, last;

	for (i = 0; i < n && figures(b, t) > 0; i++) {
		last = -1;
		FOR_STANDS(b, t, s)
			if (alive(b, s) && b->stands[s].sp > 0)
				last = s;
		b->stands[last].sp--;
		if (b->stands[last].sp == 0) {
			b->stands[last].flags |= ST_GONE;
			battle_unit_moved(b, t);
		}
	}
	if (n > 0)
		b7_ev(c, EV_LOSS, t, -1, n, B7_M_LOSES_MELEE_LEFT,
		    b->units[t].name, n, n == 1 ? "figure" : "figures",
		    figures(b, t));
	if (figures(b, t) == 0)
		remove_unit(c, t, "no figures left");
}

/* One side's melee dice: a d12 for every 3 figures in it; how many
 * succeed. */
static int
melee_roll(struct ctx *c, int u, int foe)
{
	const struct unit *un = &c->b->units[u];
	int fig = melee_figures(c, u, foe), dice, need, i, ok = 0;

	dice = fig / P(c, "melee.figures");
	if (dice < 1 && fig > 0)
		dice = 1;
	need = un->rules[B7_QUALITY] + un->state[B7_DENSITY];
	if (un->state[B7_DENSITY] == P(c, "melee.british-density") && british(c->b, u))
		need += 1;
	for (i = 0; i < dice; i++)
		if (b7_roll(c, 12, u, B7_R_MELEE_SUCCEEDS_LESS, un->name,
		    need) <= need)
			ok++;
	b7_ev(c, EV_FIRE, u, foe, ok, B7_M_FIGHTS_MELEE, un->name, fig,
	    fig == 1 ? "figure" : "figures", dice,
	    dice == 1 ? "die" : "dice", ok, ok == 1 ? "success" : "successes");
	return ok;
}

static void
melee(struct ctx *c, int a, int t)
{
	struct battle *b = c->b;
	int ka = melee_roll(c, a, t), kt = melee_roll(c, t, a), loser, diff;

	/* Each side's successes are the other's casualties. */
	melee_kills(c, t, ka);
	melee_kills(c, a, kt);
	/* Everyone who came through it is at the most disruption. */
	if (battle_unit_alive(b, a) > 0)
		b->units[a].state[B7_DISRUPTION] = P(c, "dp.max");
	if (battle_unit_alive(b, t) > 0)
		b->units[t].state[B7_DISRUPTION] = P(c, "dp.max");
	if (ka == kt) {
		b7_ev(c, EV_MELEE_WON, a, t, 0, B7_M_MELEE_BETWEEN_DRAWN,
		    b->units[a].name,
		    b->units[t].name, ka);
		return;
	}
	loser = ka > kt ? t : a;
	diff = ka > kt ? ka - kt : kt - ka;
	b7_ev(c, EV_MELEE_WON, loser == a ? t : a, loser, diff, B7_M_WINS_MELEE,
	    b->units[loser == a ? t : a].name, b->units[loser].name);
	b7_ev(c, EV_MELEE_LOST, loser, loser == a ? t : a, diff,
	    B7_M_LOSES_MELEE, b->units[loser].name,
	    b->units[loser == a ? t : a].name, diff, diff == 1 ? "casualty" :
	    "casualties");
	if (battle_unit_alive(b, loser) > 0)
		b7_morale_check(c, loser, "lost a melee", diff);
}

/* The most one move of unit u could cover (cavalry: both dice). */
static fx
reach(struct ctx *c, int u)
{
	const struct unit *un = &c->b->units[u];

	if (un->kind == KIND_MOUNTED && unit_form(c->b, u) != FORM_ROAD)
		return FX(24);
	if (un->kind == KIND_ARTILLERY && unit_form(c->b, u) == FORM_ROAD)
		return P(c, "move.limbered.road");
	return b7_one_move(c, u);
}

/* Units u and t in contact: as close as a move brings bases (a move
 * stops within a step of stop-short). */
static int
touching(struct ctx *c, int u, int t)
{
	fx g = battle_unit_gap(c->b, u, t);

	return g >= 0 && g < P(c, "stop-short") + P(c, "step");
}

/* CHARGE: a move action towards unit t that ends in a melee if the unit
 * reaches it and closes.  Evaders run first; pursue says whether the
 * attacker goes its full move after them (NO PURSUIT: it stops where
 * they stood). */
void
b7_charge_action(struct ctx *c, int u, int t, int pursue)
{
	struct battle *b = c->b;
	struct unit *un = &b->units[u];
	struct unit *tu = &b->units[t];
	struct pt uc, tc;
	int dir, exact;
	fx gap, allow;

	/* Guns do not charge (the text gives them no melee of their own;
	 * they fight when charged). */
	if (battle_unit_alive(b, t) == 0 || !battle_unit_centre(b, u, &uc) ||
	    !battle_unit_centre(b, t, &tc) || un->side == tu->side ||
	    un->kind == KIND_ARTILLERY) {
		b7_ev(c, EV_ORDER_REFUSED, u, t, 0, B7_M_CANNOT_CHARGE,
		    un->name,
		    tu->name);
		return;
	}
	dir = geom_bearing(uc, tc);
	gap = battle_unit_gap(b, u, t);
	/* Dispersed or loose troops charged by formed ones run, unless
	 * they hold buildings or works; the charger's move is made after
	 * they have gone. */
	if (tu->state[B7_DENSITY] <= P(c, "evade.density") &&
	    un->state[B7_DENSITY] >= P(c, "evade.charger") && !in_buildings(b, tc) &&
	    b7_unit_sees(b, u, t) && gap <= reach(c, u)) {
		fx ran, went, want;

		ran = b7_move_along(c, t, dir, b7_forced_move(c, t, dir));
		if (c->stopped_by[t] >= 0)
			b7_ev(c, EV_RETREAT, t, u, (int)ran, B7_M_EVADES_STOPPED_BY,
			    tu->name, un->name, fmt_in(c, 0, ran),
			    b->units[c->stopped_by[t]].name);
		else if (c->stopped_by[t] == -2)
			b7_ev(c, EV_RETREAT, t, u, (int)ran, B7_M_EVADES_TO_THE_EDGE,
			    tu->name, un->name, fmt_in(c, 0, ran));
		else
			b7_ev(c, EV_RETREAT, t, u, (int)ran, B7_M_EVADES, tu->name,
			    un->name, fmt_in(c, 0, ran));
		/* On after them its full move, or (NO PURSUIT) only onto the
		 * ground they held: its centre to where theirs was. */
		want = pursue ? battle_unit_gap(b, u, t) : geom_dist(uc, tc);
		allow = b7_allowance(c, u, dir, want, &exact);
		if (allow < 0)
			return;
		b7_face_towards(c, u, dir);
		went = b7_move_along(c, u, dir, pursue || allow < want ? allow : want);
		b7_ev(c, EV_MOVE, u, t, (int)went, B7_M_CHARGES_AFTER,
		    un->name, fmt_in(c, 0, went), tu->name);
		if (touching(c, u, t) && battle_unit_alive(b, t) > 0)
			remove_unit(c, t, "caught evading");
		return;
	}
	allow = b7_allowance(c, u, dir, gap, &exact);
	if (allow < 0)
		return;
	b7_face_towards(c, u, dir);
	{
		/* The move at the enemy first: only a charger that comes into
		 * contact takes the closing test. */
		struct stand *save = malloc((size_t)un->nstands * sizeof(*save));
		int n = P(c, "close.dice") + tu->state[B7_DISRUPTION], ok = 0, i;
		int need = P(c, "close.quality") * un->rules[B7_QUALITY];
		fx went;

		if (save == NULL) {
			c->failed = 1;
			return;
		}
		memcpy(save, &b->stands[un->first_stand],
		    (size_t)un->nstands * sizeof(*save));
		went = b7_move_along(c, u, dir, allow);
		if (!touching(c, u, t)) {
			const char *w = fmt_in(c, 0, went), *off =
			    fmt_in(c, 1, battle_unit_gap(b, u, t));

			free(save);
			/* Why: a unit in the way, the table's edge, or the
			 * enemy beyond one move (woods taking their share). */
			if (c->stopped_by[u] >= 0)
				b7_ev(c, EV_MOVE, u, t, (int)went,
				    B7_M_CHARGE_STOPPED_BY, un->name, w, tu->name,
				    b->units[c->stopped_by[u]].name);
			else if (c->stopped_by[u] == -2)
				b7_ev(c, EV_MOVE, u, t, (int)went,
				    B7_M_CHARGE_STOPPED_AT_THE_EDGE, un->name, w,
				    tu->name);
			else if (un->kind == KIND_MOUNTED)
				b7_ev(c, EV_MOVE, u, t, (int)went,
				    B7_M_CHARGE_SHORT_AFTER_THE_DICE, un->name, w,
				    tu->name, off);
			else if (c->woods_cost[u] > 0)
				b7_ev(c, EV_MOVE, u, t, (int)went,
				    B7_M_CHARGE_SHORT_OF_A_MOVE_IN_WOODS, un->name, w,
				    tu->name, off, fmt_in(c, 2, reach(c, u)));
			else
				b7_ev(c, EV_MOVE, u, t, (int)went,
				    B7_M_CHARGE_SHORT_OF_A_MOVE, un->name, w, tu->name,
				    off, fmt_in(c, 2, reach(c, u)));
			return;
		}
		/* Closing: three d12, and one more for each DP of the target;
		 * each succeeds at twice the attacker's quality; three succeed
		 * or it does not go in. */
		for (i = 0; i < n; i++)
			if (b7_roll(c, 12, u, B7_R_CLOSING_SUCCEEDS_LESS,
			    un->name, tu->name, need) <= need)
				ok++;
		if (ok < P(c, "close.needed")) {
			/* It halts short: as far as it can go, less a little. */
			memcpy(&b->stands[un->first_stand], save,
			    (size_t)un->nstands * sizeof(*save));
			free(save);
			gap = battle_unit_gap(b, u, t);
			b7_move_along(c, u, dir, gap - 2 * P(c, "stop-short") > 0 ?
			    gap - 2 * P(c, "stop-short") : 0);
			b7_ev(c, EV_ORDER_REFUSED, u, t, ok,
			    B7_M_WILL_NOT_CLOSE, un->name,
			    tu->name, ok, n, fmt_in(c, 0, battle_unit_gap(b, u, t)));
			return;
		}
		free(save);
		b7_ev(c, EV_MOVE, u, t, (int)went, B7_M_CLOSES_DICE_CHARGES,
		    un->name, tu->name, ok, n);
	}
	melee(c, u, t);
}
