/*
 * campaign_map.c - a campaign's operational map, drawn with cairo as the
 * battle maps are: its places and roads (tracks dashed, a river crossed
 * marked blue across the road), the depots in their side's colour, and
 * the columns where they stand, each with its name and strength.  Drawn
 * for one side, it shows that side's columns and the enemy's it sees and
 * no other (campaign_sees, the daily report's rule).  PNG or SVG by the
 * file's name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>

#include "campaign/campaign.h"
#include "map/map.h"
#include "map/png.h"

#define CM_W      1200.0
#define CM_W_MAIL 900.0
#define CM_MARGIN 60.0
#define CM_TOP    70.0
#define CM_BOTTOM 60.0

struct cm_page {
	double scale, x0, y1;          /* px a mile; the west and north edges */
	double w, h;
};

static void
cm_xy(const struct cm_page *pg, int x100, int y100, double *px, double *py)
{
	*px = CM_MARGIN + (x100 / 100.0 - pg->x0) * pg->scale;
	*py = CM_TOP + (pg->y1 - y100 / 100.0) * pg->scale;
}

/* Where a place (road -1), or a point along a road, is on the page. */
static void
at_xy(const struct campaign *c, const struct cm_page *pg, int place,
    int road, int from, int along100, double *px, double *py)
{
	if (road < 0) {
		cm_xy(pg, c->places[place].x100, c->places[place].y100, px, py);
	} else {
		const struct cp_road *rd = &c->roads[road];
		int to = from == rd->a ? rd->b : rd->a;
		double ax, ay, bx, by, f = rd->miles100 > 0 ?
		    (double)along100 / rd->miles100 : 0;

		cm_xy(pg, c->places[from].x100, c->places[from].y100, &ax, &ay);
		cm_xy(pg, c->places[to].x100, c->places[to].y100, &bx, &by);
		*px = ax + (bx - ax) * f;
		*py = ay + (by - ay) * f;
	}
}

/* Where column k is on the page: at its place, or along its road. */
static void
column_xy(const struct campaign *c, const struct cm_page *pg, int k,
    double *px, double *py)
{
	const struct cp_column *col = &c->columns[k];

	at_xy(c, pg, col->place, col->road, col->from, col->along100, px, py);
}

static void
side_rgb(int side, double *r, double *g, double *b)
{
	/* The first side red, the second blue, as on the battle maps. */
	if (side == 0) {
		*r = 0.78; *g = 0.12; *b = 0.12;
	} else if (side == 1) {
		*r = 0.13; *g = 0.25; *b = 0.70;
	} else {
		*r = 0.35; *g = 0.35; *b = 0.35;
	}
}

static void
label(cairo_t *cr, double x, double y, double size, int bold,
    const char *s)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ?
	    CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	/* a light band behind, so a label over a road reads */
	cairo_set_source_rgba(cr, 0.98, 0.96, 0.90, 0.85);
	cairo_rectangle(cr, x - 2, y + te.y_bearing - 2, te.x_advance + 4,
	    te.height + 4);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

static void
draw(cairo_t *cr, const struct campaign *c, const struct cm_page *pg,
    int side, const unsigned char *seen, const char *title,
    const char *subtitle)
{
	int i, k, stack[CAMPAIGN_MAX_PLACES];
	/* the day the map stands at: the next turn's, or the last's */
	int today = c->start_day + c->turn / c->halves;
	char s[256];

	if (today > c->end_day)
		today = c->end_day;
	cairo_set_source_rgb(cr, 0.97, 0.95, 0.88);
	cairo_paint(cr);
	label(cr, CM_MARGIN, 30, 20, 1, title);
	label(cr, CM_MARGIN, 52, 13, 0, subtitle);
	/* roads, then their rivers */
	for (i = 0; i < c->nroads; i++) {
		const struct cp_road *rd = &c->roads[i];
		double ax, ay, bx, by;

		cm_xy(pg, c->places[rd->a].x100, c->places[rd->a].y100, &ax, &ay);
		cm_xy(pg, c->places[rd->b].x100, c->places[rd->b].y100, &bx, &by);
		cairo_set_source_rgb(cr, 0.55, 0.40, 0.25);
		cairo_set_line_width(cr, rd->kind == ROAD_TRACK ? 1.5 : 2.5);
		if (rd->kind == ROAD_TRACK) {
			static const double dash[] = { 6.0, 4.0 };

			cairo_set_dash(cr, dash, 2, 0);
		}
		cairo_move_to(cr, ax, ay);
		cairo_line_to(cr, bx, by);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		if (rd->nrivers > 0) {
			/* a blue bar across the road a crossing, spread evenly
			 * (at its middle for one) */
			int q, nr = rd->nrivers < 4 ? rd->nrivers : 4;
			double dx = bx - ax, dy = by - ay, n = hypot(dx, dy);

			for (q = 1; q <= nr && n > 0; q++) {
				double f = (double)q / (nr + 1);
				double mx = ax + dx * f, my = ay + dy * f;

				cairo_set_source_rgb(cr, 0.20, 0.45, 0.85);
				cairo_set_line_width(cr, 3);
				cairo_move_to(cr, mx - dy / n * 7, my + dx / n * 7);
				cairo_line_to(cr, mx + dy / n * 7, my - dx / n * 7);
				cairo_stroke(cr);
			}
		}
	}
	/* places, depots (grey on a day it does not supply: not yet set up,
	 * or emptied) */
	for (i = 0; i < c->nplaces; i++) {
		double x, y;
		int d;

		cm_xy(pg, c->places[i].x100, c->places[i].y100, &x, &y);
		for (d = 0; d < c->ndepots; d++)
			if (c->depots[d].place == i) {
				double r = 0.65, g = 0.65, b = 0.65;

				if (campaign_depot_open(c, d, today))
					side_rgb(c->depots[d].side, &r, &g, &b);
				cairo_set_source_rgb(cr, r, g, b);
				cairo_set_line_width(cr, 2);
				cairo_rectangle(cr, x - 8, y - 8, 16, 16);
				cairo_stroke(cr);
			}
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
		cairo_arc(cr, x, y, c->places[i].field_path[0] ? 5 : 3.5, 0,
		    2 * M_PI);
		cairo_fill(cr);
		label(cr, x + 7, y - 5, 11, 0, c->places[i].name);
	}
	/* columns, stacked below their place */
	memset(stack, 0, sizeof(stack));
	for (k = 0; k < c->ncolumns; k++) {
		const struct cp_column *col = &c->columns[k];
		double x, y, r, g, b;
		int at = col->road < 0 ? col->place : -1, full = 0, u;

		if (col->gone || (side >= 0 && !seen[k]))
			continue;
		column_xy(c, pg, k, &x, &y);
		if (at >= 0)
			y += 14 + 16 * stack[at]++;
		else
			y += 14;
		side_rgb(col->side, &r, &g, &b);
		cairo_set_source_rgb(cr, r, g, b);
		cairo_rectangle(cr, x - 9, y - 6, 18, 12);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_set_line_width(cr, 1.5);
		cairo_move_to(cr, x - 9, y - 6);
		cairo_line_to(cr, x + 9, y + 6);
		cairo_move_to(cr, x + 9, y - 6);
		cairo_line_to(cr, x - 9, y + 6);
		cairo_stroke(cr);
		for (u = 0; u < c->nunits; u++)
			if (!c->units[u].gone &&
			    c->brigades[c->units[u].brigade].column == k)
				full += campaign_unit_full(&c->units[u]);
		if (side < 0 || col->side == side)
			snprintf(s, sizeof(s), "%s %d/%d", col->name,
			    campaign_column_sp(c, k), full);
		else
			snprintf(s, sizeof(s), "%s", col->name);
		label(cr, x + 12, y + 4, 11, 1, s);
	}
	/* enemies out of sight, hollow where the side last saw them */
	for (k = 0; side >= 0 && c->engine >= 2 && k < c->ncolumns; k++) {
		const struct cp_sighting *ls = &c->last_seen[side][k];
		double x, y, r, g, b;
		char day[16];

		if (c->columns[k].gone || c->columns[k].side == side || seen[k] ||
		    ls->turn <= 0)
			continue;
		at_xy(c, pg, ls->place, ls->road, ls->from, ls->along100, &x, &y);
		if (ls->road < 0)
			y += 14 + 16 * stack[ls->place]++;
		else
			y += 14;
		side_rgb(c->columns[k].side, &r, &g, &b);
		cairo_set_source_rgb(cr, r, g, b);
		cairo_set_line_width(cr, 1.5);
		cairo_rectangle(cr, x - 9, y - 6, 18, 12);
		cairo_stroke(cr);
		campaign_date_fmt(c->start_day + (ls->turn - 1) / c->halves, day,
		    sizeof(day));
		snprintf(s, sizeof(s), "%s (last seen %s)", c->columns[k].name,
		    day);
		label(cr, x + 12, y + 4, 11, 0, s);
	}
	/* the scale: 20 miles */
	{
		double x = CM_MARGIN, y = pg->h - 25;

		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + 20 * pg->scale, y);
		cairo_stroke(cr);
		label(cr, x + 20 * pg->scale + 8, y + 4, 11, 0, "20 miles");
		label(cr, x + 20 * pg->scale + 90, y + 4, 11, 0,
		    "square: a depot (grey: closed); blue across a road: a river; "
		    "dashed: a track; hollow: an enemy last seen there");
	}
}

static cairo_status_t
cm_to_mem(void *closure, const unsigned char *d, unsigned int n)
{
	struct membuf *m = closure;

	map_mb_put(m, d, n);
	return m->failed ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

int
campaign_map_render(const struct campaign *c, int side, const char *title,
    const char *subtitle, int svg, int compact, unsigned char **out,
    size_t *outlen, struct err *e)
{
	struct cm_page pg;
	struct membuf mb = { 0 };
	unsigned char seen[CAMPAIGN_MAX_COLUMNS];
	cairo_surface_t *sf;
	cairo_t *cr;
	int i, rc = 0;
	double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;

	*out = NULL;
	*outlen = 0;
	if (c->nplaces == 0)
		return err_set(e, ERR_DATA, "the campaign has no places to draw");
	for (i = 0; i < c->nplaces; i++) {
		double x = c->places[i].x100 / 100.0, y = c->places[i].y100 / 100.0;

		x0 = x < x0 ? x : x0;
		x1 = x > x1 ? x : x1;
		y0 = y < y0 ? y : y0;
		y1 = y > y1 ? y : y1;
	}
	/* room for the names east of the easternmost places; a mail's map
	 * narrower */
	pg.w = compact ? CM_W_MAIL : CM_W;
	pg.scale = (pg.w - 2 * CM_MARGIN - 160) / (x1 - x0 > 1 ? x1 - x0 : 1);
	pg.x0 = x0;
	pg.y1 = y1;
	pg.h = CM_TOP + (y1 - y0) * pg.scale + 40 + CM_BOTTOM;
	/* What the side sees: from engine 2 on, what it saw at the end of
	 * the last turn played, scouts and battles included (its
	 * sightings); before, what is near its columns. */
	if (side >= 0) {
		campaign_sees(c, side, NULL, 0, NULL, 0, seen);
		for (i = 0; c->engine >= 2 && c->turn > 0 && i < c->ncolumns; i++)
			if (c->columns[i].side != side)
				seen[i] = c->last_seen[side][i].turn == c->turn;
	}
	if (svg)
		sf = cairo_svg_surface_create_for_stream(cm_to_mem, &mb, pg.w, pg.h);
	else
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)pg.w,
		    (int)ceil(pg.h));
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
		rc = err_set(e, ERR_TEMP, "cannot draw the map: %s",
		    cairo_status_to_string(cairo_surface_status(sf)));
		cairo_surface_destroy(sf);
		free(mb.p);
		return rc;
	}
	cr = cairo_create(sf);
	draw(cr, c, &pg, side, seen, title, subtitle);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = err_set(e, ERR_TEMP, "cannot draw the map: %s",
		    cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	/* RGB for both: libimagequant (the battle maps' palette) was seen
	 * to leak on this map under LeakSanitizer, and the narrower page
	 * keeps a mail's map small. */
	if (rc == 0 && !svg)
		rc = map_png_rgb(sf, &mb, e);
	cairo_surface_finish(sf);
	if (rc == 0 && (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS ||
	    mb.failed))
		rc = err_set(e, ERR_TEMP, "cannot write the map: out of memory");
	cairo_surface_destroy(sf);
	if (rc != 0) {
		free(mb.p);
		return rc;
	}
	*out = mb.p;
	*outlen = mb.len;
	return 0;
}

int
campaign_map_write(const struct campaign *c, int side, const char *title,
    const char *subtitle, const char *path, struct err *e)
{
	unsigned char *data = NULL;
	size_t n = strlen(path), len = 0;
	int svg = n > 4 && strcmp(path + n - 4, ".svg") == 0, rc;

	if (campaign_map_render(c, side, title, subtitle, svg, 0, &data, &len,
	    e) != 0)
		return -1;
	rc = map_write_bytes(path, data, len, e);
	free(data);
	return rc;
}
