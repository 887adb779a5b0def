/*
 * test_limits.c - limits that must never make a game stuck for good
 * (issue 11): the largest battle the scenario format allows, with
 * long names and twelve fire dice a stand, is played and reported, its
 * report cut into parts rather than refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "referee/referee.h"
#include "referee/internal.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

/* 128 units a side of 4 stands (the format's most), in 32 brigades, in
 * rows that face each other across 3": every row is in musket range. */
static void
write_largest(const char *path)
{
	FILE *f = fopen(path, "w");
	int s, br, u;

	assert_non_null(f);
	fprintf(f, "scenario \"The Largest Field\"\nruleset vnb-wing\n"
	    "table 500 x 100\nturns 2\nset dice.infantry.fire 12\n");
	for (s = 0; s < 2; s++) {
		const char *id = s == 0 ? "crown" : "continental";

		fprintf(f, "side %s \"Side %s\"\n  commander \"Army Commander of %s\" "
		    "army at 250,%d\n", id, id, id, s == 0 ? 2 : 98);
		for (br = 0; br < 32; br++) {
			int row = br / 8, col0 = (br % 8) * 4;
			/* Rows alternate sides 4.5" apart: crown faces north at
			 * 10, 19, ...; continental south at 14.5, 23.5, ... */
			double y = 10 + row * 9 + (s == 0 ? 0 : 4.5);

			fprintf(f, "  brigade \"Brigade %d of the %s side\" commander "
			    "\"Commander %d of %s\" at %.2f,%.2f\n", br, id, br, id,
			    10 + (col0 + 1.5) * 14 + 6, y + (s == 0 ? -1.5 : 1.5));
			for (u = 0; u < 4; u++)
				fprintf(f, "    unit \"%s %d of the very long and formally "
				    "titled line infantry of the %s\" type british-line "
				    "stands 4 sp 3 at %.2f,%.2f facing %d line\n",
				    s == 0 ? "Regiment" : "Battalion", br * 4 + u, id,
				    10 + (col0 + u) * 14 + 6.0, y, s == 0 ? 0 : 180);
		}
	}
	fclose(f);
}

static void
the_largest_battle_is_played_and_reported_in_parts(void **state)
{
	struct fx *f = *state;
	char path[400], secret[REFEREE_SECRET_MAX];
	struct turn_result tr;
	struct store_mail *m = NULL;
	int n = 0, i, parts = 0;
	size_t total = 0;
	struct err e;

	snprintf(path, sizeof(path), "%s/largest.scenario", f->dir);
	write_largest(path);
	if (referee_new_game(&f->r, "big", path, 0, NULL, &e) != 0 ||
	    referee_player_add(&f->r, "big", "crown", "a@a.example.org",
	    "aaaa-aaaa-1", NULL, secret, &e) != 0 ||
	    referee_player_add(&f->r, "big", "continental", "b@b.example.org",
	    "bbbb-bbbb-1", NULL, secret, &e) != 0 ||
	    referee_start(&f->r, "big", &e) != 0)
		fail_msg("%s", e.msg);
	if (referee_turn(&f->r, "big", NULL, 0, &tr, &e) != 0)
		fail_msg("the turn failed: %s", e.msg);
	assert_true(tr.rolls > 5000);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (i = 0; i < n; i++) {
		if (strcmp(m[i].kind, "report") != 0 ||
		    strcmp(m[i].recipient, "a@a.example.org") != 0)
			continue;
		parts++;
		total += m[i].len;
		/* No mail past what a part may hold (with its encoding); the
		 * first also carries the HTML of its text and the map. */
		if (strstr(m[i].raw, "multipart/") != NULL) {
			assert_true(m[i].len < 1536 * 1024);
			assert_non_null(strstr(m[i].raw, "Content-Type: image/png"));
		} else {
			assert_true(m[i].len < 400 * 1024);
		}
		assert_non_null(strstr(m[i].subject, " of "));
	}
	store_mails_free(m, n);
	/* More than the old 1 MB cap that failed the turn, in parts. */
	assert_true(total > 1024 * 1024);
	assert_true(parts >= 4);
	/* RESEND sends every part again. */
	{
		struct submit_result res;
		char *m2 = mail("resend@a.example.org", "a@a.example.org",
		    "GAME big SIDE crown PASSWORD aaaa-aaaa-1\r\nRESEND\r\n");

		submit(f, m2, &res);
		free(m2);
		assert_int_equal(res.replies, parts);
	}
	/* Passwords with a comma or semicolon could never be typed. */
	assert_int_equal(referee_player_reset(&f->r, "big", "a@a.example.org",
	    "sabre;copper1", secret, &e), -1);
	assert_non_null(strstr(e.msg, "may not hold"));
}

/* While the step is being played, the other side's player sends new
 * orders through a second connection, as an MTA pipe would. */
struct late {
	struct fx *f;
	int calls;
	int stored;
};

static void
late_orders(void *arg)
{
	struct late *l = arg;
	struct store *st = NULL;
	struct referee r2;
	struct submit_result res;
	struct err e;
	char *m;

	if (l->calls++ > 0)
		return;
	if (store_open(l->f->db, 0, -1, &st, &e) != 0)
		fail_msg("%s", e.msg);
	referee_init(&r2, st);
	m = mail("late@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: FACE 90\r\n");
	/* A turn holding the write lock would make this wait, then fail. */
	if (referee_submit(&r2, m, strlen(m), NULL, &res, &e) == 0)
		l->stored = 1;
	free(m);
	referee_fini(&r2);
	store_close(st);
}

static void
intake_never_waits_on_a_turn_and_late_orders_are_played(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct late l = { f, 0, 0 };
	struct err e;
	int64_t facing = 0;

	start(f);
	store_busy_timeout(50);
	f->r.after_play = late_orders;
	f->r.after_play_arg = &l;
	if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	store_busy_timeout(0);
	assert_true(l.stored);
	/* The step was played again with the orders that came in. */
	assert_int_equal(l.calls, 2);
	assert_int_equal(store_query_int(f->st, &e, &facing, "SELECT facing "
	    "FROM stands WHERE unit_idx = 0 LIMIT 1", ""), 1);
	assert_int_equal(facing, 90);
}

/* The stored size of the k-th mail from sender (an unreadable mail is
 * kept without its Message-ID). */
static int64_t
stored_size(struct fx *f, const char *sender, int k)
{
	int64_t n = -1;
	struct err e;

	assert_int_equal(store_query_int(f->st, &e, &n, "SELECT length(raw) FROM "
	    "messages WHERE sender = ? ORDER BY id LIMIT 1 OFFSET ?", "tI",
	    sender, k), 1);
	return n;
}

static void
junk_from_strangers_is_kept_short_a_players_mail_whole(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	size_t big = 3u * 1024 * 1024, i;
	char *body = malloc(big + 1), *m;
	char id[64];
	int k;

	start(f);
	assert_non_null(body);
	for (i = 0; i < big; i++)
		body[i] = i % 100 == 99 ? '\n' : 'x';
	body[big] = '\0';
	/* A stranger's 3 MB: headers and an excerpt. */
	m = mail("junk@spam.example.org", "spammer@spam.example.org", body);
	submit(f, m, &res);
	free(m);
	assert_true(stored_size(f, "spammer@spam.example.org", 0) < 64 * 1024);
	/* Past the sender's daily quota (256 KB kept), the headers alone. */
	body[100 * 1024] = '\0';
	for (k = 1; k < 20; k++) {
		snprintf(id, sizeof(id), "junk%d@spam.example.org", k);
		m = mail(id, "spammer@spam.example.org", body);
		submit(f, m, &res);
		free(m);
	}
	assert_true(stored_size(f, "spammer@spam.example.org", 19) < 2 * 1024);
	body[100 * 1024] = 'x';
	/* A player's own mail, even unreadable, is kept whole. */
	m = mail("own@crown.example.org", "howe@crown.example.org", body);
	submit(f, m, &res);
	assert_true(stored_size(f, "howe@crown.example.org", 0) >= (int64_t)big);
	free(m);
	free(body);
}

static void
a_crib_that_does_not_fit_is_cut_between_lines(void **state)
{
	struct fx *f = *state;
	char path[400], out[900];
	struct battle *b = NULL;
	struct err e;
	FILE *fp;
	int u;

	snprintf(path, sizeof(path), "%s/accents.scenario", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "scenario \"Accents\"\nruleset vnb-wing\ntable 200 x 48\n"
	    "side crown \"Crown\"\n  commander \"Général\" army at 2,2\n"
	    "  brigade \"Première\" commander \"Capitaine Lefèvre\" at 4,4\n");
	for (u = 0; u < 12; u++)
		fprintf(fp, "    unit \"Régiment de la Reine, bataillon n° %d, "
		    "compagnie d’élite\" type %s stands 1 sp 2 at %d,10 facing 0\n",
		    u, u % 2 ? "british-line" : "light-dragoons", 6 + u * 8);
	fprintf(fp, "side continental \"C\"\n  commander \"G\" army at 2,44\n"
	    "  brigade \"B\" commander \"H\" at 4,40\n    unit \"U\" type "
	    "british-line stands 1 sp 2 at 6,38 facing 180\n");
	fclose(fp);
	{
		char *text = NULL;
		size_t len = 0;

		if (scenario_load_file(path, &text, &len, &b, &e) != 0)
			fail_msg("%s", e.msg);
		free(text);
	}
	vnb_crib(b, 0, out, sizeof(out));
	assert_true(strlen(out) < sizeof(out));
	assert_int_equal(utf8_valid_prefix(out, strlen(out)), strlen(out));
	assert_non_null(strstr(out, "(more not shown)"));
	/* What matters most comes first: command and ranges fit. */
	assert_non_null(strstr(out, "Command:"));
	assert_non_null(strstr(out, "Fire ranges"));
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_largest_battle_is_played_and_reported_in_parts, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(intake_never_waits_on_a_turn_and_late_orders_are_played, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(junk_from_strangers_is_kept_short_a_players_mail_whole, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_crib_that_does_not_fit_is_cut_between_lines, setup_sandbox, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
