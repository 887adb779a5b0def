/*
 * bpw.c - a bpw phase: vnb-wing's phase (vw_adjudicate) with bpw's
 * steps in place of vnb-wing's rally, morale step, melee result and
 * REFORM.  See docs/rules-bpw.md.
 *
 * vnb-wing's code moves the units and rolls the fire and melee dice that
 * make hits and take SP; what follows from them is bpw's: each unit that
 * fires or melees makes a quality attack on its target, an attack that
 * reaches 0 forces a morale check, and the check disorders, routs or
 * shatters.  The hooks are struct vw_rules (vnb_wing_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/bpw.h"
#include "rules/bpw_msgs.h"
#include "rules/vnb_wing_int.h"

/* What bpw counts through one phase (ctx.ext). */
struct bp {
	int took[BATTLE_MAX_UNITS];    /* hits taken in this combat step,
	                                  saved or not, not yet checked */
	int attack[BATTLE_MAX_UNITS];  /* the quality attacks' total on it */
	unsigned char forced[BATTLE_MAX_UNITS];  /* a check is forced */
	int cause[BATTLE_MAX_UNITS];   /* the unit that last attacked it */
	unsigned char idle[BATTLE_MAX_UNITS];  /* spent the phase rallying */
	unsigned char far[BATTLE_MAX_UNITS];   /* its charge began more than
	                                          half a move away */
	unsigned char unseen[BATTLE_MAX_UNITS]; /* ... out of its target's
	                                           sight */
	char why[3][96];
};

enum outcome { HOLDS = 0, DISORDERED, ROUTS, SHATTERS };

static inline struct bp *
X(struct ctx *c)
{
	return c->ext;
}

static int
Q(struct ctx *c, const char *name)
{
	return ruleset_param(&ruleset_bpw, c->b, name);
}

/* --- a unit's state ------------------------------------------------------ */

/* On the table: a stand not gone (nor yet to arrive). */
static int
unit_on(const struct battle *b, int u)
{
	return battle_unit_alive(b, u) > 0;
}

/* Every stand on the table routed. */
static int
unit_routed(const struct battle *b, int u)
{
	int s, any = 0;

	FOR_STANDS(b, u, s) {
		if (!alive(b, s) || (b->stands[s].flags & ST_AWAY))
			continue;
		if (!routed(b, s))
			return 0;
		any = 1;
	}
	return any;
}

/* A stand on the table disordered (a marker, routed, or vnb-wing's
 * mounted infantry on horseback, always disordered). */
static int
unit_disordered(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && !(b->stands[s].flags & ST_AWAY) &&
		    disordered(b, s))
			return 1;
	return 0;
}

/* A stand on the table with the yellow marker: disorder a rally check
 * can take away (vnb-wing's red marker alone is permanent). */
static int
unit_reformable(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && !(b->stands[s].flags & ST_AWAY) &&
		    (b->stands[s].flags & ST_DISORDERED))
			return 1;
	return 0;
}

static int
mounted(const struct battle *b, int u)
{
	return b->units[u].kind == KIND_MOUNTED &&
	    battle_unit_form(b, u) != FORM_DISMOUNTED;
}

/* +1 cover, +1 leadership, -1 bloodied: a check's situation, its words
 * into why ("" for none). */
static int
situation(struct ctx *c, int u, char *why, size_t size)
{
	struct battle *b = c->b;
	unsigned char in_cmd[BATTLE_MAX_STANDS];
	struct pt p;
	int m = 0, s, all = 1, any = 0, touch = -1;
	size_t k = 0;

	why[0] = '\0';
	if (battle_unit_centre(b, u, &p) && (in_woods(b, p) ||
	    area_at(b, p, T_TOWN) || area_at(b, p, T_VILLAGE) ||
	    in_works(b, p))) {
		m += Q(c, "check.cover");
		k += (size_t)snprintf(why + k, size - k, "%s+%d cover",
		    k ? ", " : "", Q(c, "check.cover"));
	}
	vnb_command_stands(b, b->units[u].side, in_cmd);
	FOR_STANDS(b, u, s) {
		if (!alive(b, s) || (b->stands[s].flags & ST_AWAY))
			continue;
		any = 1;
		if (!in_cmd[s])
			all = 0;
		if (touch < 0)
			touch = vw_superior_touching(c, u, s);
	}
	if (k < size && any && (touch >= 0 || all)) {
		m += Q(c, "check.leadership");
		k += (size_t)snprintf(why + k, size - k, "%s+%d %s",
		    k ? ", " : "", Q(c, "check.leadership"), touch >= 0 ?
		    b->commanders[touch].name : "in command");
	}
	if (k < size && bp_bloodied(b, u)) {
		m -= Q(c, "bloodied.penalty");
		snprintf(why + k, size - k, "%s-%d bloodied", k ? ", " : "",
		    Q(c, "bloodied.penalty"));
	}
	return m;
}

/* A check's die: one, or the better (elite) or worse (conscript) of
 * two. */
static int
check_die(struct ctx *c, int u, int need, char *how, size_t size,
    const char *msg, const char *types, const char *fmt)
{
	const char *name = c->b->units[u].name;
	int r1, r2, r;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
	r1 = vw_roll(c, u, msg, types, fmt, name, need);
	if (!bp_trait(c->b, u, BP_T_ELITE | BP_T_CONSCRIPT)) {
		snprintf(how, size, "%d rolled", r1);
		return r1;
	}
	r2 = vw_roll(c, u, msg, types, fmt, name, need);
#pragma GCC diagnostic pop
	if (bp_trait(c->b, u, BP_T_ELITE))
		r = r1 > r2 ? r1 : r2;
	else
		r = r1 < r2 ? r1 : r2;
	snprintf(how, size, "the %s of %d and %d, %s", bp_trait(c->b, u,
	    BP_T_ELITE) ? "better" : "worse", r1, r2, bp_trait(c->b, u,
	    BP_T_ELITE) ? "elite" : "conscript");
	return r;
}

/* Removes every stand of unit u: it shatters (its message said so). */
static void
shatter(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && !(b->stands[s].flags & ST_AWAY)) {
			b->stands[s].flags |= ST_GONE;
			b->stands[s].flags &= ~ST_STATIONARY;
		}
	battle_unit_moved(b, u);
	b->units[u].state[BP_STATE] |= BP_S_SHATTERED;
	vw_ev(c, EV_ELIMINATED, u, -1, 0, BP_M_SHATTERED, b->units[u].name);
}

/* Unit u routs: vnb-wing's rout move for each stand (bpw's table has no
 * SP lost in it), the unit as a block, straight away from `from`. */
static void
rout(struct ctx *c, int u, struct pt from)
{
	struct battle *b = c->b;
	struct pt uc;
	int s, dir;

	if (!battle_unit_centre(b, u, &uc))
		return;
	dir = geom_bearing(from, uc);
	FOR_STANDS(b, u, s)
		if (active(b, s) && !(b->stands[s].flags & ST_AWAY))
			vw_rout_stand_dir(c, s, dir, "morale check");
}

/* Where what attacked u stood: the rout runs from it. */
static struct pt
cause_at(struct ctx *c, int u)
{
	struct pt p = { 0, 0 }, q;
	int k = X(c)->cause[u];

	if (k >= 0 && battle_unit_centre(c->b, k, &p))
		return p;
	/* No attacker known: straight back from its front. */
	if (battle_unit_centre(c->b, u, &q))
		p = geom_offset(q, unit_facing(c->b, u), FX(1));
	return p;
}

/* Unit u's morale check (docs/rules-bpw.md, The morale check): the hits
 * and attacks counted against it are used up. */
static enum outcome
morale_check(struct ctx *c, int u)
{
	struct battle *b = c->b;
	struct bp *x = X(c);
	int need = b->units[u].rules[BP_GRADE], r, s, total, short_by;
	char *why = x->why[0], sit[64];
	size_t k;
	enum outcome o;
	const char *name = b->units[u].name;
	int dis = unit_disordered(b, u), was_routed = unit_routed(b, u);

	r = check_die(c, u, need, why, sizeof(x->why[0]), BP_R_MORALE);
	total = r - x->took[u] - x->attack[u] + situation(c, u, sit, sizeof(sit));
	k = strlen(why);
	if (x->took[u] > 0)
		k += (size_t)snprintf(why + k, sizeof(x->why[0]) - k, ", -%d %s",
		    x->took[u], x->took[u] == 1 ? "hit" : "hits");
	if (x->attack[u] > 0 && k < sizeof(x->why[0]))
		k += (size_t)snprintf(why + k, sizeof(x->why[0]) - k,
		    ", -%d quality", x->attack[u]);
	if (sit[0] != '\0' && k < sizeof(x->why[0]))
		snprintf(why + k, sizeof(x->why[0]) - k, ", %s", sit);
	x->took[u] = x->attack[u] = 0;
	x->forced[u] = 0;
	if (total >= need) {
		vw_ev(c, EV_MORALE_PASS, u, -1, total, BP_M_CHECK_HOLDS, name,
		    total, why, need);
		return HOLDS;
	}
	short_by = need - total;
	if (short_by <= Q(c, "check.disorder-by") && !dis) {
		vw_ev(c, EV_MORALE_FAIL, u, -1, total, BP_M_CHECK_DISORDERED,
		    name, total, why, need, short_by);
		FOR_STANDS(b, u, s)
			vw_disorder(c, s, "morale check");
		return DISORDERED;
	}
	/* A rout; or, disordered already and short by 3 or more, routed
	 * already, conscript, or bloodied, it shatters. */
	o = ROUTS;
	if ((dis && short_by > Q(c, "check.disorder-by")) || was_routed ||
	    bp_trait(b, u, BP_T_CONSCRIPT) || bp_bloodied(b, u))
		o = SHATTERS;
	{
		const char *also = was_routed ? ", routed already" :
		    dis ? ", disordered already" : "";

		if (o == ROUTS)
			vw_ev(c, EV_MORALE_FAIL, u, -1, total, BP_M_CHECK_ROUTS,
			    name, total, why, need, short_by, also);
		else
			vw_ev(c, EV_MORALE_FAIL, u, -1, total, BP_M_CHECK_SHATTERS,
			    name, total, why, need, short_by,
			    dis || was_routed ? also :
			    bp_trait(b, u, BP_T_CONSCRIPT) ? ", a conscript" :
			    ", bloodied");
	}
	if (o == SHATTERS)
		shatter(c, u);
	else
		rout(c, u, cause_at(c, u));
	return o;
}

/* Unit a's quality attack on unit t (docs/rules-bpw.md, The quality
 * attack). */
static void
quality_attack(struct ctx *c, int a, int t)
{
	struct battle *b = c->b;
	struct bp *x = X(c);
	int q = b->units[a].rules[BP_QUALITY], r, m = 0, v;
	char *why = x->why[1];
	size_t k = 0;
	int good = !unit_disordered(b, a);
	int two = mounted(b, a) && foot(&b->units[t]) && unit_disordered(b, t);
	const char *an = b->units[a].name, *tn = b->units[t].name;

	r = vw_roll(c, a, BP_R_QUALITY, an, tn, q);
	if (two) {
		int r2 = vw_roll(c, a, BP_R_QUALITY, an, tn, q);

		k += (size_t)snprintf(why + k, sizeof(x->why[1]) - k,
		    "the better of %d and %d against disordered foot", r, r2);
		if (r2 > r)
			r = r2;
	} else {
		k += (size_t)snprintf(why + k, sizeof(x->why[1]) - k, "%d rolled",
		    r);
	}
	if (bp_bloodied(b, a)) {
		m -= Q(c, "bloodied.penalty");
		k += (size_t)snprintf(why + k, sizeof(x->why[1]) - k,
		    ", -%d bloodied", Q(c, "bloodied.penalty"));
	}
	if (good && bp_trait(b, a, BP_T_HEAVY) && mounted(b, a) &&
	    foot(&b->units[t])) {
		m += Q(c, "heavy.bonus");
		k += (size_t)snprintf(why + k, sizeof(x->why[1]) - k,
		    ", +%d heavy cavalry", Q(c, "heavy.bonus"));
	}
	if (good && bp_trait(b, a, BP_T_LANCERS) && mounted(b, a) &&
	    b->units[t].kind == KIND_MOUNTED && !bp_trait(b, t, BP_T_LANCERS)) {
		m += Q(c, "lancers.bonus");
		snprintf(why + k, sizeof(x->why[1]) - k, ", +%d lancers",
		    Q(c, "lancers.bonus"));
	}
	v = r + m - q;
	x->cause[t] = a;
	if (v < 0) {
		vw_ev(c, EV_ATTACK, a, t, v, BP_M_QUALITY_FAILS, an, tn,
		    r + m, why, q);
		return;
	}
	if (x->forced[t]) {
		if (v == 0)
			v = Q(c, "quality.later-zero");
		x->attack[t] += v;
		vw_ev(c, EV_ATTACK, a, t, v, BP_M_QUALITY_ADDS, an, tn,
		    r + m, why, q, v);
		return;
	}
	x->forced[t] = 1;
	x->attack[t] += v;
	vw_ev(c, EV_ATTACK, a, t, v, BP_M_QUALITY_FORCES, an, tn, r + m,
	    why, q, v);
}

/* --- the hooks ------------------------------------------------------------ */

static void
bp_phase_begin(struct ctx *c)
{
	struct bp *x = X(c);
	int u;

	memset(x, 0, sizeof(*x));
	for (u = 0; u < BATTLE_MAX_UNITS; u++)
		x->cause[u] = -1;
}

/* A rally check of unit u: how much it had to spare (below 0 short). */
static int
rally_check(struct ctx *c, int u, char *why, size_t size)
{
	char sit[64], how[48];
	int need = c->b->units[u].rules[BP_GRADE], r;

	r = check_die(c, u, need, how, sizeof(how), BP_R_RALLY);
	r += situation(c, u, sit, sizeof(sit));
	snprintf(why, size, "%s%s%s", how, sit[0] != '\0' ? ", " : "", sit);
	return r - need;
}

/* A rallied unit's free turn, the unit as a block about its centre, to
 * face the nearest enemy unit it sees (vnb-wing's rallied stand's turn;
 * a unit of one stand turns as vnb-wing's does). */
static void
rally_face(struct ctx *c, int u)
{
	struct battle *b = c->b;
	struct pt uc, pv;
	fx best = -1;
	int v, to = -1;

	if (b->units[u].nstands == 1) {
		vw_rally_face(c, b->units[u].first_stand);
		return;
	}
	if (!battle_unit_centre(b, u, &uc))
		return;
	for (v = 0; v < b->nunits; v++)
		if (enemy(b, u, v) && battle_unit_centre(b, v, &pv) &&
		    vw_can_see(b, uc, pv) && (best < 0 ||
		    geom_dist(uc, pv) < best)) {
			best = geom_dist(uc, pv);
			to = geom_bearing(uc, pv);
		}
	if (to < 0 || to == unit_facing(b, u))
		return;
	/* Every stand about the centre, kept only if it has the room. */
	{
		int delta = geom_turn(unit_facing(b, u), to), s;

		unit_save(b, u, c->saved);
		FOR_STANDS(b, u, s) {
			if (!active(b, s))
				continue;
			b->stands[s].pos = geom_rotate(b->stands[s].pos, uc, delta);
			b->stands[s].facing = geom_norm(to);
		}
		battle_unit_moved(b, u);
		if (!vw_unit_has_room(b, u)) {
			unit_restore(b, u, c->saved);
			return;
		}
	}
	vw_ev(c, EV_FACING, u, -1, to, BP_M_RALLY_TURNS, b->units[u].name, to);
}

/* What a rally that spared `by` does to unit u; 1 if it acts as
 * ordered. */
static int
rallied(struct ctx *c, int u, int by, int total, const char *why)
{
	struct battle *b = c->b;
	int was_routed = unit_routed(b, u), s;
	int elan = by >= Q(c, "rally.elan-by");
	const char *now = was_routed ? "it is disordered" : "it is in good order";

	if (by < Q(c, "rally.by")) {
		vw_ev(c, EV_MORALE_FAIL, u, -1, total, BP_M_RALLY_FAILS,
		    b->units[u].name, total, why, b->units[u].rules[BP_GRADE]);
		return 0;
	}
	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		if (was_routed)
			b->stands[s].flags = (b->stands[s].flags & ~ST_ROUTED) |
			    ST_DISORDERED;
		else if (!routed(b, s))
			b->stands[s].flags &= ~ST_DISORDERED;
	}
	if (elan)
		vw_ev(c, EV_RALLY, u, -1, total, BP_M_RALLIES_ELAN,
		    b->units[u].name, total, why, b->units[u].rules[BP_GRADE], by,
		    now);
	else
		vw_ev(c, EV_RALLY, u, -1, total, BP_M_RALLIES, b->units[u].name,
		    total, why, b->units[u].rules[BP_GRADE], by, now);
	if (was_routed && !bp_bloodied(b, u)) {
		b->units[u].state[BP_STATE] |= BP_S_BLOODIED;
		vw_ev(c, EV_RALLY, u, -1, 0, BP_M_BLOODIED, b->units[u].name);
	}
	/* A routed unit rallied without elan faces the enemy, no more; a
	 * disordered one's REFORM drops the rest of its orders. */
	if (!elan && was_routed)
		rally_face(c, u);
	return elan;
}

/* REFORM: the rally check of a disordered unit (docs/rules-bpw.md,
 * Rally); 1 if the rest of its orders are dropped. */
static int
bp_reform(struct ctx *c, int u)
{
	struct battle *b = c->b;
	char why[128];
	int by;

	if (!unit_reformable(b, u)) {
		if (unit_disordered(b, u))
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, BP_M_PERMANENT_DISORDER,
			    b->units[u].name);
		else
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, BP_M_NOTHING_TO_REFORM,
			    b->units[u].name);
		return 0;
	}
	by = rally_check(c, u, why, sizeof(why));
	if (rallied(c, u, by, by + b->units[u].rules[BP_GRADE], why))
		return 0;
	X(c)->idle[u] = 1;
	vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, BP_M_ORDERS_DROPPED,
	    b->units[u].name);
	return 1;
}

/* The rally step: each routed unit of the phasing side checks. */
static void
bp_rally(struct ctx *c)
{
	struct battle *b = c->b;
	char why[128];
	int u, by;

	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != c->side || !unit_on(b, u) ||
		    !unit_routed(b, u))
			continue;
		by = rally_check(c, u, why, sizeof(why));
		if (!rallied(c, u, by, by + b->units[u].rules[BP_GRADE], why))
			X(c)->idle[u] = 1;
	}
}

static void
bp_no_morale_step(struct ctx *c)
{
	(void)c;   /* bpw's checks come from quality attacks in combat */
}

static void
bp_charge_begins(struct ctx *c, int u, int t)
{
	struct battle *b = c->b;
	struct pt pu, pt;

	X(c)->far[u] = battle_unit_gap(b, u, t) > unit_rate(b, u) / 2;
	X(c)->unseen[u] = battle_unit_centre(b, u, &pu) &&
	    battle_unit_centre(b, t, &pt) && !vw_can_see(b, pu, pt);
}

static void
bp_fired(struct ctx *c, int u, int t, int dice, int hits)
{
	X(c)->took[t] += hits;
	if (dice > 0 && unit_on(c->b, t))
		quality_attack(c, u, t);
}

/* Why the defender t strikes first at the charger a, or NULL. */
static const char *
defender_first(struct ctx *c, int a, int t, int charged)
{
	if (!(c->b->units[t].state[BP_STATE] & BP_S_MOVED))
		return "it did not move in its last phase";
	if (charged && X(c)->far[a])
		return "the charge began more than half a move away";
	if (charged && X(c)->unseen[a])
		return "the charger could not see it when the charge began";
	return NULL;
}

/* One side of a melee: u's stands in contact strike t's; u's quality
 * attack; t's check at once if forced.  0 if u could not strike. */
static int
strike(struct ctx *c, int u, int t, int offensive)
{
	int *from = c->att, *to = c->def, nf, nt, dice = 0, hits = 0;

	if (!unit_on(c->b, u) || unit_routed(c->b, u) ||
	    !vw_melee_stands(c, u, t, from, &nf, to, &nt))
		return 0;
	vw_melee_strike(c, from, nf, to, nt, offensive, &dice, &hits);
	vw_ev(c, EV_ATTACK, u, t, hits, BP_M_STRIKES, c->b->units[u].name,
	    c->b->units[t].name, dice, dice == 1 ? "die" : "dice", hits,
	    hits == 1 ? "hit" : "hits");
	X(c)->took[t] += hits;
	if (dice > 0 && unit_on(c->b, t))
		quality_attack(c, u, t);
	return 1;
}

/* Unit u gives way to w: half a move straight back, facing it. */
static void
gives_way(struct ctx *c, int u, int w)
{
	struct battle *b = c->b;
	struct pt from, uc;
	fx len = unit_rate(b, u) / 2;
	int s, dir;

	if (!battle_unit_centre(b, w, &from) || !battle_unit_centre(b, u, &uc))
		return;
	/* The unit as a block, straight away from its enemy. */
	dir = geom_bearing(from, uc);
	FOR_STANDS(b, u, s)
		if (active(b, s) && !(b->stands[s].flags & ST_AWAY))
			vw_push_stand(c, s, dir, len, 0, 0);
	vw_ev(c, EV_RETREAT, u, w, 0, BP_M_GIVES_WAY, b->units[u].name,
	    b->units[w].name, fmt_in(c, 0, len));
}

static int
failed(enum outcome o)
{
	return o != HOLDS;
}

/* The melee of the phasing side's unit a with unit t (docs/rules-bpw.md,
 * Who shoots first). */
static void
melee(struct ctx *c, int a, int t, int charged)
{
	struct battle *b = c->b;
	struct bp *x = X(c);
	const char *why = unit_routed(c->b, t) ? NULL :
	    defender_first(c, a, t, charged);
	int first = why != NULL ? t : a, second = first == a ? t : a;
	enum outcome of[2] = { HOLDS, HOLDS };   /* of a, of t */
	struct pt tc, ac;
	int na, nd;

	if (!vw_melee_stands(c, a, t, c->att, &na, c->def, &nd)) {
		vw_ev(c, EV_ORDER_REFUSED, a, t, 0, VW_M_NO_LONGER_IN_CONTACT,
		    b->units[a].name, b->units[t].name);
		return;
	}
	/* Where each stood: the winner advances into the ground left. */
	battle_unit_centre(b, t, &tc);
	battle_unit_centre(b, a, &ac);
	vw_ev(c, EV_ATTACK, first, second, 0, BP_M_SHOOTS_FIRST,
	    b->units[first].name, b->units[second].name,
	    why != NULL ? why : charged ? "the charger: nothing gives the "
	    "defender the first blow" : "the attacker: nothing gives the "
	    "defender the first blow");
	strike(c, first, second, first == a);
	if (x->forced[second] && unit_on(b, second))
		of[second == t] = morale_check(c, second);
	if (!strike(c, second, first, second == a)) {
		if (unit_on(b, second) && !unit_routed(b, second))
			vw_ev(c, EV_ORDER_REFUSED, second, first, 0,
			    BP_M_CANNOT_STRIKE_BACK, b->units[second].name,
			    b->units[first].name);
	} else if (x->forced[first] && unit_on(b, first)) {
		of[first == t] = morale_check(c, first);
	}
	/* A unit whose last SP went in the melee has lost it. */
	if (!unit_on(b, a))
		of[0] = SHATTERS;
	if (!unit_on(b, t))
		of[1] = SHATTERS;
	if (!failed(of[0]) && !failed(of[1])) {
		vw_ev(c, EV_ATTACK, a, t, 0, BP_M_LOCKED, b->units[a].name,
		    b->units[t].name);
		return;
	}
	if (of[1] == DISORDERED)
		gives_way(c, t, a);
	if (of[0] == DISORDERED)
		gives_way(c, a, t);
	if (failed(of[0]) && failed(of[1]))
		return;
	if (failed(of[1])) {
		vw_ev(c, EV_MELEE_WON, a, t, 0, BP_M_DRIVES_OFF, b->units[a].name,
		    b->units[t].name);
		vw_ev(c, EV_MELEE_LOST, t, a, 0, BP_M_LOSES_MELEE,
		    b->units[t].name, b->units[a].name);
		vw_winner_advances(c, a, t, tc, c->stay[a]);
	} else {
		vw_ev(c, EV_MELEE_WON, t, a, 0, BP_M_DRIVES_OFF, b->units[t].name,
		    b->units[a].name);
		vw_ev(c, EV_MELEE_LOST, a, t, 0, BP_M_LOSES_MELEE,
		    b->units[a].name, b->units[t].name);
		/* Defending cavalry that wins has the charger's choice. */
		if (mounted(b, t))
			vw_winner_advances(c, t, a, ac, 0);
	}
}

/* The enemy unit a stand of u touches, the first in scenario order; -1
 * if none. */
static int
enemy_touching(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int v, s, k;

	for (v = 0; v < b->nunits; v++) {
		if (!enemy(b, u, v) || !unit_on(b, v))
			continue;
		FOR_STANDS(b, u, s) {
			if (!active(b, s))
				continue;
			FOR_STANDS(b, v, k)
				if (alive(b, k) && in_contact(c, s, k))
					return v;
		}
	}
	return -1;
}

static void
bp_combat(struct ctx *c)
{
	struct battle *b = c->b;
	struct bp *x = X(c);
	int i, u, t;

	for (i = 0; i < b->nbrigades; i++)
		b->brigades[i].hits = 0;
	for (i = 0; i < c->nrank; i++) {
		u = c->rank[i];
		if (c->charge_target[u] >= 0) {
			melee(c, u, c->charge_target[u], 1);
			continue;
		}
		if (b->units[u].side != c->side || !unit_on(b, u) ||
		    unit_routed(b, u))
			continue;
		if (x->idle[u]) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, BP_M_HOLDS_FIRE_RALLY,
			    b->units[u].name);
			continue;
		}
		/* A melee neither side gave way in goes on. */
		if ((t = enemy_touching(c, u)) >= 0 && !unit_routed(b, t)) {
			melee(c, u, t, 0);
			continue;
		}
		vw_unit_fires(c, u);
	}
	for (u = 0; u < b->nunits; u++)
		if (x->forced[u] && unit_on(b, u))
			morale_check(c, u);
	vw_check_exhaustion(c);
}

/* Who moved this phase: the next phase's who-shoots-first asks. */
static void
bp_phase_end(struct ctx *c)
{
	struct battle *b = c->b;
	int u;

	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != c->side)
			continue;
		if (c->walked[u] || c->moved[u])
			b->units[u].state[BP_STATE] |= BP_S_MOVED;
		else
			b->units[u].state[BP_STATE] &= ~BP_S_MOVED;
	}
}

/*
 * bpw's numbers, then vnb-wing's; no Fog of War cards; a rout or a fall
 * back disorders the friends it passes, no more (a unit's own check is
 * what routs it).  The phase's counts start afresh; REFORM is a
 * disordered unit's rally check; where a charge began decides who
 * strikes first; the rally step checks routed units, and no morale step
 * comes before combat, where fire, melees struck in turn, quality
 * attacks and checks are bpw's; who moved is kept for the next phase.
 */
static const struct vw_rules bp_rules = {
	.rs = &ruleset_bpw, .cards = 0, .pass_disorders_only = 1,
	.phase_begin = bp_phase_begin, .reform = bp_reform,
	.charge_begins = bp_charge_begins,
	.rally = bp_rally, .morale = bp_no_morale_step,
	.combat = bp_combat, .fired = bp_fired,
	.phase_end = bp_phase_end,
};

int
bp_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e)
{
	struct bp *x = malloc(sizeof(*x));
	int rc;

	if (x == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	rc = vw_adjudicate(&bp_rules, x, b, step, orders, nsets, d, ev, e);
	free(x);
	return rc;
}
