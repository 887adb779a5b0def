/* The mail commands as the orders parser reads them: each on a line of
 * its own, in any case, with its arguments checked and a clear answer for
 * a wrong one; prose that happens to begin with a command word is prose. */
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
    "scenario \"Commands\"\nruleset vnb-wing\ntable 48 x 48\n"
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

/* Parse one line as a command: its return, with the command and message. */
static int
one(struct fx *f, const char *line, struct orders_cmd *c, char *msg,
    size_t msize)
{
	memset(c, 0, sizeof(*c));
	msg[0] = '\0';
	return orders_parse_command(f->p, line, c, msg, msize);
}

/* SECRET alone or with one game's name; "Secret orders follow" is prose. */
static void
secret_takes_a_game_or_nothing(void **state)
{
	struct fx *f = *state;
	struct orders_cmd c;
	char msg[256];

	assert_int_equal(one(f, "SECRET", &c, msg, sizeof(msg)), 1);
	assert_int_equal(c.kind, CMD_SECRET);
	assert_string_equal(c.arg, "");
	assert_int_equal(one(f, "secret cowpens.", &c, msg, sizeof(msg)), 1);
	assert_int_equal(c.kind, CMD_SECRET);
	assert_string_equal(c.arg, "cowpens");
	assert_int_equal(one(f, "Secret orders follow", &c, msg, sizeof(msg)),
	    0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(orders_bare_command(f->p, "\n> quoted\nSecret\n", &c),
	    CMD_SECRET);
}

/* ABSENT FROM d TO d with real calendar dates, first day first; ABSENT
 * CANCEL; a wrong one is answered with an example of a right one. */
static void
absent_takes_two_real_dates_in_order(void **state)
{
	struct fx *f = *state;
	struct orders_cmd c;
	char msg[256];

	assert_int_equal(one(f, "ABSENT FROM 2026-12-24 TO 2026-12-27", &c, msg,
	    sizeof(msg)), 1);
	assert_int_equal(c.kind, CMD_ABSENT);
	assert_string_equal(c.arg, "");
	assert_string_equal(c.text, "2026-12-24 2026-12-27");
	assert_int_equal(one(f, "absent from 2028-02-29 to 2028-03-01.", &c, msg,
	    sizeof(msg)), 1);
	assert_string_equal(c.text, "2028-02-29 2028-03-01");
	assert_int_equal(one(f, "Absent cancel", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.arg, "cancel");
	/* Not a leap year; no 31st of November; month 13. */
	assert_int_equal(one(f, "ABSENT FROM 2027-02-29 TO 2027-03-01", &c, msg,
	    sizeof(msg)), -1);
	assert_non_null(strstr(msg, "year-month-day"));
	assert_int_equal(one(f, "ABSENT FROM 2026-11-31 TO 2026-12-01", &c, msg,
	    sizeof(msg)), -1);
	assert_int_equal(one(f, "ABSENT FROM 2026-13-01 TO 2026-12-01", &c, msg,
	    sizeof(msg)), -1);
	assert_int_equal(one(f, "ABSENT FROM 24/12/2026 TO 27/12/2026", &c, msg,
	    sizeof(msg)), -1);
	assert_int_equal(one(f, "ABSENT FROM 2026-12-24", &c, msg, sizeof(msg)),
	    -1);
	assert_int_equal(one(f, "ABSENT FROM 2026-12-24 TO 2026-12-27 AND", &c,
	    msg, sizeof(msg)), -1);
	assert_int_equal(one(f, "ABSENT FROM 2026-12-27 TO 2026-12-24", &c, msg,
	    sizeof(msg)), -1);
	assert_non_null(strstr(msg, "ends before it begins"));
	assert_int_equal(one(f, "ABSENT", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "ABSENT FROM 2026-12-24 TO 2026-12-27"));
	/* Prose that begins with the word. */
	assert_int_equal(one(f, "Absent any word from the left, hold", &c, msg,
	    sizeof(msg)), 0);
	/* In a mail the error is the line's, the orders stand. */
	orders_parse(f->p, f->b, 0, "ABSENT FROM tomorrow TO friday\n"
	    "7th: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->ncmds, 0);
}

/* HISTORY (every phase), HISTORY TURN n, HISTORY n-m or HISTORY n. */
static void
history_takes_all_a_turn_or_a_range(void **state)
{
	struct fx *f = *state;
	struct orders_cmd c;
	char msg[256];

	assert_int_equal(one(f, "HISTORY", &c, msg, sizeof(msg)), 1);
	assert_int_equal(c.kind, CMD_HISTORY);
	assert_string_equal(c.arg, "all");
	assert_string_equal(c.text, "");
	assert_int_equal(one(f, "history turn 3.", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.arg, "turn");
	assert_string_equal(c.text, "3");
	assert_int_equal(one(f, "HISTORY 2-4", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.arg, "range");
	assert_string_equal(c.text, "2-4");
	assert_int_equal(one(f, "HISTORY 2 - 4", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.text, "2-4");
	assert_int_equal(one(f, "HISTORY 5", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.text, "5-5");
	assert_int_equal(one(f, "HISTORY 4-2", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "ends before it begins"));
	assert_non_null(strstr(msg, "(HISTORY 2-4)"));
	assert_int_equal(one(f, "HISTORY 0-2", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "HISTORY TURN 3"));
	/* turn 0: a battle's deployment */
	assert_int_equal(one(f, "HISTORY TURN 0", &c, msg, sizeof(msg)), 1);
	assert_string_equal(c.text, "0");
	assert_int_equal(one(f, "HISTORY TURN -1", &c, msg, sizeof(msg)), -1);
	assert_int_equal(one(f, "HISTORY TURN three", &c, msg, sizeof(msg)), -1);
	assert_int_equal(one(f, "HISTORY 3 and 4", &c, msg, sizeof(msg)), -1);
	assert_int_equal(one(f, "History shows the bold win", &c, msg,
	    sizeof(msg)), 0);
}

static void
commands_stand_on_their_own_lines(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0,
	    "HELP\nstatus.\nOrders\n7th: HOLD\nRESEND\nWAIT\nready!\n"
	    "PRESS TO continental \"Sir, I await your surrender.\"\n"
	    "press to all: \xe2\x80\x9cHuzzah\xe2\x80\x9d\n"
	    "CONCEDE\nCONCEDE ab12-cd34\nHelp me find the ford\n", 0, f->r);
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->ncmds, ORDERS_MAX_CMDS);
	assert_int_equal(f->r->cmds_dropped, 2);
	assert_int_equal(f->r->cmds[0].kind, CMD_HELP);
	assert_int_equal(f->r->cmds[1].kind, CMD_STATUS);
	assert_int_equal(f->r->cmds[2].kind, CMD_ORDERS);
	assert_int_equal(f->r->cmds[3].kind, CMD_RESEND);
	assert_int_equal(f->r->cmds[6].kind, CMD_PRESS);
	assert_string_equal(f->r->cmds[6].arg, "continental");
	assert_string_equal(f->r->cmds[6].text, "Sir, I await your surrender.");
	assert_string_equal(f->r->cmds[7].arg, "all");
	assert_string_equal(f->r->cmds[7].text, "Huzzah");
	/* "Help me find the ford" is prose, not HELP. */
	assert_int_equal(f->r->lines[f->r->nlines - 1].status, ORDERS_PROSE);
	orders_parse(f->p, f->b, 0, "PRESS hello\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_non_null(strstr(f->r->lines[0].text, "PRESS TO"));
	assert_int_equal(orders_bare_command(f->p, "\n> quoted\nHelp\n", NULL), CMD_HELP);
	assert_int_equal(orders_bare_command(f->p, "Hello\nHELP\n", NULL), -1);
	/* LIST alone or with one game's name; more words are prose. */
	{
		struct orders_cmd c;

		memset(&c, 0, sizeof(c));
		assert_int_equal(orders_bare_command(f->p, "list\n", &c),
		    CMD_LIST);
		assert_string_equal(c.arg, "");
		assert_int_equal(orders_bare_command(f->p, "LIST cowpens.\n",
		    &c), CMD_LIST);
		assert_string_equal(c.arg, "cowpens");
		assert_int_equal(orders_bare_command(f->p, "List of my brigades\n",
		    &c), -1);
		/* As the help writes it: LIST [GAME]. */
		assert_int_equal(orders_bare_command(f->p, "LIST GAME ff\n", &c),
		    CMD_LIST);
		assert_string_equal(c.arg, "ff");
	}
}


/* SET MAIL TEXT | HTML | FULL, any case; a wrong choice is an error that
 * lists the right ones; "Set up ..." is no command. */
static void
set_mail_takes_text_html_or_full(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "SET MAIL FULL\nset mail text.\n"
	    "Set Mail Html\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->ncmds, 3);
	assert_int_equal(f->r->cmds[0].kind, CMD_SET);
	assert_string_equal(f->r->cmds[0].arg, "mail");
	assert_string_equal(f->r->cmds[0].text, "full");
	assert_string_equal(f->r->cmds[1].text, "text");
	assert_string_equal(f->r->cmds[2].text, "html");
	orders_parse(f->p, f->b, 0, "SET MAIL PDF\nSET MAIL\n"
	    "SET MAIL HTML PLEASE\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 3);
	assert_int_equal(f->r->ncmds, 0);
	assert_non_null(strstr(f->r->lines[0].text, "TEXT"));
	assert_non_null(strstr(f->r->lines[0].text, "FULL"));
	orders_parse(f->p, f->b, 0, "Set up a line on the ridge\n", 0, f->r);
	assert_int_equal(f->r->ncmds, 0);
}


/* Every command the word table names is read as that command, in any
 * case, and the line pattern is the one the table makes. */
static void
every_command_word_is_read_from_the_one_table(void **state)
{
	struct fx *f = *state;
	struct orders_cmd c;
	char msg[256], pat[320], line[64];
	int k, i;

	assert_int_equal(orders_cmd_pattern(pat, sizeof(pat)), 0);
	assert_string_equal(pat, "^(HELP|STATUS|ORDERS|RESEND|PRESS|WAIT|READY|"
	    "CONCEDE|COMMIT|REVEAL|SET|CLEAR|QUESTION|UMPIRE|LIST|JOIN|DRAW|"
	    "SECRET|ABSENT|HISTORY)(?:\\s+(.*?))?"
	    "\\s*[.!]?$");
	assert_int_equal(orders_cmd_pattern(pat, 20), -1);
	for (k = 0; k < CMD_COUNT; k++) {
		const char *w = orders_cmd_word((enum orders_cmd_kind)k);
		int rc;

		assert_string_not_equal(w, "?");
		/* SET alone is a word of prose ("Set up on the ridge"). */
		snprintf(line, sizeof(line), "%s%s", w, k == CMD_SET ? " MAIL TEXT" :
		    "");
		for (i = 1; line[i]; i++)
			line[i] = (char)(line[i] | 0x20);   /* "Help", "Status" */
		memset(&c, 0, sizeof(c));
		rc = orders_parse_command(f->p, line, &c, msg, sizeof(msg));
		/* A word alone is the command, or the command asking for
		 * what it lacks (PRESS TO whom), never an order. */
		if (rc == 0)
			fail_msg("%s is not read as a command", line);
		if (rc > 0)
			assert_int_equal(c.kind, k);
	}
	assert_string_equal(orders_cmd_word(CMD_COUNT), "?");
	assert_int_equal(orders_parse_command(f->p, "Helpful Highlanders: HOLD",
	    &c, msg, sizeof(msg)), 0);
}

/* A command a letter off, alone on its line, is a command written wrong
 * and says what was meant; prose and names are left alone. */
static void
a_command_a_letter_off_says_what_was_meant(void **state)
{
	struct fx *f = *state;
	struct orders_cmd c;
	char msg[256];

	assert_int_equal(one(f, "READDY", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "did you mean READY?"));
	assert_int_equal(one(f, "Statsu.", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "did you mean STATUS?"));
	assert_int_equal(one(f, "DRAW WITHDRAWN", &c, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "did you mean DRAW WITHDRAW?"));
	/* Not a command: two words, a short word, SET's neighbour, prose. */
	assert_int_equal(one(f, "Ready the guns", &c, msg, sizeof(msg)), 0);
	assert_int_equal(one(f, "Sent", &c, msg, sizeof(msg)), 0);
	assert_int_equal(one(f, "Hello!", &c, msg, sizeof(msg)), 0);
	assert_int_equal(one(f, "Draw up the line", &c, msg, sizeof(msg)), 0);
	/* In a mail: an error line that changes no orders. */
	orders_parse(f->p, f->b, 0, "HELP\nREADDY\n7th: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_int_equal(f->r->ncmds, 1);
	assert_int_equal(f->r->set.n, 1);
	assert_true(f->r->lines[1].command);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_command_word_is_read_from_the_one_table, setup, teardown),
		cmocka_unit_test_setup_teardown(commands_stand_on_their_own_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(set_mail_takes_text_html_or_full, setup, teardown),
		cmocka_unit_test_setup_teardown(secret_takes_a_game_or_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(absent_takes_two_real_dates_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(history_takes_all_a_turn_or_a_range, setup, teardown),
		cmocka_unit_test_setup_teardown(a_command_a_letter_off_says_what_was_meant, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
