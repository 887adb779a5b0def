/*
 * grid.h - a uniform grid of boxes on the table, to find what may be near
 * a place without looking at everything (issue 24).
 *
 * The caller numbers its items 0 .. nitems - 1 (a unit's index, say) and
 * files each with its box (x0, y0, x1, y1, inclusive) by grid_put, again
 * whenever the box changes, and takes it out with grid_remove when it
 * leaves the table.  An item is filed in the one cell that holds its
 * box's low corner (clamped to the grid, so the table's edge and beyond
 * are the edge cells); a query looks back as far as the widest and
 * deepest box ever filed, so an item whose box meets the query box is
 * always found.
 *
 * grid_query answers in ascending item order, whatever cells they are
 * in: a caller that walks the answer instead of every item visits the
 * same items in the same order, less those that cannot matter, so what
 * it decides is the same byte for byte.
 *
 * Plain data of a fixed size, with no pointers, so it is copied with
 * memcpy along with whatever holds it.  It is never state: nothing in it
 * is hashed, stored or compared, and no answer of the rules may depend
 * on more than which items it lists.
 */
#ifndef DESPATCH_CORE_GRID_H
#define DESPATCH_CORE_GRID_H

#include "core/geom.h"

#define GRID_MAX_ITEMS 512   /* BATTLE_MAX_UNITS */
#define GRID_SIDE      64    /* cells a side at most */

struct grid {
	fx x0, y0, cell;          /* the low corner of cell 0, a cell's side */
	int nx, ny, nitems;
	fx wide, deep;            /* the widest and deepest box filed */
	int head[GRID_SIDE * GRID_SIDE];   /* first item of a cell, or -1 */
	int next[GRID_MAX_ITEMS], prev[GRID_MAX_ITEMS];
	int at[GRID_MAX_ITEMS];   /* an item's cell, or -1: not filed */
	fx box[GRID_MAX_ITEMS][4];
};

/* Makes g an empty grid over the table 0..width x 0..depth for items
 * 0 .. nitems - 1, with cells of side cell or, on a table too big for
 * GRID_SIDE of them, as large as it needs.  0, or -1 (nitems more than
 * GRID_MAX_ITEMS or less than 0, cell not positive): g is then unusable. */
int grid_init(struct grid *g, fx width, fx depth, fx cell, int nitems);

/* Files item (0 .. nitems - 1) with box, or moves it there if filed. */
void grid_put(struct grid *g, int item, const fx box[4]);

/* Takes item out; a no-op if it is not filed. */
void grid_remove(struct grid *g, int item);

/* 1 if item is filed, its box into box (NULL: not wanted); else 0. */
int grid_get(const struct grid *g, int item, fx box[4]);

/* The filed items whose boxes meet box (edges touching count), in
 * ascending order, into out (room for nitems); how many. */
int grid_query(const struct grid *g, const fx box[4], int *out);

#endif
