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
    "Your forces after the phase\n"
    "---------------------------\n"
    "\n"
    "Front Line (Maj. Newmarsh at 33.5,20.9): lost 2 of 12 SP (exhausted at 5.9)\n"
    "  7th Foot (british-line)\n"
    "      at 26.5,22.5 facing 0, 2 stands, 3 SP, in good order\n"
    "      in command (Maj. Newmarsh, 5.73\" away)\n"
    "\n"
    "Reserve (Maj. McArthur at 22,16.5): lost 6 of 10 SP, EXHAUSTED\n"
    "  Ogilvie's Troop (legion-cavalry)\n"
    "      at 16.25,16.5 facing 0, 1 stand, 1 SP, routed\n"
    "\n"
    "Appendix: dice, ledger and hashes\n"
    "---------------------------------\n"
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
	/* One table row per unit, its states as badges. */
	assert_int_equal(count(h, "<tr"), 2);
	assert_non_null(strstr(h, ">in good order</span>"));
	assert_non_null(strstr(h, ">in command</span>"));
	assert_non_null(strstr(h, ">routed</span>"));
	/* The exhausted Reserve is badged; the Front Line's limit ("exhausted
	 * at 5.9") is not a state. */
	assert_int_equal(count(h, ">exhausted</span>"), 1);
	assert_non_null(strstr(h, "(exhausted at 5.9)"));
	/* The appendix in a fold, closed at the end. */
	assert_non_null(strstr(h, "<details"));
	assert_non_null(strstr(h, "Appendix: dice, ledger and hashes</summary>"));
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
