/*
 * vnb_wing_sight.c - line of sight for the vnb-wing adjudicator
 * (docs/rules-vnb-wing.md, Line of sight).  Pure, as the rest of it.
 */
#include "rules/vnb_wing_int.h"

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

/*
 * The ground a line of sight from a to z can meet (issue 24): the areas
 * and lines whose box, widened by 4 hundredths, meets the box of the
 * segment.  Every point the sight judges lies in the segment's box: the
 * points along it (rounded between its ends), its ends, and the crest of
 * a hill, the middle of two crossings of the hill's edges (so in the
 * hill's box, within 3 hundredths of rounding) taken only between the
 * ends; a tree line it crosses has a point in it.  Ground further off
 * holds none of them, so leaving it out leaves every test as it was, in
 * the same order.  With geom_reference on, the list is all the ground.
 */
struct near_ground {
	int n;
	int idx[BATTLE_MAX_TERRAIN];
};

static void
ground_near(const struct battle *b, struct pt a, struct pt z,
    struct near_ground *ng)
{
	fx x0 = (a.x < z.x ? a.x : z.x) - 4, x1 = (a.x < z.x ? z.x : a.x) + 4;
	fx y0 = (a.y < z.y ? a.y : z.y) - 4, y1 = (a.y < z.y ? z.y : a.y) + 4;
	int i, j, ref = geom_reference_on(), ix = battle_ground_indexed(b);
	struct pt lo = { x0, y0 }, hi = { x1, y1 };

	ng->n = 0;
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		const struct pt *pg = &b->points[t->first_pt];
		fx tx0, tx1, ty0, ty1;

		/* The boxes of the step's index when it is built, else
		 * reckoned here (a report's sight). */
		if (ix) {
			if (!battle_ground_meets(b, i, lo, hi))
				continue;
		} else if (!ref && t->npts > 0) {
			tx0 = tx1 = pg[0].x;
			ty0 = ty1 = pg[0].y;
			for (j = 1; j < t->npts; j++) {
				if (pg[j].x < tx0)
					tx0 = pg[j].x;
				if (pg[j].x > tx1)
					tx1 = pg[j].x;
				if (pg[j].y < ty0)
					ty0 = pg[j].y;
				if (pg[j].y > ty1)
					ty1 = pg[j].y;
			}
			if (tx1 < x0 || tx0 > x1 || ty1 < y0 || ty0 > y1)
				continue;
		}
		ng->idx[ng->n++] = i;
	}
}

/* battle_level_at, for a point in the box ground_near was given. */
static int
level_near(const struct battle *b, const struct near_ground *ng, struct pt p)
{
	int i, level = 0;

	for (i = 0; i < ng->n; i++) {
		const struct terrain *t = &b->terrain[ng->idx[i]];

		if (t->kind == T_HILL && t->level > level &&
		    geom_in_poly(p, &b->points[t->first_pt], t->npts))
			level = t->level;
	}
	return level;
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
crest_blocks(const struct battle *b, const struct near_ground *ng, struct pt a,
    int ha, struct pt z, int hz, fx len, fx end)
{
	int i, j, k;

	for (i = 0; i < ng->n; i++) {
		const struct terrain *t = &b->terrain[ng->idx[i]];
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

int
vw_can_see(const struct battle *b, struct pt a, struct pt z)
{
	struct near_ground ng;
	fx len = geom_dist(a, z);
	int la, lz, ha, hz, top;
	fx t, end = ruleset_param(&ruleset_vnb_wing, b, "los.end");
	fx step = ruleset_param(&ruleset_vnb_wing, b, "los.step");
	int cover = 2 * ruleset_param(&ruleset_vnb_wing, b, "los.cover-height");
	int i;

	ground_near(b, a, z, &ng);
	la = level_near(b, &ng, a);
	lz = level_near(b, &ng, z);
	ha = 2 * la;
	hz = 2 * lz;
	top = la > lz ? la : lz;
	if (crest_blocks(b, &ng, a, ha, z, hz, len, end))
		return 0;
	/* Tree lines crossed away from both ends. */
	for (i = 0; i < ng.n; i++) {
		const struct terrain *tr = &b->terrain[ng.idx[i]];
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
		g = level_near(b, &ng, p);
		for (i = 0; i < ng.n; i++) {
			const struct terrain *tr = &b->terrain[ng.idx[i]];
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
			    vw_can_see(b, b->stands[k].pos, t->pos))
				seen[s] = 1;
		for (c = 0; c < b->ncommanders && !seen[s]; c++)
			if (b->commanders[c].side == side && !b->commanders[c].gone &&
			    !b->commanders[c].out_removed &&
			    vw_can_see(b, b->commanders[c].pos, t->pos))
				seen[s] = 1;
	}
}
