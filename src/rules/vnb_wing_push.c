/*
 * vnb_wing_push.c - stands pushed and routed through others: the
 * overlap test, a push or rout's path checked against the friends it
 * passes through (who rout ahead or fall back in turn), and the rout of
 * one stand (docs/rules-vnb-wing.md, Routs and Melee).  Split from
 * vnb_wing.c along the rules' own seam: what moving one stand does to
 * the stands around it.
 */
#include "rules/vnb_wing_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rout_stand_d(struct ctx *c, int s, struct pt from, const char *why,
    int depth);

static fx
unit_speed_half(const struct battle *b, int s)
{
	return b->units[b->stands[s].unit].speed / 2;
}

void vw_push_stand(struct ctx *c, int s, int dir, fx len, int is_rout,
    int depth);

/* 1 if stand s overlaps another stand on the table (touching is not
 * overlapping: the test shrinks both by 0.05"). */
/* 1 if stands s and k (k still on the table) overlap: more than touch,
 * with a 0.05" margin each side, as the loader judges. */
int
vw_stands_overlap(const struct battle *b, int s, int k)
{
	struct pt r1[4], r2[4];

	if ((b->stands[k].flags & ST_GONE) ||
	    abs(b->stands[k].pos.x - b->stands[s].pos.x) > 1200 ||
	    abs(b->stands[k].pos.y - b->stands[s].pos.y) > 1200)
		return 0;
	/* Issue 24: the inset ground lies within the reach of the stand's
	 * position too, so stands certainly apart cannot overlap. */
	if (!geom_reference_on() && battle_stands_apart(b, s, k, 0))
		return 0;
	battle_stand_rect_inset(b, s, 5, r1);
	battle_stand_rect_inset(b, k, 5, r2);
	return geom_rect_dist(r1, r2) == 0;
}

/* 1 if stand s overlaps any other stand.  Issue 24: with b->near built,
 * only its own unit and the units listed within 0 of it are looked at:
 * a unit left out has every stand further from s along x or y than both
 * reaches and 2, so battle_stands_apart(..., 0) passes each over in
 * vw_stands_overlap anyway. */
static int
overlaps_any(const struct battle *b, int s)
{
	int near[BATTLE_MAX_UNITS];
	int u = b->stands[s].unit, i, k, n;

	n = battle_units_near(b, u, 0, near);
	if (n < 0) {
		for (k = 0; k < b->nstands; k++)
			if (k != s && vw_stands_overlap(b, s, k))
				return 1;
		return 0;
	}
	FOR_STANDS(b, u, k)
		if (k != s && vw_stands_overlap(b, s, k))
			return 1;
	for (i = 0; i < n; i++)
		FOR_STANDS(b, near[i], k)
			if (vw_stands_overlap(b, s, k))
				return 1;
	return 0;
}

/* Issue 24: 1 if no footprint of stand s (reach about its centre) moving
 * up to `early` along dir can meet stand k's ground.  The centre stays in
 * the box of its start and end (geom_offset rounds by under 1 each way);
 * k's ground lies within its reach of its position; and geom_rect_dist
 * falls short of the true gap by under 2. */
static int
sweep_misses(const struct battle *b, int s, int dir, fx early, fx reach,
    int k)
{
	struct pt p = b->stands[s].pos, e = geom_offset(p, dir, early);
	const struct pt *q = &b->stands[k].pos;
	int64_t x0 = (p.x < e.x ? p.x : e.x) - 1, x1 = (p.x < e.x ? e.x : p.x) + 1;
	int64_t y0 = (p.y < e.y ? p.y : e.y) - 1, y1 = (p.y < e.y ? e.y : p.y) + 1;
	int64_t gx = q->x < x0 ? x0 - q->x : q->x > x1 ? q->x - x1 : 0;
	int64_t gy = q->y < y0 ? y0 - q->y : q->y > y1 ? q->y - y1 : 0;

	return (gx > gy ? gx : gy) - reach - battle_stand_reach(b, k) - 2 > 0;
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
	fx w, d, step = P(c, "terrain.step"), t, reach;
	int near[BATTLE_MAX_UNITS];
	int i, n, v, k, pushed;

	/* Each stand a chain of routs reaches changes state for good (good
	 * order, disordered, routed, removed), so the chain ends by itself;
	 * the bound only keeps the stack small. */
	if (depth > 16)
		return;
	battle_stand_size(b, s, &w, &d);
	/* As battle_stand_reach, for the bare base geom_rect lays here. */
	reach = (w + d) / 2 + 3;
	/*
	 * Issue 24: with b->near built, only the units it lists within
	 * early + reach + 3 of s's unit, in the same ascending order.  Each
	 * stand of one left out is further along x or y from s than that,
	 * its own reach and 2, and the box sweep_misses takes lies within
	 * early + 2 of s: sweep_misses passes each over anyway.  A stand
	 * routed or pushed on moves stands (s's and others, through their
	 * own passes), so the list is fetched again after it, for the units
	 * after this one.
	 */
	n = battle_units_near(b, st->unit, early + reach + 3, near);
	for (i = 0; i < (n >= 0 ? n : b->nunits); i++) {
		v = n >= 0 ? near[i] : i;
		if (v == st->unit || b->units[v].side != b->units[st->unit].side)
			continue;
		pushed = 0;
		/* A collapsing brigade's stands took their effect all at
		 * once: its routers do not change it for one another. */
		if (c->collapsing >= 0 && b->units[v].brigade == c->collapsing)
			continue;
		FOR_STANDS(b, v, k) {
			struct pt rk[4], rs[4];
			int hit = 0;

			if (!alive(b, k))
				continue;
			if (!geom_reference_on() && early >= step &&
			    sweep_misses(b, s, dir, early, reach, k))
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
				vw_disorder(c, k, is_rout ? "a routing stand passed through it" :
				    "a retreating stand passed through it");
			} else if (c->w->pass_disorders_only) {
				continue;
			} else if (is_rout) {
				rout_stand_d(c, k, st->pos, "routed ahead of a routing "
				    "stand", depth + 1);
				pushed = 1;
			} else {
				vw_push_stand(c, k, dir, unit_speed_half(b, k), 0,
				    depth + 1);
				vw_ev(c, EV_RETREAT, v, -1, 0,
				    VW_M_STAND_FALLS_BACK_AHEAD,
				    b->units[v].name,
				    k - b->units[v].first_stand + 1);
				pushed = 1;
			}
		}
		if (pushed && n >= 0) {
			n = battle_units_near(b, st->unit, early + reach + 3,
			    near);
			/* Go on from the first unit after v. */
			if (n < 0)
				i = v;
			else {
				for (i = 0; i < n && near[i] <= v; i++)
					continue;
				i--;
			}
		}
	}
}

/* Moves one stand straight along bearing `dir` by `len`, ignoring terrain
 * (routs and retreats), disordering friends it passes through early in
 * the move.  A stand pushed off the table is removed when routing, and
 * stops at the edge otherwise. */
void
vw_push_stand(struct ctx *c, int s, int dir, fx len, int is_rout, int depth)
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
		vw_remove_stand(c, s, VW_GONE_ROUTS_OFF);
		return;
	}
	st->pos = np;
	battle_unit_moved(b, st->unit);
	/* It may pass through other stands but not stop on one: it goes on
	 * (up to another 6") until it stands clear. */
	{
		fx extra = 0;

		while (extra < P(c, "rout.overshoot") && overlaps_any(b, s)) {
			st->pos = geom_offset(st->pos, dir, P(c, "terrain.step"));
			battle_unit_moved(b, st->unit);
			extra += P(c, "terrain.step");
		}
		if (is_rout && (st->pos.x < 0 || st->pos.y < 0 ||
		    st->pos.x > b->width || st->pos.y > b->depth)) {
			vw_remove_stand(c, s, VW_GONE_ROUTS_OFF);
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
		battle_unit_moved(b, st->unit);
	}
}



/* The text's rout: both markers, 1 SP lost, a full move straight away
 * from what caused it.  A stand already routed is removed instead. */
static void
rout_stand_dir(struct ctx *c, int s, int dir, const char *why, int depth)
{
	struct battle *b = c->b;
	struct stand *st = &b->stands[s];
	int u = st->unit;

	if (!alive(b, s))
		return;
	if (routed(b, s)) {
		vw_remove_stand(c, s, VW_GONE_ROUTS_AGAIN);
		return;
	}
	st->flags |= ST_ROUTED;
	st->flags &= ~ST_STATIONARY;
	c->routed_now[u] = 1;
	vw_ev(c, EV_ROUT, u, -1, s - b->units[u].first_stand + 1,
	    VW_M_STAND_ROUTS, b->units[u].name,
	    s - b->units[u].first_stand + 1, why);
	if (b->units[u].kind == KIND_ARTILLERY && !(st->flags & ST_GUNS_LOST)) {
		st->flags |= ST_GUNS_LOST;
		vw_ev(c, EV_ROUT, u, -1, 0, VW_M_CREW_ABANDON_GUNS,
		    b->units[u].name);
	}
	vw_lose_sp(c, s, P(c, "rout.sp-loss"), "rout");
	if (!alive(b, s))
		return;
	vw_push_stand(c, s, dir, unit_rate(b, u), 1, depth);
}

static void
rout_stand_d(struct ctx *c, int s, struct pt from, const char *why, int depth)
{
	rout_stand_dir(c, s, geom_bearing(from, c->b->stands[s].pos), why, depth);
}

void
vw_rout_stand(struct ctx *c, int s, struct pt from, const char *why)
{
	rout_stand_d(c, s, from, why, 0);
}

void
vw_rout_stand_dir(struct ctx *c, int s, int dir, const char *why)
{
	rout_stand_dir(c, s, dir, why, 0);
}
