/*
 * png.h - the map's PNG encoders and the byte buffer they write to
 * (internal to src/map).
 */
#ifndef DESPATCH_MAP_PNG_H
#define DESPATCH_MAP_PNG_H

#include <stddef.h>

#include <cairo.h>

#include "core/err.h"

/* A growing byte buffer for the drawn map; failed once out of memory. */
struct membuf {
	unsigned char *p;
	size_t len, cap;
	int failed;
};

/* Appends n bytes of d to m (sets m->failed when it cannot). */
void map_mb_put(struct membuf *m, const void *d, size_t n);

/* The image surface sf as an RGB PNG, or as a palette one (the same
 * pixels give the same bytes), appended to out.  0, or -1 with e set. */
int map_png_rgb(cairo_surface_t *sf, struct membuf *out, struct err *e);
int map_png_palette(cairo_surface_t *sf, struct membuf *out, struct err *e);

#endif
