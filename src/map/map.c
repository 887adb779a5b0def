/*
 * map.c - drawing the table with cairo (see map.h).
 *
 * One drawing function serves both surfaces.  Table coordinates are
 * inches with y growing north; the page has y growing down, so every
 * point goes through to_page().  Cairo's own text is enough for the
 * labels (the fonts fontconfig finds); labels are placed in the first of
 * a few spots around their unit that no label placed before overlaps.
 */
#include "map/map.h"

#include <cairo.h>
#include <cairo-svg.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ruleset.h"
#include "map/layout.h"
#include "map/png.h"

#define GRID_IN  6      /* a grid line every six inches */
/* The labels a map paints at most: a unit's name, a commander's, a
 * terrain's, an objective's, and a unit's again where it was last seen. */
#define MAX_TEXTS (BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS + \
    BATTLE_MAX_TERRAIN + BATTLE_MAX_OBJECTIVES + BATTLE_MAX_UNITS)
/* The boxes no label may cover: the title's band, every stand and
 * commander's mark, and every label placed. */
#define MAX_LABELS (1 + BATTLE_MAX_STANDS + BATTLE_MAX_COMMANDERS + \
    MAX_TEXTS)

struct page {
	const struct battle *b;
	double scale;           /* pixels an inch */
	double w, h;            /* the page */
	struct map_box view;    /* the part of the table drawn */
	layout_box area;        /* ... on the page, where labels may go */
	struct map_layout *out; /* map_opts.layout */
	const unsigned char *seen;   /* a side's view, or NULL */
	int side;
	const struct ruleset *rs;    /* for command, or NULL */
	double colour[BATTLE_MAX_SIDES][3];   /* each side's (side_colours) */
	layout_box lab[MAX_LABELS];  /* stands and placed labels */
	int nlab;
	/* The labels placed, painted after everything on the table
	 * (paint_labels): an objective's dashed reach or an arrow drawn
	 * later ran through the name it crossed. */
	struct {
		char text[BATTLE_NAME_MAX + 48];
		double x, y, size;
		int italic;
	} text[MAX_TEXTS];
	int ntext;
};

/* The letter a unit in road march (or column) carries on the map: the
 * first of the ruleset's word for it. */
static const char *
column_badge_of(const struct battle *b, int guns)
{
	static char letter[2];
	const struct ruleset *rs = ruleset_find(b->ruleset);
	const char *w = rs != NULL && guns && rs->words->limbered_word != NULL ?
	    rs->words->limbered_word : rs != NULL && rs->words->column_word != NULL ?
	    rs->words->column_word : "road march";

	letter[0] = (char)(w[0] >= 'a' && w[0] <= 'z' ? w[0] - 'a' + 'A' : w[0]);
	letter[1] = '\0';
	return letter;
}

static const char *
column_badge(const struct battle *b)
{
	return column_badge_of(b, 0);
}

static double
inches(fx v)
{
	return (double)v / 100.0;
}

static const struct ruleset *
rs_of(const struct page *pg)
{
	return ruleset_find(pg->b->ruleset);
}

static void
to_page(const struct page *pg, fx x, fx y, double *px, double *py)
{
	*px = MARGIN_L + inches(x - pg->view.x0) * pg->scale;
	*py = MARGIN_T + inches(pg->view.y1 - y) * pg->scale;
}

void
map_to_px(const struct battle *b, int width_px, fx x, fx y, double *px,
    double *py)
{
	struct page pg;

	memset(&pg, 0, sizeof(pg));
	pg.b = b;
	pg.view.x1 = b->width;
	pg.view.y1 = b->depth;
	pg.scale = ((width_px > 0 ? width_px : MAP_WIDTH_PX) - MARGIN_L -
	    MARGIN_R) / inches(b->width);
	to_page(&pg, x, y, px, py);
}

/* Colours by terrain kind: fill (areas) or stroke (lines). */
static void
terrain_colour(enum terrain_kind k, double rgb[3])
{
	static const double c[T_KIND_COUNT][3] = {
		[T_WOOD] = { 0.55, 0.72, 0.45 },
		[T_FOREST] = { 0.36, 0.55, 0.32 },
		[T_THICKET] = { 0.50, 0.62, 0.38 },
		[T_SWAMP] = { 0.55, 0.66, 0.62 },
		[T_MARSH] = { 0.62, 0.74, 0.70 },
		[T_HILL] = { 0.86, 0.78, 0.60 },
		[T_CROPS] = { 0.93, 0.88, 0.55 },
		[T_BROKEN] = { 0.78, 0.74, 0.66 },
		[T_CAMP] = { 0.85, 0.80, 0.72 },
		[T_TOWN] = { 0.62, 0.52, 0.46 },
		[T_VILLAGE] = { 0.70, 0.58, 0.50 },
		[T_WORKS] = { 0.55, 0.48, 0.40 },
		[T_FORD] = { 0.45, 0.65, 0.85 },
		[T_BRIDGE] = { 0.45, 0.38, 0.30 },
		[T_TREELINE] = { 0.30, 0.50, 0.28 },
		[T_FENCE] = { 0.45, 0.35, 0.25 },
		[T_HEDGE] = { 0.28, 0.45, 0.25 },
		[T_ROAD] = { 0.62, 0.50, 0.36 },
		[T_STREAM] = { 0.35, 0.55, 0.85 },
		[T_RIVER] = { 0.25, 0.45, 0.80 },
		[T_SUNKEN_ROAD] = { 0.50, 0.40, 0.30 },
	};

	memcpy(rgb, c[(unsigned)k < T_KIND_COUNT ? k : T_BROKEN], sizeof(c[0]));
}

/* The conventional colours of the armies (enum nation), and the ones a
 * side with no nation known takes, the first not already in use. */
static const double nation_rgb[NATION_COUNT][3] = {
	[NATION_NONE] = { 0.45, 0.45, 0.45 },
	[NATION_BRITISH] = { 0.78, 0.12, 0.12 },
	[NATION_CONTINENTAL] = { 0.12, 0.25, 0.70 },
	[NATION_HESSIAN] = { 0.08, 0.14, 0.40 },
	[NATION_FRENCH] = { 0.96, 0.96, 0.94 },
	[NATION_LOYALIST] = { 0.15, 0.50, 0.20 },
	[NATION_NATIVE] = { 0.55, 0.35, 0.17 },
};
static const double spare_rgb[4][3] = {
	{ 0.78, 0.12, 0.12 }, { 0.12, 0.25, 0.70 }, { 0.15, 0.55, 0.20 },
	{ 0.55, 0.30, 0.60 },
};

/* Whose army side s is: as its side line says; else the nation most of
 * its units' troop types are (the earliest unit's among equals); else a
 * word of its id or name ("crown", "Continental: Morgan's ..."). */
static enum nation
side_nation(const struct battle *b, const struct ruleset *rs, int s)
{
	int count[NATION_COUNT] = { 0 }, first[NATION_COUNT], u, k, best = 0;
	const char *w;
	char word[BATTLE_NAME_MAX];
	size_t n;

	if (b->sides[s].nation != NATION_NONE)
		return b->sides[s].nation;
	for (k = 0; k < NATION_COUNT; k++)
		first[k] = BATTLE_MAX_UNITS;
	for (u = 0; rs != NULL && u < b->nunits; u++) {
		const struct troop_type *t;

		if (b->units[u].side != s ||
		    (t = ruleset_type(rs, b->units[u].type)) == NULL ||
		    t->nation == NATION_NONE)
			continue;
		if (count[t->nation]++ == 0)
			first[t->nation] = u;
	}
	for (k = 1; k < NATION_COUNT; k++)
		if (count[k] > count[best] || (count[k] > 0 &&
		    count[k] == count[best] && first[k] < first[best]))
			best = k;
	if (best != NATION_NONE)
		return (enum nation)best;
	if ((best = battle_nation_find(b->sides[s].id)) != NATION_NONE)
		return (enum nation)best;
	for (w = b->sides[s].name; *w != '\0'; w += n) {
		n = strspn(w, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
		if (n == 0) {
			n = 1;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)n, w);
		if ((best = battle_nation_find(word)) != NATION_NONE)
			return (enum nation)best;
	}
	return NATION_NONE;
}

/* Each side's colour into pg->colour: the side line's 'colour', else its
 * nation's, else (or when another side already has that colour) the
 * first spare one no side has.  Never by the order the sides are
 * listed in alone: Freeman's Farm's Crown is red whichever comes first. */
static void
side_colours(struct page *pg)
{
	const struct battle *b = pg->b;
	int set[BATTLE_MAX_SIDES] = { 0 }, s, k, j;

	for (s = 0; s < b->nsides; s++) {
		enum nation n = side_nation(b, pg->rs, s);

		if (b->sides[s].has_colour) {
			for (k = 0; k < 3; k++)
				pg->colour[s][k] = b->sides[s].colour[k] / 255.0;
			set[s] = 1;
		} else if (n != NATION_NONE) {
			memcpy(pg->colour[s], nation_rgb[n], sizeof(pg->colour[s]));
			set[s] = 1;
		}
		for (j = 0; set[s] && j < s; j++)
			if (set[j] && memcmp(pg->colour[j], pg->colour[s],
			    sizeof(pg->colour[s])) == 0)
				set[s] = 0;   /* taken: a spare one below */
	}
	for (s = 0; s < b->nsides; s++) {
		if (set[s])
			continue;
		for (k = 0; k < 4; k++) {
			for (j = 0; j < b->nsides; j++)
				if (set[j] && memcmp(pg->colour[j], spare_rgb[k],
				    sizeof(spare_rgb[k])) == 0)
					break;
			if (j == b->nsides)
				break;
		}
		memcpy(pg->colour[s], spare_rgb[k & 3], sizeof(pg->colour[s]));
		set[s] = 1;
	}
}

static void
side_colour(const struct page *pg, int side, double rgb[3])
{
	memcpy(rgb, pg->colour[side & (BATTLE_MAX_SIDES - 1)],
	    sizeof(pg->colour[0]));
}

/* Is page point (x, y) on the part of the table drawn? */
static int
on_view(const struct page *pg, double x, double y)
{
	return x >= pg->area[0] && x <= pg->area[2] && y >= pg->area[1] &&
	    y <= pg->area[3];
}

/* The line through the n table points p, as page coordinates, added to
 * the current path (a new subpath). */
static void
path_points(cairo_t *cr, const struct page *pg, const struct pt *p, int n)
{
	int j;

	for (j = 0; j < n; j++) {
		double x, y;

		to_page(pg, p[j].x, p[j].y, &x, &y);
		if (j == 0)
			cairo_move_to(cr, x, y);
		else
			cairo_line_to(cr, x, y);
	}
}

static void
path_terrain(cairo_t *cr, const struct page *pg, const struct terrain *t)
{
	cairo_new_path(cr);
	path_points(cr, pg, &pg->b->points[t->first_pt], t->npts);
}

/* An X of half-width r centred on (x, y), stroked in the colour and width
 * set. */
static void
cross(cairo_t *cr, double x, double y, double r)
{
	cairo_move_to(cr, x - r, y - r);
	cairo_line_to(cr, x + r, y + r);
	cairo_move_to(cr, x + r, y - r);
	cairo_line_to(cr, x - r, y + r);
	cairo_stroke(cr);
}

/* Places text by what it names (the page box at) in the first of a few
 * spots that overlaps no stand, commander nor label placed before
 * (layout_label), inside the part of the table drawn. */
static void
label(cairo_t *cr, struct page *pg, const char *text, const layout_box at,
    double size, int italic)
{
	cairo_text_extents_t te;
	double bx, by, top, bottom;

	cairo_select_font_face(cr, "sans-serif", italic ?
	    CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, text, &te);
	/* The ground paint_labels lays under the text. */
	top = te.y_bearing - 1;
	bottom = te.y_bearing + te.height + 1;
	layout_label(pg->area, (const layout_box *)pg->lab, pg->nlab, at,
	    te.width, top, bottom, size + 4, &bx, &by);
	if (pg->nlab < MAX_LABELS) {
		pg->lab[pg->nlab][0] = bx - 2;
		pg->lab[pg->nlab][1] = by + top;
		pg->lab[pg->nlab][2] = bx + te.width + 2;
		pg->lab[pg->nlab][3] = by + bottom;
		pg->nlab++;
	}
	if (pg->out != NULL && pg->out->nlabels < MAP_LAYOUT_MAX) {
		double *g = pg->out->label[pg->out->nlabels];

		g[0] = bx - 2;
		g[1] = by + top;
		g[2] = bx + te.width + 2;
		g[3] = by + bottom;
		snprintf(pg->out->text[pg->out->nlabels],
		    sizeof(pg->out->text[0]), "%s", text);
		pg->out->nlabels++;
	}
	if (pg->ntext < MAX_TEXTS) {
		snprintf(pg->text[pg->ntext].text, sizeof(pg->text[0].text),
		    "%s", text);
		pg->text[pg->ntext].x = bx - te.x_bearing;
		pg->text[pg->ntext].y = by;
		pg->text[pg->ntext].size = size;
		pg->text[pg->ntext].italic = italic;
		pg->ntext++;
	}
}

/* Paints the labels placed, over the table's lines and marks. */
static void
paint_labels(cairo_t *cr, const struct page *pg)
{
	cairo_text_extents_t te;
	int i;

	for (i = 0; i < pg->ntext; i++) {
		cairo_select_font_face(cr, "sans-serif", pg->text[i].italic ?
		    CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
		    CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, pg->text[i].size);
		cairo_text_extents(cr, pg->text[i].text, &te);
		/* A pale ground keeps the text readable over any colour.  A
		 * box, not a stroked outline of the glyphs: the outline made
		 * every label a path in the SVG, which grew to most of a
		 * megabyte. */
		cairo_rectangle(cr, pg->text[i].x + te.x_bearing - 2,
		    pg->text[i].y + te.y_bearing - 1, te.width + 4,
		    te.height + 2);
		cairo_set_source_rgba(cr, 1, 1, 0.95, 0.7);
		cairo_fill(cr);
		cairo_move_to(cr, pg->text[i].x, pg->text[i].y);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_show_text(cr, pg->text[i].text);
	}
}

static void
draw_terrain(cairo_t *cr, struct page *pg)
{
	const struct battle *b = pg->b;
	int i, pass;

	/* Areas first, hills beneath the rest; then lines over them. */
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < b->nterrain; i++) {
			const struct terrain *t = &b->terrain[i];
			double rgb[3];
			int line = t->kind >= T_FIRST_LINE;

			if ((pass == 0) != (t->kind == T_HILL && !line) ||
			    (pass == 2) != line || t->npts < 2)
				continue;
			terrain_colour(t->kind, rgb);
			path_terrain(cr, pg, t);
			if (!line) {
				cairo_close_path(cr);
				cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.75);
				cairo_fill_preserve(cr);
				cairo_set_source_rgb(cr, rgb[0] * 0.7, rgb[1] * 0.7,
				    rgb[2] * 0.7);
				/* Hills: a contour line a level. */
				cairo_set_line_width(cr, t->kind == T_HILL ? 1.5 : 0.8);
				cairo_stroke(cr);
			} else {
				double wd = t->kind == T_RIVER ? 6 : t->kind == T_ROAD ||
				    t->kind == T_SUNKEN_ROAD ? 4 : t->kind == T_STREAM ?
				    3 : 2;

				cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
				cairo_set_line_width(cr, wd);
				cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
				if (t->kind == T_FENCE || t->kind == T_HEDGE) {
					double dash[2] = { 5, 3 };

					cairo_set_dash(cr, dash, 2, 0);
				}
				cairo_stroke(cr);
				cairo_set_dash(cr, NULL, 0, 0);
			}
		}
	/* Names, at the middle of each piece's points. */
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		double sx = 0, sy = 0, x, y;
		int j;

		if (t->name[0] == '\0' || t->npts == 0)
			continue;
		for (j = 0; j < t->npts; j++) {
			to_page(pg, b->points[t->first_pt + j].x,
			    b->points[t->first_pt + j].y, &x, &y);
			sx += x;
			sy += y;
		}
		x = sx / t->npts;
		y = sy / t->npts;
		/* A piece whose middle is off the part drawn goes unnamed:
		 * moved in, its name would lie on ground not its own. */
		if (!on_view(pg, x, y))
			continue;
		{
			layout_box at = { x, y, x, y };

			label(cr, pg, t->name, at, 11, 1);
		}
	}
}

/* One line of the inch grid, from (ax, ay) to (bx, by), and its inches
 * written at (lx, ly). */
static void
grid_line(cairo_t *cr, double ax, double ay, double bx, double by,
    int inch, double lx, double ly)
{
	char n[16];

	cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.18);
	cairo_move_to(cr, ax, ay);
	cairo_line_to(cr, bx, by);
	cairo_stroke(cr);
	snprintf(n, sizeof(n), "%d", inch);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_move_to(cr, lx, ly);
	cairo_show_text(cr, n);
}

static void
draw_grid(cairo_t *cr, const struct page *pg)
{
	int x, y;
	double px, py, x0, y0, x1, y1;

	to_page(pg, pg->view.x0, pg->view.y1, &x0, &y0);
	to_page(pg, pg->view.x1, pg->view.y0, &x1, &y1);
	cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.18);
	cairo_set_line_width(cr, 0.6);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 10);
	/* Every six inches of the table within the part drawn. */
	for (x = ((int)pg->view.x0 + GRID_IN * 100 - 1) / (GRID_IN * 100) *
	    GRID_IN; x * 100 <= (int)pg->view.x1; x += GRID_IN) {
		to_page(pg, (fx)x * 100, 0, &px, &py);
		grid_line(cr, px, y0, px, y1, x, px - 6, y1 + 13);
	}
	for (y = ((int)pg->view.y0 + GRID_IN * 100 - 1) / (GRID_IN * 100) *
	    GRID_IN; y * 100 <= (int)pg->view.y1; y += GRID_IN) {
		to_page(pg, 0, (fx)y * 100, &px, &py);
		grid_line(cr, x0, py, x1, py, y, x0 - 22, py + 4);
	}
	/* The edge of the part drawn: the table's, or the crop's. */
	cairo_set_source_rgb(cr, 0.25, 0.2, 0.15);
	cairo_set_line_width(cr, 1.5);
	cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
	cairo_stroke(cr);
}

/* Every stand's box, each commander's mark drawn, and the title's band,
 * as ground no label may cover. */
static void
reserve_stands(struct page *pg)
{
	const struct battle *b = pg->b;
	int s, k;

	/* The title and subtitle's band: no label over them. */
	pg->lab[0][0] = 0;
	pg->lab[0][1] = 0;
	pg->lab[0][2] = pg->w;
	pg->lab[0][3] = MARGIN_T - 8;
	pg->nlab = 1;
	for (s = 0; s < b->nstands && pg->nlab < MAX_LABELS; s++) {
		struct pt r[4];
		double x, y, *box = pg->lab[pg->nlab];

		if ((b->stands[s].flags & ST_GONE) ||
		    (pg->seen != NULL && !pg->seen[s]))
			continue;
		battle_stand_rect(b, s, r);
		for (k = 0; k < 4; k++) {
			to_page(pg, r[k].x, r[k].y, &x, &y);
			layout_box_add(box, x, y, k == 0);
		}
		if (pg->out != NULL && pg->out->nblocks < MAP_LAYOUT_MAX)
			memcpy(pg->out->block[pg->out->nblocks++], box,
			    sizeof(pg->out->block[0]));
		pg->nlab++;
	}
	for (k = 0; k < b->ncommanders && pg->nlab < MAX_LABELS; k++) {
		const struct commander *c = &b->commanders[k];
		double x, y, *box = pg->lab[pg->nlab];

		if (c->gone || c->out_removed || (pg->seen != NULL &&
		    c->side != pg->side))
			continue;
		to_page(pg, c->pos.x, c->pos.y, &x, &y);
		box[0] = x - 6.5;
		box[1] = y - 6.5;
		box[2] = x + 6.5;
		box[3] = y + 6.5;
		pg->nlab++;
	}
}

/* A letter in a small white box: a marker with no colour of its own. */
static void
badge(cairo_t *cr, double x, double y, const char *letter)
{
	cairo_text_extents_t te;

	cairo_new_path(cr);
	cairo_rectangle(cr, x - 5, y - 5, 10, 10);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 0.8);
	cairo_stroke(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 8.5);
	cairo_text_extents(cr, letter, &te);
	cairo_move_to(cr, x - te.width / 2 - te.x_bearing,
	    y - te.height / 2 - te.y_bearing);
	cairo_show_text(cr, letter);
}

/* Out of command: a white ring in grey, struck through. */
static void
out_of_command_mark(cairo_t *cr, double x, double y)
{
	cairo_new_path(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_arc(cr, x, y, 5.5, 0, 2 * M_PI);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	cairo_set_line_width(cr, 1.8);
	cairo_stroke(cr);
	cairo_move_to(cr, x - 3.9, y + 3.9);
	cairo_line_to(cr, x + 3.9, y - 3.9);
	cairo_stroke(cr);
}

/* A puff of powder smoke centred at (x, y), r pixels across. */
static void
smoke_puff(cairo_t *cr, double x, double y, double r)
{
	cairo_new_path(cr);
	cairo_arc(cr, x, y, r, 0, 2 * M_PI);
	cairo_set_source_rgba(cr, 0.86, 0.86, 0.84, 0.55);
	cairo_fill(cr);
}

/* A unit's smoke marker as a bank of puffs along each of its stands in
 * sight, as deep as the stand and thin enough that the stands' colour
 * and facing show through. */
static void
smoke_over(cairo_t *cr, const struct page *pg, int u)
{
	const struct battle *b = pg->b;
	const struct unit *un = &b->units[u];
	int s, k, n;

	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		const struct stand *st = &b->stands[s];
		struct pt r[4];
		double x, y, a, px[4], py[4], e1, e2, w, d, t;

		if ((st->flags & ST_GONE) || (pg->seen != NULL && !pg->seen[s]))
			continue;
		battle_stand_rect(b, s, r);
		for (k = 0; k < 4; k++)
			to_page(pg, r[k].x, r[k].y, &px[k], &py[k]);
		a = st->facing * M_PI / 180.0;
		/* The frontage is the edge running across the facing. */
		e1 = hypot(px[1] - px[0], py[1] - py[0]);
		e2 = hypot(px[2] - px[1], py[2] - py[1]);
		if (e1 > 0 && fabs((px[1] - px[0]) * cos(a) +
		    (py[1] - py[0]) * sin(a)) >= e1 * M_SQRT1_2)
			w = e1, d = e2;
		else
			w = e2, d = e1;
		if (d < 4)
			d = 4;
		if (w < d)
			d = w < 4 ? 4 : w;
		n = (int)ceil(w / d);
		if (n > 8)
			n = 8;
		to_page(pg, st->pos.x, st->pos.y, &x, &y);
		/* n puffs along the frontage, each a little ahead of the
		 * stand's centre line, as the smoke of its volleys. */
		for (k = 0; k < n; k++) {
			t = n == 1 ? 0 : (k / (double)(n - 1) - 0.5) * (w - d);
			smoke_puff(cr, x + cos(a) * t + sin(a) * d * 0.2,
			    y + sin(a) * t - cos(a) * d * 0.2, d * 0.75);
		}
	}
}

static void
draw_forces(cairo_t *cr, struct page *pg)
{
	const struct battle *b = pg->b;
	int u, s, k;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		struct ruleset_marks mk;
		double rgb[3], cx = 0, cy = 0;
		layout_box at = { 0, 0, 0, 0 };
		int shown = 0;

		side_colour(pg, un->side, rgb);
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
			const struct stand *st = &b->stands[s];
			struct pt r[4];
			double x, y, fx_, fy_, a;

			if ((st->flags & ST_GONE) || (pg->seen != NULL && !pg->seen[s]))
				continue;
			battle_stand_rect(b, s, r);
			for (k = 0; k < 4; k++) {
				to_page(pg, r[k].x, r[k].y, &x, &y);
				layout_box_add(at, x, y, shown == 0 && k == 0);
			}
			path_points(cr, pg, r, 4);
			cairo_close_path(cr);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_fill_preserve(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			cairo_set_line_width(cr, 0.8);
			cairo_stroke(cr);
			a = st->facing * M_PI / 180.0;
			/* The front edge drawn heavy, as a base's front is on
			 * the table: the edge whose middle lies furthest the way
			 * the stand faces (whatever order the corners come in). */
			{
				double best = -1e300, d;
				int f = 0;

				for (k = 0; k < 4; k++) {
					d = ((double)r[k].x + r[(k + 1) & 3].x) * sin(a) +
					    ((double)r[k].y + r[(k + 1) & 3].y) * cos(a);
					if (d > best) {
						best = d;
						f = k;
					}
				}
				to_page(pg, r[f].x, r[f].y, &x, &y);
				to_page(pg, r[(f + 1) & 3].x, r[(f + 1) & 3].y, &fx_,
				    &fy_);
				cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
				cairo_set_line_width(cr, 2.6);
				cairo_move_to(cr, x, y);
				cairo_line_to(cr, fx_, fy_);
				cairo_stroke(cr);
			}
			/* The facing: a tick from the centre through the front. */
			to_page(pg, st->pos.x, st->pos.y, &x, &y);
			fx_ = x + sin(a) * pg->scale * 0.9;
			fy_ = y - cos(a) * pg->scale * 0.9;
			cairo_set_source_rgb(cr, 1, 1, 1);
			cairo_set_line_width(cr, 1.6);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, fx_, fy_);
			cairo_stroke(cr);
			/* Markers as the table has them: disordered a yellow
			 * dot, permanently disordered a red one, routed (both)
			 * a red cross; stationary S and road march R beside. */
			if ((st->flags & ST_ROUTED) == ST_ROUTED) {
				/* on a white ground, to be seen on a red stand */
				cairo_set_source_rgb(cr, 1, 1, 1);
				cairo_set_line_width(cr, 4.5);
				cross(cr, x, y, 5);
				cairo_set_source_rgb(cr, 0.95, 0.1, 0.1);
				cairo_set_line_width(cr, 2);
				cross(cr, x, y, 5);
			} else if (st->flags & (ST_DISORDERED | ST_PERMANENT)) {
				if (st->flags & ST_PERMANENT)
					cairo_set_source_rgb(cr, 0.9, 0.1, 0.1);
				else
					cairo_set_source_rgb(cr, 0.98, 0.85, 0.1);
				cairo_new_path(cr);
				cairo_arc(cr, x, y, 3.5, 0, 2 * M_PI);
				cairo_fill_preserve(cr);
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
				cairo_set_line_width(cr, 0.6);
				cairo_stroke(cr);
			}
			if ((st->flags & ST_STATIONARY) || st->form == FORM_ROAD)
				badge(cr, x - pg->scale * 1.1, y, (st->flags &
				    ST_STATIONARY) ? "S" : column_badge_of(b,
				    un->kind == KIND_ARTILLERY));
			cx += x;
			cy += y;
			shown++;
		}
		ruleset_unit_marks(b, u, &mk);
		if (shown > 0 && mk.clouded)
			smoke_over(cr, pg, u);
		if (shown > 0 && pg->rs != NULL && pg->rs->in_command != NULL &&
		    (pg->seen == NULL || un->side == pg->side) &&
		    !pg->rs->in_command(b, u)) {
			/* Out of command: a grey ring struck through, on the
			 * side's own units (the enemy's command is not seen). */
			out_of_command_mark(cr, cx / shown + pg->scale * 1.6,
			    cy / shown);
		}
		if (shown > 0 && pg->seen != NULL && un->side != pg->side &&
		    mk.seen_label[0] != '\0')
			memcpy(mk.label, mk.seen_label, sizeof(mk.label));
		if (shown > 0 && mk.label[0] != '\0') {
			char name[BATTLE_NAME_MAX + 24];

			snprintf(name, sizeof(name), "%s (%s)", un->name, mk.label);
			label(cr, pg, name, at, 10.5, 0);
		} else if (shown > 0) {
			label(cr, pg, un->name, at, 10.5, 0);
		}
	}
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *c = &b->commanders[k];
		double rgb[3], x, y;

		if (c->gone || c->out_removed || (pg->seen != NULL && c->side != pg->side))
			continue;
		side_colour(pg, c->side, rgb);
		to_page(pg, c->pos.x, c->pos.y, &x, &y);
		/* A new path: an arc would join the last label's point. */
		cairo_new_path(cr);
		cairo_arc(cr, x, y, 4.5, 0, 2 * M_PI);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_set_line_width(cr, 2);
		cairo_stroke(cr);
		{
			layout_box at = { x - 6.5, y - 6.5, x + 6.5, y + 6.5 };

			label(cr, pg, c->name, at, 9.5, 1);
		}
	}
}

/* A key entry's words after its symbol at *kx; moves *kx on to the
 * next symbol's place. */
static void
key_text(cairo_t *cr, double *kx, double ky, const char *words)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_text_extents(cr, words, &te);
	cairo_move_to(cr, *kx + 10, ky + 4);
	cairo_show_text(cr, words);
	*kx += 10 + te.x_advance + 22;
}

/* Moves the key's next entry, words after a symbol at (*kx, *ky), to a
 * second row when it would run into the north arrow: a cropped map's
 * page is narrower than the key's one row. */
static void
key_room(cairo_t *cr, const struct page *pg, double *kx, double *ky,
    const char *words)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	cairo_text_extents(cr, words, &te);
	if (*kx + 10 + te.x_advance > pg->w - 44 && *kx > MARGIN_L + 20) {
		*kx = MARGIN_L + 6;
		*ky += 17;
	}
}

/* The key to the stand markers of a ruleset that has them: its items
 * in the order drawn, into it[] and their words into w[]; how many. */
enum { KEY_DISORDER, KEY_PERMANENT, KEY_ROUTED, KEY_STATIONARY, KEY_COLUMN,
	KEY_LIMBERED, KEY_COMMAND, KEY_MARKS };

static int
key_items(const struct battle *b, int *it, const char **w)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	unsigned omit = rs != NULL ? rs->words->key_omits : 0;
	int n = 0;

#define KEY(item, word) (it[n] = (item), w[n++] = (word))
	if (!(omit & KEY_OMIT_DISORDER))
		KEY(KEY_DISORDER, "disordered");
	if (!(omit & KEY_OMIT_PERMANENT))
		KEY(KEY_PERMANENT, "permanently disordered");
	KEY(KEY_ROUTED, rs != NULL && rs->words->routed_word != NULL ?
	    rs->words->routed_word : "routed");
	if (!(omit & KEY_OMIT_STATIONARY))
		KEY(KEY_STATIONARY, "stationary");
	KEY(KEY_COLUMN, rs != NULL && rs->words->column_word != NULL ?
	    rs->words->column_word : "road march");
	if (rs != NULL && rs->words->limbered_word != NULL)
		KEY(KEY_LIMBERED, rs->words->limbered_word);
	if (!(omit & KEY_OMIT_COMMAND))
		KEY(KEY_COMMAND, "out of command");
	if (rs != NULL && rs->words->marks_key != NULL)
		KEY(KEY_MARKS, rs->words->marks_key);
#undef KEY
	return n;
}

int
map_key_words(const struct battle *b, const char **w, int max)
{
	const char *all[MAP_KEY_MAX];
	int it[MAP_KEY_MAX], n = key_items(b, it, all), i;

	for (i = 0; i < n && i < max; i++)
		w[i] = all[i];
	return n < max ? n : max;
}

static void
draw_furniture(cairo_t *cr, const struct page *pg, const struct map_opts *o)
{
	double x0, y1, bar, nx, ny;
	char t[64];
	const char *column;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_select_font_face(cr, "serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 20);
	cairo_move_to(cr, MARGIN_L, 28);
	cairo_show_text(cr, o->title != NULL ? o->title : pg->b->title);
	if (o->subtitle != NULL) {
		cairo_select_font_face(cr, "serif", CAIRO_FONT_SLANT_ITALIC,
		    CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 14);
		cairo_move_to(cr, MARGIN_L, 50);
		cairo_show_text(cr, o->subtitle);
	}
	/* A scale bar of twelve inches, with its yards at the ruleset's
	 * scale, and a north arrow. */
	to_page(pg, pg->view.x0, pg->view.y0, &x0, &y1);
	bar = 12 * pg->scale;
	cairo_set_line_width(cr, 2);
	cairo_move_to(cr, x0, y1 + 40);
	cairo_line_to(cr, x0 + bar, y1 + 40);
	cairo_move_to(cr, x0, y1 + 35);
	cairo_line_to(cr, x0, y1 + 45);
	cairo_move_to(cr, x0 + bar / 2, y1 + 37);
	cairo_line_to(cr, x0 + bar / 2, y1 + 43);
	cairo_move_to(cr, x0 + bar, y1 + 35);
	cairo_line_to(cr, x0 + bar, y1 + 45);
	cairo_stroke(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	{
		const struct ruleset *rs = ruleset_find(pg->b->ruleset);

		snprintf(t, sizeof(t), "12 inches = %d yards", rs != NULL &&
		    rs->words->yards_per_foot > 0 ? rs->words->yards_per_foot : 300);
		column = rs != NULL && rs->words->column_word != NULL ? rs->words->column_word :
		    "road march";
	}
	cairo_move_to(cr, x0 + bar + 10, y1 + 44);
	cairo_show_text(cr, t);
	if (rs_of(pg) != NULL && !rs_of(pg)->words->stand_markers) {
		double kx = x0 + bar + 170, ky = y1 + 40;

		key_room(cr, pg, &kx, &ky, column);
		badge(cr, kx, ky, column_badge(pg->b));
		key_text(cr, &kx, ky, column);
		if (rs_of(pg)->words->limbered_word != NULL) {
			key_room(cr, pg, &kx, &ky, rs_of(pg)->words->limbered_word);
			badge(cr, kx, ky, column_badge_of(pg->b, 1));
			key_text(cr, &kx, ky, rs_of(pg)->words->limbered_word);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		if (rs_of(pg)->words->marks_key != NULL) {
			key_room(cr, pg, &kx, &ky, rs_of(pg)->words->marks_key);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			cairo_move_to(cr, kx - 6, ky + 4);
			cairo_show_text(cr, rs_of(pg)->words->marks_key);
			kx += 230;
		}
		if (rs_of(pg)->words->cloud_key != NULL) {
			char sk[64];

			snprintf(sk, sizeof(sk), "  %s", rs_of(pg)->words->cloud_key);
			key_room(cr, pg, &kx, &ky, sk);
			smoke_puff(cr, kx, ky, 7);
			smoke_puff(cr, kx + 6, ky - 2, 6);
			key_text(cr, &kx, ky, sk);
		}
	} else {
		/* The key to the markers, drawn as on the map: those the
		 * ruleset's battles show. */
		double kx = x0 + bar + 170, ky = y1 + 40;
		const char *w[MAP_KEY_MAX];
		int it[MAP_KEY_MAX], n = key_items(pg->b, it, w), i;

		for (i = 0; i < n; i++) {
			key_room(cr, pg, &kx, &ky, w[i]);
			switch (it[i]) {
			case KEY_DISORDER:
			case KEY_PERMANENT:
				cairo_new_path(cr);
				cairo_arc(cr, kx, ky, 3.5, 0, 2 * M_PI);
				if (it[i] == KEY_DISORDER)
					cairo_set_source_rgb(cr, 0.98, 0.85, 0.1);
				else
					cairo_set_source_rgb(cr, 0.9, 0.1, 0.1);
				cairo_fill(cr);
				break;
			case KEY_ROUTED:
				cairo_set_source_rgb(cr, 0.95, 0.1, 0.1);
				cairo_set_line_width(cr, 2);
				cross(cr, kx, ky, 4);
				break;
			case KEY_STATIONARY:
				badge(cr, kx, ky, "S");
				break;
			case KEY_COLUMN:
				badge(cr, kx, ky, column_badge(pg->b));
				break;
			case KEY_LIMBERED:
				badge(cr, kx, ky, column_badge_of(pg->b, 1));
				break;
			case KEY_COMMAND:
				out_of_command_mark(cr, kx, ky);
				break;
			case KEY_MARKS:
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
				cairo_move_to(cr, kx - 6, ky + 4);
				cairo_show_text(cr, w[i]);
				kx += 230;
				continue;
			}
			key_text(cr, &kx, ky, w[i]);
		}
	}
	nx = pg->w - MARGIN_R - 20;
	ny = y1 + 30;
	cairo_move_to(cr, nx, ny - 14);
	cairo_line_to(cr, nx - 7, ny + 8);
	cairo_line_to(cr, nx, ny + 3);
	cairo_line_to(cr, nx + 7, ny + 8);
	cairo_close_path(cr);
	cairo_fill(cr);
	cairo_move_to(cr, nx - 4, ny + 24);
	cairo_show_text(cr, "N");
}

/* May the side whose view this is see unit u now? */
static int
unit_visible(const struct page *pg, int u)
{
	const struct unit *un = &pg->b->units[u];
	int s;

	if (pg->seen == NULL || un->side == pg->side)
		return 1;
	for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
		if (pg->seen[s] && !(pg->b->stands[s].flags & ST_GONE))
			return 1;
	return 0;
}

/* Where unit u stands now (in a side's view, an enemy's stands in sight
 * only), or, one of the side's own destroyed in the step, where it
 * stood. */
static int
unit_at(const struct page *pg, const struct map_opts *o, int u,
    struct pt *p)
{
	const struct battle *b = pg->b;
	const struct unit *un = &b->units[u];

	if (pg->seen != NULL && un->side != pg->side)
		return battle_unit_centre_seen(b, u, pg->seen, p) > 0;
	if (battle_unit_centre(b, u, p))
		return 1;
	if (o->from != NULL && o->from_ok != NULL && o->from_ok[u]) {
		*p = o->from[u];
		return 1;
	}
	return 0;
}

static void
arrow(cairo_t *cr, double x0, double y0, double x1, double y1, double head)
{
	double a = atan2(y1 - y0, x1 - x0);

	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
	cairo_move_to(cr, x1, y1);
	cairo_line_to(cr, x1 - head * cos(a - 0.45), y1 - head * sin(a - 0.45));
	cairo_line_to(cr, x1 - head * cos(a + 0.45), y1 - head * sin(a + 0.45));
	cairo_close_path(cr);
	cairo_fill(cr);
}

/* The step over the forces: moves as arrows in a darker shade of the
 * side's colour, fire as dashed orange lines, melees as a black cross. */
static void
draw_step(cairo_t *cr, const struct page *pg, const struct map_opts *o)
{
	const struct battle *b = pg->b;
	int u, i;

	if (o->from != NULL && o->from_ok != NULL) {
		for (u = 0; u < b->nunits; u++) {
			struct pt c;
			double x0, y0, x1, y1, rgb[3];

			/* Where an enemy came from is not known to a side that
			 * did not see it go: no arrow for it in a side's view. */
			if (!o->from_ok[u] || !battle_unit_centre(b, u, &c) ||
			    !unit_visible(pg, u) || (pg->seen != NULL &&
			    b->units[u].side != pg->side) ||
			    geom_dist(o->from[u], c) < FX(1) / 4)
				continue;
			to_page(pg, o->from[u].x, o->from[u].y, &x0, &y0);
			to_page(pg, c.x, c.y, &x1, &y1);
			side_colour(pg, b->units[u].side, rgb);
			cairo_set_source_rgba(cr, rgb[0] * 0.6, rgb[1] * 0.6,
			    rgb[2] * 0.6, 0.8);
			cairo_set_line_width(cr, 2);
			cairo_set_dash(cr, NULL, 0, 0);
			arrow(cr, x0, y0, x1, y1, 9);
		}
	}
	if (o->ev == NULL)
		return;
	for (i = 0; i < o->ev->n; i++) {
		const struct event *x = &o->ev->v[i];
		struct pt a, z;
		double x0, y0, x1, y1;

		if ((x->kind != EV_FIRE && x->kind != EV_MELEE_WON) ||
		    x->unit < 0 || x->target < 0 || x->unit >= b->nunits ||
		    x->target >= b->nunits || !unit_visible(pg, x->unit) ||
		    !unit_visible(pg, x->target))
			continue;
		if (!unit_at(pg, o, x->unit, &a) || !unit_at(pg, o, x->target, &z))
			continue;
		to_page(pg, a.x, a.y, &x0, &y0);
		to_page(pg, z.x, z.y, &x1, &y1);
		if (x->kind == EV_FIRE) {
			static const double dash[] = { 6, 4 };

			cairo_set_source_rgba(cr, 0.9, 0.45, 0.0, 0.85);
			cairo_set_line_width(cr, 1.5);
			cairo_set_dash(cr, dash, 2, 0);
			arrow(cr, x0, y0, x1, y1, 7);
			cairo_set_dash(cr, NULL, 0, 0);
		} else {
			double mx = (x0 + x1) / 2, my = (y0 + y1) / 2, r = 7;

			cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
			cairo_set_line_width(cr, 3);
			cross(cr, mx, my, r);
		}
	}
}

/* Enemy units where the side last saw them: a dashed outline as wide as
 * the stands it saw, facing as they faced, and the name with the turn. */
static void
draw_last_seen(cairo_t *cr, struct page *pg, const struct map_opts *o)
{
	static const double dash[] = { 4, 3 };
	const struct battle *b = pg->b;
	int i, k;

	for (i = 0; i < o->nlast; i++) {
		const struct sighting *g = &o->last[i];
		const struct unit *un = NULL;
		struct pt r[4], c[4];
		double rgb[3], w, d, x, y, a;
		char text[200];

		if (g->unit < 0 || g->unit >= b->nunits)
			continue;
		un = &b->units[g->unit];
		/* A stand's frontage and depth, from its base. */
		battle_stand_rect(b, un->first_stand, r);
		w = inches(geom_dist(r[0], r[1])) * g->stands;
		d = inches(geom_dist(r[1], r[2]));
		a = g->facing * M_PI / 180.0;
		for (k = 0; k < 4; k++) {
			double sx = (k == 1 || k == 2 ? 0.5 : -0.5) * w;
			double sy = (k >= 2 ? -0.5 : 0.5) * d;

			c[k].x = g->x + (fx)((sx * cos(a) + sy * sin(a)) * 100);
			c[k].y = g->y + (fx)((-sx * sin(a) + sy * cos(a)) * 100);
		}
		cairo_new_path(cr);
		path_points(cr, pg, c, 4);
		cairo_close_path(cr);
		side_colour(pg, un->side, rgb);
		cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.15);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_set_line_width(cr, 1.4);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		if (g->turn > 0)
			snprintf(text, sizeof(text), "%s (seen turn %d)", un->name,
			    g->turn);
		else
			snprintf(text, sizeof(text), "%s (seen at the start)",
			    un->name);
		{
			layout_box at;

			for (k = 0; k < 4; k++) {
				to_page(pg, c[k].x, c[k].y, &x, &y);
				layout_box_add(at, x, y, k == 0);
			}
			label(cr, pg, text, at, 10, 1);
		}
	}
}

/* The scenario's objectives: the reach within which a side holds each,
 * dashed, and a flag at its point with its name and points. */
static void
draw_objectives(cairo_t *cr, struct page *pg)
{
	const struct battle *b = pg->b;
	int i;

	for (i = 0; i < b->nobjectives; i++) {
		const struct objective *o = &b->objectives[i];
		double x, y, ex, ey, r;
		double dash[2] = { 6, 4 };
		char text[BATTLE_NAME_MAX + 32];

		to_page(pg, o->at.x, o->at.y, &x, &y);
		to_page(pg, o->at.x + o->radius, o->at.y, &ex, &ey);
		r = ex - x;
		cairo_new_path(cr);
		cairo_arc(cr, x, y, r, 0, 2 * 3.14159265358979);
		cairo_set_source_rgba(cr, 0.55, 0.1, 0.1, 0.85);
		cairo_set_line_width(cr, 1.5);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		if (!on_view(pg, x, y))
			continue;   /* its reach may cross the part drawn */
		snprintf(text, sizeof(text), "%s (%d pt%s)", o->name, o->points,
		    o->points == 1 ? "" : "s");
		{
			layout_box at = { x - 1, y - 14, x + 10, y };   /* the flag */

			label(cr, pg, text, at, 10, 0);
		}
	}
}

/* The deployment zones (o->zones): each of the side's (every side's
 * with 2) a dashed outline in its colour, faintly
 * filled, with its name, so a player sees where DEPLOY may put a unit. */
static void
draw_zones(cairo_t *cr, struct page *pg, const struct map_opts *o)
{
	static const double dash[] = { 8, 4 };
	const struct battle *b = pg->b;
	int i;

	for (i = 0; o->zones && i < b->nzones; i++) {
		const struct deploy_zone *z = &b->zones[i];
		struct pt c[4] = { { z->x0, z->y0 }, { z->x1, z->y0 },
			{ z->x1, z->y1 }, { z->x0, z->y1 } };
		double rgb[3], x, y;
		char text[BATTLE_NAME_MAX + 32];

		if (o->zones == 1 && z->side != o->side)
			continue;
		side_colour(pg, z->side, rgb);
		cairo_new_path(cr);
		path_points(cr, pg, c, 4);
		cairo_close_path(cr);
		cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.06);
		cairo_fill_preserve(cr);
		cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.8);
		cairo_set_line_width(cr, 2);
		cairo_set_dash(cr, dash, 2, 0);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		snprintf(text, sizeof(text), "%s deployment zone",
		    b->sides[z->side].id);
		to_page(pg, z->x0, z->y1, &x, &y);
		{
			layout_box at = { x + 4, y + 4, x + 5, y + 5 };

			label(cr, pg, text, at, 10, 0);
		}
	}
}

/* Each objective's flag, pole and pennant at its point, over any label. */
static void
draw_flags(cairo_t *cr, const struct page *pg)
{
	const struct battle *b = pg->b;
	int i;

	for (i = 0; i < b->nobjectives; i++) {
		double x, y;

		to_page(pg, b->objectives[i].at.x, b->objectives[i].at.y, &x, &y);
		if (!on_view(pg, x, y))
			continue;
		cairo_set_source_rgba(cr, 0.55, 0.1, 0.1, 0.95);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x, y - 14);
		cairo_set_line_width(cr, 1.5);
		cairo_stroke(cr);
		cairo_move_to(cr, x, y - 14);
		cairo_line_to(cr, x + 9, y - 10.5);
		cairo_line_to(cr, x, y - 7);
		cairo_close_path(cr);
		cairo_fill(cr);
	}
}

/* Cuts what is drawn next at the edge of the part of the table drawn,
 * until the cairo_restore that ends it. */
static void
clip_to_view(cairo_t *cr, const struct page *pg)
{
	cairo_save(cr);
	cairo_rectangle(cr, pg->area[0], pg->area[1], pg->area[2] -
	    pg->area[0], pg->area[3] - pg->area[1]);
	cairo_clip(cr);
	cairo_new_path(cr);
}

static void
draw(cairo_t *cr, struct page *pg, const struct map_opts *o)
{
	cairo_set_source_rgb(cr, 0.97, 0.95, 0.88);   /* parchment */
	cairo_paint(cr);
	reserve_stands(pg);
	/* What lies on the table is cut at the edge of the part drawn
	 * (the labels are placed inside it). */
	clip_to_view(cr, pg);
	draw_terrain(cr, pg);
	cairo_restore(cr);
	draw_grid(cr, pg);
	clip_to_view(cr, pg);
	draw_objectives(cr, pg);
	draw_zones(cr, pg, o);
	draw_last_seen(cr, pg, o);
	draw_forces(cr, pg);
	draw_step(cr, pg, o);
	cairo_restore(cr);
	paint_labels(cr, pg);
	clip_to_view(cr, pg);
	draw_flags(cr, pg);
	cairo_restore(cr);
	draw_furniture(cr, pg, o);
}

static cairo_status_t
svg_to_mem(void *closure, const unsigned char *d, unsigned int n)
{
	struct membuf *m = closure;

	map_mb_put(m, d, n);
	return m->failed ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

int
map_render(const struct battle *b, const struct map_opts *o, int svg,
    unsigned char **out, size_t *len, struct err *e)
{
	struct page *pg = calloc(1, sizeof(*pg));
	struct membuf mb = { NULL, 0, 0, 0 };
	cairo_surface_t *sf;
	cairo_t *cr;
	unsigned char *pix = NULL;
	size_t pix_len = 0;
	int rc = 0, stride;
	int width = o->width_px > 0 ? o->width_px : MAP_WIDTH_PX;

	*out = NULL;
	*len = 0;
	if (pg == NULL)
		return err_set(e, ERR_TEMP, "out of memory drawing the map");
	if (b->width <= 0 || b->depth <= 0) {
		free(pg);
		return err_set(e, ERR_DATA, "the battle has no table to draw");
	}
	pg->b = b;
	pg->seen = o->seen;
	pg->side = o->side;
	pg->rs = ruleset_find(b->ruleset);
	side_colours(pg);
	pg->scale = (width - MARGIN_L - MARGIN_R) / inches(b->width);
	pg->view.x1 = b->width;
	pg->view.y1 = b->depth;
	if (o->crop && o->compact && !svg)
		map_crop(b, o->seen, o->side, width, &pg->view);
	/* A part of the table at the whole field's scale: its stands and
	 * names as large as the whole map's, on a smaller page. */
	pg->w = pg->view.x0 == 0 && pg->view.x1 == b->width ? width :
	    ceil(MARGIN_L + MARGIN_R + inches(pg->view.x1 - pg->view.x0) *
	    pg->scale);
	pg->h = MARGIN_T + inches(pg->view.y1 - pg->view.y0) * pg->scale +
	    MARGIN_B;
	to_page(pg, pg->view.x0, pg->view.y1, &pg->area[0], &pg->area[1]);
	to_page(pg, pg->view.x1, pg->view.y0, &pg->area[2], &pg->area[3]);
	pg->out = o->layout;
	if (pg->out != NULL) {
		memset(pg->out, 0, sizeof(*pg->out));
		pg->out->w = (int)pg->w;
		pg->out->h = (int)ceil(pg->h);
		pg->out->view = pg->view;
		memcpy(pg->out->table, pg->area, sizeof(pg->area));
	}
	if (svg)
		sf = cairo_svg_surface_create_for_stream(svg_to_mem, &mb, pg->w,
		    pg->h);
	else {
		/* The pixels in memory mapped with MAP_POPULATE: one call
		 * instead of a page fault for each of a thousand pages, which
		 * took a sixth of a map's time (cairo's first paint touching
		 * them one by one). */
		stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24,
		    (int)pg->w);
		pix_len = (size_t)stride * (size_t)ceil(pg->h);
		pix = stride > 0 ? mmap(NULL, pix_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) :
		    MAP_FAILED;
		if (pix == MAP_FAILED) {
			pix = NULL;
			sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
			    (int)pg->w, (int)ceil(pg->h));
		} else
			sf = cairo_image_surface_create_for_data(pix,
			    CAIRO_FORMAT_RGB24, (int)pg->w, (int)ceil(pg->h),
			    stride);
	}
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
		rc = err_set(e, ERR_TEMP, "cannot draw the map: %s",
		    cairo_status_to_string(cairo_surface_status(sf)));
		cairo_surface_destroy(sf);
		if (pix != NULL)
			munmap(pix, pix_len);
		free(pg);
		free(mb.p);
		return rc;
	}
	cr = cairo_create(sf);
	if (o->compact && !svg) {
		/* The inline map's shapes with hard edges, its text smooth:
		 * a sixth fewer bytes (the blended edges were most of the
		 * palette's colours and of what deflate could not fold). */
		cairo_font_options_t *fo = cairo_font_options_create();

		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
		cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
		cairo_set_font_options(cr, fo);
		cairo_font_options_destroy(fo);
	}
	draw(cr, pg, o);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = err_set(e, ERR_TEMP, "cannot draw the map: %s",
		    cairo_status_to_string(cairo_status(cr)));
	cairo_destroy(cr);
	if (rc == 0 && !svg)
		rc = o->compact ? map_png_palette(sf, &mb, e) :
		    map_png_rgb(sf, &mb, e);
	cairo_surface_finish(sf);
	if (rc == 0 && (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS ||
	    mb.failed))
		rc = err_set(e, ERR_TEMP, "cannot write the map: %s", mb.failed ?
		    "out of memory" :
		    cairo_status_to_string(cairo_surface_status(sf)));
	cairo_surface_destroy(sf);
	if (pix != NULL)
		munmap(pix, pix_len);
	free(pg);
	if (rc != 0) {
		free(mb.p);
		return rc;
	}
	*out = mb.p;
	*len = mb.len;
	return 0;
}

int
map_write(const struct battle *b, const struct map_opts *o, const char *path,
    struct err *e)
{
	size_t n = strlen(path), len = 0;
	int svg = n > 4 && strcmp(path + n - 4, ".svg") == 0, rc;
	unsigned char *data = NULL;

	if (map_render(b, o, svg, &data, &len, e) != 0)
		return -1;
	rc = map_write_bytes(path, data, len, e);
	free(data);
	return rc;
}

int
map_write_bytes(const char *path, const unsigned char *data, size_t len,
    struct err *e)
{
	FILE *f;
	int fd, rc = 0;

	/* A map is meant for others: 0644 whatever the umask. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	f = fd >= 0 && fchmod(fd, 0644) == 0 ? fdopen(fd, "wb") : NULL;
	if (f == NULL && fd >= 0)
		close(fd);
	if (f == NULL || fwrite(data, 1, len, f) != len)
		rc = err_set(e, ERR_TEMP, "cannot write the map %s", path);
	if (f != NULL && fclose(f) != 0 && rc == 0)
		rc = err_set(e, ERR_TEMP, "cannot write the map %s", path);
	return rc;
}
