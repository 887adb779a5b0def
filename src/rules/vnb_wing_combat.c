/*
 * vnb_wing_combat.c - morale, fire and melee for the vnb-wing adjudicator
 * (docs/rules-vnb-wing.md, Morale, Combat, Melee results).  Pure, as the
 * rest of it.
 */
#include "rules/vnb_wing_int.h"

#include <stdio.h>
#include <stdlib.h>

/* --- morale ----------------------------------------------------------- */

static int
commander_attached(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && vw_superior_touching(c, u, s) >= 0)
			return 1;
	return 0;
}

/* 1 if `from` lies outside the stand's front arc (its flank or rear). */
static int
from_flank(const struct battle *b, int s, struct pt from)
{
	int brg = geom_bearing(b->stands[s].pos, from);

	return abs(geom_turn(b->stands[s].facing, brg)) >
	    ruleset_param(&ruleset_vnb_wing, b, "flank.arc");
}

static int
supported(struct ctx *c, int s)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit, v, t;

	for (v = 0; v < b->nunits; v++) {
		if (b->units[v].side != b->units[u].side || !foot(&b->units[v]))
			continue;
		FOR_STANDS(b, v, t)
			if (active(b, t) && stand_gap(b, s, t) <= P(c, "unsupported.radius"))
				return 1;
	}
	return 0;
}

/* The modified morale of stand s in a melee against unit `foe`, as
 * attacker (att = 1) or defender. */
static int
melee_morale(struct ctx *c, int s, int foe, int att)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit;
	const struct unit *un = &b->units[u], *fu = &b->units[foe];
	struct pt fc;
	int m = unit_morale(b, u), fs;
	int foe_form = unit_form(b, foe);
	int foe_mounted = fu->kind == KIND_MOUNTED && foe_form != FORM_DISMOUNTED;

	battle_unit_centre(b, foe, &fc);
	fs = fu->first_stand;
	if (!att && (b->stands[s].flags & ST_STATIONARY) &&
	    (un->kind == KIND_INFANTRY || un->kind == KIND_ARTILLERY) &&
	    battle_level_at(b, b->stands[s].pos) > battle_level_at(b, fc))
		m += 1;
	if (!att && (foot(un) || un->kind == KIND_ARTILLERY) &&
	    in_works(b, b->stands[s].pos))
		m += 1;
	if (commander_attached(c, u))
		m += 1;
	if (att && foe_form == FORM_SKIRMISH)
		m += 1;
	if (att) {
		int t;

		FOR_STANDS(b, foe, t)
			if (alive(b, t) && in_contact(c, s, t) &&
			    from_flank(b, t, b->stands[s].pos)) {
				m += 1;
				break;
			}
	}
	if (att && foe_form == FORM_ROAD)
		m += 1;
	if (disordered(b, s))
		m -= 1;
	if (att && un->kind == KIND_MOUNTED && foe_mounted &&
	    (fu->abil & ABIL_MC) && !(un->abil & ABIL_MC))
		m -= 1;
	if (att && fu->kind == KIND_ARTILLERY && !from_flank(b, fs,
	    b->stands[s].pos))
		m -= 1;
	if (!att && un->kind == KIND_ARTILLERY && !supported(c, s))
		m -= 1;
	if (!att && foot(un) && foe_mounted)
		m -= 1;
	if (!att && from_flank(b, s, fc))
		m -= 2;
	if (!att && b->stands[s].form == FORM_ROAD)
		m -= 2;
	if (!att && routed(b, s))
		m -= 3;
	/* Cold Steel and its kin: a card on the defender. */
	if (!att && vw_card_melee_worse(c, u, foe) != NULL)
		m -= 1;
	return m;
}

/* Tests stand s against `need`; on failure applies the text's result.
 * Returns 1 on a pass. */
static int morale_test_ex(struct ctx *c, int s, int need, struct pt cause,
    const char *why, int effects);

static int
morale_test(struct ctx *c, int s, int need, struct pt cause, const char *why)
{
	return morale_test_ex(c, s, need, cause, why, 1);
}

/* A morale test; a failure disorders, routs or removes the stand unless
 * effects is 0 (a Native American charger, whose failure is its own). */
static int
morale_test_ex(struct ctx *c, int s, int need, struct pt cause,
    const char *why, int effects)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit, sn = s - b->units[u].first_stand + 1, r;
	const char *card = vw_card_steadier(c, u);
	char with[160];

	/* A card that steadies the unit: one off the die, which is one
	 * more on what it needs. */
	if (card != NULL) {
		need += 1;
		snprintf(with, sizeof(with), "%s; %s", why, card);
		why = with;
	}
	r = vw_roll(c, u, VW_R_MORALE_STAND_NEEDS,
	    b->units[u].name, sn, why, need, need >= 6 ? ": cannot fail" :
	    need <= 0 ? ": cannot pass" : "");
	if (r > need && (card = vw_card_morale_reroll(c, u)) != NULL) {
		vw_ev(c, EV_CARD, u, -1, r, VW_M_STAND_REROLLS_MORALE,
		    b->units[u].name, sn, r, card);
		r = vw_roll(c, u, VW_R_MORALE_STAND_REROLLED, b->units[u].name,
		    sn, card, need);
	}
	if (r <= need) {
		vw_ev(c, EV_MORALE_PASS, u, -1, r, VW_M_STAND_PASSES_MORALE,
		    b->units[u].name, sn,
		    why, r, need);
		return 1;
	}
	vw_ev(c, EV_MORALE_FAIL, u, -1, r, VW_M_STAND_FAILS_MORALE,
	    b->units[u].name, sn, why, r, need);
	if (!effects)
		return 0;
	if (routed(b, s))
		vw_remove_stand(c, s, VW_GONE_MORALE_ROUTED);
	else if (disordered(b, s))
		vw_rout_stand(c, s, cause, "failed morale while disordered");
	else
		vw_disorder(c, s, "failed morale");
	return 0;
}

void
vw_unit_morale_test(struct ctx *c, int u, int worse, struct pt cause,
    const char *why)
{
	struct battle *b = c->b;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s))
			morale_test(c, s, unit_morale(b, u) -
			    (disordered(b, s) ? 1 : 0) +
			    (commander_attached(c, u) ? 1 : 0) - worse, cause, why);
}

static int
in_danger_zone(struct ctx *c, int gun, int s)
{
	struct battle *b = c->b;
	const struct stand *g = &b->stands[gun];
	const struct unit *gu = &b->units[g->unit];
	char name[48];
	int64_t dx = (int64_t)b->stands[s].pos.x - g->pos.x;
	int64_t dy = (int64_t)b->stands[s].pos.y - g->pos.y;
	int64_t along = dx * geom_sin(g->facing) + dy * geom_cos(g->facing);
	int64_t across = dx * geom_cos(g->facing) - dy * geom_sin(g->facing);

	if (along <= 0)
		return 0;
	if ((across < 0 ? -across : across) > (int64_t)P(c, "danger.width") * TRIG_ONE)
		return 0;
	snprintf(name, sizeof(name), "range.%s.short", battle_weapon_name(gu->weapon));
	return stand_gap(b, gun, s) <= P(c, name);
}

static int
gun_can_fire(const struct battle *b, int s)
{
	const struct unit *u = &b->units[b->stands[s].unit];

	return u->kind == KIND_ARTILLERY && active(b, s) &&
	    b->stands[s].form != FORM_ROAD && !(b->stands[s].flags & ST_GUNS_LOST);
}

/* 1 if the line a-z crosses a stream or river. */
int
vw_across_water(const struct battle *b, struct pt a, struct pt z)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if ((t->kind == T_STREAM || t->kind == T_RIVER) &&
		    vw_step_crosses(b, t, a, z))
			return 1;
	}
	return 0;
}

/* After a breakthrough move of `moved` (*moves made before it): poorly
 * trained troops are disordered by it, any stand by a second one, and
 * horse that rode down Native Americans (cav_native) at its end. */
static void
breakthrough_moved(struct ctx *c, int u, fx moved, int *moves, int cav_native)
{
	struct battle *b = c->b;
	int s;

	if (cav_native)
		FOR_STANDS(b, u, s)
			if (active(b, s))
				vw_disorder(c, s, "riding down Native Americans");
	if (moved <= 0)
		return;
	if ((b->units[u].abil & ABIL_PT) || *moves > 0)
		FOR_STANDS(b, u, s)
			if (active(b, s))
				vw_disorder(c, s, *moves > 0 ? "a second breakthrough "
				    "move" : "a poorly trained breakthrough");
	(*moves)++;
}

/* Native Americans who fail their test at the charge stop halfway to their
 * target, in skirmish order, not disordered; they may fire. */
static void
native_balk(struct ctx *c, int u, int tgt)
{
	struct battle *b = c->b;
	struct pt at, from = c->charge_from[u];
	int s;

	c->charge_target[u] = -1;
	if (!unit_active_centre(b, u, &at))
		return;
	vw_translate_unit(b, u, (from.x - at.x) / 2, (from.y - at.y) / 2);
	unit_active_centre(b, u, &at);
	unit_save(b, u, c->saved);
	FOR_STANDS(b, u, s)
		if (active(b, s))
			b->stands[s].form = FORM_SKIRMISH;
	vw_lay_out_line(b, u, at, unit_facing(b, u));
	if (!vw_unit_has_room(b, u))
		unit_restore(b, u, c->saved);
	vw_ev(c, EV_MOVE, u, tgt, 0, VW_M_WILL_NOT_CLOSE, b->units[u].name,
	    b->units[tgt].name);
}

/* The morale tests of unit u's charge on c->charge_target[u]: its stands
 * in contact, then the stands they touch.  If the target gives way before
 * the melee (routed by its test, or gone), a breakthrough: into the next
 * target its orders name (a later CHARGE), up to half its move, testing
 * again on contact; with none, it takes the ground the target held.  See
 * docs/rules-vnb-wing.md, Morale (Breakthrough). */
static void
charge_tests(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int tgt = c->charge_target[u], s, t, k = 0, moves = 0, cav_native = 0;
	struct pt ac, tc;

	for (;;) {
		int left = 0, next = -1, balked = 0;
		int native = (b->units[u].abil & ABIL_NA) != 0;

		if (!unit_active_centre(b, u, &ac) ||
		    !battle_unit_centre(b, tgt, &tc)) {
			c->charge_target[u] = -1;
			return;
		}
		FOR_STANDS(b, u, s) {
			int touching = 0, across = 0;

			if (!active(b, s))
				continue;
			FOR_STANDS(b, tgt, t)
				if (alive(b, t) && in_contact(c, s, t)) {
					touching = 1;
					across |= vw_across_water(b, b->stands[s].pos,
					    b->stands[t].pos);
				}
			/* Attacking across a stream (at a ford or bridge too)
			 * whose far bank the enemy holds: disordered.  Across:
			 * the charge crossed it, or it runs between the two. */
			if (touching && (across || c->charge_wet[u]))
				vw_disorder(c, s, "attacking across a defended stream");
			if (touching && !c->mark[s]) {
				/* A Native American who fails is not disordered
				 * and does not go in. */
				if (!morale_test_ex(c, s, melee_morale(c, s, tgt, 1),
				    tc, "about to melee", !native) && native)
					balked = 1;
				c->mark[s] = 1;
			}
		}
		if (balked) {
			native_balk(c, u, tgt);
			return;
		}
		FOR_STANDS(b, tgt, t) {
			int touching = 0;

			if (!alive(b, t))
				continue;
			c->was_routed[t] = (unsigned char)routed(b, t);
			FOR_STANDS(b, u, s)
				if (active(b, s) && in_contact(c, s, t))
					touching = 1;
			if (touching && !c->mark[t]) {
				morale_test(c, t, melee_morale(c, t, u, 0), ac,
				    "charged");
				c->mark[t] = 1;
			}
		}
		/* Native Americans attacked by mounted troops while disordered
		 * (by a failed test, or their brigade exhausted) are removed,
		 * and the horse may go on 12", disordered at the end. */
		if (b->units[u].kind == KIND_MOUNTED &&
		    (b->units[tgt].abil & ABIL_NA))
			FOR_STANDS(b, tgt, t) {
				int touching = 0;

				if (!alive(b, t) || !(disordered(b, t) ||
				    unit_exhausted(b, tgt)))
					continue;
				FOR_STANDS(b, u, s)
					if (active(b, s) && in_contact(c, s, t))
						touching = 1;
				if (touching) {
					vw_remove_stand(c, t, VW_GONE_RIDDEN_DOWN);
					cav_native = 1;
				}
			}
		/* A target routed by its test, or gone, gives way (a stand
		 * routed already that passed its test stands and fights). */
		FOR_STANDS(b, tgt, t)
			if (active(b, t) || (alive(b, t) && c->was_routed[t]))
				left++;
		if (left > 0 || !unit_active_centre(b, u, &ac))
			return;
		c->charge_target[u] = -1;
		/* The next target its orders name, alive and in sight. */
		while (k < c->nbt[u] && next < 0) {
			struct pt nc;
			int v = c->bt[u][k++];

			if (battle_unit_centre(b, v, &nc) && vw_can_see(b, ac, nc) &&
			    enemy(b, u, v))
				next = v;
		}
		if (next < 0) {
			struct move_result r = vw_move_unit(c, u, tc, cav_native ?
			    COST(P(c, "native.cavalry-move")) : COST(FX(1000)),
			    MOVE_ADVANCE_INTO, -1);

			breakthrough_moved(c, u, r.moved, &moves, cav_native);
			vw_ev(c, EV_BREAKTHROUGH, u, tgt, r.moved,
			    VW_M_BREAKS_THROUGH, b->units[u].name,
			    b->units[tgt].name);
			return;
		}
		/* Option 2: face the new target and go at it, up to half a
		 * move; contact means new tests and a melee. */
		{
			struct pt nc;
			struct move_result r;
			int to, delta;

			battle_unit_centre(b, next, &nc);
			to = geom_bearing(ac, nc);
			delta = geom_turn(unit_facing(b, u), to);
			if (delta != 0) {
				unit_save(b, u, c->saved);
				FOR_STANDS(b, u, s)
					if (active(b, s)) {
						b->stands[s].pos = geom_rotate(
						    b->stands[s].pos, ac, delta);
						b->stands[s].facing = geom_norm(to);
					}
				if (!vw_unit_has_room(b, u))
					unit_restore(b, u, c->saved);
				battle_unit_moved(b, u);
			}
			r = vw_move_unit(c, u, nc, cav_native ?
			    COST(P(c, "native.cavalry-move")) :
			    COST(unit_rate(b, u) / 2), MOVE_CHARGE, next);
			vw_ev(c, EV_BREAKTHROUGH, u, next, r.moved,
			    VW_M_BREAKS_THROUGH_CHARGES, b->units[u].name,
			    b->units[tgt].name,
			    b->units[next].name);
			breakthrough_moved(c, u, r.moved, &moves, cav_native);
			cav_native = 0;
			if (!r.contact) {
				vw_ev(c, EV_ORDER_REFUSED, u, next, 0,
				    VW_M_CHARGE_FALLS_SHORT, b->units[u].name,
				    b->units[next].name);
				return;
			}
			c->charge_target[u] = next;
			tgt = next;
			/* The new melee calls for its own tests. */
			FOR_STANDS(b, u, s)
				c->mark[s] = 0;
		}
	}
}

/* The longest short range of any artillery unit's weapon: a stand in a
 * gun's danger zone is no further from it than that (issue 24).  -1 when
 * a weapon has no short range among the parameters, so that the search
 * walks every unit as before. */
static fx
danger_reach(struct ctx *c)
{
	struct battle *b = c->b;
	unsigned char used[WEAPON_COUNT];
	char name[48];
	fx lim = 0, r;
	int u, w;

	memset(used, 0, sizeof(used));
	for (u = 0; u < b->nunits; u++)
		if (b->units[u].kind == KIND_ARTILLERY) {
			if ((int)b->units[u].weapon < 0 ||
			    (int)b->units[u].weapon >= WEAPON_COUNT)
				return -1;
			used[b->units[u].weapon] = 1;
		}
	for (w = 0; w < WEAPON_COUNT; w++) {
		if (!used[w])
			continue;
		snprintf(name, sizeof(name), "range.%s.short",
		    battle_weapon_name((enum weapon)w));
		if (!ruleset_has_param(c->rs, name))
			return -1;
		r = P(c, name);
		lim = r > lim ? r : lim;
	}
	return lim;
}

void
vw_phase_morale(struct ctx *c)
{
	struct battle *b = c->b;
	int near[BATTLE_MAX_UNITS];
	int i, n, u, s, side_pass;
	fx lim;

	/* One test a stand a phase, whatever calls for it: a stand that tests
	 * for a melee has taken its test, danger zone or not (the melee test
	 * counts meleeing guns from the front). */
	memset(c->mark, 0, sizeof(c->mark));
	/* Charges: the chargers in contact test, then the stands they touch. */
	for (i = 0; i < c->nrank; i++) {
		u = c->rank[i];
		if (c->charge_target[u] >= 0)
			charge_tests(c, u);
	}
	/* Danger zones of both sides' guns, phasing side's stands first. */
	lim = danger_reach(c);
	for (side_pass = 0; side_pass < 2; side_pass++) {
		for (u = 0; u < b->nunits; u++) {
			int mine = b->units[u].side == c->side;

			if (mine != (side_pass == 0))
				continue;
			FOR_STANDS(b, u, s) {
				int g, v, tested = 0;

				if (!alive(b, s) || c->mark[s])
					continue;
				/* Issue 24: a gun's zone reaches no further
				 * than its short range, so only the units
				 * listed within the longest of them, in the
				 * same order; fetched for each stand, as a
				 * test before may have moved stands. */
				n = lim >= 0 ? battle_units_near(b, u, lim, near) :
				    -1;
				for (i = 0; i < (n >= 0 ? n : b->nunits) &&
				    !tested; i++) {
					v = n >= 0 ? near[i] : i;
					if (!enemy(b, u, v) ||
					    b->units[v].kind != KIND_ARTILLERY)
						continue;
					FOR_STANDS(b, v, g)
						if (gun_can_fire(b, g) &&
						    in_danger_zone(c, g, s)) {
							int need = unit_morale(b, u) -
							    (disordered(b, s) ? 1 : 0) +
							    (commander_attached(c, u) ? 1 : 0);

							morale_test(c, s, need,
							    b->stands[g].pos,
							    "in the danger zone of "
							    "enemy guns");
							tested = 1;
							break;
						}
				}
			}
		}
	}
}

/* --- combat ----------------------------------------------------------- */

static int
attack_dice(struct ctx *c, int s, int melee)
{
	struct battle *b = c->b;
	const struct stand *st = &b->stands[s];
	const struct unit *u = &b->units[st->unit];
	int stat = (st->flags & ST_STATIONARY) != 0;

	if (st->form == FORM_ROAD || routed(b, s))
		return 0;
	if (st->flags & ST_GUNS_LOST)
		return melee ? P(c, "dice.detachment.melee") : 0;
	switch (u->kind) {
	case KIND_ARTILLERY:
		if (melee)
			return stat ? P(c, "dice.artillery.melee-stationary") :
			    P(c, "dice.artillery.melee");
		return stat ? P(c, "dice.artillery.fire-stationary") :
		    P(c, "dice.artillery.fire");
	case KIND_MOUNTED:
		if (st->form == FORM_DISMOUNTED)
			return melee ? P(c, "dice.detachment.melee") :
			    P(c, "dice.detachment.fire");
		return melee ? P(c, "dice.mounted.melee") : 0;
	case KIND_DETACHMENT:
		return melee ? P(c, "dice.detachment.melee") :
		    P(c, "dice.detachment.fire");
	case KIND_INFANTRY:
		if (u->abil & ABIL_PT) {
			if (melee)
				return stat ? P(c, "dice.pt.melee-stationary") :
				    P(c, "dice.pt.melee");
			return stat ? P(c, "dice.pt.fire-stationary") :
			    P(c, "dice.pt.fire");
		}
		if (melee)
			return stat ? P(c, "dice.infantry.melee-stationary") :
			    P(c, "dice.infantry.melee");
		return stat ? P(c, "dice.infantry.fire-stationary") :
		    P(c, "dice.infantry.fire");
	case KIND_COMMAND:
	default:
		return 0;
	}
}

static int
can_fire(const struct battle *b, int s)
{
	const struct unit *u = &b->units[b->stands[s].unit];

	if (!active(b, s) || u->weapon == WEAPON_NONE)
		return 0;
	if (u->kind == KIND_MOUNTED && b->stands[s].form != FORM_DISMOUNTED)
		return 0;
	if (b->stands[s].form == FORM_ROAD || (b->stands[s].flags & ST_GUNS_LOST))
		return 0;
	return 1;
}

/* The short (band 1) or long (band 2) range of a weapon, looked up by
 * name once a step (the parameters do not change in one). */
static fx
weapon_range(struct ctx *c, enum weapon w, int band)
{
	if (!c->range_known[w][band - 1]) {
		char name[48];

		snprintf(name, sizeof(name), "range.%s.%s", battle_weapon_name(w),
		    band == 1 ? "short" : "long");
		c->range[w][band - 1] = P(c, name);
		c->range_known[w][band - 1] = 1;
	}
	return c->range[w][band - 1];
}

/* Range band from stand f to stand t: 1 short, 2 long, 0 out of range,
 * out of arc or out of sight.  A stand certainly out of both ranges is
 * passed over before its arc and sight are judged (issue 24): the band
 * is 0 whichever test fails. */
static int
fire_band(struct ctx *c, int f, int t)
{
	struct battle *b = c->b;
	const struct unit *u = &b->units[b->stands[f].unit];
	fx gap, sr, lr;
	int brg;

	if (!alive(b, t))
		return 0;
	sr = weapon_range(c, u->weapon, 1);
	lr = weapon_range(c, u->weapon, 2);
	if (!geom_reference_on() && battle_stands_apart(b, f, t, sr > lr ? sr : lr))
		return 0;
	brg = geom_bearing(b->stands[f].pos, b->stands[t].pos);
	if (abs(geom_turn(b->stands[f].facing, brg)) > P(c, "arc"))
		return 0;
	if (!vw_can_see(b, b->stands[f].pos, b->stands[t].pos))
		return 0;
	gap = stand_gap(b, f, t);
	if (gap <= sr)
		return 1;
	if (gap <= lr)
		return 2;
	return 0;
}

/* The nearest stand of unit t that stand f can fire at; -1 if none. */
static int
fire_pick(struct ctx *c, int f, int t, int *band)
{
	struct battle *b = c->b;
	fx best = INT32_MAX;
	int s, pick = -1;

	FOR_STANDS(b, t, s) {
		int bd = fire_band(c, f, s);
		fx g;

		if (bd == 0)
			continue;
		g = stand_gap(b, f, s);
		if (g < best) {
			best = g;
			pick = s;
			*band = bd;
		}
	}
	return pick;
}

static void
roll_attack(struct ctx *c, int f, int target, int melee, int band,
    int offensive, struct hits *h, int *dice_out, int *hits_out)
{
	struct battle *b = c->b;
	int u = b->stands[f].unit;
	const struct unit *un = &b->units[u];
	int n = attack_dice(c, f, melee), need, i;

	/* The hit table's row for the stand's weapon (abandoned guns' crews
	 * fight with muskets), its melee/short or long column; stands with no
	 * row (mounted) use hit.melee. */
	{
		enum weapon w = (b->stands[f].flags & ST_GUNS_LOST) ?
		    WEAPON_MUSKET : un->kind == KIND_MOUNTED ? WEAPON_NONE :
		    un->weapon;
		char name[48];

		snprintf(name, sizeof(name), "hit.%s.%s", battle_weapon_name(w),
		    melee || band == 1 ? "short" : "long");
		need = w != WEAPON_NONE && ruleset_has_param(c->rs, name) ?
		    P(c, name) : P(c, "hit.melee");
	}
	/* Unlimbered guns fight only to their front. */
	if (melee && un->kind == KIND_ARTILLERY &&
	    !(b->stands[f].flags & ST_GUNS_LOST) &&
	    from_flank(b, f, b->stands[target].pos))
		n = 0;
	if (!melee && (un->abil & ABIL_SS))
		need -= 1;
	if (melee && offensive && ((un->abil & ABIL_SH) ||
	    ((un->abil & ABIL_NA) && unit_morale(b, u) >= 6) ||
	    (un->kind == KIND_MOUNTED && b->stands[f].form != FORM_DISMOUNTED &&
	    !(un->abil & (ABIL_MC | ABIL_MI)) && disordered(b, target))))
		need -= 1;
	for (i = 0; i < n; i++) {
		int r = vw_roll(c, u, VW_R_STAND_HITS_MORE,
		    melee ? "melee" : "fire", un->name,
		    f - un->first_stand + 1, b->units[b->stands[target].unit].name,
		    need);
		const char *card = melee ? NULL : vw_card_fire_reroll(c, u);

		/* Good Gunnery, Devastating Volley: a miss is rolled again. */
		if (r < need && card != NULL)
			r = vw_roll(c, u, VW_R_FIRE_STAND_REROLLED, un->name,
			    f - un->first_stand + 1, card,
			    need);
		*dice_out += 1;
		if (r >= need && h->n == MAX_HITS)
			c->overflow = 1;
		if (r >= need && h->n < MAX_HITS) {
			struct hit *x = &h->v[h->n++];

			x->target = target;
			x->source = f;
			x->melee = melee;
			x->long_range = band == 2;
			x->weapon = un->weapon;
			x->saved = 0;
			*hits_out += 1;
		}
	}
}

/* Rolls the saves of hits [from, to) of h. */
static void
roll_saves(struct ctx *c, struct hits *h, int from, int to)
{
	struct battle *b = c->b;
	int i, need = P(c, "save");

	for (i = from; i < to; i++) {
		struct hit *x = &h->v[i];
		const struct stand *t = &b->stands[x->target];
		const struct unit *tu = &b->units[t->unit];
		const char *why[8];
		int n = 0, k;
		int small_arms = x->weapon == WEAPON_MUSKET ||
		    x->weapon == WEAPON_RIFLE || x->weapon == WEAPON_NATIVE;

		if (!x->melee && t->form == FORM_SKIRMISH)
			why[n++] = "skirmish order";
		if (!x->melee && small_arms && foot(tu) && in_woods(b, t->pos))
			why[n++] = "infantry in woods";
		if (foot(tu) && (area_at(b, t->pos, T_TOWN) ||
		    area_at(b, t->pos, T_VILLAGE)) &&
		    !(!x->melee && x->weapon == WEAPON_HEAVY_GUN))
			why[n++] = "in a building";
		/* Works save against fire and melee; a sunken road, which
		 * counts as works, not against infantry's melee. */
		if ((foot(tu) || tu->kind == KIND_ARTILLERY) &&
		    (area_at(b, t->pos, T_WORKS) || (on_line(b, t->pos,
		    T_SUNKEN_ROAD) && !(x->melee &&
		    foot(&b->units[b->stands[x->source].unit])))))
			why[n++] = area_at(b, t->pos, T_WORKS) ? "in works" :
			    "in a sunken road";
		if (!x->melee && tu->kind == KIND_ARTILLERY && x->long_range &&
		    (x->weapon == WEAPON_LIGHT_GUN || x->weapon == WEAPON_FIELD_GUN))
			why[n++] = "guns at long range";
		if (disordered(b, x->source))
			why[n++] = "hit by a disordered stand";
		if (!x->melee && (t->flags & ST_RETIRES) &&
		    tu->kind == KIND_MOUNTED)
			why[n++] = "retiring";
		/* Bad Gunnery, Disappointing Volley: a second set of saves. */
		{
			const char *card = vw_card_extra_save(c,
			    b->stands[x->source].unit, x->melee);

			if (card != NULL)
				why[n++] = card;
		}
		for (k = 0; k < n && !x->saved; k++) {
			int r = vw_roll(c, t->unit, VW_R_SAVE_STAND_SAVES,
			    tu->name, x->target - tu->first_stand + 1,
			    why[k], need);

			if (r >= need) {
				x->saved = 1;
				vw_ev(c, EV_SAVE, t->unit, -1, r,
				    VW_M_STAND_SAVES_HIT, tu->name,
				    x->target - tu->first_stand + 1, why[k], r);
			}
		}
	}
}

/* Applies the unsaved hits [from, to): 1 SP each; counts them against
 * each stand's brigade.  Returns the number applied. */
static int
apply_hits(struct ctx *c, struct hits *h, int from, int to)
{
	struct battle *b = c->b;
	int i, n = 0;

	for (i = from; i < to; i++) {
		struct hit *x = &h->v[i];
		int u = b->stands[x->target].unit;

		if (x->saved)
			continue;
		/* Hits beyond what a stand had are lost with it. */
		if (!alive(b, x->target))
			continue;
		n++;
		b->brigades[b->units[u].brigade].hits++;
		vw_ev(c, EV_HIT, u, b->stands[x->source].unit, 1,
		    VW_M_STAND_HIT, b->units[u].name,
		    x->target - b->units[u].first_stand + 1,
		    b->units[b->stands[x->source].unit].name);
		vw_lose_sp(c, x->target, 1, x->melee ? "melee" : "fire");
	}
	return n;
}

/* Connected stands of unit u that touch (directly or through each other)
 * any stand marked in `seed`. */
static void
linked_stands(struct ctx *c, int u, unsigned char *mark)
{
	struct battle *b = c->b;
	int changed, s, t;

	do {
		changed = 0;
		FOR_STANDS(b, u, s) {
			if (mark[s] || !alive(b, s))
				continue;
			FOR_STANDS(b, u, t)
				if (mark[t] && in_contact(c, s, t)) {
					mark[s] = 1;
					changed = 1;
					break;
				}
		}
	} while (changed);
}

/* The attack dice of unit u's stands marked in `who` that can fire at
 * unit t, into c->hits; returns 1 if any was at short range, 2 if all at
 * long, 0 if none fired. */
static int
rolls_of(struct ctx *c, int u, int t, const unsigned char *who, int offensive,
    int *dice, int *hits)
{
	struct battle *b = c->b;
	int s, best = 0;

	FOR_STANDS(b, u, s) {
		int band = 0, pick;

		if (!who[s] || !can_fire(b, s))
			continue;
		pick = fire_pick(c, s, t, &band);
		if (pick < 0)
			continue;
		if (best == 0 || band < best)
			best = band;
		roll_attack(c, s, pick, 0, band, offensive, &c->hits, dice, hits);
	}
	return best;
}

static void
fire_unit(struct ctx *c, int u, int t, const unsigned char *firers)
{
	struct battle *b = c->b;
	struct hits *h = &c->hits;
	unsigned char *mark = c->mark;
	int s, r, dice = 0, hits = 0, rdice = 0, rhits = 0, out_end, ret_end;
	int on_t, on_u;
	const char *band_name = "long";

	h->n = 0;
	if (rolls_of(c, u, t, firers, 1, &dice, &hits) == 1)
		band_name = "short";
	if (dice == 0)
		return;
	out_end = h->n;
	/* Battalion return fire: the stands fired at and those linked to
	 * them fire back at the firer. */
	memset(mark, 0, BATTLE_MAX_STANDS);
	for (r = 0; r < out_end; r++)
		mark[h->v[r].target] = 1;
	FOR_STANDS(b, t, s) {
		if (!alive(b, s))
			continue;
		/* A stand that could be picked is "fired at" too. */
		{
			int f, band;

			FOR_STANDS(b, u, f)
				if (firers[f] && can_fire(b, f) &&
				    fire_pick(c, f, t, &band) == s)
					mark[s] = 1;
		}
	}
	linked_stands(c, t, mark);
	rolls_of(c, t, u, mark, 0, &rdice, &rhits);
	ret_end = h->n;
	vw_ev(c, EV_FIRE, u, t, hits, VW_M_FIRES_RANGE,
	    b->units[u].name, b->units[t].name, band_name, dice,
	    dice == 1 ? "die" : "dice", hits, hits == 1 ? "hit" : "hits");
	if (rdice > 0)
		vw_ev(c, EV_FIRE, t, u, rhits, VW_M_RETURNS_FIRE,
		    b->units[t].name, b->units[u].name, rdice, rdice == 1 ? "die" :
		    "dice", rhits, rhits == 1 ? "hit" : "hits");
	/* A card's rerolls serve one fire. */
	vw_card_fire_done(c, u);
	if (rdice > 0)
		vw_card_fire_done(c, t);
	roll_saves(c, h, 0, out_end);
	roll_saves(c, h, out_end, ret_end);
	on_t = apply_hits(c, h, 0, out_end);
	on_u = apply_hits(c, h, out_end, ret_end);
	(void)on_t;
	(void)on_u;
	if (c->w->fired != NULL) {
		c->w->fired(c, u, t, dice, hits);
		if (rdice > 0)
			c->w->fired(c, t, u, rdice, rhits);
	}
	/* Mounted stands retiring from fire: 6" a hit, straight away from
	 * the stand that hit them, facing it. */
	FOR_STANDS(b, t, s) {
		int n = 0, from = -1;

		if (!alive(b, s) || !(b->stands[s].flags & ST_RETIRES) ||
		    b->units[t].kind != KIND_MOUNTED)
			continue;
		for (r = 0; r < out_end; r++)
			if (h->v[r].target == s) {
				n++;
				from = h->v[r].source;
			}
		if (n == 0)
			continue;
		{
			int dir = geom_bearing(b->stands[from].pos,
			    b->stands[s].pos);

			vw_push_stand(c, s, dir, P(c, "retire.per-hit") * n, 0, 0);
			/* It ends facing the enemy that hit it. */
			if (alive(b, s))
				b->stands[s].facing = geom_norm(dir + 180);
		}
		vw_ev(c, EV_RETREAT, t, u, n, VW_M_STAND_RETIRES_FIRE,
		    b->units[t].name, s - b->units[t].first_stand + 1,
		    fmt_in(c, 0, P(c, "retire.per-hit") * n), n, n == 1 ? "hit" :
		    "hits");
	}
}

/* The enemy unit stand s fires at: the unit's chosen target if the stand
 * can reach it, else the unit of the nearest enemy stand in range, arc and
 * sight; -1 if none. */
static int
stand_target(struct ctx *c, int s, int chosen)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[b->stands[s].unit];
	int near[BATTLE_MAX_UNITS];
	int v, i, n, band, best = -1, t0;
	fx bestg = INT32_MAX, sr, lr;

	/* Issue 24: a unit b->near does not list within the longer range of
	 * the unit's stands (s's box is in it, s's reach no more than its
	 * reach) has every stand certainly out of range of s, so fire_pick
	 * finds nothing in it; the rest are listed in table order. */
	n = -1;
	if (un->weapon != WEAPON_NONE) {
		sr = weapon_range(c, un->weapon, 1);
		lr = weapon_range(c, un->weapon, 2);
		n = battle_units_near(b, b->stands[s].unit, sr > lr ? sr : lr,
		    near);
	}
	if (chosen >= 0 && (t0 = fire_pick(c, s, chosen, &band)) >= 0) {
		/* Firing lanes: small arms must fire at skirmishers nearer
		 * than their target; guns may fire past them. */
		enum weapon w = b->units[b->stands[s].unit].weapon;
		fx g0 = stand_gap(b, s, t0);

		if (w != WEAPON_MUSKET && w != WEAPON_RIFLE && w != WEAPON_NATIVE)
			return chosen;
		for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
			int t;

			v = n >= 0 ? near[i] : i;
			if (v == chosen || !enemy(b, b->stands[s].unit, v) ||
			    (t = fire_pick(c, s, v, &band)) < 0 ||
			    b->stands[t].form != FORM_SKIRMISH)
				continue;
			if (stand_gap(b, s, t) < g0 && stand_gap(b, s, t) < bestg) {
				bestg = stand_gap(b, s, t);
				best = v;
			}
		}
		return best >= 0 ? best : chosen;
	}
	for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
		int t;

		v = n >= 0 ? near[i] : i;
		if (!enemy(b, b->stands[s].unit, v))
			continue;
		t = fire_pick(c, s, v, &band);
		if (t >= 0 && stand_gap(b, s, t) < bestg) {
			bestg = stand_gap(b, s, t);
			best = v;
		}
	}
	return best;
}

/* Unit u fires: each stand at its own target (stand_target), one fire
 * (with its return fire) per enemy unit, in the order the stands choose
 * them. */
void
vw_unit_fires(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int target[BATTLE_MAX_STANDS];
	int s, k, reach = 0, chosen = c->fire_target[u];

	FOR_STANDS(b, u, s) {
		target[s] = can_fire(b, s) ? stand_target(c, s, chosen) : -1;
		if (chosen >= 0 && target[s] == chosen)
			reach = 1;
	}
	if (chosen >= 0 && !reach) {
		int band, lane = 0;

		FOR_STANDS(b, u, s)
			if (can_fire(b, s) && fire_pick(c, s, chosen, &band) >= 0)
				lane = 1;
		if (lane)
			vw_ev(c, EV_ORDER_REFUSED, u, chosen, 0,
			    VW_M_CANNOT_FIRE_SKIRMISHERS,
			    b->units[u].name, b->units[chosen].name);
		else
			vw_ev(c, EV_ORDER_REFUSED, u, chosen, 0,
			    VW_M_CANNOT_FIRE, b->units[u].name,
			    b->units[chosen].name,
			    battle_unit_alive(b, chosen) == 0 ? "it is no longer "
			    "on the table" : "no stand has it in range, within 45 "
			    "degrees of its front, and in sight");
	}
	FOR_STANDS(b, u, s) {
		int t = target[s];

		if (t < 0)
			continue;
		memset(c->firers, 0, sizeof(c->firers));
		FOR_STANDS(b, u, k)
			if (target[k] == t) {
				c->firers[k] = 1;
				target[k] = -1;
			}
		fire_unit(c, u, t, c->firers);
	}
}

/* 1 if stand s stands in ground that disorders it: forest, thicket or
 * swamp (not in skirmish order), broken ground (mounted, not in skirmish
 * order), works, a town or a village block (foot). */
static int
disordering_ground(const struct battle *b, int s)
{
	const struct unit *un = &b->units[b->stands[s].unit];
	struct pt p = b->stands[s].pos;
	int skirm = b->stands[s].form == FORM_SKIRMISH;

	if (!skirm && (area_at(b, p, T_FOREST) || area_at(b, p, T_THICKET) ||
	    area_at(b, p, T_SWAMP)))
		return 1;
	if (!skirm && un->kind == KIND_MOUNTED && area_at(b, p, T_BROKEN))
		return 1;
	return foot(un) && (area_at(b, p, T_WORKS) || block_at(b, p) >= 0);
}

static void
retreat_unit_stands(struct ctx *c, const int *list, int n, struct pt from,
    int winner)
{
	struct battle *b = c->b;
	int i;

	for (i = 0; i < n; i++) {
		int s = list[i], u;

		if (!alive(b, s))
			continue;
		u = b->stands[s].unit;
		if (routed(b, s)) {
			/* Treated as routing again, then removed once the
			 * routing is done. */
			vw_push_stand(c, s, geom_bearing(from, b->stands[s].pos),
			    unit_rate(b, u), 1, 0);
			if (alive(b, s))
				vw_remove_stand(c, s, VW_GONE_MELEE_ROUTED);
		} else if (disordered(b, s)) {
			vw_rout_stand(c, s, from, "lost a melee while disordered");
		} else {
			vw_disorder(c, s, "lost the melee");
			/* Guns emplaced in works are abandoned; elsewhere the
			 * crews take them along. */
			if (b->units[u].kind == KIND_ARTILLERY &&
			    in_works(b, b->stands[s].pos) &&
			    !(b->stands[s].flags & ST_GUNS_LOST)) {
				b->stands[s].flags |= ST_GUNS_LOST;
				vw_ev(c, EV_RETREAT, u, winner, 0,
				    VW_M_STAND_ABANDONS_GUNS, b->units[u].name,
				    s - b->units[u].first_stand + 1);
			}
			vw_push_stand(c, s, geom_bearing(from, b->stands[s].pos),
			    unit_rate(b, u) / 2, 0, 0);
			vw_ev(c, EV_RETREAT, u, winner, 0,
			    VW_M_STAND_FALLS_BACK, b->units[u].name,
			    s - b->units[u].first_stand + 1,
			    fmt_in(c, 0, unit_rate(b, u) / 2));
			/* Forced into ground that disorders it, it suffers
			 * the further effect: a morale test, failed while
			 * disordered a rout. */
			if (alive(b, s) && disordering_ground(b, s))
				morale_test(c, s, unit_morale(b, u) - 1, from,
				    "forced into disordering ground");
		}
	}
}

static int
best_morale(struct ctx *c, const int *list, int n, int foe, int att)
{
	int i, best = -100;

	for (i = 0; i < n; i++) {
		int s = list[i], m;

		if (!alive(c->b, list[i]))
			continue;
		m = melee_morale(c, s, foe, att);
		if (c->b->units[c->b->stands[s].unit].abil & ABIL_NE)
			m -= 1;
		if (m > best)
			best = m;
	}
	return best;
}

/* The stand of list[0..n) nearest to stand s (the first on a tie). */
static int
nearest_of(const struct battle *b, int s, const int *list, int n)
{
	fx best = INT32_MAX;
	int k, pick = list[0];

	for (k = 0; k < n; k++) {
		fx g = stand_gap(b, s, list[k]);

		if (g < best) {
			best = g;
			pick = list[k];
		}
	}
	return pick;
}

/* The winner of a melee against unit l (which stood at lc) takes the
 * ground l left, unless it keeps its own (stay), stopping 0.25" short of
 * any enemy; then its free change of facing, made when no order can
 * choose it, turns it towards the nearest enemy it sees that is outside
 * its front.  See docs/rules-vnb-wing.md, Melee results. */
void
vw_winner_advances(struct ctx *c, int w, int l, struct pt lc, int stay)
{
	struct battle *b = c->b;
	struct pt wc, pc;
	int v, to = -1;
	fx best = -1;

	if (!unit_active_centre(b, w, &wc))
		return;
	if (!stay) {
		struct move_result r = vw_move_unit(c, w, lc, COST(FX(1000)),
		    MOVE_ADVANCE_INTO, -1);

		if (r.moved > 0)
			vw_ev(c, EV_MOVE, w, l, r.moved,
			    VW_M_ADVANCES_INTO_GROUND, b->units[w].name,
			    fmt_in(c, 0,
			    r.moved), b->units[l].name);
		unit_active_centre(b, w, &wc);
	}
	for (v = 0; v < b->nunits; v++) {
		if (!enemy(b, w, v) || !battle_unit_centre(b, v, &pc) ||
		    !vw_can_see(b, wc, pc))
			continue;
		if (best < 0 || geom_dist(wc, pc) < best) {
			best = geom_dist(wc, pc);
			to = geom_bearing(wc, pc);
		}
	}
	if (to >= 0 && abs(geom_turn(unit_facing(b, w), to)) >
	    P(c, "arc")) {
		int s, delta = geom_turn(unit_facing(b, w), to);
		unit_save(b, w, c->saved);
		FOR_STANDS(b, w, s)
			if (active(b, s)) {
				b->stands[s].pos = geom_rotate(b->stands[s].pos, wc,
				    delta);
				b->stands[s].facing = geom_norm(to);
			}
		battle_unit_moved(b, w);
		if (!vw_unit_has_room(b, w)) {
			unit_restore(b, w, c->saved);
		} else {
			vw_ev(c, EV_FACING, w, -1, geom_norm(to),
			    VW_M_TURNS_TO_FACE_AFTER_MELEE, b->units[w].name,
			    geom_norm(to));
		}
	}
}

int
vw_melee_stands(struct ctx *c, int a, int t, int *att, int *na, int *def,
    int *nd)
{
	struct battle *b = c->b;
	int s, i;

	*na = *nd = 0;
	FOR_STANDS(b, a, s) {
		int k;

		if (!active(b, s))
			continue;
		FOR_STANDS(b, t, k)
			if (alive(b, k) && in_contact(c, s, k)) {
				att[(*na)++] = s;
				break;
			}
	}
	FOR_STANDS(b, t, s) {
		if (!alive(b, s))
			continue;
		for (i = 0; i < *na; i++)
			if (in_contact(c, att[i], s)) {
				def[(*nd)++] = s;
				break;
			}
	}
	return *na > 0 && *nd > 0;
}

int
vw_melee_strike(struct ctx *c, const int *from, int nfrom, const int *to,
    int nto, int offensive, int *dice, int *hits)
{
	struct hits *h = &c->hits;
	int i;

	h->n = 0;
	for (i = 0; i < nfrom; i++)
		roll_attack(c, from[i], nearest_of(c->b, from[i], to, nto), 1, 1,
		    offensive, h, dice, hits);
	roll_saves(c, h, 0, h->n);
	return apply_hits(c, h, 0, h->n);
}

void
vw_melee(struct ctx *c, int a, int t)
{
	struct battle *b = c->b;
	struct hits *h = &c->hits;
	int *att = c->att, *def = c->def, na = 0, nd = 0, i, j;
	int adice = 0, ahits = 0, ddice = 0, dhits = 0, a_end, d_end;
	int on_def, on_att, winner, loser, def_gone = 1, att_gone = 1;
	struct pt ac, tc;

	h->n = 0;
	if (!vw_melee_stands(c, a, t, att, &na, def, &nd)) {
		vw_ev(c, EV_ORDER_REFUSED, a, t, 0, VW_M_NO_LONGER_IN_CONTACT,
		    b->units[a].name, b->units[t].name);
		return;
	}
	unit_active_centre(b, a, &ac);
	battle_unit_centre(b, t, &tc);
	/* Each stand strikes the nearest enemy stand it touches. */
	for (i = 0; i < na; i++)
		roll_attack(c, att[i], nearest_of(b, att[i], def, nd), 1, 1, 1, h,
		    &adice, &ahits);
	a_end = h->n;
	for (j = 0; j < nd; j++)
		roll_attack(c, def[j], nearest_of(b, def[j], att, na), 1, 1, 0, h,
		    &ddice, &dhits);
	d_end = h->n;
	roll_saves(c, h, 0, a_end);
	roll_saves(c, h, a_end, d_end);
	on_def = apply_hits(c, h, 0, a_end);
	on_att = apply_hits(c, h, a_end, d_end);
	for (j = 0; j < nd; j++)
		if (alive(b, def[j]))
			def_gone = 0;
	for (i = 0; i < na; i++)
		if (alive(b, att[i]))
			att_gone = 0;
	/* Each side that lost all it had in the melee has lost it: when both
	 * did, nobody won, and nobody is left to retreat or advance. */
	if (def_gone && att_gone) {
		vw_ev(c, EV_MELEE_LOST, a, t, on_att, VW_M_DESTROY_EACH_OTHER,
		    b->units[a].name, b->units[t].name, on_def, on_att);
		return;
	}
	if (def_gone && !att_gone)
		winner = a;
	else if (att_gone && !def_gone)
		winner = t;
	else if (on_def > on_att)
		winner = a;
	else if (on_att > on_def)
		winner = t;
	else {
		int am = best_morale(c, att, na, t, 1);
		int dm = best_morale(c, def, nd, a, 0);
		int tries = 0;

		winner = -1;
		/* Ties are rolled again; a thousand ties in a row means a
		 * broken dice source, and the step fails. */
		while (winner < 0 && !c->d->failed) {
			int ra, rd;

			if (tries++ == 1000) {
				c->overflow = 1;
				break;
			}
			ra = vw_roll(c, a, VW_R_MELEE_TIE_ROLL,
			    b->units[a].name, am);
			rd = vw_roll(c, t, VW_R_MELEE_TIE_ROLL,
			    b->units[t].name, dm);
			if (ra + am > rd + dm)
				winner = a;
			else if (rd + dm > ra + am)
				winner = t;
		}
		if (winner < 0)
			winner = a;
	}
	loser = winner == a ? t : a;
	vw_ev(c, EV_MELEE_WON, winner, loser, winner == a ? on_def : on_att,
	    VW_M_WINS_MELEE,
	    b->units[winner].name, b->units[loser].name,
	    winner == a ? on_def : on_att, winner == a ? on_att : on_def,
	    on_def == on_att ? ", won on the roll-off" : "");
	vw_ev(c, EV_MELEE_LOST, loser, winner, winner == a ? on_att : on_def,
	    VW_M_LOSES_MELEE, b->units[loser].name,
	    b->units[winner].name);
	if (loser == t) {
		retreat_unit_stands(c, def, nd, ac, a);
		vw_winner_advances(c, a, t, tc, c->stay[a]);
	} else {
		retreat_unit_stands(c, att, na, tc, t);
		/* Defending cavalry that wins has the attacker's options. */
		if (b->units[t].kind == KIND_MOUNTED &&
		    unit_form(b, t) != FORM_DISMOUNTED)
			vw_winner_advances(c, t, a, ac, 0);
	}
}
