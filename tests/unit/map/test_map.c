/*
 * test_map.c - the map (src/map): drawn where the forces stand, in their
 * sides' colours, the same drawing to a PNG and an SVG.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cairo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events.h"
#include "core/ruleset.h"
#include "rules/bb7.h"
#include "map/map.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif
#include "report/report.h"
#include "scenario/scenario.h"

static const char scen[] =
    "scenario \"Skirmish at the Mill\"\nruleset vnb-wing\ntable 48 x 36\n"
    "turns 2\n"
    "terrain wood \"Mill wood\" poly 30,2 46,2 46,14 30,14\n"
    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 12,8\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 12,10 facing 0\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 24,32\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,24\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,20 facing 180\n";

/* The pixel of the PNG at table point (x, y), as 0xRRGGBB. */
static uint32_t
pixel(cairo_surface_t *s, const struct battle *b, double x, double y)
{
	double px, py;
	unsigned char *d = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);

	map_to_px(b, cairo_image_surface_get_width(s), (fx)(x * 100),
	    (fx)(y * 100), &px, &py);
	return *(uint32_t *)(d + (int)py * stride + (int)px * 4) & 0xffffff;
}

static int
reddish(uint32_t p)
{
	return (p >> 16 & 0xff) > 150 && (p >> 8 & 0xff) < 80 && (p & 0xff) < 80;
}

/* The map's ground colour (0.97, 0.95, 0.88), give or take rounding. */
static int
parchment(uint32_t p)
{
	int r = (int)(p >> 16 & 0xff), g = (int)(p >> 8 & 0xff), b = (int)(p & 0xff);

	return abs(r - 247) <= 2 && abs(g - 242) <= 2 && abs(b - 224) <= 2;
}

/* A pixel of a move's arrow near table point (x, y): a dark red, red
 * well above green and blue and darker than the stands' red. */
static int
on_arrow(cairo_surface_t *s, const struct battle *b, double x, double y)
{
	int dx, dy;

	for (dx = -3; dx <= 3; dx++)
		for (dy = -3; dy <= 3; dy++) {
			uint32_t p = pixel(s, b, x + dx * 0.03, y + dy * 0.03);
			int r = (int)(p >> 16 & 0xff), g = (int)(p >> 8 & 0xff);

			if (r > g + 50 && r < 190 && (int)(p & 0xff) < r - 50)
				return 1;
		}
	return 0;
}

static int
bluish(uint32_t p)
{
	return (p & 0xff) > 130 && (p >> 16 & 0xff) < 80;
}

/* How many times needle occurs in s[0..n). */
static int
count(const unsigned char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;
	int c = 0;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			c++;
	return c;
}

static void
forces_and_terrain_are_drawn_where_they_stand(void **state)
{
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	char png[] = "/tmp/despatch-map-XXXXXX.png", svg[64];
	cairo_surface_t *s;
	FILE *f;
	char head[64] = "";
	int fd;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	fd = mkstemps(png, 4);
	assert_true(fd >= 0);
	close(fd);
	memset(&o, 0, sizeof(o));
	o.title = "Skirmish at the Mill";
	o.subtitle = "The field at the start";
	if (map_write(b, &o, png, &e) != 0)
		fail_msg("%s", e.msg);
	s = cairo_image_surface_create_from_png(png);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	assert_int_equal(cairo_image_surface_get_width(s), MAP_WIDTH_PX);
	/* Each unit in its side's colour where its stands are (beside the
	 * facing tick at the centre), open ground in parchment, the wood
	 * green. */
	assert_true(reddish(pixel(s, b, 11.0, 9.8)));
	assert_true(bluish(pixel(s, b, 23.0, 20.2)));
	assert_true(parchment(pixel(s, b, 8.5, 28.5)));
	{
		uint32_t w = pixel(s, b, 38, 8);

		assert_true((w >> 8 & 0xff) > (w >> 16 & 0xff) &&
		    (w >> 8 & 0xff) > (w & 0xff));
	}
	/* Moved, the unit is drawn where it went. */
	{
		struct pt from[2];
		unsigned char ok[2] = { 1, 1 };

		battle_unit_centre(b, 0, &from[0]);
		battle_unit_centre(b, 1, &from[1]);
		b->stands[b->units[0].first_stand].pos.x = 3450;
		b->stands[b->units[0].first_stand].pos.y = 3000;
		b->stands[b->units[0].first_stand + 1].pos.x = 3750;
		b->stands[b->units[0].first_stand + 1].pos.y = 3000;
		assert_int_equal(map_write(b, &o, png, &e), 0);
		cairo_surface_destroy(s);
		s = cairo_image_surface_create_from_png(png);
		assert_true(reddish(pixel(s, b, 35.0, 30.0)));
		/* Without the step, nothing on the way (12,10 to 36,30); with
		 * it, an arrow in the side's darker red crosses the open
		 * ground half way. */
		assert_false(on_arrow(s, b, 12 + 24 * 0.48, 10 + 20 * 0.48));
		cairo_surface_destroy(s);
		o.from = from;
		o.from_ok = ok;
		assert_int_equal(map_write(b, &o, png, &e), 0);
		s = cairo_image_surface_create_from_png(png);
		assert_true(on_arrow(s, b, 12 + 24 * 0.48, 10 + 20 * 0.48));
		o.from = NULL;
		o.from_ok = NULL;
	}
	cairo_surface_destroy(s);
	/* The same drawing as an SVG. */
	snprintf(svg, sizeof(svg), "%.*s.svg", (int)(strlen(png) - 4), png);
	assert_int_equal(map_write(b, &o, svg, &e), 0);
	f = fopen(svg, "r");
	assert_non_null(f);
	assert_non_null(fgets(head, sizeof(head), f));
	fclose(f);
	assert_non_null(strstr(head, "<?xml"));
	unlink(png);
	unlink(svg);
	battle_free(b);
}

/* The text map: each unit's letter at its centre's cell, the key with its
 * name, no line past 78 characters, and in a fog game only the reader's
 * own side. */
/* How many times ch stands in the text map's field (its framed lines). */
static int
grid_count(const char *txt, char ch)
{
	const char *line = txt;
	int n = 0;

	while (line != NULL && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > 4 && line[3] == '|') {
			size_t i;

			for (i = 4; i < len; i++)
				n += line[i] == ch;
		}
		line = end ? end + 1 : NULL;
	}
	return n;
}

static void
the_text_map_puts_each_unit_where_it_stands(void **state)
{
	struct battle *b = NULL;
	struct err e;
	char *all, *own, *line, *save = NULL, *copy;
	int row = 0, found = 0;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	all = map_ascii(b, 0, NULL, 48);
	{
		/* Crown's own view, with nothing of the enemy's seen. */
		unsigned char *mine = calloc((size_t)b->nstands, 1);
		int s;

		assert_non_null(mine);
		for (s = 0; s < b->nstands; s++)
			mine[s] = b->units[b->stands[s].unit].side == 0;
		own = map_ascii(b, 0, mine, 48);
		free(mine);
	}
	assert_non_null(all);
	assert_non_null(own);
	/* 48 columns over 48 inches: an inch a column, two a row.  The 23rd
	 * Foot ('A') is centred at 12,10: row (36 - 10) / 2 = 13 of the
	 * grid, column 12 (after the 4-character frame). */
	copy = strdup(all);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= 78);
		if (line[3] == '|') {
			if (row == 13 && line[4 + 12] == 'A')
				found = 1;
			row++;
		}
	}
	free(copy);
	assert_true(found);
	assert_non_null(strstr(all, "A     12,10     23rd Foot"));
	assert_non_null(strstr(all, "2nd Virginia"));
	assert_non_null(strstr(all, "wwww"));   /* the Mill wood */
	assert_null(strstr(own, "2nd Virginia"));
	assert_non_null(strstr(own, "23rd Foot"));
	/* Commanders: all four in the open view; in the crown's own view
	 * only its two, never an enemy's (a fog leak otherwise). */
	assert_int_equal(grid_count(all, '@'), 4);
	assert_int_equal(grid_count(own, '@'), 2);
	free(all);
	free(own);
	battle_free(b);
}

/* A side sees an enemy in the open and not one behind a wood: what it
 * sees is what its text map shows. */
static void
a_unit_hidden_in_the_wood_is_not_seen(void **state)
{
	static const char hid[] =
	    "scenario \"Hidden\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
	    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 24,6\n"
	    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,8 facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at 44,34\n"
	    "  brigade \"Va\" commander \"Weedon\" at 44,32\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,30 facing 180\n"
	    "    unit \"3rd Virginia\" type continentals-post-1778 stands 2 sp 2 at 44,12 facing 180\n";
	struct battle *b = NULL;
	struct err e;
	unsigned char *seen;
	char *txt;

	(void)state;
	assert_int_equal(scenario_parse(hid, strlen(hid), "test", 0, &b, &e), 0);
	seen = map_seen(b, 0);
	assert_non_null(seen);
	/* Crown's own stands, and the 3rd Virginia in the open to its
	 * east; the 2nd Virginia beyond the wood, not. */
	assert_int_equal(seen[b->units[0].first_stand], 1);
	assert_int_equal(seen[b->units[2].first_stand], 1);
	assert_int_equal(seen[b->units[1].first_stand], 0);
	txt = map_ascii(b, 0, seen, 48);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "3rd Virginia"));
	assert_null(strstr(txt, "2nd Virginia"));
	free(txt);
	/* The report's list of the enemy in sight says the same. */
	{
		struct text t;

		text_init(&t, 64 * 1024);
		report_seen(&t, b, 0, seen);
		assert_non_null(t.s);
		assert_non_null(strstr(t.s, "3rd Virginia"));
		assert_non_null(strstr(t.s, "2 stands in sight"));
		assert_null(strstr(t.s, "2nd Virginia"));
		text_free(&t);
	}
	/* And its narrative: the hidden unit's move is not told, the seen
	 * one's is, and fire at the side's own unit is, whoever fired. */
	{
		struct events ev;
		char *rep;

		events_init(&ev);
		events_add(&ev, EV_MOVE, 1, 1, -1, 400, "2nd Virginia moves 4\".");
		events_add(&ev, EV_MOVE, 1, 2, -1, 300, "3rd Virginia moves 3\".");
		events_add(&ev, EV_FIRE, 1, 1, 0, 1, "2nd Virginia fires at 23rd "
		    "Foot: 1 hit.");
		rep = report_step(b, "hidden", 2, 0, &ev, 3, 0, NULL, seen, NULL);
		assert_non_null(rep);
		assert_null(strstr(rep, "2nd Virginia moves"));
		assert_non_null(strstr(rep, "3rd Virginia moves 3"));
		assert_non_null(strstr(rep, "2nd Virginia fires at 23rd Foot"));
		assert_non_null(strstr(rep, "1 thing happened out of your sight"));
		free(rep);
		events_free(&ev);
	}
	/* The side's JSON report: the seen enemy unit, not the hidden one,
	 * nor the enemy's commanders or brigades. */
	{
		struct report_game rg = { "hidden", "running", "fog", 0, 3 };
		struct events ev;
		char *js;

		events_init(&ev);
		events_add(&ev, EV_MOVE, 1, 1, -1, 400, "2nd Virginia moves 4\".");
		js = report_json_side(&rg, b, 0, seen, &ev, 2, NULL, 0, NULL);
		assert_non_null(js);
		assert_non_null(strstr(js, "\"3rd Virginia\""));
		assert_non_null(strstr(js, "\"23rd Foot\""));
		assert_null(strstr(js, "2nd Virginia"));
		assert_null(strstr(js, "Weedon"));
		assert_null(strstr(js, "Greene"));
		assert_non_null(strstr(js, "\"events_out_of_sight\": 1"));
		/* The enemy's stands in sight, without their strength. */
		assert_non_null(strstr(js, "\"sp_start\": null"));
		free(js);
		/* Crown's view of an open game (no mask) has it all. */
		js = report_json_side(&rg, b, 0, NULL, &ev, 2, NULL, 0, NULL);
		assert_non_null(strstr(js, "2nd Virginia"));
		assert_non_null(strstr(js, "Weedon"));
		free(js);
		events_free(&ev);
	}
	/* The SVG of the side's view draws the two stands it sees of the
	 * enemy in the enemy's blue, not the two hidden ones: cairo writes
	 * text as glyph outlines, so the colour is what can be counted. */
	{
		struct map_opts o;
		unsigned char *svg = NULL;
		size_t len = 0;
		int all, view;

		memset(&o, 0, sizeof(o));
		o.title = "Hidden";
		assert_int_equal(map_render(b, &o, 1, &svg, &len, &e), 0);
		all = count(svg, len, "fill:rgb(12%,25%,70%)");
		free(svg);
		o.seen = seen;
		o.side = 0;
		assert_int_equal(map_render(b, &o, 1, &svg, &len, &e), 0);
		view = count(svg, len, "fill:rgb(12%,25%,70%)");
		free(svg);
		assert_true(all >= 4);
		assert_int_equal(all - view, 2);
	}
	/* The hidden 2nd Virginia where the side last saw it, out in the
	 * open at 8,28: a pale wash of its blue on the parchment. */
	{
		struct sighting g = { 1, 800, 2800, 180, 2, 1, 1 };
		struct map_opts o;
		char path[] = "/tmp/despatch-ghost-XXXXXX.png";
		cairo_surface_t *s;
		uint32_t p;
		int fd = mkstemps(path, 4);

		assert_true(fd >= 0);
		close(fd);
		memset(&o, 0, sizeof(o));
		o.seen = seen;
		o.side = 0;
		assert_int_equal(map_write(b, &o, path, &e), 0);
		s = cairo_image_surface_create_from_png(path);
		assert_true(parchment(pixel(s, b, 8.0, 27.6)));
		cairo_surface_destroy(s);
		o.last = &g;
		o.nlast = 1;
		assert_int_equal(map_write(b, &o, path, &e), 0);
		s = cairo_image_surface_create_from_png(path);
		p = pixel(s, b, 8.0, 27.6);
		assert_false(parchment(p));
		assert_true((p & 0xff) > (p >> 16 & 0xff));
		cairo_surface_destroy(s);
		unlink(path);
	}
	/* Fired on by the hidden 2nd Virginia, the side knows where it is;
	 * a move of it tells nothing. */
	{
		struct events ev;

		events_init(&ev);
		events_add(&ev, EV_MOVE, 1, 1, -1, 400, "2nd Virginia moves.");
		/* The seen 3rd Virginia's refused order and its command are
		 * not things the crown can know. */
		events_add(&ev, EV_ORDER_REFUSED, 1, 2, -1, 0, "3rd Virginia "
		    "cannot charge.");
		events_add(&ev, EV_OUT_OF_COMMAND, 1, 2, -1, 0, "3rd Virginia is "
		    "out of command.");
		assert_false(report_event_known(b, 0, seen, &ev.v[1]));
		assert_false(report_event_known(b, 0, seen, &ev.v[2]));
		report_seen_contacts(b, 0, &ev, seen);
		assert_int_equal(seen[b->units[1].first_stand], 0);
		events_add(&ev, EV_FIRE, 1, 1, 0, 1, "2nd Virginia fires.");
		report_seen_contacts(b, 0, &ev, seen);
		assert_int_equal(seen[b->units[1].first_stand], 1);
		assert_int_equal(seen[b->units[1].first_stand + 1], 1);
		events_free(&ev);
	}
	free(seen);
	/* The continental side sees its own, and the crown only if in
	 * sight: its commander at 44,32 sees past the wood's east end. */
	seen = map_seen(b, 1);
	assert_int_equal(seen[b->units[1].first_stand], 1);
	free(seen);
	battle_free(b);
}

/* The situation line of the report: the nearest enemy the side sees,
 * not the nearer one hidden behind the wood; the distance edge to edge,
 * the bearing from the unit's centre; whether its muskets reach. */
static void
the_situation_names_the_nearest_enemy_in_sight(void **state)
{
	static const char sc[] =
	    "scenario \"Sight\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
	    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 24,6\n"
	    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,8 facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at 44,34\n"
	    "  brigade \"Va\" commander \"Weedon\" at 44,32\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,24 facing 180\n"
	    "    unit \"3rd Virginia\" type continentals-post-1778 stands 2 sp 2 at 45,14 facing 180\n";
	const struct ruleset *rs = ruleset_find("vnb-wing");
	struct battle *b = NULL;
	struct err e;
	unsigned char *seen;
	char out[512];
	int s;

	(void)state;
	if (scenario_parse(sc, strlen(sc), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(rs->words->situation);
	seen = map_seen(b, 0);
	assert_int_equal(seen[b->units[1].first_stand], 0);
	assert_int_equal(seen[b->units[2].first_stand], 1);
	/* Seen: the 3rd Virginia.  Its near stand's west edge is at 42, the
	 * 23rd's east edge at 27: 15" across; 13.25 - 8.75 = 4.5" up; 15.66"
	 * in all.  From 24,8 to its centre 45,14: bearing 74, ENE. */
	rs->words->situation(b, 0, seen, out, sizeof(out));
	assert_non_null(strstr(out, "in command (Grey, 2.5\" away)"));
	assert_non_null(strstr(out, "nearest enemy in sight: 3rd Virginia,"));
	assert_non_null(strstr(out, "15.66\" to the ENE (bearing 74), out of "
	    "range (its muskets reach 4\")"));
	/* All seen (an open game): the nearer 2nd Virginia, 23.25 - 8.75 =
	 * 14.5" due north. */
	rs->words->situation(b, 0, NULL, out, sizeof(out));
	assert_non_null(strstr(out, "2nd Virginia,"));
	assert_non_null(strstr(out, "14.5\" to the N (bearing 0)"));
	/* Brought to 1" from its front: in short range (2") and in its
	 * arc. */
	for (s = 0; s < 2; s++) {
		b->stands[b->units[2].first_stand + s].pos.x = (fx)(2400 + 300 * s);
		b->stands[b->units[2].first_stand + s].pos.y = 1050;
	}
	rs->words->situation(b, 0, seen, out, sizeof(out));
	assert_non_null(strstr(out, "3rd Virginia,"));
	assert_non_null(strstr(out, "1\" to the"));
	assert_non_null(strstr(out, "in short range of its muskets"));
	/* Its commander far away, the 23rd is out of command. */
	b->commanders[1].pos.x = 100;
	b->commanders[0].pos.x = 100;
	rs->words->situation(b, 0, seen, out, sizeof(out));
	assert_non_null(strstr(out, "OUT OF COMMAND"));
	/* Command is per stand: Grey back at 24,6 commands the 23rd's first
	 * stand, but its second, carried off to 40,8, touches no stand of
	 * its unit and holds the unit to half a move. */
	b->commanders[0].pos.x = 2400;
	b->commanders[1].pos.x = 2400;
	rs->words->situation(b, 0, seen, out, sizeof(out));
	assert_null(strstr(out, "OUT OF COMMAND"));
	b->stands[b->units[0].first_stand + 1].pos.x = 4000;
	rs->words->situation(b, 0, seen, out, sizeof(out));
	assert_non_null(strstr(out, "in command (Grey, "));
	assert_non_null(strstr(out, "but 1 of its stands is OUT OF COMMAND"));
	assert_int_equal(rs->in_command(b, 0), 0);
	free(seen);
	battle_free(b);
}

/* Some pure white pixel within a few pixels of table point (x, y). */
static int
white_near(cairo_surface_t *s, const struct battle *b, double x, double y)
{
	int dx, dy;

	for (dx = -3; dx <= 3; dx++)
		for (dy = -3; dy <= 3; dy++)
			if ((pixel(s, b, x + dx * 0.04, y + dy * 0.04) & 0xffffff) ==
			    0xffffff)
				return 1;
	return 0;
}

/* The markers: a stationary stand carries an S badge left of its
 * centre, a unit out of command a white ring right of its centre, where
 * otherwise its stand's red shows. */
static void
markers_show_stationary_and_out_of_command(void **state)
{
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	cairo_surface_t *s;
	char path[] = "/tmp/despatch-mark-XXXXXX.png";
	int fd;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	memset(&o, 0, sizeof(o));
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(map_write(b, &o, path, &e), 0);
	s = cairo_image_surface_create_from_png(path);
	/* Stand 1 at 10.5,10: its badge would be at 9.4,10. */
	assert_true(reddish(pixel(s, b, 9.4, 10.0)));
	assert_true(reddish(pixel(s, b, 13.6, 10.0)));
	assert_false(white_near(s, b, 9.4, 10.0));
	assert_false(white_near(s, b, 13.6, 10.0));
	cairo_surface_destroy(s);
	b->stands[b->units[0].first_stand].flags |= ST_STATIONARY;
	b->commanders[0].pos.x = 4600;   /* Howe and Grey far off */
	b->commanders[1].pos.x = 4600;
	b->commanders[1].pos.y = 3400;
	assert_int_equal(map_write(b, &o, path, &e), 0);
	s = cairo_image_surface_create_from_png(path);
	assert_true(white_near(s, b, 9.4, 10.0));
	assert_true(white_near(s, b, 13.6, 10.0));
	cairo_surface_destroy(s);
	unlink(path);
	battle_free(b);
}

/* The smoke marker (bb7's, a unit's UM_SMOKE, which the map learns of
 * through bb7's unit_marks) greys the stands of the unit that carries
 * it, and only that unit. */
static void
smoke_greys_the_unit_that_fired(void **state)
{
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	cairo_surface_t *s;
	char path[] = "/tmp/despatch-smoke-XXXXXX.png";
	uint32_t p;
	int fd;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	memset(&o, 0, sizeof(o));
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	/* The same table, read as bb7's. */
	snprintf(b->ruleset, sizeof(b->ruleset), "bb7");
	b->units[0].state[B7_MARKS] |= UM_SMOKE;
	assert_int_equal(map_write(b, &o, path, &e), 0);
	s = cairo_image_surface_create_from_png(path);
	/* Where the 23rd's red showed: lighter now, green and blue
	 * raised by the grey; the Virginians untouched. */
	p = pixel(s, b, 11.0, 9.8);
	assert_false(reddish(p));
	assert_true((p >> 16 & 0xff) > 150 && (p >> 8 & 0xff) > 90 &&
	    (p & 0xff) > 90);
	assert_true(bluish(pixel(s, b, 23.0, 20.2)));
	cairo_surface_destroy(s);
	b->units[0].state[B7_MARKS] = 0;
	assert_int_equal(map_write(b, &o, path, &e), 0);
	s = cairo_image_surface_create_from_png(path);
	assert_true(reddish(pixel(s, b, 11.0, 9.8)));
	cairo_surface_destroy(s);
	unlink(path);
	battle_free(b);
}

/* The left and right of every label's pale ground in svg: *lo the
 * least x, *hi the greatest; and the page's width. */
static void
label_span(const unsigned char *svg, size_t len, double *lo, double *hi,
    double *width)
{
	static const char ground[] =
	    "fill:rgb(100%,100%,95%);fill-opacity:0.7;\" d=\"M ";
	const char *p = (const char *)svg, *end = p + len, *w;
	int n = 0;

	w = strstr(p, "viewBox=\"0 0 ");
	assert_non_null(w);
	*width = strtod(w + strlen("viewBox=\"0 0 "), NULL);
	*lo = 1e9;
	*hi = -1e9;
	while ((p = strstr(p, ground)) != NULL && p < end) {
		char *q;
		double x0, x1;

		p += strlen(ground);
		x0 = strtod(p, &q);
		(void)strtod(q, &q);            /* y0 */
		assert_true(strncmp(q, " L ", 3) == 0);
		x1 = strtod(q + 3, NULL);
		*lo = x0 < *lo ? x0 : *lo;
		*hi = x1 > *hi ? x1 : *hi;
		n++;
	}
	assert_true(n > 0);
}

/* A unit with a long name by the table's left or right edge has its
 * label moved in, whole on the page, not half cut off (the demo's end
 * map lost the start of "Continental Light Dragoons (1st and 3rd)"). */
static void
a_long_name_by_the_edge_stays_on_the_page(void **state)
{
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	unsigned char *svg = NULL;
	size_t len = 0;
	double lo, hi, width, dx;
	int u = 0, s, side;

	(void)state;
	memset(&o, 0, sizeof(o));
	for (side = 0; side < 2; side++) {
		assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b,
		    &e), 0);
		snprintf(b->units[u].name, sizeof(b->units[u].name), "%s",
		    "The Very Long Named Regiment of Light Dragoons (1st and 3rd)");
		/* Its stands moved to 1" from the left edge, or the right. */
		dx = (side == 0 ? FX(1) : b->width - FX(1)) -
		    b->stands[b->units[u].first_stand].pos.x;
		for (s = b->units[u].first_stand; s < b->units[u].first_stand +
		    b->units[u].nstands; s++)
			b->stands[s].pos.x += (fx)dx;
		assert_int_equal(map_render(b, &o, 1, &svg, &len, &e), 0);
		label_span(svg, len, &lo, &hi, &width);
		free(svg);
		svg = NULL;
		assert_true(lo >= 0);
		assert_true(hi <= width);
		battle_free(b);
		b = NULL;
	}
}

/* The text map's rows are the table's depth over two inches a row at an
 * inch a column, rounded to the nearest: a 48 x 49 table is 25 rows, and
 * a unit near the top edge is on the map (mutation round, 40). */
static void
the_text_map_rounds_its_rows_and_keeps_the_top_edge(void **state)
{
	static const char tall[] =
	    "scenario \"Tall\"\nruleset vnb-wing\ntable 48 x 49\nturns 2\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 12,8\n"
	    "    unit \"23rd Foot\" type british-line stands 1 sp 3 at 12,48.2 facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at 40,4\n"
	    "  brigade \"Va\" commander \"Weedon\" at 40,8\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 2 at 40,10 facing 0\n";
	struct battle *b = NULL;
	struct err e;
	char *txt, *line, *save = NULL;
	int rows = 0, top_has_a = 0;

	(void)state;
	assert_int_equal(scenario_parse(tall, strlen(tall), "test", 0, &b, &e), 0);
	txt = map_ascii(b, 0, NULL, 48);
	assert_non_null(txt);
	for (line = strtok_r(txt, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 4 && line[3] == '|') {
			if (rows == 0 && strchr(line + 4, 'A') != NULL)
				top_has_a = 1;
			rows++;
		}
	assert_int_equal(rows, 25);
	assert_true(top_has_a);
	free(txt);
	battle_free(b);
}

/* The map of scenario text sc as an image surface (to destroy), and
 * its battle in *bp (to free). */
static cairo_surface_t *
drawn(const char *sc, struct battle **bp)
{
	struct map_opts o;
	struct err e;
	unsigned char *png = NULL;
	size_t len = 0;
	char path[] = "/tmp/despatch-drawn-XXXXXX.png";
	cairo_surface_t *s;
	FILE *f;
	int fd;

	*bp = NULL;
	if (scenario_parse(sc, strlen(sc), "test", 0, bp, &e) != 0)
		fail_msg("%s", e.msg);
	memset(&o, 0, sizeof(o));
	if (map_render(*bp, &o, 0, &png, &len, &e) != 0)
		fail_msg("%s", e.msg);
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(png, 1, len, f), len);
	fclose(f);
	s = cairo_image_surface_create_from_png(path);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	unlink(path);
	free(png);
	return s;
}

static void
a_stands_front_edge_is_drawn_heavy_and_labels_lie_over_lines(void **state)
{
	char sc[sizeof(scen) + 128];
	struct battle *b;
	cairo_surface_t *s;
	struct pt r[4];
	struct map_layout *lo = calloc(1, sizeof(*lo));
	struct map_opts o;
	struct err e;
	unsigned char *png = NULL;
	size_t len = 0;
	double fy = -1e9, by = 1e9, cx = 0, *g = NULL;
	unsigned char *d;
	int k, stride, x, y, dash = 0, top, bottom;
	uint32_t front, back;

	(void)state;
	snprintf(sc, sizeof(sc), "%s", scen);
	/* A wood whose name (just above its middle, 36,28) an objective's
	 * dashed reach runs through: its top is 1/3" above the middle. */
	snprintf(sc + strlen(sc), sizeof(sc) - strlen(sc),
	    "terrain wood \"Knoll wood\" poly 30,22 42,22 42,34 30,34\n"
	    "objective \"Hill\" at 36,26 radius 2.34 points 1\n");
	s = drawn(sc, &b);
	/* Where the name went. */
	assert_non_null(lo);
	memset(&o, 0, sizeof(o));
	o.layout = lo;
	assert_int_equal(map_render(b, &o, 0, &png, &len, &e), 0);
	free(png);
	for (k = 0; k < lo->nlabels; k++)
		if (strcmp(lo->text[k], "Knoll wood") == 0)
			g = lo->label[k];
	assert_non_null(g);
	top = (int)g[1] + 2;
	bottom = (int)g[3] - 2;
	/* The dash crosses it: its top, 36,28.34, is within the band. */
	{
		double px, py;

		map_to_px(b, MAP_WIDTH_PX, 3600, 2834, &px, &py);
		assert_true(py > top && py < bottom && px > g[0] && px < g[2]);
	}
	/* The 23rd's first stand faces north (0): its front edge is the
	 * one of greatest y.  Just inside it the heavy line is near black;
	 * just inside the back edge the stand is its side's red. */
	battle_stand_rect(b, b->units[0].first_stand, r);
	for (k = 0; k < 4; k++) {
		fy = r[k].y > fy ? r[k].y : fy;
		by = r[k].y < by ? r[k].y : by;
		cx += r[k].x / 4.0;
	}
	front = pixel(s, b, (cx - 30) / 100.0, (fy - 3) / 100.0);
	back = pixel(s, b, (cx - 30) / 100.0, (by + 3) / 100.0);
	assert_true((front >> 16 & 0xff) < 70 && (front >> 8 & 0xff) < 70);
	assert_true(reddish(back));
	/* The wood's name, above its middle, is painted over the dash,
	 * which shows through its pale ground only faintly: no pixel of the
	 * band the name takes is the dash's strong red. */
	d = cairo_image_surface_get_data(s);
	stride = cairo_image_surface_get_stride(s);
	for (y = top; y <= bottom; y++)
		for (x = (int)g[0] + 3; x <= (int)g[2] - 3; x++) {
			uint32_t p = *(uint32_t *)(void *)(d + y * stride + x * 4);
			int rr = (int)(p >> 16 & 0xff), gg = (int)(p >> 8 & 0xff);

			if (rr > gg + 70)
				dash++;
		}
	assert_int_equal(dash, 0);
	/* And the band is the label's pale ground, not the wood's green
	 * (so the name is where the test looks). */
	{
		int pale = 0;

		for (y = top; y <= bottom; y++)
			for (x = (int)g[0] + 3; x <= (int)g[2] - 3; x++) {
				uint32_t p = *(uint32_t *)(void *)(d + y * stride +
				    x * 4);

				pale += (p >> 16 & 0xff) > 200 &&
				    (p >> 8 & 0xff) > 200;
			}
		assert_true(pale > (bottom - top) * (g[2] - g[0]) / 2);
	}
	free(lo);
	cairo_surface_destroy(s);
	battle_free(b);
}

/* The colour at table point (x, y) of scenario text sc's map. */
static uint32_t
colour_at(const char *sc, double x, double y)
{
	struct battle *b;
	cairo_surface_t *s = drawn(sc, &b);
	uint32_t p = pixel(s, b, x, y);

	cairo_surface_destroy(s);
	battle_free(b);
	return p;
}

/* A scenario of two sides, the Continentals listed first; what follows
 * each side's name is put in by the test. */
static void
two_sides(char *out, size_t size, const char *first_words,
    const char *first_type, const char *second_words, const char *second_type)
{
	snprintf(out, size,
	    "scenario \"Order\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
	    "side continental \"Continental\"%s\n"
	    "  commander \"Greene\" army at 24,32\n"
	    "  brigade \"Va\" commander \"Weedon\" at 24,24\n"
	    "    unit \"2nd Virginia\" type %s stands 2 sp 2 at 24,20 facing 180\n"
	    "side crown \"The King's\"%s\n  commander \"Howe\" army at 24,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 12,8\n"
	    "    unit \"23rd Foot\" type %s stands 2 sp 3 at 12,10 facing 0\n",
	    first_words, first_type, second_words, second_type);
}

static void
a_side_is_drawn_in_its_nations_colour_whatever_its_place(void **state)
{
	char sc[2048];
	uint32_t p;
	struct battle *b = NULL;
	struct err e;

	(void)state;
	/* The Continentals first: still blue, the British still red, from
	 * their troop types. */
	two_sides(sc, sizeof(sc), "", "continentals-post-1778", "",
	    "british-line");
	assert_true(bluish(colour_at(sc, 23.0, 20.2)));
	assert_true(reddish(colour_at(sc, 11.0, 9.8)));
	/* Hessians: dark blue, not the Continentals' blue. */
	two_sides(sc, sizeof(sc), "", "continentals-post-1778", "",
	    "musketeers");
	p = colour_at(sc, 11.0, 9.8);
	assert_true((p & 0xff) > 80 && (p & 0xff) < 130 &&
	    (p >> 16 & 0xff) < 40);
	/* Types of no nation (artillery): the side's id says it; the other
	 * side's name does ("The King's" is not one: its id crown is). */
	two_sides(sc, sizeof(sc), "", "light-artillery", "", "light-artillery");
	assert_true(bluish(colour_at(sc, 23.0, 20.2)));
	assert_true(reddish(colour_at(sc, 11.0, 9.8)));
	/* The scenario's word over the troop types: nation, then colour. */
	two_sides(sc, sizeof(sc), " nation loyalist", "continentals-post-1778",
	    " colour \"#ffa500\"", "british-line");
	p = colour_at(sc, 23.0, 20.2);
	assert_true((p >> 8 & 0xff) > 100 && (p >> 16 & 0xff) < 80 &&
	    (p & 0xff) < 80);   /* loyalist green */
	p = colour_at(sc, 11.0, 9.8);
	assert_int_equal(p, 0xffa500);
	/* Two sides of one nation are not drawn alike: the second takes a
	 * colour no side has. */
	two_sides(sc, sizeof(sc), " nation british", "continentals-post-1778",
	    "", "british-line");
	assert_true(reddish(colour_at(sc, 23.0, 20.2)));
	assert_true(bluish(colour_at(sc, 11.0, 9.8)));
	/* A word the side line does not know is named, with what would do. */
	two_sides(sc, sizeof(sc), " nation prussian", "continentals-post-1778",
	    "", "british-line");
	assert_int_equal(scenario_parse(sc, strlen(sc), "test", 0, &b, &e), -1);
	assert_non_null(strstr(e.msg, "test:5:"));
	assert_non_null(strstr(e.msg, "unknown nation 'prussian'"));
	two_sides(sc, sizeof(sc), " colour mauve", "continentals-post-1778",
	    "", "british-line");
	assert_int_equal(scenario_parse(sc, strlen(sc), "test", 0, &b, &e), -1);
	assert_non_null(strstr(e.msg, "#rrggbb"));
	two_sides(sc, sizeof(sc), " flag stars", "continentals-post-1778",
	    "", "british-line");
	assert_int_equal(scenario_parse(sc, strlen(sc), "test", 0, &b, &e), -1);
	assert_non_null(strstr(e.msg, "'nation NATION'"));
	/* Unquoted, # starts a comment: the line is told what went. */
	two_sides(sc, sizeof(sc), " colour #ffa500", "continentals-post-1778",
	    "", "british-line");
	assert_int_equal(scenario_parse(sc, strlen(sc), "test", 0, &b, &e), -1);
	assert_non_null(strstr(e.msg, "a bare # starts a comment"));
}

/* The words of b's map key, each followed by '|', into all. */
static void
key_words(const struct battle *b, char *all, size_t size)
{
	const char *w[MAP_KEY_MAX];
	int n = map_key_words(b, w, MAP_KEY_MAX), i;

	for (all[0] = '\0', i = 0; i < n; i++)
		snprintf(all + strlen(all), size - strlen(all), "%s|", w[i]);
}

/* The key to the stand markers names what the ruleset's battles show:
 * vnb-wing's disorder, rout, stationary and command; bb3's fleeing,
 * column, limbered and pinned, and none of vnb-wing's it never shows. */
static void
the_key_names_the_rulesets_own_markers(void **state)
{
	static const char bb3[] =
	    "scenario \"Key\"\nruleset bb3\ntable 24 x 24\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 2,2\n"
	    "  brigade \"A\" commander \"Grey\" at 4,2\n"
	    "    unit \"23rd Foot\" type british-regulars stands 2 sp 6 at 6,6 "
	    "facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at 22,22\n"
	    "  brigade \"B\" commander \"Weedon\" at 20,22\n"
	    "    unit \"2nd Virginia\" type continentals stands 2 sp 6 at 18,18 "
	    "facing 180\n";
	struct battle *b = NULL;
	struct err e;
	char all[1024];

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	key_words(b, all, sizeof(all));
	assert_string_equal(all, "disordered|permanently disordered|routed|"
	    "stationary|road march|out of command|");
	battle_free(b);
	b = NULL;
	if (scenario_parse(bb3, strlen(bb3), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	key_words(b, all, sizeof(all));
	assert_string_equal(all, "fleeing|column|limbered|(pinned): may fire, "
	    "but not charge or move this turn|");
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forces_and_terrain_are_drawn_where_they_stand),
		cmocka_unit_test(the_text_map_puts_each_unit_where_it_stands),
		cmocka_unit_test(the_key_names_the_rulesets_own_markers),
		cmocka_unit_test(a_unit_hidden_in_the_wood_is_not_seen),
		cmocka_unit_test(the_situation_names_the_nearest_enemy_in_sight),
		cmocka_unit_test(markers_show_stationary_and_out_of_command),
		cmocka_unit_test(smoke_greys_the_unit_that_fired),
		cmocka_unit_test(the_text_map_rounds_its_rows_and_keeps_the_top_edge),
		cmocka_unit_test(a_long_name_by_the_edge_stays_on_the_page),
		cmocka_unit_test(a_side_is_drawn_in_its_nations_colour_whatever_its_place),
		cmocka_unit_test(a_stands_front_edge_is_drawn_heavy_and_labels_lie_over_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
