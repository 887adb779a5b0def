/*
 * test_result.c - how a battle ends: objectives held, points for enemy
 * brigades worn down, the winning margin, an army that breaks, and the
 * scenario lines that state them.  Also geom_seg_hit, which the movement
 * uses to end its steps at the edges of areas.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/geom.h"
#include "core/result.h"
#include "scenario/scenario.h"

/* Two brigades a side, one unit each; the hill objective at 24,24 within
 * 3", worth 3; the ford at 10,10 within 2", worth 1. */
static const char base[] =
    "scenario \"Ends\"\nruleset vnb-wing\ntable 48 x 48\nturns 3\n"
    "%s"
    "objective \"Hill\" at 24,24 radius 3 points 3\n"
    "objective \"Ford\" at 10,10 radius 2 points 1\n"
    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
    "  brigade \"1st\" commander \"Grey\" at 20,4\n"
    "    unit \"23rd Foot\" type british-line stands 1 sp 3 at 20,8 facing 0\n"
    "  brigade \"2nd\" commander \"Webster\" at 30,4\n"
    "    unit \"33rd Foot\" type british-line stands 1 sp 3 at 30,8 facing 0\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 44,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 20,44\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 3 "
    "at 20,40 facing 180\n"
    "  brigade \"Md\" commander \"Smallwood\" at 30,44\n"
    "    unit \"1st Maryland\" type continentals-post-1778 stands 1 sp 3 "
    "at 30,40 facing 180\n";

static struct battle *
load(const char *victory)
{
	char text[4096];
	struct battle *b = NULL;
	struct err e;

	snprintf(text, sizeof(text), base, victory);
	if (scenario_parse(text, strlen(text), "ends", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

static void
put(struct battle *b, const char *unit, int x, int y)
{
	int u = battle_find_unit(b, unit);

	assert_true(u >= 0);
	b->stands[b->units[u].first_stand].pos.x = x;
	b->stands[b->units[u].first_stand].pos.y = y;
}

/* A stand within reach holds; both sides there contest; a routed stand
 * holds nothing; reach is to the nearest edge of the base. */
static void
objectives_are_held_alone(void **state)
{
	struct battle *b = load("");
	struct battle_result r;
	int s;

	(void)state;
	battle_result(b, 1, &r);
	assert_int_equal(r.holder[0], -1);
	assert_int_equal(r.holder[1], -1);
	assert_false(r.over);
	/* The 23rd's centre 3.7" from the hill, its rear edge (0.75" back)
	 * 2.95" away: within 3". */
	put(b, "23rd Foot", 2400, 2770);
	battle_result(b, 1, &r);
	assert_int_equal(r.holder[0], 0);
	assert_int_equal(r.points[0], 3);
	/* 0.1" further: out of reach. */
	put(b, "23rd Foot", 2400, 2780);
	battle_result(b, 1, &r);
	assert_int_equal(r.holder[0], -1);
	put(b, "23rd Foot", 2400, 2500);
	put(b, "2nd Virginia", 2400, 2200);
	battle_result(b, 1, &r);
	assert_int_equal(r.holder[0], -1);          /* contested */
	s = b->units[battle_find_unit(b, "2nd Virginia")].first_stand;
	b->stands[s].flags |= ST_ROUTED;
	battle_result(b, 1, &r);
	assert_int_equal(r.holder[0], 0);           /* routed: not there */
	battle_free(b);
}

/* Points for enemy brigades worn down; the margin decides victory or a
 * draw once the last step is played (3 turns, 6 steps). */
static void
points_and_the_margin(void **state)
{
	struct battle *b = load("victory exhausted 1 collapsed 3 margin 2\n");
	struct battle_result r;
	char text[256];

	(void)state;
	b->brigades[2].flags = BR_EXHAUSTED;        /* Va: crown +1 */
	battle_result(b, 5, &r);
	assert_false(r.over);
	assert_int_equal(r.points[0], 1);
	assert_int_equal(r.kind, RESULT_NONE);
	battle_result(b, 6, &r);
	assert_true(r.over);
	assert_int_equal(r.kind, RESULT_DRAW);      /* a lead of 1 < 2 */
	b->brigades[2].flags = BR_EXHAUSTED | BR_COLLAPSED;   /* +3 */
	battle_result(b, 6, &r);
	assert_int_equal(r.points[0], 3);
	assert_int_equal(r.kind, RESULT_VICTORY);
	assert_int_equal(r.winner, 0);
	result_text(b, &r, text, sizeof(text));
	assert_non_null(strstr(text, "victory on points for crown"));
	assert_non_null(strstr(text, "crown 3, continental 0"));
	/* The continental on the ford (1) and the crown's 1st exhausted
	 * (1): 3 to 2, a lead of 1, a draw. */
	put(b, "1st Maryland", 1000, 1100);
	b->brigades[0].flags = BR_EXHAUSTED;
	battle_result(b, 6, &r);
	assert_int_equal(r.points[1], 2);
	assert_int_equal(r.kind, RESULT_DRAW);
	assert_int_equal(r.winner, -1);
	battle_free(b);
}

/* Every brigade of a side exhausted or collapsed: its army has broken,
 * the battle is over at once and the other side wins whatever the
 * points; unless army-break is off. */
static void
a_broken_army_ends_the_battle(void **state)
{
	struct battle *b = load("");
	struct battle_result r;

	(void)state;
	b->brigades[2].flags = BR_EXHAUSTED;
	assert_false(battle_over(b, 2));
	b->brigades[3].flags = BR_EXHAUSTED | BR_COLLAPSED;
	assert_true(battle_over(b, 2));
	put(b, "1st Maryland", 2400, 2400);         /* holds the hill: 3 */
	battle_result(b, 2, &r);
	assert_true(r.over);
	assert_true(r.broken[1]);
	assert_false(r.broken[0]);
	assert_int_equal(r.kind, RESULT_BROKEN);
	assert_int_equal(r.winner, 0);
	/* Both broken: nobody wins. */
	b->brigades[0].flags = BR_EXHAUSTED;
	b->brigades[1].flags = BR_EXHAUSTED;
	battle_result(b, 2, &r);
	assert_int_equal(r.kind, RESULT_DRAW);
	battle_free(b);
	b = load("victory army-break off\n");
	b->brigades[2].flags = BR_EXHAUSTED;
	b->brigades[3].flags = BR_EXHAUSTED;
	assert_false(battle_over(b, 2));
	battle_result(b, 6, &r);
	assert_int_equal(r.kind, RESULT_VICTORY);
	battle_free(b);
}

/* Bad victory and objective lines say what is wrong and what is right. */
static void
scenario_lines_are_checked(void **state)
{
	static const struct { const char *line, *says; } bad[] = {
		{ "victory margin 0\n", "winning margin" },
		{ "victory army-break maybe\n", "'army-break' takes 'on' or 'off'" },
		{ "victory bonus 3\n", "'victory' takes" },
		{ "objective \"Mill\" at 60,10 radius 2 points 1\n", "off the table" },
		{ "objective \"Mill\" at 10,10 points 1\n", "radius R points N" },
		{ "objective \"Hill\" at 10,10 radius 1 points 1\n",
		    "declared twice" },
	};
	char text[4096];
	struct battle *b = NULL;
	struct err e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* The bad line goes after the objectives. */
		snprintf(text, sizeof(text), "%.*s%s%s",
		    (int)(strstr(base, "side crown") - base), base, bad[i].line,
		    strstr(base, "side crown"));
		{
			char *pct = strstr(text, "%s");

			assert_non_null(pct);
			memmove(pct, pct + 2, strlen(pct + 2) + 1);
		}
		assert_int_not_equal(scenario_parse(text, strlen(text), "ends", 0,
		    &b, &e), 0);
		if (strstr(e.msg, bad[i].says) == NULL)
			fail_msg("%s: got \"%s\"", bad[i].line, e.msg);
	}
}

/* Where a step first meets a line, rounded up; nothing when it starts on
 * it or runs along it. */
static void
segment_hits(void **state)
{
	struct pt a = { 0, 0 }, z = { 0, 25 };
	struct pt p = { -100, 10 }, q = { 100, 10 };
	struct pt r = { -100, 0 }, t = { 100, 0 };
	struct pt u = { 0, 0 }, v = { 0, 100 };
	struct pt d1 = { -100, 3 }, d2 = { 100, 4 };

	(void)state;
	assert_int_equal(geom_seg_hit(a, z, p, q), 10);
	assert_int_equal(geom_seg_hit(a, z, r, t), -1);   /* starts on it */
	assert_int_equal(geom_seg_hit(a, z, u, v), -1);   /* along it */
	/* Crossing at y 3.5: rounded up to 4. */
	assert_int_equal(geom_seg_hit(a, z, d1, d2), 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(objectives_are_held_alone),
		cmocka_unit_test(points_and_the_margin),
		cmocka_unit_test(a_broken_army_ends_the_battle),
		cmocka_unit_test(scenario_lines_are_checked),
		cmocka_unit_test(segment_hits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
