/*
 * test_bb3_orders.c - bb3's order language as the parser reads it
 * (docs/rules-bb3.md, "The orders"): what is refused when read, with
 * the reason (a rules case cannot state a refused line), the side's own
 * lines (INITIATIVE:, IF CHARGED:) written back as they read, and the
 * battle's own state (the initiative decided, the responses) kept
 * through its tables and given to battle_step_side; and what the order
 * reply warns of (bb3_preview.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/ruleset.h"
#include "rules/bb3.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

static const char scen[] =
    "scenario \"Orders\"\nruleset bb3\ntable 72 x 72\nturns 4\n"
    "sequence alternate crown continental\n"
    "side crown \"Crown\"\n"
    "  commander \"Rawdon\" army at 70,70\n"
    "  brigade \"Line\" commander \"Campbell\" at 20,64\n"
    "    unit \"63rd Foot\" type british-regulars stands 4 sp 6 at 20,60 "
    "facing 180\n"
    "    unit \"Royal Artillery\" type light-gun stands 1 sp 3 at 36,60 "
    "facing 180\n"
    "    unit \"Jaegers\" type jaegers stands 4 sp 3 at 50,60 facing 180\n"
    "    unit \"17th Dragoons\" type dragoons stands 2 sp 3 at 50,28 "
    "facing 180\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 36,2\n"
    "  brigade \"Marylanders\" commander \"Gunby\" at 36,6\n"
    "    unit \"1st Maryland\" type continentals stands 4 sp 6 at 20,12 "
    "facing 0\n"
    "    unit \"Kirkwood\" type light-skirmishers stands 4 sp 3 at 50,12 "
    "facing 0\n";

static struct battle *
load(void)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse(scen, strlen(scen), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

/* The crown's (side 0) or the continental's (1) line, read: its status
 * and its text (the canonical order, or the error) into out. */
static enum orders_status
read_line(const struct battle *b, int side, const char *line, char *out,
    size_t size)
{
	const struct ruleset *rs = ruleset_find("bb3");
	struct orders_result *res = calloc(1, sizeof(*res));
	struct orders_parser *op;
	enum orders_status st;
	struct err e;

	assert_non_null(res);
	op = orders_parser_new(rs, &e);
	assert_non_null(op);
	orders_parse(op, b, side, line, 0, res);
	assert_int_equal(res->nlines, 1);
	st = res->lines[0].status;
	snprintf(out, size, "%s", res->lines[0].text);
	orders_parser_free(op);
	free(res);
	return st;
}

static void
refused(const struct battle *b, int side, const char *line, const char *why)
{
	char out[512];

	if (read_line(b, side, line, out, sizeof(out)) != ORDERS_ERROR)
		fail_msg("\"%s\" was taken: %s", line, out);
	if (strstr(out, why) == NULL)
		fail_msg("\"%s\" was refused, but: %s", line, out);
}

static void
taken(const struct battle *b, int side, const char *line, const char *canon)
{
	char out[512];

	if (read_line(b, side, line, out, sizeof(out)) == ORDERS_ERROR)
		fail_msg("\"%s\" was refused: %s", line, out);
	if (strcmp(out, canon) != 0)
		fail_msg("\"%s\" reads as \"%s\", not \"%s\"", line, out, canon);
}

/* Artillery cannot charge (the text); only skirmishers evade; only
 * American skirmishers pick off officers: refused when read, saying so,
 * so that the unit does not hold unawares. */
static void
refusals_name_the_rule(void **state)
{
	struct battle *b = load();

	(void)state;
	refused(b, 0, "Royal Artillery: CHARGE 1st Maryland",
	    "artillery cannot charge");
	refused(b, 0, "63rd Foot: IF CHARGED EVADE", "only skirmishers evade");
	taken(b, 0, "Jaegers: IF CHARGED EVADE", "Jaegers: IF CHARGED EVADE");
	refused(b, 0, "Jaegers: FIRE AT Kirkwood THEN PICK OFF 2",
	    "only American skirmishers");
	taken(b, 1, "Kirkwood: FIRE AT 63rd Foot THEN PICK OFF 2",
	    "Kirkwood: FIRE AT 63rd Foot THEN PICK OFF 2");
	refused(b, 0, "INITIATIVE: THIRD", "FIRST or SECOND");
	refused(b, 1, "IF CHARGED: SURRENDER", "STAND, EVADE, FLEE");
	refused(b, 1, "Kirkwood: IF CHARGED STND", "did you mean \"IF CHARGED "
	    "STAND\"?");
	refused(b, 1, "1st Maryland: if charged fire and flea", "did you mean "
	    "\"IF CHARGED FIRE AND FLEE\"?");
	battle_free(b);
}

/* The side's lines read in any case and spacing and are written back as
 * one canonical line each. */
static void
side_lines_read_back(void **state)
{
	struct battle *b = load();

	(void)state;
	taken(b, 0, "initiative:   second", "INITIATIVE: SECOND");
	taken(b, 0, "INITIATIVE: FIRST", "INITIATIVE: FIRST");
	taken(b, 1, "If Charged: fire and flee", "IF CHARGED: FIRE AND FLEE");
	taken(b, 1, "1st Maryland: IF CHARGED ABOUT FACE",
	    "1st Maryland: IF CHARGED ABOUT FACE");
	battle_free(b);
}

/* Every verb of bb3's table, with what it takes, written back as its
 * canonical line (what the store keeps and the turn reads again) reads as
 * the same order: a FALL BACK 2 stored as "FALL BACK" held the game up
 * when the turn came to read it. */
static void
every_verb_reads_back_the_same(void **state)
{
	static const char *const lines[][2] = {
		{ "1st Maryland: move to 20,20.5", "1st Maryland: MOVE TO 20,20.5" },
		{ "1st Maryland: advance 3.5", "1st Maryland: ADVANCE 3.5" },
		{ "1st Maryland: fall back 2", "1st Maryland: FALL BACK 2" },
		{ "1st Maryland: wheel left 30", "1st Maryland: WHEEL LEFT 30" },
		{ "1st Maryland: face 90", "1st Maryland: FACE 90" },
		{ "1st Maryland: form column", "1st Maryland: FORM COLUMN" },
		{ "1st Maryland: charge 63rd", "1st Maryland: CHARGE 63rd Foot" },
		{ "Kirkwood: fire at 63rd then pick off 3",
		  "Kirkwood: FIRE AT 63rd Foot THEN PICK OFF 3" },
		{ "1st Maryland: if charged stand", "1st Maryland: IF CHARGED STAND" },
		{ "Kirkwood: if charged evade", "Kirkwood: IF CHARGED EVADE" },
		{ "1st Maryland: if charged flee", "1st Maryland: IF CHARGED FLEE" },
		{ "1st Maryland: if charged fire and flee",
		  "1st Maryland: IF CHARGED FIRE AND FLEE" },
		{ "1st Maryland: if charged about face",
		  "1st Maryland: IF CHARGED ABOUT FACE" },
		{ "Gunby: join Kirkwood", "Gunby: JOIN Kirkwood" },
		{ "1st Maryland: hold", "1st Maryland: HOLD" },
	};
	const struct ruleset *rs = ruleset_find("bb3");
	struct orders_result *a = calloc(1, sizeof(*a));
	struct orders_result *c = calloc(1, sizeof(*c));
	struct battle *b = load();
	struct orders_parser *op;
	struct err e;
	size_t i;
	int v, seen;

	(void)state;
	assert_non_null(a);
	assert_non_null(c);
	op = orders_parser_new(rs, &e);
	assert_non_null(op);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		orders_parse(op, b, 1, lines[i][0], 0, a);
		if (a->nerrors != 0 || a->set.n != 1)
			fail_msg("\"%s\": %s", lines[i][0], a->lines[0].text);
		if (strcmp(a->lines[0].text, lines[i][1]) != 0)
			fail_msg("\"%s\" is kept as \"%s\", not \"%s\"",
			    lines[i][0], a->lines[0].text, lines[i][1]);
		orders_parse(op, b, 1, a->lines[0].text, 0, c);
		if (c->nerrors != 0 || c->set.n != 1)
			fail_msg("\"%s\" does not read again: %s",
			    a->lines[0].text, c->lines[0].text);
		c->set.orders[0].line = a->set.orders[0].line;
		assert_memory_equal(&a->set.orders[0], &c->set.orders[0],
		    sizeof(a->set.orders[0]));
	}
	/* and the list above holds every verb of the table */
	for (v = 0; v < rs->nverbs; v++) {
		for (seen = 0, i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			const char *w = strstr(lines[i][1], rs->verbs[v].word);

			seen |= w != NULL && w[-1] == ' ' &&
			    (w[strlen(rs->verbs[v].word)] == ' ' ||
			    w[strlen(rs->verbs[v].word)] == '\0');
		}
		if (!seen)
			fail_msg("no line above tries %s", rs->verbs[v].word);
	}
	orders_parser_free(op);
	battle_free(b);
	free(a);
	free(c);
}

/* The initiative decided is the battle's own state: through the tables
 * (what the store keeps and the ledger signs) it comes back whole, and
 * battle_step_side follows it; a turn not decided is the scenario's. */
static void
initiative_kept_through_tables(void **state)
{
	const struct ruleset *rs = ruleset_find("bb3");
	struct battle *b = load(), *c = load();
	int v[RULES_TABLE_MAX_KEYS], t, r, n;

	(void)state;
	assert_int_equal(battle_step_side(b, 3), 0);   /* turn 2: scenario's */
	bb3_state(b)->first[2] = 2;                    /* continental leads */
	bb3_state(b)->roll[2][0] = 2;
	bb3_state(b)->roll[2][1] = 5;
	bb3_state(b)->response[1] = B3R_FLEE;
	bb3_state(b)->second[1] = 1;
	assert_int_equal(battle_step_side(b, 3), 1);
	assert_int_equal(battle_step_side(b, 4), 0);
	assert_int_equal(battle_step_side(b, 5), 0);   /* turn 3: undecided */
	for (t = 0; t < rs->ntables; t++) {
		const struct rules_table *tb = &rs->tables[t];

		n = tb->rows(b);
		assert_int_equal(tb->set(c, n, -1, v), 0);
		for (r = 0; r < n; r++) {
			tb->get(b, r, v);
			assert_int_equal(tb->set(c, n, r, v), 0);
		}
	}
	assert_int_equal(battle_step_side(c, 3), 1);
	assert_int_equal(bb3_cstate(c)->response[1], B3R_FLEE);
	assert_int_equal(bb3_cstate(c)->second[1], 1);
	assert_int_equal(bb3_cstate(c)->roll[2][1], 5);
	/* A row out of range is refused, not kept. */
	v[0] = 7;
	v[1] = v[2] = 1;
	assert_int_equal(rs->tables[0].set(c, 2, 0, v), -1);
	battle_free(b);
	battle_free(c);
}

/* The warnings for side's orders `text` (through the ruleset's table, as
 * the referee calls it) into out; how many. */
static int
warnings_at(const struct battle *b, int open, int step, int side,
    const char *text, char *out, size_t size)
{
	const struct ruleset *rs = ruleset_find("bb3");
	struct orders_result *res = calloc(1, sizeof(*res));
	struct orders_parser *op;
	struct err e;
	int n;

	assert_non_null(res);
	op = orders_parser_new(rs, &e);
	assert_non_null(op);
	orders_parse(op, b, side, text, 0, res);
	if (res->nerrors > 0)
		fail_msg("\"%s\" does not read: %s", text, res->lines[0].text);
	n = rs->preview(b, open, step, &res->set, out, size);
	orders_parser_free(op);
	free(res);
	return n;
}

static void
warns_at(const struct battle *b, int open, int step, int side,
    const char *text, const char *want)
{
	char out[4096];

	warnings_at(b, open, step, side, text, out, sizeof(out));
	if (want == NULL ? out[0] != '\0' : strstr(out, want) == NULL)
		fail_msg("\"%s\" warned:\n%s(wanted %s)", text, out,
		    want != NULL ? want : "nothing");
}

static void
warns(const struct battle *b, int side, const char *text, const char *want)
{
	warns_at(b, 1, 1, side, text, want);
}

/* The order reply names the d10 a move needs (Campbell, quality 3, 4"
 * away: 6), a charge beyond reach (infantry 8", cavalry 4 x d6, or the
 * d6 it needs), fire the table does not allow yet, and points kept for
 * an officer who is not there; and nothing for a plain HOLD or a side's
 * line. */
static void
order_reply_warns(void **state)
{
	struct battle *b = load();

	(void)state;
	warns(b, 0, "63rd Foot: ADVANCE 4", "63rd Foot moves only on a d10 of 6 "
	    "or less");
	warns(b, 0, "63rd Foot: CHARGE 1st Maryland", "beyond an infantry charge");
	warns(b, 0, "17th Dragoons: CHARGE Kirkwood", "to reach Kirkwood it "
	    "needs a d6 of 4 or more");
	warns(b, 0, "Royal Artillery: FIRE AT 1st Maryland", "Royal Artillery "
	    "would not fire now: its target is");
	warns(b, 1, "Kirkwood: FIRE AT 63rd Foot THEN PICK OFF 2", "no officer "
	    "is with 63rd Foot");
	/* 1st Maryland (20,12) lies 62 degrees off the front of the 17th
	 * Dragoons (50,28, facing 180): refused at play, so warned of;
	 * Kirkwood (50,12), straight ahead of them, is not. */
	warns(b, 0, "17th Dragoons: CHARGE 1st Maryland", "17th Dragoons: 1st "
	    "Maryland lies 62 degrees off its front, beyond the 45 a charger "
	    "may wheel");
	/* A side's EVADE leaves its formed units standing. */
	warns(b, 1, "IF CHARGED: EVADE", "only skirmishers evade; these stand "
	    "instead: 1st Maryland");
	warns(b, 1, "IF CHARGED: EVADE\n1st Maryland: IF CHARGED FLEE", NULL);
	warns(b, 0, "63rd Foot: HOLD", NULL);
	warns(b, 0, "INITIATIVE: SECOND", NULL);
	/* A fleeing unit rallies before any move: its FACE is free if it
	 * does, and no d10 is rolled for it. */
	{
		int s;

		for (s = 0; s < b->units[0].nstands; s++)
			b->stands[b->units[0].first_stand + s].flags |= ST_ROUTED;
	}
	warns(b, 0, "63rd Foot: FACE 90", "63rd Foot is fleeing: it must rally "
	    "first (2d6 at or under its morale of 8)");
	battle_free(b);
}

/* Responses sent during the crown's open step 1 for the continental's
 * step 2 count from step 2 on: the reply says what meets a charge in
 * step 1 (what stands now); for the open step itself, nothing. */
static void
responses_for_a_later_phase(void **state)
{
	struct battle *b = load();

	(void)state;
	warns_at(b, 1, 2, 1, "Kirkwood: IF CHARGED EVADE", "in Crown's phase, "
	    "played before it");
	warns_at(b, 1, 2, 1, "Kirkwood: IF CHARGED EVADE",
	    "Kirkwood: stand until then (evade after)");
	warns_at(b, 1, 2, 1, "IF CHARGED: FLEE", "your side's IF CHARGED: flee: "
	    "units with no response of their own answer with stand until then");
	warns_at(b, 1, 2, 1, "1st Maryland: IF CHARGED ABOUT FACE THEN FIRE AT "
	    "63rd Foot", "1st Maryland: stand until then (about face after)");
	warns_at(b, 2, 2, 1, "Kirkwood: IF CHARGED EVADE", NULL);
	warns_at(b, 1, 3, 0, "63rd Foot: IF CHARGED FLEE", NULL);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refusals_name_the_rule),
		cmocka_unit_test(side_lines_read_back),
		cmocka_unit_test(every_verb_reads_back_the_same),
		cmocka_unit_test(initiative_kept_through_tables),
		cmocka_unit_test(order_reply_warns),
		cmocka_unit_test(responses_for_a_later_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
