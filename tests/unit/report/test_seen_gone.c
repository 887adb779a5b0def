/*
 * test_seen_gone.c - which enemy units a side of a fog game saw leave
 * play in a step (report_seen_gone, src/report/fog.c): a unit whose last
 * stand to go the side could see as it went, put back where it was
 * removed, or one it fought; not one removed out of its sight, nor one
 * gone before the step, nor one with a stand still on the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "report/report.h"
#include "scenario/scenario.h"

/* The crown's 23rd Foot and its commanders south of a wood; a
 * continental gun in the open in front of it (unit 1); the 2nd Virginia,
 * two stands, north of the wood where no crown eye reaches (unit 2). */
static const char vnb_scen[] =
    "scenario \"Gone\"\nruleset vnb-wing\ntable 48 x 48\nturns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 44,2\n"
    "  brigade \"1st\" commander \"Grey\" at 40,4\n"
    "    unit \"23rd Foot\" type british-line stands 1 sp 3 at 44,6 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,40\n"
    "    unit \"Gun\" type light-artillery stands 1 sp 1 at 44,10 facing 180\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 14,26 facing 0\n";

/* The same under bb7, whose units go whole. */
static const char bb7_scen[] =
    "scenario \"Gone\"\nruleset bb7\ntable 48 x 48\nturns 2\n"
    "terrain wood \"Big wood\" poly 10,14 38,14 38,22 10,22\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 44,2\n"
    "  brigade \"1st\" commander \"Grey\" at 40,4\n"
    "    unit \"23rd Foot\" type british-regulars stands 1 sp 5 frontage 2.4 at 44,6 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,40\n"
    "    unit \"Gun\" type regulars stands 1 sp 6 frontage 2.4 at 44,12 facing 180\n"
    "    unit \"2nd Virginia\" type regulars stands 2 sp 6 frontage 2.4 at 14,30 facing 0\n";

#define GUN 1
#define VA  2

struct fx {
	struct battle *b;
	struct events ev;
	unsigned char live[2048], seen[2048], gone[256];
};

static int
setup_with(void **state, const char *text)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct err e;

	assert_non_null(f);
	if (scenario_parse(text, strlen(text), "t", 0, &f->b, &e) != 0)
		fail_msg("%s", e.msg);
	events_init(&f->ev);
	/* Everything on the table before the step; the crown's view after
	 * it, its own stands only (as though nothing of the enemy were in
	 * sight). */
	memset(f->live, 1, sizeof(f->live));
	memset(f->gone, 7, sizeof(f->gone));
	*state = f;
	return 0;
}

static int
setup_vnb(void **state)
{
	return setup_with(state, vnb_scen);
}

static int
setup_bb7(void **state)
{
	return setup_with(state, bb7_scen);
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	events_free(&f->ev);
	battle_free(f->b);
	free(f);
	return 0;
}

/* Stand k (from 1) of unit u removed in the step, told with its number. */
static void
stand_goes(struct fx *f, int u, int k)
{
	int s = f->b->units[u].first_stand + k - 1;

	f->b->stands[s].flags |= ST_GONE;
	events_say(&f->ev, EV_ELIMINATED, f->b->units[u].side, u, -1, k,
	    "stand-destroyed", "up", "%s: stand %d is destroyed.",
	    f->b->units[u].name, k);
}

/* Unit u removed whole, told without a stand. */
static void
unit_goes(struct fx *f, int u)
{
	int s;

	for (s = f->b->units[u].first_stand; s < f->b->units[u].first_stand +
	    f->b->units[u].nstands; s++)
		f->b->stands[s].flags |= ST_GONE;
	events_say(&f->ev, EV_ELIMINATED, f->b->units[u].side, u, -1, 0,
	    "removed", "uw", "%s is removed from play (%s).",
	    f->b->units[u].name, "broken");
}

static int
seen_gone(struct fx *f)
{
	return report_seen_gone(f->b, 0, &f->ev, f->live, f->seen, f->gone);
}

static void
a_gun_destroyed_in_sight_is_seen_to_go(void **state)
{
	struct fx *f = *state;
	int s = f->b->units[GUN].first_stand;

	stand_goes(f, GUN, 1);
	assert_int_equal(seen_gone(f), 1);
	assert_int_equal(f->gone[GUN], 1);
	assert_int_equal(f->gone[VA], 0);
	assert_int_equal(f->gone[0], 0);
	/* What it did as it went is the side's to read. */
	assert_int_equal(f->seen[s], 1);
}

static void
a_unit_removed_whole_in_sight_is_seen_to_go(void **state)
{
	struct fx *f = *state;

	unit_goes(f, GUN);
	assert_int_equal(seen_gone(f), 1);
	assert_int_equal(f->gone[GUN], 1);
	assert_int_equal(f->seen[f->b->units[GUN].first_stand], 1);
}

static void
a_unit_removed_behind_the_wood_is_not_seen_to_go(void **state)
{
	struct fx *f = *state;

	unit_goes(f, VA);
	assert_int_equal(seen_gone(f), 0);
	assert_int_equal(f->gone[VA], 0);
	assert_int_equal(f->seen[f->b->units[VA].first_stand], 0);
}

/* Its first stand went in the open, its last behind the wood: the side
 * did not see the unit go; the other way round, it did. */
static void
what_counts_is_the_last_stand_to_go(void **state)
{
	struct fx *f = *state;
	int s1 = f->b->units[VA].first_stand;

	f->b->stands[s1].pos.x = FX(42);
	f->b->stands[s1].pos.y = FX(10);
	stand_goes(f, VA, 1);
	stand_goes(f, VA, 2);
	assert_int_equal(seen_gone(f), 0);
	assert_int_equal(f->gone[VA], 0);
	events_free(&f->ev);
	events_init(&f->ev);
	stand_goes(f, VA, 2);
	stand_goes(f, VA, 1);
	assert_int_equal(seen_gone(f), 1);
	assert_int_equal(f->gone[VA], 1);
}

/* A unit that fired on the side in the step the side knows of, and of
 * its end, in sight or not. */
static void
a_unit_the_side_fought_is_seen_to_go(void **state)
{
	struct fx *f = *state;

	events_say(&f->ev, EV_FIRE, 1, VA, 0, 1, "fires", "uu",
	    "%s fires at %s.", f->b->units[VA].name, f->b->units[0].name);
	unit_goes(f, VA);
	assert_int_equal(seen_gone(f), 1);
	assert_int_equal(f->gone[VA], 1);
}

/* Gone before the step (nothing of it on the table then), or a stand
 * still on the table: not a unit that went in this step. */
static void
only_a_unit_gone_in_the_step_is_seen_to_go(void **state)
{
	struct fx *f = *state;

	stand_goes(f, GUN, 1);
	f->live[f->b->units[GUN].first_stand] = 0;
	stand_goes(f, VA, 1);
	f->b->stands[f->b->units[VA].first_stand].pos.x = FX(42);
	f->b->stands[f->b->units[VA].first_stand].pos.y = FX(10);
	assert_int_equal(seen_gone(f), 0);
	assert_int_equal(f->gone[GUN], 0);
	assert_int_equal(f->gone[VA], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_gun_destroyed_in_sight_is_seen_to_go, setup_vnb, teardown),
		cmocka_unit_test_setup_teardown(a_unit_removed_whole_in_sight_is_seen_to_go, setup_vnb, teardown),
		cmocka_unit_test_setup_teardown(a_unit_removed_behind_the_wood_is_not_seen_to_go, setup_vnb, teardown),
		cmocka_unit_test_setup_teardown(what_counts_is_the_last_stand_to_go, setup_vnb, teardown),
		cmocka_unit_test_setup_teardown(a_unit_the_side_fought_is_seen_to_go, setup_vnb, teardown),
		cmocka_unit_test_setup_teardown(only_a_unit_gone_in_the_step_is_seen_to_go, setup_vnb, teardown),
		/* Under bb7, by its own sight, whose units go whole. */
		{ "a_unit_removed_whole_in_sight_is_seen_to_go (bb7)",
		    a_unit_removed_whole_in_sight_is_seen_to_go, setup_bb7,
		    teardown, NULL },
		{ "a_unit_removed_behind_the_wood_is_not_seen_to_go (bb7)",
		    a_unit_removed_behind_the_wood_is_not_seen_to_go, setup_bb7,
		    teardown, NULL },
		{ "a_unit_the_side_fought_is_seen_to_go (bb7)",
		    a_unit_the_side_fought_is_seen_to_go, setup_bb7, teardown, NULL },
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
