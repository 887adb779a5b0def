/*
 * battle.c - helpers over the battle state (see battle.h).
 */
#include "core/battle.h"
#include "core/ruleset.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* b->near files units in a grid by their index. */
_Static_assert(GRID_MAX_ITEMS >= BATTLE_MAX_UNITS,
    "the unit grid has room for every unit");

struct battle *
battle_new(void)
{
	return calloc(1, sizeof(struct battle));
}

void
battle_free(struct battle *b)
{
	free(b);
}

int
battle_side(const struct battle *b, const char *id)
{
	int i;

	for (i = 0; i < b->nsides; i++)
		if (strcasecmp(b->sides[i].id, id) == 0)
			return i;
	return -1;
}

int
battle_deploy_steps(const struct battle *b)
{
	return b->nzones > 0;
}

int
battle_step_deploys(const struct battle *b, int step)
{
	return b->nzones > 0 && step == 1;
}

int
battle_steps(const struct battle *b)
{
	return battle_deploy_steps(b) + (b->sequence == SEQ_ALTERNATE ?
	    b->turns * b->nsides : b->turns);
}

int
battle_step_turn(const struct battle *b, int step)
{
	if (battle_step_deploys(b, step))
		return 0;
	step -= battle_deploy_steps(b);
	if (b->sequence == SEQ_ALTERNATE)
		return (step - 1) / b->nsides + 1;
	return step;
}

/* The order the sides play turn t in: the ruleset's, where it decides
 * it as the battle goes and has for t, else the scenario's.  An order
 * that is not each side once is a programming error of the ruleset's,
 * and the scenario's stands. */
static const int *
turn_order(const struct battle *b, int t, int *order)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	unsigned seen = 0;
	int i;

	if (rs == NULL || rs->turn_order == NULL ||
	    rs->turn_order(b, t, order) != 0)
		return b->side_order;
	for (i = 0; i < b->nsides; i++) {
		if (order[i] < 0 || order[i] >= b->nsides ||
		    (seen & (1u << order[i])))
			return b->side_order;
		seen |= 1u << order[i];
	}
	return order;
}

int
battle_step_side(const struct battle *b, int step)
{
	int order[BATTLE_MAX_SIDES];

	if (battle_step_deploys(b, step))
		return -1;
	step -= battle_deploy_steps(b);
	if (b->sequence == SEQ_ALTERNATE && b->nsides > 0)
		return turn_order(b, (step - 1) / b->nsides + 1,
		    order)[(step - 1) % b->nsides];
	return -1;
}

int
battle_unit_alive(const struct battle *b, int unit)
{
	const struct unit *u = &b->units[unit];
	int i, n = 0;

	for (i = 0; i < u->nstands; i++)
		if (!(b->stands[u->first_stand + i].flags & ST_GONE))
			n++;
	return n;
}

int
battle_unit_sp(const struct battle *b, int unit)
{
	const struct unit *u = &b->units[unit];
	int i, n = 0;

	for (i = 0; i < u->nstands; i++)
		if (!(b->stands[u->first_stand + i].flags & ST_GONE) ||
		    (b->stands[u->first_stand + i].flags & ST_AWAY))
			n += b->stands[u->first_stand + i].sp;
	return n;
}

int
battle_unit_away(const struct battle *b, int unit)
{
	const struct unit *u = &b->units[unit];
	int i;

	for (i = 0; i < u->nstands; i++)
		if (b->stands[u->first_stand + i].flags & ST_AWAY)
			return 1;
	return 0;
}

int
battle_unit_centre_of(const struct battle *b, int unit, int with_routed,
    struct pt *out)
{
	const struct unit *u = &b->units[unit];
	int64_t sx = 0, sy = 0;
	int i, n = 0;

	for (i = 0; i < u->nstands; i++) {
		const struct stand *s = &b->stands[u->first_stand + i];

		if ((s->flags & ST_GONE) ||
		    (!with_routed && (s->flags & ST_ROUTED) == ST_ROUTED))
			continue;
		sx += s->pos.x;
		sy += s->pos.y;
		n++;
	}
	if (n == 0)
		return 0;
	out->x = (fx)geom_div_round(sx, n);
	out->y = (fx)geom_div_round(sy, n);
	return 1;
}

int
battle_unit_centre_seen(const struct battle *b, int unit,
    const unsigned char *seen, struct pt *out)
{
	const struct unit *u = &b->units[unit];
	int64_t sx = 0, sy = 0;
	int s, n = 0;

	for (s = u->first_stand; s < u->first_stand + u->nstands; s++) {
		if ((b->stands[s].flags & ST_GONE) || (seen != NULL && !seen[s]))
			continue;
		sx += b->stands[s].pos.x;
		sy += b->stands[s].pos.y;
		n++;
	}
	if (n > 0) {
		out->x = (fx)(sx / n);
		out->y = (fx)(sy / n);
	}
	return n;
}

int
battle_unit_centre(const struct battle *b, int unit, struct pt *out)
{
	return battle_unit_centre_of(b, unit, 1, out);
}

void
battle_kind_size(enum stand_kind kind, enum formation form, fx *w, fx *d)
{
	switch (kind) {
	case KIND_DETACHMENT:
		/* In skirmish order a detachment sits on the 3" x 1.5" sabot. */
		*w = form == FORM_SKIRMISH ? FX(3) : FX(1.5);
		*d = FX(1.5);
		break;
	case KIND_ARTILLERY:
		*w = FX(1.5);
		*d = FX(3);
		break;
	case KIND_MOUNTED:
		if (form == FORM_DISMOUNTED) {
			*w = FX(1.5);
			*d = FX(1.5);
		} else {
			*w = FX(3);
			*d = form == FORM_SKIRMISH ? FX(3) : FX(1.5);
		}
		break;
	case KIND_COMMAND:
		*w = FX(1.5);
		*d = FX(1.5);
		break;
	case KIND_INFANTRY:
	default:
		*w = FX(3);
		*d = FX(1.5);
		break;
	}
}

void
battle_stand_size(const struct battle *b, int stand, fx *w, fx *d)
{
	const struct stand *s = &b->stands[stand];
	const struct unit *u = &b->units[s->unit];

	battle_kind_size(u->kind, s->form, w, d);
	/* A ruleset whose scenario gives each unit's frontage. */
	if (u->base_w > 0)
		*w = u->base_w;
}

void
battle_stand_rect(const struct battle *b, int stand, struct pt out[4])
{
	battle_stand_rect_inset(b, stand, 0, out);
}

void
battle_stand_rect_inset(const struct battle *b, int stand, fx inset,
    struct pt out[4])
{
	const struct stand *st = &b->stands[stand];
	struct pt c = st->pos;
	fx w, d;

	battle_stand_size(b, stand, &w, &d);
	/* In road march a 1.5" x 3" spacer stands behind the base: the
	 * footprint runs back over it. */
	if (st->form == FORM_ROAD && b->road_spacer) {
		c = geom_offset(c, st->facing + 180, FX(1.5));
		d += FX(3);
		if (w < FX(1.5))
			w = FX(1.5);
	}
	geom_rect(c, st->facing, w - 2 * inset, d - 2 * inset, out);
}

fx
battle_stand_reach(const struct battle *b, int stand)
{
	const struct stand *st = &b->stands[stand];
	fx w, d, r = 0;

	/* As battle_stand_rect lays it: in road march the footprint's
	 * centre is 1.5" behind the stand (rounded), the footprint longer. */
	battle_stand_size(b, stand, &w, &d);
	if (st->form == FORM_ROAD && b->road_spacer) {
		r = FX(1.5) + 1;
		d += FX(3);
		if (w < FX(1.5))
			w = FX(1.5);
	}
	/* A corner lies within (w + 1)/2 and (d + 1)/2 of the footprint's
	 * centre along its axes, so within their sum; rounding the rotation
	 * moves it 0.71 more, and the halving here loses 0.5. */
	return r + (w + d) / 2 + 3;
}

int
battle_stands_apart(const struct battle *b, int s, int t, fx limit)
{
	int64_t dx = (int64_t)b->stands[s].pos.x - b->stands[t].pos.x;
	int64_t dy = (int64_t)b->stands[s].pos.y - b->stands[t].pos.y;

	if (dx < 0)
		dx = -dx;
	if (dy < 0)
		dy = -dy;
	if (dy > dx)
		dx = dy;
	/* The distance of the centres is at least the larger of dx and dy;
	 * the footprints lie within their reaches of their centres; and
	 * geom_rect_dist is within 2 of the true distance. */
	return dx - battle_stand_reach(b, s) - battle_stand_reach(b, t) - 2 >
	    limit;
}

fx
battle_gap_to_unit(const struct battle *b, int s, int v)
{
	return battle_gap_to_unit_seen(b, s, v, NULL);
}

/* Stands certainly further than the nearest so far are not measured
 * (issue 24: they cannot be the nearest); geom_reference measures every
 * one. */
fx
battle_gap_to_unit_below(const struct battle *b, int s, int v,
    const unsigned char *seen, fx bound)
{
	const struct unit *u = &b->units[v];
	struct pt r1[4];
	fx best = -1;
	int t;

	battle_stand_rect(b, s, r1);
	for (t = u->first_stand; t < u->first_stand + u->nstands; t++) {
		struct pt r2[4];
		fx g, limit = best >= 0 ? best : bound;

		if ((b->stands[t].flags & ST_GONE) || (seen != NULL && !seen[t]))
			continue;
		if (limit >= 0 && !geom_reference_on() &&
		    battle_stands_apart(b, s, t, limit))
			continue;
		battle_stand_rect(b, t, r2);
		g = geom_rect_dist(r1, r2);
		if (best < 0 || g < best)
			best = g;
	}
	return best;
}

fx
battle_gap_to_unit_seen(const struct battle *b, int s, int v,
    const unsigned char *seen)
{
	return battle_gap_to_unit_below(b, s, v, seen, -1);
}

/* The box of unit u's stands still on the table (of those seen marks),
 * and the largest of their reaches; 0 if it has none. */
static int
unit_box(const struct battle *b, int u, const unsigned char *seen,
    int64_t box[4], fx *reach)
{
	const struct unit *un = &b->units[u];
	int s, n = 0;

	*reach = 0;
	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		const struct pt *p = &b->stands[s].pos;
		fx r;

		if ((b->stands[s].flags & ST_GONE) || (seen != NULL && !seen[s]))
			continue;
		if (n++ == 0) {
			box[0] = box[2] = p->x;
			box[1] = box[3] = p->y;
		}
		box[0] = p->x < box[0] ? p->x : box[0];
		box[1] = p->y < box[1] ? p->y : box[1];
		box[2] = p->x > box[2] ? p->x : box[2];
		box[3] = p->y > box[3] ? p->y : box[3];
		r = battle_stand_reach(b, s);
		*reach = r > *reach ? r : *reach;
	}
	return n > 0;
}

/* 1 if b->near may be used: built for the battle's units, and
 * geom_reference off. */
static int
near_ok(const struct battle *b)
{
	return b->near.built && b->near.nunits == b->nunits &&
	    !geom_reference_on();
}

/* unit_box of all u's stands, from b->near when it is built: the same
 * numbers, without walking the stands on every test (issue 24: the
 * blocking test of a move asks it of the mover and of every unit near
 * it, a quarter inch at a time). */
static int
unit_box_all(const struct battle *b, int u, int64_t box[4], fx *reach)
{
	fx nb[4];
	int i, n;

	if (!near_ok(b))
		return unit_box(b, u, NULL, box, reach);
	n = grid_get(&b->near.grid, u, nb);
	for (i = 0; n && i < 4; i++)
		box[i] = nb[i];
	*reach = n ? b->near.reach[u] : 0;
#ifndef NDEBUG
	{
		/* What battle_unit_moved missed would change a result:
		 * every box used is checked against the stands. */
		int64_t fb[4];
		fx fr;
		int fn = unit_box(b, u, NULL, fb, &fr);

		assert(fn == n);
		assert(!n || (fb[0] == box[0] && fb[1] == box[1] &&
		    fb[2] == box[2] && fb[3] == box[3] && fr == *reach));
	}
#endif
	return n;
}

/* 1 if every gap between a stand of u and a stand of v (of those seen
 * marks) is certainly more than limit, by the units' boxes (issue 24);
 * 0 if one may not be, and always with geom_reference on. */
static int
units_apart(const struct battle *b, int u, int v, const unsigned char *seen,
    fx limit)
{
	int64_t bu[4], bv[4], gx, gy;
	fx ru, rv;

	if (geom_reference_on() || !unit_box_all(b, u, bu, &ru) ||
	    !(seen == NULL ? unit_box_all(b, v, bv, &rv) :
	    unit_box(b, v, seen, bv, &rv)))
		return 0;
	gx = bv[0] > bu[2] ? bv[0] - bu[2] : bu[0] > bv[2] ? bu[0] - bv[2] : 0;
	gy = bv[1] > bu[3] ? bv[1] - bu[3] : bu[1] > bv[3] ? bu[1] - bv[3] : 0;
	/* As battle_stands_apart, for the nearest positions of the two. */
	return (gx > gy ? gx : gy) - ru - rv - 2 > limit;
}

fx
battle_unit_gap_below(const struct battle *b, int u, int v,
    const unsigned char *seen, fx bound)
{
	const struct unit *un = &b->units[u];
	fx best = -1;
	int s;

	if (bound >= 0 && units_apart(b, u, v, seen, bound))
		return -1;
	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		fx g;

		if (b->stands[s].flags & ST_GONE)
			continue;
		/* A pair further than the nearest so far, or than bound,
		 * cannot be the nearest within bound. */
		g = battle_gap_to_unit_below(b, s, v, seen, best >= 0 ? best :
		    bound);
		if (g >= 0 && (best < 0 || g < best))
			best = g;
	}
	return best;
}

fx
battle_unit_gap_seen(const struct battle *b, int u, int v,
    const unsigned char *seen)
{
	return battle_unit_gap_below(b, u, v, seen, -1);
}

int
battle_unit_gap_within(const struct battle *b, int u, int v, fx limit)
{
	fx g = battle_unit_gap_below(b, u, v, NULL, limit < 0 ? 0 : limit);

	return g >= 0 && g <= limit;
}

fx
battle_unit_gap(const struct battle *b, int u, int v)
{
	return battle_unit_gap_seen(b, u, v, NULL);
}

/* Files unit u in b->near as its stands are now. */
static void
near_file(struct battle *b, int u)
{
	int64_t box[4];
	fx fb[4], r;
	int i;

	if (!unit_box(b, u, NULL, box, &r)) {
		grid_remove(&b->near.grid, u);
		return;
	}
	for (i = 0; i < 4; i++)
		fb[i] = (fx)box[i];
	grid_put(&b->near.grid, u, fb);
	b->near.reach[u] = r;
	/* Only ever larger: battle_units_near widens its search by it. */
	if (r > b->near.reach_max)
		b->near.reach_max = r;
}

void
battle_units_index(struct battle *b)
{
	int u;

	b->near.built = 0;
	/* Cells about a unit's frontage wide: a blocking test's search,
	 * a few inches about the mover, covers a few of them. */
	if (grid_init(&b->near.grid, b->width, b->depth, FX(8), b->nunits) != 0)
		return;
	b->near.reach_max = 0;
	for (u = 0; u < b->nunits; u++)
		near_file(b, u);
	b->near.nunits = b->nunits;
	b->near.built = 1;
}

void
battle_unit_moved(struct battle *b, int u)
{
	if (b->near.built && b->near.nunits == b->nunits && u >= 0 &&
	    u < b->nunits)
		near_file(b, u);
}

void
battle_units_unindex(struct battle *b)
{
	b->near.built = 0;
}

int
battle_units_near(const struct battle *b, int u, fx limit, int *out)
{
	fx box[4], q[4];
	int64_t e;
	int i, n, k = 0;

	if (!near_ok(b))
		return -1;
#ifndef NDEBUG
	/* A unit whose move battle_unit_moved missed would be passed over
	 * here unseen: debug builds check every unit's box on every search
	 * (as slow as walking every unit, which is what this saves). */
	for (i = 0; i < b->nunits; i++) {
		int64_t fb[4];
		fx fr;

		(void)unit_box_all(b, i, fb, &fr);
	}
#endif
	if (!grid_get(&b->near.grid, u, box))
		return 0;      /* u has no stand on the table: no gap */
	/* As units_apart: a unit whose box is further than this along x or
	 * y from u's is certainly more than limit from it. */
	e = (int64_t)(limit < 0 ? 0 : limit) + b->near.reach[u] +
	    b->near.reach_max + 2;
	for (i = 0; i < 4; i++) {
		int64_t v = (int64_t)box[i] + (i < 2 ? -e : e);

		q[i] = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX :
		    (fx)v;
	}
	n = grid_query(&b->near.grid, q, out);
	for (i = 0; i < n; i++)
		if (out[i] != u)
			out[k++] = out[i];
	return k;
}

int
battle_unit_form(const struct battle *b, int unit)
{
	const struct unit *u = &b->units[unit];
	int s;

	for (s = u->first_stand; s < u->first_stand + u->nstands; s++)
		if (!(b->stands[s].flags & ST_GONE))
			return b->stands[s].form;
	return FORM_LINE;
}

void
battle_ground_index(struct battle *b)
{
	int i, j;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		const struct pt *pg = &b->points[t->first_pt];
		fx *x = b->ground.box[i];

		x[0] = x[2] = t->npts > 0 ? pg[0].x : 0;
		x[1] = x[3] = t->npts > 0 ? pg[0].y : 0;
		for (j = 1; j < t->npts; j++) {
			x[0] = pg[j].x < x[0] ? pg[j].x : x[0];
			x[1] = pg[j].y < x[1] ? pg[j].y : x[1];
			x[2] = pg[j].x > x[2] ? pg[j].x : x[2];
			x[3] = pg[j].y > x[3] ? pg[j].y : x[3];
		}
	}
	b->ground.nterrain = b->nterrain;
	b->ground.npoints = b->npoints;
	b->ground.built = 1;
}

int
battle_ground_indexed(const struct battle *b)
{
	return b->ground.built && b->ground.nterrain == b->nterrain &&
	    b->ground.npoints == b->npoints && !geom_reference_on();
}

static int
ground_ok(const struct battle *b)
{
	return battle_ground_indexed(b);
}

int
battle_ground_meets(const struct battle *b, int i, struct pt lo, struct pt hi)
{
	const fx *x = b->ground.box[i];

	return !ground_ok(b) || b->terrain[i].npts == 0 ||
	    !(x[2] < lo.x || x[0] > hi.x || x[3] < lo.y || x[1] > hi.y);
}

/* How far p lies outside terrain i's box, the larger of along x and
 * along y (0 inside): no more than its distance to any of its points,
 * or to any segment between them. */
static int64_t
ground_gap(const struct battle *b, int i, struct pt p)
{
	const fx *x = b->ground.box[i];
	int64_t gx = p.x < x[0] ? (int64_t)x[0] - p.x : p.x > x[2] ?
	    (int64_t)p.x - x[2] : 0;
	int64_t gy = p.y < x[1] ? (int64_t)x[1] - p.y : p.y > x[3] ?
	    (int64_t)p.y - x[3] : 0;

	return gx > gy ? gx : gy;
}

/* A point inside an area, or on its edge, lies in its box: terrain whose
 * box does not hold p is passed over. */
int
battle_area_at(const struct battle *b, struct pt p, enum terrain_kind k)
{
	int i, ok = ground_ok(b);

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind == k && !(ok && ground_gap(b, i, p) > 0) &&
		    geom_in_poly(p, &b->points[t->first_pt], t->npts))
			return 1;
	}
	return 0;
}

int
battle_near_line(const struct battle *b, struct pt p, enum terrain_kind k,
    fx reach)
{
	int i, j, ok = ground_ok(b);

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind != k)
			continue;
		/* geom_seg_dist is within 1.21 of the true distance, which is
		 * at least the box gap. */
		if (ok && ground_gap(b, i, p) > (int64_t)reach + 2)
			continue;
		for (j = 0; j + 1 < t->npts; j++)
			if (geom_seg_dist(p, b->points[t->first_pt + j],
			    b->points[t->first_pt + j + 1]) <= reach)
				return 1;
	}
	return 0;
}

int
battle_level_at(const struct battle *b, struct pt p)
{
	int i, level = 0, ok = ground_ok(b);

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if (t->kind == T_HILL && t->level > level &&
		    !(ok && ground_gap(b, i, p) > 0) &&
		    geom_in_poly(p, &b->points[t->first_pt], t->npts))
			level = t->level;
	}
	return level;
}

int
battle_find_unit(const struct battle *b, const char *name)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (strcasecmp(b->units[i].name, name) == 0)
			return i;
	return -1;
}

int
battle_find_commander(const struct battle *b, const char *name)
{
	int i;

	for (i = 0; i < b->ncommanders; i++)
		if (strcasecmp(b->commanders[i].name, name) == 0)
			return i;
	return -1;
}

int
battle_find_brigade(const struct battle *b, const char *name)
{
	int i;

	for (i = 0; i < b->nbrigades; i++)
		if (strcasecmp(b->brigades[i].name, name) == 0)
			return i;
	return -1;
}

static const char *const kind_names[] = {
	"infantry", "detachment", "artillery", "mounted", "command"
};
static const char *const form_names[] = {
	"line", "skirmish", "road", "dismounted", "detachments"
};
static const char *const weapon_names[] = {
	"none", "musket", "rifle", "light-gun", "field-gun", "howitzer",
	"heavy-gun", "native"
};
static const char *const terrain_names[] = {
	"wood", "forest", "thicket", "swamp", "marsh", "hill", "crops",
	"broken", "camp", "town", "village", "works", "ford", "bridge",
	"treeline", "fence", "hedge", "road", "stream", "river", "sunken-road"
};

const char *
battle_kind_name(enum stand_kind k)
{
	return kind_names[k];
}

int
battle_in_chain(const struct battle *b, int k, int u)
{
	const struct commander *c = &b->commanders[k];
	const struct unit *un = &b->units[u];

	if (c->side != un->side)
		return 0;
	switch (c->rank) {
	case RANK_ARMY:
		return 1;
	case RANK_WING:
		return b->brigades[un->brigade].wing == k;
	case RANK_BRIGADE:
		return c->brigade == un->brigade;
	case RANK_UNIT:
	default:
		return c->unit == u;
	}
}

const char *
battle_rank_name(enum command_rank r)
{
	static const char *const names[] = { "army", "wing", "brigade", "unit" };

	return (unsigned)r < 4 ? names[r] : "unit";
}

void
battle_sync_kinds(struct battle *b)
{
	int u, i;

	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];

		int on = 0, afoot = 0;

		un->kind = un->base_kind;
		for (i = 0; i < un->nstands; i++) {
			const struct stand *st = &b->stands[un->first_stand + i];

			if ((st->flags & ST_DETACH) && !(st->flags & ST_GONE))
				un->kind = KIND_DETACHMENT;
			if (!(st->flags & ST_GONE)) {
				on++;
				afoot += st->form == FORM_DISMOUNTED;
			}
		}
		/* Mounted troops on foot fight and move as detachments. */
		if (un->base_kind == KIND_MOUNTED && on > 0 && afoot == on)
			un->kind = KIND_DETACHMENT;
	}
}

const char *
battle_form_name(enum formation f)
{
	return form_names[f];
}

const char *
battle_weapon_name(enum weapon w)
{
	return (unsigned)w < WEAPON_RULESET ? weapon_names[w] : NULL;
}

const char *
battle_terrain_name(enum terrain_kind k)
{
	return terrain_names[k];
}

int
battle_terrain_kind(const char *name, enum terrain_kind *out)
{
	int i;

	for (i = 0; i < T_KIND_COUNT; i++)
		if (strcmp(terrain_names[i], name) == 0) {
			*out = (enum terrain_kind)i;
			return 0;
		}
	return -1;
}

int
battle_weapon_parse(const char *name, enum weapon *out)
{
	int i;

	for (i = 0; i < WEAPON_RULESET; i++)
		if (strcmp(weapon_names[i], name) == 0) {
			*out = (enum weapon)i;
			return 0;
		}
	return -1;
}

int
battle_form_parse(const char *name, enum formation *out)
{
	int i;

	for (i = 0; i < (int)(sizeof(form_names) / sizeof(form_names[0])); i++)
		if (strcasecmp(form_names[i], name) == 0) {
			*out = (enum formation)i;
			return 0;
		}
	/* Other words for the same: a column is road march, guns limber
	 * for it; dispersed order is skirmish order. */
	if (strcasecmp(name, "mounted") == 0 || strcasecmp(name, "formed") == 0 ||
	    strcasecmp(name, "unlimbered") == 0) {
		*out = FORM_LINE;
		return 0;
	}
	if (strcasecmp(name, "column") == 0 || strcasecmp(name, "limbered") == 0) {
		*out = FORM_ROAD;
		return 0;
	}
	if (strcasecmp(name, "dispersed") == 0) {
		*out = FORM_SKIRMISH;
		return 0;
	}
	return -1;
}

void
battle_carry(struct battle *dst, const struct battle *src)
{
	int i;

	for (i = 0; i < dst->nterrain && i < src->nterrain; i++)
		dst->terrain[i].trodden = src->terrain[i].trodden;
	for (i = 0; i < dst->nbrigades && i < src->nbrigades; i++) {
		dst->brigades[i].lost = src->brigades[i].lost;
		dst->brigades[i].flags = src->brigades[i].flags &
		    (BR_EXHAUSTED | BR_COLLAPSED);
	}
	for (i = 0; i < dst->ncommanders && i < src->ncommanders; i++) {
		dst->commanders[i].pos = src->commanders[i].pos;
		dst->commanders[i].facing = src->commanders[i].facing;
		dst->commanders[i].gone = src->commanders[i].gone;
		dst->commanders[i].attached = src->commanders[i].attached;
		dst->commanders[i].out_until = src->commanders[i].out_until;
		dst->commanders[i].out_removed = src->commanders[i].out_removed;
	}
	for (i = 0; i < dst->nunits && i < src->nunits; i++)
		memcpy(dst->units[i].state, src->units[i].state,
		    sizeof(dst->units[i].state));
	for (i = 0; i < dst->nstands && i < src->nstands; i++) {
		dst->stands[i].sp = src->stands[i].sp;
		dst->stands[i].pos = src->stands[i].pos;
		dst->stands[i].facing = src->stands[i].facing;
		dst->stands[i].form = src->stands[i].form;
		dst->stands[i].flags = src->stands[i].flags;
	}
	/* What of it the scenario fixed is the same in both. */
	memcpy(dst->rules, src->rules, sizeof(dst->rules));
	battle_sync_kinds(dst);
}

enum nation
battle_nation_find(const char *word)
{
	static const struct {
		const char *word;
		enum nation n;
	} w[] = {
		{ "british", NATION_BRITISH }, { "crown", NATION_BRITISH },
		{ "continental", NATION_CONTINENTAL },
		{ "american", NATION_CONTINENTAL }, { "rebel", NATION_CONTINENTAL },
		{ "hessian", NATION_HESSIAN }, { "german", NATION_HESSIAN },
		{ "french", NATION_FRENCH }, { "loyalist", NATION_LOYALIST },
		{ "native", NATION_NATIVE },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (strcasecmp(word, w[i].word) == 0)
			return w[i].n;
	return NATION_NONE;
}

int
battle_colour_find(const char *word, unsigned char rgb[3])
{
	static const struct {
		const char *name;
		unsigned char rgb[3];
	} c[] = {
		{ "red", { 199, 31, 31 } }, { "blue", { 31, 64, 179 } },
		{ "dark-blue", { 20, 36, 102 } }, { "white", { 245, 245, 240 } },
		{ "green", { 38, 128, 51 } }, { "brown", { 140, 89, 43 } },
		{ "black", { 30, 30, 30 } }, { "yellow", { 230, 190, 30 } },
		{ "purple", { 140, 77, 153 } }, { "grey", { 128, 128, 128 } },
		{ "buff", { 222, 196, 140 } }, { "orange", { 230, 120, 30 } },
	};
	size_t i;
	int k;

	if (word[0] == '#' && strlen(word) == 7) {
		for (k = 1; k < 7; k++)
			if (!isxdigit((unsigned char)word[k]))
				return -1;
		for (k = 0; k < 3; k++) {
			char h[3] = { word[1 + 2 * k], word[2 + 2 * k], '\0' };

			rgb[k] = (unsigned char)strtol(h, NULL, 16);
		}
		return 0;
	}
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (strcasecmp(word, c[i].name) == 0) {
			memcpy(rgb, c[i].rgb, 3);
			return 0;
		}
	return -1;
}
