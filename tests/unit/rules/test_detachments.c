/*
 * test_detachments.c - infantry able to skirmish broken into detachments:
 * the slots the loader gives them, forming up again only when each
 * stand's detachments touch, the strength they bring back, and what the
 * store keeps.  The rules cases (tests/rules/vnb-wing/14xx) pin the moves;
 * these need a detachment lost in the middle of a line, which no
 * hand-worked fire puts in one place for certain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/dice.h"
#include "core/ruleset.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

static const char scen[] =
    "scenario \"Detachments\"\nruleset vnb-wing\ntable 48 x 48\n"
    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
    "  brigade \"1st\" commander \"Grey\" at 20,16\n"
    "    unit \"23rd Foot\" type british-line stands 1 sp 3 at 34,20 facing 0\n"
    "    unit \"Light Bobs\" type british-line +SK\n"
    "      stand sp 3 at 20,20 facing 0 detachments\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 44,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 40,44\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 3 "
    "at 40,40 facing 180\n";

static struct battle *
load(void)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse(scen, strlen(scen), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

/* Plays the crown's step 1 with `text` as its orders; no dice. */
static void
play(struct battle *b, const char *text, struct events *ev)
{
	const struct ruleset *rs = ruleset_find("vnb-wing");
	struct orders_result *res = calloc(1, sizeof(*res));
	struct orders_parser *op;
	struct dice_script script = { NULL, 0, 0 };
	struct dice d;
	struct err e;

	assert_non_null(res);
	op = orders_parser_new(rs, &e);
	assert_non_null(op);
	orders_parse(op, b, 0, text, 0, res);
	assert_int_equal(res->nerrors, 0);
	dice_init(&d, dice_script_next, &script, ev);
	if (rs->adjudicate(b, 1, &res->set, 1, &d, ev, &e) != 0)
		fail_msg("%s", e.msg);
	orders_parser_free(op);
	free(res);
}

static int
has_event(const struct events *ev, const char *text)
{
	int i;

	for (i = 0; i < ev->n; i++)
		if (strstr(ev->v[i].text, text) != NULL)
			return 1;
	return 0;
}

/* A stand of 3 SP has three detachment slots after it; the unit starts
 * as its three detachments, and only they count on the table. */
static void
slots_follow_the_stand(void **state)
{
	struct battle *b = load();
	int u = battle_find_unit(b, "Light Bobs"), f, k;

	(void)state;
	f = b->units[u].first_stand;
	assert_int_equal(b->units[u].nstands, 4);
	assert_int_equal(b->units[u].kind, KIND_DETACHMENT);
	assert_int_equal(b->units[u].base_kind, KIND_INFANTRY);
	assert_true((b->stands[f].flags & (ST_GONE | ST_SPARE)) ==
	    (ST_GONE | ST_SPARE));
	for (k = 1; k <= 3; k++) {
		assert_int_equal(b->stands[f + k].flags & (ST_DETACH | ST_GONE),
		    ST_DETACH);
		assert_int_equal(b->stands[f + k].sp, 1);
	}
	assert_int_equal(battle_unit_alive(b, u), 3);
	assert_int_equal(battle_unit_sp(b, u), 3);
	/* The 23rd has no slots: it cannot skirmish. */
	assert_int_equal(b->units[battle_find_unit(b, "23rd Foot")].nstands, 1);
	/* The brigade's strength is the 23rd's 3 and the Light Bobs' 3. */
	assert_int_equal(b->brigades[0].sp0, 6);
	battle_free(b);
}

/* The middle detachment lost: the other two no longer touch, so the
 * stand cannot form up; the unit stays as it was. */
static void
detachments_apart_cannot_form_up(void **state)
{
	struct battle *b = load();
	struct events ev;
	int u = battle_find_unit(b, "Light Bobs"), f;
	struct pt before;

	(void)state;
	events_init(&ev);
	f = b->units[u].first_stand;
	b->stands[f + 2].flags |= ST_GONE;
	b->stands[f + 2].sp = 0;
	assert_true(battle_unit_centre(b, u, &before));
	play(b, "Light Bobs: FORM LINE\n", &ev);
	assert_true(has_event(&ev, "cannot form up from its detachments: the "
	    "detachments of each of its stands must touch"));
	assert_int_equal(b->units[u].kind, KIND_DETACHMENT);
	assert_int_equal(battle_unit_alive(b, u), 2);
	events_free(&ev);
	battle_free(b);
}

/* The end detachment lost: the two left touch and form a stand of 2 SP
 * on their centre; the lost SP stays lost. */
static void
a_stand_forms_up_with_what_is_left(void **state)
{
	struct battle *b = load();
	struct events ev;
	int u = battle_find_unit(b, "Light Bobs"), f;
	struct pt c0, c1;

	(void)state;
	events_init(&ev);
	f = b->units[u].first_stand;
	b->stands[f + 3].flags |= ST_GONE;
	b->stands[f + 3].sp = 0;
	assert_true(battle_unit_centre(b, u, &c0));
	play(b, "Light Bobs: FORM LINE\n", &ev);
	assert_true(has_event(&ev, "forms up from its detachments into 1 stand"));
	assert_int_equal(b->units[u].kind, KIND_INFANTRY);
	assert_int_equal(battle_unit_alive(b, u), 1);
	assert_int_equal(b->stands[f].sp, 2);
	assert_int_equal(b->stands[f + 1].flags & (ST_GONE | ST_SPARE),
	    ST_GONE | ST_SPARE);
	assert_true(battle_unit_centre(b, u, &c1));
	assert_int_equal(c1.x, c0.x);
	assert_int_equal(c1.y, c0.y);
	events_free(&ev);
	battle_free(b);
}

/* Breaking where the detachments' wider frontage would overlap a friend
 * is refused, and nothing moves.  The Light Bobs' detachments span x
 * 17.75-22.25; the 23rd's stand, x 22.5-25.5, would break into 4.5" of
 * detachments, x 21.75-26.25. */
static void
no_room_no_break(void **state)
{
	static const char tight[] =
	    "scenario \"Tight\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 20,16\n"
	    "    unit \"23rd Foot\" type british-line +SK stands 1 sp 3 at 24,20 "
	    "facing 0\n"
	    "    unit \"Light Bobs\" type british-line +SK\n"
	    "      stand sp 3 at 20,20 facing 0 detachments\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at "
	    "44,44\n  brigade \"Va\" commander \"Weedon\" at 40,44\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 3 "
	    "at 40,40 facing 180\n";
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	int u;

	(void)state;
	events_init(&ev);
	if (scenario_parse(tight, strlen(tight), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	u = battle_find_unit(b, "23rd Foot");
	play(b, "23rd Foot: FORM DETACHMENTS\n", &ev);
	assert_true(has_event(&ev, "cannot break into detachments: its "
	    "detachments would not have room there"));
	assert_int_equal(b->units[u].kind, KIND_INFANTRY);
	assert_int_equal(battle_unit_alive(b, u), 1);
	assert_int_equal(b->stands[b->units[u].first_stand].pos.x, 2400);
	events_free(&ev);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots_follow_the_stand),
		cmocka_unit_test(detachments_apart_cannot_form_up),
		cmocka_unit_test(a_stand_forms_up_with_what_is_left),
		cmocka_unit_test(no_room_no_break),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
