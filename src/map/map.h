/*
 * map.h - the map of a battle, drawn with cairo: the same drawing writes a
 * PNG (for mail clients) and an SVG (for zooming).
 *
 * With map_opts.seen it draws one side's view of a fog game; with
 * map_opts.crop (a report mail's inline map) only the part of the table
 * round the side's forces and what it sees (map_crop, layout.c).
 */
#ifndef DESPATCH_MAP_H
#define DESPATCH_MAP_H

#include <stddef.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

#define MAP_WIDTH_PX 1200   /* the PNG's width */
#define MAP_LAYOUT_MAX 512  /* the boxes a struct map_layout holds */

/* A part of the table, in hundredths of an inch: x0 <= x < x1 west to
 * east, y0 <= y < y1 south to north. */
struct map_box {
	fx x0, y0, x1, y1;
};

/* Where a drawn map put things, in the page's pixels (x right, y down):
 * for tests, which cannot read a label's place from the pixels. */
struct map_layout {
	int w, h;                       /* the page */
	struct map_box view;            /* the part of the table drawn */
	double table[4];                /* that part's frame: x0 y0 x1 y1 */
	int nblocks;                    /* each stand drawn, as a box */
	double block[MAP_LAYOUT_MAX][4];
	int nlabels;                    /* each label, its painted ground */
	double label[MAP_LAYOUT_MAX][4];
	char text[MAP_LAYOUT_MAX][64];  /* ... and its words (cut at 63) */
};

struct map_opts {
	const char *title;      /* first title line ("Cowpens (game cowpens)") */
	const char *subtitle;   /* second ("Turn 3 of 6, 07:30") or NULL */
	int width_px;           /* 0: MAP_WIDTH_PX */
	/* A side's view: only the stands seen[stand] marks (and only its
	 * own commanders); NULL draws everything. */
	const unsigned char *seen;
	int side;
	/* The step just played, drawn over the forces (NULL: none): from[u]
	 * the centre of unit u before it, where from_ok[u] is set; each unit
	 * that moved an arrow from there to where it stands, each fire of ev
	 * a line from firer to target, each melee won a mark between the
	 * two.  With seen, only units the side sees (its own, or with a
	 * stand in sight). */
	const struct pt *from;
	const unsigned char *from_ok;
	const struct events *ev;
	/* Enemy units out of sight now, drawn where the side last saw them
	 * (dashed, labelled with the turn). */
	const struct sighting *last;
	int nlast;
	/* Draw the deployment zones, for the battle's deployment step: 1
	 * the side's, 2 every side's (0: none). */
	int zones;
	/* A PNG of at most 256 colours (a report mail's inline map, kept
	 * small), rather than full colour.  Not for the SVG. */
	int compact;
	/* With compact: only the part of the table around the side's
	 * forces and what it sees (map_crop), at the scale of the whole
	 * field's map; the whole field when side < 0 (an observer). */
	int crop;
	/* Filled with where things went when not NULL (tests). */
	struct map_layout *layout;
};

/* The part of the table a cropped map of side draws (map_opts.crop): the
 * box round side's stands and commanders on the table, and the enemy
 * stands it sees (seen, or every stand when seen is NULL, an open game),
 * grown to take in the whole of each objective whose point lies in it,
 * padded by MAP_CROP_PAD, no narrower than the page of width_px pixels
 * needs for its title and key, no smaller than MAP_CROP_MIN_W by
 * MAP_CROP_MIN_D, never taller than it is wide nor more than twice as
 * wide as it is deep, and inside the table, in whole inches.  The whole
 * table when side < 0 or the side has nothing on it.  Integer
 * arithmetic only: the same battle gives the same box anywhere. */
#define MAP_CROP_PAD    400     /* 4 inches */
#define MAP_CROP_MIN_W  2400
#define MAP_CROP_MIN_D  1600
#define MAP_CROP_MIN_PX 620     /* the title's and the key's room */
void map_crop(const struct battle *b, const unsigned char *seen, int side,
    int width_px, struct map_box *box);

/* What side sees of b in a fog game, by the ruleset's line of sight: a
 * malloc'd mask a stand (its own stands only when the ruleset has no
 * sight), or NULL when out of memory. */
unsigned char *map_seen(const struct battle *b, int side);

/* Draws the map of b into memory: a PNG, or an SVG when svg is set.  0
 * with a malloc'd *out of *len bytes, or -1 with e set. */
/* The words of the map's key to the stand markers, in the order drawn,
 * for a ruleset whose stands carry them (ruleset_words.stand_markers):
 * into w[0 .. max - 1]; how many. */
#define MAP_KEY_MAX 12
int map_key_words(const struct battle *b, const char **w, int max);

int map_render(const struct battle *b, const struct map_opts *o, int svg,
    unsigned char **out, size_t *len, struct err *e);

/* Writes the map of b to path: a PNG, or an SVG when path ends in
 * ".svg".  0, or -1 with e set. */
int map_write(const struct battle *b, const struct map_opts *o,
    const char *path, struct err *e);

/* The table as text, cols characters wide (24 to 190), North up: terrain
 * by kind, each unit a letter at its centre (A-Z the first side's, a-z
 * the second's), '@' a commander, the frame marked every 12 inches, and
 * a key with each unit's centre.  With seen (map_seen), side's view:
 * units by the stands seen, and only side's commanders.  A malloc'd
 * string, or NULL when out of memory. */
char *map_ascii(const struct battle *b, int side, const unsigned char *seen,
    int cols);

/* Where table point (x, y) in hundredths of an inch falls on the PNG of
 * that width: for tests that look at pixels. */
void map_to_px(const struct battle *b, int width_px, fx x, fx y, double *px,
    double *py);

/* Writes a drawn map's bytes to path, mode 0644 (a map is meant for
 * others): 0, or -1 with e set. */
int map_write_bytes(const char *path, const unsigned char *data, size_t len,
    struct err *e);

/* A campaign's operational map as it stands (src/map/campaign_map.c):
 * places, roads, rivers, depots, and the columns with their strength;
 * side >= 0 draws that side's columns and the enemy's it sees (and no
 * enemy's strength), -1 every column.  PNG or SVG by path's end.  0, or
 * -1 with e set. */
struct campaign;
/* The same into memory (*out malloc'd): compact, the narrower page for
 * a mail. */
int campaign_map_render(const struct campaign *c, int side, const char *title,
    const char *subtitle, int svg, int compact, unsigned char **out,
    size_t *outlen, struct err *e);
int campaign_map_write(const struct campaign *c, int side, const char *title,
    const char *subtitle, const char *path, struct err *e);

#endif
