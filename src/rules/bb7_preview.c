/*
 * bb7_preview.c - what a bb7 player is told of his orders the moment he
 * sends them (struct ruleset: preview, preview_battle): warnings for the
 * parts of an order line that the phase would refuse or waste, and a copy
 * of the battle with the ordered moves played, for the map in the reply.
 * docs/rules-bb7.md, "What the order reply warns of", lists the warnings.
 *
 * The dice decide how many actions a unit earns (one to three), so the
 * preview plays every part of each line in order as if each were done,
 * the parts no hand could ever buy aside, on the table as it stands: a
 * move goes the whole way one move action allows on open ground, less
 * what woods take (cavalry, whose dice decide, as far as it is ordered,
 * at most what its two d12 could give), and stops where the adjudicator
 * would stop it.  Lines are played in the order they were written, as the
 * phase plays them, commanders' rides among them.  Every measure is the
 * adjudicator's own (bb7.c), run on a copy through a phase context that
 * holds no dice: nothing here rolls, and the events the adjudicator's
 * steps write are thrown away.
 *
 * Pure: no clock, no I/O, no dice, integers only.
 */
#include "rules/bb7_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/preview_util.h"

/* The most a cavalry move's two d12 give: their sum; with woods on the
 * way no sum (light woods) or only the lower die (heavy), one die. */
#define CAVALRY_MOST FX(24)
#define CAVALRY_MOST_WOODS FX(12)

/* A run of the preview over one side's orders. */
struct pv {
	struct ctx *c;          /* the phase context around the copy */
	struct events ev;       /* what the adjudicator's steps say: unused */
	char *out;              /* warnings; NULL: play the moves only */
	size_t size, k;
	int warnings;
	/* For the command warnings, from an earlier run: the copy with
	 * every line played, and the table as it was. */
	struct battle *fin;
	const struct battle *orig;
	/* Each unit's commander as the table stands (-1: none within
	 * reach) and the number its activation dice succeed on. */
	int chief[BATTLE_MAX_UNITS];
	int need[BATTLE_MAX_UNITS];
};

static void warn(struct pv *pv, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
warn(struct pv *pv, int line, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (pv->out == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pv->k = preview_warn(pv->out, pv->size, pv->k, line, "%s", text);
	pv->warnings++;
}

static const char *
in(fx v, char *buf)
{
	return geom_fmt_fx(v, buf, 24);
}

/* 1 if unit u's move is its dice's: cavalry not in column. */
static int
dice_move(const struct battle *b, int u)
{
	return b->units[u].kind == KIND_MOUNTED && unit_form(b, u) != FORM_ROAD;
}

/* The most one move action takes unit u along bearing dir when it is to
 * go `want`: the adjudicator's allowance (woods taken off), or for
 * cavalry the most its dice could give with the woods on the way; -1 if
 * it may not move at all. */
static fx
most_move(struct ctx *c, int u, int dir, fx want)
{
	int exact;

	if (dice_move(c->b, u))
		return b7_woods_on(c, u, dir, want < CAVALRY_MOST ? want :
		    CAVALRY_MOST) >= 0 ? CAVALRY_MOST_WOODS : CAVALRY_MOST;
	return b7_allowance(c, u, dir, want, &exact);
}

/* How far one move action takes unit u, in words, for a warning. */
static const char *
move_words(struct ctx *c, int u, char *buf, size_t size)
{
	const struct unit *un = &c->b->units[u];
	int form = unit_form(c->b, u);
	char a[24], w[24];
	size_t k;

	if (un->kind == KIND_MOUNTED)
		k = (size_t)snprintf(buf, size, "cavalry in column: %s\"",
		    in(P(c, "move.cavalry.column"), a));
	else if (un->kind == KIND_ARTILLERY && form == FORM_ROAD)
		k = (size_t)snprintf(buf, size, "limbered guns: %s\", %s\" if the "
		    "whole move is on a road", in(P(c, "move.limbered"), a),
		    in(P(c, "move.limbered.road"), w));
	else if (un->kind == KIND_ARTILLERY)
		k = (size_t)snprintf(buf, size, "unlimbered %s guns: %s\", once a "
		    "turn", un->weapon == WEAPON_LIGHT_GUN ? "light" : "field",
		    in(b7_one_move(c, u), a));
	else if (form == FORM_ROAD)
		k = (size_t)snprintf(buf, size, "infantry in column: %s\"",
		    in(P(c, "move.infantry"), a));
	else
		k = (size_t)snprintf(buf, size, "infantry at density %d: %s\" less "
		    "its density", un->state[B7_DENSITY], in(P(c, "move.infantry"), a));
	if (c->woods_cost[u] > 0 && k < size)
		snprintf(buf + k, size - k, ", less %s\" for the woods on the way",
		    in(c->woods_cost[u], w));
	return buf;
}

/* A MOVE TO or ADVANCE of unit u (line `line`); 1 if it moves at all. */
static int
play_move(struct pv *pv, int line, int u, const struct order_step *st)
{
	struct ctx *c = pv->c;
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct pt cen;
	char w1[24], w2[24], how[160];
	int dir;
	fx want, most;

	if (!b7_move_goal(b, u, st, &cen, &dir, &want))
		return 0;
	c->woods_cost[u] = 0;
	most = most_move(c, u, dir, want);
	if (most < 0) {
		if (un->weapon == WEAPON_HEAVY_GUN)
			warn(pv, line, "%s cannot move: unlimbered heavy guns cannot "
			    "be moved (FORM LIMBERED first).", un->name);
		else
			warn(pv, line, "%s cannot move again this phase: unlimbered "
			    "guns move once a turn.", un->name);
		return 0;
	}
	if (want > most && dice_move(b, u))
		warn(pv, line, "%s is ordered to move %s\", farther than its dice "
		    "can take it: cavalry not in column moves one d12, the sum or "
		    "the difference of two, whichever comes nearest the place, at "
		    "most %s\"%s.", un->name, in(want, w1), in(most, w2),
		    most < CAVALRY_MOST ? " with woods on the way" : "");
	else if (want > most)
		warn(pv, line, "%s is ordered to move %s\" but one move action "
		    "takes it at most %s\" (%s).", un->name, in(want, w1),
		    in(most, w2), move_words(c, u, how, sizeof(how)));
	b7_face_towards(c, u, dir);
	b7_move_along(c, u, dir, want < most ? want : most);
	b->units[u].state[B7_MARKS] |= UM_MOVED;   /* its one move, if guns */
	return 1;
}

/* A SHOOT AT of unit u, judged as b7_shoot_action judges it from where
 * the unit would be; *first is the target of its first shot that would
 * be taken (-1: none yet), which a further SHOOT rolls again.  1 if it
 * would shoot. */
static int
play_shoot(struct pv *pv, int line, int u, int t, int *first)
{
	struct ctx *c = pv->c;
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct pt uc, tc;
	char w1[24], w2[24];
	fx gap, range;
	int brg, ok = 1;

	if (t < 0 || t >= b->nunits)
		return 0;
	if (*first >= 0) {
		if (t != *first)
			warn(pv, line, "a further SHOOT rolls again the dice of %s's "
			    "first shot that missed, at %s: it does not shoot at %s.",
			    un->name, b->units[*first].name, b->units[t].name);
		return 1;
	}
	if (battle_unit_alive(b, t) == 0 || !battle_unit_centre(b, u, &uc) ||
	    !battle_unit_centre(b, t, &tc)) {
		warn(pv, line, "%s cannot shoot at %s: it is gone.", un->name,
		    b->units[t].name);
		return 0;
	}
	brg = geom_bearing(uc, tc);
	if (abs(geom_turn(unit_facing(b, u), brg)) > P(c, "arc")) {
		warn(pv, line, "%s would face %d and %s would lie at a bearing of "
		    "%d, not within %d degrees of its front: it will not shoot at "
		    "it (FACE or WHEEL first).", un->name, unit_facing(b, u),
		    b->units[t].name, brg, P(c, "arc"));
		ok = 0;
	}
	if (!b7_unit_sees(b, u, t)) {
		warn(pv, line, "%s would not see %s: more than %s\" of woods lie "
		    "between them. It will not shoot at it.", un->name,
		    b->units[t].name, in(P(c, "sight.woods"), w1));
		ok = 0;
	}
	if (un->kind == KIND_ARTILLERY && unit_form(b, u) == FORM_ROAD) {
		warn(pv, line, "%s would be limbered, and limbered guns cannot "
		    "shoot (FORM UNLIMBERED first).", un->name);
		ok = 0;
	}
	gap = battle_unit_gap(b, u, t);
	range = b7_longest_range(b, u);
	if (range >= 0 && gap > range) {
		warn(pv, line, "%s would be %s\" from %s, beyond its longest range "
		    "(%s\", %s): it will not shoot at it from there.", un->name,
		    in(gap, w1), b->units[t].name, in(range, w2),
		    ruleset_weapon_name(&ruleset_bb7, un->weapon));
		ok = 0;
	}
	if (ok)
		*first = t;
	return ok;
}

/* A CHARGE of unit u at t: the move at the enemy, as b7_charge_action
 * makes it; 1 if the unit would move. */
static int
play_charge(struct pv *pv, int line, int u, int t)
{
	struct ctx *c = pv->c;
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct pt uc, tc;
	char w1[24], w2[24], how[160];
	int dir, evades;
	fx gap, most, after;

	if (t < 0 || t >= b->nunits)
		return 0;
	if (un->kind == KIND_ARTILLERY || b->units[t].side == un->side ||
	    battle_unit_alive(b, t) == 0 || !battle_unit_centre(b, u, &uc) ||
	    !battle_unit_centre(b, t, &tc)) {
		warn(pv, line, "%s cannot charge %s: %s.", un->name,
		    b->units[t].name, un->kind == KIND_ARTILLERY ? "guns do not "
		    "charge" : b->units[t].side == un->side ? "it is a friend" :
		    "it is gone");
		return 0;
	}
	dir = geom_bearing(uc, tc);
	gap = battle_unit_gap(b, u, t);
	/* Loose troops that one move could reach run first (the charger
	 * follows them): no falling short to tell of. */
	evades = b->units[t].state[B7_DENSITY] <= P(c, "evade.density") &&
	    un->state[B7_DENSITY] >= P(c, "evade.charger") && !in_buildings(b, tc) &&
	    b7_unit_sees(b, u, t) && gap <= (dice_move(b, u) ? CAVALRY_MOST :
	    b7_one_move(c, u));
	c->woods_cost[u] = 0;
	most = most_move(c, u, dir, gap);
	if (most < 0)
		return 0;
	b7_face_towards(c, u, dir);
	b7_move_along(c, u, dir, most);
	after = battle_unit_gap(b, u, t);
	if (evades || (after >= 0 && after < P(c, "stop-short") + P(c, "step")))
		return 1;
	if (most < gap && dice_move(b, u))
		warn(pv, line, "%s would be %s\" from %s, farther than its dice "
		    "could take it (two d12, at most %s\"%s): the charge would fall "
		    "short.", un->name, in(gap, w1), b->units[t].name,
		    in(most, w2), most < CAVALRY_MOST ? " with woods on the way" :
		    "");
	else if (most < gap)
		warn(pv, line, "%s would be %s\" from %s, and one move action takes "
		    "it at most %s\" (%s): the charge would fall short.", un->name,
		    in(gap, w1), b->units[t].name, in(most, w2),
		    move_words(c, u, how, sizeof(how)));
	else
		warn(pv, line, "%s's charge at %s would be stopped short%s%s: it "
		    "would not reach it.", un->name, b->units[t].name,
		    c->stopped_by[u] == -2 ? " at the table's edge" :
		    c->stopped_by[u] >= 0 ? " by " : "", c->stopped_by[u] >= 0 ?
		    b->units[c->stopped_by[u]].name : "");
	return 1;
}

/* 1 if gun s is low on either kind of ammunition. */
static int
low(const struct battle *b, int s)
{
	return alive(b, s) && (b->stands[s].flags &
	    (ST_LOW_CANISTER | ST_LOW_ROUNDSHOT)) != 0;
}

/* A battery whose line resupplies works gun by gun (bb7.c,
 * battery_actions): a gun that is not low passes over a RESUPPLY part,
 * at no cost.  1 if some gun of unit u would pass over it so. */
static int
resupply_passed_over(const struct battle *b, int u, const struct order *o)
{
	int s, i, has = 0;

	for (i = 0; i < o->nsteps; i++)
		has |= o->steps[i].verb == B7_V_RESUPPLY;
	if (!has || b->units[u].kind != KIND_ARTILLERY ||
	    battle_unit_alive(b, u) < 2)
		return 0;
	FOR_STANDS(b, u, s)
		if (alive(b, s) && !low(b, s))
			return 1;
	return 0;
}

/* Unit u's activation hand: d12s, one fewer a disruption point. */
static int
hand_of(struct ctx *c, int u)
{
	int dp = c->b->units[u].state[B7_DISRUPTION];

	return P(c, "hand") - (dp < P(c, "hand.dp-max") ? dp :
	    P(c, "hand.dp-max"));
}

/* The most actions unit u's hand could earn. */
static int
most_actions(struct ctx *c, int u)
{
	int hand = hand_of(c, u);

	return hand >= P(c, "actions.three") ? 3 : hand >= P(c, "actions.two") ?
	    2 : hand >= P(c, "actions.one") ? 1 : 0;
}

static const char *
verb_name(int v)
{
	int i;

	for (i = 0; i < bb7_nverbs && bb7_verbs[i].verb != v; i++)
		;
	return i < bb7_nverbs ? bb7_verbs[i].word : "?";
}

/* The parts of o no hand of unit u could buy, as a warning. */
static void
hand_warning(struct pv *pv, const struct order *o, const unsigned char *never,
    int most)
{
	struct ctx *c = pv->c;
	const struct unit *un = &c->b->units[o->who];
	char parts[160], verbs[160];
	size_t kp = 0, kv = 0;
	int i, n = 0, last = -1, dp = un->state[B7_DISRUPTION];

	for (i = 0; i < o->nsteps; i++)
		if (never[i]) {
			n++;
			last = i;
		}
	if (n == 0)
		return;
	parts[0] = verbs[0] = '\0';
	for (i = 0; i < o->nsteps; i++) {
		if (!never[i])
			continue;
		kp += (size_t)snprintf(parts + kp, sizeof(parts) - kp, "%s%d",
		    kp == 0 ? "" : i == last ? " and " : ", ", i + 1);
		kv += (size_t)snprintf(verbs + kv, sizeof(verbs) - kv, "%s%s",
		    kv == 0 ? "" : ", ", verb_name(o->steps[i].verb));
	}
	if (most >= 3)
		warn(pv, o->line, "%s can earn at most 3 actions (%d successes "
		    "buy three, and no hand buys more): part%s %s (%s) can never "
		    "be done.", un->name, P(c, "actions.three"), n > 1 ? "s" : "",
		    parts, verbs);
	else
		warn(pv, o->line, "%s can earn at most %d action%s: its hand is %d "
		    "d12 (%d, one fewer for %s %d disruption point%s), and %d "
		    "actions need %d successes. Part%s %s (%s) can never be done.",
		    un->name, most, most == 1 ? "" : "s", hand_of(c, o->who),
		    P(c, "hand"), dp == 1 ? "its" : "each of its", dp,
		    dp == 1 ? "" : "s", most + 1,
		    P(c, most == 2 ? "actions.three" : "actions.two"),
		    n > 1 ? "s" : "", parts, verbs);
}

/* One unit's order line. */
static void
play_unit(struct pv *pv, const struct order *o)
{
	struct ctx *c = pv->c;
	struct battle *b = c->b;
	struct unit *un = &b->units[o->who];
	unsigned char never[ORDER_MAX_STEPS];
	int u = o->who, i, most, part = 0, acts = 0, did = 0, first = -1;
	int pass_resupply, refused = -1;

	for (i = 0; i < o->nsteps; i++)
		if (o->steps[i].verb == V_HOLD) {
			/* It does not activate: nothing else in the line is
			 * done. */
			if (o->nsteps > 1)
				warn(pv, o->line, "HOLD in %s's line means it does not "
				    "activate: the other parts of the line will not be "
				    "done.", un->name);
			return;
		}
	most = most_actions(c, u);
	pass_resupply = resupply_passed_over(b, u, o);
	memset(never, 0, sizeof(never));
	for (i = 0; i < o->nsteps; i++) {
		int v = o->steps[i].verb;

		if (v == V_NO_ADVANCE || v == B7_V_DICE ||
		    (v == B7_V_RESUPPLY && pass_resupply))
			continue;
		never[i] = part++ >= most;
	}
	hand_warning(pv, o, never, most);
	for (i = 0; i < o->nsteps && battle_unit_alive(b, u) > 0; i++) {
		const struct order_step *st = &o->steps[i];

		if (never[i] || st->verb == V_NO_ADVANCE || st->verb == B7_V_DICE)
			continue;
		acts++;
		switch (st->verb) {
		case V_MOVE_TO:
		case V_ADVANCE:
			did += play_move(pv, o->line, u, st);
			break;
		case V_WHEEL:
			b7_turn_in_place(b, u, unit_facing(b, u) + st->angle);
			did++;
			break;
		case V_FACE:
			b7_turn_in_place(b, u, st->angle);
			did++;
			break;
		case V_FORM:
			b7_form_action(c, u, st->form);
			did++;
			break;
		case B7_V_DENSITY:
			if (st->angle >= P(c, "density.min") &&
			    st->angle <= un->rules[B7_DENSITY0])
				un->state[B7_DENSITY] = st->angle;
			did++;
			break;
		case V_FIRE_AT: {
			int shot;

			/* A shot already told of as refused is not told of
			 * twice: a further SHOOT at it fails the same way. */
			if (first < 0 && st->target == refused)
				break;
			shot = play_shoot(pv, o->line, u, st->target, &first);
			if (!shot)
				refused = st->target;
			did += shot;
			break;
		}
		case V_CHARGE:
			did += play_charge(pv, o->line, u, st->target);
			break;
		case V_RALLY:
			if (un->state[B7_DISRUPTION] > 0) {
				un->state[B7_DISRUPTION]--;
				did++;
			} else {
				warn(pv, o->line, "%s has no disruption points: RALLY would "
				    "waste an action.", un->name);
			}
			break;
		case B7_V_RESUPPLY: {
			int s, any = 0;

			FOR_STANDS(b, u, s)
				any |= un->kind == KIND_ARTILLERY && low(b, s);
			if (any)
				did++;
			else if (un->kind != KIND_ARTILLERY)
				warn(pv, o->line, "%s has no guns: RESUPPLY would waste an "
				    "action.", un->name);
			else
				warn(pv, o->line, "no gun of %s is low on ammunition: "
				    "RESUPPLY would do nothing%s.", un->name,
				    pass_resupply ? "" : " and waste an action");
			break;
		}
		default:
			did++;
			break;
		}
	}
	/* The trial player's regiment: nothing to gain, and a failed
	 * activation still costs a morale check. */
	if (acts > 0 && did == 0)
		warn(pv, o->line, "nothing %s is ordered to do could be done, but "
		    "it would still roll to activate, and a hand with no success "
		    "means a morale check, on which it surrenders if no die "
		    "succeeds. HOLD spares it the risk.", un->name);
}

/* The nearest commander of unit u's chain to its centre in b (*d the
 * distance), or -1. */
static int
nearest_chief(const struct battle *b, int u, fx *d)
{
	struct pt cen;
	int k, best = -1;

	*d = -1;
	if (!battle_unit_centre(b, u, &cen))
		return -1;
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *m = &b->commanders[k];
		fx g;

		if (m->gone || m->out_until != 0 || !battle_in_chain(b, k, u))
			continue;
		g = geom_dist(m->pos, cen);
		if (best < 0 || g < *d) {
			best = k;
			*d = g;
		}
	}
	return best;
}

/* Unit u after every line is played (pv->fin): out of reach of every
 * commander of its chain, when it was within one's reach or moves. */
static void
command_warning(struct pv *pv, const struct order *o)
{
	struct ctx *c = pv->c;
	struct battle *keep = c->b;
	const struct unit *un;
	struct pt was, now;
	char w1[24], w2[24];
	int u = o->who, ka, near, kb = pv->chief[o->who];
	fx d;

	if (pv->fin == NULL || battle_unit_alive(pv->fin, u) == 0 ||
	    !battle_unit_centre(pv->orig, u, &was) ||
	    !battle_unit_centre(pv->fin, u, &now))
		return;
	un = &pv->orig->units[u];
	/* command_quality reads the table of its context only. */
	c->b = pv->fin;
	b7_command_quality(c, u, &ka);
	c->b = keep;
	if (ka >= 0)
		return;
	if (kb < 0 && was.x == now.x && was.y == now.y)
		return;
	near = nearest_chief(pv->fin, u, &d);
	if (near < 0)
		warn(pv, o->line, "no commander of %s's chain is left: next phase "
		    "it would activate on its own quality, %d or less.", un->name,
		    un->rules[B7_QUALITY]);
	else if (kb >= 0)
		warn(pv, o->line, "after the moves ordered %s would be %s\" from "
		    "%s, the nearest commander of its chain (command reaches %s\"): "
		    "next phase it would activate on its own quality, %d or less, "
		    "not on %d as now with %s.", un->name, in(d, w1),
		    pv->fin->commanders[near].name, in(P(c, "command.radius"), w2),
		    un->rules[B7_QUALITY], pv->need[u], pv->orig->commanders[kb].name);
	else
		warn(pv, o->line, "after the moves ordered %s would be %s\" from "
		    "%s, the nearest commander of its chain (command reaches %s\"): "
		    "next phase it would still activate on its own quality, %d or "
		    "less.", un->name, in(d, w1), pv->fin->commanders[near].name,
		    in(P(c, "command.radius"), w2), un->rules[B7_QUALITY]);
}

/* A commander's line: he rides as commander_order rides him. */
static void
play_commander(struct pv *pv, const struct order *o)
{
	struct ctx *c = pv->c;
	struct commander *k = &c->b->commanders[o->who];
	char w1[24], w2[24], w3[24], w4[24];
	fx d = -1;
	int i;

	if (k->gone)
		return;
	for (i = 0; i < o->nsteps && d < 0; i++)
		if (o->steps[i].verb == V_MOVE_TO)
			d = geom_dist(k->pos, o->steps[i].pt);
	b7_commander_order(c, o);
	if (d > P(c, "move.commander"))
		warn(pv, o->line, "%s is ordered to ride %s\" but a commander rides "
		    "at most %s\" a phase: he would stop at %s,%s.", k->name,
		    in(d, w1), in(P(c, "move.commander"), w2), in(k->pos.x, w3),
		    in(k->pos.y, w4));
}

/* Plays set on a copy of b (pv->c->b); warnings as pv says. */
static int
run(struct pv *pv, const struct battle *b, const struct order_set *set)
{
	struct battle *nb = malloc(sizeof(*nb));
	int i, u;

	pv->c = calloc(1, sizeof(*pv->c));
	if (nb == NULL || pv->c == NULL) {
		free(nb);
		free(pv->c);
		pv->c = NULL;
		return -1;
	}
	memcpy(nb, b, sizeof(*nb));
	events_init(&pv->ev);
	pv->c->b = nb;
	pv->c->ev = &pv->ev;
	pv->c->side = set->side;
	for (u = 0; u < BATTLE_MAX_UNITS; u++)
		pv->c->shot[u] = -1;
	/* The phase starts: the side's units have neither moved nor shot;
	 * who commands each, as the table stands. */
	for (u = 0; u < nb->nunits; u++) {
		if (nb->units[u].side == set->side)
			nb->units[u].state[B7_MARKS] &= ~(UM_SHOT | UM_MOVED);
		pv->need[u] = nb->units[u].rules[B7_QUALITY] +
		    b7_command_quality(pv->c, u, &pv->chief[u]);
	}
	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];

		if (o->special != 0)
			continue;
		if (o->is_commander) {
			if (o->who >= 0 && o->who < nb->ncommanders)
				play_commander(pv, o);
			continue;
		}
		if (o->who < 0 || o->who >= nb->nunits ||
		    battle_unit_alive(nb, o->who) == 0)
			continue;
		play_unit(pv, o);
		command_warning(pv, o);
	}
	events_free(&pv->ev);
	return 0;
}

/* Contract (struct ruleset, preview_battle). */
struct battle *
bb7_preview_battle(const struct battle *b, const struct order_set *set)
{
	struct pv pv;
	struct battle *nb;

	memset(&pv, 0, sizeof(pv));
	if (run(&pv, b, set) != 0)
		return NULL;
	nb = pv.c->b;
	free(pv.c);
	return nb;
}

/* Contract (struct ruleset, preview).  Two runs: the first plays every
 * line so that each unit's command can be judged where all have ended,
 * the second says what each line would meet, in the order of the lines. */
int
bb7_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size)
{
	struct pv pv;

	(void)open;
	(void)step;
	out[0] = '\0';
	memset(&pv, 0, sizeof(pv));
	if ((pv.fin = bb7_preview_battle(b, set)) == NULL)
		return 0;
	pv.orig = b;
	pv.out = out;
	pv.size = size;
	if (run(&pv, b, set) == 0) {
		free(pv.c->b);
		free(pv.c);
	}
	free(pv.fin);
	return pv.warnings;
}
