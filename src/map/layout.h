/*
 * layout.h - the map's page geometry shared by map.c and layout.c:
 * margins, and the placing of labels (internal to src/map).
 */
#ifndef DESPATCH_MAP_LAYOUT_H
#define DESPATCH_MAP_LAYOUT_H

#define MARGIN_L 46.0   /* room for the y grid labels */
#define MARGIN_R 16.0
#define MARGIN_T 64.0   /* the title */
#define MARGIN_B 70.0   /* x labels, scale bar, north arrow */
#define MARGIN_LR_PX 62 /* MARGIN_L + MARGIN_R, for integer sums */

/* A box on the page: x0 y0 x1 y1, pixels, y down. */
typedef double layout_box[4];

/* Where a label goes: the first of the spots round what it names (the
 * box at: a unit's stands, a commander's ring, a point) -- above it,
 * below, right, left, above and below from its middle to the right and
 * to the left, twice above and twice below, then all again one and two
 * steps further out -- whose ground, moved inside area where it would
 * cross its edge, overlaps none of the ntaken boxes taken; when every
 * spot does, the one that overlaps them least (the first of equals).
 * The label is w pixels wide and its ground runs from top to bottom
 * about its baseline (top < 0 < bottom) and 2 pixels beyond its ends;
 * step is a line's height.  *bx, *by: the left end of the label's
 * baseline.  The same input gives the same place: no state, and the
 * spots in a fixed order. */
void layout_label(const layout_box area, const layout_box *taken,
    int ntaken, const layout_box at, double w, double top, double bottom,
    double step, double *bx, double *by);

/* Grows box to take in page point (x, y); the first point sets it. */
void layout_box_add(layout_box box, double x, double y, int first);

#endif
