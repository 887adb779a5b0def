/*
 * vnb_wing_cards.c - the Fog of War cards (docs/rules-vnb-wing.md, Fog of
 * War cards): dealing and drawing, playing a card by order, and the
 * effects that last until the player's next phase, which the rest of the
 * adjudicator asks about (movement, rough ground, streams, morale, fire,
 * saves, command).
 *
 * When: the first hands are dealt as the first phase is played, by its
 * dice; hands are refilled after the last phase of every turn, once the
 * cards played and discarded are back in the deck.  A side plays its
 * cards at the start of its own phase, in the order of its order lines,
 * before command is judged.  What a card does at once (a rally, a roll
 * for an officer, a morale test) is done then; what it does "this turn"
 * lasts until the playing side's next phase begins, so a card played on
 * an enemy unit weighs on the enemy's next phase.  A card whose
 * conditions are not met (no sharpshooters in reach, no routed stand to
 * rally) is not played and stays in the hand.
 */
#include "rules/vnb_wing_int.h"

#include <stdio.h>
#include <string.h>

/* --- who a unit is ---------------------------------------------------- */

/* The unit's origin: the scenario's `origin`, else its troop type's,
 * else its side's (the crown's British, the others American). */
static const char *
origin(const struct battle *b, int u)
{
	static const struct { const char *type, *origin; } by_type[] = {
		{ "grenadiers", "british" }, { "light-company", "british" },
		{ "guards", "british" }, { "british-line", "british" },
		{ "highlanders", "highlander" }, { "light-dragoons", "british" },
		{ "loyalist-line", "loyalist" },
		{ "loyalist-trained-militia", "loyalist" },
		{ "loyalist-raw-militia", "loyalist" },
		{ "legion-infantry", "loyalist" }, { "legion-cavalry", "loyalist" },
		{ "german-grenadiers", "german" }, { "fusiliers", "german" },
		{ "musketeers", "german" }, { "jaegers", "german" },
		{ "french-grenadiers", "french" }, { "chasseurs", "french" },
		{ "french-line", "french" }, { "french-light-cavalry", "french" },
		{ "lancers", "french" }, { "native-americans", "native" },
	};
	const struct unit *un = &b->units[u];
	size_t i;

	if (un->origin[0] != '\0')
		return un->origin;
	for (i = 0; i < sizeof(by_type) / sizeof(by_type[0]); i++)
		if (strcmp(by_type[i].type, un->type) == 0)
			return by_type[i].origin;
	return un->side == vnb_deck(b)->crown ? "british" : "american";
}

static int
is_crown(const struct battle *b, int u)
{
	return b->units[u].side == vnb_deck(b)->crown;
}

/* Highlanders are British regulars too. */
static int
is_british(const struct battle *b, int u)
{
	const char *o = origin(b, u);

	return strcmp(o, "british") == 0 || strcmp(o, "highlander") == 0;
}

/* An American unit: the rebels', raised in the colonies. */
static int
is_american(const struct battle *b, int u)
{
	const char *o = origin(b, u);

	return !is_crown(b, u) && (strcmp(o, "american") == 0 ||
	    strcmp(o, "maryland") == 0 || strcmp(o, "delaware") == 0);
}

static int
is_origin(const struct battle *b, int u, const char *o)
{
	return strcmp(origin(b, u), o) == 0;
}

static int
is_militia(const struct battle *b, int u)
{
	return (b->units[u].abil & ABIL_MIL) ||
	    strstr(b->units[u].type, "militia") != NULL;
}

static int
has_small_arms(const struct unit *un)
{
	return un->weapon == WEAPON_MUSKET || un->weapon == WEAPON_RIFLE ||
	    un->weapon == WEAPON_NATIVE;
}

/* --- effects ----------------------------------------------------------- */

static const char *
card_name(int k)
{
	return vnb_cards[k].name;
}

/* The side whose phase comes next after this one, once a turn has gone
 * round: an effect lasts through the steps before it. */
static int
effect_until(struct ctx *c)
{
	return c->step + c->b->nsides - 1;
}

/* The active effect of card k on unit u (any card of the list when k is
 * -1 and ks lists them, -1 ending), or NULL. */
static struct vnb_effect *
effect_on(struct ctx *c, int u, const int *ks)
{
	struct vnb_deck *cs = vnb_deck(c->b);
	int i, j;

	for (i = 0; i < cs->neffects; i++) {
		struct vnb_effect *x = &cs->effects[i];

		if (x->unit != u || x->spent || x->until < c->step)
			continue;
		for (j = 0; ks[j] >= 0; j++)
			if (x->card == ks[j])
				return x;
	}
	return NULL;
}

static struct vnb_effect *
effect_add(struct ctx *c, int k, int side, int unit, int cmd, struct pt at,
    int value)
{
	struct vnb_deck *cs = vnb_deck(c->b);
	struct vnb_effect *x;

	if (cs->neffects == VNB_MAX_EFFECTS) {
		c->overflow = 1;
		return NULL;
	}
	x = &cs->effects[cs->neffects++];
	x->card = k;
	x->side = side;
	x->unit = unit;
	x->commander = cmd;
	x->at = at;
	x->value = value;
	x->until = effect_until(c);
	x->spent = 0;
	return x;
}

/* The last event was the card's: it belongs to the side that played
 * it, whatever unit it names (so the enemy learns of it only when it
 * concerns a unit of theirs or one they see). */
static void
by_side(struct ctx *c, int side)
{
	if (c->ev->n > 0 && !c->ev->overflow)
		c->ev->v[c->ev->n - 1].side = side;
}

/* --- the deck ---------------------------------------------------------- */

static int
held(const struct battle *b, int side)
{
	int i, n = 0;

	for (i = 0; i < vnb_deck(b)->n; i++)
		n += vnb_deck(b)->at[i] == side;
	return n;
}

/* Cards a side holds: the scenario's cards.hand, else the text's table
 * by the players seated on each side, the smallest for every side (the
 * text: both sides hold the same number). */
static int
hand_size(struct ctx *c)
{
	const struct battle *b = c->b;
	int h = P(c, "cards.hand"), s, best = -1;

	if (h > 0)
		return h;
	for (s = 0; s < b->nsides; s++) {
		int n = b->seats[s] > 0 ? b->seats[s] : 1;
		int each = P(c, n == 1 ? "cards.hand.one" : n == 2 ?
		    "cards.hand.two" : "cards.hand.more");

		if (best < 0 || n * each < best)
			best = n * each;
	}
	return best < 0 ? 0 : best;
}

/* Each side, in phase order, draws up to its hand from the deck: a card
 * drawn at random, by a die as large as the deck. */
static void
draw_hands(struct ctx *c)
{
	struct battle *b = c->b;
	int want = hand_size(c), o, i;

	for (o = 0; o < b->nsides; o++) {
		int side = b->side_order[o];

		while (held(b, side) < want) {
			int deck = 0, r, k;

			for (i = 0; i < vnb_deck(b)->n; i++)
				deck += vnb_deck(b)->at[i] == VNB_IN_DECK;
			if (deck == 0)
				break;
			c->d->side = side;
			r = dice_roll(c->d, deck, -1, VW_R_CARD_DRAWN_DECK,
			    b->sides[side].id, deck);
			for (i = 0, k = 0; i < vnb_deck(b)->n; i++)
				if (vnb_deck(b)->at[i] == VNB_IN_DECK && ++k == r)
					break;
			if (i == vnb_deck(b)->n)
				break;
			vnb_deck(b)->at[i] = (signed char)side;
			vw_ev(c, EV_CARD, -1, -1, vnb_deck(b)->kind[i],
			    VW_M_DRAWS_CARD, b->sides[side].id,
			    card_name(vnb_deck(b)->kind[i]));
			by_side(c, side);
		}
	}
}

/* --- playing a card ---------------------------------------------------- */

static int
ok_rifles(const struct battle *b, int v)
{
	return b->units[v].weapon == WEAPON_RIFLE;
}

/* Some stand of a unit of side with small arms is within its weapon's
 * long range of a stand of unit u. */
static int
in_small_arms_range(const struct battle *b, int side, int u, int rifles_only)
{
	int s, v, k;

	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		for (v = 0; v < b->nunits; v++) {
			const struct unit *vu = &b->units[v];
			char name[48];
			fx range;

			if (vu->side != side || !has_small_arms(vu) ||
			    (rifles_only && !ok_rifles(b, v)))
				continue;
			snprintf(name, sizeof(name), "range.%s.long",
			    battle_weapon_name(vu->weapon));
			range = ruleset_param(&ruleset_vnb_wing, b, name);
			FOR_STANDS(b, v, k)
				if (active(b, k) && stand_gap(b, k, s) <= range)
					return 1;
		}
	}
	return 0;
}

/* Unit u's own unit commander, or -1. */
static int
unit_commander(const struct battle *b, int u)
{
	int k;

	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].rank == RANK_UNIT && b->commanders[k].unit == u &&
		    !b->commanders[k].gone)
			return k;
	return -1;
}

/* Commander k out of play (removed) or unhorsed for `turns` turns of the
 * battle, counted from this phase. */
static void
put_out(struct ctx *c, int k, int turns, int removed)
{
	struct commander *cm = &c->b->commanders[k];
	int until = c->step + turns * c->b->nsides - 1;

	if (until > cm->out_until)
		cm->out_until = until;
	cm->out_removed |= removed;
	if (removed && cm->attached >= 0)
		cm->attached = -1;
}

/* Officer Casualties and Pick Off the Officers: a d6 on the unit; from
 * `hit` up its unit commander is out for a turn and it tests morale one
 * worse. */
static void
officers(struct ctx *c, int k, int side, int u, int hit)
{
	struct battle *b = c->b;
	int r, uc;
	struct pt at;

	c->d->side = side;
	r = dice_roll(c->d, 6, u, VW_R_OFFICERS_FALL_MORE,
	    card_name(k), b->units[u].name, hit);
	if (r < hit) {
		vw_ev(c, EV_CARD, u, -1, r, VW_M_PLAYS_ROLLED_NO_OFFICER,
		    b->sides[side].id, card_name(k),
		    b->units[u].name, r);
		by_side(c, side);
		return;
	}
	uc = unit_commander(b, u);
	if (uc >= 0) {
		put_out(c, uc, 1, 1);
		vw_ev(c, EV_CARD, u, -1, r, VW_M_PLAYS_ROLLED_FALLS,
		    b->sides[side].id,
		    card_name(k), b->units[u].name, r, b->commanders[uc].name);
	} else {
		vw_ev(c, EV_CARD, u, -1, r, VW_M_PLAYS_ROLLED_OFFICERS,
		    b->sides[side].id, card_name(k),
		    b->units[u].name, r);
	}
	by_side(c, side);
	battle_unit_centre(b, u, &at);
	vw_unit_morale_test(c, u, 1, at, card_name(k));
}

/* A sharpshooter unit of side with a stand within reach of commander cm,
 * or -1. */
static int
sharpshooters_near(const struct battle *b, int side, int cm)
{
	const struct commander *k = &b->commanders[cm];
	struct pt r[4];
	int v, s;

	if (k->gone || k->out_removed)
		return -1;
	geom_rect(k->pos, k->facing, FX(1.5), FX(1.5), r);
	for (v = 0; v < b->nunits; v++) {
		if (b->units[v].side != side || !(b->units[v].abil & ABIL_SS))
			continue;
		FOR_STANDS(b, v, s) {
			struct pt q[4];

			if (!active(b, s))
				continue;
			battle_stand_rect(b, s, q);
			if (geom_rect_dist(r, q) <= ruleset_param(&ruleset_vnb_wing,
			    b, "cards.sharpshooters"))
				return v;
		}
	}
	return -1;
}

/* Sharpshooters on commander cm: 3-4 unhorsed for a turn, 5-6 out of
 * play for half a d6 turns (rounded up).  The event is the commander's
 * side's, and names the sharpshooters, so both sides read it. */
static void
sharpshooters(struct ctx *c, int side, int cm)
{
	struct battle *b = c->b;
	int r, turns, ss = sharpshooters_near(b, side, cm);

	c->d->side = side;
	r = dice_roll(c->d, 6, -1, VW_R_SHARPSHOOTERS, card_name(VC_SHARPSHOOTERS),
	    b->commanders[cm].name);
	if (r < P(c, "cards.sharpshooters.unhorse")) {
		vw_ev(c, EV_CARD, -1, ss, r, VW_M_PLAYS_ROLLED_HE_MISSED,
		    b->sides[side].id, card_name(VC_SHARPSHOOTERS),
		    b->commanders[cm].name, r);
	} else if (r < P(c, "cards.sharpshooters.hit")) {
		put_out(c, cm, 1, 0);
		vw_ev(c, EV_CARD, -1, ss, r, VW_M_PLAYS_ROLLED_HORSE,
		    b->sides[side].id, card_name(VC_SHARPSHOOTERS),
		    b->commanders[cm].name, r);
	} else {
		int h = dice_roll(c->d, 6, -1, VW_R_SHARPSHOOTERS_TURNS_OUT,
		    b->commanders[cm].name);

		turns = (h + 1) / 2;
		put_out(c, cm, turns, 1);
		vw_ev(c, EV_CARD, -1, ss, r, VW_M_PLAYS_ROLLED_HE_HIT,
		    b->sides[side].id,
		    card_name(VC_SHARPSHOOTERS), b->commanders[cm].name, r, turns,
		    turns == 1 ? "turn" : "turns");
	}
	by_side(c, b->commanders[cm].side);
}

static int
ok_british_infantry(const struct battle *b, int v)
{
	return foot(&b->units[v]) && is_british(b, v);
}

/* A stream within `reach` of point at. */
static int
stream_near(const struct battle *b, struct pt at, fx reach)
{
	return battle_near_line(b, at, T_STREAM, reach);
}

/* A stand of unit u on the table that side sees. */
static int
unit_seen_by(const struct battle *b, int side, int u)
{
	unsigned char seen[BATTLE_MAX_STANDS];
	int s;

	vnb_sees(b, side, seen);
	FOR_STANDS(b, u, s)
		if (alive(b, s) && seen[s])
			return 1;
	return 0;
}

/* Commander k on the table, and a stand or commander of side sees him. */
static int
commander_seen_by(const struct battle *b, int side, int k)
{
	const struct commander *cm = &b->commanders[k];
	int s, j;

	if (cm->gone || cm->out_removed)
		return 0;
	for (s = 0; s < b->nstands; s++)
		if (b->units[b->stands[s].unit].side == side && alive(b, s) &&
		    vw_can_see(b, b->stands[s].pos, cm->pos))
			return 1;
	for (j = 0; j < b->ncommanders; j++)
		if (b->commanders[j].side == side && !b->commanders[j].gone &&
		    !b->commanders[j].out_removed &&
		    vw_can_see(b, b->commanders[j].pos, cm->pos))
			return 1;
	return 0;
}

const char *
vnb_card_unplayable(const struct battle *b, int k, int side,
    const struct order *o)
{
	int u = o->is_commander ? -1 : o->who, s, from;
	const struct unit *un = u >= 0 ? &b->units[u] : NULL;

	/* An enemy must be in sight of the side: a player picks what he
	 * sees on the table (and a refusal tells nothing of what he does
	 * not). */
	if (vnb_cards[k].target == VNB_ON_ENEMY_UNIT && !unit_seen_by(b, side, u))
		return "it is not in sight of the side";
	if (vnb_cards[k].target == VNB_ON_ENEMY_COMMANDER &&
	    !commander_seen_by(b, side, o->who))
		return "he is not in sight of the side";
	if (u >= 0 && battle_unit_alive(b, u) == 0)
		return "it has no stands left on the table";
	switch (k) {
	case VC_OFFICER_CASUALTIES:
		return in_small_arms_range(b, side, u, 0) ? NULL :
		    "no unit of the side with small arms has it in range";
	case VC_PICK_OFF:
		return in_small_arms_range(b, side, u, 1) ? NULL :
		    "no rifle unit of the side has it in range";
	case VC_GOOD_GUNNERY:
	case VC_BAD_GUNNERY:
		return un->kind == KIND_ARTILLERY ? NULL : "it is not artillery";
	case VC_DEVASTATING_VOLLEY:
	case VC_DISAPPOINTING_VOLLEY:
		return foot(un) && has_small_arms(un) ? NULL :
		    "it is not infantry";
	case VC_SHARPSHOOTERS:
		return sharpshooters_near(b, side, o->who) >= 0 ? NULL :
		    "no sharpshooter unit of the side is within 12\" of him";
	case VC_GOD_SAVE_RALLY:
	case VC_LIBERTY_RALLY:
		if (k == VC_GOD_SAVE_RALLY && !is_british(b, u))
			return "it is not a British unit";
		if (k == VC_LIBERTY_RALLY && !is_american(b, u))
			return "it is not an American unit";
		FOR_STANDS(b, u, s)
			if (alive(b, s) && routed(b, s))
				return NULL;
		return "none of its stands is routed";
	case VC_GOD_SAVE_STEADY:
	case VC_REGULARS_BRITISH:
		if (!is_british(b, u))
			return "it is not a British unit";
		break;
	case VC_GOTT_MIT_UNS:
		return is_origin(b, u, "german") ? NULL : "it is not a German unit";
	case VC_LOYALIST_KNOWLEDGE:
	case VC_TARLETONS_QUARTER:
		if (!is_origin(b, u, "loyalist"))
			return "it is not a Loyalist unit";
		break;
	case VC_LIBERTY_REROLL:
	case VC_LIBERTY_STEADY:
	case VC_LOCAL_KNOWLEDGE:
		if (!is_american(b, u))
			return "it is not an American unit";
		break;
	case VC_PANIC:
		return is_militia(b, u) ? NULL : "it is not a militia unit";
	case VC_LOCAL_STREAM:
		return stream_near(b, o->at, ruleset_param(&ruleset_vnb_wing, b,
		    "cards.stream") / 2) ? NULL : "no stream runs within 6\" of "
		    "that point";
	case VC_REGULARS_SHAKEN:
		/* Any British infantry stand of the side within 18" that sees
		 * a stand of it. */
		FOR_STANDS(b, u, s) {
			int v;

			if (!alive(b, s))
				continue;
			for (v = 0; v < b->nunits; v++) {
				if (b->units[v].side != side || !ok_british_infantry(b, v))
					continue;
				FOR_STANDS(b, v, from)
					if (active(b, from) && stand_gap(b, from, s) <=
					    ruleset_param(&ruleset_vnb_wing, b,
					    "cards.regulars") && vw_can_see(b,
					    b->stands[from].pos, b->stands[s].pos))
						return NULL;
			}
		}
		return "no British infantry of the side within 18\" sees it";
	default:
		break;
	}
	if (k == VC_REGULARS_CROWN || k == VC_REGULARS_BRITISH) {
		FOR_STANDS(b, u, s)
			if (alive(b, s) && (b->stands[s].flags & ST_DISORDERED) &&
			    !(b->stands[s].flags & ST_PERMANENT))
				return NULL;
		return "none of its stands is disordered (a red marker never "
		    "comes off)";
	}
	if ((k == VC_LOYALIST_KNOWLEDGE || k == VC_LOCAL_KNOWLEDGE) &&
	    !foot(un))
		return "it is not a foot unit";
	return NULL;
}

/* What a card does once it is played. */
static void
card_effect(struct ctx *c, int k, int side, const struct order *o)
{
	struct battle *b = c->b;
	int u = o->is_commander ? -1 : o->who, s;
	struct pt none = { 0, 0 };

	switch (k) {
	case VC_OFFICER_CASUALTIES:
		officers(c, k, side, u, P(c, "cards.officers.hit"));
		return;
	case VC_PICK_OFF:
		officers(c, k, side, u, P(c, "cards.pick-off.hit"));
		return;
	case VC_SHARPSHOOTERS:
		sharpshooters(c, side, o->who);
		return;
	case VC_GOD_SAVE_RALLY:
	case VC_LIBERTY_RALLY:
		vw_ev(c, EV_CARD, u, -1, 0, VW_M_PLAYS, b->sides[side].id,
		    card_name(k), b->units[u].name);
		FOR_STANDS(b, u, s)
			if (alive(b, s) && routed(b, s))
				vw_rally_stand(c, s, -1, card_name(k));
		return;
	case VC_REGULARS_CROWN:
	case VC_REGULARS_BRITISH:
		vw_ev(c, EV_CARD, u, -1, 0, VW_M_PLAYS, b->sides[side].id,
		    card_name(k), b->units[u].name);
		FOR_STANDS(b, u, s)
			if (alive(b, s) && (b->stands[s].flags & ST_DISORDERED) &&
			    !(b->stands[s].flags & ST_PERMANENT)) {
				b->stands[s].flags &= ~ST_DISORDERED;
				vw_ev(c, EV_REFORM, u, -1, s - b->units[u].first_stand + 1,
				    VW_M_STAND_RECOVERS_DISORDER,
				    b->units[u].name, s - b->units[u].first_stand + 1,
				    card_name(k));
			}
		return;
	case VC_REGULARS_SHAKEN: {
		struct pt at;

		vw_ev(c, EV_CARD, u, -1, 0, VW_M_PLAYS, b->sides[side].id,
		    card_name(k), b->units[u].name);
		by_side(c, side);
		battle_unit_centre(b, u, &at);
		vw_unit_morale_test(c, u, 1, at, card_name(k));
		return;
	}
	case VC_GOOD_GOING:
	case VC_BAD_GOING: {
		int mounted = b->units[u].kind == KIND_MOUNTED &&
		    unit_form(b, u) != FORM_DISMOUNTED;
		int r = vw_roll(c, u, VW_R_CARD_MOVE, card_name(k),
		    b->units[u].name, mounted ? "mounted: 2d6" : "d6");

		if (mounted)
			r += vw_roll(c, u, VW_R_CARD_MOVE_SECOND, card_name(k),
			    b->units[u].name);
		effect_add(c, k, side, u, -1, none, FX(r));
		if (k == VC_GOOD_GOING)
			vw_ev(c, EV_CARD, u, -1, r, VW_M_PLAYS_MOVES_MORE,
			    b->sides[side].id, card_name(k),
			    b->units[u].name, r);
		else
			vw_ev(c, EV_CARD, u, -1, r, VW_M_PLAYS_MOVES_LESS,
			    b->sides[side].id, card_name(k),
			    b->units[u].name, r);
		by_side(c, side);
		return;
	}
	case VC_LOCAL_STREAM:
		effect_add(c, k, side, -1, -1, o->at, 0);
		vw_ev(c, EV_CARD, -1, -1, 0, VW_M_PLAYS_STREAM_THERE,
		    b->sides[side].id, card_name(k), fmt_in(c, 0, o->at.x),
		    fmt_in(c, 1, o->at.y), b->sides[side].id);
		by_side(c, side);
		return;
	default:
		/* Lasting until the player's next phase. */
		effect_add(c, k, side, u, -1, none, 0);
		vw_ev(c, EV_CARD, u, -1, 0, VW_M_PLAYS_UNTIL_NEXT,
		    b->sides[side].id, card_name(k), b->units[u].name,
		    b->sides[side].id);
		by_side(c, side);
		return;
	}
}

/* The card of kind k that side holds, first in deck order, or -1. */
static int
held_card(const struct battle *b, int side, int k)
{
	int i;

	for (i = 0; i < vnb_deck(b)->n; i++)
		if (vnb_deck(b)->at[i] == side && vnb_deck(b)->kind[i] == k)
			return i;
	return -1;
}

static void
play_order(struct ctx *c, int side, const struct order *o)
{
	struct battle *b = c->b;
	int k = o->special - 1, i;
	const char *why;

	if (k < 0 || k >= VC_COUNT || (i = held_card(b, side, k)) < 0) {
		vw_ev(c, EV_CARD, -1, -1, 0, VW_M_DOES_NOT_HOLD_CARD,
		    b->sides[side].id, k >= 0 && k < VC_COUNT ?
		    card_name(k) : "?", o->line);
		by_side(c, side);
		return;
	}
	if (o->special_arg) {
		vnb_deck(b)->at[i] = VNB_USED;
		vw_ev(c, EV_CARD, -1, -1, k, VW_M_DISCARDS_CARD,
		    b->sides[side].id, card_name(k));
		by_side(c, side);
		return;
	}
	if (!vnb_card_playable(b, k, side))
		why = "it is the other side's card";
	else if (vnb_deck(b)->neffects == VNB_MAX_EFFECTS)
		why = "too many cards are in play already";
	else
		why = vnb_card_unplayable(b, k, side, o);
	if (why != NULL) {
		if (o->who < 0)
			vw_ev(c, EV_CARD, -1, -1, k, VW_M_CANNOT_PLAY_CARD_AT_PLACE,
			    b->sides[side].id, card_name(k), why);
		else if (o->is_commander)
			vw_ev(c, EV_CARD, -1, -1, k, VW_M_CANNOT_PLAY_CARD_ON_COMMANDER,
			    b->sides[side].id, card_name(k),
			    b->commanders[o->who].name, why);
		else
			vw_ev(c, EV_CARD, -1, -1, k, VW_M_CANNOT_PLAY_CARD_ON_UNIT,
			    b->sides[side].id, card_name(k), b->units[o->who].name,
			    why);
		by_side(c, side);
		return;
	}
	vnb_deck(b)->at[i] = VNB_USED;
	card_effect(c, k, side, o);
}

void
vw_cards_begin(struct ctx *c, const struct order_set *mine)
{
	struct battle *b = c->b;
	struct vnb_deck *cs = vnb_deck(b);
	int i, n;

	/* Commanders whose time out of play is over. */
	for (i = 0; i < b->ncommanders; i++) {
		struct commander *cm = &b->commanders[i];

		if (cm->out_until == 0 || cm->out_until >= c->step)
			continue;
		cm->out_until = 0;
		cm->out_removed = 0;
		vw_ev(c, EV_COMMANDER, -1, -1, 0, VW_M_BACK_COMMAND,
		    cm->name);
		by_side(c, cm->side);
	}
	if (cs->n == 0)
		return;
	/* Effects that have run their time. */
	for (i = n = 0; i < cs->neffects; i++)
		if (cs->effects[i].until >= c->step)
			cs->effects[n++] = cs->effects[i];
	cs->neffects = n;
	/* the first step played (a deployment step before it plays no
	 * ruleset) */
	if (c->step == battle_deploy_steps(c->b) + 1)
		draw_hands(c);
	for (i = 0; mine != NULL && i < mine->n; i++)
		if (mine->orders[i].special > 0)
			play_order(c, mine->side, &mine->orders[i]);
}

void
vw_cards_end(struct ctx *c)
{
	struct battle *b = c->b;
	int i;

	if (vnb_deck(b)->n == 0 ||
	    (c->step - battle_deploy_steps(b)) % b->nsides != 0 ||
	    c->step >= battle_steps(b))
		return;
	/* The turn is over: what was played or discarded goes back into the
	 * deck, and each side draws up to its hand. */
	for (i = 0; i < vnb_deck(b)->n; i++)
		if (vnb_deck(b)->at[i] == VNB_USED)
			vnb_deck(b)->at[i] = VNB_IN_DECK;
	draw_hands(c);
}

/* --- what the rest of the adjudicator asks ----------------------------- */

fx
vw_card_move(struct ctx *c, int u)
{
	const struct vnb_deck *cs = vnb_deck(c->b);
	fx d = 0;
	int i;

	for (i = 0; i < cs->neffects; i++) {
		const struct vnb_effect *x = &cs->effects[i];

		if (x->unit != u || x->until < c->step)
			continue;
		if (x->card == VC_GOOD_GOING)
			d += x->value;
		else if (x->card == VC_BAD_GOING)
			d -= x->value;
	}
	return d;
}

int
vw_card_free_ground(struct ctx *c, int u)
{
	static const int ks[] = { VC_LOYALIST_KNOWLEDGE, VC_LOCAL_KNOWLEDGE, -1 };

	return foot(&c->b->units[u]) && effect_on(c, u, ks) != NULL;
}

int
vw_card_marshy(struct ctx *c, int u, struct pt at)
{
	const struct vnb_deck *cs = vnb_deck(c->b);
	int i;

	if (cs->n == 0 || !is_crown(c->b, u))
		return 0;
	for (i = 0; i < cs->neffects; i++) {
		const struct vnb_effect *x = &cs->effects[i];

		if (x->card == VC_LOCAL_STREAM && x->until >= c->step &&
		    geom_dist(x->at, at) <= P(c, "cards.stream") / 2)
			return 1;
	}
	return 0;
}

const char *
vw_card_steadier(struct ctx *c, int u)
{
	static const int ks[] = { VC_GOD_SAVE_STEADY, VC_GOTT_MIT_UNS,
		VC_LIBERTY_STEADY, -1 };
	const struct vnb_effect *x = effect_on(c, u, ks);

	return x != NULL ? card_name(x->card) : NULL;
}

const char *
vw_card_morale_reroll(struct ctx *c, int u)
{
	static const int ks[] = { VC_GOD_SAVE_REROLL, VC_LIBERTY_REROLL, -1 };
	const struct vnb_effect *x = effect_on(c, u, ks);

	return x != NULL ? card_name(x->card) : NULL;
}

const char *
vw_card_melee_worse(struct ctx *c, int u, int foe)
{
	static const int ks[] = { VC_COLD_STEEL_CROWN, VC_COLD_STEEL_BRITISH,
		VC_HIGHLANDER_FURY, VC_OLD_LINE_STATE, VC_COLD_STEEL_LIGHT,
		VC_TARLETONS_QUARTER, -1 };
	const struct battle *b = c->b;
	const struct vnb_deck *cs = vnb_deck(b);
	int i, j;

	if (cs->n == 0)
		return NULL;
	for (i = 0; i < cs->neffects; i++) {
		const struct vnb_effect *x = &cs->effects[i];
		int fits = 0;

		if (x->unit != u || x->until < c->step)
			continue;
		for (j = 0; ks[j] >= 0 && ks[j] != x->card; j++)
			;
		if (ks[j] < 0)
			continue;
		switch (x->card) {
		case VC_COLD_STEEL_CROWN:
			fits = is_crown(b, foe);
			break;
		case VC_COLD_STEEL_BRITISH:
			fits = is_crown(b, foe) && is_british(b, foe);
			break;
		case VC_HIGHLANDER_FURY:
			fits = is_origin(b, foe, "highlander");
			break;
		case VC_OLD_LINE_STATE:
			fits = is_origin(b, foe, "maryland") ||
			    is_origin(b, foe, "delaware");
			break;
		case VC_COLD_STEEL_LIGHT:
			fits = is_american(b, foe) &&
			    strcmp(b->units[foe].type, "light-infantry") == 0;
			break;
		case VC_TARLETONS_QUARTER:
			fits = !is_crown(b, foe);
			break;
		}
		if (fits)
			return card_name(x->card);
	}
	return NULL;
}

const char *
vw_card_fire_reroll(struct ctx *c, int u)
{
	static const int ks[] = { VC_GOOD_GUNNERY, VC_DEVASTATING_VOLLEY, -1 };
	const struct vnb_effect *x = effect_on(c, u, ks);

	return x != NULL ? card_name(x->card) : NULL;
}

void
vw_card_fire_done(struct ctx *c, int u)
{
	static const int ks[] = { VC_GOOD_GUNNERY, VC_DEVASTATING_VOLLEY, -1 };
	struct vnb_effect *x = effect_on(c, u, ks);

	if (x != NULL)
		x->spent = 1;
}

const char *
vw_card_extra_save(struct ctx *c, int u, int melee)
{
	static const int gun[] = { VC_BAD_GUNNERY, -1 };
	static const int vol[] = { VC_DISAPPOINTING_VOLLEY, -1 };
	const struct vnb_effect *x = effect_on(c, u, gun);

	if (x == NULL && !melee)
		x = effect_on(c, u, vol);
	return x != NULL ? card_name(x->card) : NULL;
}

void
vw_cards_panic(struct ctx *c)
{
	static const int ks[] = { VC_PANIC, -1 };
	struct battle *b = c->b;
	int u, v, s, k;

	if (vnb_deck(b)->n == 0)
		return;
	for (u = 0; u < b->nunits; u++) {
		struct vnb_effect *x = effect_on(c, u, ks);
		int seen = -1;

		if (x == NULL)
			continue;
		for (v = 0; v < b->nunits && seen < 0; v++) {
			if (v == u || !c->routed_now[v] || is_crown(b, v))
				continue;
			FOR_STANDS(b, u, s) {
				if (!active(b, s))
					continue;
				FOR_STANDS(b, v, k)
					if (alive(b, k) && vw_can_see(b, b->stands[s].pos,
					    b->stands[k].pos))
						seen = v;
			}
		}
		if (seen < 0)
			continue;
		{
			struct pt at;

			x->spent = 1;
			vw_ev(c, EV_CARD, u, seen, 0, VW_M_SEES_ROUT,
			    b->units[u].name, b->units[seen].name, card_name(VC_PANIC));
			battle_unit_centre(b, seen, &at);
			vw_unit_morale_test(c, u, 1, at, card_name(VC_PANIC));
		}
	}
}
