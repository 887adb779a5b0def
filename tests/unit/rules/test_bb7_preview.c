/*
 * test_bb7_preview.c - what the bb7 order reply warns of (bb7_preview.c,
 * docs/rules-bb7.md "What the order reply warns of"): each warning when
 * its case arises and not when it does not, measured from where the unit
 * would be after the earlier parts of its line; and the copy the reply's
 * map is drawn from, with the ordered moves played.
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
#include "rules/bb7.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

/* North is up (bearing 0); the crown faces south at y 60, the
 * continentals north.  The 1st New Hampshire stands 48" south of the
 * 62nd: the trial player's shot. */
static const char scen[] =
    "scenario \"Preview\"\nruleset bb7\ntable 72 x 72\nturns 4\n"
    "sequence alternate crown continental\n"
    "terrain forest \"Thicket\" poly 60,30 72,30 72,46 60,46\n"
    "side crown \"Crown\"\n"
    "  commander \"Burgoyne\" army at 70,70 quality 3\n"
    "  brigade \"Hamilton\" commander \"Hamilton\" at 20,64 quality 3\n"
    "    unit \"62nd Foot\" type british-regulars stands 4 sp 5 frontage 2.4 "
    "at 20,60 facing 180 line\n"
    "    unit \"Jones's guns\" type light-gun stands 2 sp 4 frontage 1.6 "
    "at 36,60 facing 180 unlimbered\n"
    "    unit \"Pausch's guns\" type heavy-gun stands 1 sp 4 frontage 1.6 "
    "at 46,60 facing 180 unlimbered\n"
    "    unit \"17th Dragoons\" type dragoons stands 2 sp 4 frontage 2.4 "
    "at 56,60 facing 180 line\n"
    "side continental \"Continental\"\n"
    "  commander \"Arnold\" army at 36,2 quality 4\n"
    "  brigade \"Morgan\" commander \"Morgan\" at 36,6 quality 4\n"
    "    unit \"1st New Hampshire\" type regulars stands 4 sp 6 frontage 2.4 "
    "at 20,12 facing 0 line\n"
    "    unit \"Riflemen\" type riflemen stands 4 sp 3 frontage 2.4 "
    "at 32,54 facing 0 dispersed\n"
    "    unit \"3rd New Hampshire\" type regulars stands 4 sp 6 frontage 2.4 "
    "at 66,24 facing 0 line\n";

static struct battle *
load(void)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse(scen, strlen(scen), "test", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

/* The crown's orders `text`, as the parser reads them. */
static struct orders_result *
parse(const struct battle *b, const char *text)
{
	const struct ruleset *rs = ruleset_find("bb7");
	struct orders_result *res = calloc(1, sizeof(*res));
	struct orders_parser *op;
	struct err e;
	int i;

	assert_non_null(res);
	op = orders_parser_new(rs, &e);
	assert_non_null(op);
	orders_parse(op, b, 0, text, 0, res);
	for (i = 0; i < res->nlines; i++)
		if (res->nerrors > 0)
			fail_msg("line %d: %s", res->lines[i].line, res->lines[i].text);
	orders_parser_free(op);
	return res;
}

/* The warnings for the crown's orders `text` (through the ruleset's
 * table, as the referee calls them); how many. */
static int
warnings(const struct battle *b, const char *text, char *out, size_t size)
{
	const struct ruleset *rs = ruleset_find("bb7");
	struct orders_result *res = parse(b, text);
	int n;

	assert_non_null(rs->preview);
	n = rs->preview(b, 1, 1, &res->set, out, size);
	free(res);
	return n;
}

/* Asserts that the warnings for `text` hold `want` (NULL: that there
 * are none), and that every line of them is under 80 columns. */
static void
expect(const struct battle *b, const char *text, const char *want)
{
	char out[8192], flat[8192];
	const char *p;
	int n = warnings(b, text, out, sizeof(out));
	size_t i, k = 0;

	if (getenv("PREVIEW_SHOW") != NULL)
		printf("--- %s%s", text, out);
	if (want == NULL) {
		if (n != 0 || out[0] != '\0')
			fail_msg("\"%s\" warned:\n%s", text, out);
		return;
	}
	/* The text as one line: a wrap is a space. */
	for (i = 0; out[i] != '\0'; i++) {
		if (strncmp(out + i, "\n    ", 5) == 0) {
			flat[k++] = ' ';
			i += 4;
		} else {
			flat[k++] = out[i];
		}
	}
	flat[k] = '\0';
	if (n == 0 || strstr(flat, want) == NULL)
		fail_msg("\"%s\" should warn \"%s\"; it said:\n%s", text, want, out);
	for (p = out; *p != '\0'; ) {
		size_t len = strcspn(p, "\n");

		if (len >= 80)
			fail_msg("a line of %zu columns:\n%s", len, out);
		p += len + (p[len] == '\n');
	}
}

/* Asserts that the warnings for `text` do not hold `bad`. */
static void
expect_not(const struct battle *b, const char *text, const char *bad)
{
	char out[8192];

	warnings(b, text, out, sizeof(out));
	if (strstr(out, bad) != NULL)
		fail_msg("\"%s\" should not warn \"%s\"; it said:\n%s", text, bad,
		    out);
}

static int
unit(const struct battle *b, const char *name)
{
	int u = battle_find_unit(b, name);

	assert_true(u >= 0);
	return u;
}

/* Moves unit u's bases so that its centre is at x,y. */
static void
place(struct battle *b, int u, fx x, fx y)
{
	struct pt c;
	int s;

	assert_true(battle_unit_centre(b, u, &c));
	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++) {
		b->stands[s].pos.x += x - c.x;
		b->stands[s].pos.y += y - c.y;
	}
}

/* The trial player's regiment: a shot at a target 46.5" off is told,
 * with the distance and the musket's range, and that the unit risks its
 * activation for nothing; a shot in range is not. */
static void
shot_beyond_range_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: SHOOT AT 1st New Hampshire\n", "62nd Foot would be "
	    "46.5\" from 1st New Hampshire, beyond its longest range (12\", "
	    "musket)");
	expect(b, "62nd: SHOOT AT 1st New Hampshire\n", "nothing 62nd Foot is "
	    "ordered to do could be done");
	expect(b, "62nd: SHOOT AT 1st New Hampshire\n", "HOLD spares it");
	/* Told once, though the line shoots twice. */
	{
		char out[4096];

		warnings(b, "62nd: SHOOT AT 1st New Hampshire THEN SHOOT AT 1st "
		    "New Hampshire\n", out, sizeof(out));
		assert_non_null(strstr(out, "beyond its longest"));
		assert_null(strstr(strstr(out, "beyond its longest") + 1,
		    "beyond its longest"));
	}
	expect(b, "62nd: FACE 122 THEN SHOOT AT Riflemen\n", NULL);
	/* Guns reach far: Jones's light guns roundshot 96". */
	expect(b, "Jones: SHOOT AT 1st New Hampshire\n", NULL);
	battle_free(b);
}

/* The range is measured from where the earlier parts would leave the
 * unit: within 12" now (shot_beyond_range_is_told), beyond once it has
 * marched off north-west. */
static void
shot_is_measured_after_the_moves_before_it(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: MOVE TO 14,64 THEN FACE 122 THEN SHOOT AT Riflemen\n",
	    "beyond its longest range (12\", musket)");
	expect(b, "62nd: MOVE TO 14,64 THEN FACE 122 THEN SHOOT AT Riflemen\n",
	    "62nd Foot would be 15.21\" from Riflemen");
	battle_free(b);
}

/* A target outside 45 degrees of the front is told, with the facing
 * and the bearing; a FACE first puts it in front. */
static void
shot_out_of_front_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: SHOOT AT Riflemen\n", "62nd Foot would face 180 and "
	    "Riflemen would lie at a bearing of 116, not within 45 degrees of its "
	    "front");
	expect(b, "62nd: WHEEL LEFT 64 THEN SHOOT AT Riflemen\n", NULL);
	battle_free(b);
}

/* 16" of heavy woods between the guns and their target hide it; 1.5"
 * of them do not. */
static void
shot_unseen_for_the_woods_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "Jones: SHOOT AT 3rd New Hampshire\n", NULL);
	place(b, unit(b, "Jones's guns"), FX(66), FX(50));
	expect(b, "Jones: SHOOT AT 3rd New Hampshire\n", "Jones's guns would not "
	    "see 3rd New Hampshire: more than 6\" of woods lie between them");
	battle_free(b);
}

/* Limbered guns do not shoot. */
static void
shot_of_limbered_guns_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "Jones: FORM LIMBERED THEN SHOOT AT 1st New Hampshire\n",
	    "limbered guns cannot shoot");
	expect(b, "Jones: FORM LIMBERED THEN FORM UNLIMBERED THEN SHOOT AT "
	    "1st New Hampshire\n", NULL);
	battle_free(b);
}

/* A further SHOOT rolls the first shot's misses again, at the first
 * target, whatever it names. */
static void
further_shot_at_another_target_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: FACE 122 THEN SHOOT AT Riflemen THEN SHOOT AT 1st New "
	    "Hampshire\n", "a further SHOOT rolls again the dice of 62nd Foot's "
	    "first shot that missed, at Riflemen: it does not shoot at 1st New "
	    "Hampshire");
	expect(b, "62nd: FACE 122 THEN SHOOT AT Riflemen THEN SHOOT AT "
	    "Riflemen\n", NULL);
	battle_free(b);
}

/* A charge one move cannot bring home is told with the gap and the
 * move; one that reaches is not. */
static void
charge_out_of_reach_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: CHARGE 1st New Hampshire\n", "62nd Foot would be 46.5\" "
	    "from 1st New Hampshire, and one move action takes it at most 7\" "
	    "(infantry at density 5: 12\" less its density): the charge would "
	    "fall short");
	/* Cavalry: the most its dice give, 12" with woods on the way. */
	expect(b, "17th: CHARGE 3rd New Hampshire\n", "farther than its dice "
	    "could take it (two d12, at most 12\" with woods on the way)");
	/* Riflemen charged by a formed unit one move could reach evade
	 * first: nothing to tell. */
	expect_not(b, "17th: CHARGE Riflemen\n", "fall short");
	place(b, unit(b, "1st New Hampshire"), FX(20), FX(54));
	expect(b, "62nd: CHARGE 1st New Hampshire\n", NULL);
	/* Near enough, but a friend stands in the way. */
	place(b, unit(b, "Jones's guns"), FX(20), FX(56.5));
	expect(b, "62nd: CHARGE 1st New Hampshire\n", "62nd Foot's charge at 1st "
	    "New Hampshire would be stopped short by Jones's guns");
	battle_free(b);
}

/* Guns do not charge (the parser refuses it since; the preview still
 * says so of a set built by hand). */
static void
charge_by_guns_is_told(void **state)
{
	const struct ruleset *rs = ruleset_find("bb7");
	struct battle *b = load();
	struct order_set *set = calloc(1, sizeof(*set));
	char out[2048];

	(void)state;
	assert_non_null(set);
	set->side = 0;
	set->n = 1;
	set->orders[0].who = unit(b, "Jones's guns");
	set->orders[0].line = 3;
	set->orders[0].nsteps = 1;
	set->orders[0].steps[0].verb = V_CHARGE;
	set->orders[0].steps[0].target = unit(b, "Riflemen");
	assert_true(rs->preview(b, 1, 1, set, out, sizeof(out)) > 0);
	assert_non_null(strstr(out, "  line 3: Jones's guns cannot charge "
	    "Riflemen: guns do not charge."));
	place(b, unit(b, "1st New Hampshire"), FX(20), FX(54));
	set->orders[0].who = unit(b, "62nd Foot");
	set->orders[0].steps[0].target = unit(b, "1st New Hampshire");
	assert_int_equal(rs->preview(b, 1, 1, set, out, sizeof(out)), 0);
	free(set);
	battle_free(b);
}

/* A move farther than one move action: how far one goes, by kind,
 * formation and density, woods taken off; cavalry's dice. */
static void
move_too_far_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: ADVANCE 10\n", "62nd Foot is ordered to move 10\" but "
	    "one move action takes it at most 7\" (infantry at density 5: 12\" "
	    "less its density)");
	expect(b, "62nd: ADVANCE 7\n", NULL);
	expect(b, "62nd: FORM COLUMN THEN ADVANCE 12\n", NULL);
	expect(b, "62nd: FORM COLUMN THEN ADVANCE 13\n", "at most 12\" "
	    "(infantry in column: 12\")");
	expect(b, "Jones: ADVANCE 6.5\n", "at most 6\" (unlimbered light guns: "
	    "6\", once a turn)");
	expect(b, "Jones: ADVANCE 3 THEN ADVANCE 3\n", "Jones's guns cannot move "
	    "again this phase: unlimbered guns move once a turn");
	expect(b, "Pausch: ADVANCE 3\n", "unlimbered heavy guns cannot be "
	    "moved");
	expect(b, "17th: MOVE TO 56,20\n", "17th Dragoons is ordered to move "
	    "40\", farther than its dice can take it");
	expect(b, "17th: MOVE TO 56,20\n", "at most 24\".");
	expect(b, "17th: MOVE TO 70,60\n", NULL);
	/* Heavy woods ahead take 3". */
	place(b, unit(b, "62nd Foot"), FX(66), FX(50));
	expect(b, "62nd: ADVANCE 7\n", "at most 4\" (infantry at density 5: "
	    "12\" less its density, less 3\" for the woods on the way)");
	/* Out of command before and after: it is told all the same. */
	expect(b, "62nd: ADVANCE 7\n", "next phase it would still activate on "
	    "its own quality, 4 or less.");
	battle_free(b);
}

/* RALLY with no disruption points wastes the action. */
static void
rally_without_disruption_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: RALLY\n", "62nd Foot has no disruption points: RALLY "
	    "would waste an action");
	expect(b, "62nd: RALLY\n", "HOLD spares it");
	expect_not(b, "62nd: RALLY THEN ADVANCE 1\n", "HOLD spares it");
	b->units[unit(b, "62nd Foot")].state[B7_DISRUPTION] = 1;
	expect(b, "62nd: RALLY\n", NULL);
	/* The second takes off nothing. */
	expect(b, "62nd: RALLY THEN RALLY\n", "no disruption points");
	battle_free(b);
}

/* RESUPPLY with no gun low does nothing (a lone gun wastes its
 * action on it). */
static void
resupply_with_nothing_low_is_told(void **state)
{
	struct battle *b = load();
	int g = b->units[unit(b, "Jones's guns")].first_stand;

	(void)state;
	expect(b, "Jones: RESUPPLY\n", "no gun of Jones's guns is low on "
	    "ammunition: RESUPPLY would do nothing.");
	expect(b, "Pausch: RESUPPLY\n", "RESUPPLY would do nothing and waste an "
	    "action");
	b->stands[g + 1].flags |= ST_LOW_CANISTER;
	expect(b, "Jones: RESUPPLY\n", NULL);
	battle_free(b);
}

/* A unit whose moves take it beyond 18" of every commander of its
 * chain is told it would activate on its quality alone; the edge of
 * the radius is still in command. */
static void
leaving_command_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: ADVANCE 7 THEN ADVANCE 7 THEN ADVANCE 7\n", "after the "
	    "moves ordered 62nd Foot would be 25\" from Hamilton, the nearest "
	    "commander of its chain (command reaches 18\"): next phase it would "
	    "activate on its own quality, 4 or less, not on 7 as now with "
	    "Hamilton.");
	expect(b, "62nd: ADVANCE 7 THEN ADVANCE 7\n", NULL);
	/* His ride, in a later line, counts too. */
	expect(b, "62nd: ADVANCE 1\nHamilton: MOVE TO 44,64\n", "62nd Foot would "
	    "be 24.");
	expect(b, "62nd: ADVANCE 1\nHamilton: MOVE TO 30,64\n", NULL);
	/* No commander of its chain left at all. */
	b->commanders[battle_find_commander(b, "Hamilton")].gone = 1;
	b->commanders[battle_find_commander(b, "Burgoyne")].gone = 1;
	expect(b, "62nd: ADVANCE 1\n", "no commander of 62nd Foot's chain is "
	    "left: next phase it would activate on its own quality, 4 or less.");
	battle_free(b);
}

/* A commander rides at most 24" a phase. */
static void
ride_too_far_is_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "Hamilton: MOVE TO 20,30\n", "Hamilton is ordered to ride 34\" "
	    "but a commander rides at most 24\" a phase: he would stop at "
	    "20,40.");
	expect(b, "Hamilton: MOVE TO 20,40\n", NULL);
	battle_free(b);
}

/* No hand buys more than three actions, and a unit with disruption
 * points has a smaller hand: the parts beyond are told. */
static void
parts_beyond_the_hand_are_told(void **state)
{
	struct battle *b = load();

	(void)state;
	expect(b, "62nd: ADVANCE 1 THEN ADVANCE 1 THEN ADVANCE 1 THEN ADVANCE 1\n",
	    "62nd Foot can earn at most 3 actions (6 successes buy three, and no "
	    "hand buys more): part 4 (ADVANCE) can never be done.");
	expect(b, "62nd: ADVANCE 1 THEN ADVANCE 1 THEN ADVANCE 1\n", NULL);
	/* NO PURSUIT costs nothing. */
	expect(b, "62nd: ADVANCE 1 THEN ADVANCE 1 THEN NO PURSUIT THEN CHARGE "
	    "Riflemen\n", NULL);
	b->units[unit(b, "62nd Foot")].state[B7_DISRUPTION] = 1;
	expect(b, "62nd: ADVANCE 1 THEN ADVANCE 1 THEN ADVANCE 1\n", "62nd Foot "
	    "can earn at most 2 actions: its hand is 5 d12 (6, one fewer for its 1 "
	    "disruption point), and 3 actions need 6 successes. Part 3 "
	    "(ADVANCE) can never be done.");
	expect(b, "62nd: ADVANCE 1 THEN ADVANCE 1\n", NULL);
	/* A HOLD anywhere in the line: the unit does not activate. */
	expect(b, "62nd: ADVANCE 1 THEN HOLD\n", "HOLD in 62nd Foot's line "
	    "means it does not activate");
	expect(b, "62nd: HOLD\n", NULL);
	battle_free(b);
}

/* The reply's map: the copy has the ordered moves played, as far as the
 * parts that can be done take them; the table itself is not changed. */
static void
preview_battle_plays_the_ordered_moves(void **state)
{
	const struct ruleset *rs = ruleset_find("bb7");
	struct battle *b = load(), *nb;
	struct orders_result *res;
	int u = unit(b, "62nd Foot"), k = battle_find_commander(b, "Hamilton");
	struct pt c;

	(void)state;
	assert_non_null(rs->preview_battle);
	res = parse(b, "62nd: ADVANCE 7\nHamilton: MOVE TO 20,50\n");
	nb = rs->preview_battle(b, &res->set);
	assert_non_null(nb);
	assert_true(battle_unit_centre(nb, u, &c));
	assert_int_equal(c.x, FX(20));
	assert_int_equal(c.y, FX(53));
	assert_int_equal(nb->commanders[k].pos.y, FX(50));
	assert_true(battle_unit_centre(b, u, &c));
	assert_int_equal(c.y, FX(60));
	assert_int_equal(b->commanders[k].pos.y, FX(64));
	free(nb);
	free(res);
	res = parse(b, "62nd: ADVANCE 1 THEN ADVANCE 1 THEN ADVANCE 1 THEN "
	    "ADVANCE 1\n");
	nb = rs->preview_battle(b, &res->set);
	assert_non_null(nb);
	assert_true(battle_unit_centre(nb, u, &c));
	assert_int_equal(c.y, FX(57));
	free(nb);
	free(res);
	battle_free(b);
}
/* Turns every stand of unit u to face bearing f where it stands. */
static void
face_all(struct battle *b, int u, int f)
{
	int s;

	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++)
		b->stands[s].facing = f;
}

/* A unit's situation in its side's report names the nearest enemy it
 * sees, how far, and whether it could shoot at it as things stand. */
static void
situation_names_the_nearest_enemy(void **state)
{
	const struct ruleset *rs = ruleset_find("bb7");
	struct battle *b = load();
	unsigned char seen[BATTLE_MAX_STANDS];
	char out[1024];

	(void)state;
	assert_non_null(rs->words->situation);
	/* The riflemen lie off the 62nd's right front: in range, not in
	 * its arc. */
	rs->words->situation(b, unit(b, "62nd Foot"), NULL, out, sizeof(out));
	assert_non_null(strstr(out, "nearest enemy in sight: Riflemen,"));
	assert_non_null(strstr(out, "in range but not in front of it"));
	/* The 3rd New Hampshire's nearest is 36" off. */
	rs->words->situation(b, unit(b, "3rd New Hampshire"), NULL, out, sizeof(out));
	assert_non_null(strstr(out, "out of range (its musket reaches 12\")"));
	/* Turned to face them, the 62nd could shoot. */
	face_all(b, unit(b, "62nd Foot"), 120);
	rs->words->situation(b, unit(b, "62nd Foot"), NULL, out, sizeof(out));
	assert_non_null(strstr(out, "Riflemen,"));
	assert_non_null(strstr(out, "\n        in range\n"));
	/* In a fog game the distance is to the stands the side sees: with
	 * only the riflemen's farthest base in sight, farther than to the
	 * nearest (which it must not give away). */
	{
		char all[1024];
		int r = unit(b, "Riflemen");

		memset(seen, 0, sizeof(seen));
		seen[b->units[r].first_stand + b->units[r].nstands - 1] = 1;
		rs->words->situation(b, unit(b, "62nd Foot"), NULL, all, sizeof(all));
		rs->words->situation(b, unit(b, "62nd Foot"), seen, out, sizeof(out));
		double d_all = 0, d_seen = 0;

		assert_non_null(strstr(out, "Riflemen,"));
		assert_int_equal(sscanf(strstr(all, "Riflemen,"), "Riflemen, %lf",
		    &d_all), 1);
		assert_int_equal(sscanf(strstr(out, "Riflemen,"), "Riflemen, %lf",
		    &d_seen), 1);
		assert_true(d_seen > d_all + 1);
	}
	/* Seeing nothing of the enemy, it says so. */
	memset(seen, 0, sizeof(seen));
	rs->words->situation(b, unit(b, "62nd Foot"), seen, out, sizeof(out));
	assert_non_null(strstr(out, "no enemy in sight"));
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shot_beyond_range_is_told),
		cmocka_unit_test(shot_is_measured_after_the_moves_before_it),
		cmocka_unit_test(shot_out_of_front_is_told),
		cmocka_unit_test(shot_unseen_for_the_woods_is_told),
		cmocka_unit_test(shot_of_limbered_guns_is_told),
		cmocka_unit_test(further_shot_at_another_target_is_told),
		cmocka_unit_test(charge_out_of_reach_is_told),
		cmocka_unit_test(charge_by_guns_is_told),
		cmocka_unit_test(move_too_far_is_told),
		cmocka_unit_test(rally_without_disruption_is_told),
		cmocka_unit_test(resupply_with_nothing_low_is_told),
		cmocka_unit_test(leaving_command_is_told),
		cmocka_unit_test(ride_too_far_is_told),
		cmocka_unit_test(parts_beyond_the_hand_are_told),
		cmocka_unit_test(preview_battle_plays_the_ordered_moves),
		cmocka_unit_test(situation_names_the_nearest_enemy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
