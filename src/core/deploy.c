/*
 * deploy.c - the deployment step (see deploy.h).
 *
 * A unit deploys whole: its stands keep their places relative to one
 * another, turned about the unit's centre to the new facing and carried
 * to the point ordered, so a line stays a line and a column a column.
 * Overlaps are settled by giving way, never by nudging: of two units
 * that would stand on one another the later order keeps its old place,
 * which the scenario laid out clear; this is repeated until none
 * overlaps, which ends since each round sends one more unit back.
 */
#include "core/deploy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/geom.h"

/* The frame of unit u deploying facing `facing` (-1: as now): its
 * centre and the turn from its first stand's facing. */
static void
frame(const struct battle *b, int u, int facing, struct pt *c, int *turn)
{
	const struct unit *un = &b->units[u];
	int k;

	*turn = 0;
	if (battle_unit_centre_of(b, u, 1, c) == 0)
		*c = b->stands[un->first_stand].pos;
	if (facing < 0)
		return;
	for (k = 0; k < un->nstands; k++)
		if (!(b->stands[un->first_stand + k].flags & ST_GONE)) {
			*turn = geom_turn(b->stands[un->first_stand + k].facing,
			    facing);
			return;
		}
}

/* p carried by a unit's deployment from centre c, turned by turn, to
 * at. */
static struct pt
carried(struct pt p, struct pt c, int turn, struct pt at)
{
	p = geom_rotate(p, c, turn);
	p.x += at.x - c.x;
	p.y += at.y - c.y;
	return p;
}

/* Where stand i of unit u stands once the unit deploys at `at` facing
 * `facing` (-1: as now). */
static void
placed(const struct battle *b, int u, struct pt at, int facing, int i,
    struct pt *pos, int *fac)
{
	const struct stand *st = &b->stands[b->units[u].first_stand + i];
	struct pt c;
	int turn;

	frame(b, u, facing, &c, &turn);
	*pos = carried(st->pos, c, turn, at);
	*fac = geom_norm(st->facing + turn);
}

static int
in_zone(const struct deploy_zone *z, struct pt p)
{
	return p.x >= z->x0 && p.x <= z->x1 && p.y >= z->y0 && p.y <= z->y1;
}

/* The zone of side holding every point of pts, or -1. */
static int
zone_of(const struct battle *b, int side, const struct pt *pts, int n)
{
	int z, i;

	for (z = 0; z < b->nzones; z++) {
		if (b->zones[z].side != side)
			continue;
		for (i = 0; i < n && in_zone(&b->zones[z], pts[i]); i++)
			;
		if (i == n)
			return z;
	}
	return -1;
}

void
battle_deploy_zones_text(const struct battle *b, int side, char *out,
    size_t size)
{
	size_t at = 0;
	int z, k = 0;

	out[0] = '\0';
	for (z = 0; z < b->nzones && at < size; z++) {
		const struct deploy_zone *d = &b->zones[z];
		char a[16], c[16], e[16], f[16];
		int w;

		if (d->side != side)
			continue;
		w = snprintf(out + at, size - at, "%s%s,%s to %s,%s",
		    k++ > 0 ? "; " : "", geom_fmt_fx(d->x0, a, sizeof(a)),
		    geom_fmt_fx(d->y0, c, sizeof(c)),
		    geom_fmt_fx(d->x1, e, sizeof(e)),
		    geom_fmt_fx(d->y1, f, sizeof(f)));
		if (w < 0 || (size_t)w >= size - at) {
			out[at] = '\0';   /* no zone cut short */
			break;
		}
		at += (size_t)w;
	}
}

int
battle_deploy_check(const struct battle *b, int side, int is_cmd, int who,
    struct pt at, int facing, char *msg, size_t msize)
{
	struct pt pts[BATTLE_MAX_STANDS];
	char zones[512], x[16], y[16];
	int n = 0, i, fac;

	if (is_cmd) {
		if (b->commanders[who].gone)
			return snprintf(msg, msize, "%s is no longer on the field",
			    b->commanders[who].name), -1;
		if (b->commanders[who].out_removed &&
		    b->commanders[who].arrives > 0)
			return snprintf(msg, msize, "%s is not on the field yet: he "
			    "comes on from turn %d", b->commanders[who].name,
			    b->commanders[who].arrives), -1;
		pts[n++] = at;
	} else {
		const struct unit *u = &b->units[who];

		for (i = 0; i < u->nstands; i++)
			if (!(b->stands[u->first_stand + i].flags & ST_GONE))
				placed(b, who, at, facing, i, &pts[n++], &fac);
		if (n == 0 && battle_unit_away(b, who))
			return snprintf(msg, msize, "%s is not on the field yet: it "
			    "comes on from turn %d, where it enters", u->name,
			    u->arrives), -1;
		if (n == 0)
			return snprintf(msg, msize, "%s has no stand left on the "
			    "field", u->name), -1;
	}
	if (zone_of(b, side, pts, n) >= 0)
		return 0;
	battle_deploy_zones_text(b, side, zones, sizeof(zones));
	/* The point in a zone, a stand past its edge: name the stand. */
	{
		int z = zone_of(b, side, &at, 1), k;

		for (k = 0; z >= 0 && k < n; k++)
			if (!in_zone(&b->zones[z], pts[k])) {
				char sx[16], sy[16];

				snprintf(msg, msize, "at %s,%s a stand of the unit would "
				    "stand at %s,%s, outside your deployment zone%s: "
				    "every stand must stand within %s",
				    geom_fmt_fx(at.x, x, sizeof(x)),
				    geom_fmt_fx(at.y, y, sizeof(y)),
				    geom_fmt_fx(pts[k].x, sx, sizeof(sx)),
				    geom_fmt_fx(pts[k].y, sy, sizeof(sy)),
				    strchr(zones, ';') ? "s" : "", zones);
				return -1;
			}
	}
	if (zones[0] == '\0')
		snprintf(msg, msize, "your side has no deployment zone: it "
		    "stands where the scenario put it");
	else
		snprintf(msg, msize, "%s,%s is outside your deployment zone%s: "
		    "%s within %s", geom_fmt_fx(at.x, x, sizeof(x)),
		    geom_fmt_fx(at.y, y, sizeof(y)), strchr(zones, ';') ? "s" :
		    "", is_cmd ? "a commander must take post" : "every stand of "
		    "the unit must stand", zones);
	return -1;
}

/* 1 if the ground of unit u's stands and unit v's overlap (touching
 * is not overlapping). */
static int
overlaps(const struct battle *b, int u, int v)
{
	const struct unit *a = &b->units[u], *c = &b->units[v];
	int i, k;

	for (i = 0; i < a->nstands; i++) {
		int s = a->first_stand + i;
		struct pt ra[4];

		if (b->stands[s].flags & ST_GONE)
			continue;
		battle_stand_rect_inset(b, s, 2, ra);
		for (k = 0; k < c->nstands; k++) {
			int t = c->first_stand + k;
			struct pt rc[4];

			if (b->stands[t].flags & ST_GONE ||
			    battle_stands_apart(b, s, t, 0))
				continue;
			battle_stand_rect_inset(b, t, 2, rc);
			if (geom_rect_dist(ra, rc) == 0)
				return 1;
		}
	}
	return 0;
}

struct move {
	const struct order *o;
	int side;
	struct pt c;  /* the unit's frame before it moved (frame()) */
	int turn;
	int back;     /* gave way: keeps its place */
	int on;       /* ... and the unit it would have stood on */
};

/* Puts unit u's stands where o sends them (c and turn: the unit's
 * frame, as frame() gave it before it moved). */
static void
put_unit(struct battle *b, int u, const struct order *o, struct pt c,
    int turn)
{
	const struct unit *un = &b->units[u];
	int i;

	for (i = 0; i < un->nstands; i++) {
		struct stand *st = &b->stands[un->first_stand + i];

		st->pos = carried(st->pos, c, turn, o->steps[0].pt);
		st->facing = geom_norm(st->facing + turn);
	}
}

/* Puts unit u's stands back where they were, from saved (the battle's
 * stands before the deployment). */
static void
put_back(struct battle *b, int u, const struct stand *saved)
{
	const struct unit *un = &b->units[u];

	memcpy(&b->stands[un->first_stand], &saved[un->first_stand],
	    (size_t)un->nstands * sizeof(*saved));
}

/* A brigade's commander not given a line of his own follows his brigade
 * when any of its units deployed: 3" behind the middle of its units,
 * facing as the first of them that moved, on the table. */
static void
follow_brigades(struct battle *b, const struct move *mv, int nmv,
    struct events *ev)
{
	int k, i, u;

	for (k = 0; k < b->ncommanders; k++) {
		struct commander *cm = &b->commanders[k];
		int64_t sx = 0, sy = 0;
		int n = 0, facing = -1, own = 0;
		struct pt c;
		char x[16], y[16];

		if (cm->rank != RANK_BRIGADE || cm->gone || cm->attached >= 0 ||
		    cm->out_removed)
			continue;
		for (i = 0; i < nmv; i++)
			if (mv[i].o->is_commander && mv[i].o->who == k)
				own = 1;
			else if (!mv[i].o->is_commander && !mv[i].back &&
			    facing < 0 && b->units[mv[i].o->who].brigade ==
			    cm->brigade)
				facing = b->stands[b->units[mv[i].o->who].
				    first_stand].facing;
		if (own || facing < 0)
			continue;
		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == cm->brigade &&
			    battle_unit_centre(b, u, &c)) {
				sx += c.x;
				sy += c.y;
				n++;
			}
		if (n == 0)
			continue;
		c.x = (fx)(sx / n);
		c.y = (fx)(sy / n);
		c = geom_offset(c, facing + 180, FX(3));
		c.x = c.x < 0 ? 0 : c.x > b->width ? b->width : c.x;
		c.y = c.y < 0 ? 0 : c.y > b->depth ? b->depth : c.y;
		cm->pos = c;
		cm->facing = facing;
		events_say(ev, EV_MOVE, cm->side, -1, -1, 0, EVENT_M_TAKES_POST,
		    cm->name, geom_fmt_fx(c.x, x, sizeof(x)),
		    geom_fmt_fx(c.y, y, sizeof(y)));
	}
}

int
battle_deploy_play(struct battle *b, const struct order_set *sets,
    int nsets, int minute, struct events *ev, struct err *e)
{
	struct move *mv = NULL;
	struct stand *saved = NULL;
	struct pt cpos[BATTLE_MAX_COMMANDERS];
	int nmv = 0, s, i, k, again, rc = -1;
	char clock[8];

	snprintf(clock, sizeof(clock), "%02d:%02d", minute / 60 % 24,
	    minute % 60);
	events_say(ev, EV_PHASE, -1, -1, -1, 0, EVENT_M_DEPLOYMENT, clock);
	mv = calloc(ORDER_SET_MAX * (size_t)(nsets > 0 ? nsets : 1),
	    sizeof(*mv));
	saved = malloc(sizeof(b->stands));
	if (mv == NULL || saved == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	memcpy(saved, b->stands, sizeof(b->stands));
	for (k = 0; k < b->ncommanders; k++)
		cpos[k] = b->commanders[k].pos;
	/* The orders in side order, then line order: the last for a unit
	 * stands (the parser has already dropped the replaced ones). */
	for (s = 0; s < b->nsides; s++)
		for (k = 0; k < nsets; k++) {
			if (sets[k].side != s)
				continue;
			for (i = 0; i < sets[k].n; i++) {
				const struct order *o = &sets[k].orders[i];
				char why[200];

				if (o->special || o->nsteps < 1 ||
				    o->steps[0].verb != V_DEPLOY)
					continue;
				/* What the parser checked, checked again: the
				 * zones are the scenario's, so only damage fails
				 * here. */
				if (battle_deploy_check(b, s, o->is_commander, o->who,
				    o->steps[0].pt, o->steps[0].angle, why,
				    sizeof(why)) != 0) {
					events_say(ev, EV_ORDER_REFUSED, s, o->is_commander ?
					    -1 : o->who, -1, 0, EVENT_M_DEPLOY_REFUSED,
					    o->is_commander ? b->commanders[o->who].name :
					    b->units[o->who].name, why);
					continue;
				}
				mv[nmv].o = o;
				mv[nmv].side = s;
				mv[nmv].on = -1;
				nmv++;
			}
		}
	/* Each frame from where the scenario put the unit, before any
	 * moves. */
	for (i = 0; i < nmv; i++)
		if (!mv[i].o->is_commander)
			frame(b, mv[i].o->who, mv[i].o->steps[0].angle, &mv[i].c,
			    &mv[i].turn);
	for (i = 0; i < nmv; i++)
		if (!mv[i].o->is_commander)
			put_unit(b, mv[i].o->who, mv[i].o, mv[i].c, mv[i].turn);
	/* Give way until no deployed unit stands on another. */
	do {
		again = 0;
		for (i = 0; i < nmv && !again; i++) {
			int u = mv[i].o->who, v;

			if (mv[i].o->is_commander || mv[i].back)
				continue;
			for (v = 0; v < b->nunits && !again; v++) {
				int j, later = 1;

				if (v == u || !overlaps(b, u, v))
					continue;
				/* v deployed by an earlier order, or not at all:
				 * u gives way; by a later one: v does. */
				for (j = 0; j < nmv; j++)
					if (!mv[j].back && !mv[j].o->is_commander &&
					    mv[j].o->who == v) {
						later = j > i;
						break;
					}
				if (later && j < nmv) {
					mv[j].back = 1;
					mv[j].on = u;
					put_back(b, v, saved);
				} else {
					mv[i].back = 1;
					mv[i].on = v;
					put_back(b, u, saved);
				}
				again = 1;
			}
		}
	} while (again);
	for (i = 0; i < nmv; i++) {
		const struct order *o = mv[i].o;
		char x[16], y[16];

		if (o->is_commander) {
			b->commanders[o->who].pos = o->steps[0].pt;
			b->commanders[o->who].attached = -1;
			events_say(ev, EV_MOVE, mv[i].side, -1, -1, 0,
			    EVENT_M_TAKES_POST, b->commanders[o->who].name,
			    geom_fmt_fx(o->steps[0].pt.x, x, sizeof(x)),
			    geom_fmt_fx(o->steps[0].pt.y, y, sizeof(y)));
		} else if (mv[i].back) {
			events_say(ev, EV_ORDER_REFUSED, mv[i].side, o->who, mv[i].on,
			    0, EVENT_M_DEPLOY_BLOCKED, b->units[o->who].name,
			    geom_fmt_fx(o->steps[0].pt.x, x, sizeof(x)),
			    geom_fmt_fx(o->steps[0].pt.y, y, sizeof(y)),
			    b->units[mv[i].on].name);
		} else {
			const struct unit *un = &b->units[o->who];

			/* The commanders with it go with it. */
			for (k = 0; k < b->ncommanders; k++) {
				struct commander *cm = &b->commanders[k];

				if (cm->attached != o->who || cm->gone)
					continue;
				cm->pos = carried(cpos[k], mv[i].c, mv[i].turn,
				    o->steps[0].pt);
				cm->facing = geom_norm(cm->facing + mv[i].turn);
			}
			events_say(ev, EV_MOVE, mv[i].side, o->who, -1, 0,
			    EVENT_M_DEPLOYS,
			    un->name, geom_fmt_fx(o->steps[0].pt.x, x, sizeof(x)),
			    geom_fmt_fx(o->steps[0].pt.y, y, sizeof(y)),
			    b->stands[un->first_stand].facing);
		}
	}
	follow_brigades(b, mv, nmv, ev);
	if (ev->overflow) {
		err_set(e, ERR_DATA, "too many events in the deployment");
		goto out;
	}
	rc = 0;
out:
	free(saved);
	free(mv);
	return rc;
}

int
battle_arrivals(struct battle *b, int step, struct events *ev,
    struct err *e)
{
	int turn = battle_step_turn(b, step), ps = battle_step_side(b, step);
	int u, v, i;
	unsigned char was[BATTLE_MAX_STANDS];

	if (battle_step_deploys(b, step))
		return 0;
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		int on = -1;
		struct pt c;
		char x[16], y[16];

		if (un->arrives == 0 || un->arrives > turn ||
		    (ps >= 0 && un->side != ps) || !battle_unit_away(b, u))
			continue;
		/* Its waiting stands (not a spare form's) on the table for
		 * the test; back off it if its ground is taken. */
		for (i = 0; i < un->nstands; i++) {
			struct stand *st = &b->stands[un->first_stand + i];

			was[i] = (st->flags & ST_AWAY) != 0;
			if (was[i])
				st->flags &= ~(ST_GONE | ST_AWAY);
		}
		for (v = 0; v < b->nunits && on < 0; v++)
			if (v != u && battle_unit_alive(b, v) > 0 &&
			    overlaps(b, u, v))
				on = v;
		if (on >= 0) {
			for (i = 0; i < un->nstands; i++)
				if (was[i])
					b->stands[un->first_stand + i].flags |=
					    ST_GONE | ST_AWAY;
			/* (not the unit in the way: the other side may not
			 * see this one) */
			events_say(ev, EV_STATIONARY, un->side, u, -1, 0,
			    EVENT_M_ARRIVAL_WAITS, un->name, b->units[on].name);
			continue;
		}
		if (battle_unit_centre(b, u, &c) == 0)
			c = b->stands[un->first_stand].pos;
		events_say(ev, EV_MOVE, un->side, u, -1, 0, EVENT_M_ARRIVES,
		    un->name, geom_fmt_fx(c.x, x, sizeof(x)),
		    geom_fmt_fx(c.y, y, sizeof(y)));
	}
	/* The commanders due: never kept off, they take no ground. */
	for (i = 0; i < b->ncommanders; i++) {
		struct commander *k = &b->commanders[i];

		if (k->arrives == 0 || k->arrives > turn || k->gone ||
		    k->out_until != BATTLE_STEP_AWAY ||
		    (ps >= 0 && k->side != ps))
			continue;
		k->out_until = 0;
		k->out_removed = 0;
		events_say(ev, EV_COMMANDER, k->side, -1, -1, 0,
		    EVENT_M_ARRIVES_COMMANDER, k->name);
	}
	if (ev->overflow)
		return err_set(e, ERR_DATA, "too many events in the arrivals");
	return 0;
}
