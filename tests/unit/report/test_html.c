/*
 * test_html.c - the report's HTML part (html.c): the order of battle as
 * a table with each unit's states as badges, a brigade's exhaustion
 * limit not mistaken for its state, and the appendix folded away.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const char body[] =
    "Cowpens (game cowpens)\n"
    "\n"
    "What happened\n"
    "-------------\n"
    "Seven o'clock in the morning (07:00).\n"
    "- Hayes and Brandon stood fast.\n"
    "- 7th Foot advanced 8\" to 26.5,18.\n"
    "\n"
    "Your forces after the phase\n"
    "---------------------------\n"
    "\n"
    "Front Line (Maj. Newmarsh at 33.5,20.9): lost 2 of 12 SP (exhausted at 5.9)\n"
    "  7th Foot [in good order]\n"
    "      british-line, 2 stands, 3 SP, at 26.5,22.5 facing 0\n"
    "      in command (Maj. Newmarsh, 5.73\" away)\n"
    "\n"
    "Reserve (Maj. McArthur at 22,16.5): lost 6 of 10 SP, EXHAUSTED\n"
    "  Ogilvie's Troop [routed]\n"
    "      legion-cavalry, 1 stand, 1 SP, at 16.25,16.5 facing 0\n"
    "\n"
    "The enemy\n"
    "---------\n"
    "  Militia Line (Pickens) [exhausted] [collapsed]  lost 4 of 7 SP, 1 of 3 units on the table\n"
    "\n"
    "Appendix: the field, dice, ledger and hashes\n"
    "--------------------------------------------\n"
    "Dice rolled: 1\n";

/* How many times needle is in hay. */
static int
count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void
states_are_badges_and_the_appendix_folds(void **state)
{
	char *h = report_html(body, "Cowpens", NULL, NULL);

	(void)state;
	assert_non_null(h);
	/* One table row per unit and enemy brigade, its states as badges,
	 * its name above its details. */
	assert_int_equal(count(h, "<tr"), 3);
	assert_int_equal(count(h, "<td"), 3);
	assert_non_null(strstr(h, ">7th Foot</span>"));
	assert_non_null(strstr(h, ">collapsed</span>"));
	/* The time of day a paragraph, the events a list. */
	assert_non_null(strstr(h, "<p style=\"margin:0 0 12px\">Seven o'clock "
	    "in the morning (07:00).</p>\n<ul"));
	assert_int_equal(count(h, "<li"), 2);
	assert_non_null(strstr(h, ">in good order</span>"));
	assert_non_null(strstr(h, ">in command</span>"));
	assert_non_null(strstr(h, ">routed</span>"));
	/* The exhausted Reserve is badged; the Front Line's limit ("exhausted
	 * at 5.9") is not a state. */
	assert_int_equal(count(h, ">exhausted</span>"), 2);
	assert_non_null(strstr(h, "(exhausted at 5.9)"));
	/* The appendix in a fold, closed at the end. */
	assert_non_null(strstr(h, "<details"));
	assert_non_null(strstr(h, "Appendix: the field, dice, ledger and "
	    "hashes</summary>"));
	assert_true(strstr(h, "</details>") > strstr(h, "Dice rolled: 1"));
	/* Inline styles for the layout, one style block for the dark theme. */
	assert_int_equal(count(h, "<style"), 1);
	assert_non_null(strstr(h, "prefers-color-scheme: dark"));
	free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(states_are_badges_and_the_appendix_folds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
