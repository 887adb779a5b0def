/*
 * grid.c - a uniform grid of boxes (see grid.h for the contract).
 *
 * Workload: a few hundred items (a battle's units), moved a quarter inch
 * at a time by the ruleset's movement, each move a query for what is
 * within a few inches of the mover.  Filing and moving are a handful of
 * operations on doubly linked lists by index; a query visits the cells
 * its box (widened back by the largest box filed) covers and sorts what
 * it finds, usually a dozen items or fewer.
 */
#include "core/grid.h"

#include <stdint.h>
#include <stdlib.h>

int
grid_init(struct grid *g, fx width, fx depth, fx cell, int nitems)
{
	int i;

	if (nitems < 0 || nitems > GRID_MAX_ITEMS || cell <= 0)
		return -1;
	if (width < 1)
		width = 1;
	if (depth < 1)
		depth = 1;
	/* A cell at least as large as GRID_SIDE of them need to cover the
	 * table: nothing is lost by fewer, larger cells, only speed. */
	if ((int64_t)cell * GRID_SIDE < width)
		cell = (fx)((width + GRID_SIDE - 1) / GRID_SIDE);
	if ((int64_t)cell * GRID_SIDE < depth)
		cell = (fx)((depth + GRID_SIDE - 1) / GRID_SIDE);
	g->x0 = 0;
	g->y0 = 0;
	g->cell = cell;
	g->nx = (int)((width + cell - 1) / cell);
	g->ny = (int)((depth + cell - 1) / cell);
	g->nx = g->nx < 1 ? 1 : g->nx > GRID_SIDE ? GRID_SIDE : g->nx;
	g->ny = g->ny < 1 ? 1 : g->ny > GRID_SIDE ? GRID_SIDE : g->ny;
	g->nitems = nitems;
	g->wide = 0;
	g->deep = 0;
	for (i = 0; i < g->nx * g->ny; i++)
		g->head[i] = -1;
	for (i = 0; i < nitems; i++) {
		g->at[i] = -1;
		g->next[i] = g->prev[i] = -1;
	}
	return 0;
}

/* The column (or row) of coordinate v, clamped to the grid: what lies
 * off the table is filed and found at its edge. */
static int
cell_of(int64_t v, fx origin, fx cell, int n)
{
	int64_t i;

	v -= origin;
	if (v < 0)
		return 0;
	i = v / cell;
	return i >= n ? n - 1 : (int)i;
}

static void
unlink_item(struct grid *g, int item)
{
	int c = g->at[item];

	if (g->prev[item] >= 0)
		g->next[g->prev[item]] = g->next[item];
	else
		g->head[c] = g->next[item];
	if (g->next[item] >= 0)
		g->prev[g->next[item]] = g->prev[item];
	g->next[item] = g->prev[item] = -1;
	g->at[item] = -1;
}

void
grid_put(struct grid *g, int item, const fx box[4])
{
	int c;

	if (item < 0 || item >= g->nitems)
		return;
	c = cell_of(box[1], g->y0, g->cell, g->ny) * g->nx +
	    cell_of(box[0], g->x0, g->cell, g->nx);
	g->box[item][0] = box[0];
	g->box[item][1] = box[1];
	g->box[item][2] = box[2];
	g->box[item][3] = box[3];
	/* Only ever wider: a query looks back this far for a box that
	 * starts before it and reaches into it. */
	if (box[2] - box[0] > g->wide)
		g->wide = box[2] - box[0];
	if (box[3] - box[1] > g->deep)
		g->deep = box[3] - box[1];
	if (g->at[item] == c)
		return;
	if (g->at[item] >= 0)
		unlink_item(g, item);
	g->at[item] = c;
	g->prev[item] = -1;
	g->next[item] = g->head[c];
	if (g->head[c] >= 0)
		g->prev[g->head[c]] = item;
	g->head[c] = item;
}

void
grid_remove(struct grid *g, int item)
{
	if (item >= 0 && item < g->nitems && g->at[item] >= 0)
		unlink_item(g, item);
}

int
grid_get(const struct grid *g, int item, fx box[4])
{
	if (item < 0 || item >= g->nitems || g->at[item] < 0)
		return 0;
	if (box != NULL) {
		box[0] = g->box[item][0];
		box[1] = g->box[item][1];
		box[2] = g->box[item][2];
		box[3] = g->box[item][3];
	}
	return 1;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int
grid_query(const struct grid *g, const fx box[4], int *out)
{
	int cx0, cy0, cx1, cy1, x, y, n = 0;

	/* A box filed in a cell before the query's starts no further back
	 * than the widest (deepest) box. */
	cx0 = cell_of((int64_t)box[0] - g->wide, g->x0, g->cell, g->nx);
	cy0 = cell_of((int64_t)box[1] - g->deep, g->y0, g->cell, g->ny);
	cx1 = cell_of(box[2], g->x0, g->cell, g->nx);
	cy1 = cell_of(box[3], g->y0, g->cell, g->ny);
	for (y = cy0; y <= cy1; y++)
		for (x = cx0; x <= cx1; x++) {
			int i;

			for (i = g->head[y * g->nx + x]; i >= 0; i = g->next[i]) {
				const fx *b = g->box[i];

				if (b[0] <= box[2] && b[2] >= box[0] &&
				    b[1] <= box[3] && b[3] >= box[1])
					out[n++] = i;
			}
		}
	/* The cells' order is not the items': the caller walks them as it
	 * would walk every item. */
	if (n > 1)
		qsort(out, (size_t)n, sizeof(out[0]), cmp_int);
	return n;
}
