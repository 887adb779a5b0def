/*
 * test_history.c - HISTORY (issue 25): a player gets again, in one
 * digest, exactly the reports their address was sent (every phase, TURN
 * N, N-M), at most 30 phases a mail with the HISTORY line for the rest;
 * in a fog game never a word of the other side's reports; an observer
 * gets the observer mails due to them, and never one still held back;
 * a stranger, or a forged From, the answer to a mail without the header;
 * turns not played get a clear answer.  LIST tells an observer the games
 * they observe.  No answer names another address or a secret.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map/map.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define HOWE "howe@crown.example.org"
#define GREENE "greene@cont.example.org"
#define WATCHER "watcher@obs.example.org"
#define HDR "GAME mill SIDE crown PASSWORD red-coat-secret\r\n"
#define GHDR "GAME mill SIDE continental PASSWORD blue-coat-secret\r\n"

/* A wood across the field, between the two sides: in fog the crown sees
 * nothing of the 2nd Virginia, nor of Weedon, beyond it. */
static const char wood_line[] =
    "terrain wood \"Big wood\" poly 0,14 48,14 48,26 0,26\n";

static int
setup_short(void **state)
{
	return setup_game(state, 0);
}

/* The fixture's skirmish, but of 17 turns: 34 phases, room for the cap. */
static int
setup_long(void **state)
{
	char text[sizeof(scenario) + 16];
	const char *t = strstr(scenario, "turns 2\n");

	assert_non_null(t);
	snprintf(text, sizeof(text), "%.*sturns 17\n%s", (int)(t - scenario),
	    scenario, t + strlen("turns 2\n"));
	return setup_game_text(state, 0, text, NULL);
}

static int
setup_fogged(void **state)
{
	struct fx *f;
	struct err e;

	setup_game_with(state, 0, wood_line, NULL);
	f = *state;
	if (referee_setting_set(&f->r, "mill", "visibility", "fog", &e) != 0)
		fail_msg("%s", e.msg);
	return 0;
}

/* Mails body from `from` (Reply-To reply_to unless NULL), Subject subj;
 * the submit's status into status. */
static void
send_as(struct fx *f, const char *from, const char *reply_to,
    const char *subj, const char *body, char *status, size_t size)
{
	static int seq;
	struct submit_result res;
	char id[64], *m, *full;

	snprintf(id, sizeof(id), "hist.%d@else.example.org", ++seq);
	m = mail(id, from, body);
	full = malloc(strlen(m) + 600);
	assert_non_null(full);
	sprintf(full, "%s%s%s", reply_to ? "Reply-To: <" : "",
	    reply_to ? reply_to : "", reply_to ? ">\r\n" : "");
	if (subj != NULL) {
		char *s = strstr(m, "Subject: orders\r\n");

		assert_non_null(s);
		strncat(full, m, (size_t)(s - m));
		sprintf(full + strlen(full), "Subject: %s\r\n%s", subj,
		    s + strlen("Subject: orders\r\n"));
	} else {
		strcat(full, m);
	}
	submit(f, full, &res);
	if (status != NULL)
		snprintf(status, size, "%s", res.status);
	free(full);
	free(m);
}

/* The newest mail as read (headers, then the text), checked to name no
 * player's address but the one it goes to, and no secret. */
static char *
answer(struct fx *f, const char *to)
{
	char *r = last_mail(f), *text = strstr(r, "\r\n\r\n"), want[300];

	assert_non_null(text);
	snprintf(want, sizeof(want), "To: %s", to);
	assert_non_null(strstr(r, want));
	if (strcmp(to, HOWE) != 0)
		assert_null(strstr(r, HOWE));
	if (strcmp(to, GREENE) != 0)
		assert_null(strstr(r, GREENE));
	assert_null(strstr(r, "coat-secret"));
	return r;
}

/* The answer to body, mailed from `from` as it is. */
static char *
ask(struct fx *f, const char *from, const char *body)
{
	send_as(f, from, NULL, NULL, body, NULL, 0);
	return answer(f, from);
}

/* Every kept text of the reports of kind sent to `to`, in order. */
static int
kept_texts(struct fx *f, const char *to, const char *kind, char **out,
    int max)
{
	struct store_sent *s = NULL;
	struct err e;
	int n = 0, i, k = 0;

	assert_int_equal(store_outbox_sent(f->st, 1, to, kind, &s, &n, &e), 0);
	for (i = 0; i < n && k < max; i++)
		if (!s[i].held)
			assert_int_equal(store_outbox_text(f->st, s[i].id, &out[k++],
			    &e), 1);
	free(s);
	return k;
}

static int
occurrences(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The maps of the newest mail, one a phase (Content-ID map.mill-hN):
 * how many, and in *max the largest's bytes, its base64 decoded (about
 * 3/4). */
static int
phase_maps(struct fx *f, size_t *max)
{
	struct store_mail *m = NULL;
	struct err e;
	const char *p, *end;
	int n = 0, k = 0;

	*max = 0;
	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (p = m[n - 1].raw; (p = strstr(p, "Content-ID: <map.mill-h")) !=
	    NULL; k++) {
		size_t b64 = 0;

		p = strstr(p, "\r\n\r\n");
		assert_non_null(p);
		end = strstr(p, "\r\n--");
		assert_non_null(end);
		for (; p < end; p++)
			if (*p != '\r' && *p != '\n')
				b64++;
		if (b64 / 4 * 3 > *max)
			*max = b64 / 4 * 3;
	}
	store_mails_free(m, n);
	return k;
}

/* Three phases played; HISTORY resends each report Howe was sent, its
 * text exactly, in order, and nothing of Greene's, with one map of the
 * field now kept small. */
static void
a_player_gets_their_own_reports_again(void **state)
{
	struct fx *f = *state;
	char *texts[8], *gtexts[8], *r;
	int n, gn, i;
	const char *at;

	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	play(f, "mill", 3);
	n = kept_texts(f, HOWE, "report", texts, 8);
	gn = kept_texts(f, GREENE, "report", gtexts, 8);
	assert_int_equal(n, 3);
	assert_int_equal(gn, 3);
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_non_null(strstr(r, "Subject: [mill] HISTORY, turn 1 to turn 2 (3 "
	    "phases)"));
	assert_non_null(strstr(r, "3 phases, turn 1 to turn 2."));
	assert_int_equal(occurrences(r, "\n===== "), 3);
	at = r;
	for (i = 0; i < n; i++) {
		/* Each report whole, after the one before it. */
		const char *p = strstr(at, texts[i]);

		assert_non_null(p);
		at = p + strlen(texts[i]);
	}
	assert_non_null(strstr(r, "===== Turn 1, crown phase"));
	assert_non_null(strstr(r, "===== Turn 2, crown phase"));
	for (i = 0; i < gn; i++) {
		/* Greene's own leaf and salt are in his reports only. */
		const char *salt = strstr(gtexts[i], "Your order set's leaf is");

		assert_non_null(salt);
		assert_null(strstr(r, salt));
	}
	assert_null(strstr(r, "left out"));
	/* The HTML shows the field after each phase (an open game: drawn
	 * again from the signed states), palette PNGs under 60 KB. */
	assert_non_null(strstr(r, "multipart/"));
	{
		size_t max;

		assert_int_equal(phase_maps(f, &max), 3);
		assert_true(max > 1000 && max <= 60 * 1024);
	}
	free(r);
	for (i = 0; i < n; i++)
		free(texts[i]);
	for (i = 0; i < gn; i++)
		free(gtexts[i]);
	/* A player who reads plain text gets the digest without a map. */
	{
		struct err e;

		assert_int_equal(store_player_set_mail_format(f->st, 1, "text", &e),
		    0);
	}
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_null(strstr(r, "multipart/"));
	assert_int_equal(occurrences(r, "\n===== "), 3);
	free(r);
}

/* A digest's map of a phase is the field after that phase, drawn from
 * the state its record signed, not the field now: after the crown's
 * advance in turn 2, turn 1's map differs from turn 2's, and turn 2's is
 * the field now, byte for byte. */
static void
each_phase_map_is_the_field_then(void **state)
{
	struct fx *f = *state;
	struct store_game g;
	struct battle *b = NULL;
	struct map_opts o;
	struct err e;
	unsigned char *png[2], *now = NULL;
	size_t len[2], nlen = 0;
	int steps[2] = { 1, 3 };
	const char *subs[2] = { "after", "after" };
	char title[300];

	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	free(ask(f, HOWE, "GAME mill SIDE crown TURN 2 PASSWORD red-coat-secret"
	    "\r\n23rd Foot: ADVANCE 4\r\n"));
	play(f, "mill", 3);
	memset(&g, 0, sizeof(g));
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	assert_int_equal(store_battle_load(f->st, &g, &b, &e), 0);
	if (referee_phase_maps(&f->r, &g, steps, subs, 2, 0, 1 << 20, png, len,
	    &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(png[0]);
	assert_non_null(png[1]);
	assert_false(len[0] == len[1] && memcmp(png[0], png[1], len[0]) == 0);
	memset(&o, 0, sizeof(o));
	snprintf(title, sizeof(title), "%s (game %s)", b->title, g.name);
	o.title = title;
	o.subtitle = "after";
	o.side = 0;
	o.compact = 1;
	o.crop = 1;
	assert_int_equal(map_render(b, &o, 0, &now, &nlen, &e), 0);
	assert_int_equal(nlen, len[1]);
	assert_memory_equal(now, png[1], nlen);
	free(now);
	free(png[0]);
	free(png[1]);
	battle_free(b);
	store_game_clear(&g);
}

/* A ledger that does not play again (here a damaged signature) costs
 * the digest its maps, not its reports. */
static void
a_digest_whose_game_does_not_replay_comes_without_maps(void **state)
{
	struct fx *f = *state;
	struct err e;
	char *r;

	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	if (store_exec(f->st, &e, "UPDATE ledger SET sig = zeroblob(64) WHERE "
	    "seq = (SELECT max(seq) FROM ledger)", "") != 0)
		fail_msg("%s", e.msg);
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_non_null(strstr(r, "(2 phases)"));
	assert_int_equal(occurrences(r, "\n===== "), 2);
	assert_null(strstr(r, "multipart/"));
	free(r);
}

/* HISTORY TURN N and N-M pick those turns; turns not played, or that
 * the battle does not have, get an answer that says which there are. */
static void
turn_and_range_pick_their_turns(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	play(f, "mill", 3);
	r = ask(f, HOWE, HDR "HISTORY TURN 1\r\n");
	assert_non_null(strstr(r, "(2 phases)"));
	assert_non_null(strstr(r, "===== Turn 1, crown phase"));
	assert_non_null(strstr(r, "===== Turn 1, continental phase"));
	assert_null(strstr(r, "===== Turn 2"));
	/* The digest of an earlier turn has its phases' maps, of the field
	 * then. */
	{
		size_t max;

		assert_non_null(strstr(r, "multipart/"));
		assert_int_equal(phase_maps(f, &max), 2);
	}
	free(r);
	r = ask(f, HOWE, HDR "HISTORY 2-2\r\n");
	assert_non_null(strstr(r, "(1 phase)"));
	assert_non_null(strstr(r, "===== Turn 2, crown phase"));
	assert_null(strstr(r, "===== Turn 1"));
	free(r);
	r = ask(f, HOWE, HDR "HISTORY 1-2\r\n");
	assert_non_null(strstr(r, "(3 phases)"));
	free(r);
	/* Turn 2's continental phase is not played: TURN 2 has the one. */
	r = ask(f, GREENE, GHDR "HISTORY TURN 2\r\n");
	assert_non_null(strstr(r, "(1 phase)"));
	free(r);
	r = ask(f, HOWE, HDR "HISTORY TURN 5\r\n");
	assert_non_null(strstr(r, "Game mill has no turn 5: its battle has 2 "
	    "turns, and the reports sent to\nyou are of turns 1 to 2."));
	assert_non_null(strstr(r, "Write HISTORY for every phase"));
	free(r);
	/* A wrong line is answered with what would be right (from Greene,
	 * who has a phase still to play). */
	r = ask(f, GREENE, GHDR "HISTORY 3-1\r\n");
	assert_non_null(strstr(r, "HISTORY 3-1 ends before it begins"));
	assert_non_null(strstr(r, "(HISTORY 1-3)"));
	/* A command written wrong is no order line: nothing is said of
	 * orders that could not be read or of a set held back. */
	assert_null(strstr(r, "None of the order lines"));
	assert_null(strstr(r, "does not count as in"));
	free(r);
}

/* HELP, with the first line and without it, tells of HISTORY. */
static void
help_tells_of_history(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	r = ask(f, HOWE, HDR "HELP\r\n");
	assert_non_null(strstr(r, "  HISTORY [TURN N | N-M]   the reports you "
	    "were sent, again, in one mail\n"));
	assert_non_null(strstr(r, "HISTORY TURN 3, HISTORY 2-4"));
	free(r);
	r = ask(f, "stranger@else.example.org", "HELP\r\n");
	assert_non_null(strstr(r, "An observer sends HISTORY alone"));
	free(r);
}

/* Before any phase is played, and for a turn still to come. */
static void
turns_not_played_are_told(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_non_null(strstr(r, "No report of game mill has been sent to you "
	    "yet"));
	free(r);
	play(f, "mill", 1);
	r = ask(f, HOWE, HDR "HISTORY TURN 2\r\n");
	assert_non_null(strstr(r, "Turn 2 of game mill has not been played yet. "
	    "The reports sent to you are\nof turns 1 to 1 (the battle has 2 "
	    "turns)."));
	free(r);
}

/* 32 phases played: one mail holds 30 (turns 1 to 15) and says how to
 * ask for the other two; asking so gets them. */
static void
a_digest_holds_at_most_30_phases(void **state)
{
	struct fx *f = *state;
	struct err e;
	char *r;
	int s;

	/* Plain text: no maps drawn for 32 phases of reports. */
	assert_int_equal(store_player_set_mail_format(f->st, 1, "text", &e), 0);
	assert_int_equal(store_player_set_mail_format(f->st, 2, "text", &e), 0);
	start(f);
	play(f, "mill", 1);
	/* An observer from the second phase on: its first turn is half. */
	assert_int_equal(referee_observer_add(&f->r, "mill", WATCHER, 0, &e), 0);
	for (s = 2; s <= 32; s++)
		play(f, "mill", s);
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_non_null(strstr(r, "(30 phases)"));
	assert_int_equal(occurrences(r, "\n===== "), 30);
	assert_non_null(strstr(r, "===== Turn 15, continental phase"));
	assert_null(strstr(r, "===== Turn 16"));
	assert_non_null(strstr(r, "One mail holds at most 30 phases and 1024 KB "
	    "of text: the 2 phases after\nthese (turn 16 to turn 16) were left "
	    "out. For them write\n  HISTORY TURN 16\n"));
	free(r);
	r = ask(f, HOWE, HDR "HISTORY TURN 16\r\n");
	assert_non_null(strstr(r, "(2 phases)"));
	assert_null(strstr(r, "left out"));
	free(r);
	/* 2-17: the 30 phases of turns 2 to 16, all in one mail. */
	r = ask(f, HOWE, HDR "HISTORY 2-17\r\n");
	assert_non_null(strstr(r, "(30 phases)"));
	assert_null(strstr(r, "left out"));
	free(r);
	/* The cap never ends inside a turn: the observer's 30th phase is
	 * turn 16's first, so the mail stops after turn 15 (29 phases). */
	r = ask(f, WATCHER, "HISTORY\r\n");
	assert_non_null(strstr(r, "(29 phases)"));
	assert_non_null(strstr(r, "===== Turn 1, continental phase"));
	assert_null(strstr(r, "===== Turn 1, crown phase"));
	assert_non_null(strstr(r, "  HISTORY TURN 16\n"));
	free(r);
	/* In HTML, a map a phase, every one in the mail (more than the 8
	 * parts a mail once held). */
	assert_int_equal(store_player_set_mail_format(f->st, 1, "html", &e), 0);
	r = ask(f, HOWE, HDR "HISTORY 1-6\r\n");
	assert_non_null(strstr(r, "(12 phases)"));
	free(r);
	{
		size_t max;

		assert_int_equal(phase_maps(f, &max), 12);
		assert_true(max <= 60 * 1024);
	}
}

/* A fog game: the crown's digest is its own view; the 2nd Virginia and
 * Weedon, hidden by the wood, which the continental reports name, are
 * never in it. */
static void
a_fog_digest_is_the_side_s_own_view(void **state)
{
	struct fx *f = *state;
	char *texts[4], *r;
	int n, i;

	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	n = kept_texts(f, GREENE, "report", texts, 4);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		assert_non_null(strstr(texts[i], "2nd Virginia"));
	r = ask(f, HOWE, HDR "HISTORY\r\n");
	assert_non_null(strstr(r, "(2 phases)"));
	assert_non_null(strstr(r, "23rd Foot"));
	assert_null(strstr(r, "2nd Virginia"));
	assert_null(strstr(r, "Weedon"));
	for (i = 0; i < n; i++)
		assert_null(strstr(r, strstr(texts[i], "Your order set's leaf")));
	free(r);
	for (i = 0; i < n; i++)
		free(texts[i]);
	r = ask(f, GREENE, GHDR "HISTORY\r\n");
	assert_non_null(strstr(r, "2nd Virginia"));
	free(r);
}

/* An observer (delay 1) gets, without the first line, the observer
 * mails released to them and not the one still held back; LIST tells
 * them the game.  With the answer asked elsewhere, neither. */
static void
an_observer_gets_what_they_were_sent(void **state)
{
	struct fx *f = *state;
	struct err e;
	char *texts[4], *r, status[64];
	int n;

	assert_int_equal(referee_observer_add(&f->r, "mill", WATCHER, 1, &e), 0);
	/* The notice says the delay, and how to ask for the history. */
	r = answer(f, WATCHER);
	assert_non_null(strstr(r, "Each comes 1 phase after it was played"));
	assert_non_null(strstr(r, "you saying HISTORY"));
	free(r);
	start(f);
	play(f, "mill", 1);
	play(f, "mill", 2);
	play(f, "mill", 3);
	n = kept_texts(f, WATCHER, "observer", texts, 4);
	assert_int_equal(n, 2);   /* the third is held */
	send_as(f, WATCHER, NULL, NULL, "HISTORY\r\n", status, sizeof(status));
	assert_string_equal(status, "commands");
	r = answer(f, WATCHER);
	assert_non_null(strstr(r, "sent to you as an observer"));
	assert_non_null(strstr(r, "(2 phases)"));
	assert_non_null(strstr(r, texts[0]));
	assert_non_null(strstr(r, texts[1]));
	assert_null(strstr(r, "===== Turn 2"));
	/* A map of each phase sent, none of the one held back. */
	{
		size_t max;

		assert_non_null(strstr(r, "multipart/"));
		assert_int_equal(phase_maps(f, &max), 2);
	}
	free(r);
	/* Turn 2's first phase is played, and held back from them. */
	r = ask(f, WATCHER, "HISTORY TURN 2\r\n");
	assert_non_null(strstr(r, "No report of turns 2 to 2 of game mill was "
	    "sent to you."));
	assert_non_null(strstr(r, "An observer's reports come some phases "
	    "after they are played"));
	assert_null(strstr(r, "====="));
	free(r);
	free(texts[0]);
	free(texts[1]);
	/* LIST tells the observer the game. */
	r = ask(f, WATCHER, "LIST\r\n");
	assert_non_null(strstr(r, "mill: Skirmish at the Mill"));
	assert_non_null(strstr(r, "you observe it"));
	free(r);
	r = ask(f, WATCHER, "LIST mill\r\n");
	assert_non_null(strstr(r, "Game mill:"));
	free(r);
	/* A forged From, the answer asked elsewhere: nothing of the game. */
	send_as(f, WATCHER, "spy@else.example.org", NULL, "HISTORY\r\n", NULL,
	    0);
	r = answer(f, "spy@else.example.org");
	assert_non_null(strstr(r, "Your mail has no line naming the game"));
	assert_null(strstr(r, "mill"));
	free(r);
	send_as(f, WATCHER, "spy@else.example.org", NULL, "LIST\r\n", NULL, 0);
	r = answer(f, "spy@else.example.org");
	assert_null(strstr(r, "mill:"));
	free(r);
	/* The battle over, every held mail is theirs, and the map. */
	play(f, "mill", 4);
	r = ask(f, WATCHER, "HISTORY 2-2\r\n");
	assert_non_null(strstr(r, "(2 phases)"));
	assert_non_null(strstr(r, "multipart/"));
	free(r);
	{
		size_t max;

		assert_int_equal(phase_maps(f, &max), 2);
		assert_true(max <= 60 * 1024);
	}
}

/* An observer of two games names one in the Subject. */
static void
an_observer_of_two_games_names_one(void **state)
{
	struct fx *f = *state;
	struct err e;
	char path[400], *r;

	snprintf(path, sizeof(path), "%s/mill.scenario", f->dir);
	assert_int_equal(referee_new_game(&f->r, "ford", path, 0, NULL, &e), 0);
	assert_int_equal(referee_observer_add(&f->r, "mill", WATCHER, 0, &e), 0);
	assert_int_equal(referee_observer_add(&f->r, "ford", WATCHER, 0, &e), 0);
	start(f);
	play(f, "mill", 1);
	r = ask(f, WATCHER, "HISTORY\r\n");
	assert_non_null(strstr(r, "You observe 2 games on this server: ford, "
	    "mill."));
	free(r);
	send_as(f, WATCHER, NULL, "Re: [mill] Observed: turn 1, crown phase",
	    "HISTORY\r\n", NULL, 0);
	r = answer(f, WATCHER);
	assert_non_null(strstr(r, "(1 phase)"));
	free(r);
}

/* A stranger's HISTORY is answered as a mail without the header: the
 * same words, nothing of any game. */
static void
a_stranger_learns_nothing(void **state)
{
	struct fx *f = *state;
	char *plain, *hist, status[64];

	start(f);
	play(f, "mill", 1);
	send_as(f, "stranger@else.example.org", NULL, NULL, "hello there\r\n",
	    status, sizeof(status));
	assert_string_equal(status, "no-header");
	plain = mail_to(f, "stranger@else.example.org", "orders");
	send_as(f, "stranger@else.example.org", NULL, NULL, "HISTORY\r\n",
	    status, sizeof(status));
	assert_string_equal(status, "commands");   /* read as HISTORY */
	hist = answer(f, "stranger@else.example.org");
	assert_non_null(strstr(hist, plain));
	assert_null(strstr(hist, "mill"));
	free(hist);
	/* A player without the first line is no observer either. */
	hist = ask(f, HOWE, "HISTORY\r\n");
	assert_non_null(strstr(hist, plain));
	free(hist);
	free(plain);
}

/* The secret given from another address: the digest goes to the
 * registered address alone, the other is told that it did. */
static void
the_digest_goes_to_the_registered_address(void **state)
{
	struct fx *f = *state;
	char *r;

	start(f);
	play(f, "mill", 1);
	send_as(f, "other@else.example.org", NULL, NULL, HDR "HISTORY\r\n", NULL,
	    0);
	r = mail_to(f, HOWE, "HISTORY, turn 1");
	assert_non_null(r);
	free(r);
	assert_null(mail_to(f, "other@else.example.org", "HISTORY, turn"));
	r = answer(f, "other@else.example.org");
	assert_non_null(strstr(r, "went to the address registered for this\n"
	    "player of game mill, and to no other."));
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(each_phase_map_is_the_field_then,
		    setup_short, teardown),
		cmocka_unit_test_setup_teardown(a_digest_whose_game_does_not_replay_comes_without_maps,
		    setup_short, teardown),
		cmocka_unit_test_setup_teardown(a_player_gets_their_own_reports_again, setup_short, teardown),
		cmocka_unit_test_setup_teardown(turn_and_range_pick_their_turns, setup_short, teardown),
		cmocka_unit_test_setup_teardown(turns_not_played_are_told, setup_short, teardown),
		cmocka_unit_test_setup_teardown(help_tells_of_history, setup_short, teardown),
		cmocka_unit_test_setup_teardown(a_digest_holds_at_most_30_phases, setup_long, teardown),
		cmocka_unit_test_setup_teardown(a_fog_digest_is_the_side_s_own_view, setup_fogged, teardown),
		cmocka_unit_test_setup_teardown(an_observer_gets_what_they_were_sent, setup_short, teardown),
		cmocka_unit_test_setup_teardown(an_observer_of_two_games_names_one, setup_short, teardown),
		cmocka_unit_test_setup_teardown(a_stranger_learns_nothing, setup_short, teardown),
		cmocka_unit_test_setup_teardown(the_digest_goes_to_the_registered_address, setup_short, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
