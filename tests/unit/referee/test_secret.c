/*
 * test_secret.c - the mail commands SECRET (a new secret for a player
 * who lost theirs, mailed to the registered address only, the old one
 * working until the new is used) and ABSENT (a player's absence: the
 * deadline put off, the others told the dates), and migration 027 that
 * keeps them.  No answer names another player's address or secret.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/verify.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define HDR "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"

/* The reply's text names no player's address but the asker's, and no
 * secret. */
static void
assert_clean(const char *reply, const char *asker)
{
	const char *text = strstr(reply, "\r\n\r\n");
	static const char *const addrs[] = { "howe@crown.example.org",
		"greene@cont.example.org", NULL };
	int i;

	assert_non_null(text);
	for (i = 0; addrs[i] != NULL; i++)
		if (strcmp(addrs[i], asker) != 0)
			assert_null(strstr(text, addrs[i]));
	assert_null(strstr(reply, "coat-secret"));
	assert_null(strstr(reply, "secret-of"));
	assert_null(strstr(text, "Your new secret:"));
	assert_null(strstr(reply, "Cc:"));
}

/* Submits body from from (Reply-To reply_to unless NULL): the status,
 * and the answer's text (the last mail queued), checked clean. */
static char *
ask(struct fx *f, const char *from, const char *reply_to, const char *body,
    const char *status)
{
	static int seq;
	struct submit_result res;
	char id[64], *m, *reply, *text;

	/* (Not "secret.N": what follows the word secret is blanked.) */
	snprintf(id, sizeof(id), "sx.%d@else.example.org", ++seq);
	m = mail_reply_to(id, from, reply_to, body);
	submit(f, m, &res);
	free(m);
	if (status != NULL)
		assert_string_equal(res.status, status);
	reply = last_mail(f);
	assert_clean(reply, reply_to != NULL ? reply_to : from);
	text = strdup(strstr(reply, "\r\n\r\n") + 4);
	assert_non_null(text);
	free(reply);
	return text;
}

/* The welcomes delivered, so that only new mail is queued. */
static void
deliver_all(struct fx *f)
{
	struct store_mail *ml = NULL;
	struct err e;
	int n = 0, k;

	assert_int_equal(store_outbox_list(f->st, 1, &ml, &n, &e), 0);
	for (k = 0; k < n; k++)
		assert_int_equal(store_outbox_delivered(f->st, ml[k].id,
		    1700000000, &e), 0);
	store_mails_free(ml, n);
}

static int64_t
secret_mails(struct fx *f)
{
	return q(f, "SELECT count(*) FROM outbox WHERE kind = 'secret'");
}

/* The new secret from the last secret mail to howe. */
static void
new_secret(struct fx *f, char *out, size_t size)
{
	char *r = mail_to(f, "howe@crown.example.org", "Your new secret"), *at;
	char fmt[32];

	assert_non_null(r);
	at = strstr(r, "Your new secret: ");
	assert_non_null(at);
	snprintf(fmt, sizeof(fmt), "Your new secret: %%%zus", size - 1);
	assert_int_equal(sscanf(at, fmt, out), 1);
	/* 25 symbols of 31: 123 bits. */
	assert_int_equal(strlen(out), 29);
	free(r);
}

static const char *
orders_with(const char *secret, char *buf, size_t size)
{
	snprintf(buf, size, "GAME mill SIDE crown TURN 1 PASSWORD %s\r\n"
	    "23rd Foot: HOLD\r\n", secret);
	return buf;
}

/* The game's archive verifies, with acts operators' acts. */
static void
assert_verifies(struct fx *f, int acts)
{
	char *out = NULL;
	size_t n = 0;
	FILE *io = open_memstream(&out, &n);
	struct verify_opts vo;
	struct verify_result *vr = calloc(1, sizeof(*vr));
	struct err e;

	assert_non_null(io);
	assert_non_null(vr);
	assert_int_equal(referee_export(&f->r, "mill", io, 0, &e), 0);
	fclose(io);
	io = fmemopen(out, n, "r");
	memset(&vo, 0, sizeof(vo));
	if (ledger_verify(io, &vo, vr) != 0)
		fail_msg("line %d %s: %s", vr->line, vr->field, vr->msg);
	assert_int_equal(vr->acts, acts);
	fclose(io);
	free(out);
	free(vr);
}

/* SECRET from the registered address: a new secret mailed there alone;
 * the old one works until the new one is first used, then not. */
static void
secret_mails_a_new_one_and_the_old_works_until_it_is_used(void **state)
{
	struct fx *f = *state;
	char *r, secret[64], buf[300];

	start(f);
	deliver_all(f);
	r = ask(f, "howe@crown.example.org", NULL, "SECRET\r\n", "commands");
	assert_non_null(strstr(r, "A new secret for game mill, made by the "
	    "server, is mailed"));
	free(r);
	assert_int_equal(secret_mails(f), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE kind = "
	    "'secret' AND recipient = 'howe@crown.example.org'"), 1);
	new_secret(f, secret, sizeof(secret));
	/* No act yet: the seat's secret has not changed. */
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    0);
	/* The old secret still works. */
	free(ask(f, "howe@crown.example.org", NULL, HDR "23rd Foot: HOLD\r\n",
	    "orders"));
	/* The new one works, and from then on only it. */
	free(ask(f, "howe@crown.example.org", NULL, orders_with(secret, buf,
	    sizeof(buf)), "orders"));
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    1);
	assert_int_equal(q(f, "SELECT count(*) FROM players WHERE pending_hash "
	    "IS NOT NULL"), 0);
	/* The old one is refused, and the answer says how to get another. */
	r = ask(f, "howe@crown.example.org", NULL, HDR "23rd Foot: HOLD\r\n",
	    "rejected");
	assert_non_null(strstr(r, "does not match any player"));
	assert_non_null(strstr(r, "Send SECRET alone"));
	free(r);
	free(ask(f, "howe@crown.example.org", NULL, orders_with(secret, buf,
	    sizeof(buf)), "orders"));
	/* The chain with its reset act verifies. */
	assert_verifies(f, 1);
}

/* A header naming the game but without a secret, with SECRET below it,
 * asks the same. */
static void
secret_under_a_header_without_a_secret(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	deliver_all(f);
	r = ask(f, "howe@crown.example.org", NULL, "GAME mill SIDE crown\r\n"
	    "SECRET\r\n", "commands");
	assert_non_null(strstr(r, "A new secret for game mill"));
	free(r);
	assert_int_equal(secret_mails(f), 1);
}

/* A forged From with a Reply-To elsewhere, and an address that plays no
 * game, get the same words, which name no game, address or secret; the
 * forgery's secret goes to the registered address only. */
static void
secret_to_a_forged_or_unknown_sender_reveals_nothing(void **state)
{
	struct fx *f = *state;
	char *forged, *unknown, *named;

	start(f);
	deliver_all(f);
	forged = ask(f, "howe@crown.example.org", "spy@else.example.org",
	    "SECRET\r\n", "commands");
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'spy@else.example.org' AND kind = 'reply'"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE kind = "
	    "'secret' AND recipient != 'howe@crown.example.org'"), 0);
	assert_int_equal(secret_mails(f), 1);
	unknown = ask(f, "nobody@else.example.org", NULL, "SECRET\r\n",
	    "commands");
	assert_string_equal(forged, unknown);
	assert_null(strstr(forged, "mill"));
	assert_null(strstr(forged, "crown"));
	assert_int_equal(secret_mails(f), 1);
	/* With a game named: the same whether or not it exists. */
	named = ask(f, "nobody@else.example.org", NULL, "SECRET mill\r\n",
	    "commands");
	free(unknown);
	unknown = ask(f, "nobody@else.example.org", NULL, "SECRET nosuch\r\n",
	    "commands");
	assert_non_null(strstr(named, "plays game mill"));
	assert_non_null(strstr(unknown, "plays game nosuch"));
	free(named);
	free(forged);
	free(unknown);
	assert_int_equal(secret_mails(f), 1);
}

/* An address playing several games is asked which, by their names; SECRET
 * GAME then answers for that one. */
static void
secret_from_a_player_of_several_games_asks_which(void **state)
{
	struct fx *f = *state;
	char path[400], secret[REFEREE_SECRET_MAX], *r;
	struct err e;

	snprintf(path, sizeof(path), "%s/mill.scenario", f->dir);
	if (referee_new_game(&f->r, "ford", path, 0, NULL, &e) != 0 ||
	    referee_player_add(&f->r, "ford", "continental",
	    "greene@cont.example.org", "ford-secret-of-greene", NULL, secret,
	    &e) != 0)
		fail_msg("%s", e.msg);
	start(f);
	deliver_all(f);
	r = ask(f, "greene@cont.example.org", NULL, "SECRET\r\n", "commands");
	assert_non_null(strstr(r, "This address plays 2 games on this server: "
	    "ford, mill."));
	assert_non_null(strstr(r, "SECRET ford"));
	free(r);
	assert_int_equal(secret_mails(f), 0);
	r = ask(f, "greene@cont.example.org", NULL, "SECRET mill\r\n",
	    "commands");
	assert_non_null(strstr(r, "A new secret for game mill"));
	free(r);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE kind = "
	    "'secret' AND recipient = 'greene@cont.example.org'"), 1);
	/* A game not started: the welcome brings the secret. */
	r = ask(f, "greene@cont.example.org", NULL, "SECRET ford\r\n",
	    "commands");
	assert_non_null(strstr(r, "Game ford has not started"));
	free(r);
	assert_int_equal(secret_mails(f), 1);
}

/* A secret waiting to be used is blanked from what is stored of any mail
 * that holds it, as every secret is. */
static void
a_pending_secret_is_redacted(void **state)
{
	struct fx *f = *state;
	char secret[64], body[300], *raw = NULL;
	struct err e;

	start(f);
	deliver_all(f);
	free(ask(f, "howe@crown.example.org", NULL, "SECRET\r\n", "commands"));
	new_secret(f, secret, sizeof(secret));
	snprintf(body, sizeof(body), "Hello, is %s a secret?\r\n", secret);
	free(ask(f, "stranger@else.example.org", NULL, body, NULL));
	assert_int_equal(store_query_text(f->st, &e, &raw, NULL, "SELECT raw "
	    "FROM messages ORDER BY id DESC LIMIT 1", ""), 1);
	assert_non_null(raw);
	assert_non_null(strstr(raw, "Hello, is "));
	assert_null(strstr(raw, secret));
	free(raw);
}

/* The open phase's deadline. */
static int64_t
deadline(struct fx *f)
{
	return q(f, "SELECT deadline_at FROM games WHERE name = 'mill'");
}

static void
start_with_deadline(struct fx *f)
{
	struct err e;

	if (referee_setting_set(&f->r, "mill", "deadline", "48h", &e) != 0)
		fail_msg("%s", e.msg);
	start(f);
	deliver_all(f);
}

/* ABSENT with extend (the default): a deadline in the absence is put off
 * to the day after it, with an extend act the chain verifies; the others
 * are told the dates only; CANCEL withdraws it. */
static void
absent_puts_the_deadline_off_and_cancel_withdraws_it(void **state)
{
	struct fx *f = *state;
	char *r;
	int64_t before;

	/* 1700000000 is 2023-11-14 22:13 UTC: the deadline 2023-11-16. */
	start_with_deadline(f);
	before = deadline(f);
	r = ask(f, "howe@crown.example.org", NULL, HDR
	    "ABSENT FROM 2023-11-15 TO 2023-11-17\r\n", "commands");
	assert_non_null(strstr(r, "Noted: you are away from 2023-11-15 to "
	    "2023-11-17 in game mill, 3 days"));
	assert_non_null(strstr(r, "(3 of the 14 days"));
	assert_non_null(strstr(r, "The open phase's deadline is now"));
	free(r);
	/* Two days on: the day after the absence, at the same time. */
	assert_int_equal(deadline(f), before + 2 * 86400);
	assert_int_equal(q(f, "SELECT count(*) FROM absences"), 1);
	r = mail_to(f, "greene@cont.example.org", "a player away");
	assert_non_null(r);
	assert_non_null(strstr(r, "a player of side crown (Crown) will be away "
	    "from\n2023-11-15 to 2023-11-17 (3 days)."));
	assert_null(strstr(r, "howe@"));
	assert_null(strstr(r, "coat-secret"));
	free(r);
	/* The chain with the extend act verifies. */
	assert_verifies(f, 1);
	r = ask(f, "howe@crown.example.org", NULL, HDR "ABSENT CANCEL\r\n",
	    "commands");
	assert_non_null(strstr(r, "Cancelled: your absence from 2023-11-15 to "
	    "2023-11-17."));
	free(r);
	assert_int_equal(q(f, "SELECT count(*) FROM absences"), 0);
	r = mail_to(f, "greene@cont.example.org", "an absence cancelled");
	assert_non_null(r);
	assert_non_null(strstr(r, "is no longer away:\nthe absence from "
	    "2023-11-15 to 2023-11-17 is cancelled. A deadline"));
	assert_null(strstr(r, "howe@"));
	free(r);
	r = ask(f, "howe@crown.example.org", NULL, HDR "ABSENT CANCEL\r\n",
	    "commands");
	assert_non_null(strstr(r, "no absence in game mill"));
	free(r);
}

/* Days in the past and more days than the cap are refused, saying what
 * would be right, and nothing is stored or moved. */
static void
absent_refuses_the_past_and_past_the_cap(void **state)
{
	struct fx *f = *state;
	char *r;
	int64_t before;
	struct err e;

	start_with_deadline(f);
	before = deadline(f);
	r = ask(f, "howe@crown.example.org", NULL, HDR
	    "ABSENT FROM 2023-11-01 TO 2023-11-20\r\n", "commands");
	assert_non_null(strstr(r, "Line 2, ABSENT FROM 2023-11-01 TO "
	    "2023-11-20: 2023-11-01 is in the past (today is 2023-11-14"));
	assert_non_null(strstr(r, "ABSENT FROM 2023-11-14 TO 2023-11-20"));
	assert_non_null(strstr(r, "Nothing was stored."));
	free(r);
	r = ask(f, "howe@crown.example.org", NULL, HDR
	    "ABSENT FROM 2023-11-15 TO 2023-12-15\r\n", "commands");
	assert_non_null(strstr(r, "that is 31 days, but a player may be away "
	    "at most 14 days"));
	assert_non_null(strstr(r, "ABSENT FROM 2023-11-15 TO 2023-11-28"));
	free(r);
	assert_int_equal(q(f, "SELECT count(*) FROM absences"), 0);
	assert_int_equal(deadline(f), before);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    0);
	/* The cap is a setting; absence standing leaves the deadline. */
	assert_int_equal(referee_setting_set(&f->r, "mill", "absence-cap", "40",
	    &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "mill", "absence",
	    "standing", &e), 0);
	r = ask(f, "howe@crown.example.org", NULL, HDR
	    "ABSENT FROM 2023-11-15 TO 2023-12-15\r\n", "commands");
	assert_non_null(strstr(r, "This game's deadlines stand"));
	assert_non_null(strstr(r, "STANDING: 23rd Foot: HOLD"));
	free(r);
	assert_int_equal(deadline(f), before);
	assert_int_equal(q(f, "SELECT count(*) FROM absences"), 1);
}

/* A deadline set when a phase opens is put off too. */
static void
absent_puts_off_a_phase_opened_later(void **state)
{
	struct fx *f = *state;
	int64_t before;

	start_with_deadline(f);
	free(ask(f, "greene@cont.example.org", NULL, "GAME mill SIDE "
	    "continental TURN 1 PASSWORD blue-coat-secret\r\n"
	    "ABSENT FROM 2023-11-16 TO 2023-11-20\r\n", "commands"));
	/* Turn 1's deadline (2023-11-16 22:13) moved to the 21st. */
	before = deadline(f);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    1);
	play(f, "mill", 1);
	/* The next phase opens on the 14th (the fixed clock): its deadline,
	 * the 16th, falls in the absence and goes to the 21st (the fixed
	 * clock ticks a minute a call). */
	assert_true(deadline(f) >= before && deadline(f) <= before + 3600);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    2);
	/* Its act, written as the phase opened, verifies with the step. */
	assert_verifies(f, 2);
}

/* An absent player's phases without orders are not counted against them:
 * nobody is told they sent none. */
static void
an_absent_player_is_not_counted_as_missing(void **state)
{
	struct fx *f = *state;
	struct err e;

	assert_int_equal(referee_setting_set(&f->r, "mill", "absence",
	    "standing", &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "mill", "nmr-limit", "1",
	    &e), 0);
	start_with_deadline(f);
	free(ask(f, "howe@crown.example.org", NULL, HDR
	    "ABSENT FROM 2023-11-14 TO 2023-11-20\r\n", "commands"));
	play(f, "mill", 1);
	assert_int_equal(q(f, "SELECT nmr_count FROM players WHERE "
	    "email = 'howe@crown.example.org'"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE subject LIKE "
	    "'%has sent no orders%'"), 0);
}

/* HELP, in a game and without one, lists both commands with examples. */
static void
help_lists_secret_and_absent(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	r = ask(f, "howe@crown.example.org", NULL, HDR "HELP\r\n", "commands");
	assert_non_null(strstr(r, "  SECRET [GAME]  "));
	assert_non_null(strstr(r, "ABSENT FROM 2026-12-24\n"));
	assert_non_null(strstr(r, "  ABSENT CANCEL  "));
	/* Examples from the player's own game. */
	assert_non_null(strstr(r, "SECRET mill)"));
	assert_non_null(strstr(r, "LIST mill,"));
	free(r);
	r = ask(f, "stranger@else.example.org", NULL, "HELP\r\n", "commands");
	assert_non_null(strstr(r, "Lost your secret? Send SECRET alone"));
	free(r);
}

/* A store at schema 26 is brought to 27: the pending secret column and
 * the absences table, its rows kept. */
static void
a_store_at_26_upgrades_to_27(void **state)
{
	struct fx *f = *state;
	char path[400];
	struct store *st;
	struct err e;
	int64_t v = 0;

	(void)f;
	snprintf(path, sizeof(path), "%s/old.db", f->dir);
	assert_int_equal(store_open(path, 1, 26, &st, &e), 0);
	assert_int_equal(store_version(st), 26);
	assert_int_equal(store_query_int(st, &e, &v, "SELECT count(*) FROM "
	    "pragma_table_info('players') WHERE name = 'pending_hash'", ""), 1);
	assert_int_equal(v, 0);
	store_close(st);
	assert_int_equal(store_open(path, 0, -1, &st, &e), 0);
	assert_true(store_version(st) >= 27);
	assert_int_equal(store_query_int(st, &e, &v, "SELECT count(*) FROM "
	    "pragma_table_info('players') WHERE name = 'pending_hash'", ""), 1);
	assert_int_equal(v, 1);
	assert_int_equal(store_query_int(st, &e, &v, "SELECT count(*) FROM "
	    "absences", ""), 1);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(secret_mails_a_new_one_and_the_old_works_until_it_is_used, setup_live, teardown),
		cmocka_unit_test_setup_teardown(secret_under_a_header_without_a_secret, setup_live, teardown),
		cmocka_unit_test_setup_teardown(secret_to_a_forged_or_unknown_sender_reveals_nothing, setup_live, teardown),
		cmocka_unit_test_setup_teardown(secret_from_a_player_of_several_games_asks_which, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_pending_secret_is_redacted, setup_live, teardown),
		cmocka_unit_test_setup_teardown(absent_puts_the_deadline_off_and_cancel_withdraws_it, setup_live, teardown),
		cmocka_unit_test_setup_teardown(absent_refuses_the_past_and_past_the_cap, setup_live, teardown),
		cmocka_unit_test_setup_teardown(absent_puts_off_a_phase_opened_later, setup_live, teardown),
		cmocka_unit_test_setup_teardown(an_absent_player_is_not_counted_as_missing, setup_live, teardown),
		cmocka_unit_test_setup_teardown(help_lists_secret_and_absent, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_store_at_26_upgrades_to_27, setup_live, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
