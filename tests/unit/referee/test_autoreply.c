/*
 * test_autoreply.c - every mail that is stored gets its answer, and no
 * machine gets one (issue 22, problem 8): an id the answer cannot carry
 * is left out of it, not the answer; autoreplies marked by any of the
 * fields autoresponders write are neither answered nor read; mail that
 * came through a list is answered at the player's registered address
 * alone, and only when it gave a secret; a secret inside a Message-ID or
 * References is blanked before the id is stored or echoed.
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
#define ORDERS HDR "23rd: HOLD\r\n"

/* A mail From from, with the given extra header lines (CRLF-ended) and
 * body. */
static char *
mail_from(const char *from, const char *fields, const char *body)
{
	char *m = malloc(strlen(from) + strlen(fields) + strlen(body) + 512);

	assert_non_null(m);
	sprintf(m, "From: %s\r\nTo: despatch@localhost\r\nSubject: orders\r\n"
	    "Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n%s"
	    "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
	    "\r\n%s", from, fields, body);
	return m;
}

/* The same from the crown's player. */
static char *
mail_with(const char *fields, const char *body)
{
	return mail_from("William Howe <howe@crown.example.org>", fields, body);
}

/* How many queued mails go to `to`; how many in all when to is NULL. */
static int
queued_to(struct fx *f, const char *to)
{
	struct store_mail *m = NULL;
	int n = 0, k, c = 0;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = 0; k < n; k++)
		c += to == NULL || strcmp(m[k].recipient, to) == 0;
	store_mails_free(m, n);
	return c;
}

/* 1 if some mail queued after the first `from`, headers included, holds
 * s. */
static int
queued_holds(struct fx *f, int from, const char *s)
{
	struct store_mail *m = NULL;
	int n = 0, k, found = 0;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = from; k < n; k++)
		found |= strstr(m[k].raw, s) != NULL;
	store_mails_free(m, n);
	return found;
}

static void
an_id_the_answer_cannot_carry_is_left_out_not_the_answer(void **state)
{
	static const char *const ids[] = {
		/* Longer than the 250 characters the composer writes. */
		NULL,
		/* Folded inside the brackets by a client that folds at 78. */
		"Message-ID: <20231114221320.4f1c2a9e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a\r\n"
		" 2f1e0d@crown.example.org>\r\n",
		/* A relay that put its own id after the client's. */
		"Message-ID: <CAF3d9z=xK2@mail.crown.example.org>\r\n"
		"\t<20231114221321.7A1B@relay.crown.example.org>\r\n",
		/* Cut short by a gateway: a bracket left alone. */
		"Message-ID: <CAF3d9z=xK3@mail.crown.example.org\r\n",
		/* 8-bit, from a client that takes the host name as it is. */
		"Message-ID: <20231114.4242@bureau-d\xc3\xa9" "f\xc3\xa9" "rence>\r\n",
		/* Empty. */
		"Message-ID: <>\r\n",
	};
	struct fx *f = *state;
	struct submit_result res;
	char field[400], *raw, *reply;
	size_t i;

	start(f);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		int before = queued_to(f, "howe@crown.example.org");

		if (ids[i] == NULL) {
			strcpy(field, "Message-ID: <");
			memset(field + 13, 'a', 300);
			strcpy(field + 313, "@crown.example.org>\r\n");
		} else
			snprintf(field, sizeof(field), "%s", ids[i]);
		raw = mail_with(field, ORDERS);
		submit(f, raw, &res);
		free(raw);
		assert_string_equal(res.status, "orders");
		assert_null(strstr(res.note, "not answered"));
		assert_int_equal(queued_to(f, "howe@crown.example.org"),
		    before + 1);
		reply = last_mail(f);
		if (strstr(reply, "In-Reply-To:") != NULL ||
		    strstr(reply, "References:") != NULL)
			fail_msg("case %zu: the answer carries the id:\n%.600s", i,
			    reply);
		/* Still an answer: no other program should answer it. */
		assert_non_null(strstr(reply, "Auto-Submitted: auto-replied"));
		free(reply);
	}
	/* An id that can be written is echoed as before. */
	raw = mail("fine.1@crown.example.org", "howe@crown.example.org", ORDERS);
	submit(f, raw, &res);
	free(raw);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "In-Reply-To: <fine.1@crown.example.org>"));
	free(reply);
	assert_int_equal(orders_for(f, 1, 0), 1);
}

static void
autoreplies_are_neither_answered_nor_read(void **state)
{
	static const char *const marks[] = {
		"X-Autoreply: yes\r\n",
		"X-Autorespond: Re: [mill] Turn 1, crown phase\r\n",
		"Auto-Submitted: auto-notified\r\n",
		"Auto-Submitted: Auto-Replied (vacation)\r\n",
		"Precedence: junk\r\n",
	};
	struct fx *f = *state;
	struct submit_result res;
	char field[200], *raw;
	size_t i;
	int before;

	start(f);
	before = queued_to(f, NULL);
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		/* An autoresponder that quotes the mail it answers whole:
		 * the header and an order are in it. */
		snprintf(field, sizeof(field), "Message-ID: <away.%zu@crown."
		    "example.org>\r\n%s", i, marks[i]);
		raw = mail_with(field, "I am away until Monday.\r\n\r\n" ORDERS);
		submit(f, raw, &res);
		free(raw);
		assert_string_equal(res.status, "ignored");
		assert_int_equal(orders_for(f, 1, 0), 0);
		assert_int_equal(queued_to(f, NULL), before);
	}
	/* "no" is a person's mail, whatever the field. */
	raw = mail_with("Message-ID: <here.1@crown.example.org>\r\n"
	    "X-Autoreply: no\r\n", ORDERS);
	submit(f, raw, &res);
	free(raw);
	assert_string_equal(res.status, "orders");
	assert_int_equal(orders_for(f, 1, 0), 1);
}

static void
list_mail_with_a_secret_is_answered_at_the_registered_address_alone(
    void **state)
{
	/* Mailman 3 (no Precedence) and Google Groups (Precedence: list),
	 * each with the From rewritten to the list's and Reply-To the
	 * list. */
	static const char *const lists[] = {
		"List-Id: Crown officers <officers.lists.example.org>\r\n"
		"List-Unsubscribe: <mailto:officers-leave@lists.example.org>\r\n",
		"Precedence: list\r\n"
		"Mailing-list: list officers@googlegroups.com; contact "
		"officers+owners@googlegroups.com\r\n",
	};
	struct fx *f = *state;
	struct submit_result res;
	char fields[600], *raw;
	size_t i;
	int howe;

	start(f);
	howe = queued_to(f, "howe@crown.example.org");
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		int before = queued_to(f, NULL);
		char *reply;

		snprintf(fields, sizeof(fields), "Message-ID: <list.%zu@crown."
		    "example.org>\r\nReply-To: officers@lists.example.org\r\n%s",
		    i, lists[i]);
		/* The list rewrote the From (DMARC). */
		raw = mail_from("Howe via Officers <officers@lists.example.org>",
		    fields, ORDERS);
		submit(f, raw, &res);
		free(raw);
		assert_string_equal(res.status, "orders");
		assert_int_equal(orders_for(f, 1, 0), 1);
		assert_int_equal(queued_to(f, NULL), before + 1);
		assert_int_equal(queued_to(f, "howe@crown.example.org"),
		    howe + (int)i + 1);
		assert_int_equal(queued_to(f, "officers@lists.example.org"), 0);
		reply = last_mail(f);
		assert_non_null(strstr(reply, "through a mailing list"));
		assert_non_null(strstr(reply, "ask the operator for a new one"));
		free(reply);
	}
	/* A list mail from the player's own address, without Reply-To: to
	 * that address, once. */
	raw = mail_with("Message-ID: <list.own@crown.example.org>\r\n"
	    "List-Post: <mailto:officers@lists.example.org>\r\n", ORDERS);
	submit(f, raw, &res);
	free(raw);
	assert_string_equal(res.status, "orders");
	assert_int_equal(queued_to(f, "howe@crown.example.org"), howe + 3);
}

static void
list_mail_without_a_secret_is_ignored(void **state)
{
	static const char *const bodies[] = {
		"HELP\r\n",
		"STATUS of the club's games:\r\n\r\n"
		"GAME mill SIDE crown TURN 1 PASSWORD your-secret-here\r\n",
		"GAME nosuchgame SIDE crown PASSWORD red-coat-secret\r\n",
	};
	struct fx *f = *state;
	struct submit_result res;
	char fields[300], *raw;
	size_t i;
	int before;

	start(f);
	before = queued_to(f, NULL);
	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		/* A newsletter with List-Unsubscribe and nothing else of a
		 * list's. */
		snprintf(fields, sizeof(fields), "Message-ID: <news.%zu@lists."
		    "example.org>\r\nList-Unsubscribe: <https://lists.example.org/"
		    "u?id=42>\r\n", i);
		raw = mail_with(fields, bodies[i]);
		submit(f, raw, &res);
		free(raw);
		assert_string_equal(res.status, "ignored");
		assert_non_null(strstr(res.note, "mailing list"));
		assert_int_equal(queued_to(f, NULL), before);
	}
	assert_int_equal(orders_for(f, 1, 0), 0);
}

static void
a_secret_in_a_message_id_is_blanked_before_it_is_stored_or_echoed(
    void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *raw;
	int64_t kept;
	int howe, welcomes;

	start(f);
	kept = q(f, "SELECT count(*) FROM messages");
	howe = queued_to(f, "howe@crown.example.org");
	welcomes = queued_to(f, NULL);
	/* The typed secret, in the id Python's make_msgid(idstring=...)
	 * builds from it. */
	raw = mail_with("Message-ID: <170000000012.4242.72164365193873910.red-"
	    "coat-secret@laptop>\r\n", ORDERS);
	submit(f, raw, &res);
	free(raw);
	assert_string_equal(res.status, "orders");
	/* Another player's secret, known by its hash only: in the
	 * Message-ID, the In-Reply-To and the References of a mail with no
	 * header. */
	raw = mail_with("Message-ID: <1700000001.blue-coat-secret@laptop>\r\n"
	    "In-Reply-To: <x.blue-coat-secret@laptop>\r\n"
	    "References: <a@b> <y.blue-coat-secret@laptop>\r\n", "23rd: HOLD\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_string_equal(res.status, "no-header");
	assert_int_equal(q(f, "SELECT count(*) FROM messages"), kept + 2);
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id "
	    "LIKE '%coat-secret%' OR CAST(raw AS TEXT) LIKE '%coat-secret%' OR "
	    "coalesce(text, '') LIKE '%coat-secret%'"), 0);
	/* The answers went, with the ids blanked where they echo them. */
	assert_int_equal(queued_to(f, "howe@crown.example.org"), howe + 2);
	assert_false(queued_holds(f, welcomes, "coat-secret"));
	assert_true(queued_holds(f, welcomes, "In-Reply-To: <170000000012.4242."
	    "72164365193873910.***************@laptop>"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(an_id_the_answer_cannot_carry_is_left_out_not_the_answer, setup_live, teardown),
		cmocka_unit_test_setup_teardown(autoreplies_are_neither_answered_nor_read, setup_live, teardown),
		cmocka_unit_test_setup_teardown(list_mail_with_a_secret_is_answered_at_the_registered_address_alone, setup_live, teardown),
		cmocka_unit_test_setup_teardown(list_mail_without_a_secret_is_ignored, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_secret_in_a_message_id_is_blanked_before_it_is_stored_or_echoed, setup_live, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
