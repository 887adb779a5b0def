/*
 * test_trim.c - what the store keeps of mail once it has served (issue
 * 19, 2): a delivered mail its headers, a hash of its bytes and its
 * text, compressed, unless it held a secret; a player's mail, once its
 * step is played, its headers and the text its orders were read from;
 * other mail of a game, a week on.  RESEND still sends the report's
 * text, and 'despatch vacuum' gives the space back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sodium.h>

#include "fixture.h"
#include "store/sqlite.h"

/* Every mail queued so far, marked delivered; each one's hash and the
 * text a player reads are checked against what it was before. */
static void
deliver_all(struct fx *f)
{
	struct store_mail *m = NULL;
	struct mail_msg *msg = NULL;
	int n = 0, k;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 1, &m, &n, &e), 0);
	for (k = 0; k < n; k++) {
		unsigned char sha[32];
		char *kept = NULL, *stored = NULL;
		size_t sl = 0;
		int64_t sensitive = 0;
		char sql[200];

		crypto_hash_sha256(sha, (const unsigned char *)m[k].raw, m[k].len);
		assert_int_equal(store_query_text(f->st, &e, &stored, &sl, "SELECT "
		    "sha256 FROM outbox WHERE id = ?", "i", m[k].id), 1);
		assert_int_equal(sl, 32);
		assert_memory_equal(stored, sha, 32);
		free(stored);
		snprintf(sql, sizeof(sql), "SELECT sensitive FROM outbox WHERE id = "
		    "%lld", (long long)m[k].id);
		sensitive = q(f, sql);
		assert_int_equal(mail_parse(m[k].raw, m[k].len, &msg, &e), 0);
		assert_int_equal(store_outbox_delivered(f->st, m[k].id, 5, &e), 0);
		/* A secret never stays; any other game mail's text does, the
		 * same text the player read. */
		if (sensitive) {
			assert_int_equal(store_outbox_text(f->st, m[k].id, &kept, &e), 0);
		} else {
			assert_int_equal(store_outbox_text(f->st, m[k].id, &kept, &e), 1);
			assert_string_equal(kept, msg->body);
		}
		free(kept);
		mail_msg_free(msg);
	}
	store_mails_free(m, n);
}

static void
delivered_mail_keeps_its_headers_hash_and_text(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct store_mail *m = NULL;
	char *raw;
	int n = 0, k, reports = 0;
	struct err e;

	start(f);
	deliver_all(f);
	raw = mail("o1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	free(raw);
	play(f, "mill", 1);
	deliver_all(f);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = 0; k < n; k++) {
		/* Nothing but the headers and a note: no map, no HTML, no
		 * secret. */
		assert_null(strstr(m[k].raw, "image/png"));
		assert_null(strstr(m[k].raw, "coat-secret"));
		assert_non_null(strstr(m[k].raw, "\r\nMessage-ID: <"));
		assert_true(m[k].len < 1024);
		if (strcmp(m[k].kind, "report") == 0) {
			reports++;
			assert_non_null(strstr(m[k].raw, "[delivered; its text is "
			    "kept, compressed]"));
		}
		if (strcmp(m[k].kind, "welcome") == 0)
			assert_non_null(strstr(m[k].raw, "the body held a player's "
			    "secret and was removed"));
	}
	store_mails_free(m, n);
	assert_int_equal(reports, 2);
	/* RESEND sends the report's text from what is kept. */
	raw = mail("r1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nRESEND\r\n");
	submit(f, raw, &res);
	free(raw);
	raw = last_mail(f);
	assert_non_null(strstr(raw, "Your last report, sent again as you asked"));
	assert_non_null(strstr(raw, "23rd Foot"));
	assert_null(strstr(raw, "[delivered"));
	free(raw);
}

static void
a_players_mail_keeps_what_was_read_once_its_step_is_played(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *text = NULL, *r = NULL;
	size_t rl = 0;
	struct err e;

	start(f);
	/* Top-posted over a quoted report, as a mail client sends it. */
	raw = mail("o2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: ADVANCE 4\r\n\r\nHowe\r\n\r\n"
	    "On Tue, 14 Nov 2023, despatch wrote:\r\n"
	    "> Turn 1 of 2, the crown phase: a long report quoted whole\r\n"
	    "> QUOTED-LINE-THAT-MUST-GO\r\n");
	submit(f, raw, &res);
	free(raw);
	/* Orders sent ahead, for the crown's turn 2 (step 3). */
	raw = mail("o3@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 2 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: HOLD\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE trimmed_at IS "
	    "NOT NULL"), 0);
	play(f, "mill", 1);
	/* Step 1's mail: headers and what was read; step 3's: whole. */
	assert_int_equal(store_query_text(f->st, &e, &r, &rl, "SELECT raw FROM "
	    "messages WHERE message_id = 'o2@crown.example.org' AND trimmed_at "
	    "IS NOT NULL", ""), 1);
	assert_non_null(strstr(r, "Message-ID: <o2@crown.example.org>"));
	assert_null(strstr(r, "ADVANCE"));
	assert_null(strstr(r, "QUOTED"));
	free(r);
	assert_int_equal(store_query_text(f->st, &e, &text, NULL, "SELECT text "
	    "FROM messages WHERE message_id = 'o2@crown.example.org'", ""), 1);
	assert_non_null(strstr(text, "23rd: ADVANCE 4"));
	assert_non_null(strstr(text, "GAME mill SIDE crown TURN 1 PASSWORD"));
	assert_null(strstr(text, "red-coat-secret"));
	assert_null(strstr(text, "QUOTED-LINE-THAT-MUST-GO"));
	free(text);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'o3@crown.example.org' AND trimmed_at IS NULL AND instr(raw, "
	    "'23rd: HOLD') > 0"), 1);
	/* Duplicates are still known by their hash and Message-ID. */
	raw = mail("o2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(res.outcome, SUBMIT_DUPLICATE);
}

static void
other_mail_of_a_game_goes_after_a_week_and_vacuum_gives_space_back(
    void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct tick_result tres;
	struct vacuum_result vr;
	char *raw;
	struct err e;
	int i;

	start(f);
	/* A STATUS: a game's mail that no step plays. */
	raw = mail("s1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nSTATUS\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(referee_tick(&f->r, &tres, &e), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'s1@crown.example.org' AND trimmed_at IS NULL"), 1);
	/* Orders sent ahead, for the crown's turn 2 (step 3); junk from
	 * someone who plays in no game. */
	raw = mail("a1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 2 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: HOLD\r\n");
	submit(f, raw, &res);
	free(raw);
	raw = mail("j1@spam.example.org", "seller@spam.example.org",
	    "Cheap muskets, best prices\r\n");
	submit(f, raw, &res);
	free(raw);
	/* Junk keeps what the intake bounded, and no text besides. */
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'j1@spam.example.org' AND text IS NULL"), 1);
	/* A week later the tick cuts the STATUS, but not orders for a step
	 * still to be played (a paused game's, one waiting for an upgrade). */
	f->r.fixed_now += STORE_KEEP_RAW + 60;
	assert_int_equal(referee_tick(&f->r, &tres, &e), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'s1@crown.example.org' AND trimmed_at IS NOT NULL AND instr(raw, "
	    "'STATUS') = 0"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'a1@crown.example.org' AND trimmed_at IS NULL AND instr(raw, "
	    "'23rd: HOLD') > 0"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'j1@spam.example.org' AND trimmed_at IS NULL"), 1);
	/* A mail stored before the text was kept: left whole when its
	 * step is played, kept and cut by vacuum. */
	assert_int_equal(store_exec(f->st, &e, "UPDATE messages SET text = NULL "
	    "WHERE message_id = 'a1@crown.example.org'", ""), 0);
	/* Mail delivered as an older despatch kept it, whole: vacuum keeps
	 * its text and hash, cuts it and gives the pages back. */
	for (i = 0; i < 3; i++)
		play(f, "mill", i + 1);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'a1@crown.example.org' AND trimmed_at IS NULL"), 1);
	assert_int_equal(store_exec(f->st, &e, "UPDATE outbox SET sha256 = NULL, "
	    "text_z = NULL", ""), 0);
	assert_int_equal(store_exec(f->st, &e, "UPDATE outbox SET delivered_at = "
	    "7", ""), 0);
	assert_int_equal(referee_vacuum(&f->r, &vr, &e), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'a1@crown.example.org' AND trimmed_at IS NOT NULL AND instr(text, "
	    "'23rd: HOLD') > 0 AND instr(raw, '23rd') = 0"), 1);
	assert_true(vr.outbox >= 6);
	assert_true(vr.after < vr.before);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE sha256 IS NULL "
	    "AND NOT sensitive"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE kind = 'report' "
	    "AND (text_z IS NULL OR length(raw) > 1024 OR delivered_at != 7)"), 0);
	assert_int_equal(referee_vacuum(&f->r, &vr, &e), 0);
	assert_int_equal(vr.outbox, 0);
}

/* A battle ended by a concession: its mail is cut and the space given
 * back as the concession is committed. */
static void
a_concession_cuts_the_games_mail_and_gives_the_space_back(void **state)
{
	struct fx *f = *state;
	struct submit_result sr;
	char *raw, *rep, *at, code[16], body[300];

	start(f);
	deliver_all(f);
	raw = mail("c0@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &sr);
	free(raw);
	raw = mail("c1@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\nCONCEDE\r\n");
	submit(f, raw, &sr);
	free(raw);
	rep = last_mail(f);
	at = strstr(rep, "  CONCEDE ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "  CONCEDE %15s", code), 1);
	free(rep);
	deliver_all(f);
	assert_true(q(f, "PRAGMA freelist_count") > 0);
	snprintf(body, sizeof(body), "GAME mill SIDE continental PASSWORD "
	    "blue-coat-secret\r\nCONCEDE %s\r\n", code);
	raw = mail("c2@cont.example.org", "greene@cont.example.org", body);
	submit(f, raw, &sr);
	free(raw);
	assert_int_equal(q(f, "SELECT count(*) FROM games WHERE status = "
	    "'finished'"), 1);
	/* The crown's orders for the phase never played: cut all the same. */
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id = "
	    "'c0@crown.example.org' AND trimmed_at IS NOT NULL"), 1);
	assert_int_equal(q(f, "PRAGMA freelist_count"), 0);
	assert_int_equal(f->r.vacuum_due, 0);
}

/* A welcome is queued as text, its map of the field at the start drawn
 * when it is sent: a new game's queued mail holds no map. */
static void
a_welcome_is_queued_as_text_and_its_map_drawn_when_sent(void **state)
{
	struct fx *f = *state;
	struct store_mail *m = NULL;
	struct mail_msg *a = NULL, *b = NULL;
	int n = 0, k;
	struct err e;

	start(f);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE kind = 'welcome' "
	    "AND draw = 'start html'"), 2);
	assert_int_equal(store_outbox_list(f->st, 1, &m, &n, &e), 0);
	assert_int_equal(n, 2);
	for (k = 0; k < n; k++) {
		char *raw = NULL, want[300];
		size_t len = 0;

		assert_null(strstr(m[k].raw, "image/png"));
		assert_true(m[k].len < 16 * 1024);
		assert_int_equal(referee_mail_drawn(&f->r, &m[k], &raw, &len, &e), 0);
		assert_non_null(raw);
		assert_non_null(strstr(raw, "Content-Type: image/png"));
		assert_true(len > m[k].len + 10 * 1024);
		snprintf(want, sizeof(want), "Message-ID: <%s>", m[k].message_id);
		assert_non_null(strstr(raw, want));
		/* The same mail, the map added: headers and text as queued. */
		assert_int_equal(mail_parse(m[k].raw, m[k].len, &a, &e), 0);
		assert_int_equal(mail_parse(raw, len, &b, &e), 0);
		assert_string_equal(a->body, b->body);
		assert_string_equal(a->subject, b->subject);
		assert_string_equal(a->from_addr, b->from_addr);
		assert_string_equal(a->date, b->date);
		assert_non_null(strstr(b->body, "Your secret: "));
		mail_msg_free(a);
		mail_msg_free(b);
		free(raw);
	}
	/* Any other mail goes as it was queued. */
	{
		char *raw = (char *)1;
		size_t len = 0;

		assert_int_equal(store_exec(f->st, &e, "UPDATE outbox SET draw = NULL "
		    "WHERE id = ?", "i", m[0].id), 0);
		store_mails_free(m, n);
		assert_int_equal(store_outbox_list(f->st, 1, &m, &n, &e), 0);
		assert_int_equal(referee_mail_drawn(&f->r, &m[0], &raw, &len, &e), 0);
		assert_null(raw);
	}
	store_mails_free(m, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(delivered_mail_keeps_its_headers_hash_and_text,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_players_mail_keeps_what_was_read_once_its_step_is_played,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(other_mail_of_a_game_goes_after_a_week_and_vacuum_gives_space_back,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_welcome_is_queued_as_text_and_its_map_drawn_when_sent,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_concession_cuts_the_games_mail_and_gives_the_space_back,
		    setup_live, teardown),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
