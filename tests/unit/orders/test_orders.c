/*
 * test_orders.c - the order language (docs/orders.md): the header line,
 * names, verbs and their arguments, what is ignored, and the canonical
 * text that adjudication parses again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orders/internal.h"
#include "orders/orders.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"

#include "fixture.h"

static const char scen[] =
    "scenario \"Names\"\nruleset vnb-wing\ntable 48 x 48\n"
    "side crown \"Crown\"\n  commander \"Lt. Col. Banastre Tarleton\" army at 24,4\n"
    "  brigade \"1st\" commander \"Maj. McArthur\" at 24,8\n"
    "    unit \"7th Foot (Royal Fusiliers)\" type british-line stands 2 sp 2 at 24,10 facing 0\n"
    "    unit \"1st Bn 71st Highlanders\" type highlanders stands 2 sp 2 at 30,10 facing 0\n"
    "    unit \"British Legion Infantry\" type legion-infantry stands 2 sp 1 at 12,10 facing 0\n"
    "    unit \"British Legion Cavalry\" type legion-cavalry stands 2 sp 1 at 12,6 facing 0\n"
    "    unit \"Ogilvie's Troop\" type legion-cavalry stands 1 sp 1 at 4,6 facing 0\n"
    "side continental \"Continental\"\n  commander \"Morgan\" army at 24,44\n"
    "  brigade \"Line\" commander \"Howard\" at 24,40\n"
    "    unit \"Maryland Continentals\" type continentals-post-1778 stands 2 sp 2 at 24,36 facing 180\n"
    "    unit \"Delaware Continentals\" type continentals-post-1778 stands 1 sp 2 at 30,36 facing 180\n";

static int
setup(void **state)
{
	return fx_setup(state, scen);
}

static void
names_resolve_by_prefix_and_part(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0,
	    "7th: ADVANCE 8\n"
	    "highlanders: wheel left 30 then advance 4.5\n"
	    "Tarleton: MOVE TO 20,6\n"
	    "legion cav: CHARGE maryland\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 4);
	assert_string_equal(f->r->lines[0].text, "7th Foot (Royal Fusiliers): ADVANCE 8");
	assert_string_equal(f->r->lines[1].text,
	    "1st Bn 71st Highlanders: WHEEL LEFT 30 THEN ADVANCE 4.5");
	assert_int_equal(f->r->set.orders[1].steps[0].angle, -30);
	assert_int_equal(f->r->set.orders[1].steps[1].dist, 450);
	/* A ';' joins orders as THEN does. */
	orders_parse(f->p, f->b, 0, "7th: WHEEL LEFT 30; ADVANCE 4.5;\n", 0,
	    f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_string_equal(f->r->lines[0].text,
	    "7th Foot (Royal Fusiliers): WHEEL LEFT 30 THEN ADVANCE 4.5");
	orders_parse(f->p, f->b, 0,
	    "7th: ADVANCE 8\n"
	    "highlanders: wheel left 30 then advance 4.5\n"
	    "Tarleton: MOVE TO 20,6\n"
	    "legion cav: CHARGE maryland\n", 0, f->r);
	assert_string_equal(f->r->lines[2].text,
	    "Lt. Col. Banastre Tarleton: MOVE TO 20,6");
	assert_true(f->r->set.orders[2].is_commander);
	assert_string_equal(f->r->lines[3].text,
	    "British Legion Cavalry: CHARGE Maryland Continentals");
}

static void
ambiguous_name_lists_the_candidates(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "British Legion: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_non_null(strstr(f->r->lines[0].text, "could be more than one"));
	assert_non_null(strstr(f->r->lines[0].text, "British Legion Infantry"));
	assert_non_null(strstr(f->r->lines[0].text, "British Legion Cavalry"));
}

static void
misspelt_name_gets_the_nearest_suggestion(void **state)
{
	struct fx *f = *state;

	/* Three letters off a name of ten: past the limit (2), within twice
	 * it, so suggested and not taken. */
	orders_parse(f->p, f->b, 0, "Higlandres: HOLD\n7th ADVANCE 8\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 2);
	assert_int_equal(f->r->lines[0].line, 1);
	assert_non_null(strstr(f->r->lines[0].text,
	    "did you mean \"1st Bn 71st Highlanders\""));
	assert_int_equal(f->r->lines[1].line, 2);
	assert_non_null(strstr(f->r->lines[1].text, "UNIT: ORDER"));
}

static void
enemy_and_own_units_are_kept_apart(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: FIRE AT 71st\nMaryland: HOLD\n"
	    "7th: CHARGE Virginia\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 3);
	assert_non_null(strstr(f->r->lines[0].text, "one of your own units"));
	assert_non_null(strstr(f->r->lines[1].text, "is an enemy unit"));
	/* A name nothing like any unit gets no wild guess. */
	assert_non_null(strstr(f->r->lines[2].text, "no enemy unit is called"));
	assert_null(strstr(f->r->lines[2].text, "did you mean"));
}

static void
bad_arguments_say_what_would_be_right(void **state)
{
	struct fx *f = *state;
	static const struct { const char *line, *says; } bad[] = {
		{ "7th: ADVANCE", "needs a distance" },
		{ "7th: ADVANCE far", "needs a distance" },
		{ "7th: ADVANCE 0", "from 0.01" },
		{ "7th: MOVE TO 99,1", "off the table" },
		{ "7th: MOVE TO 3 4", "point x,y" },
		{ "7th: WHEEL 45", "LEFT or RIGHT" },
		{ "7th: WHEEL LEFT 200", "1 to 180" },
		{ "7th: FACE 400", "0 to 359" },
		{ "7th: FORM WEDGE", "FORM takes" },
		{ "7th: FORM MOUNTED", "no horses" },
		{ "Legion Cav: FORM LINE", "forms MOUNTED" },
		{ "Legion Cav: FORM DISMOUNTED", "cannot dismount" },
		{ "7th: FORM SKIRMISH", "cannot take skirmish" },
		{ "7th: HOLD FAST", "takes nothing" },
		{ "7th: DANCE", "not an order I know" },
		{ "Tarleton: ADVANCE 4", "not commanders" },
		{ "7th: JOIN 71st", "for commanders" },
		{ "7th:", "missing" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		orders_parse(f->p, f->b, 0, bad[i].line, 0, f->r);
		if (f->r->nerrors != 1 || strstr(f->r->lines[0].text, bad[i].says) == NULL)
			fail_msg("'%s' gave '%s'", bad[i].line, f->r->nlines ?
			    f->r->lines[0].text : "(no line)");
	}
}

/* A bearing is 0 to 359: 360 is north again and must be refused, not
 * taken as a 361st direction.  FACE 400 above is far from the edge, so
 * an off-by-one in the check would pass it; these are the edges. */
static void
face_takes_0_to_359_and_refuses_360(void **state)
{
	struct fx *f = *state;
	static const char *const edge[] = {
		"7th: FACE 360", "7th: FACE 360 degrees", "7th: FACE 360.0",
	};
	size_t i;

	orders_parse(f->p, f->b, 0, "7th: FACE 0\n71st: FACE 359\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);
	assert_int_equal(f->r->set.orders[0].steps[0].verb, V_FACE);
	assert_int_equal(f->r->set.orders[0].steps[0].angle, 0);
	assert_int_equal(f->r->set.orders[1].steps[0].angle, 359);
	assert_string_equal(f->r->lines[0].text,
	    "7th Foot (Royal Fusiliers): FACE 0");
	assert_string_equal(f->r->lines[1].text,
	    "1st Bn 71st Highlanders: FACE 359");

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		orders_parse(f->p, f->b, 0, edge[i], 0, f->r);
		if (f->r->nerrors != 1 || f->r->set.n != 0)
			fail_msg("'%s' gave %d errors, %d orders: '%s'", edge[i],
			    f->r->nerrors, f->r->set.n, f->r->nlines ?
			    f->r->lines[0].text : "(no line)");
		assert_int_equal(f->r->lines[0].status, ORDERS_ERROR);
		/* The player is told what was wrong and what to write. */
		assert_non_null(strstr(f->r->lines[0].text,
		    "FACE needs a bearing from 0 to 359 (0 north, 90 east, "
		    "180 south, 270 west)"));
		assert_non_null(strstr(f->r->lines[0].text,
		    "(so 7th Foot (Royal Fusiliers) holds)"));
	}
}

static void
quotes_comments_and_signature_are_ignored(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0,
	    "GAME x SIDE crown\n"
	    "> 7th: ADVANCE 8\n"
	    "# a note to myself\n"
	    "\n"
	    "7th: HOLD\r\n"
	    "-- \n"
	    "Banastre\n"
	    "71st: ADVANCE 2\n", 1, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->lines[0].line, 5);
}

static void
names_match_at_word_starts_and_fold_quotes(void **state)
{
	struct fx *f = *state;

	/* "to" is inside "Tarleton" and "Royal Fusiliers" only mid-word. */
	orders_parse(f->p, f->b, 0, "to: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	orders_parse(f->p, f->b, 0, "Royal: HOLD\nlegion inf: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.orders[0].who, 0);
	assert_int_equal(f->r->set.orders[1].who, 2);
	/* Curly quotes as a phone writes them. */
	orders_parse(f->p, f->b, 0, "Ogilvie\xe2\x80\x99s Troop: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_string_equal(f->r->lines[0].text, "Ogilvie's Troop: HOLD");
	/* A suggestion from a word inside the name. */
	orders_parse(f->p, f->b, 0, "Highlandres: HOLD\n", 0, f->r);
	assert_non_null(strstr(f->r->lines[0].text, "1st Bn 71st Highlanders"));
}

static void
quoted_earlier_mail_ends_the_orders(void **state)
{
	struct fx *f = *state;
	static const char *const seps[] = {
		"-----Original Message-----",
		"On Tue, 14 Nov 2023 at 10:00, despatch <d@x.org> wrote:",
		"________________________________",
		"From: despatch <despatch@localhost>",
		"Sent from my iPhone",
	};
	size_t i;

	for (i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
		char body[512];

		snprintf(body, sizeof(body), "7th: HOLD\n\n%s\nFrom: despatch "
		    "<d@x.org>\nSent: Monday\n71st: ADVANCE 6\n", seps[i]);
		orders_parse(f->p, f->b, 0, body, 0, f->r);
		if (f->r->set.n != 1 || f->r->nerrors != 0)
			fail_msg("after '%s': %d orders, %d errors", seps[i],
			    f->r->set.n, f->r->nerrors);
	}
}

static void
cavalry_forms_mounted(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "Legion Cav: FORM ROAD THEN FORM MOUNTED\n",
	    0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_string_equal(f->r->lines[0].text,
	    "British Legion Cavalry: FORM ROAD THEN FORM MOUNTED");
}

static void
a_later_line_for_a_unit_wins(void **state)
{
	struct fx *f = *state;

	/* Players correct themselves lower down. */
	orders_parse(f->p, f->b, 0, "7th: HOLD\n71st: HOLD\n7th Foot: ADVANCE 2\n",
	    0, f->r);
	assert_int_equal(f->r->set.n, 2);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->lines[0].status, ORDERS_REPLACED);
	assert_non_null(strstr(f->r->lines[0].text, "replaced by line 3"));
	assert_int_equal(f->r->set.orders[1].who, 0);
	assert_int_equal(f->r->set.orders[1].steps[0].verb, V_ADVANCE);
	/* A later line that fails leaves the earlier order standing. */
	orders_parse(f->p, f->b, 0, "7th: HOLD\n7th: ADVNCE 2\n", 0, f->r);
	assert_int_equal(f->r->set.n, 1);
	assert_non_null(strstr(f->r->lines[1].text, "its order on line 1 stands"));
}

static void
a_unit_whose_line_fails_holds_not_the_brigade_order(void **state)
{
	struct fx *f = *state;
	int i;

	orders_parse(f->p, f->b, 0, "McArthur's brigade: ADVANCE 6\n"
	    "7th: FIRE AT Nobody\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_non_null(strstr(f->r->lines[1].text, "so 7th Foot (Royal "
	    "Fusiliers) holds"));
	for (i = 0; i < f->r->set.n; i++)
		assert_true(f->r->set.orders[i].who != 0);
	assert_int_equal(f->r->set.n, 4);
	assert_non_null(strstr(f->r->lines[0].text, "7th Foot (Royal Fusiliers) "
	    "holds: its own line 2 could not be read"));
}

static void
canonical_text_parses_to_the_same_orders(void **state)
{
	struct fx *f = *state;
	char canon[4096] = "";
	struct order_set first;
	int i;

	orders_parse(f->p, f->b, 0,
	    "7th: face 90 then form road then advance 12.25\n"
	    "71st: REFORM THEN FIRE AT delaware\n"
	    "Legion Inf: FORM SKIRMISH\n"
	    "McArthur: JOIN 7th\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	first = f->r->set;
	for (i = 0; i < f->r->nlines; i++) {
		strcat(canon, f->r->lines[i].text);
		strcat(canon, "\n");
	}
	orders_parse(f->p, f->b, 0, canon, 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, first.n);
	for (i = 0; i < first.n; i++) {
		first.orders[i].line = f->r->set.orders[i].line;
		assert_memory_equal(&first.orders[i], &f->r->set.orders[i],
		    sizeof(first.orders[i]));
	}
}

/* Mounted infantry on foot have a detachment's kind, yet mount with FORM
 * MOUNTED: its canonical text must say MOUNTED, or the stored order fails
 * when the phase is played. */
static void
dismounted_horse_mounts_in_canonical_text(void **state)
{
	static const char sc[] =
	    "scenario \"Horse\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
	    "  brigade \"Legion\" commander \"Tarleton\" at 24,8\n"
	    "    unit \"Mounted Infantry\" type mounted-infantry stands 2 sp 1 "
	    "at 24,10 facing 0 dismounted\n"
	    "side continental \"Continental\"\n  commander \"Morgan\" army at "
	    "24,44\n  brigade \"Line\" commander \"Howard\" at 24,40\n"
	    "    unit \"Maryland\" type continentals-post-1778 stands 1 sp 2 "
	    "at 24,36 facing 180\n";
	struct fx *f = *state;
	struct battle *b = NULL;
	struct err e;
	char canon[256];

	if (scenario_parse(sc, strlen(sc), "horse", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	orders_parse(f->p, b, 0, "Mounted Infantry: FORM MOUNTED\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	snprintf(canon, sizeof(canon), "%s\n", f->r->lines[0].text);
	assert_non_null(strstr(canon, "FORM MOUNTED"));
	orders_parse(f->p, b, 0, canon, 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	battle_free(b);
}

static void
corpus_never_crashes(void **state)
{
	struct fx *f = *state;
	const char *dir = DESPATCH_SOURCE_DIR "/tests/fuzz/corpus/orders";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char path[1024], *text = NULL;
		size_t len = 0;
		struct orders_header h;
		struct err e;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (scenario_read_file(path, 1 << 20, &text, &len, &e) != 0)
			fail_msg("%s", e.msg);
		orders_find_header(f->p, text, text, &h);
		orders_parse(f->p, f->b, 0, text, h.line, f->r);
		orders_parse(f->p, f->b, 1, text, 0, f->r);
		free(text);
		n++;
	}
	closedir(d);
	assert_true(n >= 3);
}


static void
prose_around_orders_is_not_an_error(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "Dear umpire,\nOrders:\n7th: HOLD\n"
	    "Cheers,\nBanastre Tarleton\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->nprose, 4);
	/* Before the colon no name of the player's (not even a near one),
	 * after it no order: prose, a remark (issue 22, problem 4). */
	orders_parse(f->p, f->b, 0, "Quick question before I send my orders: "
	    "can my riflemen shoot from the wood?\n7th: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->nprose, 1);
	assert_int_equal(f->r->set.n, 1);
	/* A name near one of the player's, or an order after the colon,
	 * is an order that cannot be read: never dropped as prose. */
	orders_parse(f->p, f->b, 0, "Nonesuch Regiment: ADVANCE 6\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_int_equal(f->r->nprose, 0);
	/* An order without its colon is an error, not prose. */
	orders_parse(f->p, f->b, 0, "7th advance 8\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_non_null(strstr(f->r->lines[0].text, "colon is missing"));
	/* Its example is one of the player's own units. */
	orders_parse(f->p, f->b, 1, "Maryland advance 8\n", 0, f->r);
	assert_non_null(strstr(f->r->lines[0].text, "\"Maryland Continentals: "
	    "ADVANCE 8\""));
}

static void
misspelt_verb_gets_a_suggestion(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: ADVNCE 4\n71st: MOOVE TO 3,4\n"
	    "Legion Inf: XYZZY\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 3);
	assert_non_null(strstr(f->r->lines[0].text, "did you mean ADVANCE?"));
	assert_non_null(strstr(f->r->lines[1].text, "did you mean MOVE TO?"));
	assert_null(strstr(f->r->lines[2].text, "did you mean"));
}

static void
abbreviations_and_word_starts_name_units(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "First Battalion 71st: HOLD\n"
	    "Brit Leg Cav: HOLD\nBritish Legion Inf.: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.orders[0].who, 1);
	assert_int_equal(f->r->set.orders[1].who, 3);
	assert_int_equal(f->r->set.orders[2].who, 2);
	orders_parse(f->p, f->b, 1, "Md Conts: HOLD\nDel: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_string_equal(f->r->lines[0].text, "Maryland Continentals: HOLD");
}

static void
brigade_orders_reach_each_unit_and_yield_to_its_own(void **state)
{
	struct fx *f = *state;
	int i, seen[8] = { 0 };

	/* Brigade "1st" of Maj. McArthur: 7th, 71st, Legion Inf, Legion Cav,
	 * Ogilvie's.  The 7th's own line wins, before or after. */
	orders_parse(f->p, f->b, 0, "McArthur's brigade: HOLD\n7th: ADVANCE 2\n",
	    0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 5);
	for (i = 0; i < f->r->set.n; i++)
		seen[f->r->set.orders[i].who]++;
	for (i = 0; i < 5; i++)
		assert_int_equal(seen[i], 1);
	/* The unit's own order, in line order after the brigade's. */
	assert_int_equal(f->r->set.orders[4].who, 0);
	assert_int_equal(f->r->set.orders[4].steps[0].verb, V_ADVANCE);
	assert_non_null(strstr(f->r->lines[0].text, "1st (brigade): HOLD, for"));
	assert_null(strstr(f->r->lines[0].text, "7th Foot"));
	/* By the brigade's own name, and an order not every unit can take. */
	orders_parse(f->p, f->b, 1, "Line brigade: FORM SKIRMISH\n", 0, f->r);
	assert_int_equal(f->r->set.n, 0);
	assert_int_equal(f->r->nerrors, 1);
	assert_non_null(strstr(f->r->lines[0].text, "cannot take skirmish"));
}

static void
standing_orders_are_read_apart(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: ADVANCE 2\n"
	    "STANDING: 7th: HOLD\n"
	    "Standing orders:\n71st: HOLD\nMcArthur's brigade: REFORM\n\n"
	    "71st: FACE 90\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);     /* 7th ADVANCE, 71st FACE */
	assert_int_equal(f->r->standing_lines, 3);
	/* 7th HOLD, 71st HOLD, and REFORM for the brigade's other three. */
	assert_int_equal(f->r->standing.n, 5);
	assert_true(f->r->lines[1].standing);
	assert_false(f->r->lines[0].standing);
	assert_false(f->r->lines[f->r->nlines - 1].standing);
	orders_parse(f->p, f->b, 0, "STANDING: none\n", 0, f->r);
	assert_true(f->r->standing_clear);
	assert_int_equal(f->r->set.n, 0);
}

static void
a_one_letter_slip_is_taken_and_said(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "Brittish Legion Infantry: FIRE AT Marylnd "
	    "Continentals\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.orders[0].who, 2);
	assert_non_null(strstr(f->r->lines[0].text, "British Legion Infantry: "
	    "FIRE AT Maryland Continentals"));
	assert_non_null(strstr(f->r->lines[0].text, "(read \"Brittish Legion "
	    "Infantry\" as \"British Legion Infantry\", \"Marylnd Continentals\" "
	    "as \"Maryland Continentals\")"));
	/* Two slips in a long name are taken too; in a short one, only
	 * suggested. */
	orders_parse(f->p, f->b, 0, "Brittish Legion Infantri: HOLD\nOglvy: HOLD\n",
	    0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_string_equal(f->r->lines[0].text, "British Legion Infantry: HOLD   "
	    "(read \"Brittish Legion Infantri\" as \"British Legion Infantry\")");
	assert_non_null(strstr(f->r->lines[1].text, "did you mean \"Ogilvie's Troop\"?"));
	/* The plural possessive names the brigade too. */
	orders_parse(f->p, f->b, 1, "Howards' brigade: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);
}

static void
review_findings_on_limits_and_repeats(void **state)
{
	struct fx *f = *state;
	char *body;
	size_t k = 0;
	int i;

	/* An army-only player is limited all the same. */
	orders_parser_limit(f->p, 0, 1);
	orders_parse(f->p, f->b, 0, "7th: HOLD\nTarleton: MOVE TO 20,6\n", 0,
	    f->r);
	assert_int_equal(f->r->set.n, 1);
	assert_true(f->r->set.orders[0].is_commander);
	assert_non_null(strstr(f->r->lines[0].text, "another player of your side"));
	orders_parser_limit(f->p, 0, 0);
	/* The same brigade twice: the later line wins, every unit once. */
	orders_parse(f->p, f->b, 0, "1st brigade: HOLD\nMcArthur's brigade: ADVANCE 2\n",
	    0, f->r);
	assert_int_equal(f->r->set.n, 5);
	assert_int_equal(f->r->lines[0].status, ORDERS_REPLACED);
	for (i = 0; i < f->r->set.n; i++)
		assert_int_equal(f->r->set.orders[i].steps[0].verb, V_ADVANCE);
	orders_parse(f->p, f->b, 0, "STANDING: 1st brigade: HOLD\nSTANDING: 1st brigade: "
	    "REFORM\n", 0, f->r);
	assert_int_equal(f->r->standing.n, 5);
	/* Past the lines a result holds nothing is read, so no order is
	 * kept that the answer could not show. */
	body = malloc(500 * 16 + 64);
	assert_non_null(body);
	for (i = 0; i < 405; i++)
		k += (size_t)sprintf(body + k, "a remark %d\n", i);
	sprintf(body + k, "7th: ADVANCE 2\n");
	orders_parse(f->p, f->b, 0, body, 0, f->r);
	assert_true(f->r->too_many);
	assert_int_equal(f->r->set.n, 0);
	free(body);
}

static void
headings_and_bar_quotes_do_not_end_or_enter_the_orders(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: HOLD\n--- Reserve ---\n71st: ADVANCE 4\n"
	    "__________\nLegion Cav: HOLD\nTarleton wrote:\n| Legion Inf: CHARGE "
	    "Maryland\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 3);
}

/* Asked without room for a message, a name resolves exactly as with one
 * (the parser asks so first, and for the message only when it needs it). */
static void
resolving_without_a_message_gives_the_same_answer(void **state)
{
	static const char *const names[] = {
		"7th", "7th Foot", "7th Foot (Royal Fusiliers)", "royal fusiliers",
		"71st", "Highlanders", "British Legion", "British Legion Infantry",
		"Brittish Legion Infantry", "Brittish Legion Infantri", "Legion",
		"Ogilvie's Troop", "Ogilvie’s", "Ogilvy's Troop", "Tarleton",
		"McArthur", "Maryland Continentals", "Marylnd Continentals",
		"Howard", "Howards' brigade", "1st", "Fusilers", "x", "",
		"British Legion Cavalri", "Cavalry", "7th\xc2\xa0" "Foot",
		"\xef\xbc\x97th Foot", "Brit Legion", "Brittish Legion",
		"McArthur's", "Mcarthurs bde", "Ogilvy", "Lin", "Delaware Conts",
		"Marylnd", "Contnentals", "Morgan", "Howard's brigade",
	};
	static const unsigned whiches[] = { WHO_OWN_UNIT | WHO_OWN_CMD,
	    WHO_BRIGADE, WHO_OWN_CMD, WHO_OWN_UNIT, WHO_LINE, WHO_ENEMY_UNIT,
	    WHO_OWN_UNIT | WHO_EXACT };
	struct fx *f = *state;
	size_t i, w;
	int side;

	assert_int_equal(orders_names_bind(f->p, f->b), 0);
	for (side = 0; side < 2; side++)
		for (w = 0; w < sizeof(whiches) / sizeof(whiches[0]); w++)
			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
				const struct cand *a = NULL, *b = NULL;
				char msg[512];
				int full = orders_resolve(f->p, f->b, side, whiches[w],
				    names[i], &a, msg, sizeof(msg), "unit");
				int cheap = orders_resolve(f->p, f->b, side, whiches[w],
				    names[i], &b, NULL, 0, "unit");

				if (full != cheap || (full == 1 && a != b))
					fail_msg("\"%s\" (side %d, which %u): %d with a "
					    "message, %d without", names[i], side,
					    whiches[w], full, cheap);
			}
}

/* The bit-parallel edit distance gives what the full table gives, for
 * random strings over a small alphabet (so that they share letters), of
 * every length up to past the 64 bytes one machine word holds, and case
 * is ignored. */
static void
edit_distance_agrees_with_the_table(void **state)
{
	static const char alpha[] = "abcAB e'";
	uint32_t r = 12345;
	int k;

	(void)state;
	for (k = 0; k < 20000; k++) {
		char a[100], b[100];
		size_t la, lb, i;
		struct lev_pat lp;

		r = r * 1103515245u + 12345u;
		la = (r >> 8) % (k < 10000 ? 12 : 90);
		r = r * 1103515245u + 12345u;
		lb = (r >> 8) % (k < 10000 ? 12 : 90);
		for (i = 0; i < la; i++) {
			r = r * 1103515245u + 12345u;
			a[i] = alpha[(r >> 12) % (sizeof(alpha) - 1)];
		}
		a[la] = '\0';
		for (i = 0; i < lb; i++) {
			r = r * 1103515245u + 12345u;
			b[i] = alpha[(r >> 12) % (sizeof(alpha) - 1)];
		}
		b[lb] = '\0';
		orders_lev_prep(&lp, a, la);
		{
			int d = orders_lev_dp(a, la, b, lb), max = (int)(r >> 20) % 8;

			assert_int_equal(orders_lev_run(&lp, b, lb, 1 << 20), d);
			/* With a limit: the distance, or limit + 1 past it. */
			assert_int_equal(orders_lev_run(&lp, b, lb, max),
			    d > max ? max + 1 : d);
			/* To the nearest prefix of b (what a name written in
			 * part is measured with). */
			d = orders_lev_prefix_dp(a, la, b, lb);
			assert_int_equal(orders_lev_prefix(&lp, b, lb, 1 << 20), d);
			assert_int_equal(orders_lev_prefix(&lp, b, lb, max),
			    d > max ? max + 1 : d);
		}
	}
	/* The abbreviation table's order and first-letter index, which
	 * norm_name relies on and an assert only checks in debug builds. */
	assert_int_equal(orders_abbrevs_sorted(), 1);
	assert_int_equal(orders_lev("Tarleton", "tarleton"), 0);
	assert_int_equal(orders_lev("kitten", "sitting"), 3);
	assert_int_equal(orders_lev("", "abc"), 3);
	assert_int_equal(orders_lev("Lgiht", "Light"), 2);
	assert_int_equal(orders_lev_prefix_dp("virgina", 7, "virginia militia", 16), 1);
}

/* Issue 22, part 5, "one rule for names": the names Cowpens players wrote,
 * against the campaign's own scenario. */
static int
setup_cowpens(void **state)
{
	char *text = NULL;
	size_t len = 0;
	struct err e;
	int rc;

	if (scenario_read_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", 1 << 20, &text, &len,
	    &e) != 0)
		fail_msg("%s", e.msg);
	rc = fx_setup(state, text);
	free(text);
	return rc;
}

/* What mail clients put in names reads as the ASCII a player meant:
 * Unicode NFKC, spaces and dashes of every kind as ASCII ones, case
 * folded, quotes and brackets as spaces, and state abbreviations with
 * points. */
static void
names_are_normalised_before_they_are_matched(void **state)
{
	static const struct { const char *typed, *as; } cases[] = {
		{ "7th\xc2\xa0" "Foot", "7th foot" },              /* NBSP */
		{ "7th\xe2\x80\xaf" "Foot", "7th foot" },          /* narrow NBSP */
		{ "7th\xe2\x80\x83" "Foot", "7th foot" },          /* em space */
		{ "\xef\xbc\x97\xef\xbd\x94\xef\xbd\x88\xe3\x80\x80\xef\xbc\xa6"
		  "\xef\xbd\x8f\xef\xbd\x8f\xef\xbd\x94", "7th foot" },  /* full width */
		{ "Left Grasshopper (3\xe2\x80\x93pdr)", "left grasshopper 3 pounder" },
		{ "Left Grasshopper (3\xe2\x80\x94pdr)", "left grasshopper 3 pounder" },
		{ "Left Grasshopper (3\xe2\x88\x92pdr)", "left grasshopper 3 pounder" },
		{ "Hayes\xe2\x80\x99s Little River", "hayess little river" },
		/* The same through utf8proc (the no-break space sends it
		 * there) as through the fast path for curly apostrophes. */
		{ "Hayes\xe2\x80\x99s Little\xc2\xa0River", "hayess little river" },
		{ "\xe2\x80\x98" "71st\xe2\x80\x99", "71st" },
		{ "\xe2\x80\x98" "71st\xe2\x80\x99\xc2\xa0", "71st" },
		{ "Hayes's Little River", "hayess little river" },
		{ "\xe2\x80\x9c" "7th Foot\xe2\x80\x9d", "7th foot" },
		{ "Tho\xc2\xadmas", "thomas" },                   /* soft hyphen */
		{ "\xc3\x89" "COSSE", "\xc3\xa9" "cosse" },
		{ "\xef\xac\x81" "fth", "5th" },                 /* the fi ligature */
		{ "N.C. Riflemen", "north carolina riflemen" },
		{ "S. C. Militia", "south carolina militia" },
		{ "J. E. Howard", "j e howard" },                 /* initials stay */
		{ "Va Mil", "virginia militia" },
		{ "Penna Line", "pennsylvania line" },
		{ "Conn Line", "connecticut line" },
		{ "Del", "delaware" },
		{ "Md", "maryland" }, { "Ga", "georgia" }, { "NJ", "new jersey" },
		{ "NY", "new york" }, { "Mass", "massachusetts" },
		{ "NH", "new hampshire" }, { "RI", "rhode island" },
		{ "Vt", "vermont" },
	};
	char out[NORM_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		orders_name_norm(cases[i].typed, out, sizeof(out));
		if (strcmp(out, cases[i].as) != 0)
			fail_msg("\"%s\" read as \"%s\", not \"%s\"", cases[i].typed,
			    out, cases[i].as);
	}
	/* Bytes that are not UTF-8 are kept as they are, never a crash. */
	orders_name_norm("7th\xff Foot", out, sizeof(out));
	assert_string_equal(out, "7th\xff foot");
}

/* Apple Mail's no-break space, Outlook's en dash and a phone's full-width
 * letters name a unit exactly, not as the nearest. */
static void
client_spaces_dashes_and_wide_letters_name_units_exactly(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th\xc2\xa0" "Foot: HOLD\n"
	    "Left Grasshopper (3\xe2\x80\x93pdr): HOLD\n"
	    "\xef\xbc\x91\xef\xbd\x93\xef\xbd\x94 Bn 71st Highlanders: HOLD\n"
	    "British\xc2\xa0Legion\xc2\xa0Infantry: FIRE AT North\xe2\x80\xaf"
	    "Carolina Riflemen\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 4);
	assert_string_equal(f->r->lines[0].text, "7th Foot (Royal Fusiliers): HOLD");
	assert_string_equal(f->r->lines[1].text, "Left Grasshopper (3-pdr): HOLD");
	assert_string_equal(f->r->lines[2].text, "1st Bn 71st Highlanders: HOLD");
	assert_string_equal(f->r->lines[3].text, "British Legion Infantry: FIRE AT "
	    "North Carolina Riflemen");
	/* The same spaces around the order's own words, a zero-width space
	 * pasted after it, a line of no-break spaces alone. */
	orders_parse(f->p, f->b, 0, "7th Foot:\xc2\xa0" "ADVANCE\xc2\xa0" "6\n"
	    "\xc2\xa0\xc2\xa0\n"
	    "17th Light Dragoons: MOVE TO 40,20\xe2\x80\x8b\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->nlines, 2);
	assert_string_equal(f->r->lines[0].text, "7th Foot (Royal Fusiliers): "
	    "ADVANCE 6");
	assert_string_equal(f->r->lines[1].text, "17th Light Dragoons: MOVE TO 40,20");
}

/* A unique nearest name within the limit is taken, and the answer says
 * what it was read as: the misspellings of the issue, and NC Rifles. */
static void
a_near_name_is_taken_and_said(void **state)
{
	static const struct { const char *line, *canon, *read; } cases[] = {
		{ "Virgina Militia: HOLD",
		  "Virginia Militia (Triplett and Tate): HOLD",
		  "(read \"Virgina Militia\" as \"Virginia Militia (Triplett and Tate)\")" },
		{ "Thomas Spartans: ADVANCE 2", "Thomas's Spartan Regiment: ADVANCE 2",
		  "(read \"Thomas Spartans\" as \"Thomas's Spartan Regiment\")" },
		{ "NC Rifles: HOLD", "North Carolina Riflemen: HOLD",
		  "(read \"NC Rifles\" as \"North Carolina Riflemen\")" },
		{ "Washinton: MOVE TO 20,40", "Lt. Col. William Washington: MOVE TO 20,40",
		  "(read \"Washinton\" as \"Lt. Col. William Washington\")" },
		{ "Delaware Continentals: FIRE AT 17th Lt Dragons",
		  "Delaware Continentals: FIRE AT 17th Light Dragoons",
		  "(read \"17th Lt Dragons\" as \"17th Light Dragoons\")" },
		/* Six letters, one off. */
		{ "Georga: HOLD", "Georgia Riflemen: HOLD",
		  "(read \"Georga\" as \"Georgia Riflemen\")" },
	};
	struct fx *f = *state;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[400];

		orders_parse(f->p, f->b, 1, cases[i].line, 0, f->r);
		snprintf(want, sizeof(want), "%s   %s", cases[i].canon, cases[i].read);
		if (f->r->nerrors != 0 || strcmp(f->r->lines[0].text, want) != 0)
			fail_msg("%s: %s", cases[i].line, f->r->lines[0].text);
	}
	/* The brigade by its commander's name, misspelt: every unit of it. */
	orders_parse(f->p, f->b, 1, "Washinton's brigade: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);
	assert_string_equal(f->r->lines[0].text, "Cavalry Reserve (brigade): HOLD, "
	    "for Continental Light Dragoons (1st and 3rd), McCall's Mounted "
	    "Militia   (read \"Washinton's brigade\" as \"Cavalry Reserve\")");
	/* A name written exactly is read without a note. */
	orders_parse(f->p, f->b, 1, "NC Riflemen: HOLD\nWashington's: HOLD\n", 0,
	    f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 3);
	assert_null(strstr(f->r->lines[0].text, "(read"));
	assert_string_equal(f->r->lines[1].text, "Cavalry Reserve (brigade): HOLD, "
	    "for Continental Light Dragoons (1st and 3rd), McCall's Mounted Militia");
}

/* The limit is 1 for a name of up to six letters and 2 beyond; a name
 * within twice the limit is suggested, never taken; one further off gets
 * no wild guess. */
static void
the_limit_grows_with_the_name_and_suggestions_reach_twice_it(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "Nettls: HOLD\nNetls: HOLD\n"
	    "Ogilvy Troops: HOLD\nVrigina Militia: HOLD\nDear Sir: HOLD\n", 0,
	    f->r);
	assert_string_equal(f->r->lines[0].text, "Lt. Henry Nettles: HOLD   "
	    "(read \"Nettls\" as \"Lt. Henry Nettles\")");
	assert_string_equal(f->r->lines[1].text, "no unit, commander or brigade "
	    "of yours is called \"Netls\"; did you mean \"Lt. Henry Nettles\"?");
	assert_string_equal(f->r->lines[2].text, "Ogilvie's Troop: HOLD   "
	    "(read \"Ogilvy Troops\" as \"Ogilvie's Troop\")");
	assert_string_equal(f->r->lines[3].text, "no unit, commander or brigade "
	    "of yours is called \"Vrigina Militia\"; the names are in your "
	    "welcome mail and in each report");
	assert_string_equal(f->r->lines[4].text, "no unit, commander or brigade "
	    "of yours is called \"Dear Sir\"; the names are in your welcome mail "
	    "and in each report");
	assert_int_equal(f->r->nerrors, 3);
	orders_parse(f->p, f->b, 1, "Vrigina Militia: HOLD\n", 0, f->r);
	assert_string_equal(f->r->lines[0].text, "no unit, commander or brigade "
	    "of yours is called \"Vrigina Militia\"; did you mean \"Virginia "
	    "Militia (Triplett and Tate)\"?");
	/* One or two letters are never a near name. */
	orders_parse(f->p, f->b, 0, "Nx: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_null(strstr(f->r->lines[0].text, "did you mean"));
}

/* Names as near as each other are refused, every one of them listed, as
 * are names that match exactly in part. */
static void
ties_are_refused_with_every_candidate_listed(void **state)
{
	static const char sc[] =
	    "scenario \"Six\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side continental \"Continental\"\n"
	    "  commander \"Smallwood\" army at 24,2\n"
	    "  brigade \"Maryland Line\" commander \"Gist\" at 24,6\n"
	    "    unit \"1st Maryland\" type continentals-post-1778 stands 1 sp 2 at 4,10 facing 0\n"
	    "    unit \"2nd Maryland\" type continentals-post-1778 stands 1 sp 2 at 10,10 facing 0\n"
	    "    unit \"3rd Maryland\" type continentals-post-1778 stands 1 sp 2 at 16,10 facing 0\n"
	    "    unit \"4th Maryland\" type continentals-post-1778 stands 1 sp 2 at 22,10 facing 0\n"
	    "    unit \"5th Maryland\" type continentals-post-1778 stands 1 sp 2 at 28,10 facing 0\n"
	    "    unit \"6th Maryland\" type continentals-post-1778 stands 1 sp 2 at 34,10 facing 0\n"
	    "side crown \"Crown\"\n  commander \"Cornwallis\" army at 24,44\n"
	    "  brigade \"Guards\" commander \"O'Hara\" at 24,40\n"
	    "    unit \"Left Grasshopper (3-pdr)\" type light-artillery stands 1 sp 1 at 20,36 facing 180\n"
	    "    unit \"Right Grasshopper (3-pdr)\" type light-artillery stands 1 sp 1 at 28,36 facing 180\n";
	struct battle *b = NULL;
	struct orders_parser *p;
	struct orders_result *r = malloc(sizeof(*r));
	struct err e;
	int i;

	(void)state;
	assert_non_null(r);
	if (scenario_parse(sc, strlen(sc), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(p);
	orders_parse(p, b, 0, "Maryland: HOLD\nMaryalnd: HOLD\n", 0, r);
	assert_int_equal(r->nerrors, 2);
	assert_non_null(strstr(r->lines[0].text, "could be more than one"));
	for (i = 0; i < 6; i++) {
		char name[32];

		snprintf(name, sizeof(name), "\"%d%s Maryland\"", i + 1,
		    i == 0 ? "st" : i == 1 ? "nd" : i == 2 ? "rd" : "th");
		if (strstr(r->lines[0].text, name) == NULL ||
		    strstr(r->lines[1].text, name) == NULL)
			fail_msg("%s not listed: %s / %s", name, r->lines[0].text,
			    r->lines[1].text);
	}
	assert_non_null(strstr(r->lines[1].text, "each two letters off"));
	orders_parse(p, b, 1, "Grashopper: HOLD\n", 0, r);
	assert_string_equal(r->lines[0].text, "\"Grashopper\" could be more than "
	    "one unit, commander or brigade of yours, each a letter off: \"Left "
	    "Grasshopper (3-pdr)\" or \"Right Grasshopper (3-pdr)\"; write more "
	    "of the name");
	assert_int_equal(r->set.n, 0);
	orders_parser_free(p);
	battle_free(b);
	free(r);
}

/* A scenario's alias lines give a unit, a commander and a brigade another
 * name, read exactly as their own (no note), and canonical text keeps the
 * scenario's name. */
static void
a_scenario_alias_names_its_unit(void **state)
{
	static const char sc[] =
	    "scenario \"Aliases\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side continental \"Continental\"\n"
	    "  commander \"Brig. Gen. Daniel Morgan\" army at 24,2\n"
	    "  alias \"The Old Waggoner\"\n"
	    "  brigade \"Skirmish Line\" commander \"Maj. Joseph McDowell\" at 24,6\n"
	    "  alias \"The Rifles\"\n"
	    "    unit \"North Carolina Riflemen\" type trained-militia weapon rifle stands 2 sp 1 at 20,10 facing 0\n"
	    "    alias \"NC Rifles\"\n"
	    "    unit \"Georgia Riflemen\" type trained-militia weapon rifle stands 2 sp 1 at 30,10 facing 0\n"
	    "side crown \"Crown\"\n  commander \"Tarleton\" army at 24,44\n"
	    "  brigade \"Legion\" commander \"Ogilvie\" at 24,40\n"
	    "    unit \"British Legion Infantry\" type legion-infantry stands 2 sp 1 at 24,36 facing 180\n"
	    "    alias \"Green Dragoons\"\n";
	struct battle *b = NULL;
	struct orders_parser *p;
	struct orders_result *r = malloc(sizeof(*r));
	struct err e;

	(void)state;
	assert_non_null(r);
	if (scenario_parse(sc, strlen(sc), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(p);
	orders_parse(p, b, 0, "NC Rifles: FIRE AT Green Dragoons\n"
	    "Old Waggoner: MOVE TO 24,4\n", 0, r);
	assert_int_equal(r->nerrors, 0);
	assert_string_equal(r->lines[0].text, "North Carolina Riflemen: FIRE AT "
	    "British Legion Infantry");
	assert_string_equal(r->lines[1].text, "Brig. Gen. Daniel Morgan: MOVE TO 24,4");
	orders_parse(p, b, 0, "The Rifles: HOLD\n", 0, r);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(r->set.n, 2);
	/* An alias is measured for a near name like any other name. */
	orders_parse(p, b, 0, "NC Rifels: HOLD\n", 0, r);
	assert_string_equal(r->lines[0].text, "North Carolina Riflemen: HOLD   "
	    "(read \"NC Rifels\" as \"North Carolina Riflemen\")");
	orders_parser_free(p);
	battle_free(b);
	free(r);
}

/* A brigade line that some of its units cannot take says, for each unit
 * of the brigade, whether it holds and why (it used to name the first
 * such unit only, and leave another holding unmentioned). */
static void
a_brigade_line_refused_for_a_unit_reports_every_unit(void **state)
{
	struct fx *f = *state;

	/* Front Line: 7th Foot, Left Grasshopper, British Legion Infantry,
	 * Light Infantry Companies; line infantry and guns cannot skirmish. */
	orders_parse(f->p, f->b, 0, "Front Line: FORM SKIRMISH\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);
	assert_string_equal(f->r->lines[0].text, "Front Line (brigade): FORM "
	    "SKIRMISH, for British Legion Infantry, Light Infantry Companies; "
	    "7th Foot (Royal Fusiliers) and Left Grasshopper (3-pdr) hold: cannot "
	    "take skirmish order: only detachments, mounted stands and infantry "
	    "with the Skirmish ability (which breaks into detachments) can");
	/* A unit's own line read, another's refused: both told. */
	orders_parse(f->p, f->b, 0, "Front Line: FORM SKIRMISH\n7th: ADVNCE 2\n"
	    "Legion Inf: HOLD\n", 0, f->r);
	assert_string_equal(f->r->lines[0].text, "Front Line (brigade): FORM "
	    "SKIRMISH, for Light Infantry Companies; 7th Foot (Royal Fusiliers) "
	    "holds: its own line 2 could not be read; Left Grasshopper (3-pdr) "
	    "holds: cannot take skirmish order: only detachments, mounted stands "
	    "and infantry with the Skirmish ability (which breaks into "
	    "detachments) can; British Legion Infantry has its own order (line 3)");
	/* None can: the line is refused, each unit named. */
	orders_parse(f->p, f->b, 0, "Right Flank: FORM SKIRMISH\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	orders_parse(f->p, f->b, 0, "Reserve: FORM DISMOUNTED\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_int_equal(f->r->set.n, 0);
	assert_non_null(strstr(f->r->lines[0].text, "Reserve (brigade): FORM "
	    "DISMOUNTED, for no unit; "));
	assert_non_null(strstr(f->r->lines[0].text, "1st Bn 71st Highlanders"));
	assert_non_null(strstr(f->r->lines[0].text, "Ogilvie's Troop"));
	assert_non_null(strstr(f->r->lines[0].text, "British Legion Cavalry"));
}

/* The skirmish with Fog of War cards in hand. */
static struct battle *
with_cards(void)
{
	static const char extra[] =
	    "cards\n"
	    "hand crown \"Good Going\" \"Bad Going\" \"Panic!!!\" "
	    "\"God Save the King!\" \"Liberty or Death!\" \"Sharpshooters\"\n"
	    "hand continental \"Local Knowledge!\"\n"
	    "set cards.hand 6\n";
	char *text = malloc(sizeof(scen) + sizeof(extra));
	struct battle *b = NULL;
	struct err e;

	assert_non_null(text);
	strcpy(text, scen);
	strcat(text, extra);
	if (scenario_parse(text, strlen(text), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	free(text);
	return b;
}

/* The one line of body for side: its canonical text, or its error. */
static const char *
one_line(struct fx *f, const struct battle *b, int side, const char *body)
{
	orders_parse(f->p, b, side, body, 0, f->r);
	assert_true(f->r->nlines >= 1);
	return f->r->lines[f->r->nlines - 1].text;
}

static void
cards_are_played_by_name_start_or_number(void **state)
{
	struct fx *f = *state;
	struct battle *b = with_cards();
	struct orders_result *again = malloc(sizeof(*again));
	const char *t;

	assert_non_null(again);
	assert_string_equal(one_line(f, b, 0,
	    "PLAY CARD \"Good Going\" ON 7th Foot\n"),
	    "PLAY CARD \"Good Going\" ON 7th Foot (Royal Fusiliers)");
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->set.orders[0].special, VC_GOOD_GOING + 1);
	/* CARD may go, quotes too, curly quotes do; the start of a name
	 * is enough when it is the only card of the hand that starts so. */
	assert_string_equal(one_line(f, b, 0, "play bad going on Maryland\n"),
	    "PLAY CARD \"Bad Going\" ON Maryland Continentals");
	assert_string_equal(one_line(f, b, 0,
	    "PLAY \xe2\x80\x9cGod Save\xe2\x80\x9d ON 71st\n"),
	    "PLAY CARD \"God Save the King!\" ON 1st Bn 71st Highlanders");
	/* By its number in the hand, in deck order (the report's). */
	assert_string_equal(one_line(f, b, 0, "PLAY CARD 1 ON Morgan\n"),
	    "PLAY CARD \"Sharpshooters\" ON Morgan");
	assert_true(f->r->set.orders[0].is_commander);
	assert_string_equal(one_line(f, b, 0, "DISCARD CARD \"Liberty or "
	    "Death!\"\n"), "DISCARD CARD \"Liberty or Death!\"");
	assert_true(f->r->set.orders[0].special_arg);
	t = one_line(f, b, 1, "PLAY CARD \"Local Knowledge!\" AT 30,20.5\n");
	assert_string_equal(t, "PLAY CARD \"Local Knowledge!\" AT 30,20.5");
	/* The canonical text reads back as the same order. */
	orders_parse(f->p, b, 1, t, 0, again);
	assert_int_equal(again->nerrors, 0);
	assert_memory_equal(&again->set.orders[0].at, &f->r->set.orders[0].at,
	    sizeof(struct pt));
	/* A unit's own order after a card played on it replaces nothing. */
	orders_parse(f->p, b, 0, "PLAY CARD \"Good Going\" ON 7th\n"
	    "7th: ADVANCE 8\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 2);
	free(again);
	battle_free(b);
}

static void
a_card_that_cannot_be_played_says_why(void **state)
{
	struct fx *f = *state;
	struct battle *b = with_cards();

	assert_non_null(strstr(one_line(f, f->b, 0, "PLAY CARD \"Good Going\" "
	    "ON 7th\n"), "played without Fog of War cards"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Regulars!\" "
	    "ON 7th\n"), "does not hold \"Regulars!\""));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Regulars!\" "
	    "ON 7th\n"), "\"Good Going\""));   /* the hand is listed */
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Nonesuch\" "
	    "ON 7th\n"), "no card is called"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Liberty or Death!\" "
	    "ON 7th\n"), "is a rebel card"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Good Going\"\n"),
	    "ON UNIT"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Good Going\" ON "
	    "Maryland\n"), "is played on a unit of yours"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Bad Going\" ON "
	    "7th\n"), "is played on an enemy unit"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD 9 ON 7th\n"),
	    "no card 9"));
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Good Going\" ON "
	    "7th\nPLAY CARD \"Good Going\" ON 71st\n"), "holds 1"));
	assert_non_null(strstr(one_line(f, b, 0, "STANDING: PLAY CARD \"Good "
	    "Going\" ON 7th\n"), "standing order"));
	assert_non_null(strstr(one_line(f, b, 0, "DISCARD CARD \"Panic!!!\" ON "
	    "7th\n"), "only the card's name"));
	assert_non_null(strstr(one_line(f, b, 1, "PLAY CARD \"Local "
	    "Knowledge!\" ON Maryland\n"), "AT x,y"));
	/* The '!'s tell cards apart, and a card's whole name is that card:
	 * neither is taken for a card of the hand that it starts. */
	assert_non_null(strstr(one_line(f, b, 0, "PLAY CARD \"Liberty or "
	    "Death!!\" ON 7th\n"), "does not hold \"Liberty or Death!!\""));
	assert_non_null(strstr(one_line(f, b, 1, "PLAY CARD \"Local "
	    "Knowledge\" ON Maryland\n"), "does not hold \"Local Knowledge\""));
	/* A remark that starts as a card line does is a remark. */
	orders_parse(f->p, b, 0, "Discard my last mail, please.\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->nprose, 1);
	orders_parse(f->p, f->b, 0, "Play on, gentlemen.\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	/* Read again to be played, stored lines are taken as they are: the
	 * adjudicator says what came of a card no longer held. */
	orders_parser_replay(f->p, 1);
	orders_parse(f->p, b, 0, "PLAY CARD \"Good Going\" ON 7th\n"
	    "PLAY CARD \"Good Going\" ON 71st\nPLAY CARD \"Regulars!\" ON 7th\n",
	    0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 3);
	orders_parser_replay(f->p, 0);
	battle_free(b);
}

/* Past the fourth part a line holds, the rest is left out and the answer
 * says so; the first four stand. */
static void
parts_past_the_fourth_are_left_out_and_said(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: ADVANCE 1 THEN ADVANCE 2; ADVANCE 3 "
	    "THEN FACE 90 THEN ADVANCE 5\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.n, 1);
	assert_int_equal(f->r->set.orders[0].nsteps, 4);
	assert_int_equal(f->r->set.orders[0].steps[3].verb, V_FACE);
	assert_non_null(strstr(f->r->lines[0].text, "only the first 4 parts"));
	orders_parse(f->p, f->b, 0, "7th: ADVANCE 1 THEN FACE 90\n", 0, f->r);
	assert_null(strstr(f->r->lines[0].text, "only the first"));
	/* A brigade's line says so too. */
	orders_parse(f->p, f->b, 0, "1st brigade: ADVANCE 1 THEN ADVANCE 2 THEN "
	    "ADVANCE 3 THEN FACE 90 THEN ADVANCE 5\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->set.orders[0].nsteps, 4);
	assert_non_null(strstr(f->r->lines[0].text, "only the first 4 parts"));
}

/* A refused line says its unit holds only while no later line for the
 * unit is understood; then it points at that one. */
static void
a_refused_line_points_at_the_later_one_that_stands(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: ADVANCE far\n7th: FACE 90\n", 0,
	    f->r);
	assert_int_equal(f->r->nerrors, 1);
	assert_int_equal(f->r->set.n, 1);
	assert_null(strstr(f->r->lines[0].text, "holds"));
	assert_non_null(strstr(f->r->lines[0].text, "its order on line 2 "
	    "stands"));
	/* Every refusal before it, not only the first. */
	orders_parse(f->p, f->b, 0, "7th: ADVANCE far\n7th: DANCE\n"
	    "7th: FACE 90\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 2);
	assert_non_null(strstr(f->r->lines[0].text, "its order on line 3 "
	    "stands"));
	assert_non_null(strstr(f->r->lines[1].text, "its order on line 3 "
	    "stands"));
	orders_parse(f->p, f->b, 0, "7th: ADVANCE far\n71st: FACE 90\n", 0,
	    f->r);
	assert_non_null(strstr(f->r->lines[0].text, "so 7th Foot (Royal "
	    "Fusiliers) holds"));
}

static const char scen_bb7[] =
    "scenario \"Farm\"\nruleset bb7\ntable 48 x 48\n"
    "side crown \"Crown\"\n  commander \"Burgoyne\" army at 24,4\n"
    "  brigade \"Hamilton\" commander \"Hamilton\" at 24,8 quality 3\n"
    "    unit \"62nd Foot\" type british-regulars stands 2 sp 6 frontage 2.4 at 24,10 facing 0\n"
    "    unit \"Jones's guns\" type light-gun stands 2 sp 4 at 30,10 facing 0\n"
    "side continental \"Continental\"\n  commander \"Arnold\" army at 24,44\n"
    "  brigade \"Poor\" commander \"Poor\" at 24,40 quality 3\n"
    "    unit \"1st New Hampshire\" type regulars stands 2 sp 6 frontage 2.4 at 24,36 facing 180\n";

/* bb7 refuses, when the orders are read, what no table could allow:
 * guns charging, small arms counting dice or resupplying, a density
 * out of the unit's range; and answers another game's words with its
 * own. */
static void
bb7_refuses_what_no_table_allows(void **state)
{
	static const struct { const char *line, *says; } bad[] = {
		{ "Jones: CHARGE 1st New Hampshire", "guns do not charge" },
		{ "62nd: RESUPPLY", "RESUPPLY is for guns" },
		{ "62nd: DICE 2", "DICE is for guns" },
		{ "62nd: DENSITY 6", "from 3 to its formed 5" },
		{ "62nd: DENSITY 2", "from 3 to its formed 5" },
		{ "Jones: DENSITY 4", "guns have none" },
		{ "62nd: FIRE AT 1st New Hampshire", "did you mean SHOOT AT?" },
		{ "62nd: REFORM", "did you mean RALLY?" },
		{ "62nd: SHOOT AT 1st New Hampshire THEN DENSITY 9",
		    "from 3 to its formed 5" },
	};
	static const char *const good[] = {
		"Jones: DICE 2 THEN SHOOT AT 1st New Hampshire",
		"Jones: RESUPPLY",
		"62nd: DENSITY 3",
		"62nd: DENSITY 5",
		"62nd: CHARGE 1st New Hampshire",
	};
	struct battle *b = NULL;
	struct orders_parser *p;
	struct orders_result *r = malloc(sizeof(*r));
	struct err e;
	size_t i;

	(void)state;
	assert_non_null(r);
	if (scenario_parse(scen_bb7, strlen(scen_bb7), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	p = orders_parser_new(ruleset_find("bb7"), &e);
	assert_non_null(p);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		orders_parse(p, b, 0, bad[i].line, 0, r);
		if (r->nerrors != 1 || strstr(r->lines[0].text, bad[i].says) == NULL)
			fail_msg("'%s' gave '%s'", bad[i].line, r->nlines ?
			    r->lines[0].text : "(no line)");
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		orders_parse(p, b, 0, good[i], 0, r);
		if (r->nerrors != 0)
			fail_msg("'%s' refused: '%s'", good[i], r->lines[0].text);
	}
	/* Stored orders read again to be played are not refused: one an
	 * earlier build took is played (the adjudicator refuses it then)
	 * rather than stopping the turn. */
	orders_parser_replay(p, 1);
	orders_parse(p, b, 0, "62nd: DENSITY 9", 0, r);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(r->set.n, 1);
	orders_parser_replay(p, 0);
	orders_parser_free(p);
	battle_free(b);
	free(r);
}

static void
vnb_answers_bb7_words_with_its_own(void **state)
{
	struct fx *f = *state;

	orders_parse(f->p, f->b, 0, "7th: SHOOT AT Maryland\n", 0, f->r);
	assert_non_null(strstr(f->r->lines[0].text, "did you mean FIRE AT?"));
	orders_parse(f->p, f->b, 0, "7th: RALLY\n", 0, f->r);
	assert_non_null(strstr(f->r->lines[0].text, "did you mean REFORM?"));
}
/* A commander's surname alone stands level with a unit whose name
 * begins so: the answer asks which, rather than ordering the unit. */
static void
a_surname_shared_with_a_unit_is_asked_about(void **state)
{
	static const char sc[] =
	    "scenario \"Farm\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side continental \"Continental\"\n"
	    "  commander \"Maj. Gen. Benedict Arnold\" army at 24,2\n"
	    "  brigade \"Morgan's corps\" commander \"Col. Daniel Morgan\" at 24,6\n"
	    "    unit \"Morgan's Riflemen\" type continentals-post-1778 stands 2 sp 2 at 20,10 facing 0\n"
	    "    unit \"Dearborn's Light Infantry\" type continentals-post-1778 stands 2 sp 2 at 30,10 facing 0\n"
	    "side crown \"Crown\"\n  commander \"Burgoyne\" army at 24,44\n"
	    "  brigade \"Hamilton\" commander \"Hamilton\" at 24,40\n"
	    "    unit \"62nd Foot\" type british-line stands 2 sp 3 at 24,36 facing 180\n";
	struct battle *b = NULL;
	struct orders_parser *p;
	struct orders_result *r = malloc(sizeof(*r));
	struct err e;

	(void)state;
	assert_non_null(r);
	if (scenario_parse(sc, strlen(sc), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(p);
	orders_parse(p, b, 0, "Morgan: MOVE TO 30,12\n", 0, r);
	assert_int_equal(r->nerrors, 1);
	assert_non_null(strstr(r->lines[0].text, "could be more than one"));
	assert_non_null(strstr(r->lines[0].text, "\"Morgan's Riflemen\""));
	assert_non_null(strstr(r->lines[0].text, "\"Col. Daniel Morgan\""));
	orders_parse(p, b, 0, "Col. Morgan: MOVE TO 30,12\nMorgan's Riflemen: "
	    "ADVANCE 2\nArnold: MOVE TO 20,4\n", 0, r);
	assert_int_equal(r->nerrors, 0);
	assert_int_equal(r->set.n, 3);
	assert_true(r->set.orders[0].is_commander);
	assert_false(r->set.orders[1].is_commander);
	assert_true(r->set.orders[2].is_commander);
	orders_parser_free(p);
	battle_free(b);
	free(r);
}

/* args.c reads a distance, a point, a wheel and a bearing by hand: each
 * must answer as its PCRE2 pattern does, groups and all, for every text
 * of a few thousand built from the bytes that matter to them (digits,
 * '.', ',', white space, the letters of the unit words, a long s). */
static void
argument_scanners_answer_as_their_patterns(void **state)
{
	static const char *const bits[] = { "0", "1", "4", "9", ".", ",", " ",
	    "\t", "\n", "\r", "\v", "\"", "in", "inch", "inches", "INCHE",
	    "\xc5\xbf", "\xc5", "deg", "DEGREE", "degrees", "left", "RIGHT",
	    "LeFt", "x", ".0", "00", "12", "123", "1234", "12345", "3,4",
	    " , ", "left 9", "1.5" };
	struct fx *f = *state;
	struct orders_parser *p = f->p;
	pcre2_code *const res[] = { p->dist, p->point, p->turn, p->bearing };
	uint32_t seed = 24;
	int n, r, hits[4] = { 0, 0, 0, 0 };

	for (n = 0; n < 200000; n++) {
		char s[64];
		size_t len = 0, g[4];
		int parts = 1 + (int)(seed % 5), k;

		for (k = 0; k < parts; k++) {
			const char *b;
			size_t bl;

			seed = seed * 1103515245u + 12345u;
			b = bits[(seed >> 16) % (sizeof(bits) / sizeof(bits[0]))];
			bl = strlen(b);
			memcpy(s + len, b, bl);
			len += bl;
		}
		s[len] = '\0';
		for (r = 0; r < 4; r++) {
			int want = orders_match(p, res[r], s, len, 0), got;
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);

			switch (r) {
			case 0:
				got = orders_scan_dist(s, len, g);
				break;
			case 1:
				got = orders_scan_point(s, len, g);
				break;
			case 2:
				got = orders_scan_turn(s, len, g);
				break;
			default:
				got = orders_scan_bearing(s, len);
				break;
			}
			hits[r] += want;
			if (got != want)
				fail_msg("pattern %d on \"%s\": %d, scanner %d", r, s,
				    want, got);
			if (want && r < 3 && (g[0] != ov[2] || g[1] != ov[3]))
				fail_msg("pattern %d on \"%s\": group 1", r, s);
			if (want && (r == 1 || r == 2) && (g[2] != ov[4] ||
			    g[3] != ov[5]))
				fail_msg("pattern %d on \"%s\": group 2", r, s);
		}
	}
	/* Texts each pattern takes were among them, not only refusals. */
	for (r = 0; r < 4; r++) {
		print_message("pattern %d matched %d texts\n", r, hits[r]);
		assert_true(hits[r] > 200);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(names_resolve_by_prefix_and_part, setup, teardown),
		cmocka_unit_test_setup_teardown(ambiguous_name_lists_the_candidates, setup, teardown),
		cmocka_unit_test_setup_teardown(misspelt_name_gets_the_nearest_suggestion, setup, teardown),
		cmocka_unit_test_setup_teardown(enemy_and_own_units_are_kept_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_arguments_say_what_would_be_right, setup, teardown),
		cmocka_unit_test_setup_teardown(face_takes_0_to_359_and_refuses_360, setup, teardown),
		cmocka_unit_test_setup_teardown(quotes_comments_and_signature_are_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(names_match_at_word_starts_and_fold_quotes, setup, teardown),
		cmocka_unit_test_setup_teardown(quoted_earlier_mail_ends_the_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(cavalry_forms_mounted, setup, teardown),
		cmocka_unit_test_setup_teardown(a_later_line_for_a_unit_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(a_unit_whose_line_fails_holds_not_the_brigade_order, setup, teardown),
		cmocka_unit_test_setup_teardown(canonical_text_parses_to_the_same_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(dismounted_horse_mounts_in_canonical_text, setup, teardown),
		cmocka_unit_test_setup_teardown(corpus_never_crashes, setup, teardown),
		cmocka_unit_test_setup_teardown(prose_around_orders_is_not_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(misspelt_verb_gets_a_suggestion, setup, teardown),
		cmocka_unit_test_setup_teardown(abbreviations_and_word_starts_name_units, setup, teardown),
		cmocka_unit_test_setup_teardown(brigade_orders_reach_each_unit_and_yield_to_its_own, setup, teardown),
		cmocka_unit_test_setup_teardown(standing_orders_are_read_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(a_one_letter_slip_is_taken_and_said, setup, teardown),
		cmocka_unit_test_setup_teardown(review_findings_on_limits_and_repeats, setup, teardown),
		cmocka_unit_test_setup_teardown(headings_and_bar_quotes_do_not_end_or_enter_the_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(resolving_without_a_message_gives_the_same_answer, setup, teardown),
		cmocka_unit_test(edit_distance_agrees_with_the_table),
		cmocka_unit_test_setup_teardown(parts_past_the_fourth_are_left_out_and_said, setup, teardown),
		cmocka_unit_test_setup_teardown(a_refused_line_points_at_the_later_one_that_stands, setup, teardown),
		cmocka_unit_test(bb7_refuses_what_no_table_allows),
		cmocka_unit_test(a_surname_shared_with_a_unit_is_asked_about),
		cmocka_unit_test_setup_teardown(vnb_answers_bb7_words_with_its_own, setup, teardown),
		cmocka_unit_test_setup_teardown(cards_are_played_by_name_start_or_number, setup, teardown),
		cmocka_unit_test_setup_teardown(a_card_that_cannot_be_played_says_why, setup, teardown),
		cmocka_unit_test(names_are_normalised_before_they_are_matched),
		cmocka_unit_test_setup_teardown(client_spaces_dashes_and_wide_letters_name_units_exactly, setup_cowpens, teardown),
		cmocka_unit_test_setup_teardown(a_near_name_is_taken_and_said, setup_cowpens, teardown),
		cmocka_unit_test_setup_teardown(the_limit_grows_with_the_name_and_suggestions_reach_twice_it, setup_cowpens, teardown),
		cmocka_unit_test_setup_teardown(argument_scanners_answer_as_their_patterns, setup, teardown),
		cmocka_unit_test(ties_are_refused_with_every_candidate_listed),
		cmocka_unit_test(a_scenario_alias_names_its_unit),
		cmocka_unit_test_setup_teardown(a_brigade_line_refused_for_a_unit_reports_every_unit, setup_cowpens, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
