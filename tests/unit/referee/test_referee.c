/*
 * test_referee.c - the conversation with players and the turn, through
 * the referee's API on a real database: good mail is stored and answered,
 * bad mail gets a clear answer and changes nothing, duplicates are
 * recognised, and a turn with bad dice changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "referee/referee.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"


static void
start_queues_a_welcome_for_each_player(void **state)
{
	struct fx *f = *state;
	char *w;

	start(f);
	assert_int_equal(count(f, "outbox"), 2);
	w = last_mail(f);
	assert_non_null(strstr(w, "To: greene@cont.example.org"));
	/* The welcome tells the player the secret, once. */
	assert_non_null(strstr(w, "Your secret: blue-coat-secret"));
	assert_non_null(strstr(w, "GAME mill SIDE continental TURN 1 PASSWORD "
	    "blue-coat-secret"));
	free(w);
	{
		struct store_mail *m = NULL;
		int n = 0, k;
		struct err e;

		/* Once delivered, the stored copy keeps no secret. */
		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		for (k = 0; k < n; k++)
			assert_int_equal(store_outbox_delivered(f->st, m[k].id, 1, &e), 0);
		store_mails_free(m, n);
		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		for (k = 0; k < n; k++) {
			assert_null(strstr(m[k].raw, "coat-secret"));
			assert_non_null(strstr(m[k].raw, "Subject: [mill] Welcome"));
			assert_non_null(strstr(m[k].raw, "body held a player's secret"));
		}
		store_mails_free(m, n);
	}
}

static void
good_mail_is_stored_and_acknowledged(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *ack;

	start(f);
	raw = mail("m1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	assert_int_equal(res.outcome, SUBMIT_STORED);
	assert_string_equal(res.status, "orders");
	assert_int_equal(orders_for(f, 1, 0), 1);
	assert_int_equal(count(f, "outbox"), 3);
	ack = last_mail(f);
	assert_non_null(strstr(ack, "To: howe@crown.example.org"));
	assert_non_null(strstr(ack, "In-Reply-To: <m1@crown.example.org>"));
	assert_non_null(strstr(ack, "23rd Foot: ADVANCE 4"));
	assert_non_null(strstr(ack, "are stored"));
	free(ack);
	free(raw);
}

static void
mail_seen_before_is_neither_stored_nor_answered(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *other;

	start(f);
	raw = mail("m1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	assert_int_equal(count(f, "messages"), 1);
	assert_int_equal(count(f, "outbox"), 3);
	/* The same bytes again. */
	submit(f, raw, &res);
	assert_int_equal(res.outcome, SUBMIT_DUPLICATE);
	/* The same Message-ID with other bytes (a resend by the MTA). */
	other = mail("m1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 6\r\n");
	submit(f, other, &res);
	assert_int_equal(res.outcome, SUBMIT_DUPLICATE);
	assert_int_equal(count(f, "messages"), 1);
	assert_int_equal(count(f, "outbox"), 3);
	assert_int_equal(orders_for(f, 1, 0), 1);
	free(raw);
	free(other);
}

static void
unknown_game_gets_a_clear_reply_and_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *reply;

	start(f);
	raw = mail("m2@crown.example.org", "howe@crown.example.org",
	    "GAME saratoga SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	assert_string_equal(res.status, "unknown-game");
	assert_int_equal(orders_for(f, 1, 0), 0);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "no game called \"saratoga\""));
	assert_non_null(strstr(reply, "nothing was taken"));
	free(reply);
	free(raw);
}

static void
wrong_secret_gets_a_clear_reply_and_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *reply;

	start(f);
	raw = mail("m3@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD blue-coat-secret\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	assert_string_equal(res.status, "rejected");
	assert_int_equal(orders_for(f, 1, 0), 0);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "does not match"));
	assert_null(strstr(reply, "blue-coat-secret"));
	free(reply);
	free(raw);
}

static void
stored_mail_has_the_secret_blanked(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw;
	struct store_mail *m = NULL;
	int n = 0;
	struct err e;

	start(f);
	raw = mail("m4@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: HOLD\r\n");
	submit(f, raw, &res);
	assert_int_equal(store_exec(f->st, &e, "INSERT INTO outbox (message_id, "
	    "recipient, subject, kind, raw, created_at) SELECT 'probe', 'x', 'x', "
	    "'probe', raw, 0 FROM messages", ""), 0);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	assert_null(strstr(m[n - 1].raw, "red-coat-secret"));
	assert_non_null(strstr(m[n - 1].raw, "PASSWORD ***************"));
	store_mails_free(m, n);
	free(raw);
}

static void
lines_not_understood_are_named_with_suggestions(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *reply;

	start(f);
	raw = mail("m5@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23d Ft: ADVANCE 4\r\n"
	    "Grey: CHRAGE 2nd Virginia\r\n"
	    "Howe: MOVE TO 24,6\r\n");
	submit(f, raw, &res);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "line 2"));
	assert_non_null(strstr(reply, "did you mean \"23rd Foot\""));
	assert_non_null(strstr(reply, "line 3"));
	assert_non_null(strstr(reply, "is not an order I know"));
	assert_non_null(strstr(reply, "Howe: MOVE TO 24,6"));
	assert_int_equal(orders_for(f, 1, 0), 1);
	free(reply);
	free(raw);
}

/* A second mail's orders replace the stored orders of the units and
 * commanders it names; the rest stand, and the reply lists the whole
 * set, each line new or kept (issue 22, problem 2). */
static void
orders_sent_again_replace_the_earlier_set(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *a, *b2, *reply;

	start(f);
	a = mail("m6@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 4\r\nHowe: MOVE TO 20,6\r\n");
	b2 = mail("m7@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: HOLD\r\n");
	submit(f, a, &res);
	assert_int_equal(orders_for(f, 1, 0), 2);
	submit(f, b2, &res);
	assert_int_equal(orders_for(f, 1, 0), 2);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "merged with the 2 orders stored before: "
	    "1 kept, 1 replaced"));
	assert_non_null(strstr(reply, "  new  23rd Foot: HOLD\n"));
	assert_non_null(strstr(reply, "  kept Howe: MOVE TO 20,6\n"));
	free(reply);
	{
		/* The same secret from another mailbox: the registered player
		 * is answered first, with the address it came from; the other
		 * sender is answered without the player's address (issue 5,
		 * problem 3). */
		char *c3 = mail("m7b@else.example.org", "spy@else.example.org",
		    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
		    "23rd: ADVANCE 1\r\n");
		struct store_mail *m = NULL;
		int n = 0, k, first = -1, second = -1;
		struct err e;

		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		k = n;
		store_mails_free(m, n);
		submit(f, c3, &res);
		assert_int_equal(res.replies, 2);
		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		assert_int_equal(n, k + 2);
		for (; k < n; k++) {
			if (strcmp(m[k].recipient, "howe@crown.example.org") == 0 &&
			    first < 0 && second < 0)
				first = k;
			if (strcmp(m[k].recipient, "spy@else.example.org") == 0)
				second = k;
		}
		assert_true(first >= 0 && second > first);
		assert_non_null(strstr(m[first].raw, "spy@else.example.org"));
		assert_null(strstr(m[second].raw, "howe@crown"));
		store_mails_free(m, n);
		free(c3);
	}
	free(a);
	free(b2);
}

static void
orders_before_start_are_refused_clearly(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *reply;

	raw = mail("m8@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n23rd: HOLD\r\n");
	submit(f, raw, &res);
	assert_int_equal(orders_for(f, 1, 0), 0);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "has not started"));
	free(reply);
	free(raw);
}

static void
malformed_mail_is_kept_and_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	static const char *const junk[] = {
		"",
		"\x01\x02\x03 not a mail at all",
		"From: <>\r\n\r\n",
		"Subject: =?utf-8?B?broken\r\nContent-Type: multipart/mixed; "
		    "boundary=x\r\n\r\n--x\r\nContent-Transfer-Encoding: base64\r\n\r\n"
		    "%%%%\r\n",
		"From: a@b.example.org\r\nMessage-ID: <j5@x>\r\n\r\nGAME\r\n",
		"From: a@b.example.org\r\n\r\nGAME mill SIDE SIDE SIDE TURN "
		    "99999999999 PASSWORD\r\n",
	};
	size_t i;
	int64_t before;

	start(f);
	before = count(f, "outbox");
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		struct err e;

		if (referee_submit(&f->r, junk[i], strlen(junk[i]), NULL, &res,
		    &e) != 0)
			fail_msg("junk %zu: %s", i, e.msg);
		assert_int_equal(orders_for(f, 1, 0), 0);
		assert_int_equal(orders_for(f, 1, 1), 0);
	}
	/* Every one was stored for the operator (the empty one once). */
	assert_int_equal(count(f, "messages"), (int64_t)(sizeof(junk) / sizeof(junk[0])));
	/* Only the ones with someone to answer got a reply. */
	assert_true(count(f, "outbox") - before <= 3);
}

/* Every stored message's raw bytes, joined. */
static char *
all_stored(struct fx *f)
{
	struct store_mail *m = NULL;
	int n = 0, k;
	struct err e;
	size_t len = 1;
	char *out;

	/* Copy the messages into the outbox table to read them back. */
	assert_int_equal(store_exec(f->st, &e, "INSERT INTO outbox (message_id, "
	    "recipient, subject, kind, raw, created_at) SELECT 'probe' || id, 'x', "
	    "coalesce(subject, ''), 'probe', raw || coalesce(subject, '') || "
	    "coalesce(note, ''), 0 FROM messages", ""), 0);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = 0; k < n; k++)
		len += m[k].len + strlen(m[k].subject) + 2;
	out = calloc(1, len);
	assert_non_null(out);
	for (k = 0; k < n; k++) {
		if (strcmp(m[k].kind, "probe") != 0)
			continue;
		strcat(out, m[k].raw);
		strcat(out, m[k].subject);
		strcat(out, "\n");
	}
	store_mails_free(m, n);
	assert_int_equal(store_exec(f->st, &e, "DELETE FROM outbox WHERE kind = "
	    "'probe'", ""), 0);
	return out;
}

static void
secrets_are_blanked_on_every_path(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *all;
	static const char *const mails[] = {
		/* a thank-you with no GAME line, quoting the welcome */
		"From: Howe <howe@crown.example.org>\r\nMessage-ID: <s1@x>\r\n"
		"Subject: thanks\r\n\r\nThanks!\r\n> Your secret: red-coat-secret\r\n",
		/* the secret in an encoded Subject, orders in base64 */
		"From: Howe <howe@crown.example.org>\r\nMessage-ID: <s2@x>\r\n"
		"Subject: =?utf-8?B?R0FNRSBtaWxsIFNJREUgY3Jvd24gVFVSTiAxIFBBU1NXT1JEIHJlZC1jb2F0LXNlY3JldA==?=\r\n"
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: base64\r\n\r\n"
		"MjNyZDogSE9MRCAjIHJlZC1jb2F0LXNlY3JldAo=\r\n",
		/* a wrong guess, and the real one quoted */
		"From: Spy <spy@else.example.org>\r\nMessage-ID: <s3@x>\r\n\r\n"
		"GAME mill SIDE crown TURN 1 PASSWORD red-coat-secrex\r\n"
		"my secret is red-coat-secret\r\n",
		/* unreadable */
		"PASSWORD red-coat-secret\r\n",
		/* glued to other text */
		"From: Howe <howe@crown.example.org>\r\nMessage-ID: <s5@x>\r\n\r\n"
		"pw=red-coat-secret (\"red-coat-secret\".)\r\n",
		/* a secret the server does not know (an old one, a slip),
		 * typed in a base64 body: the decoded copy kept must lose it
		 * too, not only the secrets the server knows */
		"From: Howe <howe@crown.example.org>\r\nMessage-ID: <s6@x>\r\n"
		"Subject: orders\r\nMIME-Version: 1.0\r\n"
		"Content-Type: text/plain; charset=utf-8\r\n"
		"Content-Transfer-Encoding: base64\r\n\r\n"
		"R0FNRSBtaWxsIFNJREUgY3Jvd24gVFVSTiAxIFBBU1NXT1JEIG9sZC1jb2F0LXNlY3JldA0KMjNyZDogQURWQU5DRSAyDQo=\r\n",
	};
	size_t i;

	start(f);
	for (i = 0; i < sizeof(mails) / sizeof(mails[0]); i++) {
		struct err e;

		if (referee_submit(&f->r, mails[i], strlen(mails[i]),
		    "howe@crown.example.org", &res, &e) != 0)
			fail_msg("mail %zu: %s", i, e.msg);
	}
	all = all_stored(f);
	if (strstr(all, "red-coat-secre") != NULL)
		fail_msg("found at: %.300s", strstr(all, "red-coat-secre") - 200);
	if (strstr(all, "old-coat-secret") != NULL)
		fail_msg("an unknown secret kept, decoded: %.300s",
		    strstr(all, "old-coat-secret") - 100);
	/* That mail was stored decoded too. */
	assert_non_null(strstr(all, "23rd: ADVANCE 2"));
	/* The base64 mail was stored decoded and understood. */
	assert_non_null(strstr(all, "23rd: HOLD"));
	free(all);
	/* Nor in anything we send. */
	{
		struct store_mail *m = NULL;
		int n = 0, k;
		struct err e;

		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		for (k = 2; k < n; k++)   /* after the two welcomes */
			assert_null(strstr(m[k].raw, "red-coat-secre"));
		store_mails_free(m, n);
	}
}

static void
mail_we_cannot_answer_is_still_stored(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	/* An address the composer cannot write (a quoted local part with a
	 * space): the mail is kept, and the note on it says why it went
	 * unanswered.  (An id it cannot write is only left out of the
	 * answer: test_autoreply.c.) */
	const char *raw = "From: John <\"john smith\"@example.org>\r\n"
	    "To: despatch@localhost\r\nSubject: orders\r\n"
	    "Message-ID: <q1@example.org>\r\n\r\n23rd: HOLD\r\n";

	start(f);
	submit(f, raw, &res);
	assert_int_equal(res.outcome, SUBMIT_STORED);
	assert_string_equal(res.status, "no-header");
	assert_non_null(strstr(res.note, "not answered"));
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE "
	    "message_id = 'q1@example.org'"), 1);
}

static void
automatic_mail_is_never_answered(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	int64_t before;
	const char *raw = "From: MAILER-DAEMON@mx.example.org\r\n"
	    "Message-ID: <bounce1@mx>\r\nAuto-Submitted: auto-replied\r\n"
	    "Subject: Undelivered\r\n\r\nGAME mill SIDE crown TURN 1 PASSWORD x\r\n";

	start(f);
	before = count(f, "outbox");
	submit(f, raw, &res);
	assert_string_equal(res.status, "ignored");
	assert_int_equal(count(f, "outbox"), before);
}

static int64_t
battle_events(struct fx *f)
{
	struct events ev;
	int *steps = NULL;
	struct err e;
	int n;

	assert_int_equal(store_events_load(f->st, 1, 0, &ev, &steps, &e), 0);
	n = ev.n;
	events_free(&ev);
	free(steps);
	return n;
}

static struct battle *
snapshot(struct fx *f, int *step)
{
	struct store_game g;
	struct battle *b = NULL;
	struct err e;

	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	if (store_battle_load(f->st, &g, &b, &e) != 0)
		fail_msg("%s", e.msg);
	*step = g.step;
	store_game_clear(&g);
	return b;
}

static void
bad_dice_fail_the_turn_and_change_nothing(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct battle *before, *after;
	struct err e;
	int s1, s2;
	char *raw;
	static const int nine[] = { 9 };
	static const int many[] = { 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 1, 2 };

	start(f);
	/* Bring the units to short range so the phase needs dice. */
	raw = mail("m9@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 16\r\nGrey: MOVE TO 24,24\r\n");
	submit(f, raw, &res);
	free(raw);
	before = snapshot(f, &s1);
	/* A 9 on a d6. */
	assert_int_equal(referee_turn(&f->r, "mill", nine, 1, &tr, &e), -1);
	if (strstr(e.msg, "d6 cannot roll") == NULL)
		fail_msg("%s", e.msg);
	/* Too few. */
	assert_int_equal(referee_turn(&f->r, "mill", many, 1, &tr, &e), -1);
	assert_non_null(strstr(e.msg, "ran out"));
	/* Too many. */
	assert_int_equal(referee_turn(&f->r, "mill", many, 12, &tr, &e), -1);
	assert_non_null(strstr(e.msg, "left unused"));
	after = snapshot(f, &s2);
	assert_int_equal(s1, s2);
	assert_memory_equal(before, after, sizeof(*before));
	assert_int_equal(battle_events(f), 0);
	battle_free(before);
	battle_free(after);
}

static void
scripted_dice_are_refused_on_a_live_game(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct err e;
	static const int one[] = { 1 };

	start(f);
	assert_int_equal(referee_turn(&f->r, "mill", one, 1, &tr, &e), -1);
	assert_non_null(strstr(e.msg, "not a sandbox game"));
	assert_int_equal(battle_events(f), 0);
	/* The game's own dice stream plays the phase. */
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(tr.step, 1);
}

static void
turn_reports_to_every_player_and_opens_the_next_phase(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct submit_result res;
	struct err e;
	int64_t before;
	int step;
	struct battle *b;
	char *raw, *rep;

	start(f);
	before = count(f, "outbox");
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	/* Each player: one mail, the report (a game without nonces has no
	 * Close notice of its own: the report carries the leaves). */
	assert_int_equal(count(f, "outbox"), before + 2);
	rep = last_mail(f);
	assert_non_null(strstr(rep, "Turn 1, crown phase"));
	assert_non_null(strstr(rep, "Your forces after the phase"));
	/* The report ends with the step's signed record, the reader's own
	 * leaf and (an open game) the phase's seed. */
	assert_non_null(strstr(rep, "Appendix: the field, dice, ledger and "
	    "hashes"));
	/* What matters first: the next phase, then what happened, the
	 * forces; the appendix last. */
	assert_true(strstr(rep, "Next: ") < strstr(rep, "What happened"));
	assert_true(strstr(rep, "Your forces after the phase") <
	    strstr(rep, "Appendix: the field"));
	assert_true(strstr(rep, "Appendix: the field") <
	    strstr(rep, "This phase's record"));
	assert_non_null(strstr(rep, "This phase's record (step 1) has the head"));
	assert_non_null(strstr(rep, "Your order set's leaf is"));
	assert_non_null(strstr(rep, "The phase's seed, S_1, is"));
	free(rep);
	{
		struct store_mail *m = NULL;
		int n = 0, k, closes = 0;

		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		for (k = 0; k < n; k++) {
			assert_null(strstr(m[k].raw, "orders closed"));
			if (strstr(m[k].raw, "Your forces after the phase") !=
			    NULL && strstr(m[k].raw, "  seat 1 ") != NULL &&
			    strstr(m[k].raw, "  seat 2 ") != NULL &&
			    strstr(m[k].raw, "  root ") != NULL)
				closes++;
		}
		store_mails_free(m, n);
		/* Both reports show every seat's leaf and the root. */
		assert_int_equal(closes, 2);
	}
	b = snapshot(f, &step);
	assert_int_equal(step, 2);
	battle_free(b);
	/* Orders for the phase just played come too late. */
	raw = mail("m10@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n23rd: HOLD\r\n");
	submit(f, raw, &res);
	rep = last_mail(f);
	assert_non_null(strstr(rep, "too late"));
	free(rep);
	free(raw);
	/* Play out the game; then it is over.  Before its last phase (the
	 * continental's), the crown has no phase left: its orders without a
	 * TURN are told so, not "Turn 0". */
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	raw = mail("m11@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\n23rd: HOLD\r\n");
	submit(f, raw, &res);
	rep = last_mail(f);
	assert_non_null(strstr(rep, "Your side has no phase left to play in "
	    "game mill"));
	assert_null(strstr(rep, "Turn 0"));
	free(rep);
	free(raw);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_true(tr.finished);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), -1);
	assert_non_null(strstr(e.msg, "is over"));
}

/* The raw text of the newest outbox mail holding needle, malloc'd. */
static char *
mail_with(struct fx *f, const char *needle)
{
	struct store_mail *m = NULL;
	struct err e;
	char *out = NULL;
	int n = 0, i;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (i = n - 1; i >= 0 && out == NULL; i--)
		if (strstr(m[i].raw, needle) != NULL)
			out = strdup(m[i].raw);
	store_mails_free(m, n);
	if (out == NULL)
		fail_msg("no mail holds \"%s\"", needle);
	return out;
}

/* A command written wrong beside commands that were read is answered
 * too, with what was meant, and changes no orders. */
static void
a_typo_beside_commands_is_answered(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw, *rep;

	start(f);
	raw = mail("t1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nSTATUS\r\n"
	    "READDY\r\n");
	submit(f, raw, &res);
	free(raw);
	/* The STATUS answer, and one for the line not understood. */
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'howe@crown.example.org' AND kind = 'reply'"), 2);
	rep = mail_with(f, "READDY");
	if (strstr(rep, "line 3") == NULL ||
	    strstr(rep, "did you mean READY?") == NULL)
		fail_msg("the typo is not answered:\n%s", rep);
	assert_non_null(strstr(rep, "no orders were changed"));
	free(rep);
}

static void
roster_is_frozen_once_started(void **state)
{
	struct fx *f = *state;
	char secret[REFEREE_SECRET_MAX];
	struct err e;

	start(f);
	assert_int_equal(referee_player_add(&f->r, "mill", "crown",
	    "late@crown.example.org", NULL, NULL, secret, &e), -1);
	assert_non_null(strstr(e.msg, "frozen"));
	assert_int_equal(referee_start(&f->r, "mill", &e), -1);
}

static void
player_add_checks_its_input(void **state)
{
	struct fx *f = *state;
	char secret[REFEREE_SECRET_MAX];
	struct err e;

	assert_int_equal(referee_player_add(&f->r, "mill", "french",
	    "x@y.example.org", NULL, NULL, secret, &e), -1);
	assert_non_null(strstr(e.msg, "its sides are crown, continental"));
	assert_int_equal(referee_player_add(&f->r, "mill", "crown", "not-an-address",
	    NULL, NULL, secret, &e), -1);
	assert_int_equal(referee_player_add(&f->r, "mill", "crown",
	    "x@y.example.org", "short", NULL, secret, &e), -1);
	assert_int_equal(referee_player_add(&f->r, "mill", "crown",
	    "howe@crown.example.org", NULL, NULL, secret, &e), -1);
	assert_non_null(strstr(e.msg, "already plays"));
	/* A generated secret: 5 groups of 5, over 100 bits. */
	assert_int_equal(referee_player_add(&f->r, "mill", "crown",
	    "clinton@crown.example.org", NULL, NULL, secret, &e), 0);
	assert_int_equal(strlen(secret), 29);
	assert_int_equal(secret[5], '-');
}

/* The reply to stored orders carries their map: held from sending while
 * the intake's transaction is open, then composed again with the map
 * inline, the same headers and text, and released.  A player who chose
 * SET MAIL TEXT gets the text alone, released as well. */
static void
the_order_reply_carries_a_map_of_the_orders(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct store_mail *m = NULL;
	struct mail_msg *msg = NULL;
	struct err e;
	char *raw, *reply;
	int n = 0;

	start(f);
	raw = mail("pv1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 6\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(orders_for(f, 1, 0), 1);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	assert_true(n > 0);
	assert_string_equal(m[n - 1].kind, "reply");
	assert_non_null(strstr(m[n - 1].raw, "Content-Type: multipart/alternative"));
	assert_non_null(strstr(m[n - 1].raw, "Content-Type: image/png"));
	assert_non_null(strstr(m[n - 1].raw, "Content-ID: <preview."));
	/* Released: due now, not held. */
	assert_int_equal(m[n - 1].next_attempt_at, 0);
	/* The text is the text a text reader gets. */
	err_clear(&e);
	assert_int_equal(mail_parse(m[n - 1].raw, m[n - 1].len, &msg, &e), 0);
	assert_non_null(strstr(msg->body, "Your orders for"));
	mail_msg_free(msg);
	store_mails_free(m, n);

	raw = mail("pv2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "SET MAIL TEXT\r\n");
	submit(f, raw, &res);
	free(raw);
	raw = mail("pv3@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd: ADVANCE 4\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	assert_string_equal(m[n - 1].kind, "reply");
	assert_null(strstr(m[n - 1].raw, "multipart"));
	assert_int_equal(m[n - 1].next_attempt_at, 0);
	store_mails_free(m, n);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "23rd Foot: ADVANCE 4"));
	free(reply);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_typo_beside_commands_is_answered,
		    setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(start_queues_a_welcome_for_each_player, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(good_mail_is_stored_and_acknowledged, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(mail_seen_before_is_neither_stored_nor_answered, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(unknown_game_gets_a_clear_reply_and_changes_nothing, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(wrong_secret_gets_a_clear_reply_and_changes_nothing, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(stored_mail_has_the_secret_blanked, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(the_order_reply_carries_a_map_of_the_orders,
		    setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(lines_not_understood_are_named_with_suggestions, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(orders_sent_again_replace_the_earlier_set, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(orders_before_start_are_refused_clearly, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(malformed_mail_is_kept_and_changes_nothing, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(automatic_mail_is_never_answered, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(secrets_are_blanked_on_every_path, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(mail_we_cannot_answer_is_still_stored, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(bad_dice_fail_the_turn_and_change_nothing, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(scripted_dice_are_refused_on_a_live_game, setup_live, teardown),
		cmocka_unit_test_setup_teardown(turn_reports_to_every_player_and_opens_the_next_phase, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(roster_is_frozen_once_started, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(player_add_checks_its_input, setup_sandbox, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
