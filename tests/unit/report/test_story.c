/* The "What happened" list (report/story.c): neighbours that say the
 * same of different units are told once with every name, one subject's
 * sentences become one, and nothing else is changed or reordered; and
 * the appendix that takes the dice out of the report (report.c). */
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

static const char scen[] =
    "scenario \"Ridge\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
    "side crown \"Crown\"\n  commander \"Cornwallis\" army at 10,4\n"
    "  brigade \"Guards\" commander \"O'Hara\" at 10,8\n"
    "    unit \"Hayes\" type british-line stands 2 sp 2 at 4,10 facing 0\n"
    "    unit \"Brandon\" type british-line stands 2 sp 2 at 12,10 facing 0\n"
    "    unit \"Thomas\" type british-line stands 2 sp 2 at 20,10 facing 0\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 10,32\n"
    "  brigade \"Line\" commander \"Huger\" at 10,28\n"
    "    unit \"Maryland\" type continentals-post-1778 stands 2 sp 2 at 10,26 facing 180\n";

static char *
story(const struct battle *b, const struct events *ev)
{
	struct text t;
	int hidden = -1;

	text_init(&t, 1 << 16);
	assert_true(report_story(&t, NULL, b, ev, 0, NULL, &hidden) >= 0);
	assert_int_equal(hidden, 0);
	return t.s;
}

static void
like_sentences_are_told_once(void **state)
{
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	char *s;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "t", 0, &b, &e), 0);
	events_init(&ev);
	events_add(&ev, EV_STATIONARY, 0, 0, -1, 0, "Hayes stood fast, on the ridge.");
	events_add(&ev, EV_STATIONARY, 0, 1, -1, 0, "Brandon stood fast, on the ridge.");
	events_add(&ev, EV_STATIONARY, 0, 2, -1, 0, "Thomas stood fast, on the ridge.");
	/* A count: each unit's own, so told apart. */
	events_add(&ev, EV_FIRE, 0, 1, 3, 0, "Brandon opened fire: 1 die, 0 hits.");
	events_add(&ev, EV_FIRE, 0, 2, 3, 0, "Thomas opened fire: 1 die, 0 hits.");
	events_add(&ev, EV_OUT_OF_COMMAND, 0, 0, -1, 0, "Hayes was out of command.");
	events_add(&ev, EV_OUT_OF_COMMAND, 0, 1, -1, 0, "Brandon was out of command.");
	/* "its": left alone, a plural would need its pronoun changed. */
	events_add(&ev, EV_FACING, 0, 0, -1, 0, "Hayes turned (half its move).");
	events_add(&ev, EV_FACING, 0, 1, -1, 0, "Brandon turned (half its move).");
	/* One stand's story, then a roll between, which is not told. */
	events_add(&ev, EV_HIT, 1, 3, -1, 0, "Maryland (stand 1) was struck by Hayes.");
	events_add(&ev, EV_LOSS, 1, 3, -1, 1, "Maryland (stand 1) lost 1 SP (fire), 0 left.");
	events_add(&ev, EV_ROLL, 1, 3, -1, 4, "d6 = 4");
	events_add(&ev, EV_ELIMINATED, 1, 3, -1, 0, "Maryland (stand 1) was destroyed.");
	/* Another stand of the same unit is another subject. */
	events_add(&ev, EV_LOSS, 1, 3, -1, 1, "Maryland (stand 2) lost 1 SP (fire), 1 left.");
	/* The same sentence, not neighbours: told twice. */
	events_add(&ev, EV_STATIONARY, 0, 0, -1, 0, "Hayes stood fast, on the ridge.");
	s = story(b, &ev);
	assert_string_equal(s,
	    "- Hayes, Brandon and Thomas stood fast, on the ridge.\n"
	    "- Brandon opened fire: 1 die, 0 hits.\n"
	    "- Thomas opened fire: 1 die, 0 hits.\n"
	    "- Hayes and Brandon were out of command.\n"
	    "- Hayes turned (half its move).\n"
	    "- Brandon turned (half its move).\n"
	    "- Maryland (stand 1) was struck by Hayes; lost 1 SP (fire), 0 left; "
	    "was destroyed.\n"
	    "- Maryland (stand 2) lost 1 SP (fire), 1 left.\n"
	    "- Hayes stood fast, on the ridge.\n");
	free(s);
	events_free(&ev);
	battle_free(b);
}

/* A subject's run stops at six clauses, so no line runs on for ever. */
static void
a_long_run_is_cut_into_sentences(void **state)
{
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	char *s, *nl;
	int i, lines = 0;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "t", 0, &b, &e), 0);
	events_init(&ev);
	for (i = 0; i < 9; i++)
		events_add(&ev, EV_MOVE, 0, 0, -1, 0, "Hayes moved 1\".");
	s = story(b, &ev);
	for (nl = s; (nl = strchr(nl, '\n')) != NULL; nl++)
		lines++;
	assert_int_equal(lines, 2);
	assert_non_null(strstr(s, "- Hayes moved 1\"; moved 1\"; moved 1\"; "
	    "moved 1\"; moved 1\"; moved 1\".\n- Hayes moved 1\"; moved 1\"; "
	    "moved 1\".\n"));
	free(s);
	events_free(&ev);
	battle_free(b);
}

/* The appendix's dice are bounded as the report's sections are: a step
 * of more rolls than a mail should carry is cut with a note saying how
 * many are left out, and the report is still written. */
static void
the_appendix_cuts_a_flood_of_dice_with_a_note(void **state)
{
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	struct text t;
	int i;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "t", 0, &b, &e), 0);
	events_init(&ev);
	for (i = 0; i < 20000; i++)
		events_add(&ev, EV_ROLL, 0, 0, -1, 4, "d6 = 4: fire of Hayes stand 1 "
		    "at Maryland, hits on 5 or more, a roll of a long and wordy "
		    "kind to fill the mail");
	text_init(&t, 1 << 16);
	report_appendix(&t, b, 0, &ev, 1, NULL);
	assert_non_null(t.s);
	assert_false(t.over);
	assert_true(t.len < REPORT_MAX / 4 + 4096);
	assert_non_null(strstr(t.s, "Dice rolled: 20000\n"));
	assert_non_null(strstr(t.s, "more dice are not shown here"));
	text_free(&t);
	events_free(&ev);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(like_sentences_are_told_once),
		cmocka_unit_test(a_long_run_is_cut_into_sentences),
		cmocka_unit_test(the_appendix_cuts_a_flood_of_dice_with_a_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
