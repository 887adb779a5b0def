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
#include "rules/vnb_wing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Movement costs are counted in sixths of a hundredth of an inch so that
 * road march (a third or a half of the cost) stays whole. */
#define COST(fxlen) ((long)(fxlen) * 6)

enum move_mode { MOVE_NORMAL, MOVE_CHARGE, MOVE_ADVANCE_INTO };

/* Room for every hit one fire or melee can make: every stand on the
 * table rolling the most dice a scenario may set (12), for both sides.
 * Smaller, a legal scenario could pass it and fail its step for ever
 * (the dice are fixed, so every retry fails the same way). */
#define MAX_HITS (BATTLE_MAX_STANDS * 12 * 2)

struct hit {
	int target;   /* stand hit */
	int source;   /* stand that scored it */
	int melee;
	int long_range;
	enum weapon weapon;
	int saved;
};


struct hits {
	struct hit v[MAX_HITS];
	int n;
};


struct ctx {
	struct battle *b;
	const struct ruleset *rs;
	struct dice *d;
	struct events *ev;
	int step, turn, side;
	unsigned char in_cmd[BATTLE_MAX_STANDS];
	int fchanges[BATTLE_MAX_UNITS];     /* facing changes this phase */
	int free_turn[BATTLE_MAX_UNITS];    /* a free change from leaving road march */
	int hurry[BATTLE_MAX_UNITS];        /* crosses bridges in disorder (HURRY) */
	int charge_wet[BATTLE_MAX_UNITS];   /* its charge crossed a stream */
	int stay[BATTLE_MAX_UNITS];         /* NO ADVANCE: keeps its ground */
	unsigned char was_routed[BATTLE_MAX_STANDS]; /* routed before a test */
	int bt[BATTLE_MAX_UNITS][ORDER_MAX_STEPS];   /* breakthrough charges */
	struct pt charge_from[BATTLE_MAX_UNITS];     /* where a charge began */
	unsigned char closed0[BATTLE_MAX_STANDS];    /* in closed ground before */
	unsigned char closed1[BATTLE_MAX_STANDS];    /* ... and after a step */
	int nbt[BATTLE_MAX_UNITS];
	int moved[BATTLE_MAX_UNITS];        /* moved or turned at a cost */
	int walked[BATTLE_MAX_UNITS];       /* its position changed */
	int fence_tested[BATTLE_MAX_UNITS]; /* mounted charger's fence test */
	int hold[BATTLE_MAX_UNITS];
	int fire_target[BATTLE_MAX_UNITS];
	int charge_target[BATTLE_MAX_UNITS];
	int contours[BATTLE_MAX_UNITS];     /* contours crossed this phase */
	int rank[BATTLE_MAX_UNITS];         /* unit order for this phase */
	int nrank;
	struct hits hits;      /* scratch for one fire or melee */
	unsigned char mark[BATTLE_MAX_STANDS];
	unsigned char firers[BATTLE_MAX_STANDS];   /* stands firing at one unit */
	int att[BATTLE_MAX_STANDS], def[BATTLE_MAX_STANDS];
	int overflow;          /* a scratch table was too small: fail the step */
	int collapsing;        /* brigade whose collapse is being applied, or -1 */
	int rides[BATTLE_MAX_COMMANDERS];   /* unit a commander moves with, or -1 */
	struct stand saved[2 * BATTLE_MAX_STANDS]; /* a unit's stands, to undo */
	char buf[4][32];
};

static int
P(struct ctx *c, const char *name)
{
	return ruleset_param(c->rs, c->b, name);
}

static const char *
fmt_in(struct ctx *c, int slot, fx v)
{
	return geom_fmt_fx(v, c->buf[slot & 3], (int)sizeof(c->buf[0]));
}

/* --- stand predicates ------------------------------------------------ */

static int
alive(const struct battle *b, int s)
{
	return !(b->stands[s].flags & ST_GONE);
}

static int
disordered(const struct battle *b, int s)
{
	const struct unit *u = &b->units[b->stands[s].unit];

	/* Mounted infantry always count as disordered while mounted. */
	return (b->stands[s].flags & (ST_DISORDERED | ST_PERMANENT)) != 0 ||
	    ((u->abil & ABIL_MI) && u->kind == KIND_MOUNTED);
}

static int
routed(const struct battle *b, int s)
{
	return (b->stands[s].flags & ST_ROUTED) == ST_ROUTED;
}

static int
active(const struct battle *b, int s)
{
	return alive(b, s) && !routed(b, s);
}

#define FOR_STANDS(b, u, s) \
	for ((s) = (b)->units[u].first_stand; \
	    (s) < (b)->units[u].first_stand + (b)->units[u].nstands; (s)++)

static int
unit_active_centre(const struct battle *b, int u, struct pt *out)
{
	return battle_unit_centre_of(b, u, 0, out);
}

static int
unit_facing(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (active(b, s))
			return b->stands[s].facing;
	return b->stands[b->units[u].first_stand].facing;
}

static int
unit_form(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s))
			return b->stands[s].form;
	return FORM_LINE;
}

static fx
stand_gap(const struct battle *b, int s1, int s2)
{
	struct pt r1[4], r2[4];

	battle_stand_rect(b, s1, r1);
	battle_stand_rect(b, s2, r2);
	return geom_rect_dist(r1, r2);
}

static int
in_contact(struct ctx *c, int s1, int s2)
{
	return stand_gap(c->b, s1, s2) <= P(c, "contact");
}

static int
area_at(const struct battle *b, struct pt p, enum terrain_kind k)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind == k && geom_in_poly(p, &b->points[t->first_pt], t->npts))
			return 1;
	}
	return 0;
}

static int
in_woods(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_WOOD) || area_at(b, p, T_FOREST) ||
	    area_at(b, p, T_THICKET);
}

/* 1 if p is on a line of kind k (within road.half-width of it). */
static int
on_line(const struct battle *b, struct pt p, enum terrain_kind k)
{
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind != k)
			continue;
		for (j = 0; j + 1 < t->npts; j++)
			if (geom_seg_dist(p, b->points[t->first_pt + j],
			    b->points[t->first_pt + j + 1]) <=
			    ruleset_param(&ruleset_vnb_wing, b, "road.half-width"))
				return 1;
	}
	return 0;
}

static int
on_road(const struct battle *b, struct pt p)
{
	return on_line(b, p, T_ROAD);
}

/* Works, or a sunken road, which the text treats as works. */
static int
in_works(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_WORKS) || on_line(b, p, T_SUNKEN_ROAD);
}

/* The town or village block p is in, or -1. */
static int
block_at(const struct battle *b, struct pt p)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if ((t->kind == T_TOWN || t->kind == T_VILLAGE) &&
		    geom_in_poly(p, &b->points[t->first_pt], t->npts))
			return i;
	}
	return -1;
}

static int
foot(const struct unit *u)
{
	return u->kind == KIND_INFANTRY || u->kind == KIND_DETACHMENT;
}

/* --- line of sight ---------------------------------------------------- *
 *
 * Heights are in half contours: a stand stands at twice its ground's
 * level; woods, forest, thicket, towns and villages stand one contour
 * (los.cover-height) above their ground; a hill is an obstacle at its
 * crest, the middle of the hill along the line of sight, at its level.
 * An obstacle no higher than both ends does not block, nor one that the
 * higher end overtops by a contour and is nearer to it than to the lower,
 * nor one it overtops by two contours that is 8" or more from the lower
 * (los.far).  Standing crops and tree lines block unless an end stands
 * higher than their ground.  Two stands in the same forest or thicket see
 * each other within 4" (los.forest), in the same wood within 12"
 * (los.wood); from outside, only a stand on the edge of cover is seen.
 * Ground within los.end of either end is the ends' own.  See
 * docs/rules-vnb-wing.md, Line of sight. */

static int
is_cover(enum terrain_kind k)
{
	return k == T_WOOD || k == T_FOREST || k == T_THICKET || k == T_TOWN ||
	    k == T_VILLAGE;
}

/* 1 if an obstacle of height h (half contours) at point o blocks the
 * sight between a (height ha) and z (height hz). */
static int
obstacle_blocks(const struct battle *b, int h, struct pt o, struct pt a, int ha,
    struct pt z, int hz)
{
	int hh = ha > hz ? ha : hz, hl = ha > hz ? hz : ha;
	struct pt ph = ha > hz ? a : z, pl = ha > hz ? z : a;
	if (h <= hl)
		return 0;
	if (hh >= h + 2 && geom_dist(o, ph) < geom_dist(o, pl))
		return 0;
	if (hh >= h + 4 && geom_dist(o, pl) >=
	    ruleset_param(&ruleset_vnb_wing, b, "los.far"))
		return 0;
	return 1;
}

/* The crests of the hills the line a-z crosses between its ends: for
 * each hill, the middle of each stretch of the whole line (not only the
 * segment) that lies inside it; 1 if one of them blocks. */
static int
crest_blocks(const struct battle *b, struct pt a, int ha, struct pt z, int hz,
    fx len, fx end)
{
	int i, j, k;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		const struct pt *pg = &b->points[t->first_pt];
		fx cut[64];
		int n = 0;

		if (t->kind != T_HILL || t->npts < 3)
			continue;
		/* Where the line's edge crossings fall, as distances from a
		 * (negative behind it). */
		for (j = 0; j < t->npts && n < 64; j++) {
			struct pt p = pg[j], q = pg[(j + 1) % t->npts];
			int64_t rx = z.x - a.x, ry = z.y - a.y;
			int64_t sx = q.x - p.x, sy = q.y - p.y;
			int64_t den = rx * sy - ry * sx;
			int64_t tn = (int64_t)(p.x - a.x) * sy - (int64_t)(p.y - a.y) * sx;
			int64_t un = (int64_t)(p.x - a.x) * ry - (int64_t)(p.y - a.y) * rx;

			if (den == 0)
				continue;
			if (den < 0) {
				den = -den;
				tn = -tn;
				un = -un;
			}
			/* The edge [p,q) crosses the line. */
			if (un < 0 || un >= den)
				continue;
			cut[n++] = (fx)geom_div_round((int64_t)len * tn, den);
		}
		/* Sorted, the crossings pair up into stretches inside. */
		for (j = 1; j < n; j++)
			for (k = j; k > 0 && cut[k - 1] > cut[k]; k--) {
				fx x = cut[k];

				cut[k] = cut[k - 1];
				cut[k - 1] = x;
			}
		for (j = 0; j + 1 < n; j += 2) {
			fx mid = (cut[j] + cut[j + 1]) / 2;
			struct pt o;

			if (mid <= end || mid >= len - end)
				continue;
			o.x = a.x + (fx)geom_div_round((int64_t)(z.x - a.x) * mid, len);
			o.y = a.y + (fx)geom_div_round((int64_t)(z.y - a.y) * mid, len);
			if (obstacle_blocks(b, 2 * t->level, o, a, ha, z, hz))
				return 1;
		}
	}
	return 0;
}

static int
can_see(const struct battle *b, struct pt a, struct pt z)
{
	fx len = geom_dist(a, z);
	int la = battle_level_at(b, a), lz = battle_level_at(b, z);
	int ha = 2 * la, hz = 2 * lz, top = la > lz ? la : lz;
	fx t, end = ruleset_param(&ruleset_vnb_wing, b, "los.end");
	fx step = ruleset_param(&ruleset_vnb_wing, b, "los.step");
	int cover = 2 * ruleset_param(&ruleset_vnb_wing, b, "los.cover-height");
	int i;

	if (crest_blocks(b, a, ha, z, hz, len, end))
		return 0;
	/* Tree lines crossed away from both ends. */
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *tr = &b->terrain[i];
		int j;

		if (tr->kind != T_TREELINE)
			continue;
		for (j = 0; j + 1 < tr->npts; j++) {
			struct pt p = b->points[tr->first_pt + j];
			struct pt q = b->points[tr->first_pt + j + 1];

			if (geom_seg_cross(a, z, p, q) && geom_seg_dist(a, p, q) > end &&
			    geom_seg_dist(z, p, q) > end &&
			    top <= battle_level_at(b, p))
				return 0;
		}
	}
	for (t = end; t < len - end; t += step) {
		struct pt p;
		int g;

		p.x = a.x + (fx)geom_div_round((int64_t)(z.x - a.x) * t, len);
		p.y = a.y + (fx)geom_div_round((int64_t)(z.y - a.y) * t, len);
		g = battle_level_at(b, p);
		for (i = 0; i < b->nterrain; i++) {
			const struct terrain *tr = &b->terrain[i];
			const struct pt *pg = &b->points[tr->first_pt];

			if (tr->kind == T_CROPS) {
				if (!tr->trodden && top <= g &&
				    geom_in_poly(p, pg, tr->npts))
					return 0;
				continue;
			}
			if (!is_cover(tr->kind) || !geom_in_poly(p, pg, tr->npts))
				continue;
			/* A building's garrison sees out of it and is seen. */
			if ((tr->kind == T_TOWN || tr->kind == T_VILLAGE) &&
			    (geom_in_poly(a, pg, tr->npts) ||
			    geom_in_poly(z, pg, tr->npts)))
				continue;
			/* Both in the same forest, thicket or wood: they see
			 * each other near enough, and no further. */
			if ((tr->kind == T_WOOD || tr->kind == T_FOREST ||
			    tr->kind == T_THICKET) && geom_in_poly(a, pg, tr->npts) &&
			    geom_in_poly(z, pg, tr->npts)) {
				if (len > ruleset_param(&ruleset_vnb_wing, b,
				    tr->kind == T_WOOD ? "los.wood" : "los.forest"))
					return 0;
				continue;
			}
			if (obstacle_blocks(b, 2 * g + cover, p, a, ha, z, hz))
				return 0;
		}
	}
	return 1;
}

/* What side sees: its own stands, and each enemy stand some stand or
 * commander of its has a line of sight to (the same sight the rules use
 * for fire and for moving out of command). */
void
vnb_sees(const struct battle *b, int side, unsigned char *seen)
{
	int s, k, c;

	for (s = 0; s < b->nstands; s++) {
		const struct stand *t = &b->stands[s];

		seen[s] = b->units[t->unit].side == side;
		if (seen[s] || (t->flags & ST_GONE))
			continue;
		for (k = 0; k < b->nstands && !seen[s]; k++)
			if (b->units[b->stands[k].unit].side == side &&
			    !(b->stands[k].flags & ST_GONE) &&
			    can_see(b, b->stands[k].pos, t->pos))
				seen[s] = 1;
		for (c = 0; c < b->ncommanders && !seen[s]; c++)
			if (b->commanders[c].side == side && !b->commanders[c].gone &&
			    can_see(b, b->commanders[c].pos, t->pos))
				seen[s] = 1;
	}
}

/* --- events and markers ---------------------------------------------- */

static void
ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void
ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *fmt, ...)
{
	char text[EVENT_TEXT_MAX];
	va_list ap;
	int side = unit >= 0 ? c->b->units[unit].side : -1;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	utf8_trim_tail(text);
	va_end(ap);
	events_add(c->ev, k, side, unit, target, value, "%s", text);
	/* The pattern and its values, for the narrative templates. */
	if (c->ev->n > 0 && !c->ev->overflow) {
		va_start(ap, fmt);
		events_capture(&c->ev->v[c->ev->n - 1], fmt, ap);
		va_end(ap);
	}
}

static int
roll(struct ctx *c, int unit, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
roll(struct ctx *c, int unit, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	utf8_trim_tail(why);
	va_end(ap);
	c->d->side = unit >= 0 ? c->b->units[unit].side : -1;
	return dice_roll(c->d, 6, unit, "%s", why);
}

static void
remove_stand(struct ctx *c, int s, const char *why)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit;

	if (!alive(b, s))
		return;
	b->stands[s].flags |= ST_GONE;
	b->stands[s].flags &= ~ST_STATIONARY;
	ev(c, EV_ELIMINATED, u, -1, s - b->units[u].first_stand + 1,
	    "%s: stand %d %s and is removed from play.", b->units[u].name,
	    s - b->units[u].first_stand + 1, why);
}

static void
lose_sp(struct ctx *c, int s, int n, const char *why)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	int u = st->unit;

	if (!alive(b, s) || n <= 0)
		return;
	if (n > st->sp)
		n = st->sp;
	st->sp -= n;
	ev(c, EV_LOSS, u, -1, n, "%s: stand %d loses %d SP (%s), %d left.",
	    b->units[u].name, s - b->units[u].first_stand + 1, n, why, st->sp);
	if (st->sp == 0)
		remove_stand(c, s, "is destroyed");
}

static void
disorder(struct ctx *c, int s, const char *why)
{
	struct battle *b = c->b;
	int u = b->stands[s].unit;

	/* A stand with either marker is disordered already; a red marker
	 * alone (militia, a rallied stand) must not turn into a rout. */
	if (!alive(b, s) || disordered(b, s))
		return;
	b->stands[s].flags |= ST_DISORDERED;
	b->stands[s].flags &= ~ST_STATIONARY;
	ev(c, EV_DISORDER, u, -1, 0, "%s: stand %d is disordered (%s).",
	    b->units[u].name, s - b->units[u].first_stand + 1, why);
}

static void rout_stand_d(struct ctx *c, int s, struct pt from, const char *why,
    int depth);

static fx
unit_speed_half(const struct battle *b, int s)
{
	return b->units[b->stands[s].unit].speed / 2;
}

static void push_stand(struct ctx *c, int s, int dir, fx len, int is_rout,
    int depth);

/* 1 if stand s overlaps another stand on the table (touching is not
 * overlapping: the test shrinks both by 0.05"). */
/* 1 if stands s and k (k still on the table) overlap: more than touch,
 * with a 0.05" margin each side, as the loader judges. */
static int
stands_overlap(const struct battle *b, int s, int k)
{
	struct pt r1[4], r2[4];

	if ((b->stands[k].flags & ST_GONE) ||
	    abs(b->stands[k].pos.x - b->stands[s].pos.x) > 1200 ||
	    abs(b->stands[k].pos.y - b->stands[s].pos.y) > 1200)
		return 0;
	battle_stand_rect_inset(b, s, 5, r1);
	battle_stand_rect_inset(b, k, 5, r2);
	return geom_rect_dist(r1, r2) == 0;
}

static int
overlaps_any(const struct battle *b, int s)
{
	int k;

	for (k = 0; k < b->nstands; k++)
		if (k != s && stands_overlap(b, s, k))
			return 1;
	return 0;
}

/* Friendly stands of other units that stand s passes through in the first
 * `early` of a move along `dir`: each one in good order is disordered; one
 * already disordered goes ahead of it, routing (when s routs) or falling
 * back (when s retreats).  The text: MORALE (rout) and MELEE RESULTS. */
static void
pass_through(struct ctx *c, int s, int dir, fx early, int is_rout, int depth)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	fx w, d, step = P(c, "terrain.step"), t;
	int v, k;

	if (depth > 3)
		return;
	battle_stand_size(b, s, &w, &d);
	for (v = 0; v < b->nunits; v++) {
		if (v == st->unit || b->units[v].side != b->units[st->unit].side)
			continue;
		/* A collapsing brigade's stands took their effect all at
		 * once: its routers do not change it for one another. */
		if (c->collapsing >= 0 && b->units[v].brigade == c->collapsing)
			continue;
		FOR_STANDS(b, v, k) {
			struct pt rk[4], rs[4];
			int hit = 0;

			if (!alive(b, k))
				continue;
			battle_stand_rect(b, k, rk);
			for (t = step; t <= early && !hit; t += step) {
				geom_rect(geom_offset(st->pos, dir, t), dir, w, d, rs);
				if (geom_rect_dist(rs, rk) == 0)
					hit = 1;
			}
			if (!hit)
				continue;
			if (!disordered(b, k)) {
				disorder(c, k, is_rout ? "a routing stand passed through it" :
				    "a retreating stand passed through it");
			} else if (is_rout) {
				rout_stand_d(c, k, st->pos, "routed ahead of a routing "
				    "stand", depth + 1);
			} else {
				push_stand(c, k, dir, unit_speed_half(b, k), 0,
				    depth + 1);
				ev(c, EV_RETREAT, v, -1, 0, "%s: stand %d falls back "
				    "ahead of a retreating stand.", b->units[v].name,
				    k - b->units[v].first_stand + 1);
			}
		}
	}
}

/* Moves one stand straight along bearing `dir` by `len`, ignoring terrain
 * (routs and retreats), disordering friends it passes through early in
 * the move.  A stand pushed off the table is removed when routing, and
 * stops at the edge otherwise. */
static void
push_stand(struct ctx *c, int s, int dir, fx len, int is_rout, int depth)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	struct pt np;

	pass_through(c, s, dir, is_rout ? len / 2 : (len < FX(4) ? len : FX(4)),
	    is_rout, depth);
	np = geom_offset(st->pos, dir, len);
	/* A routing stand turns its back; one falling back keeps its face
	 * to the enemy. */
	if (is_rout)
		st->facing = geom_norm(dir);
	if (is_rout && (np.x < 0 || np.y < 0 || np.x > b->width ||
	    np.y > b->depth)) {
		remove_stand(c, s, "routs off the table");
		return;
	}
	st->pos = np;
	/* It may pass through other stands but not stop on one: it goes on
	 * (up to another 6") until it stands clear. */
	{
		fx extra = 0;

		while (extra < P(c, "rout.overshoot") && overlaps_any(b, s)) {
			st->pos = geom_offset(st->pos, dir, P(c, "terrain.step"));
			extra += P(c, "terrain.step");
		}
		if (is_rout && (st->pos.x < 0 || st->pos.y < 0 ||
		    st->pos.x > b->width || st->pos.y > b->depth)) {
			remove_stand(c, s, "routs off the table");
			return;
		}
	}
	/* Otherwise the whole base stops on the table. */
	{
		struct pt r[4];
		fx minx, maxx, miny, maxy;
		int i;

		battle_stand_rect(b, s, r);
		minx = maxx = r[0].x;
		miny = maxy = r[0].y;
		for (i = 1; i < 4; i++) {
			minx = r[i].x < minx ? r[i].x : minx;
			maxx = r[i].x > maxx ? r[i].x : maxx;
			miny = r[i].y < miny ? r[i].y : miny;
			maxy = r[i].y > maxy ? r[i].y : maxy;
		}
		if (minx < 0)
			st->pos.x -= minx;
		else if (maxx > b->width)
			st->pos.x -= maxx - b->width;
		if (miny < 0)
			st->pos.y -= miny;
		else if (maxy > b->depth)
			st->pos.y -= maxy - b->depth;
	}
}

/* A unit's morale now: a Native American band's drops by one for each
 * stand it has lost. */
static int
unit_morale(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int s, lost = 0;

	if (!(un->abil & ABIL_NA))
		return un->morale;
	FOR_STANDS(b, u, s)
		if ((b->stands[s].flags & ST_GONE) &&
		    !(b->stands[s].flags & ST_SPARE))
			lost++;
	return un->morale - lost;
}

static fx
unit_rate(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int s;

	/* Guns abandoned in a rout move as infantry. */
	FOR_STANDS(b, u, s)
		if (alive(b, s) && (b->stands[s].flags & ST_GUNS_LOST))
			return ruleset_param(&ruleset_vnb_wing, b, "abandoned.rate");
	/* Mounted infantry on foot. */
	if (un->base_kind == KIND_MOUNTED && un->kind == KIND_DETACHMENT)
		return ruleset_param(&ruleset_vnb_wing, b, "dismounted.rate");
	return un->speed;
}

/* The text's rout: both markers, 1 SP lost, a full move straight away
 * from what caused it.  A stand already routed is removed instead. */
static void
rout_stand_d(struct ctx *c, int s, struct pt from, const char *why, int depth)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	int u = st->unit;

	if (!alive(b, s))
		return;
	if (routed(b, s)) {
		remove_stand(c, s, "routs again");
		return;
	}
	st->flags |= ST_ROUTED;
	st->flags &= ~ST_STATIONARY;
	ev(c, EV_ROUT, u, -1, s - b->units[u].first_stand + 1,
	    "%s: stand %d routs (%s).", b->units[u].name,
	    s - b->units[u].first_stand + 1, why);
	if (b->units[u].kind == KIND_ARTILLERY && !(st->flags & ST_GUNS_LOST)) {
		st->flags |= ST_GUNS_LOST;
		ev(c, EV_ROUT, u, -1, 0, "%s: the crew abandon their guns.",
		    b->units[u].name);
	}
	lose_sp(c, s, P(c, "rout.sp-loss"), "rout");
	if (!alive(b, s))
		return;
	push_stand(c, s, geom_bearing(from, st->pos), unit_rate(b, u), 1, depth);
}

static void
rout_stand(struct ctx *c, int s, struct pt from, const char *why)
{
	rout_stand_d(c, s, from, why, 0);
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
static int
unit_in_command(struct ctx *c, int u)
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
			ev(c, EV_OUT_OF_COMMAND, u, -1, 0, "%s is out of command: no "
			    "commander of its chain within %s\".", b->units[u].name,
			    fmt_in(c, 0, radius));
		else
			ev(c, EV_OUT_OF_COMMAND, u, -1, n, "%s is partly out of "
			    "command: %d of its %d stands neither within %s\" of a "
			    "commander of its chain nor joined to a stand that is.",
			    b->units[u].name, n, of, fmt_in(c, 0, radius));
	}
}

/* --- movement --------------------------------------------------------- */

static int across_water(const struct battle *b, struct pt a, struct pt z);

static int
enemy(const struct battle *b, int u1, int u2)
{
	return b->units[u1].side != b->units[u2].side;
}

/* Smallest gap between unit u's active stands and any alive enemy stand
 * (or only those of unit `only` when only >= 0). */
static fx
gap_to_enemy(struct ctx *c, int u, int only)
{
	struct battle *b = c->b;
	fx best = INT32_MAX;
	int s, v, t;

	FOR_STANDS(b, u, s) {
		struct pt r1[4];

		if (!active(b, s))
			continue;
		battle_stand_rect(b, s, r1);
		for (v = 0; v < b->nunits; v++) {
			if (!enemy(b, u, v) || (only >= 0 && v != only))
				continue;
			FOR_STANDS(b, v, t) {
				struct pt r2[4];
				fx g;

				if (!alive(b, t))
					continue;
				battle_stand_rect(b, t, r2);
				g = geom_rect_dist(r1, r2);
				if (g < best)
					best = g;
			}
		}
	}
	return best;
}

/* 1 if an active stand of unit u overlaps (more than touches) a stand of
 * another unit of its side. */
static int
unit_on_friend(const struct battle *b, int u)
{
	int s, k;

	FOR_STANDS(b, u, s) {
		if (!active(b, s))
			continue;
		for (k = 0; k < b->nstands; k++)
			if (b->stands[k].unit != u &&
			    b->units[b->stands[k].unit].side == b->units[u].side &&
			    stands_overlap(b, s, k))
				return 1;
	}
	return 0;
}

/* 1 if moving unit u by (dx,dy) brings the centre of one of its stands
 * out of command closer to the centre of an enemy unit that stand can
 * see (the text: such stands may never move towards a visible enemy). */
static int
towards_visible_enemy(struct ctx *c, int u, fx dx, fx dy)
{
	struct battle *b = c->b;
	int v, s;

	FOR_STANDS(b, u, s) {
		struct pt from = b->stands[s].pos, to;

		if (!active(b, s) || c->in_cmd[s])
			continue;
		to.x = from.x + dx;
		to.y = from.y + dy;
		for (v = 0; v < b->nunits; v++) {
			struct pt pc;

			if (!enemy(b, u, v) || !battle_unit_centre(b, v, &pc))
				continue;
			if (geom_dist(to, pc) < geom_dist(from, pc) &&
			    can_see(b, from, pc))
				return 1;
		}
	}
	return 0;
}

static void
translate_unit(struct battle *b, int u, fx dx, fx dy)
{
	int s;

	FOR_STANDS(b, u, s)
		if (active(b, s)) {
			b->stands[s].pos.x += dx;
			b->stands[s].pos.y += dy;
		}
}

static int
unit_on_table(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s) {
		const struct pt *p = &b->stands[s].pos;

		if (active(b, s) && (p->x < 0 || p->y < 0 || p->x > b->width ||
		    p->y > b->depth))
			return 0;
	}
	return 1;
}

/* Area cost factor for the unit's kind at p; 0 means it may not enter. */
static int
area_factor(struct ctx *c, int u, struct pt p)
{
	const struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int skirm = unit_form(b, u) == FORM_SKIRMISH;
	int mounted = un->kind == KIND_MOUNTED && unit_form(b, u) != FORM_DISMOUNTED;
	int guns = un->kind == KIND_ARTILLERY;
	int slow = unit_rate(b, u) <= FX(12) && foot(un);
	int f = 1;

	if (area_at(b, p, T_FOREST) || area_at(b, p, T_THICKET) ||
	    area_at(b, p, T_SWAMP)) {
		if (mounted || guns)
			return 0;
		f = 2;
	}
	if (area_at(b, p, T_WOOD) && (mounted || guns) && f < 2)
		f = 2;
	/* Broken ground: double for guns, cavalry (skirmishing or not) and
	 * slow foot; fast foot, infantry skirmishers and commanders move
	 * normally. */
	if (area_at(b, p, T_BROKEN) && (guns || mounted || (slow && !skirm)) &&
	    f < 2)
		f = 2;
	if (area_at(b, p, T_CAMP) && f < 2)
		f = 2;
	if ((area_at(b, p, T_TOWN) || area_at(b, p, T_VILLAGE)) &&
	    (mounted || guns))
		return 0;
	/* Mounted and guns enter works only by a path (a road). */
	if (area_at(b, p, T_WORKS) && (mounted || guns) && !on_road(b, p))
		return 0;
	/* Marsh: what the unit's stands rolled on entering it (infantry
	 * skirmishers and commanders are not affected). */
	if (area_at(b, p, T_MARSH) && !(skirm && foot(un))) {
		int s, m = 1;

		FOR_STANDS(b, u, s) {
			if (!active(b, s))
				continue;
			if ((b->stands[s].flags & ST_MARSH_X4) && m < 4)
				m = 4;
			else if ((b->stands[s].flags & ST_MARSH_X2) && m < 2)
				m = 2;
		}
		if (m > f)
			f = m;
	}
	return f;
}

static int
crossing_allowed_at(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_FORD) || area_at(b, p, T_BRIDGE);
}

/* 1 if the step a->z crosses line t.  A step crosses a line when it
 * reaches it from off the line: a step that starts on it has paid. */
static int
step_crosses(const struct battle *b, const struct terrain *t, struct pt a,
    struct pt z)
{
	int j;

	for (j = 0; j + 1 < t->npts; j++) {
		struct pt p = b->points[t->first_pt + j];
		struct pt q = b->points[t->first_pt + j + 1];

		if (geom_seg_cross(a, z, p, q) && geom_seg_dist(a, p, q) > 0)
			return 1;
	}
	return 0;
}

/* Fixed cost (in COST units) of crossing the lines between a and z;
 * -1 if the unit may not cross.  *dis is set when the crossing
 * disorders. */
static long
line_cost(struct ctx *c, int u, struct pt a, struct pt z, int *dis,
    const char **what, int *fence)
{
	const struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int mounted = un->kind == KIND_MOUNTED && unit_form(b, u) != FORM_DISMOUNTED;
	int guns = un->kind == KIND_ARTILLERY;
	int road = unit_form(b, u) == FORM_ROAD && on_road(b, a) && on_road(b, z);
	long cost = 0;
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		int crosses = 0;

		if (t->kind < T_FIRST_LINE || t->kind == T_ROAD)
			continue;
		crosses = step_crosses(b, t, a, z);
		if (!crosses)
			continue;
		*what = t->name;
		if (road)
			continue;  /* road march along a road ignores terrain */
		switch (t->kind) {
		case T_RIVER:
		case T_STREAM:
			if ((t->kind == T_RIVER || (t->marshy && (mounted ||
			    guns))) && !crossing_allowed_at(b, a) &&
			    !crossing_allowed_at(b, z))
				return -1;
			/* A bridge: free in road march; else half the move or,
			 * if the unit hurries, disorder. */
			if (area_at(b, a, T_BRIDGE) || area_at(b, z, T_BRIDGE)) {
				if (unit_form(b, u) == FORM_ROAD)
					break;
				if (c->hurry[u]) {
					*dis = 1;
					*what = "crossing a bridge in haste";
					break;
				}
			}
			cost += COST(unit_rate(b, u) / 2);
			break;
		case T_TREELINE: case T_FENCE: case T_HEDGE:
			cost += COST((mounted || guns) ? FX(4) : FX(2));
			if (t->kind != T_TREELINE)
				*fence = 1;
			break;
		case T_SUNKEN_ROAD:
			/* Works: mounted and guns only where a road crosses. */
			if ((mounted || guns) && !on_road(b, a) && !on_road(b, z))
				return -1;
			cost += COST(unit_rate(b, u) / 2);
			*dis = 1;
			break;
		default:
			break;
		}
	}
	return cost;
}

/* Index of a marsh that `to` lies in and `from` does not, or -1. */
static int
marsh_entered(const struct battle *b, struct pt from, struct pt to)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind == T_MARSH &&
		    geom_in_poly(to, &b->points[t->first_pt], t->npts) &&
		    !geom_in_poly(from, &b->points[t->first_pt], t->npts))
			return i;
	}
	return -1;
}

/* The text's marsh die, once per stand on entering: 1-2 no effect, 3-4
 * two for one, 5 or more four for one and disordered; +1 for guns, +1
 * where a stand has crossed before. */
static void
roll_marsh(struct ctx *c, int u, int mi)
{
	struct battle *b = c->b;
	struct terrain *t = &b->terrain[mi];
	int s, plus = (b->units[u].kind == KIND_ARTILLERY) + (t->trodden != 0);

	FOR_STANDS(b, u, s) {
		int r;

		if (!active(b, s))
			continue;
		r = roll(c, u, "marsh (%s) for %s stand %d%s%s: 1-2 no effect, 3-4 "
		    "2 for 1, 5+ 4 for 1 and disordered", t->name, b->units[u].name,
		    s - b->units[u].first_stand + 1,
		    b->units[u].kind == KIND_ARTILLERY ? ", +1 guns" : "",
		    t->trodden ? ", +1 crossed before" : "") + plus;
		b->stands[s].flags &= ~(ST_MARSH_X2 | ST_MARSH_X4);
		b->stands[s].flags |= ST_MARSH_ROLLED;
		if (r >= 5) {
			b->stands[s].flags |= ST_MARSH_X4;
			disorder(c, s, "bogged in the marsh");
		} else if (r >= 3) {
			b->stands[s].flags |= ST_MARSH_X2;
		}
		ev(c, EV_MOVE, u, -1, r, "%s: stand %d in %s: %s.", b->units[u].name,
		    s - b->units[u].first_stand + 1, t->name, r >= 5 ? "heavy going, "
		    "4 for 1" : r >= 3 ? "hard going, 2 for 1" : "no effect");
	}
	t->trodden = 1;
}

/* After a step: formed troops knock standing crops down, and a unit out
 * of every marsh forgets what it rolled. */
static void
after_step_ground(struct ctx *c, int u, struct pt at, int skirm)
{
	struct battle *b = c->b;
	int i, s, in_marsh = 0;

	for (i = 0; i < b->nterrain; i++) {
		struct terrain *t = &b->terrain[i];

		if (!geom_in_poly(at, &b->points[t->first_pt], t->npts) ||
		    t->kind >= T_FIRST_LINE)
			continue;
		if (t->kind == T_MARSH)
			in_marsh = 1;
		if (t->kind == T_CROPS && !skirm && !t->trodden) {
			t->trodden = 1;
			ev(c, EV_MOVE, u, -1, 0, "%s knocks down the crops of %s.",
			    b->units[u].name, t->name);
		}
	}
	if (!in_marsh)
		FOR_STANDS(b, u, s)
			b->stands[s].flags &= ~(ST_MARSH_ROLLED | ST_MARSH_X2 |
			    ST_MARSH_X4);
}

/* A mounted charger in good order crossing a fence or hedge: each stand
 * avoids disorder on a d6 below its morale (+1 to the die if poorly
 * trained); before the morale test to enter melee. */
static void
fence_test(struct ctx *c, int u)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int s;

	c->fence_tested[u] = 1;
	FOR_STANDS(b, u, s) {
		int r;

		if (!active(b, s) || disordered(b, s))
			continue;
		r = roll(c, u, "fence test of %s stand %d, disordered on %d or more",
		    un->name, s - un->first_stand + 1,
		    unit_morale(b, u) - ((un->abil & ABIL_PT) ? 1 : 0));
		if (r + ((un->abil & ABIL_PT) ? 1 : 0) >= unit_morale(b, u))
			disorder(c, s, "crossing a fence at the charge");
	}
}

struct move_result {
	fx moved;
	long spent;
	const char *stop;   /* why it stopped short, or NULL */
	int contact;        /* a charge reached its target */
};

/* The point `at` of the way along a->dest, `total` long. */
static struct pt
along(struct pt a, struct pt dest, fx total, fx at)
{
	struct pt p;

	p.x = a.x + (fx)geom_div_round((int64_t)(dest.x - a.x) * at, total);
	p.y = a.y + (fx)geom_div_round((int64_t)(dest.y - a.y) * at, total);
	return p;
}

/* 1 if unit u's stands overfill a town or village block: a town block
 * holds up to town.capacity infantry stands, a village block
 * village.capacity detachments and nothing else (stands count where their
 * centres are). */
static int
block_over(struct ctx *c, int u)
{
	const struct battle *b = c->b;
	int i, s, k;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		const struct pt *pg = &b->points[t->first_pt];
		int mine = 0, all = 0;

		if (t->kind != T_TOWN && t->kind != T_VILLAGE)
			continue;
		FOR_STANDS(b, u, s)
			if (active(b, s) && geom_in_poly(b->stands[s].pos, pg,
			    t->npts))
				mine++;
		if (mine == 0)
			continue;
		if (t->kind == T_VILLAGE &&
		    b->units[u].kind != KIND_DETACHMENT)
			return 1;
		for (k = 0; k < b->nstands; k++)
			if (alive(b, k) && geom_in_poly(b->stands[k].pos, pg,
			    t->npts))
				all++;
		if (all > P(c, t->kind == T_TOWN ? "town.capacity" :
		    "village.capacity"))
			return 1;
	}
	return 0;
}

/* How far along the step a->z its first crossing of an area's edge is,
 * or -1 if it crosses none: steps are cut there, so that each step lies
 * in one kind of ground and is charged for it exactly. */
static fx
area_edge_ahead(const struct battle *b, struct pt a, struct pt z)
{
	fx best = -1;
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind >= T_FIRST_LINE)
			continue;
		for (j = 0; j < t->npts; j++) {
			fx h = geom_seg_hit(a, z, b->points[t->first_pt + j],
			    b->points[t->first_pt + (j + 1) % t->npts]);

			if (h > 0 && (best < 0 || h < best))
				best = h;
		}
	}
	return best;
}

/* 1 if stand s covers some of area t (more than touching its edge). */
static int
stand_in_area(const struct battle *b, int s, const struct terrain *t)
{
	const struct pt *poly = &b->points[t->first_pt];
	struct pt r[4];
	int i, j;

	battle_stand_rect_inset(b, s, 1, r);
	for (i = 0; i < 4; i++)
		if (geom_in_poly(r[i], poly, t->npts))
			return 1;
	for (j = 0; j < t->npts; j++) {
		if (geom_in_poly(poly[j], r, 4))
			return 1;
		for (i = 0; i < 4; i++)
			if (geom_seg_cross(r[i], r[(i + 1) % 4], poly[j],
			    poly[(j + 1) % t->npts]))
				return 1;
	}
	return 0;
}

/* Which of unit u's active stands stand in ground closed to it (forest,
 * thicket, swamp, towns, villages and works, for mounted stands and
 * guns): out[s] set for each (indexed by stand); 1 if any. */
static int
closed_under(struct ctx *c, int u, unsigned char *out)
{
	const struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int i, s, any = 0;

	FOR_STANDS(b, u, s)
		out[s] = 0;
	if (!(un->kind == KIND_ARTILLERY || (un->kind == KIND_MOUNTED &&
	    unit_form(b, u) != FORM_DISMOUNTED)))
		return 0;
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind != T_FOREST && t->kind != T_THICKET &&
		    t->kind != T_SWAMP && t->kind != T_TOWN &&
		    t->kind != T_VILLAGE && t->kind != T_WORKS)
			continue;
		FOR_STANDS(b, u, s)
			if (active(b, s) &&
			    !(t->kind == T_WORKS && on_road(b, b->stands[s].pos)) &&
			    stand_in_area(b, s, t))
				out[s] = 1, any = 1;
	}
	return any;
}

/* 1 if moving unit u by (dx,dy) would bring a stand into ground closed
 * to it that it was not in before (c->closed0); the unit is left where it
 * was. */
static int
closes_on(struct ctx *c, int u, fx dx, fx dy)
{
	int s, worse = 0;

	translate_unit(c->b, u, dx, dy);
	closed_under(c, u, c->closed1);
	translate_unit(c->b, u, -dx, -dy);
	FOR_STANDS(c->b, u, s)
		if (c->closed1[s] && !c->closed0[s])
			worse = 1;
	return worse;
}

/* Moves unit u's active stands as a block, its centre towards dest, for
 * at most `budget` cost units.  See docs/rules-vnb-wing.md, Movement. */
static struct move_result
move_unit(struct ctx *c, int u, struct pt dest, long budget,
    enum move_mode mode, int target)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct move_result r = { 0, 0, NULL, 0 };
	fx stepmax = P(c, "terrain.step"), contact = P(c, "contact");
	fx stop_short = P(c, "stop-short");
	int road = unit_form(b, u) == FORM_ROAD;
	int ooc = mode != MOVE_ADVANCE_INTO && !unit_in_command(c, u);
	int skirm = unit_form(b, u) == FORM_SKIRMISH;
	struct pt cur, start, clear, pmid;
	fx total, clear_moved = 0, cap = -1;
	long clear_spent = 0;
	int level, clear_ok;

	if (!unit_active_centre(b, u, &cur))
		return r;
	/* Points along the way are measured from the start, so that rounding
	 * never adds up over many steps. */
	start = cur;
	/* Ground is judged at the middle of each step, and steps end at the
	 * edges of areas, so that a step on an edge is charged for the side
	 * it goes on. */
	pmid = cur;
	/* Stands already in ground closed to them may still move out. */
	closed_under(c, u, c->closed0);
	/* The last place on the way where it stood on no friend. */
	clear = cur;
	clear_ok = !unit_on_friend(b, u);
	total = geom_dist(start, dest);
	level = battle_level_at(b, cur);
	for (;;) {
		fx left = total - r.moved, len, g, h;
		struct pt next, mid;
		long cost;
		int f, dis = 0, nl, on_the_road, ignore, fence = 0, mi;
		const char *what = NULL;

		if (cap >= 0 && cap - r.moved < left) {
			left = cap - r.moved;
			if (left <= 0) {
				r.stop = "the ground ahead is closed to it";
				break;
			}
		}
		if (left <= 0)
			break;
		len = left < stepmax ? left : stepmax;
		if (mode == MOVE_CHARGE) {
			g = gap_to_enemy(c, u, target);
			if (g <= contact) {
				r.contact = 1;
				break;
			}
			if (g < len)
				len = g;
			g = gap_to_enemy(c, u, -1);
			if (g < gap_to_enemy(c, u, target) && g - stop_short < len) {
				if (g <= stop_short) {
					r.stop = "another enemy unit is in the way";
					break;
				}
				len = g - stop_short;
			}
		} else {
			g = gap_to_enemy(c, u, -1);
			if (g - stop_short < len) {
				if (g <= stop_short) {
					r.stop = "the enemy is too close to go on";
					break;
				}
				len = g - stop_short;
			}
		}
		next = along(start, dest, total, r.moved + len);
		h = area_edge_ahead(b, cur, next);
		if (h > 0 && h < len) {
			len = h;
			next = along(start, dest, total, r.moved + len);
		}
		/* No stand may go into ground closed to it: the move stops
		 * where the first one would. */
		if (!(road && on_road(b, cur) && on_road(b, next)) &&
		    closes_on(c, u, next.x - cur.x, next.y - cur.y)) {
			fx lo = 0, hi = len;

			while (hi - lo > 1) {
				fx m = (lo + hi) / 2;
				struct pt p = along(start, dest, total, r.moved + m);

				if (closes_on(c, u, p.x - cur.x, p.y - cur.y))
					hi = m;
				else
					lo = m;
			}
			cap = r.moved + lo;
			continue;
		}
		mid.x = cur.x + (next.x - cur.x) / 2;
		mid.y = cur.y + (next.y - cur.y) / 2;
		/* Foot go from one block to another only by the street. */
		if (foot(un) && block_at(b, pmid) >= 0 && block_at(b, mid) >= 0 &&
		    block_at(b, pmid) != block_at(b, mid)) {
			r.stop = "it must go out into the street to reach "
			    "another block";
			break;
		}
		/* Entering a marsh: each stand rolls for the going. */
		mi = marsh_entered(b, pmid, mid);
		if (mi >= 0 && !(skirm && foot(un)) && !(road && on_road(b, cur) &&
		    on_road(b, next)))
			roll_marsh(c, u, mi);
		f = area_factor(c, u, mid);
		if (f == 0 && !(road && on_road(b, next))) {
			r.stop = "the ground ahead is closed to it";
			break;
		}
		if (road)
			cost = on_road(b, cur) && on_road(b, next) ?
			    COST(len) / 3 : COST(len) * f / 2;
		else
			cost = COST(len) * f;
		{
			long lc = line_cost(c, u, cur, next, &dis, &what, &fence);

			if (lc < 0) {
				r.stop = "it cannot cross there";
				break;
			}
			cost += lc;
			if (mode == MOVE_CHARGE && across_water(b, cur, next))
				c->charge_wet[u] = 1;
		}
		/* Along a road in road march nothing of the ground counts;
		 * guns on a road take contours freely even out of road
		 * march. */
		on_the_road = on_road(b, cur) && on_road(b, next);
		ignore = road && on_the_road;
		nl = battle_level_at(b, mid);
		if (nl != level && !skirm && !ignore &&
		    !(un->kind == KIND_ARTILLERY && on_the_road)) {
			int n = nl > level ? nl - level : level - nl;

			if (un->kind == KIND_ARTILLERY) {
				if (c->contours[u] + n >= 2) {
					r.stop = "guns may not cross two contours in a turn";
					break;
				}
				if (nl > level)
					cost += COST(unit_rate(b, u) / 2);
			} else if (c->contours[u] < 2 && c->contours[u] + n >= 2) {
				cost += COST(unit_rate(b, u) / 2);
				dis = 1;
			}
		}
		/* Works: crossing into them costs foot half its move. */
		if (!ignore && foot(un) && area_at(b, mid, T_WORKS) &&
		    !area_at(b, pmid, T_WORKS)) {
			cost += COST(unit_rate(b, u) / 2);
			dis = 1;
			what = "entering works";
		}
		if (ooc && towards_visible_enemy(c, u, next.x - cur.x,
		    next.y - cur.y)) {
			r.stop = "out of command, it may not move towards a visible "
			    "enemy";
			break;
		}
		if (r.spent + cost > budget) {
			/* A part step where only area costs apply. */
			long room = budget - r.spent;
			long per = road ? 0 : COST(1) * f;

			if (per > 0 && cost == COST(len) * f && room >= per) {
				fx part = (fx)(room / per);

				next = along(start, dest, total, r.moved + part);
				translate_unit(b, u, next.x - cur.x, next.y - cur.y);
				if (!unit_on_table(b, u)) {
					translate_unit(b, u, cur.x - next.x, cur.y - next.y);
				} else {
					r.moved += part;
					r.spent += per * part;
					cur = next;
				}
			}
			break;
		}
		translate_unit(b, u, next.x - cur.x, next.y - cur.y);
		if (!unit_on_table(b, u)) {
			translate_unit(b, u, cur.x - next.x, cur.y - next.y);
			r.stop = "it would leave the table";
			break;
		}
		if (block_over(c, u)) {
			translate_unit(b, u, cur.x - next.x, cur.y - next.y);
			r.stop = "the building has no room for it";
			break;
		}
		if (fence && mode == MOVE_CHARGE && !c->fence_tested[u] &&
		    un->kind == KIND_MOUNTED && unit_form(b, u) != FORM_DISMOUNTED)
			fence_test(c, u);
		after_step_ground(c, u, mid, skirm);
		/* Contours count per hill: back on level ground, a new hill
		 * starts a new count. */
		if (nl != level && !skirm && !ignore &&
		    !(un->kind == KIND_ARTILLERY && on_the_road))
			c->contours[u] += nl > level ? nl - level : level - nl;
		if (nl == 0)
			c->contours[u] = 0;
		level = nl;
		r.moved += len;
		r.spent += cost;
		/* Foot entering or leaving a town or village block. */
		if (!ignore && foot(un) && (block_at(b, mid) >= 0) !=
		    (block_at(b, pmid) >= 0)) {
			dis = 1;
			what = block_at(b, mid) >= 0 ? "entering a building" :
			    "leaving a building";
		}
		if (dis || (!ignore && !skirm && f >= 2 && (area_at(b, mid, T_FOREST) ||
		    area_at(b, mid, T_THICKET) || area_at(b, mid, T_SWAMP))) ||
		    (!ignore && !skirm && un->kind == KIND_MOUNTED &&
		    area_at(b, mid, T_BROKEN))) {
			int s;

			FOR_STANDS(b, u, s)
				if (active(b, s))
					disorder(c, s, what ? what : "difficult ground");
		}
		cur = next;
		pmid = mid;
		if (!unit_on_friend(b, u)) {
			clear = cur;
			clear_moved = r.moved;
			clear_spent = r.spent;
			clear_ok = 1;
		}
	}
	/* Friends may be passed through, but a unit does not end its move
	 * on one: it stops at the last place on its way where it stood
	 * clear (the loader likewise refuses stands that overlap). */
	if (clear_ok && unit_on_friend(b, u) && (clear.x != cur.x ||
	    clear.y != cur.y)) {
		translate_unit(b, u, clear.x - cur.x, clear.y - cur.y);
		r.moved = clear_moved;
		r.spent = clear_spent;
		r.stop = "it would end on a friendly unit";
	}
	if (r.moved > 0) {
		int s;

		c->moved[u] = 1;
		c->walked[u] = 1;
		FOR_STANDS(b, u, s)
			b->stands[s].flags &= ~ST_STATIONARY;
	}
	return r;
}

static fx
unit_depth(const struct battle *b, int u)
{
	fx w, d;

	battle_kind_size(b->units[u].kind, (enum formation)unit_form(b, u), &w, &d);
	return d;
}

/* Turns the unit about its centre to face `to`.  Returns the cost in
 * COST units, or -1 (with an event) if it cannot. */
static long
face_unit(struct ctx *c, int u, int to, int charging, long room)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	int from = unit_facing(b, u), delta = geom_turn(from, to);
	long cost = 0;
	struct pt cen;
	int s, bonus = c->free_turn[u] && !charging;

	if (delta == 0)
		return 0;
	if (c->fchanges[u] >= 2 && !bonus) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot change facing a "
		    "third time this turn.", un->name);
		return -1;
	}
	/* Leaving road march gives every stand a free change, poorly trained
	 * ones too; it is the unit's next one and leaves its own free change
	 * untouched. */
	if (bonus)
		cost = 0;
	else if (charging || c->fchanges[u] == 1 || (un->abil & ABIL_PT))
		cost = COST(unit_rate(b, u) / 2);
	if (cost > room) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has not the movement left to "
		    "turn (a %s facing change costs half its move).", un->name,
		    c->fchanges[u] == 1 ? "second" : "paid");
		return -1;
	}
	if (!unit_active_centre(b, u, &cen))
		return -1;
	FOR_STANDS(b, u, s)
		if (active(b, s)) {
			b->stands[s].pos = geom_rotate(b->stands[s].pos, cen, delta);
			b->stands[s].facing = geom_norm(to);
		}
	if (!unit_on_table(b, u)) {
		FOR_STANDS(b, u, s)
			if (active(b, s)) {
				b->stands[s].pos = geom_rotate(b->stands[s].pos, cen, -delta);
				b->stands[s].facing = geom_norm(from);
			}
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot turn there: it "
		    "would leave the table.", un->name);
		return -1;
	}
	if (bonus)
		c->free_turn[u] = 0;
	else
		c->fchanges[u]++;
	/* Only a free facing change in command leaves a unit unmoved (so
	 * it may still be or go stationary); any other counts as moving. */
	if (cost > 0 || !unit_in_command(c, u)) {
		c->moved[u] = 1;
		FOR_STANDS(b, u, s)
			b->stands[s].flags &= ~ST_STATIONARY;
	}
	ev(c, EV_FACING, u, -1, geom_norm(to), "%s turns to face %d%s.",
	    un->name, geom_norm(to), cost > 0 ? " (half its move)" : "");
	return cost;
}

/* --- detachments ----------------------------------------------------- */

/* An infantry unit able to skirmish has, after its own stands, a slot for
 * each detachment they may break into: one a starting SP (ST_DETACH; a
 * default, docs/rules-vnb-wing.md, Formations).  The slots of the form the
 * unit is not in are spare (ST_GONE | ST_SPARE). */

static int
can_detach(const struct unit *un)
{
	return un->base_kind == KIND_INFANTRY && (un->abil & ABIL_SK) != 0;
}

/* How many detachments a stand of sp SP breaks into. */
static int
detachments_of(const struct battle *b, int sp)
{
	int per = ruleset_param(&ruleset_vnb_wing, b, "detachment.sp");

	return (sp + per - 1) / per;
}

/* The first detachment slot of formed stand p of unit u. */
static int
first_detachment(const struct battle *b, int u, int p)
{
	int s, k = b->units[u].first_stand;

	FOR_STANDS(b, u, s)
		if (!(b->stands[s].flags & ST_DETACH))
			k++;
	for (s = b->units[u].first_stand; s < p; s++)
		k += detachments_of(b, b->stands[s].sp0);
	return k;
}

/* Lays unit u's stands on the table out side by side, touching, across
 * `facing`, centred on c. */
static void
lay_out_line(struct battle *b, int u, struct pt c, int facing)
{
	fx total = 0, at, w, d;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			b->stands[s].facing = facing;
			battle_stand_size(b, s, &w, &d);
			total += w;
		}
	at = -total / 2;
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &w, &d);
			b->stands[s].pos = geom_offset(c, facing + 90, at + w / 2);
			at += w;
		}
}

/* 1 if unit u's stands are all on the table and clear of other units'. */
static int
unit_has_room(const struct battle *b, int u)
{
	struct pt r[4];
	int s, k, i;

	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r);
		for (i = 0; i < 4; i++)
			if (r[i].x < 0 || r[i].y < 0 || r[i].x > b->width ||
			    r[i].y > b->depth)
				return 0;
		for (k = 0; k < b->nstands; k++)
			if (b->stands[k].unit != u && stands_overlap(b, s, k))
				return 0;
	}
	return 1;
}

/* Breaks unit u's stands into detachments in `form` (line or skirmish),
 * laid out on the unit's centre.  Returns 0, or -1 with *why when it may
 * not (the unit is then as it was). */
static int
break_unit(struct battle *b, int u, enum formation form, struct stand *save,
    const char **why)
{
	const struct unit *un = &b->units[u];
	struct pt c;
	int s, k, per, facing = 0, n = un->nstands;

	if (!battle_unit_centre(b, u, &c)) {
		*why = "it has no stands";
		return -1;
	}
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			if (routed(b, s)) {
				*why = "its routed stands must rally first";
				return -1;
			}
			facing = b->stands[s].facing;
		}
	memcpy(save, &b->stands[un->first_stand], (size_t)n * sizeof(*save));
	FOR_STANDS(b, u, s) {
		struct stand *p = &b->stands[s];
		int first;

		if ((p->flags & ST_DETACH) || !alive(b, s))
			continue;
		first = first_detachment(b, u, s);
		per = ruleset_param(&ruleset_vnb_wing, b, "detachment.sp");
		for (k = 0; k * per < p->sp; k++) {
			struct stand *t = &b->stands[first + k];

			t->sp = p->sp - k * per < per ? p->sp - k * per : per;
			t->facing = p->facing;
			t->form = form;
			t->flags = ST_DETACH | (p->flags & (ST_DISORDERED |
			    ST_PERMANENT | ST_MARSH_ROLLED | ST_MARSH_X2 |
			    ST_MARSH_X4));
		}
		p->flags |= ST_GONE | ST_SPARE;
		p->flags &= ~ST_STATIONARY;
	}
	battle_sync_kinds(b);
	lay_out_line(b, u, c, facing);
	if (!unit_has_room(b, u)) {
		memcpy(&b->stands[un->first_stand], save, (size_t)n * sizeof(*save));
		battle_sync_kinds(b);
		*why = "its detachments would not have room there";
		return -1;
	}
	return 0;
}

/* Forms unit u's detachments up into its infantry stands again, each from
 * the detachments it broke into, which must touch one another.  Returns 0,
 * or -1 with *why (the unit as it was). */
static int
reform_unit(struct battle *b, int u, fx contact, struct stand *save,
    const char **why)
{
	const struct unit *un = &b->units[u];
	struct pt c;
	int s, k, j, facing = 0, n = un->nstands;

	if (!battle_unit_centre(b, u, &c)) {
		*why = "it has no stands";
		return -1;
	}
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			if (routed(b, s)) {
				*why = "its routed detachments must rally first";
				return -1;
			}
			facing = b->stands[s].facing;
		}
	/* Each stand's detachments must be joined, touching in a chain. */
	FOR_STANDS(b, u, s) {
		int first, m, reached[64], changed, nalive = 0, nreached = 0;

		if (b->stands[s].flags & ST_DETACH)
			continue;
		first = first_detachment(b, u, s);
		m = detachments_of(b, b->stands[s].sp0);
		m = m < 64 ? m : 64;
		for (k = 0; k < m; k++) {
			reached[k] = 0;
			if (alive(b, first + k)) {
				nalive++;
				if (nreached == 0)
					reached[k] = nreached = 1;
			}
		}
		do {
			changed = 0;
			for (k = 0; k < m; k++)
				for (j = 0; j < m && !reached[k] && alive(b, first + k); j++)
					if (reached[j] && stand_gap(b, first + k,
					    first + j) <= contact) {
						reached[k] = 1;
						nreached++;
						changed = 1;
					}
		} while (changed);
		if (nreached < nalive) {
			*why = "the detachments of each of its stands must touch "
			    "one another to form up";
			return -1;
		}
	}
	memcpy(save, &b->stands[un->first_stand], (size_t)n * sizeof(*save));
	FOR_STANDS(b, u, s) {
		struct stand *p = &b->stands[s];
		int first, sp = 0;
		unsigned fl = 0;

		if (p->flags & ST_DETACH)
			continue;
		first = first_detachment(b, u, s);
		for (k = 0; k < detachments_of(b, p->sp0); k++) {
			struct stand *t = &b->stands[first + k];

			if (!(t->flags & ST_GONE)) {
				sp += t->sp;
				fl |= t->flags & (ST_DISORDERED | ST_PERMANENT |
				    ST_MARSH_ROLLED | ST_MARSH_X2 | ST_MARSH_X4);
			}
			t->flags = ST_DETACH | ST_GONE | ST_SPARE;
		}
		p->sp = sp;
		p->form = FORM_LINE;
		/* A stand none of whose detachments is left is lost. */
		p->flags = sp > 0 ? fl : ST_GONE;
	}
	battle_sync_kinds(b);
	lay_out_line(b, u, c, facing);
	if (!unit_has_room(b, u)) {
		memcpy(&b->stands[un->first_stand], save, (size_t)n * sizeof(*save));
		battle_sync_kinds(b);
		*why = "its stands would not have room there";
		return -1;
	}
	return 0;
}

/* Gives every infantry unit able to skirmish its detachment slots, and
 * breaks those the scenario put in skirmish order or detachments. */
static int
prepare_detachments(struct battle *b, struct err *e)
{
	struct stand *nw = NULL, *save = NULL;
	int u, s, k, n = 0;

	nw = calloc(BATTLE_MAX_STANDS, sizeof(*nw));
	save = calloc(BATTLE_MAX_STANDS, sizeof(*save));
	if (nw == NULL || save == NULL) {
		free(nw);
		free(save);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];
		int first = n;

		FOR_STANDS(b, u, s) {
			if (n >= BATTLE_MAX_STANDS) {
				free(nw);
				free(save);
				return err_set(e, ERR_USER, "too many stands with "
				    "their detachments (at most %d)",
				    BATTLE_MAX_STANDS);
			}
			nw[n++] = b->stands[s];
		}
		if (can_detach(un))
			FOR_STANDS(b, u, s)
				for (k = 0; k < detachments_of(b,
				    b->stands[s].sp0); k++) {
					if (n >= BATTLE_MAX_STANDS) {
						free(nw);
						free(save);
						return err_set(e, ERR_USER, "too many "
						    "stands with their detachments (at "
						    "most %d)", BATTLE_MAX_STANDS);
					}
					nw[n] = b->stands[s];
					nw[n].sp = nw[n].sp0 = ruleset_param(
					    &ruleset_vnb_wing, b, "detachment.sp");
					nw[n].form = FORM_LINE;
					nw[n].flags = ST_DETACH | ST_GONE | ST_SPARE;
					n++;
				}
		un->first_stand = first;
		un->nstands = n - first;
	}
	memcpy(b->stands, nw, (size_t)n * sizeof(*nw));
	b->nstands = n;
	free(nw);
	for (u = 0; u < b->nunits; u++) {
		enum formation f = FORM_LINE;
		const char *why = NULL;

		if (!can_detach(&b->units[u]))
			continue;
		FOR_STANDS(b, u, s)
			if (b->stands[s].form == FORM_SKIRMISH ||
			    b->stands[s].form == FORM_DETACHMENTS) {
				if (b->stands[s].form == FORM_SKIRMISH)
					f = FORM_SKIRMISH;
				b->stands[s].form = FORM_LINE;
				why = "";
			}
		if (why != NULL && break_unit(b, u, f, save, &why) != 0) {
			free(save);
			return err_set(e, ERR_USER, "\"%s\" cannot start in %s: %s",
			    b->units[u].name, f == FORM_SKIRMISH ? "skirmish order" :
			    "detachments", why);
		}
	}
	free(save);
	return 0;
}

static void
report_move(struct ctx *c, int u, struct move_result *r, fx asked)
{
	struct battle *b = c->b;
	struct pt cen;

	if (!unit_active_centre(b, u, &cen))
		return;
	if (r->moved > 0)
		ev(c, EV_MOVE, u, -1, r->moved, "%s moves %s\" to %s,%s%s%s.",
		    b->units[u].name, fmt_in(c, 0, r->moved), fmt_in(c, 1, cen.x),
		    fmt_in(c, 2, cen.y), r->stop ? ", stopping: " : "",
		    r->stop ? r->stop : "");
	else if (r->stop)
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s does not move: %s.",
		    b->units[u].name, r->stop);
	else if (asked > 0)
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has no movement left.",
		    b->units[u].name);
}

static int
unit_exhausted(const struct battle *b, int u)
{
	return (b->brigades[b->units[u].brigade].flags & BR_EXHAUSTED) != 0;
}

static int
unit_in_enemy_contact(struct ctx *c, int u)
{
	return gap_to_enemy(c, u, -1) <= P(c, "contact");
}

/* Unit u takes formation `want` (FORM_LINE, FORM_SKIRMISH, FORM_ROAD or
 * FORM_DETACHMENTS), out of `room`.  Returns the cost in COST units, or
 * -1 (with an event) if it cannot.  See docs/rules-vnb-wing.md,
 * Formations. */
static long
change_formation(struct ctx *c, int u, enum formation want, long room)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	enum formation cur = (enum formation)unit_form(b, u);
	int detached = un->kind == KIND_DETACHMENT && can_detach(un);
	int breaking = 0, forming = 0, relay = 0, s;
	long half = COST(unit_rate(b, u) / 2), cost = 0;
	const char *why = NULL;
	struct pt cen;
	fx w0, w1, d;

	/* Mounted infantry dismount, and mount again, for half the move:
	 * on foot they are detachments. */
	if (want == FORM_DISMOUNTED || cur == FORM_DISMOUNTED) {
		if (!(un->abil & ABIL_MI) || un->base_kind != KIND_MOUNTED) {
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has no dismounted "
			    "form in this scenario.", un->name);
			return -1;
		}
		if (want == cur)
			return 0;
		if (want != FORM_DISMOUNTED && want != FORM_LINE) {
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s must mount before "
			    "it changes formation.", un->name);
			return -1;
		}
		if (cur == FORM_ROAD || cur == FORM_SKIRMISH) {
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s must form before it "
			    "dismounts.", un->name);
			return -1;
		}
		if (half > room) {
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has not the movement "
			    "left to change formation.", un->name);
			return -1;
		}
		if (!unit_active_centre(b, u, &cen))
			return -1;
		memcpy(c->saved, &b->stands[un->first_stand],
		    (size_t)un->nstands * sizeof(c->saved[0]));
		FOR_STANDS(b, u, s)
			if (alive(b, s)) {
				b->stands[s].form = want;
				b->stands[s].flags &= ~(ST_STATIONARY | ST_RETIRES);
			}
		battle_sync_kinds(b);
		lay_out_line(b, u, cen, unit_facing(b, u));
		if (!unit_has_room(b, u)) {
			memcpy(&b->stands[un->first_stand], c->saved,
			    (size_t)un->nstands * sizeof(c->saved[0]));
			battle_sync_kinds(b);
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot change "
			    "formation: its stands would not have room there.",
			    un->name);
			return -1;
		}
		c->moved[u] = 1;
		if (want == FORM_DISMOUNTED)
			ev(c, EV_MOVE, u, -1, 0, "%s dismounts (half its move).",
			    un->name);
		else
			ev(c, EV_MOVE, u, -1, 0, "%s mounts (half its move).",
			    un->name);
		return half;
	}
	if (want == FORM_DETACHMENTS && !can_detach(un) &&
	    un->kind != KIND_DETACHMENT) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot break into "
		    "detachments: only infantry with the Skirmish ability can.",
		    un->name);
		return -1;
	}
	if (want == FORM_SKIRMISH && un->kind != KIND_DETACHMENT &&
	    un->kind != KIND_MOUNTED && !can_detach(un)) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot take skirmish order: "
		    "only detachments and mounted stands can.", un->name);
		return -1;
	}
	if (un->kind == KIND_INFANTRY && can_detach(un) &&
	    (want == FORM_SKIRMISH || want == FORM_DETACHMENTS)) {
		breaking = 1;
		if (want == FORM_DETACHMENTS)
			want = FORM_LINE;
	} else if (detached && want == FORM_LINE) {
		forming = 1;
	} else if (want == FORM_DETACHMENTS) {
		/* Formed detachments are the detachments' line. */
		want = FORM_LINE;
		if (want == cur)
			return 0;
	} else if (want == cur) {
		return 0;
	}
	if (cur == FORM_ROAD && unit_in_enemy_contact(c, u)) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot leave road march in "
		    "contact with the enemy.", un->name);
		return -1;
	}
	/* Half the move to leave road march or skirmish order, and half to
	 * form detachments up into stands. */
	if (cur == FORM_ROAD || (cur == FORM_SKIRMISH && want != FORM_SKIRMISH))
		cost += half;
	if (forming)
		cost += half;
	if (cost > room) {
		ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has not the movement left "
		    "to change formation.", un->name);
		return -1;
	}
	if (!unit_active_centre(b, u, &cen))
		return -1;
	if (breaking) {
		if (break_unit(b, u, want, c->saved, &why) != 0) {
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot break into "
			    "detachments: %s.", un->name, why);
			return -1;
		}
	} else if (forming) {
		/* Out of skirmish order or road march first: the detachments
		 * side by side on their centre. */
		memcpy(c->saved, &b->stands[un->first_stand],
		    (size_t)un->nstands * sizeof(c->saved[0]));
		FOR_STANDS(b, u, s)
			if (alive(b, s))
				b->stands[s].form = FORM_LINE;
		if (cur != FORM_LINE)
			lay_out_line(b, u, cen, unit_facing(b, u));
		if (reform_unit(b, u, P(c, "contact"), c->saved + un->nstands,
		    &why) != 0) {
			memcpy(&b->stands[un->first_stand], c->saved,
			    (size_t)un->nstands * sizeof(c->saved[0]));
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot form up "
			    "from its detachments: %s.", un->name, why);
			return -1;
		}
	} else {
		battle_kind_size(un->kind, cur, &w0, &d);
		battle_kind_size(un->kind, want, &w1, &d);
		relay = w0 != w1;
		memcpy(c->saved, &b->stands[un->first_stand],
		    (size_t)un->nstands * sizeof(c->saved[0]));
		FOR_STANDS(b, u, s)
			if (alive(b, s))
				b->stands[s].form = want;
		/* Stands that change width are laid out side by side again. */
		if (relay) {
			lay_out_line(b, u, cen, unit_facing(b, u));
			if (!unit_has_room(b, u)) {
				memcpy(&b->stands[un->first_stand], c->saved,
				    (size_t)un->nstands * sizeof(c->saved[0]));
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot change "
				    "formation: its stands would not have room "
				    "there.", un->name);
				return -1;
			}
		}
	}
	/* Detachments are in command as the stand they broke from was, and
	 * a stand formed up again as any of its detachments was. */
	if (breaking || forming)
		FOR_STANDS(b, u, s) {
			int k, first;

			if (b->stands[s].flags & ST_DETACH)
				continue;
			first = first_detachment(b, u, s);
			for (k = 0; k < detachments_of(b, b->stands[s].sp0); k++)
				if (breaking)
					c->in_cmd[first + k] = c->in_cmd[s];
				else if (c->in_cmd[first + k])
					c->in_cmd[s] = 1;
		}
	FOR_STANDS(b, u, s)
		b->stands[s].flags &= ~ST_STATIONARY;
	c->moved[u] = 1;
	if (cur == FORM_ROAD)
		c->free_turn[u] = 1;
	if (breaking)
		ev(c, EV_MOVE, u, -1, battle_unit_alive(b, u), "%s breaks into %d "
		    "detachments%s%s.", un->name, battle_unit_alive(b, u),
		    want == FORM_SKIRMISH ? " in skirmish order" : "",
		    cost ? " (half its move)" : "");
	else if (forming)
		ev(c, EV_MOVE, u, -1, battle_unit_alive(b, u), "%s forms up from "
		    "its detachments into %d %s (%s its move).", un->name,
		    battle_unit_alive(b, u), battle_unit_alive(b, u) == 1 ?
		    "stand" : "stands", cost > half ? "all" : "half");
	else
		ev(c, EV_MOVE, u, -1, 0, "%s forms %s%s.", un->name,
		    want == FORM_LINE && un->kind == KIND_MOUNTED ? "mounted" :
		    want == FORM_LINE && un->kind == KIND_DETACHMENT ?
		    "detachments" : want == FORM_ROAD ? "road march" :
		    battle_form_name(want), cost ? " (half its move)" : "");
	return cost;
}

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
		if (cm->gone || !unit_active_centre(b, cm->attached, &tmp)) {
			cm->attached = -1;
			continue;
		}
		for (i = 0; mine != NULL && i < mine->n; i++)
			if (mine->orders[i].is_commander && mine->orders[i].who == k)
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
		events_add(c->ev, EV_COMMANDER, cm->side, u, -1, 0, "%s rides "
		    "with %s to %s,%s.", cm->name, b->units[u].name,
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
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s is routed and cannot "
			    "take orders until rallied.", un->name);
			return;
		}
	}
	ooc = !unit_in_command(c, u);
	for (i = 0; i < o->nsteps; i++) {
		if (o->steps[i].verb == V_CHARGE)
			charging = 1;
		if (o->steps[i].verb == V_HURRY)
			c->hurry[u] = 1;
	}
	budget = COST(unit_rate(b, u));
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
			r = move_unit(c, u, dest, budget - spent, MOVE_NORMAL, -1);
			spent += r.spent;
			report_move(c, u, &r, st->dist);
			break;
		case V_MOVE_TO:
			brg = geom_bearing(cen, st->pt);
			if (abs(geom_turn(unit_facing(b, u), brg)) > 45) {
				fc = face_unit(c, u, brg, 0, budget - spent);
				if (fc < 0)
					return;
				spent += fc;
				unit_active_centre(b, u, &cen);
			}
			r = move_unit(c, u, st->pt, budget - spent, MOVE_NORMAL, -1);
			spent += r.spent;
			report_move(c, u, &r, geom_dist(cen, st->pt));
			break;
		case V_WHEEL:
		case V_FACE:
			/* A charger's turn before it sets off is part of the
			 * charge: it costs half the move. */
			fc = face_unit(c, u, st->verb == V_FACE ? st->angle :
			    unit_facing(b, u) + st->angle, charging, budget - spent);
			if (fc < 0)
				return;
			spent += fc;
			break;
		case V_FORM: {
			fx before = unit_rate(b, u), after;

			fc = change_formation(c, u, st->form, budget - spent);
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
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot retire "
				    "from fire: only mounted stands may.", un->name);
				break;
			}
			FOR_STANDS(b, u, s)
				if (active(b, s))
					b->stands[s].flags |= ST_RETIRES;
			ev(c, EV_MOVE, u, -1, 0, "%s will retire from fire until "
			    "its next phase.", un->name);
			break;
		case V_REFORM: {
			int any = 0;

			if (i != 0 && i != o->nsteps - 1) {
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s may reform "
				    "only at the start or the end of its move.", un->name);
				break;
			}
			if (unit_in_command_none(c, u)) {
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot reform: "
				    "it is out of command.", un->name);
				break;
			}
			if (unit_in_enemy_contact(c, u)) {
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot reform "
				    "in contact with the enemy.", un->name);
				break;
			}
			if (unit_form(b, u) != FORM_SKIRMISH && (area_at(b, cen, T_FOREST) ||
			    area_at(b, cen, T_THICKET) || area_at(b, cen, T_SWAMP) ||
			    (un->kind == KIND_MOUNTED && area_at(b, cen, T_BROKEN)))) {
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s cannot reform "
				    "in this ground.", un->name);
				break;
			}
			if (spent + COST(unit_rate(b, u) / 2) > budget) {
				ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has not the "
				    "movement left to reform.", un->name);
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
					ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has no "
					    "disorder it can recover from in its stands "
					    "in command.", un->name);
				else
					ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s has no "
					    "disorder it can recover from.", un->name);
				break;
			}
			spent += COST(unit_rate(b, u) / 2);
			c->moved[u] = 1;
			FOR_STANDS(b, u, s)
				b->stands[s].flags &= ~ST_STATIONARY;
			ev(c, EV_REFORM, u, -1, 0, "%s recovers from disorder "
			    "(half its move).", un->name);
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
				ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot charge "
				    "%s: it is no longer on the table.", un->name,
				    b->units[t].name);
				break;
			}
			if (unit_exhausted(b, u)) {
				ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot charge: "
				    "its brigade is exhausted.", un->name);
				break;
			}
			if (ooc) {
				if (unit_in_command_none(c, u))
					ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot "
					    "charge: it is out of command.", un->name);
				else
					ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot "
					    "charge: part of it is out of command.",
					    un->name);
				break;
			}
			if ((unit_form(b, u) == FORM_SKIRMISH &&
			    !(un->abil & ABIL_NA)) || unit_form(b, u) == FORM_ROAD ||
			    un->kind == KIND_ARTILLERY) {
				ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot charge "
				    "in %s.", un->name, un->kind == KIND_ARTILLERY ?
				    "as artillery" : unit_form(b, u) == FORM_ROAD ?
				    "road march" : "skirmish order");
				break;
			}
			/* A charge turns only at the start of the move, then
			 * goes straight at the target. */
			if (c->walked[u]) {
				ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot charge "
				    "after moving: a charge starts the unit's move (it "
				    "may turn first).", un->name);
				break;
			}
			brg = geom_bearing(cen, tc);
			if (abs(geom_turn(unit_facing(b, u), brg)) > 45) {
				/* "A unit engaged in charging an enemy may not
				 * make a second change of facing." */
				if (c->fchanges[u] > 0) {
					ev(c, EV_ORDER_REFUSED, u, -1, t, "%s cannot "
					    "charge %s: it would have to turn a second "
					    "time, which a charger may not.", un->name,
					    b->units[t].name);
					break;
				}
				fc = face_unit(c, u, brg, 1, budget - spent);
				if (fc < 0)
					return;
				spent += fc;
			}
			/* Native Americans form from skirmish order to charge,
			 * for nothing (their morale test comes at contact). */
			if (unit_form(b, u) == FORM_SKIRMISH && (un->abil & ABIL_NA)) {
				int k;

				memcpy(c->saved, &b->stands[un->first_stand],
				    (size_t)un->nstands * sizeof(c->saved[0]));
				FOR_STANDS(b, u, k)
					if (alive(b, k))
						b->stands[k].form = FORM_LINE;
				lay_out_line(b, u, cen, unit_facing(b, u));
				if (!unit_has_room(b, u))
					memcpy(&b->stands[un->first_stand], c->saved,
					    (size_t)un->nstands * sizeof(c->saved[0]));
				unit_active_centre(b, u, &cen);
			}
			c->charge_from[u] = cen;
			r = move_unit(c, u, tc, budget - spent, MOVE_CHARGE, t);
			spent += r.spent;
			if (r.contact) {
				c->charge_target[u] = t;
				ev(c, EV_MOVE, u, t, r.moved, "%s charges %s and makes "
				    "contact.", un->name, b->units[t].name);
			} else {
				report_move(c, u, &r, 1);
				ev(c, EV_ORDER_REFUSED, u, t, 0, "%s's charge on %s "
				    "falls short.", un->name, b->units[t].name);
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
				disorder(c, s, "moved out of command");
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
		next = along(start, dest, total, moved + len);
		h = area_edge_ahead(b, cur, next);
		if (h > 0 && h < len) {
			len = h;
			next = along(start, dest, total, moved + len);
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
			crosses = step_crosses(b, t, cur, next);
			if (!crosses)
				continue;
			if (t->kind == T_RIVER && !crossing_allowed_at(b, cur) &&
			    !crossing_allowed_at(b, next)) {
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

				next = along(start, dest, total, moved + part);
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
			    unit_depth(b, t) / 2 + FX(0.75));
		} else {
			continue;
		}
		if (dest.x < 0 || dest.y < 0 || dest.x > b->width || dest.y > b->depth) {
			events_add(c->ev, EV_ORDER_REFUSED, k->side, -1, -1, 0,
			    "%s cannot ride off the table.", k->name);
			continue;
		}
		d = commander_move(c, k, dest, &budget, &why);
		if (d == 0 && why != NULL) {
			events_add(c->ev, EV_ORDER_REFUSED, k->side, -1, -1, 0,
			    "%s does not move: %s.", k->name, why);
			continue;
		}
		dest = k->pos;
		if (d > 0)
			events_add(c->ev, EV_COMMANDER, k->side, -1, -1, d,
			    "%s rides %s\" to %s,%s%s%s.", k->name, fmt_in(c, 0, d),
			    fmt_in(c, 1, dest.x), fmt_in(c, 2, dest.y),
			    why ? ", stopping: " : "", why ? why : "");
		if (st->verb == V_JOIN && commander_touches(c, o->who,
		    st->target)) {
			k->attached = st->target;
			events_add(c->ev, EV_COMMANDER, k->side, st->target, -1, 0,
			    "%s joins %s and will move with it.", k->name,
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
static void
rally_face(struct ctx *c, int s)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	fx best = -1;
	int v, to = st->facing;

	for (v = 0; v < b->nunits; v++) {
		struct pt pc;

		if (!enemy(b, st->unit, v) || !battle_unit_centre(b, v, &pc) ||
		    !can_see(b, st->pos, pc))
			continue;
		if (best < 0 || geom_dist(st->pos, pc) < best) {
			best = geom_dist(st->pos, pc);
			to = geom_bearing(st->pos, pc);
		}
	}
	if (to == st->facing)
		return;
	st->facing = geom_norm(to);
	ev(c, EV_FACING, st->unit, -1, st->facing, "%s: stand %d turns to face "
	    "%d as it rallies.", b->units[st->unit].name,
	    s - b->units[st->unit].first_stand + 1, st->facing);
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
			struct pt r1[4];

			if (!alive(b, s) || !routed(b, s))
				continue;
			battle_stand_rect(b, s, r1);
			for (i = 0; i < b->ncommanders; i++) {
				const struct commander *k = &b->commanders[i];
				struct pt r2[4];

				/* A unit commander may never rally. */
				if (k->gone || k->rank == RANK_UNIT ||
				    !battle_in_chain(b, i, u))
					continue;
				geom_rect(k->pos, k->facing, FX(1.5), FX(1.5), r2);
				if (geom_rect_dist(r1, r2) <= P(c, "contact")) {
					b->stands[s].flags &= ~ST_DISORDERED;
					ev(c, EV_RALLY, u, -1, s - b->units[u].first_stand + 1,
					    "%s: stand %d rallies to %s (it stays "
					    "permanently disordered).", b->units[u].name,
					    s - b->units[u].first_stand + 1, k->name);
					rally_face(c, s);
					break;
				}
			}
		}
	}
}

/* --- morale ----------------------------------------------------------- */

static int
commander_attached(struct ctx *c, int u)
{
	struct battle *b = c->b;
	int s, i;

	FOR_STANDS(b, u, s) {
		struct pt r1[4];

		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r1);
		for (i = 0; i < b->ncommanders; i++) {
			const struct commander *k = &b->commanders[i];
			struct pt r2[4];

			/* A superior commander: not a unit commander. */
			if (k->gone || k->rank == RANK_UNIT ||
			    !battle_in_chain(b, i, u))
				continue;
			geom_rect(k->pos, k->facing, FX(1.5), FX(1.5), r2);
			if (geom_rect_dist(r1, r2) <= P(c, "contact"))
				return 1;
		}
	}
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
	int u = b->stands[s].unit, sn = s - b->units[u].first_stand + 1;
	int r = roll(c, u, "morale of %s stand %d (%s), needs %d or less%s",
	    b->units[u].name, sn, why, need, need >= 6 ? ": cannot fail" :
	    need <= 0 ? ": cannot pass" : "");

	if (r <= need) {
		ev(c, EV_MORALE_PASS, u, -1, r, "%s: stand %d passes morale "
		    "(%s): rolled %d, needed %d or less.", b->units[u].name, sn,
		    why, r, need);
		return 1;
	}
	ev(c, EV_MORALE_FAIL, u, -1, r, "%s: stand %d fails morale (%s): "
	    "rolled %d, needed %d or less.", b->units[u].name, sn, why, r, need);
	if (!effects)
		return 0;
	if (routed(b, s))
		remove_stand(c, s, "fails morale while routed");
	else if (disordered(b, s))
		rout_stand(c, s, cause, "failed morale while disordered");
	else
		disorder(c, s, "failed morale");
	return 0;
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
static int
across_water(const struct battle *b, struct pt a, struct pt z)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if ((t->kind == T_STREAM || t->kind == T_RIVER) &&
		    step_crosses(b, t, a, z))
			return 1;
	}
	return 0;
}

/* After a breakthrough move of `moved`: poorly trained troops are
 * disordered by it, and so is any stand making a second one. */
static void
breakthrough_moved(struct ctx *c, int u, fx moved, int before)
{
	struct battle *b = c->b;
	int s;

	if (moved <= 0)
		return;
	if ((b->units[u].abil & ABIL_PT) || before > 0)
		FOR_STANDS(b, u, s)
			if (active(b, s))
				disorder(c, s, before > 0 ? "a second breakthrough "
				    "move" : "a poorly trained breakthrough");
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
	translate_unit(b, u, (from.x - at.x) / 2, (from.y - at.y) / 2);
	unit_active_centre(b, u, &at);
	memcpy(c->saved, &b->stands[b->units[u].first_stand],
	    (size_t)b->units[u].nstands * sizeof(c->saved[0]));
	FOR_STANDS(b, u, s)
		if (active(b, s))
			b->stands[s].form = FORM_SKIRMISH;
	lay_out_line(b, u, at, unit_facing(b, u));
	if (!unit_has_room(b, u))
		memcpy(&b->stands[b->units[u].first_stand], c->saved,
		    (size_t)b->units[u].nstands * sizeof(c->saved[0]));
	ev(c, EV_MOVE, u, tgt, 0, "%s will not close with %s: it stops halfway "
	    "and deploys as skirmishers.", b->units[u].name, b->units[tgt].name);
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
					across |= across_water(b, b->stands[s].pos,
					    b->stands[t].pos);
				}
			/* Attacking across a stream (at a ford or bridge too)
			 * whose far bank the enemy holds: disordered.  Across:
			 * the charge crossed it, or it runs between the two. */
			if (touching && (across || c->charge_wet[u]))
				disorder(c, s, "attacking across a defended stream");
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
					remove_stand(c, t, "is ridden down, "
					    "disordered, by horse");
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

			if (battle_unit_centre(b, v, &nc) && can_see(b, ac, nc) &&
			    enemy(b, u, v))
				next = v;
		}
		if (next < 0) {
			struct move_result r = move_unit(c, u, tc, cav_native ?
			    COST(P(c, "native.cavalry-move")) : COST(FX(1000)),
			    MOVE_ADVANCE_INTO, -1);

			breakthrough_moved(c, u, r.moved, moves);
			moves += r.moved > 0;
			if (cav_native)
				FOR_STANDS(b, u, s)
					if (active(b, s))
						disorder(c, s, "riding down Native "
						    "Americans");
			ev(c, EV_BREAKTHROUGH, u, tgt, r.moved, "%s breaks "
			    "through: %s gives way before the melee, and it "
			    "occupies the ground.", b->units[u].name,
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
				const struct unit *un = &b->units[u];

				memcpy(c->saved, &b->stands[un->first_stand],
				    (size_t)un->nstands * sizeof(c->saved[0]));
				FOR_STANDS(b, u, s)
					if (active(b, s)) {
						b->stands[s].pos = geom_rotate(
						    b->stands[s].pos, ac, delta);
						b->stands[s].facing = geom_norm(to);
					}
				if (!unit_has_room(b, u))
					memcpy(&b->stands[un->first_stand], c->saved,
					    (size_t)un->nstands * sizeof(c->saved[0]));
			}
			r = move_unit(c, u, nc, cav_native ?
			    COST(P(c, "native.cavalry-move")) :
			    COST(unit_rate(b, u) / 2), MOVE_CHARGE, next);
			ev(c, EV_BREAKTHROUGH, u, next, r.moved, "%s breaks "
			    "through: %s gives way before the melee, and it "
			    "charges %s.", b->units[u].name, b->units[tgt].name,
			    b->units[next].name);
			breakthrough_moved(c, u, r.moved, moves);
			moves += r.moved > 0;
			if (cav_native)
				FOR_STANDS(b, u, s)
					if (active(b, s))
						disorder(c, s, "riding down Native "
						    "Americans");
			cav_native = 0;
			if (!r.contact) {
				ev(c, EV_ORDER_REFUSED, u, next, 0, "%s's charge on "
				    "%s falls short.", b->units[u].name,
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

static void
phase_morale(struct ctx *c)
{
	struct battle *b = c->b;
	int i, u, s, side_pass;

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
	for (side_pass = 0; side_pass < 2; side_pass++) {
		for (u = 0; u < b->nunits; u++) {
			int mine = b->units[u].side == c->side;

			if (mine != (side_pass == 0))
				continue;
			FOR_STANDS(b, u, s) {
				int g, v, tested = 0;

				if (!alive(b, s) || c->mark[s])
					continue;
				for (v = 0; v < b->nunits && !tested; v++) {
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

/* Range band from stand f to stand t: 1 short, 2 long, 0 out of range,
 * out of arc or out of sight. */
static int
fire_band(struct ctx *c, int f, int t)
{
	struct battle *b = c->b;
	const struct unit *u = &b->units[b->stands[f].unit];
	char name[48];
	fx gap;
	int brg;

	if (!alive(b, t))
		return 0;
	brg = geom_bearing(b->stands[f].pos, b->stands[t].pos);
	if (abs(geom_turn(b->stands[f].facing, brg)) > P(c, "arc"))
		return 0;
	if (!can_see(b, b->stands[f].pos, b->stands[t].pos))
		return 0;
	gap = stand_gap(b, f, t);
	snprintf(name, sizeof(name), "range.%s.short", battle_weapon_name(u->weapon));
	if (gap <= P(c, name))
		return 1;
	snprintf(name, sizeof(name), "range.%s.long", battle_weapon_name(u->weapon));
	if (gap <= P(c, name))
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
		int r = roll(c, u, "%s of %s stand %d at %s, hits on %d or more",
		    melee ? "melee" : "fire", un->name,
		    f - un->first_stand + 1, b->units[b->stands[target].unit].name,
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
		const char *why[6];
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
		for (k = 0; k < n && !x->saved; k++) {
			int r = roll(c, t->unit, "save for %s stand %d (%s), saves "
			    "on %d or more", tu->name, x->target - tu->first_stand + 1,
			    why[k], need);

			if (r >= need) {
				x->saved = 1;
				ev(c, EV_SAVE, t->unit, -1, r, "%s: stand %d saves a "
				    "hit (%s, rolled %d).", tu->name,
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
		ev(c, EV_HIT, u, b->stands[x->source].unit, 1, "%s: stand %d is "
		    "hit by %s.", b->units[u].name,
		    x->target - b->units[u].first_stand + 1,
		    b->units[b->stands[x->source].unit].name);
		lose_sp(c, x->target, 1, x->melee ? "melee" : "fire");
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
	FOR_STANDS(b, u, s) {
		int band = 0, pick;

		if (!firers[s] || !can_fire(b, s))
			continue;
		pick = fire_pick(c, s, t, &band);
		if (pick < 0)
			continue;
		if (band == 1)
			band_name = "short";
		roll_attack(c, s, pick, 0, band, 1, h, &dice, &hits);
	}
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
	FOR_STANDS(b, t, s) {
		int band = 0, pick;

		if (!mark[s] || !can_fire(b, s))
			continue;
		pick = fire_pick(c, s, u, &band);
		if (pick < 0)
			continue;
		roll_attack(c, s, pick, 0, band, 0, h, &rdice, &rhits);
	}
	ret_end = h->n;
	ev(c, EV_FIRE, u, t, hits, "%s fires at %s (%s range): %d %s, %d %s.",
	    b->units[u].name, b->units[t].name, band_name, dice,
	    dice == 1 ? "die" : "dice", hits, hits == 1 ? "hit" : "hits");
	if (rdice > 0)
		ev(c, EV_FIRE, t, u, rhits, "%s returns fire on %s: %d %s, %d %s.",
		    b->units[t].name, b->units[u].name, rdice, rdice == 1 ? "die" :
		    "dice", rhits, rhits == 1 ? "hit" : "hits");
	roll_saves(c, h, 0, out_end);
	roll_saves(c, h, out_end, ret_end);
	on_t = apply_hits(c, h, 0, out_end);
	on_u = apply_hits(c, h, out_end, ret_end);
	(void)on_t;
	(void)on_u;
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
		push_stand(c, s, geom_bearing(b->stands[from].pos,
		    b->stands[s].pos), P(c, "retire.per-hit") * n, 0, 0);
		ev(c, EV_RETREAT, t, u, n, "%s: stand %d retires %s\" from the "
		    "fire (%d %s).", b->units[t].name, s - b->units[t].first_stand + 1,
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
	int v, band, best = -1, t0;
	fx bestg = INT32_MAX;

	if (chosen >= 0 && (t0 = fire_pick(c, s, chosen, &band)) >= 0) {
		/* Firing lanes: small arms must fire at skirmishers nearer
		 * than their target; guns may fire past them. */
		enum weapon w = b->units[b->stands[s].unit].weapon;
		fx g0 = stand_gap(b, s, t0);

		if (w != WEAPON_MUSKET && w != WEAPON_RIFLE && w != WEAPON_NATIVE)
			return chosen;
		for (v = 0; v < b->nunits; v++) {
			int t;

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
	for (v = 0; v < b->nunits; v++) {
		int t;

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
static void
unit_fires(struct ctx *c, int u)
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
			ev(c, EV_ORDER_REFUSED, u, chosen, 0, "%s cannot fire at "
			    "%s: skirmishers in front of it draw its fire.",
			    b->units[u].name, b->units[chosen].name);
		else
			ev(c, EV_ORDER_REFUSED, u, chosen, 0, "%s cannot fire at "
			    "%s: %s.", b->units[u].name, b->units[chosen].name,
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
			push_stand(c, s, geom_bearing(from, b->stands[s].pos),
			    unit_rate(b, u), 1, 0);
			if (alive(b, s))
				remove_stand(c, s, "loses a melee while routed");
		} else if (disordered(b, s)) {
			rout_stand(c, s, from, "lost a melee while disordered");
		} else {
			disorder(c, s, "lost the melee");
			/* Guns emplaced in works are abandoned; elsewhere the
			 * crews take them along. */
			if (b->units[u].kind == KIND_ARTILLERY &&
			    in_works(b, b->stands[s].pos) &&
			    !(b->stands[s].flags & ST_GUNS_LOST)) {
				b->stands[s].flags |= ST_GUNS_LOST;
				ev(c, EV_RETREAT, u, winner, 0, "%s: stand %d abandons "
				    "its guns in the works.", b->units[u].name,
				    s - b->units[u].first_stand + 1);
			}
			push_stand(c, s, geom_bearing(from, b->stands[s].pos),
			    unit_rate(b, u) / 2, 0, 0);
			ev(c, EV_RETREAT, u, winner, 0, "%s: stand %d falls back "
			    "%s\".", b->units[u].name, s - b->units[u].first_stand + 1,
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
static void
winner_advances(struct ctx *c, int w, int l, struct pt lc, int stay)
{
	struct battle *b = c->b;
	struct pt wc, pc;
	int v, to = -1;
	fx best = -1;

	if (!unit_active_centre(b, w, &wc))
		return;
	if (!stay) {
		struct move_result r = move_unit(c, w, lc, COST(FX(1000)),
		    MOVE_ADVANCE_INTO, -1);

		if (r.moved > 0)
			ev(c, EV_MOVE, w, l, r.moved, "%s advances %s\" into the "
			    "ground %s held.", b->units[w].name, fmt_in(c, 0,
			    r.moved), b->units[l].name);
		unit_active_centre(b, w, &wc);
	}
	for (v = 0; v < b->nunits; v++) {
		if (!enemy(b, w, v) || !battle_unit_centre(b, v, &pc) ||
		    !can_see(b, wc, pc))
			continue;
		if (best < 0 || geom_dist(wc, pc) < best) {
			best = geom_dist(wc, pc);
			to = geom_bearing(wc, pc);
		}
	}
	if (to >= 0 && abs(geom_turn(unit_facing(b, w), to)) >
	    P(c, "arc")) {
		int s, delta = geom_turn(unit_facing(b, w), to);
		const struct unit *wu = &b->units[w];

		memcpy(c->saved, &b->stands[wu->first_stand],
		    (size_t)wu->nstands * sizeof(c->saved[0]));
		FOR_STANDS(b, w, s)
			if (active(b, s)) {
				b->stands[s].pos = geom_rotate(b->stands[s].pos, wc,
				    delta);
				b->stands[s].facing = geom_norm(to);
			}
		if (!unit_has_room(b, w)) {
			memcpy(&b->stands[wu->first_stand], c->saved,
			    (size_t)wu->nstands * sizeof(c->saved[0]));
		} else {
			ev(c, EV_FACING, w, -1, geom_norm(to), "%s turns to face "
			    "%d after the melee.", b->units[w].name, geom_norm(to));
		}
	}
}

static void
melee(struct ctx *c, int a, int t)
{
	struct battle *b = c->b;
	struct hits *h = &c->hits;
	int *att = c->att, *def = c->def, na = 0, nd = 0, i, j, s;
	int adice = 0, ahits = 0, ddice = 0, dhits = 0, a_end, d_end;
	int on_def, on_att, winner, loser, def_gone = 1, att_gone = 1;
	struct pt ac, tc;

	h->n = 0;
	FOR_STANDS(b, a, s) {
		int k;

		if (!active(b, s))
			continue;
		FOR_STANDS(b, t, k)
			if (alive(b, k) && in_contact(c, s, k)) {
				att[na++] = s;
				break;
			}
	}
	FOR_STANDS(b, t, s) {
		if (!alive(b, s))
			continue;
		for (i = 0; i < na; i++)
			if (in_contact(c, att[i], s)) {
				def[nd++] = s;
				break;
			}
	}
	if (na == 0 || nd == 0) {
		ev(c, EV_ORDER_REFUSED, a, t, 0, "%s is no longer in contact "
		    "with %s: no melee.", b->units[a].name, b->units[t].name);
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
		ev(c, EV_MELEE_LOST, a, t, on_att, "%s and %s destroy each other "
		    "in the melee (hits scored %d to %d): neither side wins.",
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
			ra = roll(c, a, "melee tie roll-off for %s (+%d)",
			    b->units[a].name, am);
			rd = roll(c, t, "melee tie roll-off for %s (+%d)",
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
	ev(c, EV_MELEE_WON, winner, loser, winner == a ? on_def : on_att,
	    "%s wins the melee with %s (hits scored %d to %d%s).",
	    b->units[winner].name, b->units[loser].name,
	    winner == a ? on_def : on_att, winner == a ? on_att : on_def,
	    on_def == on_att ? ", won on the roll-off" : "");
	ev(c, EV_MELEE_LOST, loser, winner, winner == a ? on_att : on_def,
	    "%s loses the melee with %s.", b->units[loser].name,
	    b->units[winner].name);
	if (loser == t) {
		retreat_unit_stands(c, def, nd, ac, a);
		winner_advances(c, a, t, tc, c->stay[a]);
	} else {
		retreat_unit_stands(c, att, na, tc, t);
		/* Defending cavalry that wins has the attacker's options. */
		if (b->units[t].kind == KIND_MOUNTED &&
		    unit_form(b, t) != FORM_DISMOUNTED)
			winner_advances(c, t, a, ac, 0);
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

static void
check_exhaustion(struct ctx *c)
{
	struct battle *b = c->b;
	int br, u, s;

	update_losses(b);
	for (br = 0; br < b->nbrigades; br++) {
		struct brigade *g = &b->brigades[br];

		if (!(g->flags & BR_EXHAUSTED) && g->lost * 10 >= g->level10) {
			g->flags |= BR_EXHAUSTED;
			events_add(c->ev, EV_EXHAUSTED, g->side, -1, -1, g->lost,
			    "%s is exhausted: it has lost %d SP of %d (level "
			    "%d.%d).", g->name, g->lost, g->sp0, g->level10 / 10,
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
			melee(c, u, c->charge_target[u]);
			continue;
		}
		if (b->units[u].side != c->side || battle_unit_alive(b, u) == 0)
			continue;
		unit_fires(c, u);
	}
	check_exhaustion(c);
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
		r = dice_roll(c->d, 6, -1, "morale collapse of %s: collapses on "
		    "%d or less", g->name, g->hits);
		if (r > g->hits) {
			events_add(c->ev, EV_MORALE_PASS, g->side, -1, -1, r,
			    "%s holds together (rolled %d, more than its %d %s).",
			    g->name, r, g->hits, g->hits == 1 ? "hit" : "hits");
			continue;
		}
		g->flags |= BR_COLLAPSED;
		events_add(c->ev, EV_COLLAPSE, g->side, -1, -1, r, "%s suffers a "
		    "morale collapse (rolled %d, not more than its %d %s).",
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
					remove_stand(c, s, "was routed when its "
					    "brigade collapsed");
				else if (c->mark[s] == COLLAPSE_PERMANENT)
					b->stands[s].flags |= ST_PERMANENT;
		}
		for (u = 0; u < b->nunits; u++) {
			if (b->units[u].brigade != br)
				continue;
			FOR_STANDS(b, u, s)
				if (c->mark[s] == COLLAPSE_ROUT)
					rout_stand(c, s, away[u], "brigade collapse");
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
			ev(c, EV_ORDER_REFUSED, u, -1, 0, "%s holds but cannot go "
			    "stationary (it must be infantry or guns, in command, "
			    "out of forest, thicket and swamp, and its brigade not "
			    "exhausted).", un->name);
			continue;
		}
		FOR_STANDS(b, u, s)
			if (can[s - un->first_stand])
				b->stands[s].flags |= ST_STATIONARY;
		if (n == of)
			ev(c, EV_STATIONARY, u, -1, 0, "%s is stationary.", un->name);
		else
			ev(c, EV_STATIONARY, u, -1, n, "%s is stationary with %d of "
			    "its %d stands (the others are out of command or in "
			    "forest, thicket or swamp).", un->name, n, of);
	}
}

int
vnb_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *evs, struct err *e)
{
	struct ctx *c = calloc(1, sizeof(*c));
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
	c->rs = &ruleset_vnb_wing;
	c->d = d;
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
	events_add(evs, EV_PHASE, side, -1, -1, c->turn, "Turn %d, the %s phase "
	    "(%02d:%02d): %s.", c->turn, b->sides[side].id, clock / 60 % 24,
	    clock % 60, b->sides[side].name);
	/* Unit order: order lines first, then scenario order, phasing side
	 * first. */
	for (i = 0; mine != NULL && i < mine->n; i++)
		if (!mine->orders[i].is_commander && !ranked[mine->orders[i].who]) {
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
	phase_command(c);
	find_riders(c, mine);
	for (i = 0; mine != NULL && i < mine->n; i++) {
		if (mine->orders[i].is_commander)
			do_commander_order(c, &mine->orders[i]);
		else
			do_unit_order(c, &mine->orders[i]);
	}
	phase_stationary(c);
	phase_rally(c);
	phase_morale(c);
	phase_combat(c);
	phase_collapse(c);
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
			if (ruleset_param(rs, b, sn) > ruleset_param(rs, b, ln))
				return err_set(e, ERR_USER, "%s is longer than %s: set "
				    "them so that short range ends before long range "
				    "does", sn, ln);
		}
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
	if (prepare_detachments(b, e) != 0)
		return -1;
	battle_sync_kinds(b);
	return 0;
}
