/*
 * layout.c - what part of the table a report mail's inline map shows,
 * and where each label on a map goes (see map.h, layout.h).
 *
 * The crop is the reader's forces and what they see, in whole inches,
 * found with integer arithmetic only, so that the same battle crops the
 * same everywhere and the map's bytes stay the same.  The labels are
 * placed in page pixels, in the order they are drawn: each goes to the
 * first free spot round its unit, kept inside the part of the table
 * drawn, so that no name is cut by an edge or hides another's stands.
 */
#include "map/map.h"
#include "map/layout.h"

#include <stdint.h>

/* Grows [*a, *b) about its middle to at least n, then moves it inside
 * [lo, hi) (cut to that when it is longer). */
static void
span_fit(fx *a, fx *b, fx n, fx lo, fx hi)
{
	fx d;

	if (*b - *a < n) {
		d = n - (*b - *a);
		*a -= d / 2;
		*b += d - d / 2;
	}
	if (*b - *a >= hi - lo) {
		*a = lo;
		*b = hi;
		return;
	}
	if (*a < lo) {
		*b += lo - *a;
		*a = lo;
	}
	if (*b > hi) {
		*a -= *b - hi;
		*b = hi;
	}
}

static void
box_add(struct map_box *x, int *any, struct pt p)
{
	if (!*any || p.x < x->x0)
		x->x0 = p.x;
	if (!*any || p.x > x->x1)
		x->x1 = p.x;
	if (!*any || p.y < x->y0)
		x->y0 = p.y;
	if (!*any || p.y > x->y1)
		x->y1 = p.y;
	*any = 1;
}

void
map_crop(const struct battle *b, const unsigned char *seen, int side,
    int width_px, struct map_box *box)
{
	struct map_box x = { 0, 0, 0, 0 };
	struct pt r[4];
	int s, k, any = 0, w = width_px > 0 ? width_px : MAP_WIDTH_PX;
	fx minw;

	box->x0 = 0;
	box->y0 = 0;
	box->x1 = b->width;
	box->y1 = b->depth;
	if (side < 0 || side >= b->nsides || b->width <= 0 || b->depth <= 0)
		return;
	for (s = 0; s < b->nstands; s++) {
		const struct stand *st = &b->stands[s];
		int mine;

		if ((st->flags & ST_GONE) || st->unit < 0 ||
		    st->unit >= b->nunits)
			continue;
		mine = b->units[st->unit].side == side;
		if (!mine && seen != NULL && !seen[s])
			continue;
		battle_stand_rect(b, s, r);
		for (k = 0; k < 4; k++)
			box_add(&x, &any, r[k]);
	}
	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].side == side && !b->commanders[k].gone &&
		    !b->commanders[k].out_removed)
			box_add(&x, &any, b->commanders[k].pos);
	if (!any)
		return;
	/* An objective whose point is in the box: all its reach too. */
	{
		struct map_box in = x;

		for (k = 0; k < b->nobjectives; k++) {
			const struct objective *o = &b->objectives[k];
			struct pt lo, hi;

			if (o->at.x < in.x0 || o->at.x > in.x1 ||
			    o->at.y < in.y0 || o->at.y > in.y1)
				continue;
			lo.x = o->at.x - o->radius;
			lo.y = o->at.y - o->radius;
			hi.x = o->at.x + o->radius;
			hi.y = o->at.y + o->radius;
			box_add(&x, &any, lo);
			box_add(&x, &any, hi);
		}
	}
	x.x0 -= MAP_CROP_PAD;
	x.y0 -= MAP_CROP_PAD;
	x.x1 += MAP_CROP_PAD;
	x.y1 += MAP_CROP_PAD;
	/* No narrower than the title and the key need, at the scale of the
	 * whole field's map: the table's width in the page's pixels. */
	minw = (fx)(((int64_t)(MAP_CROP_MIN_PX - MARGIN_LR_PX) * b->width +
	    (w - MARGIN_LR_PX) - 1) / (w - MARGIN_LR_PX));
	if (minw < MAP_CROP_MIN_W)
		minw = MAP_CROP_MIN_W;
	span_fit(&x.x0, &x.x1, minw, 0, b->width);
	span_fit(&x.y0, &x.y1, MAP_CROP_MIN_D, 0, b->depth);
	/* Never taller than wide, nor wider than twice as deep. */
	span_fit(&x.x0, &x.x1, x.y1 - x.y0, 0, b->width);
	span_fit(&x.y0, &x.y1, (x.x1 - x.x0 + 1) / 2, 0, b->depth);
	/* Out to whole inches, still on the table. */
	x.x0 = x.x0 / 100 * 100;
	x.y0 = x.y0 / 100 * 100;
	x.x1 = x.x1 % 100 != 0 ? (x.x1 / 100 + 1) * 100 : x.x1;
	x.y1 = x.y1 % 100 != 0 ? (x.y1 / 100 + 1) * 100 : x.y1;
	if (x.x1 > b->width)
		x.x1 = b->width;
	if (x.y1 > b->depth)
		x.y1 = b->depth;
	*box = x;
}

void
layout_box_add(layout_box box, double x, double y, int first)
{
	if (first || x < box[0])
		box[0] = x;
	if (first || y < box[1])
		box[1] = y;
	if (first || x > box[2])
		box[2] = x;
	if (first || y > box[3])
		box[3] = y;
}

/* The area of the overlap of a and b (0 when they do not meet). */
static double
overlap(const layout_box a, const layout_box b)
{
	double w = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
	double h = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);

	return w > 0 && h > 0 ? w * h : 0;
}

/* Moves the span [*a, *a + n) inside [lo, hi] (to lo when longer). */
static void
inside(double *a, double n, double lo, double hi)
{
	if (*a + n > hi)
		*a = hi - n;
	if (*a < lo)
		*a = lo;
}

void
layout_label(const layout_box area, const layout_box *taken, int ntaken,
    const layout_box at, double w, double top, double bottom, double step,
    double *bx, double *by)
{
	static const signed char spots[][2] = {
		{ 0, -1 }, { 0, 1 }, { 1, 0 }, { -1, 0 }, { 1, -1 }, { -1, 1 },
		{ 1, 1 }, { -1, -1 }, { 0, -2 }, { 0, 2 },
	};
	const int nspots = (int)(sizeof(spots) / sizeof(spots[0]));
	double gw = w + 4, gh = bottom - top, best = -1;
	double mx = (at[0] + at[2]) / 2, my = (at[1] + at[3]) / 2;
	int ring, s, i;

	*bx = mx - w / 2;
	*by = at[1] - 2 - bottom;
	for (ring = 1; ring <= 3; ring++)
		for (s = 0; s < nspots; s++) {
			int dx = spots[s][0], dy = spots[s][1];
			double out = (ring - 1) * step, sum = 0;
			layout_box g;

			/* Beside what is labelled: level with it to its right
			 * or left; above or below it, centred, or from its
			 * middle to one side. */
			if (dy == 0)
				g[0] = dx > 0 ? at[2] + 4 + out : at[0] - 4 - out - gw;
			else if (dx == 0)
				g[0] = mx - gw / 2;
			else
				g[0] = dx > 0 ? mx + 4 : mx - 4 - gw;
			if (dy == 0)
				g[1] = my - gh / 2;
			else if (dy < 0)
				g[1] = at[1] - 2 - out - gh + (dy + 1) * step;
			else
				g[1] = at[3] + 2 + out + (dy - 1) * step;
			/* A spot that runs off the part drawn is moved in: a
			 * long name by the edge went half unread. */
			inside(&g[0], gw, area[0], area[2]);
			inside(&g[1], gh, area[1], area[3]);
			g[2] = g[0] + gw;
			g[3] = g[1] + gh;
			for (i = 0; i < ntaken; i++)
				sum += overlap(g, taken[i]);
			if (best < 0 || sum < best) {
				best = sum;
				*bx = g[0] + 2;
				*by = g[1] - top;
			}
			if (sum == 0)
				return;
		}
}
