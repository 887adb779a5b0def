/*
 * vnb_wing_move.c - moving a unit: the ground it crosses and what that
 * costs (terrain areas, lines, marsh, fences, buildings), closing on the
 * enemy and on friends, turning to face, and the move's report
 * (docs/rules-vnb-wing.md, Movement and Terrain).  vnb_wing.c carries out
 * a unit's orders with these.
 */
#include "rules/vnb_wing_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Smallest gap between unit u's active stands and any alive enemy stand
 * (or only those of unit `only` when only >= 0), when it is bound or
 * less; when it is more, the gap or bound + 1, no more than the gap
 * (INT32_MAX when no enemy stand is left at all).  bound INT32_MAX: the
 * gap.
 *
 * Issue 24: with b->near built, only the units it lists within bound of
 * u are measured (every stand of u is in its box, active or not), and a
 * unit is passed over whole when its box is further than the nearest so
 * far (battle_unit_gap_below's test, for u's active stands); the least
 * of the gaps measured is the least of all within bound, a minimum
 * whatever order it is found in. */
static fx
gap_to_enemy_below(struct ctx *c, int u, int only, fx bound)
{
	struct battle *b = c->b;
	int near[BATTLE_MAX_UNITS];
	fx best = INT32_MAX;
	int i, n = -1, s, v;

	if (bound < INT32_MAX - 1)
		n = battle_units_near(b, u, bound, near);
	for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
		v = n >= 0 ? near[i] : i;
		if (!enemy(b, u, v) || (only >= 0 && v != only))
			continue;
		FOR_STANDS(b, u, s) {
			fx g;

			if (!active(b, s))
				continue;
			/* Pairs past the nearest so far, or past bound,
			 * cannot change the answer. */
			g = battle_gap_to_unit_below(b, s, v, NULL,
			    best != INT32_MAX ? best : n >= 0 ? bound : -1);
			if (g >= 0 && g < best)
				best = g;
		}
	}
	/* Every enemy left out is further than bound (or has no stand), but
	 * may be nearer than the nearest listed: past bound, say only that
	 * (gap_within's memo takes the answer for no more than the gap). */
	if (n >= 0 && best > bound)
		return bound + 1;
	return best;
}


/*
 * A gap measured once and trusted while the unit moves (issue 24).  The
 * unit moves as a block, each stand's footprint shifted by the same whole
 * hundredths, and nothing else moves meanwhile, so the true gap shrinks
 * by at most the distance moved.  geom_rect_dist is within 1.21
 * hundredths of the true gap (the foot of a perpendicular is rounded by
 * at most 0.71, the root by 0.5), and geom_dist within 0.5 of the true
 * distance moved: the gap measured now is at least the one measured at
 * `at`, less the distance from there, less 3.
 */
struct gap_memo {
	int valid;
	fx g;            /* gap_to_enemy when measured */
	struct pt at;    /* where the unit's first active stand stood */
	int first, n;    /* that stand, and how many were active */
};

static int
memo_stands(const struct battle *b, int u, int *first)
{
	int s, n = 0;

	*first = -1;
	FOR_STANDS(b, u, s)
		if (active(b, s)) {
			if (*first < 0)
				*first = s;
			n++;
		}
	return n;
}

/* The gap from u to the enemy (of only), measured again only when it might be below
 * need: the result is the exact gap when it is below need, and when it
 * is need or more the gap is at least need.  With geom_reference on it
 * always measures. */
static fx
gap_within(struct ctx *c, int u, int only, struct gap_memo *m, fx need)
{
	const struct battle *b = c->b;
	int first, n = memo_stands(b, u, &first);

	if (!geom_reference_on() && m->valid && first == m->first &&
	    n == m->n) {
		fx lb;

		if (m->g == INT32_MAX)
			return m->g;
		lb = m->g - geom_dist(m->at, b->stands[first].pos) - 3;
		if (lb >= need) {
			return lb;
		}
	}
	/* Below need exact, else at least need and no more than the gap,
	 * which is all the memo asks.  A few inches past need, so that the
	 * memo holds for a few steps more. */
	m->g = gap_to_enemy_below(c, u, only, need < INT32_MAX - FX(4) ?
	    need - 1 + FX(3) : INT32_MAX);
	m->valid = first >= 0;
	m->first = first;
	m->n = n;
	if (first >= 0)
		m->at = b->stands[first].pos;
	return m->g;
}

/*
 * The friends a moving unit might stand on (issue 24).  Whether it
 * stands on one is asked at every quarter inch of a move, and that went
 * over every stand on the table for each of the unit's stands: about a
 * third of a phase at 1,600 stands when every unit walks.  While unit u
 * moves nothing else does, and its centre goes only to points vw_along
 * gives on the way from start to dest, which lie in the box of the two
 * (the offset it rounds is never more than dest's); so each stand of u
 * stays in the box of where it was and where it would be at dest.
 * vw_stands_overlap never counts a stand more than 12" from s along
 * either axis, so a friend over 12" outside the box of all u's stands'
 * boxes can never be one.  The rest are listed once a move, in table
 * order, and only they are looked at.  With geom_reference on, every
 * friend is listed, as before.
 */
struct near_friends {
	int n;
	int k[BATTLE_MAX_STANDS];
};

static void
near_friends(const struct battle *b, int u, struct pt start, struct pt dest,
    struct near_friends *f)
{
	int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
	int64_t dx = (int64_t)dest.x - start.x, dy = (int64_t)dest.y - start.y;
	int near[BATTLE_MAX_UNITS];
	int64_t ax, ay;
	fx rmax = 0;
	int i, n, s, k, v, ref = geom_reference_on();

	FOR_STANDS(b, u, s) {
		int64_t x = b->stands[s].pos.x, y = b->stands[s].pos.y;

		if (battle_stand_reach(b, s) > rmax)
			rmax = battle_stand_reach(b, s);

		if (x + (dx < 0 ? dx : 0) < x0)
			x0 = x + (dx < 0 ? dx : 0);
		if (x + (dx > 0 ? dx : 0) > x1)
			x1 = x + (dx > 0 ? dx : 0);
		if (y + (dy < 0 ? dy : 0) < y0)
			y0 = y + (dy < 0 ? dy : 0);
		if (y + (dy > 0 ? dy : 0) > y1)
			y1 = y + (dy > 0 ? dy : 0);
	}
	f->n = 0;
	/* With b->near built, only the units it lists within the move and
	 * 12" of u: every stand of one left out is further than that from
	 * each of u's stands along x or y, so more than 12" from anywhere
	 * they go.  Friends are found unit by unit; only whether one is
	 * stood on is asked of the list, so its order does not matter. */
	ax = dx < 0 ? -dx : dx;
	ay = dy < 0 ? -dy : dy;
	n = battle_units_near(b, u, (fx)(ax > ay ? ax : ay) + 1200, near);
	for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
		v = n >= 0 ? near[i] : i;
		if (v == u || b->units[v].side != b->units[u].side)
			continue;
		FOR_STANDS(b, v, k) {
			const struct pt *p = &b->stands[k].pos;
			int64_t gx, gy, lim;

			if (!ref && (p->x < x0 - 1200 || p->x > x1 + 1200 ||
			    p->y < y0 - 1200 || p->y > y1 + 1200))
				continue;
			/* Nor one further from the box along x or y than
			 * the reaches and 2: battle_stands_apart passes it
			 * over in vw_stands_overlap wherever u goes (a
			 * move does not change its stands' reach). */
			gx = p->x < x0 ? x0 - p->x : p->x > x1 ? p->x - x1 : 0;
			gy = p->y < y0 ? y0 - p->y : p->y > y1 ? p->y - y1 : 0;
			lim = (int64_t)rmax + battle_stand_reach(b, k) + 2;
			if (!ref && (gx > lim || gy > lim))
				continue;
			f->k[f->n++] = k;
		}
	}
}

/* 1 if an active stand of unit u overlaps (more than touches) a stand of
 * another unit of its side; u is moving as near_friends was told. */
static int
unit_on_near_friend(const struct battle *b, int u,
    const struct near_friends *f)
{
	int s, i;

	FOR_STANDS(b, u, s) {
		if (!active(b, s))
			continue;
		for (i = 0; i < f->n; i++)
			if (vw_stands_overlap(b, s, f->k[i]))
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
			    vw_can_see(b, from, pc))
				return 1;
		}
	}
	return 0;
}

void
vw_translate_unit(struct battle *b, int u, fx dx, fx dy)
{
	int s;

	FOR_STANDS(b, u, s)
		if (active(b, s)) {
			b->stands[s].pos.x += dx;
			b->stands[s].pos.y += dy;
		}
	battle_unit_moved(b, u);
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

int
vw_crossing_allowed_at(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_FORD) || area_at(b, p, T_BRIDGE);
}

/* 1 if the step a->z crosses line t.  A step crosses a line when it
 * reaches it from off the line: a step that starts on it has paid. */
int
vw_step_crosses(const struct battle *b, const struct terrain *t, struct pt a,
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
		crosses = vw_step_crosses(b, t, a, z);
		if (!crosses)
			continue;
		*what = t->name;
		if (road)
			continue;  /* road march along a road ignores terrain */
		switch (t->kind) {
		case T_RIVER:
		case T_STREAM:
			/* Local Knowledge! makes a stream marshy banked for
			 * the crown's units where its card was played. */
			if ((t->kind == T_RIVER || ((t->marshy ||
			    vw_card_marshy(c, u, z)) && (mounted || guns))) &&
			    !vw_crossing_allowed_at(b, a) &&
			    !vw_crossing_allowed_at(b, z))
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
		r = vw_roll(c, u, VW_R_MARSH_STAND_EFFECT, t->name,
		    b->units[u].name,
		    s - b->units[u].first_stand + 1,
		    b->units[u].kind == KIND_ARTILLERY ? ", +1 guns" : "",
		    t->trodden ? ", +1 crossed before" : "") + plus;
		b->stands[s].flags &= ~(ST_MARSH_X2 | ST_MARSH_X4);
		b->stands[s].flags |= ST_MARSH_ROLLED;
		if (r >= 5) {
			b->stands[s].flags |= ST_MARSH_X4;
			vw_disorder(c, s, "bogged in the marsh");
		} else if (r >= 3) {
			b->stands[s].flags |= ST_MARSH_X2;
		}
		vw_ev(c, EV_MOVE, u, -1, r, VW_M_STAND_GOING, b->units[u].name,
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
			vw_ev(c, EV_MOVE, u, -1, 0, VW_M_KNOCKS_DOWN_CROPS,
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
		r = vw_roll(c, u, VW_R_FENCE_TEST_STAND,
		    un->name, s - un->first_stand + 1,
		    unit_morale(b, u) - ((un->abil & ABIL_PT) ? 1 : 0));
		if (r + ((un->abil & ABIL_PT) ? 1 : 0) >= unit_morale(b, u))
			vw_disorder(c, s, "crossing a fence at the charge");
	}
}


/* The point `at` of the way along a->dest, `total` long. */
struct pt
vw_along(struct pt a, struct pt dest, fx total, fx at)
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
fx
vw_area_edge_ahead(const struct battle *b, struct pt a, struct pt z)
{
	struct pt lo = { a.x < z.x ? a.x : z.x, a.y < z.y ? a.y : z.y };
	struct pt hi = { a.x < z.x ? z.x : a.x, a.y < z.y ? z.y : a.y };
	fx best = -1;
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		/* An edge the step meets has the meeting point in both
		 * boxes. */
		if (t->kind >= T_FIRST_LINE || !battle_ground_meets(b, i, lo, hi))
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

	vw_translate_unit(c->b, u, dx, dy);
	closed_under(c, u, c->closed1);
	vw_translate_unit(c->b, u, -dx, -dy);
	FOR_STANDS(c->b, u, s)
		if (c->closed1[s] && !c->closed0[s])
			worse = 1;
	return worse;
}

/* Moves unit u's active stands as a block, its centre towards dest, for
 * at most `budget` cost units.  See docs/rules-vnb-wing.md, Movement. */
struct move_result
vw_move_unit(struct ctx *c, int u, struct pt dest, long budget,
    enum move_mode mode, int target)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	struct move_result r = { 0, 0, NULL, 0 };
	fx stepmax = P(c, "terrain.step"), contact = P(c, "contact");
	fx stop_short = P(c, "stop-short");
	int road = unit_form(b, u) == FORM_ROAD;
	int ooc = mode != MOVE_ADVANCE_INTO && !vw_unit_in_command(c, u);
	int skirm = unit_form(b, u) == FORM_SKIRMISH;
	struct pt cur, start, clear, pmid;
	fx total, clear_moved = 0, cap = -1;
	long clear_spent = 0;
	int level, clear_ok;
	struct gap_memo to_target = { 0, 0, { 0, 0 }, 0, 0 };
	struct gap_memo to_any = { 0, 0, { 0, 0 }, 0, 0 };
	struct near_friends nf_store, *nf = &nf_store;

	if (!unit_active_centre(b, u, &cur))
		return r;
	near_friends(b, u, cur, dest, nf);
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
	clear_ok = !unit_on_near_friend(b, u, nf);
	total = geom_dist(start, dest);
	level = battle_level_at(b, cur);
	for (;;) {
		fx left = total - r.moved, len, g, h;
		struct pt next, mid;
		long cost;
		int f, cf, dis = 0, nl, on_the_road, ignore, fence = 0, mi;
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
		/* Each gap is measured only when it could shorten the step
		 * (gap_within); the tests are those of measuring every step. */
		if (mode == MOVE_CHARGE) {
			fx gt = gap_within(c, u, target, &to_target,
			    contact + 1 > len ? contact + 1 : len);

			if (gt <= contact) {
				r.contact = 1;
				break;
			}
			if (gt < len)
				len = gt;
			g = gap_within(c, u, -1, &to_any, len + stop_short);
			if (g - stop_short < len)
				gt = gap_within(c, u, target, &to_target, INT32_MAX);
			if (g < gt && g - stop_short < len) {
				if (g <= stop_short) {
					r.stop = "another enemy unit is in the way";
					break;
				}
				len = g - stop_short;
			}
		} else {
			g = gap_within(c, u, -1, &to_any, len + stop_short);
			if (g - stop_short < len) {
				if (g <= stop_short) {
					r.stop = "the enemy is too close to go on";
					break;
				}
				len = g - stop_short;
			}
		}
		next = vw_along(start, dest, total, r.moved + len);
		h = vw_area_edge_ahead(b, cur, next);
		if (h > 0 && h < len) {
			len = h;
			next = vw_along(start, dest, total, r.moved + len);
		}
		/* No stand may go into ground closed to it: the move stops
		 * where the first one would. */
		if (!(road && on_road(b, cur) && on_road(b, next)) &&
		    closes_on(c, u, next.x - cur.x, next.y - cur.y)) {
			fx lo = 0, hi = len;

			while (hi - lo > 1) {
				fx m = (lo + hi) / 2;
				struct pt p = vw_along(start, dest, total, r.moved + m);

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
		/* Local Knowledge: the unit's foot pay nothing extra for rough
		 * ground (which still disorders them, below). */
		cf = f > 1 && vw_card_free_ground(c, u) ? 1 : f;
		if (road)
			cost = on_road(b, cur) && on_road(b, next) ?
			    COST(len) / 3 : COST(len) * cf / 2;
		else
			cost = COST(len) * cf;
		{
			long lc = line_cost(c, u, cur, next, &dis, &what, &fence);

			if (lc < 0) {
				r.stop = "it cannot cross there";
				break;
			}
			cost += lc;
			if (mode == MOVE_CHARGE && vw_across_water(b, cur, next))
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
			long per = road ? 0 : COST(1) * cf;

			if (per > 0 && cost == COST(len) * cf && room >= per) {
				fx part = (fx)(room / per);

				next = vw_along(start, dest, total, r.moved + part);
				vw_translate_unit(b, u, next.x - cur.x, next.y - cur.y);
				if (!unit_on_table(b, u)) {
					vw_translate_unit(b, u, cur.x - next.x, cur.y - next.y);
				} else {
					r.moved += part;
					r.spent += per * part;
					cur = next;
				}
			}
			break;
		}
		vw_translate_unit(b, u, next.x - cur.x, next.y - cur.y);
		if (!unit_on_table(b, u)) {
			vw_translate_unit(b, u, cur.x - next.x, cur.y - next.y);
			r.stop = "it would leave the table";
			break;
		}
		if (block_over(c, u)) {
			vw_translate_unit(b, u, cur.x - next.x, cur.y - next.y);
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
					vw_disorder(c, s, what ? what : "difficult ground");
		}
		cur = next;
		pmid = mid;
		if (!unit_on_near_friend(b, u, nf)) {
			clear = cur;
			clear_moved = r.moved;
			clear_spent = r.spent;
			clear_ok = 1;
		}
	}
	/* Friends may be passed through, but a unit does not end its move
	 * on one: it stops at the last place on its way where it stood
	 * clear (the loader likewise refuses stands that overlap). */
	if (clear_ok && unit_on_near_friend(b, u, nf) && (clear.x != cur.x ||
	    clear.y != cur.y)) {
		vw_translate_unit(b, u, clear.x - cur.x, clear.y - cur.y);
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

fx
vw_unit_depth(const struct battle *b, int u)
{
	fx w, d;

	battle_kind_size(b->units[u].kind, (enum formation)unit_form(b, u), &w, &d);
	return d;
}

/* Turns the unit about its centre to face `to`.  Returns the cost in
 * COST units, or -1 (with an event) if it cannot. */
long
vw_face_unit(struct ctx *c, int u, int to, int charging, long room)
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
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_CANNOT_CHANGE_FACING,
		    un->name);
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
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_NO_MOVEMENT_TO_TURN,
		    un->name,
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
	battle_unit_moved(b, u);
	if (!unit_on_table(b, u)) {
		FOR_STANDS(b, u, s)
			if (active(b, s)) {
				b->stands[s].pos = geom_rotate(b->stands[s].pos, cen, -delta);
				b->stands[s].facing = geom_norm(from);
			}
		battle_unit_moved(b, u);
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_CANNOT_TURN_THERE,
		    un->name);
		return -1;
	}
	if (bonus)
		c->free_turn[u] = 0;
	else
		c->fchanges[u]++;
	/* Only a free facing change in command leaves a unit unmoved (so
	 * it may still be or go stationary); any other counts as moving. */
	if (cost > 0 || !vw_unit_in_command(c, u)) {
		c->moved[u] = 1;
		FOR_STANDS(b, u, s)
			b->stands[s].flags &= ~ST_STATIONARY;
	}
	vw_ev(c, EV_FACING, u, -1, geom_norm(to), VW_M_TURNS_TO_FACE,
	    un->name, geom_norm(to), cost > 0 ? " (half its move)" : "");
	return cost;
}

void
vw_report_move(struct ctx *c, int u, struct move_result *r, fx asked)
{
	struct battle *b = c->b;
	struct pt cen;

	if (!unit_active_centre(b, u, &cen))
		return;
	if (r->moved > 0 && r->stop != NULL)
		vw_ev(c, EV_MOVE, u, -1, r->moved, VW_M_MOVES_STOPPING,
		    b->units[u].name, fmt_in(c, 0, r->moved), fmt_in(c, 1, cen.x),
		    fmt_in(c, 2, cen.y), r->stop);
	else if (r->moved > 0)
		vw_ev(c, EV_MOVE, u, -1, r->moved, VW_M_MOVES,
		    b->units[u].name, fmt_in(c, 0, r->moved), fmt_in(c, 1, cen.x),
		    fmt_in(c, 2, cen.y));
	else if (r->stop)
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_DOES_NOT_MOVE,
		    b->units[u].name, r->stop);
	else if (asked > 0)
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_NO_MOVEMENT_LEFT,
		    b->units[u].name);
}


int
vw_unit_in_enemy_contact(struct ctx *c, int u)
{
	fx contact = P(c, "contact");

	return gap_to_enemy_below(c, u, -1, contact) <= contact;
}

/* Unit u takes formation `want` (FORM_LINE, FORM_SKIRMISH, FORM_ROAD or
 * FORM_DETACHMENTS), out of `room`.  Returns the cost in COST units, or
 * -1 (with an event) if it cannot.  See docs/rules-vnb-wing.md,
 * Formations. */
