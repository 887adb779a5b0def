/*
 * test_campaign.c - the campaign file and the day's march: good files
 * load as docs/campaign.md says, every refusal names its line, routes
 * and march rates are the table's, and hostile columns meet at a place
 * and on a road.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "core/text.h"
#include "scenario/scenario.h"

/* A line of places west to east: Ashby -- Bell's Ford -- Carr's Mill --
 * Dunmore, 10, 12 and 30 miles, the last a track; a loop road from
 * Ashby to Dunmore, 70 miles. */
static const char good[] =
    "# a small campaign\n"                                               /* 1 */
    "campaign \"The test of the march\"\n"                               /* 2 */
    "ruleset vnb-wing\n"                                                 /* 3 */
    "calendar 1781-01-16 to 1781-01-31 turn day\n"                       /* 4 */
    "set march.infantry.road 16\n"                                       /* 5 */
    "place \"Ashby\" kind town at 10,10\n"                               /* 6 */
    "place \"Bell's Ford\" kind ford at 20,10\n"                         /* 7 */
    "place \"Carr's Mill\" kind plantation at 32,10 ground wooded\n"     /* 8 */
    "place \"Dunmore\" kind crossroads at 62,10\n"                       /* 9 */
    "road \"Ashby\" to \"Bell's Ford\" miles 10\n"                       /* 10 */
    "road \"Bell's Ford\" to \"Carr's Mill\" miles 12 river \"Deep\"\n"  /* 11 */
    "road \"Carr's Mill\" to \"Dunmore\" miles 30 track\n"               /* 12 */
    "road \"Ashby\" to \"Dunmore\" miles 70 name \"Long Road\"\n"        /* 13 */
    "side crown \"Crown forces\" nation british\n"                       /* 14 */
    "  column \"Redcoats\" commander \"Lord Ashe\" at \"Ashby\"\n"       /* 15 */
    "    brigade \"Foot\" commander \"Col. Bray\"\n"                     /* 16 */
    "      unit \"33rd Foot\" type british-line stands 2 sp 2,2 line\n"  /* 17 */
    "  column \"Horse\" commander \"Maj. Colt\" at \"Ashby\"\n"          /* 18 */
    "    brigade \"Dragoons\" commander \"Capt. Dane\"\n"                /* 19 */
    "      unit \"17th Dragoons\" type light-dragoons stands 1 sp 2 mounted\n" /* 20 */
    "  depot \"Ashby\"\n"                                                /* 21 */
    "side continental \"Continentals\" nation continental\n"             /* 22 */
    "  column \"Blues\" commander \"Gen. Eaton\" at \"Dunmore\"\n"       /* 23 */
    "    brigade \"Line\" commander \"Col. Finch\"\n"                    /* 24 */
    "      unit \"1st Maryland\" type continentals-post-1778 stands 2 sp 3,2 full 3,3\n" /* 25 */
    "goal crown hold \"Dunmore\" on 1781-01-31 points 3\n"               /* 26 */
    "goal continental break points 2\n";                                 /* 27 */

static struct campaign *
load(const char *text, struct err *e)
{
	struct campaign *c = NULL;

	err_clear(e);
	if (campaign_parse(text, strlen(text), "t.campaign", NULL, &c, e) != 0)
		return NULL;
	return c;
}

static void
good_file_loads(void **state)
{
	struct campaign *c;
	struct err e;
	char d[32];

	(void)state;
	c = load(good, &e);
	if (c == NULL)
		fail_msg("%s", e.msg);
	assert_string_equal(c->title, "The test of the march");
	assert_string_equal(c->ruleset, "vnb-wing");
	assert_int_equal(c->end_day - c->start_day, 15);
	campaign_date_fmt(c->start_day, d, sizeof(d));
	assert_string_equal(d, "1781-01-16");
	campaign_date_long(c->start_day, d, sizeof(d));
	assert_string_equal(d, "Tuesday 16 January 1781");
	assert_int_equal(c->nplaces, 4);
	assert_int_equal(c->places[2].ground, GROUND_WOODED);
	assert_int_equal(c->places[1].ground, GROUND_RIVERBANK);  /* a ford's */
	assert_int_equal(c->places[0].ground, GROUND_TOWN);
	assert_int_equal(c->places[3].x100, 6200);
	assert_int_equal(c->nroads, 4);
	assert_int_equal(c->roads[1].miles100, 1200);
	assert_string_equal(c->roads[1].river, "Deep");
	assert_int_equal(c->roads[1].nrivers, 1);
	assert_int_equal(c->roads[0].nrivers, 0);
	assert_int_equal(c->roads[2].kind, ROAD_TRACK);
	assert_string_equal(c->roads[3].name, "Long Road");
	assert_int_equal(c->nsides, 2);
	assert_int_equal(c->ncolumns, 3);
	assert_int_equal(c->columns[2].side, 1);
	assert_int_equal(c->columns[2].place, 3);
	assert_int_equal(c->nunits, 3);
	assert_string_equal(c->units[0].opts, "type british-line");
	assert_string_equal(c->units[0].form, "line");
	assert_int_equal(campaign_unit_sp(&c->units[2]), 5);
	assert_int_equal(campaign_unit_full(&c->units[2]), 6);
	assert_int_equal(c->ndepots, 1);
	assert_int_equal(c->ngoals, 2);
	assert_int_equal(c->goals[0].kind, GOAL_HOLD);
	assert_int_equal(c->goals[1].kind, GOAL_BREAK);
	/* set overrides the default; the rest are the table's */
	assert_int_equal(campaign_param(c, "march.infantry.road"), 16);
	assert_int_equal(campaign_param(c, "march.mounted.road"), 30);
	/* the ruleset's own carry numbers stand before the defaults */
	assert_int_equal(campaign_param(c, "carry.return.winner"), 50);
	campaign_free(c);
}

/* Each refusal: the line, and words of what is wrong. */
static void
refusals_name_their_line(void **state)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		{ "ruleset vnb-wing\n", "ruleset vnb-wingg\n",
		    "t.campaign:3: unknown ruleset 'vnb-wingg'" },
		{ "1781-01-31 turn day", "1781-02-30 turn day",
		    "t.campaign:4: expected the last day as YYYY-MM-DD" },
		{ "1781-01-31 turn day", "1781-01-01 turn day",
		    "t.campaign:4: the last day comes before the first" },
		{ "set march.infantry.road 16", "set march.infantry.rood 16",
		    "t.campaign:5: the campaign has no number 'march.infantry.rood'" },
		{ "set march.infantry.road 16", "set march.infantry.road 99",
		    "t.campaign:5: '99' is not a valid march.infantry.road" },
		{ "kind plantation", "kind mansion",
		    "t.campaign:8: unknown kind of place 'mansion': expected town" },
		{ "ground wooded", "ground jungle",
		    "t.campaign:8: 'ground' wants one of open" },
		{ "to \"Dunmore\" miles 30", "to \"Dunmoor\" miles 30",
		    "t.campaign:12: no place \"Dunmoor\"" },
		{ "name \"Long Road\"\n", "name \"Long Road\"\nroad \"Dunmore\" to \"Ashby\" miles 5\n",
		    "t.campaign:14: \"Dunmore\" and \"Ashby\" are joined already (line 13)" },
		{ "at \"Dunmore\"\n", "at \"Dunmores\"\n",
		    "t.campaign:23: no place \"Dunmores\"" },
		{ "type british-line stands", "type british-lines stands",
		    "t.campaign:17: unknown troop type 'british-lines'" },
		{ "sp 2,2 line", "sp 2,2 at 3,3",
		    "t.campaign:17: a column's unit has no 'at'" },
		{ "sp 3,2 full 3,3", "sp 3,2 full 3,1",
		    "t.campaign:25: stand 2 has 2 SP but only 1 at full strength" },
		/* a unit line only the scenario parser knows is wrong, named
		 * at the campaign's own line */
		{ "stands 2 sp 2,2 line", "stands 2 sp 2,2 morale 12 line",
		    "t.campaign:17: '12' is not a valid morale" },
		{ "\"Capt. Dane\"", "\"Col. Bray\"",
		    "t.campaign:19: the name \"Col. Bray\" is already used" },
		{ "goal continental break", "goal rebels break",
		    "t.campaign:27: expected 'goal SIDE hold" },
		{ "on 1781-01-31 points", "on 1781-02-28 points",
		    "t.campaign:26: 1781-02-28 is outside the calendar" },
		{ "road \"Ashby\" to \"Bell's Ford\" miles 10\nroad \"Bell's Ford\" to \"Carr's Mill\" miles 12 river \"Deep\"\n", "",
		    "t.campaign:7: no road reaches \"Bell's Ford\" from \"Ashby\"" },
		{ "depot", "dept", "t.campaign:21: unknown keyword 'dept'" },

		{ "goal continental break points 2\n", "goal continental break "
		    "points 2\nweather 1781-01-20 drizzle\n",
		    "t.campaign:28: the weather is fair, rain or storm, not 'drizzle'" },
		{ "goal continental break points 2\n", "goal continental break "
		    "points 2\nweather 1781-01-30 to 1781-02-02 rain\n",
		    "t.campaign:28: the weather's days must be in the calendar" },
		{ "goal continental break points 2\n", "goal continental break "
		    "points 2\nweather 1781-01-20 to 1781-01-22 rain\n"
		    "weather 1781-01-22 storm\n",
		    "t.campaign:29: these days' weather is given already (line 28)" },
		{ "goal continental break points 2\n", "goal continental break "
		    "points 2\nweather 1781-01-20 until 1781-01-22 rain\n",
		    "t.campaign:28: expected 'weather DATE KIND' or" },
		{ "calendar 1781-01-16", "weather 1781-01-16 rain\ncalendar 1781-01-16",
		    "t.campaign:4: 'calendar' must come before 'weather'" },
		{ "# a small campaign\ncampaign", "# a small campaign\nruleset vnb-wing\ncampaign",
		    "t.campaign:2: the first declaration must be 'campaign" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[4096];
		const char *at = strstr(good, cases[i].from);
		struct campaign *c;
		struct err e;

		assert_non_null(at);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - good), good,
		    cases[i].to, at + strlen(cases[i].from));
		c = load(buf, &e);
		if (c != NULL)
			fail_msg("case %zu loaded", i);
		if (strstr(e.msg, cases[i].want) == NULL)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, e.msg,
			    cases[i].want);
	}
}

static void
routes_take_the_shortest_road(void **state)
{
	struct campaign *c;
	struct err e;
	int next, d;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	/* Ashby to Dunmore: 10 + 12 + 30 = 52 miles beats the 70-mile road */
	d = campaign_route(c, 0, 3, -1, &next);
	assert_int_equal(d, 5200);
	assert_int_equal(next, 0);
	/* BY the long road: 70 */
	d = campaign_route(c, 0, 3, 3, &next);
	assert_int_equal(d, 7000);
	assert_int_equal(next, 3);
	/* a first road that does not leave Ashby leads nowhere */
	assert_int_equal(campaign_route(c, 0, 3, 2, &next), -1);
	assert_int_equal(campaign_route(c, 2, 2, -1, &next), 0);
	assert_int_equal(campaign_road_dir(c, 0, 0), DIR_E);
	assert_int_equal(campaign_road_dir(c, 1, 0), DIR_W);
	campaign_free(c);
}

static void
rates_are_the_slowest_arms(void **state)
{
	struct campaign *c;
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	assert_int_equal(campaign_rate(c, 0, ROAD_ROAD), 16);  /* set */
	assert_int_equal(campaign_rate(c, 0, ROAD_TRACK), 10);
	assert_int_equal(campaign_rate(c, 1, ROAD_ROAD), 30);  /* horse */
	/* the horse joins the foot: the foot's pace */
	c->brigades[1].column = 0;
	assert_int_equal(campaign_rate(c, 0, ROAD_ROAD), 16);
	campaign_free(c);
}

/* 16 miles a day: 10 to Bell's Ford, then the Deep costs 3 miles of the
 * day, and the column goes on 6 miles less what is lost at the ford: at
 * the end of the day it is on the road. */
static void
a_day_march_goes_the_rate(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 2, -1 };
	struct cp_contact k[4];
	struct err e;
	int n;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[2].gone = 1;      /* no enemy in the way */
	n = campaign_march(c, &o, 1, k, 4);
	assert_int_equal(n, 0);
	assert_int_equal(c->columns[0].road, 1);
	assert_int_equal(c->columns[0].from, 1);
	/* steps 1..63 reach 10.08 miles at step 63 (16 * 63 = 1008): the
	 * ford, where the 0.08 is lost; steps 64..100 are 37 of 16, less
	 * the Deep's 3 miles */
	assert_int_equal(c->columns[0].along100, 37 * 16 - 300);
	/* the next day it goes on and reaches Carr's Mill, and stops */
	n = campaign_march(c, &o, 1, k, 4);
	assert_int_equal(n, 0);
	assert_int_equal(c->columns[0].road, -1);
	assert_int_equal(c->columns[0].place, 2);
	assert_int_equal(c->columns[0].came_by, 1);
	/* a forced march goes half as far again */
	{
		struct cp_order f = { 1, CO_FORCED, 3, 3 };

		n = campaign_march(c, &f, 1, k, 4);
		assert_int_equal(n, 0);
		assert_int_equal(c->columns[1].road, 3);
		assert_int_equal(c->columns[1].along100, 4500);
	}
	campaign_free(c);
}

/* The horse rides the long road east at 30 a day; the Blues march west
 * on it at 16: they pass each other on the road on the third day
 * (70 miles, closing at 46 a day) and meet at the nearer end. */
static void
columns_passing_on_a_road_meet(void **state)
{
	struct campaign *c;
	struct cp_order o[2] = { { 1, CO_MARCH, 3, 3 }, { 2, CO_MARCH, 0, 3 } };
	struct cp_contact k[4];
	struct err e;
	int n;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[0].gone = 1;
	n = campaign_march(c, o, 2, k, 4);
	assert_int_equal(n, 0);
	assert_int_equal(c->columns[1].along100, 3000);
	assert_int_equal(c->columns[2].along100, 1600);
	n = campaign_march(c, o, 2, k, 4);
	/* 70 - 30 - 16 = 24 miles apart at dawn, closing 0.46 a step: the
	 * 53rd step brings them within 0 (30*53=1590, 16*53=848: 2438 >=
	 * 2400) */
	assert_int_equal(n, 1);
	assert_int_equal(k[0].tick, 53);
	/* the horse at 30 + 15.9 = 45.9 of 70: nearer Dunmore (its end b) */
	assert_int_equal(k[0].place, 3);
	assert_int_equal(k[0].narrivals, 2);
	assert_int_equal(c->columns[1].place, 3);
	assert_int_equal(c->columns[2].place, 3);
	assert_int_equal(c->columns[1].road, -1);
	/* both came by the long road */
	assert_int_equal(k[0].arrivals[0].road, 3);
	assert_int_equal(k[0].arrivals[1].road, 3);
	campaign_free(c);
}

/* The Blues hold Dunmore; the Redcoats march on it by the short way and
 * come on the third day; the horse, sent the long way, comes later the
 * same day... or not: each arrival is recorded with its step. */
static void
a_column_at_a_place_is_met_there(void **state)
{
	struct campaign *c;
	struct cp_order o[2] = { { 0, CO_MARCH, 3, -1 }, { 2, CO_HOLD, -1, -1 } };
	struct cp_contact k[4];
	struct err e;
	int n, day;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[1].gone = 1;
	for (day = 0, n = 0; day < 6 && n == 0; day++)
		n = campaign_march(c, o, 2, k, 4);
	assert_int_equal(n, 1);
	assert_int_equal(k[0].place, 3);
	assert_int_equal(k[0].narrivals, 2);
	/* the Blues were there: no road; the Redcoats came by the track */
	assert_int_equal(k[0].arrivals[0].column, 2);
	assert_int_equal(k[0].arrivals[0].road, -1);
	assert_int_equal(k[0].arrivals[1].column, 0);
	assert_int_equal(k[0].arrivals[1].road, 2);
	assert_int_equal(campaign_road_dir(c, 3, 2), DIR_W);
	/* two hostile columns at one place at dawn meet at step 0 */
	n = campaign_march(c, o, 2, k, 4);
	assert_int_equal(n, 1);
	assert_int_equal(k[0].tick, 0);
	campaign_free(c);
}

/* Two runs of the same day give the same columns, byte for byte. */
static void
a_day_is_deterministic(void **state)
{
	struct campaign *a, *b;
	struct cp_order o[3] = { { 0, CO_FORCED, 3, -1 }, { 1, CO_MARCH, 3, 3 },
		{ 2, CO_MARCH, 0, -1 } };
	struct cp_contact ka[4], kb[4];
	struct err e;
	int day, na, nb;

	(void)state;
	a = load(good, &e);
	b = load(good, &e);
	assert_non_null(a);
	assert_non_null(b);
	for (day = 0; day < 4; day++) {
		memset(ka, 0, sizeof(ka));
		memset(kb, 0, sizeof(kb));
		na = campaign_march(a, o, 3, ka, 4);
		nb = campaign_march(b, o, 3, kb, 4);
		assert_int_equal(na, nb);
		assert_memory_equal(ka, kb, sizeof(ka));
		assert_memory_equal(a->columns, b->columns, sizeof(a->columns));
	}
	campaign_free(a);
	campaign_free(b);
}

/* Cowpens as a campaign battlefield: Tarleton comes up the road from
 * the south, Morgan was there; the battle is the scenario's ground with
 * the columns' forces, the crown in the south zone moving first. */
static const char cowpens[] =
    "campaign \"Cowpens\"\n"                                              /* 1 */
    "ruleset vnb-wing\n"                                                  /* 2 */
    "calendar 1781-01-16 to 1781-01-20\n"                                 /* 3 */
    "place \"Cowpens\" kind crossroads at 20,20 field \"cowpens.scenario\"\n" /* 4 */
    "  zone south 4,1 68,13\n"                                            /* 5 */
    "  zone north 4,30 68,40\n"                                           /* 6 */
    "place \"Thicketty Creek\" kind ford at 20,10\n"                      /* 7 */
    "road \"Thicketty Creek\" to \"Cowpens\" miles 10\n"                  /* 8 */
    "side crown \"Crown\" nation british\n"                               /* 9 */
    "  column \"Tarleton's Legion\" commander \"Lt. Col. Banastre Tarleton\" at \"Thicketty Creek\"\n"
    "    brigade \"Front Line\" commander \"Maj. Timothy Newmarsh\"\n"
    "      unit \"7th Foot (Royal Fusiliers)\" type british-line morale 4 stands 2 sp 2,1 full 2,2 line\n"
    "      unit \"Light Infantry Companies\" type light-company stands 3 sp 1 line\n"
    "    brigade \"Reserve\" commander \"Maj. Archibald McArthur\"\n"
    "      unit \"British Legion Cavalry\" type legion-cavalry stands 4 sp 1 mounted\n"
    "      unit \"Grasshopper (3-pdr)\" type light-artillery stands 1 sp 1\n"
    "side continental \"Continental\" nation continental\n"
    "  column \"Flying Army\" commander \"Brig. Gen. Daniel Morgan\" at \"Cowpens\"\n"
    "    brigade \"Main Line\" commander \"Lt. Col. John Eager Howard\"\n"
    "      unit \"Maryland and Delaware Continentals\" type continentals-post-1778 stands 2 sp 2,2 line\n"
    "      unit \"Virginia State Troops\" type trained-militia stands 2 sp 1 line\n";

static struct campaign *
load_in(const char *text, const char *dir)
{
	struct campaign *c = NULL;
	struct err e;

	err_clear(&e);
	if (campaign_parse(text, strlen(text), "c.campaign", dir, &c, &e) != 0)
		fail_msg("%s", e.msg);
	return c;
}

static struct battle *
battle_of(const char *text)
{
	struct battle *b = NULL;
	struct err e;

	err_clear(&e);
	if (scenario_parse(text, strlen(text), "battle", 0, &b, &e) != 0)
		fail_msg("%s\n%s", e.msg, text);
	return b;
}

static void
a_contact_opens_the_battle_with_the_forces_present(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 0, -1 };
	struct cp_contact k[2];
	struct battle *b;
	char *text = NULL, *again = NULL;
	size_t len, len2;
	struct err e;
	int n, u, s;

	(void)state;
	c = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	assert_non_null(c->places[0].field_text);
	n = campaign_march(c, &o, 1, k, 2);
	assert_int_equal(n, 1);
	assert_int_equal(k[0].place, 0);
	/* Morgan was there; Tarleton came from the south */
	assert_int_equal(k[0].arrivals[0].column, 1);
	assert_int_equal(campaign_arrival_dir(c, &k[0], 0), DIR_N);
	assert_int_equal(campaign_arrival_dir(c, &k[0], 1), DIR_S);
	err_clear(&e);
	if (campaign_battle_scenario(c, &k[0], 1, NULL, &text, &len, &e) != 0)
		fail_msg("%s", e.msg);
	b = battle_of(text);
	/* the scenario's ground and table, the columns' forces only */
	assert_int_equal(b->width, FX(72));
	assert_true(b->nterrain > 5);
	assert_int_equal(b->nunits, 6);
	assert_int_equal(b->nsides, 2);
	assert_string_equal(b->sides[b->side_order[0]].id, "crown");
	/* the hour the march met: 10 miles at the gun's 12 a day is 84
	 * steps, 8.4 hours after seven; later than three, so three */
	assert_int_equal(b->first_minute, 15 * 60);
	/* every crown stand in the south zone, every continental in the
	 * north, facing each other */
	for (s = 0; s < b->nstands; s++) {
		const struct stand *st = &b->stands[s];
		int side = b->units[st->unit].side;
		const struct cp_zone *z = &c->places[0].zone[
		    strcmp(b->sides[side].id, "crown") == 0 ? DIR_S : DIR_N];

		assert_true(st->pos.x >= z->x0 && st->pos.x <= z->x1);
		assert_true(st->pos.y >= z->y0 && st->pos.y <= z->y1);
		assert_int_equal(st->facing,
		    strcmp(b->sides[side].id, "crown") == 0 ? 0 : 180);
	}
	/* strength and carried losses as the column has them */
	u = battle_find_unit(b, "7th Foot (Royal Fusiliers)");
	assert_true(u >= 0);
	assert_int_equal(b->units[u].nstands, 2);
	assert_int_equal(b->stands[b->units[u].first_stand + 1].sp, 1);
	assert_int_equal(b->stands[b->units[u].first_stand + 1].sp0, 2);
	assert_int_equal(b->units[u].morale, 4);
	assert_true(battle_find_commander(b, "Lt. Col. Banastre Tarleton") >= 0);
	/* the same contact writes the same bytes */
	if (campaign_battle_scenario(c, &k[0], 1, NULL, &again, &len2, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(len, len2);
	assert_memory_equal(text, again, len);
	battle_free(b);
	free(text);
	free(again);
	campaign_free(c);
}

/* A place with no battlefield: the ground is made from its kind with
 * dice (a script here), and the zones are the table's edges. */
static void
a_generated_field_comes_from_the_dice(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 1, -1 };
	struct cp_contact k[2];
	struct battle *b;
	static const int rolls[] = { 3, 5, 2, 6, 1 };
	struct dice_script ds = { rolls, 5, 0 };
	struct dice d;
	char *text = NULL;
	size_t len;
	struct err e;
	int n, s;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[1].gone = 1;
	c->columns[2].place = 1;    /* the Blues at Bell's Ford */
	n = campaign_march(c, &o, 1, k, 2);
	assert_int_equal(n, 1);
	assert_int_equal(k[0].place, 1);
	dice_init(&d, dice_script_next, &ds, NULL);
	if (campaign_battle_scenario(c, &k[0], 0, &d, &text, &len, &e) != 0)
		fail_msg("%s", e.msg);
	/* a ford: two woods and the river with its ford, 2 dice */
	assert_int_equal(ds.pos, 2);
	assert_non_null(strstr(text, "terrain river"));
	assert_non_null(strstr(text, "terrain ford \"Bell's Ford\""));
	assert_non_null(strstr(text, "objective \"Bell's Ford\" at 36,24"));
	b = battle_of(text);
	assert_int_equal(b->nunits, 2);
	/* the Redcoats came from the west: the west strip */
	for (s = 0; s < b->nstands; s++)
		if (strcmp(b->sides[b->units[b->stands[s].unit].side].id,
		    "crown") == 0)
			assert_true(b->stands[s].pos.x <= FX(12));
		else
			assert_true(b->stands[s].pos.x >= FX(60));
	battle_free(b);
	free(text);
	campaign_free(c);
}

/* A column that reached the place after the battle began comes on at
 * the turn that matches its arrival (campaign engine 3), worked by hand:
 * the march runs from 07:00 for ten hours in 100 steps, six minutes a
 * step.  The Redcoats meet the Blues at Bell's Ford at step 30 (10:00),
 * so the battle's turn 1 is 10:00, a vnb-wing turn 15 minutes; the Horse
 * come in at step 55 (12:30), 150 minutes on: turn 1 + 150 / 15 = 11.
 * Under engine 2 the Horse stood on the table from the start. */
static void
a_later_column_comes_on_at_its_turn(void **state)
{
	struct campaign *c;
	struct cp_contact k;
	static const int rolls[] = { 3, 5, 2, 6, 1, 4, 2, 3 };
	struct dice_script ds = { rolls, 8, 0 };
	struct dice d;
	struct battle *b;
	char *text = NULL;
	size_t len;
	struct err e;
	int eng, u;

	(void)state;
	for (eng = 2; eng <= 3; eng++) {
		c = load(good, &e);
		assert_non_null(c);
		c->engine = eng;
		memset(&k, 0, sizeof(k));
		k.place = 1;
		k.tick = 30;
		k.narrivals = 3;
		k.arrivals[0] = (struct cp_arrival){ 2, 0, -1 };   /* Blues */
		k.arrivals[1] = (struct cp_arrival){ 0, 30, 0 };   /* Redcoats */
		k.arrivals[2] = (struct cp_arrival){ 1, 55, 0 };   /* Horse */
		ds.pos = 0;
		dice_init(&d, dice_script_next, &ds, NULL);
		if (campaign_battle_scenario(c, &k, 0, &d, &text, &len, &e) != 0)
			fail_msg("%s", e.msg);
		assert_non_null(strstr(text, "first 10:00"));
		b = battle_of(text);
		u = battle_find_unit(b, "17th Dragoons");
		assert_true(u >= 0);
		if (eng == 3) {
			assert_non_null(strstr(text, " mounted arrives 11\n"));
			assert_int_equal(b->units[u].arrives, 11);
			assert_true(battle_unit_away(b, u));
			assert_int_equal(battle_unit_sp(b, u), 2);
			/* his commanders too; the Redcoats on the table */
			assert_int_equal(b->commanders[battle_find_commander(b,
			    "Maj. Colt")].arrives, 11);
			assert_int_equal(b->commanders[battle_find_commander(b,
			    "Capt. Dane")].out_until, BATTLE_STEP_AWAY);
			assert_false(battle_unit_away(b,
			    battle_find_unit(b, "33rd Foot")));
			/* the battle over before they came: they carry back
			 * whole, and their commanders did not fall */
			{
				static struct cp_carry cr;
				int k2, cu = campaign_find_unit(c, "17th Dragoons");

				err_clear(&e);
				if (campaign_carry(c, &k, b, battle_steps(b),
				    CARRY_BY_RESULT, &cr, &e) != 0)
					fail_msg("%s", e.msg);
				for (k2 = 0; k2 < cr.nunits; k2++)
					if (cr.units[k2].unit == cu) {
						assert_int_equal(cr.units[k2].after, 2);
						assert_false(cr.units[k2].destroyed);
					}
				assert_int_equal(campaign_unit_sp(&c->units[cu]), 2);
				for (k2 = 0; k2 < cr.nfell; k2++)
					fail_msg("a commander fell: %d", k2);
			}
		} else {
			assert_null(strstr(text, "arrives"));
			assert_false(battle_unit_away(b, u));
		}
		battle_free(b);
		free(text);
		campaign_free(c);
	}
}

static void
set_unit(struct campaign *c, const char *name, int n, const int *sp,
    const int *full)
{
	int u = campaign_find_unit(c, name), i;

	assert_true(u >= 0);
	c->units[u].nstands = n;
	for (i = 0; i < n; i++) {
		c->units[u].sp[i] = sp[i];
		c->units[u].full[i] = full[i];
	}
}

static void
set_stands(struct battle *b, const char *name, const int *sp, unsigned flags)
{
	int u = battle_find_unit(b, name), i;

	assert_true(u >= 0);
	for (i = 0; i < b->units[u].nstands; i++) {
		struct stand *st = &b->stands[b->units[u].first_stand + i];

		st->sp = sp[i];
		if (sp[i] == 0)
			st->flags |= ST_GONE;
		st->flags |= flags;
	}
}

/* The crown beaten at Cowpens (every brigade exhausted: its army broke),
 * worked by hand from docs/campaign.md's carry table. */
static void
a_battle_carries_back_by_the_table(void **state)
{
	static const int s55[] = { 5, 5 }, f66[] = { 6, 6 };
	static const int s444[] = { 4, 4, 4 }, s66[] = { 6, 6 };
	static const int e31[] = { 3, 1 }, e440[] = { 4, 4, 0 };
	static const int e0000[] = { 0, 0, 0, 0 }, e43[] = { 4, 3 };
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 0, -1, -1, { 0 }, "" };
	struct cp_contact k[2];
	static struct cp_carry cr;
	struct battle *b;
	char *text = NULL;
	size_t len;
	struct err e;
	int u, i;

	(void)state;
	c = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	set_unit(c, "7th Foot (Royal Fusiliers)", 2, s55, f66);
	set_unit(c, "Light Infantry Companies", 3, s444, s444);
	set_unit(c, "Maryland and Delaware Continentals", 2, s66, s66);
	assert_int_equal(campaign_march(c, &o, 1, k, 2), 1);
	assert_int_equal(campaign_battle_scenario(c, &k[0], 1, NULL, &text,
	    &len, &e), 0);
	b = battle_of(text);
	/* the end of the battle */
	set_stands(b, "7th Foot (Royal Fusiliers)", e31, 0);
	set_stands(b, "Light Infantry Companies", e440, ST_ROUTED);
	set_stands(b, "British Legion Cavalry", e0000, 0);
	set_stands(b, "Grasshopper (3-pdr)", s55, ST_ROUTED);
	set_stands(b, "Maryland and Delaware Continentals", e43, 0);
	for (i = 0; i < b->nbrigades; i++)
		if (strcmp(b->sides[b->brigades[i].side].id, "crown") == 0)
			b->brigades[i].flags |= BR_EXHAUSTED;
	b->commanders[battle_find_commander(b, "Maj. Timothy Newmarsh")].gone = 1;
	b->commanders[battle_find_commander(b,
	    "Lt. Col. Banastre Tarleton")].gone = 1;
	err_clear(&e);
	if (campaign_carry(c, &k[0], b, 1, CARRY_BY_RESULT, &cr, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(cr.winner, campaign_find_side(c, "continental"));
	/* 7th: 10 in, 4 out, 6 lost: 30% back (1), 20% for good (1.7
	 * rounds to 1, half up): 5 now of 11 */
	u = campaign_find_unit(c, "7th Foot (Royal Fusiliers)");
	assert_int_equal(cr.units[0].unit, u);
	assert_int_equal(cr.units[0].before, 10);
	assert_int_equal(cr.units[0].after, 4);
	assert_int_equal(cr.units[0].returned, 1);
	assert_int_equal(cr.units[0].lost, 1);
	assert_int_equal(campaign_unit_sp(&c->units[u]), 5);
	assert_int_equal(campaign_unit_full(&c->units[u]), 11);
	assert_int_equal(c->units[u].sp[0], 5);    /* first stands first */
	/* Light infantry: 12 in, 8 out, 4 lost: 1 back, 1 for good (0.8
	 * rounds to 1): 9 of 11; routed at the end, a quarter of the 9 (2)
	 * more for good: 7 of 9 */
	u = campaign_find_unit(c, "Light Infantry Companies");
	assert_int_equal(cr.units[1].routed, 2);
	assert_int_equal(campaign_unit_sp(&c->units[u]), 7);
	assert_int_equal(campaign_unit_full(&c->units[u]), 9);
	/* the Legion cavalry was destroyed on the beaten side: gone */
	u = campaign_find_unit(c, "British Legion Cavalry");
	assert_true(c->units[u].gone);
	assert_int_equal(cr.units[2].destroyed, 1);
	/* the gun, routed with its crew at the end, is taken */
	u = campaign_find_unit(c, "Grasshopper (3-pdr)");
	assert_true(c->units[u].gone);
	assert_int_equal(cr.units[3].captured, 1);
	/* the winner's Marylanders: 12 in, 7 out, 5 lost: half back (2),
	 * a tenth for good (0.5 rounds to 1): 9 of 11 */
	u = campaign_find_unit(c, "Maryland and Delaware Continentals");
	assert_int_equal(campaign_unit_sp(&c->units[u]), 9);
	assert_int_equal(campaign_unit_full(&c->units[u]), 11);
	/* Tarleton fell: the first brigade commander standing takes the
	 * column (McArthur, Newmarsh fell too), an acting CO his brigade */
	assert_string_equal(c->columns[0].commander, "Maj. Archibald McArthur");
	assert_string_equal(c->brigades[1].commander, "Acting CO of Reserve");
	assert_string_equal(c->brigades[0].commander, "Acting CO of Front Line");
	assert_int_equal(cr.nfell, 2);
	/* the crown falls back the way it came; Morgan holds */
	assert_int_equal(cr.nretreats, 1);
	assert_int_equal(cr.retreats[0].column, 0);
	assert_int_equal(c->columns[0].place, 1);
	assert_int_equal(c->columns[1].place, 0);
	assert_int_equal(campaign_holder(c, 0), 1);
	/* the next battle's scenario carries the losses as 'full' */
	free(text);
	battle_free(b);
	campaign_free(c);
}

/* Exhaustion (docs/campaign.md, After a battle, The day): a brigade
 * exhausted at a battle's end stays so, comes into its next battle
 * exhausted, and rests it off only in supply on a day it did not
 * fight; two forced-march days running exhaust a column. */
static void
exhaustion_carries_into_the_next_battle(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 0, -1, -1, { 0 }, "" };
	struct cp_contact k[2];
	static struct cp_carry cr;
	struct battle *b, *b2;
	char *text = NULL, *text2 = NULL;
	size_t len;
	struct err e;
	int i, fl, rs;

	(void)state;
	c = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	assert_true(campaign_exhaustion(c));
	assert_int_equal(campaign_march(c, &o, 1, k, 2), 1);
	assert_int_equal(campaign_battle_scenario(c, &k[0], 1, NULL, &text,
	    &len, &e), 0);
	assert_null(strstr(text, " exhausted\n"));
	b = battle_of(text);
	for (i = 0; i < b->nbrigades; i++)
		assert_false(b->brigades[i].flags & BR_EXHAUSTED);
	/* the Front Line ends exhausted, the Reserve and Morgan's not */
	b->brigades[battle_find_brigade(b, "Front Line")].flags |=
	    BR_EXHAUSTED;
	err_clear(&e);
	if (campaign_carry(c, &k[0], b, 1, CARRY_BY_RESULT, &cr, &e) != 0)
		fail_msg("%s", e.msg);
	fl = 0;
	rs = 1;
	assert_string_equal(c->brigades[fl].name, "Front Line");
	assert_string_equal(c->brigades[rs].name, "Reserve");
	assert_int_equal(cr.nexhausted, 1);
	assert_int_equal(cr.exhausted[0], fl);
	assert_int_equal(c->brigades[fl].spent, 1);
	assert_int_equal(c->brigades[rs].spent, 0);
	assert_int_equal(c->brigades[2].spent, 0);
	/* the next battle: the Front Line comes in exhausted */
	c->columns[0].place = 0;
	c->columns[0].road = -1;
	assert_int_equal(campaign_march(c, NULL, 0, k, 2), 1);
	assert_int_equal(campaign_battle_scenario(c, &k[0], 2, NULL, &text2,
	    &len, &e), 0);
	assert_non_null(strstr(text2, " exhausted\n"));
	b2 = battle_of(text2);
	assert_true(b2->brigades[battle_find_brigade(b2, "Front Line")].flags &
	    BR_EXHAUSTED);
	assert_false(b2->brigades[battle_find_brigade(b2, "Reserve")].flags &
	    BR_EXHAUSTED);
	assert_false(b2->brigades[battle_find_brigade(b2, "Main Line")].flags &
	    BR_EXHAUSTED);
	battle_free(b2);
	free(text2);
	/* carry.exhausted 0: a night restores it */
	c->brigades[fl].spent = 0;
	snprintf(c->settings[c->nsettings].name,
	    sizeof(c->settings[0].name), "carry.exhausted");
	c->settings[c->nsettings++].value = 0;
	if (campaign_carry(c, &k[0], b, 1, CARRY_BY_RESULT, &cr, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(cr.nexhausted, 0);
	assert_int_equal(c->brigades[fl].spent, 0);
	free(text);
	battle_free(b);
	campaign_free(c);
}

static void
exhaustion_by_forced_march_and_rest(void **state)
{
	struct campaign *c;
	struct cp_order forced = { 1, CO_FORCED, 3, -1, -1, { 0 }, "" };
	struct cp_order rest = { 1, CO_REST, -1, -1, -1, { 0 }, "" };
	struct cp_order hold = { 1, CO_HOLD, -1, -1, -1, { 0 }, "" };
	unsigned char fought[CAMPAIGN_MAX_COLUMNS] = { 0 };
	static struct cp_upkeep up;
	struct err e;
	int dr;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	dr = 1;    /* the Dragoons, of the Horse (column 1), at Ashby */
	assert_string_equal(c->brigades[dr].name, "Dragoons");
	/* one forced day is borne */
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(c->columns[1].forced, 1);
	assert_int_equal(c->brigades[dr].spent, 0);
	assert_int_equal(up.columns[1].spent, 0);
	/* a hold between starts the count again */
	assert_int_equal(campaign_day_end(c, &hold, 1, NULL, &up), 0);
	assert_int_equal(c->columns[1].forced, 0);
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[dr].spent, 0);
	/* the second running is not */
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(c->columns[1].forced, 2);
	assert_int_equal(c->brigades[dr].spent, 1);
	assert_int_equal(up.columns[1].spent, 1);
	assert_int_equal(c->brigades[0].spent, 0);   /* another column's */
	/* holding does not rest it; resting after a battle that day
	 * does not either; a day's rest in supply does */
	assert_int_equal(campaign_day_end(c, &hold, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[dr].spent, 1);
	fought[1] = 1;
	assert_int_equal(campaign_day_end(c, &rest, 1, fought, &up), 0);
	assert_int_equal(c->brigades[dr].spent, 1);
	assert_int_equal(up.columns[1].refreshed, 0);
	assert_true(campaign_in_supply(c, 1));
	assert_int_equal(campaign_day_end(c, &rest, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[dr].spent, 0);
	assert_int_equal(up.columns[1].refreshed, 1);
	/* out of supply, rest does not restore it */
	c->brigades[dr].spent = 1;
	c->columns[2].place = 0;    /* an enemy at the depot */
	assert_false(campaign_in_supply(c, 1));
	assert_int_equal(campaign_day_end(c, &rest, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[dr].spent, 1);
	campaign_free(c);
}

/* The state keeps exhaustion; a campaign begun by engine 1 keeps none
 * and reads and writes the state of engine 1. */
static void
exhaustion_state_and_the_engine_it_began_under(void **state)
{
	struct cp_order forced = { 1, CO_FORCED, 3, -1, -1, { 0 }, "" };
	static struct cp_upkeep up;
	struct campaign *c, *d, *c2;
	struct text t1, t2;
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	assert_int_equal(c->engine, CAMPAIGN_ENGINE);
	c->brigades[1].spent = 2;
	c->columns[1].forced = 3;
	text_init(&t1, 4096);
	campaign_state_write(c, &t1);
	assert_non_null(strstr(t1.s, "despatch-campaign-state 3\n"));
	assert_non_null(strstr(t1.s, " forced 3\n"));
	assert_non_null(strstr(t1.s, "brigade 1 column 1 spent 2 \""));
	d = load(good, &e);
	assert_int_equal(campaign_state_read(d, t1.s, t1.len, &e), 0);
	assert_int_equal(d->brigades[1].spent, 2);
	assert_int_equal(d->columns[1].forced, 3);
	text_init(&t2, 4096);
	campaign_state_write(d, &t2);
	assert_string_equal(t1.s, t2.s);
	text_free(&t2);
	campaign_free(d);
	/* engine 1 */
	c->engine = 1;
	c->brigades[1].spent = 0;
	c->columns[1].forced = 0;
	assert_false(campaign_exhaustion(c));
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[1].spent, 0);
	assert_int_equal(c->columns[1].forced, 0);
	text_free(&t1);
	text_init(&t1, 4096);
	campaign_state_write(c, &t1);
	assert_non_null(strstr(t1.s, "despatch-campaign-state 1\n"));
	assert_null(strstr(t1.s, "spent"));
	assert_null(strstr(t1.s, "forced"));
	d = load(good, &e);
	assert_int_equal(campaign_state_read(d, t1.s, t1.len, &e), 0);
	assert_int_equal(d->engine, 1);
	text_init(&t2, 4096);
	campaign_state_write(d, &t2);
	assert_string_equal(t1.s, t2.s);
	text_free(&t2);
	campaign_free(d);
	/* a state of an engine this build does not know is refused */
	d = load(good, &e);
	assert_int_equal(campaign_state_read(d, "despatch-campaign-state 4\n",
	    26, &e), -1);
	assert_int_equal(campaign_state_read(d, "despatch-campaign-state 3x\n",
	    27, &e), -1);
	campaign_free(d);
	/* engine 2's state (exhaustion, no deployment step) reads as 2 and
	 * writes as 2 */
	d = load(good, &e);
	text_free(&t1);
	text_init(&t1, 4096);
	d->engine = 2;
	campaign_state_write(d, &t1);
	assert_non_null(strstr(t1.s, "despatch-campaign-state 2\n"));
	c2 = load(good, &e);
	assert_int_equal(campaign_state_read(c2, t1.s, t1.len, &e), 0);
	assert_int_equal(c2->engine, 2);
	campaign_free(c2);
	campaign_free(d);
	/* the test hook: campaigns begun under engine 1 */
	campaign_engine_test("1");
	d = load(good, &e);
	assert_int_equal(d->engine, 1);
	campaign_free(d);
	campaign_engine_test(NULL);
	d = load(good, &e);
	assert_int_equal(d->engine, CAMPAIGN_ENGINE);
	campaign_free(d);
	text_free(&t1);
	campaign_free(c);
}

/* A ruleset without brigade exhaustion (bb7) keeps none in a campaign,
 * and its file may not set carry.exhausted. */
static void
no_exhaustion_where_the_ruleset_has_none(void **state)
{
	static const char bb7[] =
	    "campaign \"bb7\"\n"
	    "ruleset bb7\n"
	    "calendar 1781-01-16 to 1781-01-20\n"
	    "place \"A\" kind town at 0,0\n"
	    "side crown \"Crown\" nation british\n"
	    "  column \"C\" commander \"Col. A\" at \"A\"\n"
	    "    brigade \"B\" commander \"Maj. B\"\n"
	    "      unit \"21st Foot\" type british-regulars stands 2 sp 5 line\n"
	    "side continental \"Continental\" nation continental\n"
	    "  column \"D\" commander \"Col. D\" at \"A\"\n"
	    "    brigade \"E\" commander \"Maj. E\"\n"
	    "      unit \"1st Virginia\" type regulars stands 2 sp 5 line\n";
	static const char bb7set[] =
	    "campaign \"bb7\"\n"
	    "ruleset bb7\n"
	    "set carry.exhausted 1\n";
	struct campaign *c;
	struct err e;

	(void)state;
	c = load(bb7, &e);
	if (c == NULL)
		fail_msg("%s", e.msg);
	assert_false(campaign_exhaustion(c));
	campaign_free(c);
	assert_null(load(bb7set, &e));
	assert_non_null(strstr(e.msg, "t.campaign:3: the campaign has no "
	    "number 'carry.exhausted'"));
}

/* The weather (docs/campaign.md, The weather): the file's for its days,
 * else fair unless the file sets chances, then a d6 of the turn's dice
 * before any other; rain and storm slow the march and swell rivers. */
static void
weather_of_the_file_or_the_die(void **state)
{
	static const char fixed[] =
	    "weather 1781-01-16 to 1781-01-17 rain\n"
	    "weather 1781-01-18 storm\n";
	static const char chances[] =
	    "set weather.rain 2\n"
	    "set weather.storm 1\n";
	static const int rolls[] = { 3, 4, 6, 5 };
	struct dice_script ds = { rolls, 4, 0 };
	static struct cp_turn t;
	struct campaign *c;
	struct dice d;
	struct err e;
	char *text;
	int i;
	static const enum cp_weather want[] = { WEATHER_FAIR, WEATHER_RAIN,
		WEATHER_STORM, WEATHER_RAIN };

	(void)state;
	/* fixed days: no die */
	text = calloc(1, sizeof(good) + sizeof(fixed));
	snprintf(text, sizeof(good) + sizeof(fixed), "%s%s", good, fixed);
	c = load(text, &e);
	if (c == NULL)
		fail_msg("%s", e.msg);
	assert_int_equal(c->nweather, 2);
	dice_init(&d, dice_script_next, &ds, NULL);
	for (i = 0; i < 3; i++) {
		assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
		if (campaign_turn_march(c, &t, &d, &e) != 0)
			fail_msg("%s", e.msg);
		assert_int_equal(c->weather, i < 2 ? WEATHER_RAIN : WEATHER_STORM);
		c->turn++;
		campaign_turn_free(&t);
	}
	/* a day the file does not fix, with no chances set: fair, no die */
	assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
	assert_int_equal(campaign_turn_march(c, &t, &d, &e), 0);
	assert_int_equal(c->weather, WEATHER_FAIR);
	assert_int_equal(ds.pos, 0);
	campaign_turn_free(&t);
	campaign_free(c);
	free(text);
	/* chances 2 and 1: 1-3 fair, 4-5 rain, 6 storm */
	text = calloc(1, sizeof(good) + sizeof(chances));
	snprintf(text, sizeof(good) + sizeof(chances), "%s", good);
	snprintf(text + strlen(text), sizeof(chances), "%s", chances);
	c = load(text, &e);
	if (c == NULL)
		fail_msg("%s", e.msg);
	for (i = 0; i < 4; i++) {
		assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
		assert_int_equal(campaign_turn_march(c, &t, &d, &e), 0);
		assert_int_equal(c->weather, want[i]);
		assert_int_equal(ds.pos, i + 1);
		c->turn++;
		campaign_turn_free(&t);
	}
	/* engine 1 has no weather: no die, fair */
	c->engine = 1;
	c->weather = WEATHER_FAIR;
	ds.pos = 0;
	assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
	assert_int_equal(campaign_turn_march(c, &t, &d, &e), 0);
	assert_int_equal(c->weather, WEATHER_FAIR);
	assert_int_equal(ds.pos, 0);
	campaign_turn_free(&t);
	campaign_free(c);
	free(text);
}

static void
weather_slows_the_march(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 3, -1, -1, { 0 }, "" };
	struct cp_order f = { 0, CO_FORCED, 3, -1, -1, { 0 }, "" };
	struct cp_contact k[4];
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[1].gone = c->columns[2].gone = 1;
	/* the Redcoats (16 a day on a road, the file's) from Carr's Mill
	 * along the track to Dunmore, 30 miles: 10 a day a track */
	c->columns[0].place = 2;
	c->weather = WEATHER_RAIN;
	(void)campaign_march(c, &o, 1, k, 4);
	/* two thirds of 10: 6.70 */
	assert_int_equal(c->columns[0].along100, 670);
	c->columns[0].road = -1;
	c->columns[0].place = 2;
	c->weather = WEATHER_STORM;
	(void)campaign_march(c, &o, 1, k, 4);
	assert_int_equal(c->columns[0].along100, 500);    /* half */
	c->columns[0].road = -1;
	c->columns[0].place = 2;
	(void)campaign_march(c, &f, 1, k, 4);
	assert_int_equal(c->columns[0].along100, 750);    /* 15 halved */
	/* on the road from Ashby: rain does not slow it, a storm does */
	c->columns[0].road = -1;
	c->columns[0].place = 0;
	o.dest = 1;
	c->weather = WEATHER_RAIN;
	(void)campaign_march(c, &o, 1, k, 4);
	assert_int_equal(c->columns[0].place, 1);    /* 10 miles: there */
	/* the Deep: 3 miles to cross, twice that in rain, three times in a
	 * storm: from Bell's Ford, 16 - 6 = 10 along the 12 miles */
	o.dest = 2;
	(void)campaign_march(c, &o, 1, k, 4);
	assert_int_equal(c->columns[0].road, 1);
	assert_int_equal(c->columns[0].along100, 1000);
	c->columns[0].road = -1;
	c->columns[0].place = 1;
	c->weather = WEATHER_STORM;
	(void)campaign_march(c, &o, 1, k, 4);
	/* 16 at two thirds is 10.72 a day, less 9 for the river: 1.72 */
	assert_int_equal(c->columns[0].along100, 172);
	/* a second river on the road: fair, 16 less 3 and 3: 10 along its
	 * 12 miles; campaign engine 1 paid one crossing for any: 13, so it
	 * is at Carr's Mill */
	c->roads[1].nrivers = 2;
	c->columns[0].road = -1;
	c->columns[0].place = 1;
	c->weather = WEATHER_FAIR;
	(void)campaign_march(c, &o, 1, k, 4);
	assert_int_equal(c->columns[0].along100, 1000);
	c->engine = 1;
	c->columns[0].road = -1;
	c->columns[0].place = 1;
	(void)campaign_march(c, &o, 1, k, 4);
	assert_int_equal(c->columns[0].road, -1);
	assert_int_equal(c->columns[0].place, 2);
	campaign_free(c);
}

/* A depot with dates supplies only on its days (docs/campaign.md,
 * Sides, columns and depots). */
static void
a_depot_supplies_on_its_days(void **state)
{
	struct campaign *c;
	struct err e;
	char *text = strdup(good), *p;

	(void)state;
	p = strstr(text, "  depot \"Ashby\"\n");
	assert_non_null(p);
	{
		char buf[sizeof(good) + 64];

		snprintf(buf, sizeof(buf), "%.*s  depot \"Ashby\" to 1781-01-17\n%s",
		    (int)(p - text), text, p + strlen("  depot \"Ashby\"\n"));
		c = load(buf, &e);
		if (c == NULL)
			fail_msg("%s", e.msg);
		/* the Redcoats at Ashby: the 16th, the 17th, not the 18th */
		assert_true(campaign_in_supply(c, 0));
		c->turn = 1;
		assert_true(campaign_in_supply(c, 0));
		c->turn = 2;
		assert_false(campaign_in_supply(c, 0));
		/* the report of the 17th (turn 2) says so, to the crown only */
		{
			static struct cp_turn t;
			static struct cp_settle st;
			struct text r;

			memset(&t, 0, sizeof(t));
			t.turn = 2;
			t.day = c->start_day + 1;
			text_init(&r, 1u << 16);
			campaign_day_report(c, "tm", 0, &t, &st, &r);
			assert_non_null(strstr(r.s, "\nDepots\n  Ashby no longer "
			    "supplies from Thursday 18 January 1781.\n"));
			text_free(&r);
			text_init(&r, 1u << 16);
			campaign_day_report(c, "tm", 1, &t, &st, &r);
			assert_null(strstr(r.s, "Depots"));
			text_free(&r);
		}
		campaign_free(c);
		snprintf(buf, sizeof(buf), "%.*s  depot \"Ashby\" from 1781-01-18 "
		    "to 1781-01-19\n%s", (int)(p - text), text,
		    p + strlen("  depot \"Ashby\"\n"));
		c = load(buf, &e);
		if (c == NULL)
			fail_msg("%s", e.msg);
		assert_false(campaign_in_supply(c, 0));
		c->turn = 2;
		assert_true(campaign_in_supply(c, 0));
		c->turn = 4;
		assert_false(campaign_in_supply(c, 0));
		campaign_free(c);
		snprintf(buf, sizeof(buf), "%.*s  depot \"Ashby\" from 1781-01-18 "
		    "to 1781-01-17\n%s", (int)(p - text), text,
		    p + strlen("  depot \"Ashby\"\n"));
		assert_null(load(buf, &e));
		assert_non_null(strstr(e.msg, "t.campaign:21: the depot's last day "
		    "comes before its first"));
		snprintf(buf, sizeof(buf), "%.*s  depot \"Ashby\" until 1781-01-18"
		    "\n%s", (int)(p - text), text, p + strlen("  depot \"Ashby\"\n"));
		assert_null(load(buf, &e));
		assert_non_null(strstr(e.msg, "t.campaign:21: expected 'from DATE' "
		    "or 'to DATE' after the depot's place, not 'until'"));
		snprintf(buf, sizeof(buf), "%.*s  depot \"Ashby\" to 1781-03-01\n%s",
		    (int)(p - text), text, p + strlen("  depot \"Ashby\"\n"));
		assert_null(load(buf, &e));
		assert_non_null(strstr(e.msg, "t.campaign:21: 1781-03-01 is outside "
		    "the calendar"));
	}
	free(text);
}

/* A road's rivers are counted by name (the same one twice is one); a
 * half-day campaign's afternoon keeps the morning's weather (one die a
 * day); a brigade with nothing left keeps no exhaustion. */
static void
rivers_half_days_and_the_fallen(void **state)
{
	static const int rolls[] = { 6, 1, 5, 1 };
	struct dice_script ds = { rolls, 4, 0 };
	struct cp_order forced = { 1, CO_FORCED, 3, -1, -1, { 0 }, "" };
	static struct cp_upkeep up;
	static struct cp_turn t;
	struct campaign *c;
	struct dice d;
	struct err e;
	char buf[sizeof(good) + 256], *p;
	int i, u;

	(void)state;
	snprintf(buf, sizeof(buf), "%s", good);
	p = strstr(buf, "river \"Deep\"");
	assert_non_null(p);
	snprintf(p, sizeof(buf) - (size_t)(p - buf), "river \"Deep\" river "
	    "\"Deep\" river \"Shallow\"%s", strstr(good, "river \"Deep\"") +
	    strlen("river \"Deep\""));
	c = load(buf, &e);
	if (c == NULL)
		fail_msg("%s", e.msg);
	assert_int_equal(c->roads[1].nrivers, 2);
	assert_string_equal(c->roads[1].river, "Deep");
	campaign_free(c);
	/* half days, with chances: the die of the 16th's morning (6: a
	 * storm) stands for its afternoon; the 17th's morning rolls again */
	snprintf(buf, sizeof(buf), "%s", good);
	p = strstr(buf, "turn day");
	memcpy(p, "turn half-day\nset weather.rain 2\nset weather.storm 1",
	    strlen("turn half-day\nset weather.rain 2\nset weather.storm 1"));
	snprintf(p + strlen("turn half-day\nset weather.rain 2\nset "
	    "weather.storm 1"), sizeof(buf) - (size_t)(p - buf) - 60, "%s",
	    strstr(good, "turn day") + strlen("turn day"));
	c = load(buf, &e);
	if (c == NULL)
		fail_msg("%s\n%s", e.msg, buf);
	assert_int_equal(c->halves, 2);
	dice_init(&d, dice_script_next, &ds, NULL);
	for (i = 0; i < 3; i++) {
		assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
		assert_int_equal(campaign_turn_march(c, &t, &d, &e), 0);
		assert_int_equal(c->weather, i < 2 ? WEATHER_STORM : WEATHER_FAIR);
		assert_int_equal(ds.pos, i < 2 ? 1 : 2);
		c->turn++;
		campaign_turn_free(&t);
	}
	campaign_free(c);
	/* the Dragoons exhausted by forced marching, then gone: none */
	c = load(good, &e);
	assert_non_null(c);
	c->brigades[1].spent = 1;
	u = campaign_find_unit(c, "17th Dragoons");
	c->units[u].gone = 1;
	assert_int_equal(campaign_brigade_sp(c, 1), 0);
	assert_int_equal(campaign_day_end(c, &forced, 1, NULL, &up), 0);
	assert_int_equal(c->brigades[1].spent, 0);
	campaign_free(c);
}

/* Enemies out of sight are reported where they were last seen (the
 * issue's "where last seen"), and the state keeps it. */
static void
enemies_are_reported_where_last_seen(void **state)
{
	static struct cp_turn t;
	static struct cp_settle st;
	struct campaign *c, *d;
	struct text rep, s1, s2;
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[2].place = 1;    /* the Blues at Bell's Ford, 10 miles */
	/* turn 1: the Horse scout from Ashby (20 miles): seen */
	memset(&t, 0, sizeof(t));
	t.turn = 1;
	t.day = c->start_day;
	t.norders = 1;
	t.orders[0] = (struct cp_order){ 1, CO_SCOUT, -1, -1, -1, { 0 }, "" };
	campaign_mark_seen(c, &t);
	assert_int_equal(c->last_seen[0][2].turn, 1);
	assert_int_equal(c->last_seen[0][2].place, 1);
	assert_int_equal(c->last_seen[0][2].road, -1);
	/* the Continentals see the Redcoats and the Horse within 20? no:
	 * sight 5, no horse of theirs scouting */
	assert_int_equal(c->last_seen[1][0].turn, 0);
	/* turn 2: no scouting, the Blues out of sight; they have moved on */
	c->turn = 1;
	t.turn = 2;
	t.day = c->start_day + 1;
	t.norders = 0;
	c->columns[2].place = 2;
	campaign_mark_seen(c, &t);
	assert_int_equal(c->last_seen[0][2].turn, 1);
	text_init(&rep, 1u << 16);
	campaign_day_report(c, "tm", 0, &t, &st, &rep);
	assert_non_null(strstr(rep.s, "Enemy columns seen\n  none in sight\n"
	    "Out of sight, last seen\n  Blues (Continentals), on Tuesday 16 "
	    "January 1781,\n    at Bell's Ford\n"));
	text_free(&rep);
	/* kept in the state, read back */
	text_init(&s1, 1u << 16);
	text_init(&s2, 1u << 16);
	campaign_state_write(c, &s1);
	if (strstr(s1.s, "seen 0 2 turn 1 place 1 road -1 ") == NULL)
		fail_msg("%s", s1.s);
	d = load(good, &e);
	assert_int_equal(campaign_state_read(d, s1.s, s1.len, &e), 0);
	campaign_state_write(d, &s2);
	assert_string_equal(s1.s, s2.s);
	assert_int_equal(d->last_seen[0][2].turn, 1);
	text_free(&s1);
	text_free(&s2);
	campaign_free(d);
	/* engine 1 keeps none */
	c->engine = 1;
	c->last_seen[0][2].turn = 0;
	t.norders = 1;
	c->columns[2].place = 1;
	campaign_mark_seen(c, &t);
	assert_int_equal(c->last_seen[0][2].turn, 0);
	campaign_free(c);
}

/* A battle whose units are not the contact's is refused. */
static void
a_foreign_battle_is_refused(void **state)
{
	struct campaign *c;
	struct cp_order o = { 0, CO_MARCH, 0, -1, -1, { 0 }, "" };
	struct cp_contact k[2];
	static struct cp_carry cr;
	struct battle *b;
	char *text = NULL;
	size_t len;
	struct err e;

	(void)state;
	c = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	assert_int_equal(campaign_march(c, &o, 1, k, 2), 1);
	assert_int_equal(campaign_battle_scenario(c, &k[0], 1, NULL, &text,
	    &len, &e), 0);
	b = battle_of(text);
	snprintf(b->units[0].name, sizeof(b->units[0].name), "Somebody Else");
	assert_int_equal(campaign_carry(c, &k[0], b, 1, CARRY_BY_RESULT, &cr, &e), -1);
	assert_non_null(strstr(e.msg, "\"Somebody Else\" is in no column"));
	free(text);
	battle_free(b);
	campaign_free(c);
}

/* Rest in supply brings back a quarter (rounded up) of what is missing;
 * at a depot one SP more for the unit furthest below full; out of
 * supply a fiftieth is lost for good; a forced march straggles a
 * twentieth. */
static void
the_day_rests_supplies_and_straggles(void **state)
{
	static const int s10[] = { 10, 10 }, f20[] = { 20, 20 };
	static const int s20[] = { 20, 20 };
	struct campaign *c;
	struct cp_order o[3] = {
		{ 0, CO_REST, -1, -1, -1, { 0 }, "" },
		{ 1, CO_FORCED, 3, -1, -1, { 0 }, "" },
		{ 2, CO_HOLD, -1, -1, -1, { 0 }, "" } };
	struct cp_contact k[4];
	static struct cp_upkeep up;
	struct err e;
	int u;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	set_unit(c, "33rd Foot", 2, s10, f20);
	set_unit(c, "17th Dragoons", 2, s20, s20);
	set_unit(c, "1st Maryland", 2, s20, s20);
	c->columns[2].place = 2;    /* out of the horse's way */
	c->columns[2].gone = 1;
	(void)campaign_march(c, &o[1], 1, k, 4);
	c->columns[2].gone = 0;
	assert_true(campaign_in_supply(c, 0));
	assert_true(campaign_in_supply(c, 1));   /* 45 miles out of 60 */
	assert_false(campaign_in_supply(c, 2));  /* no depot of its own */
	assert_int_equal(campaign_day_end(c, o, 3, NULL, &up), 0);
	/* the 33rd: 20 of 40, 20 missing, a quarter is 5; at Ashby, its
	 * depot, one more: 20 + 5 + 1 = 26 */
	u = campaign_find_unit(c, "33rd Foot");
	assert_int_equal(up.columns[0].recovered, 5);
	assert_int_equal(up.columns[0].replaced, 1);
	assert_int_equal(campaign_unit_sp(&c->units[u]), 26);
	assert_int_equal(campaign_unit_full(&c->units[u]), 40);
	/* the dragoons: 40, a twentieth (2) straggles, still of 40 */
	u = campaign_find_unit(c, "17th Dragoons");
	assert_int_equal(up.columns[1].straggled, 2);
	assert_int_equal(campaign_unit_sp(&c->units[u]), 38);
	assert_int_equal(campaign_unit_full(&c->units[u]), 40);
	/* the Marylanders out of supply: 40, a fiftieth (0.8) rounds down
	 * to nothing; at 50 it is one, for good */
	u = campaign_find_unit(c, "1st Maryland");
	assert_int_equal(up.columns[2].starved, 0);
	c->units[u].sp[0] = c->units[u].full[0] = 25;
	c->units[u].sp[1] = c->units[u].full[1] = 25;
	assert_int_equal(campaign_day_end(c, o, 3, NULL, &up), 0);
	assert_int_equal(up.columns[2].starved, 1);
	assert_int_equal(campaign_unit_full(&c->units[u]), 49);
	/* an enemy at the depot cuts it off */
	c->columns[2].place = 0;
	assert_false(campaign_in_supply(c, 1));
	campaign_free(c);
}

/* A side sees its own, enemies within 5 miles, within 20 of scouting
 * horse, and whom it fights. */
static void
a_side_sees_what_is_near(void **state)
{
	struct campaign *c;
	struct cp_order scout = { 1, CO_SCOUT, -1, -1, -1, { 0 }, "" };
	unsigned char seen[CAMPAIGN_MAX_COLUMNS];
	struct cp_contact k;
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	/* the Blues at Carr's Mill, 22 miles from Ashby */
	c->columns[2].place = 2;
	campaign_sees(c, 0, NULL, 0, NULL, 0, seen);
	assert_true(seen[0] && seen[1]);
	assert_false(seen[2]);
	/* the horse scouts: 22 miles is beyond 20 */
	campaign_sees(c, 0, &scout, 1, NULL, 0, seen);
	assert_false(seen[2]);
	/* from Bell's Ford, 12: seen with scouting, not without */
	c->columns[1].place = 1;
	campaign_sees(c, 0, &scout, 1, NULL, 0, seen);
	assert_true(seen[2]);
	campaign_sees(c, 0, NULL, 0, NULL, 0, seen);
	assert_false(seen[2]);
	/* 12 miles off, only foot: scouting needs horse */
	scout.column = 0;
	c->columns[0].place = 1;
	c->columns[1].place = 0;
	campaign_sees(c, 0, &scout, 1, NULL, 0, seen);
	assert_false(seen[2]);
	/* in a battle with it */
	memset(&k, 0, sizeof(k));
	k.narrivals = 2;
	k.arrivals[0].column = 0;
	k.arrivals[1].column = 2;
	campaign_sees(c, 0, NULL, 0, &k, 1, seen);
	assert_true(seen[2]);
	/* the Blues see the crown at Bell's Ford from Carr's Mill? 12: no */
	campaign_sees(c, 1, NULL, 0, NULL, 0, seen);
	assert_false(seen[0]);
	assert_true(seen[2]);
	campaign_free(c);
}

/* Goals: a place held on its day, enemy columns broken. */
static void
goals_score_as_the_file_says(void **state)
{
	struct campaign *c;
	struct err e;
	int pts[BATTLE_MAX_SIDES], u;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	campaign_score(c, pts);
	assert_int_equal(pts[0], 0);
	assert_int_equal(pts[1], 0);
	/* the crown at Dunmore on 31 January, alone: 3 */
	c->columns[0].place = 3;
	c->columns[2].place = 2;
	campaign_mark_goals(c, c->end_day - 1);
	campaign_score(c, pts);
	assert_int_equal(pts[0], 0);        /* not its day */
	campaign_mark_goals(c, c->end_day);
	campaign_score(c, pts);
	assert_int_equal(pts[0], 3);
	/* contested, on its day: nobody holds it */
	c->columns[2].place = 3;
	campaign_mark_goals(c, c->end_day);
	campaign_score(c, pts);
	assert_int_equal(pts[0], 0);
	/* the Redcoats below half their start: broken, 2 to the other side;
	 * the horse gone: 2 more */
	u = campaign_find_unit(c, "33rd Foot");
	c->units[u].sp[0] = 1;
	c->units[u].sp[1] = 0;
	assert_true(campaign_column_broken(c, 0));
	c->columns[1].gone = 1;
	campaign_score(c, pts);
	assert_int_equal(pts[1], 4);
	campaign_free(c);
}

/* One turn of the Cowpens campaign through the turn path: the orders
 * that stand, the march, the battle's scenario, the battle's end carried
 * back, the state written and read back. */
static void
play_cowpens_turn(struct campaign *c, struct text *state)
{
	struct cp_order o = { 0, CO_MARCH, 0, -1, -1, { 0 }, "" };
	static struct cp_turn t;
	struct cp_settle st;
	struct battle *b;
	struct err e;
	int played = 1, i;

	err_clear(&e);
	assert_int_equal(campaign_turn_orders(c, &o, 1, &t, &e), 0);
	/* Morgan sent nothing: he holds */
	assert_int_equal(t.norders, 2);
	assert_int_equal(t.orders[1].kind, CO_HOLD);
	assert_int_equal(t.day, c->start_day);
	if (campaign_turn_march(c, &t, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(t.ncontacts, 1);
	b = battle_of(t.battles[0].scenario);
	for (i = 0; i < b->nbrigades; i++)
		if (strcmp(b->sides[b->brigades[i].side].id, "crown") == 0)
			b->brigades[i].flags |= BR_EXHAUSTED;
	if (campaign_turn_settle(c, &t, &b, &played, NULL, &st, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(st.ncarries, 1);
	assert_int_equal(st.carries[0].winner, 1);
	assert_int_equal(c->turn, 1);
	assert_false(c->over);
	campaign_state_write(c, state);
	campaign_settle_free(&st);
	campaign_turn_free(&t);
	battle_free(b);
}

static void
a_turn_plays_the_same_twice_and_its_state_reads_back(void **state)
{
	struct campaign *a, *b, *fresh;
	struct text sa, sb, again;
	struct err e;

	(void)state;
	a = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	b = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	text_init(&sa, 1u << 20);
	text_init(&sb, 1u << 20);
	text_init(&again, 1u << 20);
	play_cowpens_turn(a, &sa);
	play_cowpens_turn(b, &sb);
	assert_int_equal(sa.len, sb.len);
	assert_memory_equal(sa.s, sb.s, sa.len);
	/* the crown went back to Thicketty Creek; the state says so */
	assert_non_null(strstr(sa.s, "turn 1 over 0 winner -1\n"));
	assert_non_null(strstr(sa.s, "column 0 side 0 \"Tarleton's Legion\" "
	    "\"Lt. Col. Banastre Tarleton\" place 1 road -1"));
	/* read back onto the campaign from its file: the same state */
	fresh = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	err_clear(&e);
	if (campaign_state_read(fresh, sa.s, sa.len, &e) != 0)
		fail_msg("%s", e.msg);
	campaign_state_write(fresh, &again);
	assert_int_equal(again.len, sa.len);
	assert_memory_equal(again.s, sa.s, sa.len);
	assert_int_equal(fresh->columns[0].place, 1);
	/* text that is not this campaign's state is refused at its line */
	{
		char bad[4096];

		snprintf(bad, sizeof(bad), "%s", sa.s);
		memcpy(strstr(bad, "place 1 road -1"), "place 9 road -1", 15);
		assert_int_equal(campaign_state_read(fresh, bad, strlen(bad), &e),
		    -1);
		assert_non_null(strstr(e.msg, "campaign state line 4 is not one"));
	}
	text_free(&sa);
	text_free(&sb);
	text_free(&again);
	campaign_free(a);
	campaign_free(b);
	campaign_free(fresh);
}

/* A standing march goes on the next day; DETACH makes a column of the
 * brigades named, JOIN gives them back; the last day ends it. */
static void
orders_stand_detach_join_and_the_calendar_ends(void **state)
{
	struct campaign *c;
	struct cp_order m = { 0, CO_MARCH, 3, -1, -1, { 0 }, "" };
	struct cp_order d = { 2, CO_DETACH, -1, -1, -1, { 0 }, "Rear Guard" };
	static struct cp_turn t;
	struct cp_settle st;
	struct err e;
	int day;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	c->columns[1].gone = 1;
	/* split the Blues' brigade in two first: a second brigade */
	c->brigades[3] = c->brigades[2];
	snprintf(c->brigades[3].name, sizeof(c->brigades[3].name), "Rear");
	snprintf(c->brigades[3].commander, sizeof(c->brigades[3].commander),
	    "Col. Gray");
	c->nbrigades = 4;
	c->units[3] = c->units[2];
	snprintf(c->units[3].name, sizeof(c->units[3].name), "2nd Maryland");
	c->units[3].brigade = 3;
	c->nunits = 4;
	d.brigades[0] = 1 << 3;
	/* turn 1: the Redcoats march, the Blues detach the Rear */
	{
		struct cp_order two[2];

		two[0] = m;
		two[1] = d;
		assert_int_equal(campaign_turn_orders(c, two, 2, &t, &e), 0);
	}
	if (campaign_turn_march(c, &t, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(c->ncolumns, 4);
	assert_string_equal(c->columns[3].name, "Rear Guard");
	assert_string_equal(c->columns[3].commander, "Col. Gray");
	assert_string_equal(c->brigades[3].commander, "Acting CO of Rear");
	assert_int_equal(c->brigades[3].column, 3);
	assert_int_equal(c->brigades[2].column, 2);
	assert_int_equal(c->columns[3].place, 3);
	assert_int_equal(campaign_turn_settle(c, &t, NULL, NULL, NULL, &st, &e), 0);
	campaign_turn_free(&t);
	campaign_settle_free(&st);
	/* turn 2: no orders: the march stands, the Rear Guard holds */
	assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
	assert_int_equal(t.orders[0].kind, CO_MARCH);
	assert_int_equal(t.orders[0].dest, 3);
	assert_int_equal(t.orders[2].kind, CO_HOLD);
	campaign_turn_free(&t);
	/* JOIN: the Rear Guard goes back into the Blues */
	{
		struct cp_order j = { 3, CO_JOIN, -1, -1, 2, { 0 }, "" };

		assert_int_equal(campaign_turn_orders(c, &j, 1, &t, &e), 0);
		c->columns[0].gone = 1;   /* keep the Redcoats off the road */
		if (campaign_turn_march(c, &t, NULL, &e) != 0)
			fail_msg("%s", e.msg);
		assert_true(c->columns[3].gone);
		assert_int_equal(c->brigades[3].column, 2);
		c->columns[0].gone = 0;
		assert_int_equal(campaign_turn_settle(c, &t, NULL, NULL, NULL, &st, &e),
		    0);
		campaign_turn_free(&t);
		campaign_settle_free(&st);
	}
	/* to the last day: over; the crown never held Dunmore on the 31st,
	 * and its horse is gone (a column broken: 2 to the continentals):
	 * 0 to 2, by more than the margin of 1 */
	for (day = c->turn; !c->over && day < 40; day++) {
		assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
		c->columns[0].gone = 1;
		if (campaign_turn_march(c, &t, NULL, &e) != 0)
			fail_msg("%s", e.msg);
		c->columns[0].gone = 0;
		assert_int_equal(campaign_turn_settle(c, &t, NULL, NULL, NULL, &st, &e),
		    0);
		campaign_turn_free(&t);
		campaign_settle_free(&st);
	}
	assert_true(c->over);
	assert_int_equal(c->turn, 16);
	assert_int_equal(c->winner, 1);
	assert_int_equal(campaign_turn_orders(c, NULL, 0, &t, &e), 0);
	assert_int_equal(campaign_turn_march(c, &t, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "the campaign is over"));
	campaign_free(c);
}

/* A marched turn kept while its battles are fought reads back the same. */
static void
a_marched_turn_reads_back(void **state)
{
	struct campaign *c;
	struct cp_order o[2] = { { 0, CO_MARCH, 0, -1, -1, { 0 }, "" },
		{ 1, CO_DETACH, -1, -1, -1, { 0x05, 0 }, "A \"quoted\" name" } };
	static struct cp_turn t, back;
	struct text a, b;
	struct err e;

	(void)state;
	c = load_in(cowpens, DESPATCH_SOURCE_DIR "/campaign/cowpens-1781");
	assert_int_equal(campaign_turn_orders(c, o, 1, &t, &e), 0);
	t.orders[1] = o[1];
	assert_int_equal(campaign_march(c, t.orders, 1, t.contacts, 4), 1);
	t.ncontacts = 1;
	text_init(&a, 1u << 20);
	text_init(&b, 1u << 20);
	campaign_turn_write(&t, &a);
	if (campaign_turn_read(a.s, a.len, &back, &e) != 0)
		fail_msg("%s", e.msg);
	campaign_turn_write(&back, &b);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.s, b.s, a.len);
	assert_string_equal(back.orders[1].name, "A \"quoted\" name");
	assert_int_equal(back.orders[1].brigades[0], 0x05);
	assert_int_equal(back.contacts[0].narrivals, 2);
	assert_int_equal(back.contacts[0].arrivals[1].road, 0);
	/* damaged text is refused, naming its line */
	a.s[a.len - 3] = 'x';
	assert_int_equal(campaign_turn_read(a.s, a.len, &back, &e), -1);
	assert_non_null(strstr(e.msg, "marched turn, line"));
	text_free(&a);
	text_free(&b);
	campaign_free(c);
}

/* The day's report: a side's own columns with where they are, what
 * each did, supply and strength by brigade; the enemy only where it is
 * seen; the points and what to send next. */
static void
the_daily_report_tells_a_side_what_it_knows(void **state)
{
	struct campaign *c;
	struct cp_order m = { 0, CO_MARCH, 2, -1, -1, { 0 }, "" };
	static struct cp_turn t;
	struct cp_settle st;
	struct text crown, cont;
	struct err e;

	(void)state;
	c = load(good, &e);
	assert_non_null(c);
	assert_int_equal(campaign_turn_orders(c, &m, 1, &t, &e), 0);
	if (campaign_turn_march(c, &t, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(campaign_turn_settle(c, &t, NULL, NULL, NULL, &st, &e), 0);
	text_init(&crown, 1u << 16);
	text_init(&cont, 1u << 16);
	campaign_day_report(c, "tm", 0, &t, &st, &crown);
	campaign_day_report(c, "tm", 1, &t, &st, &cont);
	assert_non_null(crown.s);
	assert_non_null(cont.s);
	assert_non_null(strstr(crown.s, "Campaign tm: The test of the march\n"
	    "Turn 1 of 16, Tuesday 16 January 1781: the report of Crown forces."));
	/* 16 miles on the road at 16 a day, less the Deep's 2: 14 miles,
	 * past Bell's Ford (10) and 4 along toward Carr's Mill. */
	assert_non_null(strstr(crown.s, "  Redcoats (Lord Ashe),\n    on the road "
	    "from Bell's Ford to Carr's Mill"));
	assert_non_null(strstr(crown.s, "    marched toward Carr's Mill; in "
	    "supply\n    strength 4 of 4: Foot 4 of 4\n"));
	assert_non_null(strstr(crown.s, "  Horse (Maj. Colt),\n    at Ashby\n"
	    "    held; in supply"));
	/* The Blues are 30 miles and more away from every crown column:
	 * unseen, and the report does not name them. */
	assert_non_null(strstr(crown.s, "Enemy columns seen\n  none in sight\n"));
	assert_null(strstr(crown.s, "Blues"));
	assert_null(strstr(cont.s, "Redcoats"));
	assert_non_null(strstr(cont.s, "  Blues (Gen. Eaton),\n    at Dunmore\n"
	    "    held; OUT OF SUPPLY"));
	assert_non_null(strstr(crown.s, "Points: Crown forces 0, Continentals 0"));
	assert_non_null(strstr(crown.s, "Next: orders for turn 2 (Wednesday 17 "
	    "January 1781)"));
	assert_non_null(strstr(crown.s, "CAMPAIGN tm SIDE crown PASSWORD"));
	text_free(&crown);
	text_free(&cont);
	campaign_turn_free(&t);
	campaign_settle_free(&st);
	campaign_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_file_loads),
		cmocka_unit_test(refusals_name_their_line),
		cmocka_unit_test(routes_take_the_shortest_road),
		cmocka_unit_test(rates_are_the_slowest_arms),
		cmocka_unit_test(a_day_march_goes_the_rate),
		cmocka_unit_test(columns_passing_on_a_road_meet),
		cmocka_unit_test(a_column_at_a_place_is_met_there),
		cmocka_unit_test(a_day_is_deterministic),
		cmocka_unit_test(a_contact_opens_the_battle_with_the_forces_present),
		cmocka_unit_test(a_generated_field_comes_from_the_dice),
		cmocka_unit_test(a_later_column_comes_on_at_its_turn),
		cmocka_unit_test(a_battle_carries_back_by_the_table),
		cmocka_unit_test(exhaustion_carries_into_the_next_battle),
		cmocka_unit_test(exhaustion_by_forced_march_and_rest),
		cmocka_unit_test(exhaustion_state_and_the_engine_it_began_under),
		cmocka_unit_test(no_exhaustion_where_the_ruleset_has_none),
		cmocka_unit_test(weather_of_the_file_or_the_die),
		cmocka_unit_test(weather_slows_the_march),
		cmocka_unit_test(a_depot_supplies_on_its_days),
		cmocka_unit_test(rivers_half_days_and_the_fallen),
		cmocka_unit_test(enemies_are_reported_where_last_seen),
		cmocka_unit_test(a_foreign_battle_is_refused),
		cmocka_unit_test(the_day_rests_supplies_and_straggles),
		cmocka_unit_test(a_side_sees_what_is_near),
		cmocka_unit_test(goals_score_as_the_file_says),
		cmocka_unit_test(a_turn_plays_the_same_twice_and_its_state_reads_back),
		cmocka_unit_test(orders_stand_detach_join_and_the_calendar_ends),
		cmocka_unit_test(a_marched_turn_reads_back),
		cmocka_unit_test(the_daily_report_tells_a_side_what_it_knows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
