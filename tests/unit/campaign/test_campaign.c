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
 * day (3 * 100 / 16 = 18 steps), and the column goes on 6 miles less
 * what is lost at the ford: at the end of the day it is on the road. */
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
	 * ford; 18 steps wait; steps 82..100 are 19 steps of 16 */
	assert_int_equal(c->columns[0].along100, 19 * 16);
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
	assert_int_equal(b->nunits, 5);
	assert_int_equal(b->nsides, 2);
	assert_string_equal(b->sides[b->side_order[0]].id, "crown");
	/* the field's own hour for a battle met... the march's: 10 miles
	 * at 15 a day is 67 steps, 6.7 hours after seven: 13:30 (the
	 * quarter below 13:42) */
	assert_int_equal(b->first_minute, 13 * 60 + 30);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
