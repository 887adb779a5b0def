/*
 * test_layout.c - the map's layout (src/map/layout.c): the part of the
 * table a report mail's inline map shows (map_crop), and where labels
 * go: inside the part drawn, off every stand, off each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map/map.h"
#include "scenario/scenario.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

/* A long table: the crown in the west with the Continental's 2nd
 * Virginia close in front of it, and far in the east the 9th Virginia,
 * which the crown does not see; an objective by the crown, another far
 * off by the 9th. */
static const char wide[] =
    "scenario \"The Long Field\"\nruleset vnb-wing\ntable 120 x 48\n"
    "turns 2\n"
    "objective \"Mill\" at 18,22 radius 3 points 1\n"
    "objective \"Far Farm\" at 108,30 radius 3 points 1\n"
    "side crown \"Crown\"\n  commander \"Howe\" army at 16,4\n"
    "  brigade \"1st\" commander \"Grey\" at 12,8\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 12,10 facing 0\n"
    "    unit \"33rd Foot\" type british-line stands 2 sp 3 at 22,14 facing 0\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 100,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 104,40\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 26,26 facing 180\n"
    "    unit \"9th Virginia\" type continentals-post-1778 stands 2 sp 2 at 106,36 facing 180\n";

static struct battle *
parse(const char *sc)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse(sc, strlen(sc), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

static int
unit_named(const struct battle *b, const char *name)
{
	int u;

	for (u = 0; u < b->nunits; u++)
		if (strcmp(b->units[u].name, name) == 0)
			return u;
	fail_msg("no unit %s", name);
	return -1;
}

/* The crown's view: its own stands and the 2nd Virginia's. */
static unsigned char *
crown_seen(const struct battle *b)
{
	unsigned char *seen = calloc((size_t)b->nstands + 1, 1);
	int far = unit_named(b, "9th Virginia"), s;

	assert_non_null(seen);
	for (s = 0; s < b->nstands; s++)
		seen[s] = b->stands[s].unit != far;
	return seen;
}

static int
in_box(const struct map_box *x, struct pt p)
{
	return p.x >= x->x0 && p.x <= x->x1 && p.y >= x->y0 && p.y <= x->y1;
}

/* Draws b as o asks, into a layout (to free), and the PNG's bytes into
 * *png (to free) when png is not NULL. */
static struct map_layout *
laid_out(const struct battle *b, struct map_opts *o, unsigned char **png,
    size_t *len)
{
	struct map_layout *lo = calloc(1, sizeof(*lo));
	unsigned char *p = NULL;
	size_t n = 0;
	struct err e;

	assert_non_null(lo);
	o->layout = lo;
	if (map_render(b, o, 0, &p, &n, &e) != 0)
		fail_msg("%s", e.msg);
	o->layout = NULL;
	if (png != NULL) {
		*png = p;
		*len = n;
	} else
		free(p);
	return lo;
}

static double
overlap(const double a[4], const double b[4])
{
	double w = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
	double h = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);

	return w > 0 && h > 0 ? w * h : 0;
}

/* The box holds every corner of every own stand and of the enemy seen,
 * the whole reach of the objective among them, and nothing of the 9th
 * Virginia or the far farm 80 inches off; whole inches on the table,
 * and the map drawn is that box, on a page narrower than the whole
 * field's. */
static void
the_crop_holds_the_side_and_the_enemy_it_sees_and_not_the_far_one(
    void **state)
{
	struct battle *b = parse(wide);
	unsigned char *seen = crown_seen(b);
	int far = unit_named(b, "9th Virginia"), s, k;
	struct map_layout *lo;
	struct map_opts o;
	struct map_box x;
	struct pt r[4], p;

	(void)state;
	map_crop(b, seen, 0, 0, &x);
	for (s = 0; s < b->nstands; s++) {
		battle_stand_rect(b, s, r);
		for (k = 0; k < 4; k++)
			if (b->stands[s].unit == far)
				assert_false(in_box(&x, r[k]));
			else
				assert_true(in_box(&x, r[k]));
	}
	p = b->objectives[0].at;
	p.x -= b->objectives[0].radius;
	assert_true(in_box(&x, p));
	p.y -= b->objectives[0].radius;
	assert_true(in_box(&x, p));
	assert_false(in_box(&x, b->objectives[1].at));
	assert_true(x.x1 < 80 * 100);
	assert_true(x.x0 >= 0 && x.y0 >= 0 && x.x1 <= b->width &&
	    x.y1 <= b->depth);
	assert_int_equal(x.x0 % 100, 0);
	assert_int_equal(x.y1 % 100, 0);
	/* Not taller than wide, and at least the least the page needs. */
	assert_true(x.x1 - x.x0 >= x.y1 - x.y0);
	assert_true(x.x1 - x.x0 >= MAP_CROP_MIN_W);
	memset(&o, 0, sizeof(o));
	o.seen = seen;
	o.side = 0;
	o.compact = 1;
	o.crop = 1;
	lo = laid_out(b, &o, NULL, NULL);
	assert_memory_equal(&lo->view, &x, sizeof(x));
	assert_true(lo->w >= MAP_CROP_MIN_PX && lo->w < MAP_WIDTH_PX * 2 / 3);
	for (k = 0; k < lo->nlabels; k++)
		assert_null(strstr(lo->text[k], "9th Virginia"));
	free(lo);
	free(seen);
	battle_free(b);
}

/* An observer (side -1) sees everything: the whole field, at the full
 * width, cropped or not; and a fog side with nothing on the table nor in
 * sight gets the whole field too. */
static void
an_observers_map_is_the_whole_field(void **state)
{
	struct battle *b = parse(wide);
	struct map_layout *lo;
	struct map_opts o;
	struct map_box x;
	unsigned char *none;
	int s;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.side = -1;
	o.compact = 1;
	o.crop = 1;
	lo = laid_out(b, &o, NULL, NULL);
	assert_int_equal(lo->view.x0, 0);
	assert_int_equal(lo->view.y0, 0);
	assert_int_equal(lo->view.x1, b->width);
	assert_int_equal(lo->view.y1, b->depth);
	assert_int_equal(lo->w, MAP_WIDTH_PX);
	free(lo);
	for (s = 0; s < b->nstands; s++)
		if (b->units[b->stands[s].unit].side == 1)
			b->stands[s].flags |= ST_GONE;
	for (s = 0; s < b->ncommanders; s++)
		if (b->commanders[s].side == 1)
			b->commanders[s].gone = 1;
	none = calloc((size_t)b->nstands + 1, 1);
	assert_non_null(none);
	map_crop(b, none, 1, 0, &x);
	assert_int_equal(x.x1 - x.x0, b->width);
	assert_int_equal(x.y1 - x.y0, b->depth);
	free(none);
	battle_free(b);
}

/* A long name on a unit 1" from the table's west edge, one by its north
 * edge, and one at the west edge of a crop (the crop's east end held by
 * another unit 40" off): every label lies wholly inside the part drawn,
 * and so inside the image, the whole field's or the crop's. */
static void
a_label_by_an_edge_lies_wholly_inside_the_image(void **state)
{
	static const char *longname =
	    "The Very Long Named Regiment of Continental Light Dragoons";
	struct map_layout *lo;
	struct map_opts o;
	struct battle *b;
	int crop, k, u, s, seen_long;

	(void)state;
	for (crop = 0; crop < 2; crop++) {
		b = parse(wide);
		/* The 23rd to the west edge, the 33rd to the north edge, the
		 * 2nd Virginia (the long name) to the crop's west end. */
		u = unit_named(b, "23rd Foot");
		for (s = b->units[u].first_stand; s < b->units[u].first_stand +
		    b->units[u].nstands; s++)
			b->stands[s].pos.x -= 11 * 100;
		u = unit_named(b, "33rd Foot");
		for (s = b->units[u].first_stand; s < b->units[u].first_stand +
		    b->units[u].nstands; s++)
			b->stands[s].pos.y += 33 * 100;
		u = unit_named(b, "2nd Virginia");
		snprintf(b->units[u].name, sizeof(b->units[u].name), "%s",
		    longname);
		if (crop) {
			/* Only the 2nd Virginia and the 9th, 40" to its east,
			 * for the continental's crop. */
			for (s = 0; s < b->nstands; s++)
				if (b->units[b->stands[s].unit].side == 0)
					b->stands[s].flags |= ST_GONE;
			u = unit_named(b, "9th Virginia");
			for (s = b->units[u].first_stand; s <
			    b->units[u].first_stand + b->units[u].nstands; s++)
				b->stands[s].pos.x -= 40 * 100;
			for (s = 0; s < b->ncommanders; s++)
				b->commanders[s].gone = 1;
		}
		memset(&o, 0, sizeof(o));
		o.side = crop ? 1 : 0;
		o.compact = 1;
		o.crop = crop;
		lo = laid_out(b, &o, NULL, NULL);
		if (crop)
			assert_true(lo->view.x0 > 0 && lo->w < MAP_WIDTH_PX);
		seen_long = 0;
		for (k = 0; k < lo->nlabels; k++) {
			seen_long += strncmp(lo->text[k], longname, 40) == 0;
			assert_true(lo->label[k][0] >= 0);
			assert_true(lo->label[k][1] >= 0);
			assert_true(lo->label[k][2] <= lo->w);
			assert_true(lo->label[k][3] <= lo->h);
			assert_true(lo->label[k][0] >= lo->table[0] - 0.01);
			assert_true(lo->label[k][2] <= lo->table[2] + 0.01);
			assert_true(lo->label[k][1] >= lo->table[1] - 0.01);
			assert_true(lo->label[k][3] <= lo->table[3] + 0.01);
		}
		assert_int_equal(seen_long, 1);
		free(lo);
		battle_free(b);
	}
}

/* Three units side by side, their stands touching, and a fourth just
 * behind the middle one: no label covers any stand, nor another label. */
static void
labels_of_units_close_together_keep_off_each_others_stands(void **state)
{
	static const char close[] =
	    "scenario \"Crowded\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 6,30\n"
	    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 20,16 facing 0\n"
	    "    unit \"33rd Foot\" type british-line stands 2 sp 3 at 26,16 facing 0\n"
	    "    unit \"Light Company\" type british-line stands 1 sp 2 at 23,18 facing 0\n"
	    "    unit \"Grenadiers\" type british-line stands 2 sp 3 at 32,16 facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at 40,34\n"
	    "  brigade \"Va\" commander \"Weedon\" at 44,34\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 23,20.5 facing 180\n";
	struct battle *b = parse(close);
	struct map_layout *lo;
	struct map_opts o;
	int i, k, crop;

	(void)state;
	for (crop = 0; crop < 2; crop++) {
		memset(&o, 0, sizeof(o));
		o.side = 0;
		o.compact = 1;
		o.crop = crop;
		lo = laid_out(b, &o, NULL, NULL);
		assert_int_equal(lo->nblocks, 9);
		assert_true(lo->nlabels >= 5);
		for (k = 0; k < lo->nlabels; k++) {
			for (i = 0; i < lo->nblocks; i++)
				if (overlap(lo->label[k], lo->block[i]) > 0)
					fail_msg("'%s' lies on a stand", lo->text[k]);
			for (i = 0; i < k; i++)
				if (overlap(lo->label[k], lo->label[i]) > 0)
					fail_msg("'%s' lies on '%s'", lo->text[k],
					    lo->text[i]);
		}
		free(lo);
	}
	battle_free(b);
}

/* Cowpens for each side, open and in fog: the inline map, whole or
 * cropped, a palette PNG of at most 60 KB, the cropped one smaller and
 * narrower than the whole field's, the same bytes each time it is
 * drawn, and still a PNG (moved here from test_map.c). */
static void
the_cropped_inline_map_is_small_palette_and_always_the_same(void **state)
{
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	char *text = NULL;
	size_t tlen = 0;
	int side, fog;

	(void)state;
	if (scenario_load_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", &text, &tlen, &b, &e) != 0)
		fail_msg("%s", e.msg);
	for (fog = 0; fog < 2; fog++)
		for (side = 0; side < b->nsides; side++) {
			unsigned char *seen = fog ? map_seen(b, side) : NULL;
			unsigned char *p1 = NULL, *p2 = NULL, *whole = NULL;
			size_t l1 = 0, l2 = 0, lw = 0;
			struct map_layout *lo;

			assert_true(!fog || seen != NULL);
			memset(&o, 0, sizeof(o));
			o.title = "Cowpens (game cowpens)";
			o.subtitle = "Turn 1 of 6, 07:00: as this side sees it";
			o.seen = seen;
			o.side = side;
			o.compact = 1;
			assert_int_equal(map_render(b, &o, 0, &whole, &lw, &e), 0);
			o.crop = 1;
			lo = laid_out(b, &o, &p1, &l1);
			assert_int_equal(map_render(b, &o, 0, &p2, &l2, &e), 0);
			assert_true(lw <= 60 * 1024);
			assert_int_equal(whole[25], 3);
			assert_true(l1 < lw);
			assert_true(lo->w < MAP_WIDTH_PX);
			assert_int_equal(l1, l2);
			assert_memory_equal(p1, p2, l1);
			assert_int_equal(p1[25], 3);   /* IHDR: palette */
			free(lo);
			free(p1);
			free(p2);
			free(whole);
			free(seen);
		}
	free(text);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    the_crop_holds_the_side_and_the_enemy_it_sees_and_not_the_far_one),
		cmocka_unit_test(an_observers_map_is_the_whole_field),
		cmocka_unit_test(a_label_by_an_edge_lies_wholly_inside_the_image),
		cmocka_unit_test(
		    labels_of_units_close_together_keep_off_each_others_stands),
		cmocka_unit_test(
		    the_cropped_inline_map_is_small_palette_and_always_the_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
