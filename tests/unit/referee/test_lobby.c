/*
 * test_lobby.c - the mail commands of issue 25: LIST and JOIN (what a
 * stranger, a player and a forged sender are told; the joining and seats
 * settings; no answer names an address or a secret) and SET PASSWORD.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define HDR "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"

/* A second game, "ford", from the same scenario, open for joining, the
 * crown given two seats and Greene (already of mill) its continental. */
static void
open_ford(struct fx *f)
{
	char path[400], secret[REFEREE_SECRET_MAX];
	struct err e;

	snprintf(path, sizeof(path), "%s/mill.scenario", f->dir);
	if (referee_new_game(&f->r, "ford", path, 0, NULL, &e) != 0 ||
	    referee_setting_set(&f->r, "ford", "joining", "open", &e) != 0 ||
	    referee_setting_set(&f->r, "ford", "seats", "crown 2", &e) != 0 ||
	    referee_player_add(&f->r, "ford", "continental",
	    "greene@cont.example.org", "ford-secret-of-greene", NULL, secret,
	    &e) != 0)
		fail_msg("%s", e.msg);
}

/* Submits body from from (and Reply-To reply_to unless NULL); the
 * answer as the sender reads it. */
static char *
ask(struct fx *f, const char *from, const char *reply_to, const char *body)
{
	static int seq;
	struct submit_result res;
	char id[64], *m, *reply, *text;

	snprintf(id, sizeof(id), "lobby.%d@else.example.org", ++seq);
	m = mail_reply_to(id, from, reply_to, body);
	submit(f, m, &res);
	assert_string_equal(res.status, "commands");
	free(m);
	reply = last_mail(f);
	/* Addressed to the asker alone; its text names no player's address
	 * and no secret. */
	text = strstr(reply, "\r\n\r\n");
	assert_non_null(text);
	assert_null(strstr(text, "howe@crown"));
	assert_null(strstr(text, "greene@cont"));
	assert_null(strstr(text, "clinton@crown"));
	assert_null(strstr(reply, "secret-of"));
	assert_null(strstr(reply, "coat-secret"));
	assert_null(strstr(reply, "Cc:"));
	return reply;
}

/* A stranger without any game line is told the games open for joining,
 * with their free seats, and not the others. */
static void
a_stranger_is_listed_the_games_open_for_joining(void **state)
{
	struct fx *f = *state;
	char *r;

	r = ask(f, "stranger@else.example.org", NULL, "LIST\r\n");
	assert_non_null(strstr(r, "stranger@else.example.org"));
	assert_non_null(strstr(r, "ford: Skirmish at the Mill (ruleset "
	    "vnb-wing), not started"));
	assert_non_null(strstr(r, "crown          Crown: 0 players, 2 free seats "
	    "(JOIN ford crown)"));
	/* The continental seat is taken: not offered. */
	assert_null(strstr(r, "JOIN ford continental"));
	assert_null(strstr(r, "mill:"));
	assert_non_null(strstr(r, "JOIN <game> <side> takes a free seat; your "
	    "secret comes in the welcome"));
	free(r);
	/* Nothing open: said so. */
	{
		struct err e;

		assert_int_equal(referee_setting_set(&f->r, "ford", "joining",
		    "closed", &e), 0);
	}
	r = ask(f, "stranger@else.example.org", NULL, "list\r\n");
	assert_non_null(strstr(r, "No game on this server is open for joining "
	    "now, and this address plays in none."));
	assert_null(strstr(r, "ford:"));
	free(r);
}

/* A player is told their own games too, with the phase and whether each
 * side has sent orders; a forged From (Reply-To elsewhere) is not. */
static void
a_player_is_listed_their_own_games(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	r = ask(f, "howe@crown.example.org", NULL, "LIST\r\n");
	assert_non_null(strstr(r, "mill: Skirmish at the Mill (ruleset "
	    "vnb-wing), turn 1 of 2, Crown"));
	assert_non_null(strstr(r, "you play Crown"));
	assert_non_null(strstr(r, "orders for the open phase: none yet"));
	assert_non_null(strstr(r, "ford:"));
	free(r);
	/* The same From with the answer going elsewhere learns no game of
	 * Howe's. */
	r = ask(f, "howe@crown.example.org", "spy@else.example.org",
	    "LIST\r\n");
	assert_null(strstr(r, "mill:"));
	assert_non_null(strstr(r, "ford:"));
	free(r);
	/* LIST in an order mail answers as a command. */
	r = ask(f, "howe@crown.example.org", NULL, HDR "LIST\r\n");
	assert_non_null(strstr(r, "you play Crown"));
	free(r);
}

/* LIST GAME: one game's seats and standing, to whoever may see it. */
static void
list_game_tells_one_game(void **state)
{
	struct fx *f = *state;
	char *r;

	r = ask(f, "stranger@else.example.org", NULL, "LIST ford\r\n");
	assert_non_null(strstr(r, "Game ford:"));
	/* A full side: no JOIN line that could not take a seat. */
	assert_non_null(strstr(r, "continental    Continental: 1 player, no "
	    "free seat\n"));
	assert_non_null(strstr(r, "Joining is open until the game starts."));
	free(r);
	r = ask(f, "stranger@else.example.org", NULL, "LIST mill\r\n");
	assert_non_null(strstr(r, "Game mill is not open for joining, and you "
	    "play no part in it."));
	free(r);
	r = ask(f, "stranger@else.example.org", NULL, "LIST nosuch\r\n");
	assert_non_null(strstr(r, "This server runs no game called \"nosuch\"."));
	free(r);
	r = ask(f, "greene@cont.example.org", NULL, "LIST mill\r\n");
	assert_non_null(strstr(r, "Game mill:"));
	assert_non_null(strstr(r, "you play Continental"));
	free(r);
	/* Joining closes when the game starts. */
	{
		struct err e;
		char secret[REFEREE_SECRET_MAX];

		if (referee_player_add(&f->r, "ford", "crown",
		    "clinton@crown.example.org", "ford-secret-of-clinton", NULL,
		    secret, &e) != 0 || referee_start(&f->r, "ford", &e) != 0)
			fail_msg("%s", e.msg);
	}
	r = ask(f, "stranger@else.example.org", NULL, "LIST ford\r\n");
	assert_non_null(strstr(r, "Game ford is not open for joining"));
	free(r);
}

/* The seats setting: one side at a time, merged; a wrong side or count
 * is an error that says what would be right. */
static void
seats_are_set_one_side_at_a_time(void **state)
{
	struct fx *f = *state;
	struct err e;
	char v[128];
	int64_t id = 0, step = 0;
	enum game_status st;

	assert_int_equal(store_game_find(f->st, "ford", &id, &st, &step, &e), 1);
	assert_int_equal(referee_setting_get(&f->r, id, "seats", v, sizeof(v),
	    &e), 0);
	assert_string_equal(v, "crown=2");
	assert_int_equal(referee_setting_set(&f->r, "ford", "seats",
	    "continental 3", &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "ford", "seats", "crown 1",
	    &e), 0);
	assert_int_equal(referee_setting_get(&f->r, id, "seats", v, sizeof(v),
	    &e), 0);
	assert_string_equal(v, "continental=3,crown=1");
	assert_int_equal(referee_setting_set(&f->r, "ford", "seats", "hessian 1",
	    &e), -1);
	assert_non_null(strstr(e.msg, "its sides are crown, continental"));
	assert_int_equal(referee_setting_set(&f->r, "ford", "seats", "crown",
	    &e), -1);
	assert_non_null(strstr(e.msg, "seats takes a side and a number"));
	assert_int_equal(referee_setting_set(&f->r, NULL, "seats", "crown 1",
	    &e), -1);
	assert_int_equal(referee_setting_set(&f->r, "ford", "joining", "maybe",
	    &e), -1);
	assert_non_null(strstr(e.msg, "joining takes closed or open"));
}

/* JOIN takes a free seat for the From address; the operator is told;
 * a full side, a taken seat, a closed game, a Reply-To elsewhere and a
 * JOIN written wrong are each answered with what would be right. */
static void
join_takes_a_free_seat(void **state)
{
	struct fx *f = *state;
	struct store_player p[8];
	struct err e;
	int64_t id = 0, step = 0, n = 0;
	enum game_status st;
	char *r;

	assert_int_equal(referee_setting_set(&f->r, "ford", "operator",
	    "umpire@club.example.org", &e), 0);
	assert_int_equal(store_game_find(f->st, "ford", &id, &st, &step, &e), 1);
	/* The crown has two seats: a joiner names their brigades. */
	r = ask(f, "cornwallis@crown.example.org", NULL, "JOIN ford crown\r\n");
	assert_non_null(strstr(r, "JOIN ford crown <brigade>, <brigade>"));
	assert_non_null(strstr(r, "  1st\n"));
	free(r);
	r = ask(f, "cornwallis@crown.example.org", NULL,
	    "JOIN ford crown 1st\r\n");
	assert_non_null(strstr(r, "You have a seat of crown (Crown) in game "
	    "ford"));
	assert_non_null(strstr(r, "When the operator starts the game you get "
	    "the welcome"));
	free(r);
	/* The operator is told, with the address. */
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'umpire@club.example.org' AND kind = 'notice' AND subject = "
	    "'[ford] cornwallis@crown.example.org joined crown' AND "
	    "instr(raw, '1 player now, 1 seat still free') > 0"), 1);
	assert_int_equal(store_players(f->st, id, 0, p, 8, &e), 1);
	assert_string_equal(p[0].email, "cornwallis@crown.example.org");
	/* The second seat, then none. */
	r = ask(f, "clinton@crown.example.org", NULL, "join FORD Crown army\r\n");
	free(r);
	assert_int_equal(store_players_count(f->st, id, 0, &n, &e), 0);
	assert_int_equal((int)n, 2);
	r = ask(f, "burgoyne@crown.example.org", NULL, "JOIN ford crown\r\n");
	assert_non_null(strstr(r, "Side crown of game ford has no free seat."));
	/* A full side is listed without a JOIN line to take a seat. */
	assert_null(strstr(r, "(JOIN ford crown)"));
	free(r);
	r = ask(f, "burgoyne@crown.example.org", NULL, "JOIN ford hessian\r\n");
	assert_non_null(strstr(r, "Game ford has no side \"hessian\"."));
	free(r);
	r = ask(f, "clinton@crown.example.org", NULL, "JOIN ford continental\r\n");
	assert_non_null(strstr(r, "You play in game ford already"));
	free(r);
	r = ask(f, "burgoyne@crown.example.org", "spy@else.example.org",
	    "JOIN ford crown\r\n");
	assert_non_null(strstr(r, "JOIN must come from the address that will "
	    "play"));
	free(r);
	r = ask(f, "burgoyne@crown.example.org", NULL, "JOIN mill crown\r\n");
	assert_non_null(strstr(r, "Game mill is not open for joining."));
	free(r);
	r = ask(f, "burgoyne@crown.example.org", NULL, "JOIN ford\r\n");
	assert_non_null(strstr(r, "JOIN takes a game and a side"));
	free(r);
	assert_int_equal(store_players_count(f->st, id, -1, &n, &e), 0);
	assert_int_equal((int)n, 3);
	/* The joined players get their welcome, with a secret, at the
	 * start. */
	if (referee_start(&f->r, "ford", &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(q(f, "SELECT count(*) FROM outbox WHERE subject LIKE '%Welcome%' "
	    "AND recipient = 'cornwallis@crown.example.org'") == 1);
	r = ask(f, "burgoyne@crown.example.org", NULL, "JOIN ford crown\r\n");
	assert_non_null(strstr(r, "Game ford is not open for joining: it has "
	    "started."));
	free(r);
}

/* SET PASSWORD: a new server-made secret mailed to the registered
 * address, a reset act in the ledger, and the old secret refused. */
static void
set_password_mails_a_new_secret(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *r, *at, secret[64], hdr[200];

	start(f);
	/* The welcomes have gone out (a queued one would be queued again
	 * with the new secret instead). */
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
	r = ask(f, "howe@crown.example.org", NULL, HDR "SET PASSWORD\r\n");
	assert_non_null(strstr(r, "A new secret for game mill, made by the "
	    "server, is mailed to your"));
	free(r);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"),
	    1);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'howe@crown.example.org' AND subject = '[mill] Your new secret'"),
	    1);
	r = mail_to(f, "howe@crown.example.org", "Your new secret");
	assert_non_null(strstr(r, "As you asked (SET PASSWORD)"));
	at = strstr(r, "Your secret: ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "Your secret: %63s", secret), 1);
	assert_true(strlen(secret) >= 16);
	free(r);
	/* The old secret no longer works; the new one does. */
	m = mail("pw2@crown.example.org", "howe@crown.example.org",
	    HDR "23rd Foot: HOLD\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "rejected");
	snprintf(hdr, sizeof(hdr), "GAME mill SIDE crown TURN 1 PASSWORD "
	    "%s\r\n23rd Foot: HOLD\r\n", secret);
	m = mail("pw3@crown.example.org", "howe@crown.example.org", hdr);
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
}

static int
setup_lobby(void **state)
{
	setup_live(state);
	open_ford(*state);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_stranger_is_listed_the_games_open_for_joining, setup_lobby, teardown),
		cmocka_unit_test_setup_teardown(a_player_is_listed_their_own_games, setup_lobby, teardown),
		cmocka_unit_test_setup_teardown(list_game_tells_one_game, setup_lobby, teardown),
		cmocka_unit_test_setup_teardown(seats_are_set_one_side_at_a_time, setup_lobby, teardown),
		cmocka_unit_test_setup_teardown(join_takes_a_free_seat, setup_lobby, teardown),
		cmocka_unit_test_setup_teardown(set_password_mails_a_new_secret, setup_lobby, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
