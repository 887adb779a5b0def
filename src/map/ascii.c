/*
 * ascii.c - the table as text, for players who read mail as plain text
 * (see map.h): a character a cell, terrain by kind, each unit a letter
 * at its centre, a key below.
 */
#include "map/map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"
#include "report/report.h"

#define ROWS_MAX 80

/* The character of a terrain kind. */
static char
terrain_char(enum terrain_kind k)
{
	switch (k) {
	case T_WOOD: return 'w';
	case T_FOREST: return 'W';
	case T_THICKET: return 't';
	case T_SWAMP: case T_MARSH: return ',';
	case T_HILL: return '.';
	case T_CROPS: return '"';
	case T_BROKEN: return ':';
	case T_CAMP: return 'c';
	case T_TOWN: case T_VILLAGE: case T_WORKS: return '#';
	case T_FORD: return 'f';
	case T_BRIDGE: return 'b';
	case T_TREELINE: case T_HEDGE: return '*';
	case T_FENCE: return '+';
	case T_ROAD: case T_SUNKEN_ROAD: return '=';
	case T_STREAM: case T_RIVER: return '~';
	default: return '?';
	}
}

/* The key of unit u: A-Z for the first side's units, a-z for the
 * second's, digits after; '*' past them. */
static char
unit_key(const struct battle *b, int u)
{
	int i, n = 0;

	for (i = 0; i < u; i++)
		if (b->units[i].side == b->units[u].side)
			n++;
	if (b->units[u].side == 0 && n < 26)
		return (char)('A' + n);
	if (b->units[u].side == 1 && n < 26)
		return (char)('a' + n);
	if (n < 10)
		return (char)('0' + n);
	return '*';
}

/* The centre of unit u's stands that are on the table and seen (all, with
 * seen NULL); 0 when none is. */
static int
seen_centre(const struct battle *b, int u, const unsigned char *seen,
    struct pt *out)
{
	int64_t x = 0, y = 0;
	int s, n = 0;

	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++) {
		if ((b->stands[s].flags & ST_GONE) || (seen != NULL && !seen[s]))
			continue;
		x += b->stands[s].pos.x;
		y += b->stands[s].pos.y;
		n++;
	}
	if (n == 0)
		return 0;
	out->x = (fx)(x / n);
	out->y = (fx)(y / n);
	return 1;
}

unsigned char *
map_seen(const struct battle *b, int side)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	unsigned char *seen = calloc((size_t)b->nstands + 1, 1);
	int s;

	if (seen == NULL)
		return NULL;
	if (rs != NULL && rs->sees != NULL)
		rs->sees(b, side, seen);
	else
		for (s = 0; s < b->nstands; s++)
			seen[s] = b->units[b->stands[s].unit].side == side;
	return seen;
}

char *
map_ascii(const struct battle *b, int side, const unsigned char *seen,
    int cols)
{
	struct text t;
	char grid[ROWS_MAX][200];
	double per_col, per_row;   /* inches a character */
	int rows, r, c, i, k, u;

	if (cols < 24)
		cols = 24;
	if (cols > 190)
		cols = 190;
	per_col = (double)b->width / 100.0 / cols;
	per_row = per_col * 2;   /* a character is about twice as tall */
	rows = (int)((double)b->depth / 100.0 / per_row + 0.5);
	if (rows < 1)
		rows = 1;
	if (rows > ROWS_MAX)
		rows = ROWS_MAX;
	/* Terrain: areas by the cell's centre, lines over them by points
	 * along each segment. */
	for (r = 0; r < rows; r++) {
		for (c = 0; c < cols; c++) {
			struct pt p;
			char ch = ' ';

			p.x = (fx)((c + 0.5) * per_col * 100);
			p.y = (fx)(b->depth - (r + 0.5) * per_row * 100);
			for (i = 0; i < b->nterrain; i++) {
				const struct terrain *tr = &b->terrain[i];

				if (tr->kind >= T_FIRST_LINE || tr->npts < 3)
					continue;
				/* Hills lie beneath; of the rest the later piece
				 * (a bog in a ravine) is drawn over the earlier. */
				if (geom_in_poly(p, &b->points[tr->first_pt], tr->npts) &&
				    (tr->kind != T_HILL || ch == ' '))
					ch = terrain_char(tr->kind);
			}
			grid[r][c] = ch;
		}
		grid[r][cols] = '\0';
	}
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *tr = &b->terrain[i];

		if (tr->kind < T_FIRST_LINE)
			continue;
		for (k = 0; k + 1 < tr->npts; k++) {
			struct pt a = b->points[tr->first_pt + k];
			struct pt z = b->points[tr->first_pt + k + 1];
			int s, steps = 4 * (cols + rows);

			for (s = 0; s <= steps; s++) {
				double x = (a.x + (double)(z.x - a.x) * s / steps) / 100.0;
				double y = (a.y + (double)(z.y - a.y) * s / steps) / 100.0;

				c = (int)(x / per_col);
				r = (int)(((double)b->depth / 100.0 - y) / per_row);
				if (r >= 0 && r < rows && c >= 0 && c < cols)
					grid[r][c] = terrain_char(tr->kind);
			}
		}
	}
	/* Units at their centres, commanders as '@'; the enemy only in an
	 * open game. */
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *cm = &b->commanders[k];

		if (cm->gone || cm->out_removed || (seen != NULL && cm->side != side))
			continue;
		c = (int)((double)cm->pos.x / 100.0 / per_col);
		r = (int)(((double)(b->depth - cm->pos.y)) / 100.0 / per_row);
		if (r >= 0 && r < rows && c >= 0 && c < cols)
			grid[r][c] = '@';
	}
	for (u = 0; u < b->nunits; u++) {
		struct pt p;

		if (!seen_centre(b, u, seen, &p))
			continue;
		c = (int)((double)p.x / 100.0 / per_col);
		r = (int)(((double)(b->depth - p.y)) / 100.0 / per_row);
		if (r >= 0 && r < rows && c >= 0 && c < cols)
			grid[r][c] = unit_key(b, u);
	}
	text_init(&t, 64 * 1024);
	/* The frame: inches every 12 along the top, every 12 up the side. */
	text_add(&t, "    ");
	for (c = 0; c < cols; c++) {
		int m = (int)ceil(c * per_col / 12.0) * 12;

		if (m < (c + 1) * per_col) {
			char n[8];
			int l = snprintf(n, sizeof(n), "%d", m);

			text_add(&t, "%s", n);
			c += l - 1;
		} else {
			text_add(&t, " ");
		}
	}
	text_add(&t, "\n   +");
	for (c = 0; c < cols; c++)
		text_add(&t, "-");
	text_add(&t, "+\n");
	for (r = 0; r < rows; r++) {
		double top = (double)b->depth / 100.0 - r * per_row;
		int m = (int)floor(top / 12.0) * 12;

		if (m > top - per_row)
			text_add(&t, "%2d |%s|\n", m, grid[r]);
		else
			text_add(&t, "   |%s|\n", grid[r]);
	}
	text_add(&t, "   +");
	for (c = 0; c < cols; c++)
		text_add(&t, "-");
	text_add(&t, "+\n");
	text_add(&t, "North is up; a character is %.2g\" across; @ a commander.\n"
	    "Terrain: w wood, W forest, t thicket, , marsh, . hill, \" crops, "
	    ": broken,\n# town, = road, ~ stream, + fence, * hedge.\n", per_col);
	for (u = 0; u < b->nunits; u++) {
		struct pt p;
		char xs[16], ys[16];

		if (!seen_centre(b, u, seen, &p))
			continue;
		geom_fmt_fx(p.x, xs, sizeof(xs));
		geom_fmt_fx(p.y, ys, sizeof(ys));
		text_add(&t, "  %c  %5s,%-5s  %s\n", unit_key(b, u), xs, ys,
		    b->units[u].name);
	}
	return t.s;
}
