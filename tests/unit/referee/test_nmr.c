/*
 * test_nmr.c - phases without orders: a player's count of phases missed
 * in a row starts again at the first orders they send, the notice goes
 * out at the configured run of misses and once; and in an alternating
 * game a side's standing orders stand in for its own phases only, never
 * played nor committed to the ledger in the other side's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/referee.h"
#include "referee/internal.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

/* The skirmish made long enough for five phases of each side: a run of
 * misses broken by orders needs more of them than the fixture's two. */
static const char long_scenario[] =
    "scenario \"The Long Skirmish\"\n"
    "ruleset vnb-wing\n"
    "table 48 x 48\n"
    "turns 5\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 24,8\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,34\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,30 facing 180\n";

/* The fixture's folder and players, the game the long skirmish. */
static int
setup_long(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[400], secret[REFEREE_SECRET_MAX];
	struct err e;
	FILE *fp;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/despatch-test-nmr-%d",
	    (int)getpid());
	mkdir(f->dir, 0700);
	snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
	unlink(f->db);
	snprintf(path, sizeof(path), "%s/long.scenario", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(long_scenario, fp);
	fclose(fp);
	if (store_open(f->db, 1, -1, &f->st, &e) != 0)
		fail_msg("%s", e.msg);
	referee_init(&f->r, f->st);
	f->r.fixed_now = 1700000000;
	if (referee_new_game(&f->r, "long", path, 0, NULL, &e) != 0 ||
	    referee_player_add(&f->r, "long", "crown", "howe@crown.example.org",
	    "red-coat-secret", NULL, secret, &e) != 0 ||
	    referee_player_add(&f->r, "long", "continental",
	    "greene@cont.example.org", "blue-coat-secret", NULL, secret, &e) != 0)
		fail_msg("%s", e.msg);
	*state = f;
	return 0;
}

static void
set(struct fx *f, const char *game, const char *key, const char *value)
{
	struct err e;

	if (referee_setting_set(&f->r, game, key, value, &e) != 0)
		fail_msg("%s", e.msg);
}

static int64_t
crown_nmr(struct fx *f)
{
	return q(f, "SELECT nmr_count FROM players WHERE side_idx = 0");
}

/* Notices that side crown sent no orders, to anyone. */
static int64_t
crown_notices(struct fx *f)
{
	return q(f, "SELECT count(*) FROM outbox WHERE subject LIKE "
	    "'%Side crown has sent no orders%'");
}


static void
start_game(struct fx *f, const char *game)
{
	struct err e;

	if (referee_start(&f->r, game, &e) != 0)
		fail_msg("%s", e.msg);
}

/* The count is of misses in a row: orders in between start it again, so
 * miss, send, miss is one, not two; with an nmr-limit of 2 the notice
 * waits for the second miss in a row, and goes once. */
static void
orders_start_the_nmr_count_again(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m;

	set(f, "long", "nmr-limit", "2");
	set(f, "long", "operator", "umpire@club.example");
	start_game(f, "long");
	/* Turn 1: the crown misses its phase. */
	play(f, "long", 1);
	assert_int_equal(crown_nmr(f), 1);
	assert_int_equal(crown_notices(f), 0);
	play(f, "long", 2);
	/* Turn 2: it sends orders, and its run of misses is over. */
	m = mail("n2@crown.example.org", "howe@crown.example.org",
	    "GAME long SIDE crown TURN 2 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: HOLD\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	play(f, "long", 3);
	assert_int_equal(crown_nmr(f), 0);
	play(f, "long", 4);
	/* Turn 3: a miss again, the first of a new run, which two misses
	 * in all must not make the limit. */
	play(f, "long", 5);
	assert_int_equal(crown_nmr(f), 1);
	assert_int_equal(crown_notices(f), 0);
	play(f, "long", 6);
	/* Turn 4: the second in a row is the limit: the operator and the
	 * other player are told, not the silent player. */
	play(f, "long", 7);
	assert_int_equal(crown_nmr(f), 2);
	assert_int_equal(crown_notices(f), 2);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE subject LIKE "
	    "'%Side crown has sent no orders for 2 phases%' AND recipient IN "
	    "('umpire@club.example', 'greene@cont.example.org')"), 2);
	play(f, "long", 8);
	/* Turn 5: a third miss counts on, and is not told again. */
	play(f, "long", 9);
	assert_int_equal(crown_nmr(f), 3);
	assert_int_equal(crown_notices(f), 2);
}

/* Standing orders stand in for a silent player in the player's own
 * phases: in an alternating game the other side's phase neither plays
 * them nor commits them in its ledger leaves, which hold the phasing
 * side's set alone. */
static void
standing_orders_wait_for_their_sides_own_phase(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *orders = NULL;
	struct err e;

	start(f);
	/* The continental player, whose phase comes second, leaves standing
	 * orders while the crown's phase is open; the crown sends its own. */
	m = mail("st1@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\n"
	    "STANDING: 2nd Virginia: FACE 90\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	assert_int_equal(q(f, "SELECT count(*) FROM standing_orders"), 1);
	m = mail("st2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: HOLD\r\n");
	submit(f, m, &res);
	free(m);
	play(f, "mill", 1);
	/* Nothing of the standing orders was played in the crown's phase:
	 * no event of the 2nd Virginia, which still faces south. */
	assert_int_equal(q(f, "SELECT count(*) FROM events WHERE step = 1 AND "
	    "(unit_idx = 1 OR text LIKE '%2nd Virginia%')"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM stands WHERE unit_idx = 1 "
	    "AND facing != 180"), 0);
	/* The step's leaves: the crown's mailed set, and the continental's
	 * seat committed to no orders, not to its standing ones. */
	assert_int_equal(q(f, "SELECT count(*) FROM ledger_leaves WHERE "
	    "step = 1"), 2);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger_leaves WHERE "
	    "step = 1 AND orders LIKE '%2nd Virginia%'"), 0);
	assert_int_equal(store_query_text(f->st, &e, &orders, NULL, "SELECT "
	    "orders FROM ledger_leaves WHERE step = 1 AND side_idx = 1", ""), 1);
	assert_string_equal(orders, "");
	free(orders);
	orders = NULL;
	assert_int_equal(q(f, "SELECT mailed FROM ledger_leaves WHERE step = 1 "
	    "AND side_idx = 1"), 0);
	/* Nor does the continental player's report of the phase say they
	 * were. */
	{
		char *rep = mail_to(f, "greene@cont.example.org", "crown phase");

		assert_non_null(rep);
		assert_null(strstr(rep, "standing orders were played"));
		free(rep);
	}
	assert_int_equal(store_query_text(f->st, &e, &orders, NULL, "SELECT "
	    "orders FROM ledger_leaves WHERE step = 1 AND side_idx = 0", ""), 1);
	assert_non_null(strstr(orders, "23rd Foot: HOLD"));
	free(orders);
	orders = NULL;
	/* Its own phase plays them (so they were good orders all along)
	 * and commits them in its leaf. */
	play(f, "mill", 2);
	assert_int_equal(q(f, "SELECT count(*) FROM stands WHERE unit_idx = 1 "
	    "AND facing != 90"), 0);
	assert_int_equal(store_query_text(f->st, &e, &orders, NULL, "SELECT "
	    "orders FROM ledger_leaves WHERE step = 2 AND side_idx = 1", ""), 1);
	assert_non_null(strstr(orders, "2nd Virginia: FACE 90"));
	free(orders);
	{
		char *rep = mail_to(f, "greene@cont.example.org",
		    "continental phase");

		assert_non_null(rep);
		assert_non_null(strstr(rep, "standing orders were played"));
		free(rep);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(orders_start_the_nmr_count_again, setup_long, teardown),
		cmocka_unit_test_setup_teardown(standing_orders_wait_for_their_sides_own_phase, setup_live, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
