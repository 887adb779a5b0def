/*
 * test_conversation.c - the player's mail conversation (issue 5): a mail
 * without order lines never replaces stored orders; oversized and
 * over-long mails are stored and answered within bounds; reports say
 * what became of a side's orders; replies warn of orders that will not
 * do what the player hopes and carry the crib; the mail commands; and
 * the per-sender rate limit.
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
#include "report/report.h"
#include "scenario/scenario.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define HDR "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
#define CONT_HDR "GAME mill SIDE continental TURN 1 PASSWORD blue-coat-secret\r\n"

/* Mails queued after the outbox had `from` mails, as one string. */
static char *
mails_since(struct fx *f, int from, int *n_out)
{
	struct store_mail *m = NULL;
	int n = 0, i;
	size_t len = 1;
	char *out;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (i = from; i < n; i++)
		len += m[i].len + 1;
	out = calloc(1, len);
	assert_non_null(out);
	for (i = from; i < n; i++) {
		strcat(out, m[i].raw);
		strcat(out, "\n");
	}
	if (n_out != NULL)
		*n_out = n - from;
	store_mails_free(m, n);
	return out;
}

static void
mail_without_order_lines_leaves_stored_orders(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	static const char *const bodies[] = {
		HDR "HELP\r\n",
		HDR "Dear umpire, can my cavalry cross the stream?\r\nRegards,\r\nHowe\r\n",
		HDR "23rd: MARCH AWAY\r\n",   /* none of its lines can be read */
	};
	char *a, *reply;
	size_t i;

	start(f);
	a = mail("c1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: ADVANCE 4\r\nHowe: MOVE TO 20,6\r\n");
	submit(f, a, &res);
	assert_int_equal(orders_for(f, 1, 0), 2);
	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		char id[32], *m;

		snprintf(id, sizeof(id), "c1-%zu@crown.example.org", i);
		m = mail(id, "howe@crown.example.org", bodies[i]);
		submit(f, m, &res);
		if (orders_for(f, 1, 0) != 2)
			fail_msg("mail %zu (%s) changed the stored orders", i,
			    res.status);
		free(m);
	}
	assert_string_equal(res.status, "orders");
	reply = last_mail(f);
	assert_non_null(strstr(reply, "None of the order lines"));
	assert_non_null(strstr(reply, "The 2 orders stored before"));
	free(reply);
	free(a);
}

static void
oversized_mail_is_answered_at_its_from_address(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	size_t n = 300 * 1024, i;
	char *big = malloc(n + 1), *raw, *reply;

	start(f);
	assert_non_null(big);
	for (i = 0; i < n; i++)
		big[i] = i % 80 == 79 ? '\n' : 'a' + (char)(i % 26);
	big[n] = '\0';
	raw = mail("big@crown.example.org", "howe@crown.example.org", big);
	submit(f, raw, &res);
	assert_string_equal(res.status, "unreadable");
	reply = last_mail(f);
	assert_non_null(strstr(reply, "To: howe@crown.example.org"));
	assert_non_null(strstr(reply, "256 KiB"));
	assert_null(strstr(reply, "could not be read as a mail message"));
	free(reply);
	free(raw);
	free(big);
}

static void
reply_too_long_is_cut_and_the_mail_stored(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	size_t n = 400 * 592 + 200, i, k = 0;
	char *body = malloc(n), *raw, *reply;
	int before;

	start(f);
	assert_non_null(body);
	k += (size_t)sprintf(body, "%s", HDR);
	for (i = 0; i < 400; i++) {
		memset(body + k, 'x', 589);
		/* An order for a unit nobody has: an error, not prose. */
		memcpy(body + k + 3, ": ADVANCE ", 10);
		k += 589;
		body[k++] = '\r';
		body[k++] = '\n';
	}
	body[k] = '\0';
	raw = mail("long@crown.example.org", "howe@crown.example.org", body);
	before = (int)count(f, "outbox");
	submit(f, raw, &res);
	assert_int_equal(count(f, "messages"), 1);
	assert_int_equal((int)count(f, "outbox"), before + 1);
	reply = last_mail(f);
	assert_true(strlen(reply) < 96 * 1024);
	assert_non_null(strstr(reply, "more lines not understood are not shown"));
	free(reply);
	free(raw);
	free(body);
}

static void
reports_say_what_became_of_each_sides_orders(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct err e;
	int before;
	char *m, *all;
	int d[64], i;

	start(f);
	for (i = 0; i < 64; i++)
		d[i] = 1;
	/* The continental player sends turn-1 orders before crown's phase. */
	m = mail("r1@cont.example.org", "greene@cont.example.org",
	    CONT_HDR "2nd Virginia: HOLD\r\n");
	submit(f, m, &res);
	assert_string_equal(res.status, "orders");
	free(m);
	before = (int)count(f, "outbox");
	/* Crown sent nothing: a sandbox game takes no dice for holding. */
	if (referee_turn(&f->r, "mill", d, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	all = mails_since(f, before, NULL);
	assert_non_null(strstr(all, "No orders from your side reached the "
	    "server"));
	assert_non_null(strstr(all, "Your orders for turn 1 are already stored "
	    "(1 order)"));
	free(all);
}

static void
order_reply_warns_and_carries_the_crib(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	start(f);
	/* 23rd Foot at 24,10 facing north, Grey at 24,8 and Howe at 24,4:
	 * 16" north leaves both commanders far behind; 2nd Virginia is 20"
	 * off, far beyond a musket. */
	m = mail("w1@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: ADVANCE 16\r\n");
	submit(f, m, &res);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "out of command"));
	assert_non_null(strstr(reply, "Command: a stand is in command within 6"));
	free(reply);
	free(m);
	m = mail("w2@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: FIRE AT 2nd Virginia\r\n");
	submit(f, m, &res);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "beyond its"));
	assert_null(strstr(reply, "out of command"));
	free(reply);
	free(m);
	/* An order that stays near its commander gets no warning. */
	m = mail("w3@crown.example.org", "howe@crown.example.org",
	    HDR "23rd: ADVANCE 1\r\n");
	submit(f, m, &res);
	reply = last_mail(f);
	assert_null(strstr(reply, "Worth a second look"));
	free(reply);
	free(m);
}

static void
help_is_built_from_the_game(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;
	int before;

	start(f);
	reply = last_mail(f);   /* the welcome: the crib and the commands */
	assert_non_null(strstr(reply, "Command: a stand is in command"));
	assert_non_null(strstr(reply, "PRESS TO"));
	free(reply);
	before = (int)count(f, "outbox");
	m = mail("h1@crown.example.org", "howe@crown.example.org", HDR "help\r\n");
	submit(f, m, &res);
	assert_string_equal(res.status, "commands");
	assert_int_equal((int)count(f, "outbox"), before + 1);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Subject: [mill] HELP"));
	assert_non_null(strstr(reply, "23rd Foot: ADVANCE 6"));
	assert_non_null(strstr(reply, "FIRE AT 2nd Virginia"));
	assert_non_null(strstr(reply, "1st brigade: HOLD"));
	free(reply);
	free(m);
	/* HELP with no header at all gets the general help. */
	m = mail("h2@else.example.org", "stranger@else.example.org", "HELP\r\n");
	submit(f, m, &res);
	assert_string_equal(res.status, "commands");
	reply = last_mail(f);
	assert_non_null(strstr(reply, "play-by-mail game server"));
	free(reply);
	free(m);
}

/* In a battle with cards, the welcome and HELP say how to play them. */
static void
help_tells_how_to_play_cards(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	start(f);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "PLAY CARD \"Good Going\" ON <unit>"));
	free(reply);
	m = mail("h3@crown.example.org", "howe@crown.example.org", HDR "HELP\r\n");
	submit(f, m, &res);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Your cards"));
	assert_non_null(strstr(reply, "\"Regulars!!\"\n      one of your units "
	    "recovers from disorder"));
	free(reply);
	free(m);
}

static void
status_and_orders_tell_what_they_may(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *all;
	int before, n;

	start(f);
	m = mail("s1@cont.example.org", "greene@cont.example.org",
	    CONT_HDR "2nd Virginia: FACE 90\r\n");
	submit(f, m, &res);
	free(m);
	before = (int)count(f, "outbox");
	m = mail("s2@crown.example.org", "howe@crown.example.org",
	    HDR "STATUS\r\nORDERS\r\n");
	submit(f, m, &res);
	free(m);
	all = mails_since(f, before, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(all, "continental    turn 1: orders stored"));
	assert_non_null(strstr(all, "crown          turn 1: no orders yet"));
	/* Whether, never what. */
	assert_null(strstr(all, "FACE 90"));
	assert_non_null(strstr(all, "No orders of yours are stored for Crown, turn 1"));
	free(all);
}

static void
press_is_relayed_without_the_senders_address(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *all;
	int before, n;
	struct err e;

	start(f);
	before = (int)count(f, "outbox");
	m = mail("p1@crown.example.org", "howe@crown.example.org",
	    HDR "PRESS TO continental \"Sir, I await your surrender.\"\r\n");
	submit(f, m, &res);
	free(m);
	all = mails_since(f, before, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(all, "To: greene@cont.example.org"));
	assert_non_null(strstr(all, "Sir, I await your surrender."));
	assert_non_null(strstr(all, "A message from Crown (side crown)"));
	/* The relayed mail does not carry the sender's address. */
	{
		const char *relay = strstr(all, "To: greene@cont.example.org");
		const char *end = strstr(relay, "To: howe@");

		assert_true(end == NULL || end > relay);
		assert_null(strstr(relay, "howe@crown.example.org\r\nSubject: [mill] Press"));
	}
	free(all);
	/* The operator turns press off: nothing is relayed. */
	assert_int_equal(store_exec(f->st, &e, "INSERT INTO settings (game_id, "
	    "key, value) VALUES (1, 'press', 'off')", ""), 0);
	before = (int)count(f, "outbox");
	m = mail("p2@crown.example.org", "howe@crown.example.org",
	    HDR "PRESS TO all \"Huzzah\"\r\n");
	submit(f, m, &res);
	free(m);
	all = mails_since(f, before, &n);
	assert_int_equal(n, 1);
	assert_non_null(strstr(all, "Press is off"));
	free(all);
}

static void
wait_and_concede_change_the_game_only_when_confirmed(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply, code[16], body[256];
	const char *at;
	int64_t waiting = 0;
	struct err e;

	start(f);
	m = mail("k1@crown.example.org", "howe@crown.example.org", HDR "WAIT\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(store_query_int(f->st, &e, &waiting, "SELECT waiting "
	    "FROM players WHERE email = 'howe@crown.example.org'", ""), 1);
	assert_int_equal(waiting, 1);
	m = mail("k2@crown.example.org", "howe@crown.example.org", HDR "CONCEDE\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	at = strstr(reply, "  CONCEDE ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "  CONCEDE %15s", code), 1);
	free(reply);
	assert_int_equal(store_query_int(f->st, &e, &waiting, "SELECT count(*) "
	    "FROM games WHERE status = 'running'", ""), 1);
	assert_int_equal(waiting, 1);
	/* A wrong code changes nothing; the right one ends the battle. */
	m = mail("k3@crown.example.org", "howe@crown.example.org",
	    HDR "CONCEDE 0000-0000\r\n");
	submit(f, m, &res);
	free(m);
	assert_int_equal(store_query_int(f->st, &e, &waiting, "SELECT count(*) "
	    "FROM games WHERE status = 'running'", ""), 1);
	assert_int_equal(waiting, 1);
	snprintf(body, sizeof(body), HDR "CONCEDE %s\r\n", code);
	m = mail("k4@crown.example.org", "howe@crown.example.org", body);
	submit(f, m, &res);
	free(m);
	assert_int_equal(store_query_int(f->st, &e, &waiting, "SELECT count(*) "
	    "FROM games WHERE status = 'finished' AND result LIKE "
	    "'Crown conceded%'", ""), 1);
	assert_int_equal(waiting, 1);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "The battle of game mill"));
	free(reply);
}

static void
a_flood_gets_one_notice(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	int i, before = 0, notices = 0;
	char *all;

	start(f);
	/* The real clock: the test's fixed clock ticks a minute a call. */
	f->r.fixed_now = 0;
	for (i = 0; i < 34; i++) {
		char id[64], *m;

		if (i == 30)
			before = (int)count(f, "outbox");
		snprintf(id, sizeof(id), "flood-%d@loop.example.org", i);
		m = mail(id, "loop@loop.example.org", "are you there?\r\n");
		submit(f, m, &res);
		free(m);
		if (i >= 30)
			assert_string_equal(res.status, "rate-limited");
		else
			assert_string_equal(res.status, "no-header");
	}
	all = mails_since(f, before, &notices);
	assert_int_equal(notices, 1);
	assert_non_null(strstr(all, "no further notice"));
	free(all);
	assert_int_equal(count(f, "messages"), 34);
}


static void
a_shared_side_orders_by_brigade(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct err e;
	char secret[REFEREE_SECRET_MAX], *m, *reply;
	const char *scen = DESPATCH_SOURCE_DIR "/campaign/cowpens-1781/cowpens.scenario";
	const char *mh = "GAME cw SIDE continental PASSWORD morgan-secret-1\r\n";
	const char *hh = "GAME cw SIDE continental PASSWORD howard-secret-1\r\n";
	char body[512];

	if (referee_new_game(&f->r, "cw", scen, 1, NULL, &e) != 0 ||
	    referee_player_add(&f->r, "cw", "crown", "t@crown.example.org",
	    "tarleton-secret", NULL, secret, &e) != 0 ||
	    referee_player_add(&f->r, "cw", "continental", "morgan@cont.example.org",
	    "morgan-secret-1", "skirmish, Militia Line, cavalry reserve, army",
	    secret, &e) != 0)
		fail_msg("%s", e.msg);
	/* A shared side must name every brigade, once. */
	assert_int_equal(referee_player_add(&f->r, "cw", "continental",
	    "x@cont.example.org", "xxxx-secret", "Militia", secret, &e), -1);
	assert_non_null(strstr(e.msg, "a brigade has one player"));
	assert_int_equal(referee_player_add(&f->r, "cw", "continental",
	    "x@cont.example.org", "xxxx-secret", "Mainline", secret, &e), -1);
	assert_non_null(strstr(e.msg, "its brigades are"));
	assert_int_equal(referee_player_add(&f->r, "cw", "continental",
	    "x@cont.example.org", "xxxx-secret", NULL, secret, &e), 0);
	assert_int_equal(referee_start(&f->r, "cw", &e), -1);
	assert_non_null(strstr(e.msg, "has no --brigades"));
	assert_int_equal(referee_player_remove(&f->r, "cw", "x@cont.example.org",
	    &e), 0);
	assert_int_equal(referee_start(&f->r, "cw", &e), -1);
	assert_non_null(strstr(e.msg, "Main Line"));
	assert_int_equal(referee_player_add(&f->r, "cw", "continental",
	    "howard@cont.example.org", "howard-secret-1", "Main Line", secret,
	    &e), 0);
	if (referee_start(&f->r, "cw", &e) != 0)
		fail_msg("%s", e.msg);
	/* Morgan may not order Howard's brigade; the reply names it. */
	snprintf(body, sizeof(body), "%sGeorgia: HOLD\r\nMaryland: HOLD\r\n", mh);
	m = mail("sh1@cont.example.org", "morgan@cont.example.org", body);
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Maryland Continentals is in the Main Line "
	    "brigade, which another player of your side commands"));
	free(reply);
	snprintf(body, sizeof(body), "%sMaryland: HOLD\r\nDelaware: HOLD\r\n", hh);
	m = mail("sh2@cont.example.org", "howard@cont.example.org", body);
	submit(f, m, &res);
	free(m);
	/* Howard's new set replaces his own, not Morgan's. */
	snprintf(body, sizeof(body), "%sMain Line brigade: HOLD\r\n", hh);
	m = mail("sh3@cont.example.org", "howard@cont.example.org", body);
	submit(f, m, &res);
	free(m);
	{
		char *text = NULL;
		int n = 0;
		int64_t g = 0;

		assert_int_equal(store_query_int(f->st, &e, &g, "SELECT id FROM "
		    "games WHERE name = 'cw'", ""), 1);
		assert_int_equal(store_orders_text(f->st, g, 2, 1, 0, &text, &n,
		    &e), 0);
		assert_int_equal(n, 4);   /* Georgia + Howard's three units */
		assert_non_null(strstr(text, "Georgia Riflemen: HOLD"));
		assert_non_null(strstr(text, "Virginia Militia (Triplett and Tate): "
		    "HOLD"));
		free(text);
	}
	snprintf(body, sizeof(body), "%sSTATUS\r\n", mh);
	m = mail("sh4@cont.example.org", "morgan@cont.example.org", body);
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "orders stored from 2 of its 2 players"));
	free(reply);
	/* Both players' orders are played together. */
	if (referee_turn(&f->r, "cw", NULL, 0, &tr, &e) != 0 &&
	    strstr(e.msg, "dice") == NULL)
		fail_msg("%s", e.msg);
}

static void
standing_orders_stand_in_for_a_silent_player(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct err e;
	char *m, *reply, *all;
	int before;

	start(f);
	m = mail("so1@crown.example.org", "howe@crown.example.org",
	    HDR "STANDING: 23rd: FACE 45\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	assert_int_equal(orders_for(f, 1, 0), 0);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Your standing orders (1) are stored"));
	free(reply);
	m = mail("so2@crown.example.org", "howe@crown.example.org",
	    HDR "ORDERS\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "23rd Foot: FACE 45"));
	free(reply);
	before = (int)count(f, "outbox");
	if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	all = mails_since(f, before, NULL);
	assert_non_null(strstr(all, "standing orders were played"));
	free(all);
	{
		int64_t facing = 0;

		assert_int_equal(store_query_int(f->st, &e, &facing, "SELECT "
		    "facing FROM stands WHERE unit_idx = 0 LIMIT 1", ""), 1);
		assert_int_equal(facing, 45);
	}
}

static void
a_subject_with_a_line_break_still_gets_an_answer(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *reply;
	const char *raw = "From: Howe <howe@crown.example.org>\r\n"
	    "To: despatch@localhost\r\n"
	    "Subject: =?utf-8?Q?orders=1B=0BBcc:_x@evil.example.org?=\r\n"
	    "Message-ID: <subj-nl@crown.example.org>\r\n\r\n"
	    HDR "23rd: HOLD\r\n";
	struct err e;

	start(f);
	if (referee_submit(&f->r, raw, strlen(raw), NULL, &res, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(res.status, "orders");
	assert_int_equal(res.replies, 1);
	reply = last_mail(f);
	/* One Subject line (mail_parse turned the control characters into a
	 * space); no header made from the player's text. */
	assert_null(strstr(reply, "\r\nBcc:"));
	assert_non_null(strstr(reply, "Subject: Re: orders Bcc: x@evil"));
	free(reply);
}

/* Game `game` from the scenario text `scen`, with the crown played by
 * b@crown.example.org (secret burgoyne-secret) and the continentals by
 * g@cont.example.org, started. */
static void
start_game(struct fx *f, const char *game, const char *scen)
{
	char path[400], secret[REFEREE_SECRET_MAX];
	FILE *fp;
	struct err e;

	snprintf(path, sizeof(path), "%s/%s.scenario", f->dir, game);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(scen, fp);
	fclose(fp);
	if (referee_new_game(&f->r, game, path, 1, NULL, &e) != 0 ||
	    referee_player_add(&f->r, game, "crown", "b@crown.example.org",
	    "burgoyne-secret", NULL, secret, &e) != 0 ||
	    referee_player_add(&f->r, game, "continental", "g@cont.example.org",
	    "gates-secret-1", NULL, secret, &e) != 0 ||
	    referee_start(&f->r, game, &e) != 0)
		fail_msg("%s", e.msg);
}

static void
order_reply_says_what_the_phase_will_refuse(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	/* The 9th Foot stands 12" from both its commanders. */
	start_game(f, "far", "scenario \"Far\"\nruleset vnb-wing\n"
	    "table 48 x 48\nturns 2\n"
	    "side crown \"Crown\"\n  commander \"Burgoyne\" army at 10,4\n"
	    "  brigade \"Right\" commander \"Fraser\" at 10,6\n"
	    "    unit \"9th Foot\" type british-line stands 2 sp 3 at 10,18 "
	    "facing 0\n"
	    "side continental \"Continental\"\n  commander \"Gates\" army at "
	    "24,44\n  brigade \"Va\" commander \"Morgan\" at 24,34\n"
	    "    unit \"Riflemen\" type trained-militia stands 2 sp 2 at 10,24 "
	    "facing 180\n");
	m = mail("far1@crown.example.org", "b@crown.example.org",
	    "GAME far SIDE crown PASSWORD burgoyne-secret\r\n"
	    "9th: CHARGE Riflemen\r\nFraser: ADVANCE 1\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "9th Foot is out of command now: Fraser is "
	    "the nearest commander"));
	assert_non_null(strstr(reply, "cannot CHARGE"));
	free(reply);
	m = mail("far2@crown.example.org", "b@crown.example.org",
	    "GAME far SIDE crown PASSWORD burgoyne-secret\r\n"
	    "9th: FACE 90 THEN ADVANCE 20\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	/* Out of command, half of its 16". */
	assert_non_null(strstr(reply, "asked to advance 20\" but moves at most "
	    "8\""));
	free(reply);
}

/* A bb7 game's reply warns too (bb7_preview): the trial player's shot
 * at a regiment 46.5" off, and the risk of activating for nothing. */
static void
bb7_order_reply_warns_of_a_shot_out_of_range(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *m, *reply;

	start_game(f, "farm", "scenario \"Farm\"\nruleset bb7\ntable 48 x 72\n"
	    "turns 2\n"
	    "sequence alternate crown continental\n"
	    "side crown \"Crown\"\n  commander \"Burgoyne\" army at 20,66\n"
	    "  brigade \"Hamilton\" commander \"Hamilton\" at 20,64\n"
	    "    unit \"62nd Foot\" type british-regulars stands 4 sp 5 "
	    "frontage 2.4 at 20,60 facing 180\n"
	    "side continental \"Continental\"\n  commander \"Arnold\" army at "
	    "20,2\n  brigade \"Poor\" commander \"Poor\" at 20,6\n"
	    "    unit \"1st New Hampshire\" type regulars stands 4 sp 6 "
	    "frontage 2.4 at 20,12 facing 0\n");
	m = mail("farm1@crown.example.org", "b@crown.example.org",
	    "GAME farm SIDE crown PASSWORD burgoyne-secret\r\n"
	    "62nd: SHOOT AT 1st New Hampshire\r\n");
	submit(f, m, &res);
	free(m);
	assert_string_equal(res.status, "orders");
	reply = last_mail(f);
	assert_non_null(strstr(reply, "Worth a second look"));
	assert_non_null(strstr(reply, "  line 2: 62nd Foot would be 46.5\" from "
	    "1st New Hampshire, beyond its longest"));
	assert_non_null(strstr(reply, "HOLD spares it the risk."));
	free(reply);
	/* Orders it can carry out: no warning. */
	m = mail("farm2@crown.example.org", "b@crown.example.org",
	    "GAME farm SIDE crown PASSWORD burgoyne-secret\r\n"
	    "62nd: ADVANCE 6\r\n");
	submit(f, m, &res);
	free(m);
	reply = last_mail(f);
	assert_null(strstr(reply, "Worth a second look"));
	free(reply);
}

static void
an_unreadable_encoded_mail_keeps_no_secret(void **state)
{
	struct fx *f = *state;
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t tn = 290 * 1024, i, k = 0;
	char *text = malloc(tn + 1), *raw = malloc(tn * 2 + 4096);
	struct submit_result res;
	struct err e;
	char *stored = NULL;

	start(f);
	assert_non_null(text);
	assert_non_null(raw);
	k = (size_t)sprintf(text, "%s", HDR);
	for (i = k; i < tn; i++)
		text[i] = i % 70 == 69 ? '\n' : 'z';
	text[tn] = '\0';
	k = (size_t)sprintf(raw, "From: Howe <howe@crown.example.org>\r\n"
	    "Message-ID: <b64big@crown.example.org>\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: base64\r\n\r\n");
	for (i = 0; i < tn; i += 3) {
		unsigned v = (unsigned char)text[i] << 16 |
		    (i + 1 < tn ? (unsigned char)text[i + 1] << 8 : 0) |
		    (i + 2 < tn ? (unsigned char)text[i + 2] : 0);

		raw[k++] = b64[v >> 18 & 63];
		raw[k++] = b64[v >> 12 & 63];
		raw[k++] = i + 1 < tn ? b64[v >> 6 & 63] : '=';
		raw[k++] = i + 2 < tn ? b64[v & 63] : '=';
		if (i % 57 == 54) {
			raw[k++] = '\r';
			raw[k++] = '\n';
		}
	}
	raw[k] = '\0';
	if (referee_submit(&f->r, raw, k, NULL, &res, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(res.status, "unreadable");
	assert_int_equal(store_query_text(f->st, &e, &stored, NULL, "SELECT raw "
	    "FROM messages ORDER BY id DESC LIMIT 1", ""), 1);
	/* The base64 of "red-coat-secret" is not there to decode. */
	assert_true(strlen(stored) < 4096);
	assert_non_null(strstr(stored, "X-Despatch-Stored: headers only"));
	free(stored);
	free(raw);
	free(text);
}

static void
a_spoofed_reply_to_still_warns_the_player(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	char *reply;
	const char *raw = "From: Mallory <mallory@evil.example.org>\r\n"
	    "Reply-To: howe@crown.example.org\r\n"
	    "Subject: orders\r\nMessage-ID: <spoof@evil.example.org>\r\n\r\n"
	    HDR "23rd: HOLD\r\n";
	struct err e;

	start(f);
	if (referee_submit(&f->r, raw, strlen(raw), NULL, &res, &e) != 0)
		fail_msg("%s", e.msg);
	/* One mail, to the player, naming where it came from. */
	assert_int_equal(res.replies, 1);
	reply = last_mail(f);
	assert_non_null(strstr(reply, "To: howe@crown.example.org"));
	assert_non_null(strstr(reply, "reached the server from "
	    "mallory@evil.example.org"));
	free(reply);
}
/* HELP's examples name units and commanders still on the table: not a
 * regiment that surrendered, nor a general who has fallen. */
static void
help_examples_use_only_what_is_left(void **state)
{
	static const char scen[] =
	    "scenario \"Farm\"\nruleset bb7\ntable 48 x 72\n"
	    "side crown \"Crown\"\n  commander \"Burgoyne\" army at 20,66\n"
	    "  brigade \"Hamilton\" commander \"Hamilton\" at 20,64\n"
	    "    unit \"21st Foot\" type british-regulars stands 2 sp 5 "
	    "frontage 2.4 at 10,60 facing 180\n"
	    "    unit \"62nd Foot\" type british-regulars stands 2 sp 5 "
	    "frontage 2.4 at 20,60 facing 180\n"
	    "side continental \"Continental\"\n  commander \"Arnold\" army at "
	    "20,2\n  brigade \"Poor\" commander \"Poor\" at 20,6\n"
	    "    unit \"1st New Hampshire\" type regulars stands 2 sp 6 "
	    "frontage 2.4 at 20,12 facing 0\n";
	struct battle *b = NULL;
	struct store_game g;
	struct text t;
	struct err e;
	int s;

	(void)state;
	if (scenario_parse(scen, strlen(scen), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "farm");
	snprintf(g.ruleset, sizeof(g.ruleset), "bb7");
	g.step = 1;
	for (s = 0; s < b->units[0].nstands; s++)
		b->stands[b->units[0].first_stand + s].flags |= ST_GONE;
	b->commanders[0].gone = 1;
	text_init(&t, 1 << 16);
	referee_commands_help_text(&t, &g, b, 0);
	assert_null(strstr(t.s, "21st Foot:"));
	assert_non_null(strstr(t.s, "62nd Foot: ADVANCE 6"));
	assert_null(strstr(t.s, "Burgoyne: MOVE TO"));
	assert_non_null(strstr(t.s, "Hamilton: MOVE TO"));
	assert_non_null(strstr(t.s, "THEN or ';', at most 4"));
	text_free(&t);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_examples_use_only_what_is_left),
		cmocka_unit_test_setup_teardown(mail_without_order_lines_leaves_stored_orders, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(oversized_mail_is_answered_at_its_from_address, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(reply_too_long_is_cut_and_the_mail_stored, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(reports_say_what_became_of_each_sides_orders, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(order_reply_warns_and_carries_the_crib, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(help_is_built_from_the_game, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(help_tells_how_to_play_cards, setup_cards, teardown),
		cmocka_unit_test_setup_teardown(status_and_orders_tell_what_they_may, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(press_is_relayed_without_the_senders_address, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(wait_and_concede_change_the_game_only_when_confirmed, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_flood_gets_one_notice, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_shared_side_orders_by_brigade, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(standing_orders_stand_in_for_a_silent_player, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_subject_with_a_line_break_still_gets_an_answer, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(order_reply_says_what_the_phase_will_refuse, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(bb7_order_reply_warns_of_a_shot_out_of_range, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(an_unreadable_encoded_mail_keeps_no_secret, setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_spoofed_reply_to_still_warns_the_player, setup_sandbox, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
