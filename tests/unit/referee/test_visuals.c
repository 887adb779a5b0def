/*
 * test_visuals.c - what a report mail draws beside its text, by the
 * player's SET MAIL format (src/referee/visuals.c, issue 25): TEXT
 * nothing, HTML the cropped inline map alone, FULL that and the whole
 * field in full colour and as SVG; a side's second player's mail adds
 * what the first one's did not draw.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "map/map.h"
#include "referee/internal.h"
#include "scenario/scenario.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

/* The width of the PNG p, from its IHDR. */
static unsigned
png_width(const unsigned char *p)
{
	return (unsigned)p[16] << 24 | (unsigned)p[17] << 16 |
	    (unsigned)p[18] << 8 | p[19];
}

static void
each_format_draws_only_what_its_mail_carries(void **state)
{
	struct side_visuals v;
	struct store_game g;
	struct mail_part mp[MAIL_PARTS_MAX];
	struct mail_extra x;
	struct battle *b = NULL;
	struct err e;
	unsigned char *first;
	char *text = NULL, *html = NULL;
	size_t tlen = 0;

	(void)state;
	if (scenario_load_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", &text, &tlen, &b, &e) != 0)
		fail_msg("%s", e.msg);
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "cowpens");
	snprintf(g.visibility, sizeof(g.visibility), "open");
	memset(&v, 0, sizeof(v));
	assert_int_equal(referee_side_visuals_make(&v, &g, b, 0, NULL, "sub",
	    NULL, NULL, 0, NULL, NULL, NULL, 0, "text", &e), 0);
	assert_null(v.inline_png);
	assert_null(v.png);
	/* HTML: the inline map, cropped to the crown's part of the field,
	 * and nothing else drawn. */
	assert_int_equal(referee_side_visuals_make(&v, &g, b, 0, NULL, "sub",
	    NULL, NULL, 0, NULL, NULL, NULL, 0, "html", &e), 0);
	assert_non_null(v.inline_png);
	assert_true(png_width(v.inline_png) < MAP_WIDTH_PX);
	assert_null(v.png);
	assert_null(v.svg);
	assert_int_equal(report_extra("html", "body", "title", &v,
	    "cowpens-turn1-crown", mp, &x, &html, &e), 0);
	assert_int_equal(x.nparts, 1);
	assert_ptr_equal(x.parts[0].data, v.inline_png);
	free(html);
	/* FULL, for the side's next player: the whole field is drawn now,
	 * the inline map is the one already drawn. */
	first = v.inline_png;
	assert_int_equal(referee_side_visuals_make(&v, &g, b, 0, NULL, "sub",
	    NULL, NULL, 0, NULL, NULL, NULL, 0, "full", &e), 0);
	assert_ptr_equal(v.inline_png, first);
	assert_non_null(v.png);
	assert_non_null(v.svg);
	assert_int_equal(png_width(v.png), MAP_WIDTH_PX);
	assert_int_equal(report_extra("full", "body", "title", &v,
	    "cowpens-turn1-crown", mp, &x, &html, &e), 0);
	assert_int_equal(x.nparts, 3);
	assert_ptr_equal(x.parts[1].data, v.png);
	/* Two maps, two file names. */
	assert_string_equal(x.parts[0].name, "cowpens-turn1-crown-part.png");
	assert_string_equal(x.parts[1].name, "cowpens-turn1-crown.png");
	free(html);
	referee_side_visuals_free(&v);
	free(text);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_format_draws_only_what_its_mail_carries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
