/* The header line of an order mail (orders/header.c): GAME, SIDE, TURN
 * and the secret, in whatever layout and client a player writes them,
 * the Subject filling what the body leaves out, and never read from
 * quotes or prose. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orders/internal.h"
#include "orders/orders.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"

#include "fixture.h"

static const char scen[] =
    "scenario \"Header\"\nruleset vnb-wing\ntable 48 x 48\n"
    "side crown \"Crown\"\n  commander \"Tarleton\" army at 24,4\n"
    "  brigade \"1st\" commander \"McArthur\" at 24,8\n"
    "    unit \"7th Foot\" type british-line stands 2 sp 2 at 24,10 facing 0\n"
    "side continental \"Continental\"\n  commander \"Morgan\" army at 24,44\n"
    "  brigade \"Line\" commander \"Howard\" at 24,40\n"
    "    unit \"Maryland\" type continentals-post-1778 stands 2 sp 2 at 24,36 facing 180\n";

static int
setup(void **state)
{
	return fx_setup(state, scen);
}

/* A mail program's no-break space (Gmail's, between words it keeps
 * together), or another Unicode space, between the header's words: the
 * header is read as with ASCII spaces, in the body and in the Subject. */
static void
unicode_spaces_separate_header_words(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	orders_find_header(f->p, NULL, "GAME\xc2\xa0" "cw SIDE\xc2\xa0"
	    "continental PASSWORD\xe2\x80\xaf" "s3cret-word\n7th: HOLD\n", &h);
	assert_true(h.found);
	assert_string_equal(h.game, "cw");
	assert_string_equal(h.side, "continental");
	assert_string_equal(h.secret, "s3cret-word");
	orders_find_header(f->p, "GAME\xc2\xa0" "cw\xc2\xa0SIDE crown TURN\xc2\xa0"
	    "2", "7th: HOLD\n", &h);
	assert_true(h.found);
	assert_string_equal(h.game, "cw");
	assert_string_equal(h.side, "crown");
	assert_int_equal(h.turn, 2);
}

static void
header_found_in_first_line_in_any_order(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	orders_find_header(f->p, "anything",
	    "\n\n  password abc-def-ghi  side CROWN game cowpens turn 3\nx: HOLD\n", &h);
	assert_true(h.found);
	assert_int_equal(h.line, 3);
	assert_string_equal(h.game, "cowpens");
	assert_string_equal(h.side, "CROWN");
	assert_int_equal(h.turn, 3);
	assert_string_equal(h.secret, "abc-def-ghi");
}


static void
header_falls_back_to_subject(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	orders_find_header(f->p, "GAME cowpens SIDE crown SECRET s3cret-word",
	    "7th: HOLD\n", &h);
	assert_true(h.found);
	assert_int_equal(h.line, 0);
	assert_string_equal(h.secret, "s3cret-word");
	/* After a greeting, still found. */
	orders_find_header(f->p, "Re: hello", "Dear Sir,\n\nGAME x\n", &h);
	assert_true(h.found);
	assert_int_equal(h.line, 3);
	/* Not after the orders have begun. */
	orders_find_header(f->p, "Re: hello", "7th: HOLD\nGAME x\n", &h);
	assert_false(h.found);
}


/* CAMPAIGN names a campaign where GAME names a game: the same header
 * otherwise, in the body or the Subject. */
static void
campaign_header_names_a_campaign(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	orders_find_header(f->p, "orders",
	    "Sir,\n\nCAMPAIGN south SIDE crown PASSWORD red-coat\n"
	    "Tarleton's Detachment: HOLD\n", &h);
	assert_true(h.found);
	assert_true(h.campaign);
	assert_int_equal(h.line, 3);
	assert_string_equal(h.game, "south");
	assert_string_equal(h.side, "crown");
	assert_string_equal(h.secret, "red-coat");
	orders_find_header(f->p, "orders",
	    "campaign: south, side: crown, turn: 4, password: red-coat\n", &h);
	assert_true(h.found && h.campaign);
	assert_int_equal(h.turn, 4);
	orders_find_header(f->p, "orders",
	    "GAME south SIDE crown PASSWORD red-coat\n", &h);
	assert_true(h.found);
	assert_false(h.campaign);
	/* The Subject's CAMPAIGN completes the body's SIDE and PASSWORD. */
	orders_find_header(f->p, "CAMPAIGN south TURN 3",
	    "SIDE crown PASSWORD red-coat\n\nLee's Legion: REST\n", &h);
	assert_true(h.found && h.campaign);
	assert_string_equal(h.game, "south");
	assert_string_equal(h.secret, "red-coat");
	/* "campaign" in a sentence is no header. */
	orders_find_header(f->p, "orders",
	    "The campaign goes well, sir.\nGAME cw SIDE crown PASSWORD x\n", &h);
	assert_true(h.found);
	assert_false(h.campaign);
	assert_string_equal(h.game, "cw");
}

struct seen_lines {
	char text[8][64];
	int line[8];
	int n;
};

static void
seen_line(void *arg, int line, const char *text)
{
	struct seen_lines *s = arg;

	if (s->n < 8) {
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s", text);
		s->line[s->n++] = line;
	}
}

/* The lines a player wrote, after the header: never quoted ones, an
 * attribution, or what follows the signature. */
static void
body_lines_are_the_players_own(void **state)
{
	struct fx *f = *state;
	struct seen_lines s;

	memset(&s, 0, sizeof(s));
	orders_body_lines(f->p, "CAMPAIGN south SIDE crown PASSWORD x\n"
	    "\n"
	    "  Lee's Legion: REST  \n"
	    "> Lee's Legion: HOLD\n"
	    "Thanks,\n"
	    "-- \n"
	    "Lee's Legion: SCOUT\n", 1, seen_line, &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.text[0], "Lee's Legion: REST");
	assert_int_equal(s.line[0], 3);
	assert_string_equal(s.text[1], "Thanks,");
	assert_int_equal(s.line[1], 5);
	/* An unmarked quoted mail after an attribution line ends it. */
	memset(&s, 0, sizeof(s));
	orders_body_lines(f->p, "Lee's Legion: REST\n\n"
	    "On Mon, 15 Jan 1781, despatch wrote:\n"
	    "Lee's Legion: HOLD\n", 0, seen_line, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.text[0], "Lee's Legion: REST");
}

static void
over_long_game_name_matches_nothing(void **state)
{
	struct fx *f = *state;
	struct orders_header h;
	char body[400];

	memset(body, 'g', sizeof(body));
	memcpy(body, "GAME ", 5);
	body[300] = '\0';
	orders_find_header(f->p, NULL, body, &h);
	assert_true(h.found);
	assert_string_equal(h.game, "");
}


static void
secret_is_blanked_everywhere(void **state)
{
	char buf[] = "PASSWORD abc-123 and again abc-123, not abc-12";

	(void)state;
	assert_int_equal(orders_blank_secret(buf, strlen(buf), "abc-123"), 2);
	assert_string_equal(buf, "PASSWORD ******* and again *******, not abc-12");
	assert_int_equal(orders_blank_secret(buf, strlen(buf), ""), 0);
}


/* Every layout a player's client or habit gives the header (issue 5,
 * problem 2): each must give game cw, side crown and the secret, and the
 * orders must start after it. */
static void
header_layouts_real_players_write(void **state)
{
	struct fx *f = *state;
	static const struct { const char *name, *body; int turn, line; } cases[] = {
		{ "several lines", "GAME cw\nSIDE crown\nPASSWORD s3cret-word\n\n7th: HOLD\n", 0, 3 },
		{ "bottom-posted under the quoted template",
		  "On Mon, Nov 30, 2026 at 20:16:14 +0000, despatch wrote:\n"
		  "> Your orders for turn 1 are stored.\n"
		  "> GAME cw SIDE crown TURN 1 PASSWORD <your secret>\n\n"
		  "GAME cw SIDE crown TURN 2 PASSWORD s3cret-word\n7th: HOLD\n", 2, 5 },
		{ "more than seven quoted lines first",
		  "> 1\n> 2\n> 3\n> 4\n> 5\n> 6\n> 7\n> 8\n> 9\n"
		  "GAME cw SIDE crown PASSWORD s3cret-word\n7th: HOLD\n", 0, 10 },
		{ "a greeting with a colon",
		  "Hi umpire: my orders follow\n\nGAME cw SIDE crown PASSWORD s3cret-word\n7th: HOLD\n", 0, 3 },
		{ "a greeting with the word game",
		  "the game is cw, here are my orders\nGAME cw SIDE crown PASSWORD s3cret-word\n7th: HOLD\n", 0, 2 },
		{ "punctuation", "Game cw, side crown, turn 2, password s3cret-word\n7th: HOLD\n", 2, 1 },
		{ "colons and equals", "Game: cw; Side=crown; Turn: 3; Password: s3cret-word\n7th: HOLD\n", 3, 1 },
		{ "wrapped before the secret",
		  "GAME cw SIDE crown TURN 1 PASSWORD\ns3cret-word\n7th: HOLD\n", 1, 2 },
		{ "TURN in words", "GAME cw SIDE crown TURN one PASSWORD s3cret-word\n7th: HOLD\n", 1, 1 },
		{ "an ordinal", "GAME cw SIDE crown TURN 3rd PASSWORD s3cret-word\n", 3, 1 },
		{ "inside a sentence", "Dear Sir. GAME cw SIDE crown PASSWORD s3cret-word as ever\n", 0, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct orders_header h;

		orders_find_header(f->p, "Re: [cw] Turn 1, crown phase (07:00)",
		    cases[i].body, &h);
		if (!h.found || strcmp(h.game, "cw") != 0 ||
		    strcmp(h.side, "crown") != 0 ||
		    strcmp(h.secret, "s3cret-word") != 0 || h.turn != cases[i].turn ||
		    h.line != cases[i].line)
			fail_msg("%s: found %d game '%s' side '%s' secret '%s' "
			    "turn %d line %d", cases[i].name, h.found, h.game,
			    h.side, h.secret, h.turn, h.line);
	}
}


static void
header_is_never_taken_from_quotes_or_prose(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	/* Only quoted: no header (the template is not the player's). */
	orders_find_header(f->p, "Re: [cw] Turn 1",
	    "> GAME cw SIDE crown TURN 2 PASSWORD <your secret>\n7th: HOLD\n", &h);
	assert_false(h.found);
	/* An unmarked quoted report (Outlook) below the top-posted reply. */
	orders_find_header(f->p, NULL, "7th: HOLD\n\n-----Original Message-----\n"
	    "GAME cw SIDE crown TURN 2 PASSWORD <your secret>\n", &h);
	assert_false(h.found);
	/* "the game is cw" alone names no header. */
	orders_find_header(f->p, NULL, "the game is cw\n", &h);
	assert_false(h.found);
	/* A turn that is not a number is told apart from no turn. */
	orders_find_header(f->p, NULL, "GAME cw SIDE crown TURN soon\n", &h);
	assert_true(h.found);
	assert_int_equal(h.turn, -1);
	assert_string_equal(h.turn_text, "soon");
	/* "Game on!" before the real header does not hide it. */
	orders_find_header(f->p, NULL, "Game on!\n\nGAME cw SIDE crown "
	    "PASSWORD s3cret-word\n7th: HOLD\n", &h);
	assert_string_equal(h.game, "cw");
	assert_int_equal(h.line, 3);
}


static void
subject_fills_what_the_body_leaves_out(void **state)
{
	struct fx *f = *state;
	struct orders_header h;

	orders_find_header(f->p, "GAME cw SIDE crown TURN 4 PASSWORD s3cret-word",
	    "GAME cw\n7th: HOLD\n", &h);
	assert_true(h.found);
	assert_int_equal(h.line, 1);
	assert_string_equal(h.side, "crown");
	assert_int_equal(h.turn, 4);
	assert_string_equal(h.secret, "s3cret-word");
	/* "Game on!" in the body does not beat a whole header in the
	 * Subject, and the Subject's GAME completes a body header without. */
	orders_find_header(f->p, "GAME cw SIDE crown TURN 1 PASSWORD s3cret-word",
	    "Game on!\n7th: ADVANCE 2\n", &h);
	assert_string_equal(h.game, "cw");
	assert_string_equal(h.secret, "s3cret-word");
	assert_int_equal(h.line, 0);
	orders_find_header(f->p, "GAME cw", "SIDE crown TURN 2\nPASSWORD "
	    "s3cret-word\n7th: HOLD\n", &h);
	assert_true(h.found);
	assert_string_equal(h.game, "cw");
	assert_string_equal(h.side, "crown");
	assert_int_equal(h.turn, 2);
	assert_int_equal(h.line, 2);
	/* A report's subject ("Turn 1") is no header and gives no turn. */
	orders_find_header(f->p, "Re: [cw] Turn 1, crown phase (07:00)",
	    "GAME cw SIDE crown PASSWORD s3cret-word\n", &h);
	assert_int_equal(h.turn, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(header_found_in_first_line_in_any_order, setup, teardown),
		cmocka_unit_test_setup_teardown(header_falls_back_to_subject, setup, teardown),
		cmocka_unit_test_setup_teardown(campaign_header_names_a_campaign, setup, teardown),
		cmocka_unit_test_setup_teardown(body_lines_are_the_players_own, setup, teardown),
		cmocka_unit_test_setup_teardown(over_long_game_name_matches_nothing, setup, teardown),
		cmocka_unit_test(secret_is_blanked_everywhere),
		cmocka_unit_test_setup_teardown(header_layouts_real_players_write, setup, teardown),
		cmocka_unit_test_setup_teardown(header_is_never_taken_from_quotes_or_prose, setup, teardown),
		cmocka_unit_test_setup_teardown(subject_fills_what_the_body_leaves_out, setup, teardown),
		cmocka_unit_test_setup_teardown(unicode_spaces_separate_header_words, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
