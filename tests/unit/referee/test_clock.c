/*
 * test_clock.c - the game clock (issue 6): a phase is played once every
 * player who owes orders has sent them and the settle time since the last
 * order mail has passed (issue 22), or at once when all of them sent
 * READY, unless one asked to WAIT or the game has fixed deadlines; else
 * when its deadline and grace pass, with the NMR policy; reminders go
 * before it, once each, none from before the phase opened and one for
 * several due together; a paused game's clock stands still, and resumes
 * with the time it had left.
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
#include "store/store.h"
#include "fixture.h"

#define HDR "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
#define T0 1700000000

static struct tick_result
tick_at(struct fx *f, int64_t now)
{
	struct tick_result res;
	struct err e;

	f->r.fixed_now = now;
	if (referee_tick(&f->r, &res, &e) != 0)
		fail_msg("%s", e.msg);
	return res;
}

static void
set(struct fx *f, const char *key, const char *value)
{
	struct err e;

	if (referee_setting_set(&f->r, "mill", key, value, &e) != 0)
		fail_msg("%s", e.msg);
}

static void
a_phase_is_played_when_every_order_is_in(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m;

	set(f, "deadline", "48h");
	/* No settle time: played as soon as every order is in. */
	set(f, "settle", "0");
	f->r.fixed_now = T0;
	start(f);
	assert_true(q(f, "SELECT deadline_at FROM games") >= T0 + 48 * 3600);
	/* Nothing due yet. */
	assert_int_equal(tick_at(f, T0 + 60).played, 0);
	m = mail("c1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: HOLD\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(tick_at(f, T0 + 600).played, 1);
	assert_int_equal(q(f, "SELECT step FROM games"), 2);
	/* The deadline in every mail (issue 22, problem 3): the welcome, and
	 * the report's Next line of the side whose phase is now open. */
	{
		char *w = mail_to(f, "greene@cont.example.org", "Welcome");
		char *rep = mail_to(f, "greene@cont.example.org", "crown phase (");

		assert_non_null(w);
		assert_non_null(strstr(w, "is the crown phase, due by\n  Thursday "
		    "16 November 2023, 22:1"));
		assert_non_null(strstr(w, "(UTC+0), in 48 hours"));
		assert_non_null(rep);
		assert_non_null(strstr(rep, "Next: your phase, turn 1"));
		assert_non_null(strstr(rep, "due by\n  Thursday 16 November 2023, "));
		free(w);
		free(rep);
	}
	/* The next phase has a deadline of its own, counted from now. */
	assert_true(q(f, "SELECT deadline_at FROM games") >= T0 + 600 + 48 * 3600);
	/* No step is played twice. */
	assert_int_equal(tick_at(f, T0 + 660).played, 0);
}

/* The settle time (issue 22, problem 1): a set with a refused line does
 * not count as in, so the phase is not played early; once it reads
 * cleanly the phase is played the settle time after that mail, and each
 * reply says when. */
static void
the_settle_time_waits_for_a_clean_set(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	set(f, "deadline", "48h");
	f->r.fixed_now = T0;
	start(f);
	f->r.fixed_now = T0 + 60;
	m = mail("s1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: HOLD\r\nHowe: MOVE TO NOWHERE\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "does not count as in"));
	assert_non_null(strstr(reply, "Its deadline: "));
	assert_non_null(strstr(reply, "(UTC+0), in 48 hours"));
	free(reply);
	/* Long after the settle time: still not played. */
	assert_int_equal(tick_at(f, T0 + 3600).played, 0);
	/* A mail whose only line is refused says so too, and still holds
	 * the phase back. */
	f->r.fixed_now = T0 + 3700;
	m = mail("s1b@crown.example.org", "howe@crown.example.org",
	    HDR "Howe: MOVE TO ELSEWHERE\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "does not count as in"));
	free(reply);
	assert_int_equal(tick_at(f, T0 + 3900).played, 0);
	f->r.fixed_now = T0 + 4000;
	m = mail("s2@crown.example.org", "howe@crown.example.org",
	    HDR "Howe: MOVE TO 20,6\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "The phase will be played at"));
	/* Ten minutes from the mail (the test clock moves a minute at each
	 * look, so the reply's own look comes a little later). */
	assert_true(strstr(reply, "in 10 minutes") != NULL ||
	    strstr(reply, "in 9 minutes") != NULL ||
	    strstr(reply, "in 8 minutes") != NULL);
	assert_non_null(strstr(reply, "READY from every player still owing "
	    "plays it now"));
	free(reply);
	assert_int_equal(tick_at(f, T0 + 4000 + 500).played, 0);
	assert_int_equal(tick_at(f, T0 + 4000 + 1200).played, 1);
	assert_int_equal(q(f, "SELECT step FROM games"), 2);
}

/* READY from every player owing plays the phase at once, as their sets
 * stand; READY alone, with no orders, counts too. */
static void
ready_from_every_player_plays_at_once(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	set(f, "deadline", "48h");
	f->r.fixed_now = T0;
	start(f);
	m = mail("r1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: ADVANCE 2\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(tick_at(f, T0 + 60).played, 0);
	f->r.fixed_now = T0 + 120;
	m = mail("r2@crown.example.org", "howe@crown.example.org",
	    HDR "READY\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "count as complete"));
	free(reply);
	/* HELP gives the deadline too. */
	m = mail("r2h@crown.example.org", "howe@crown.example.org", HDR "HELP\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Your orders for the open phase (turn 1) "
	    "are due by"));
	free(reply);
	reply = mail_to(f, "howe@crown.example.org", "READY");
	assert_non_null(reply);
	assert_non_null(strstr(reply, "within the minute"));
	free(reply);
	assert_int_equal(tick_at(f, T0 + 121).played, 1);
	/* The continental phase: READY with no orders at all. */
	f->r.fixed_now = T0 + 200;
	m = mail("r3@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental TURN 1 PASSWORD blue-coat-secret\r\n"
	    "READY\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(tick_at(f, T0 + 201).played, 1);
	assert_int_equal(q(f, "SELECT step FROM games"), 3);
}

static void
wait_and_fixed_deadlines_hold_the_phase_to_its_deadline(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m;
	int64_t dl;

	set(f, "deadline", "2d");
	set(f, "fixed-deadlines", "on");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	m = mail("c2@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: HOLD\r\nWAIT\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(tick_at(f, T0 + 600).played, 0);
	set(f, "fixed-deadlines", "off");
	/* WAIT still holds it. */
	assert_int_equal(tick_at(f, T0 + 700).played, 0);
	assert_int_equal(tick_at(f, dl + 60).played, 1);
}

static void
the_deadline_plays_a_silent_side_with_its_nmr_policy(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct tick_result t;
	char *m;
	int64_t dl;

	set(f, "deadline", "48h");
	set(f, "grace", "1h");
	set(f, "nmr", "hold");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	/* Standing orders that the hold policy ignores. */
	m = mail("s1@crown.example.org", "howe@crown.example.org",
	    HDR "STANDING: 23rd: FACE 90\r\n");
	submit(f, m, &res);
	free(m);
	/* Reminders: 24 hours before, then 2 hours before, once each. */
	t = tick_at(f, dl - 24 * 3600 + 60);
	assert_int_equal(t.reminders, 1);
	assert_int_equal(tick_at(f, dl - 20 * 3600).reminders, 0);
	assert_int_equal(tick_at(f, dl - 3600).reminders, 1);
	assert_int_equal(tick_at(f, dl - 1800).reminders, 0);
	{
		char *last = last_mail(f);

		assert_non_null(strstr(last, "Reminder: orders for turn 1 are due"));
		free(last);
	}
	/* Past the deadline but within the grace: not yet. */
	assert_int_equal(tick_at(f, dl + 1800).played, 0);
	assert_int_equal(tick_at(f, dl + 3700).played, 1);
	/* Held, not faced east. */
	assert_int_equal(q(f, "SELECT facing FROM stands WHERE unit_idx = 0 "
	    "LIMIT 1"), 0);
}

/* Reminder mails queued in all. */
static int64_t
reminders_queued(struct fx *f)
{
	return q(f, "SELECT count(*) FROM outbox WHERE subject LIKE "
	    "'%Reminder: orders%'");
}

static void
a_short_deadline_sends_no_reminder_from_before_the_phase_opened(void **state)
{
	struct fx *f = *state;
	int64_t dl, t, n = 0;

	/* Issue 22, problem 7: with a 10-minute deadline, the 24h and 2h
	 * reminders fell before the phase opened and both went at once,
	 * two identical mails seconds after the welcome. */
	set(f, "deadline", "10m");
	set(f, "reminders", "24h,2h,5m");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	assert_true(dl > T0 && dl <= T0 + 600 + 5 * 60);
	for (t = T0 + 2; t < dl; t += 30)
		n += tick_at(f, t).reminders;
	/* Only the 5m reminder, once, and not before its time. */
	assert_int_equal(n, 1);
	assert_int_equal(reminders_queued(f), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM reminders_sent"), 1);
	assert_int_equal(q(f, "SELECT ahead FROM reminders_sent"), 300);
}

static void
reminders_a_minute_apart_or_named_twice_are_one(void **state)
{
	struct fx *f = *state;
	int64_t dl;

	set(f, "deadline", "48h");
	set(f, "reminders", "2h,2h,119m");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	/* The 2h reminder has the 119m one a minute after it: it waits for
	 * that one, which stands for both. */
	assert_int_equal(tick_at(f, dl - 7200 + 10).reminders, 0);
	assert_int_equal(tick_at(f, dl - 7140).reminders, 1);
	assert_int_equal(tick_at(f, dl - 7100).reminders, 0);
	assert_int_equal(tick_at(f, dl - 600).reminders, 0);
	assert_int_equal(reminders_queued(f), 1);
}

static void
a_late_tick_sends_one_reminder_for_all_that_are_due(void **state)
{
	struct fx *f = *state;
	int64_t dl;

	set(f, "deadline", "48h");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	/* No tick ran for two days (the daemon was down): the 24h and 2h
	 * reminders are both due, and one mail goes, not two. */
	assert_int_equal(tick_at(f, dl - 3600).reminders, 1);
	assert_int_equal(tick_at(f, dl - 3000).reminders, 0);
	assert_int_equal(tick_at(f, dl - 60).reminders, 0);
	assert_int_equal(reminders_queued(f), 1);
}

static void
a_paused_game_stands_still_and_resumes_with_its_time(void **state)
{
	struct fx *f = *state;
	struct err e;
	int64_t dl, left;

	set(f, "deadline", "48h");
	f->r.fixed_now = T0;
	start(f);
	dl = q(f, "SELECT deadline_at FROM games");
	f->r.fixed_now = T0 + 3600;
	if (referee_pause(&f->r, "mill", 1, "the umpire is away", &e) != 0)
		fail_msg("%s", e.msg);
	left = dl - (T0 + 3600);
	assert_int_equal(tick_at(f, dl + 86400).played, 0);
	f->r.fixed_now = dl + 2 * 86400;
	if (referee_pause(&f->r, "mill", 0, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(q(f, "SELECT deadline_at FROM games") >= dl + 2 * 86400 +
	    left);
	/* Extended: a day more, every player told. */
	if (referee_extend(&f->r, "mill", 86400, &e) != 0)
		fail_msg("%s", e.msg);
	{
		char *last = last_mail(f);

		assert_non_null(strstr(last, "extended the deadline"));
		free(last);
	}
}

static void
a_silent_player_is_reported_and_can_be_replaced(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct err e;
	char secret[REFEREE_SECRET_MAX], *last;
	int i;

	set(f, "nmr-limit", "2");
	if (referee_setting_set(&f->r, "mill", "operator", "umpire@club.example",
	    &e) != 0)
		fail_msg("%s", e.msg);
	start(f);
	/* Crown sends nothing for two of its phases. */
	for (i = 0; i < 3; i++)
		if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
			fail_msg("%s", e.msg);
	assert_int_equal(q(f, "SELECT nmr_count FROM players WHERE side_idx = 0"),
	    2);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'umpire@club.example' AND subject LIKE '%sent no orders for 2%'"), 1);
	assert_int_equal(referee_player_replace(&f->r, "mill", "crown",
	    "new@crown.example.org", "new-crown-secret", secret, &e), 0);
	assert_int_equal(q(f, "SELECT nmr_count FROM players WHERE side_idx = 0"),
	    0);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'howe@crown.example.org' AND subject LIKE '%Your side has a new%'"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'greene@cont.example.org' AND subject LIKE '%has a new player%'"), 1);
	last = NULL;
	{
		struct store_mail *m = NULL;
		int n = 0, k;

		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		for (k = 0; k < n; k++)
			if (strcmp(m[k].recipient, "new@crown.example.org") == 0)
				last = strdup(m[k].raw);
		store_mails_free(m, n);
	}
	assert_non_null(last);
	assert_non_null(strstr(last, "Your secret: new-crown-secret"));
	assert_non_null(strstr(last, "You take over"));
	/* Not to the old address, not the old secret. */
	assert_null(strstr(last, "howe@crown"));
	free(last);
	/* The old secret no longer works; the new one does. */
	{
		struct submit_result res;
		char *m = mail("old1@crown.example.org", "howe@crown.example.org",
		    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nSTATUS\r\n");

		submit(f, m, &res);
		free(m);
		assert_string_equal(res.status, "rejected");
		m = mail("new1@crown.example.org", "new@crown.example.org",
		    "GAME mill SIDE crown PASSWORD new-crown-secret\r\nSTATUS\r\n");
		submit(f, m, &res);
		free(m);
		assert_string_equal(res.status, "commands");
	}
}

/* The game named name's open step (1 and its clock in *c). */
static int64_t
step_of(struct fx *f, const char *name, struct store_clock *c)
{
	struct err e;
	int64_t id = 0, step = 0;
	enum game_status gs;

	assert_int_equal(store_game_find(f->st, name, &id, &gs, &step, &e), 1);
	if (c != NULL)
		assert_int_equal(store_game_clock(f->st, id, c, &e), 0);
	return step;
}

/* Issue 24: a tick reads the battle of the games with something due and
 * of no other.  Of thirteen games one has its deadline passed, one a
 * reminder due and one (mill) every order in; the other ten run with
 * their deadline two days off.  The first tick looks at those three only,
 * plays the two, reminds the one and reads three battles; the second
 * looks at the one reminded, finds its reminder sent and reads none. */
static void
a_tick_reads_only_the_games_with_something_due(void **state)
{
	struct fx *f = *state;
	struct submit_result sr;
	struct tick_result res;
	struct err e;
	char name[16], path[400], secret[REFEREE_SECRET_MAX], *m;
	int64_t id = 0, step = 0, now = T0 + 12 * 3600;
	enum game_status gs;
	long loads, looks;
	int i;

	if (referee_setting_set(&f->r, NULL, "deadline", "48h", &e) != 0)
		fail_msg("%s", e.msg);
	set(f, "settle", "0");
	f->r.fixed_now = T0;
	start(f);
	snprintf(path, sizeof(path), "%s/mill.scenario", f->dir);
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "g%02d", i);
		if (referee_new_game(&f->r, name, path, 0, NULL, &e) != 0 ||
		    referee_player_add(&f->r, name, "crown", "howe@crown.example.org",
		    NULL, NULL, secret, &e) != 0 ||
		    referee_player_add(&f->r, name, "continental",
		    "greene@cont.example.org", NULL, NULL, secret, &e) != 0 ||
		    referee_start(&f->r, name, &e) != 0)
			fail_msg("%s: %s", name, e.msg);
	}
	/* g03's deadline has passed; g07's is an hour after the tick, so its
	 * "2h" reminder is due (and its "24h" one fell before it opened). */
	assert_int_equal(store_game_find(f->st, "g03", &id, &gs, &step, &e), 1);
	assert_int_equal(store_game_set_deadline(f->st, id, T0 + 60, &e), 0);
	assert_int_equal(store_game_find(f->st, "g07", &id, &gs, &step, &e), 1);
	assert_int_equal(store_game_set_deadline(f->st, id, now + 3600, &e), 0);
	m = mail("due1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: HOLD\r\n");
	submit(f, m, &sr);
	free(m);
	assert_string_equal(sr.status, "orders");

	loads = f->r.tick_loads;
	looks = f->r.tick_looks;
	res = tick_at(f, now);
	assert_int_equal(res.played, 2);
	assert_int_equal(res.reminders, 1);
	assert_int_equal(res.errors, 0);
	assert_int_equal(f->r.tick_looks - looks, 3);
	assert_int_equal(f->r.tick_loads - loads, 3);
	assert_int_equal(step_of(f, "mill", NULL), 2);
	assert_int_equal(step_of(f, "g03", NULL), 2);
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "g%02d", i);
		if (i != 3)
			assert_int_equal(step_of(f, name, NULL), 1);
	}
	assert_int_equal(q(f, "SELECT count(*) FROM reminders_sent"), 1);

	/* Nothing is due now: g07's reminder went, the two played have two
	 * days again. */
	loads = f->r.tick_loads;
	looks = f->r.tick_looks;
	res = tick_at(f, now + 600);
	assert_int_equal(res.played, 0);
	assert_int_equal(res.reminders, 0);
	/* Only g07 is looked at (its deadline is within the reminders'
	 * reach), and its battle is not read. */
	assert_int_equal(f->r.tick_looks - looks, 1);
	assert_int_equal(f->r.tick_loads - loads, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_phase_is_played_when_every_order_is_in, setup_live, teardown),
		cmocka_unit_test_setup_teardown(the_settle_time_waits_for_a_clean_set, setup_live, teardown),
		cmocka_unit_test_setup_teardown(ready_from_every_player_plays_at_once, setup_live, teardown),
		cmocka_unit_test_setup_teardown(wait_and_fixed_deadlines_hold_the_phase_to_its_deadline, setup_live, teardown),
		cmocka_unit_test_setup_teardown(the_deadline_plays_a_silent_side_with_its_nmr_policy, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_short_deadline_sends_no_reminder_from_before_the_phase_opened, setup_live, teardown),
		cmocka_unit_test_setup_teardown(reminders_a_minute_apart_or_named_twice_are_one, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_late_tick_sends_one_reminder_for_all_that_are_due, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_paused_game_stands_still_and_resumes_with_its_time, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_silent_player_is_reported_and_can_be_replaced, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_tick_reads_only_the_games_with_something_due, setup_live, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
