/*
 * bench_store.c - how much the database grows as a game is played by
 * mail, beside how much the game's archive grows (issue 19, 2).
 *
 * A benchmark run by hand, not a test: it prints figures and says whether
 * the targets are met, and exits 0 unless it could not run.
 *
 *   bench_store [TURNS]
 *
 * In a fresh database in /tmp that already holds a game played out (a
 * club's server is never empty), it starts a Cowpens of TURNS turns
 * (default 100: 200 steps) and plays it through the referee as a server
 * does: each phase, the phasing side's player answers the last report
 * the way mail clients do, top-posted over the whole report (Outlook's
 * multipart/alternative with the report unquoted below a "From:" block,
 * as tests/mail-corpus/06; Gmail's, quoted with '>' and an HTML part, as
 * tests/mail-corpus/08), the phase is played, and every mail queued is
 * delivered.  After each step the WAL is checkpointed and the bytes in
 * use (pages less free pages) are read.  At the end the game is
 * exported, and the database's growth a step is set beside the
 * archive's.  Beside both it prints the bytes of all the mail each step
 * sent and took in: what the store kept for good before it was trimmed.
 *
 * Targets: the database grows at most 4 times as fast as the archive; a
 * new game, its welcomes queued, adds at most 64 KB.
 */
#include <sodium.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/battle.h"
#include "mail/mail.h"
#include "referee/referee.h"
#include "referee/internal.h"
#include "scenario/scenario.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "bench_util.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

static void
die(const char *what, const struct err *e)
{
	fprintf(stderr, "bench_store: %s: %s\n", what, e != NULL ? e->msg :
	    strerror(errno));
	exit(1);
}

/* The bytes the database holds in use now, its WAL folded in. */
static long long
in_use(struct store *st)
{
	int64_t pages = 0, free_pages = 0, size = 0;
	struct err e;

	if (store_exec(st, &e, "PRAGMA wal_checkpoint(TRUNCATE)", "") != 0 ||
	    store_query_int(st, &e, &pages, "PRAGMA page_count", "") < 0 ||
	    store_query_int(st, &e, &free_pages, "PRAGMA freelist_count", "") < 0 ||
	    store_query_int(st, &e, &size, "PRAGMA page_size", "") < 0)
		die("the database's size", &e);
	return (long long)(pages - free_pages) * size;
}

/* Every mail queued, delivered as the SMTP sender would; their bytes
 * added to *bytes.  The last report to each address is kept in last[]. */
static void
deliver(struct store *st, const char *const *to, char **last, int nto,
    long long *bytes)
{
	struct store_mail *m = NULL;
	int n = 0, k, i;
	struct err e;

	if (store_outbox_list(st, 1, &m, &n, &e) != 0)
		die("the outbox", &e);
	for (k = 0; k < n; k++) {
		*bytes += (long long)m[k].len;
		for (i = 0; i < nto; i++)
			if (strcmp(m[k].kind, "report") == 0 &&
			    strcmp(m[k].recipient, to[i]) == 0) {
				struct mail_msg *msg = NULL;

				if (mail_parse(m[k].raw, m[k].len, &msg, &e) == 0) {
					free(last[i]);
					last[i] = strdup(msg->body);
					mail_msg_free(msg);
				}
			}
		if (store_outbox_delivered(st, m[k].id, 1700000000, &e) != 0)
			die("delivering", &e);
	}
	store_mails_free(m, n);
}

/* The text with every line prefixed "> " (Gmail's quoting). */
static char *
quoted(const char *t)
{
	size_t n = strlen(t), lines = 1, k = 0;
	const char *p;
	char *q;

	for (p = t; *p; p++)
		lines += *p == '\n';
	q = malloc(n + 2 * lines + 1);
	if (q == NULL)
		return NULL;
	q[k++] = '>';
	q[k++] = ' ';
	for (p = t; *p; p++) {
		q[k++] = *p;
		if (*p == '\n' && p[1] != '\0') {
			q[k++] = '>';
			q[k++] = ' ';
		}
	}
	q[k] = '\0';
	return q;
}

/* The HTML a client writes beside its text: each line a <div>, escaped. */
static void
html_of(FILE *f, const char *t)
{
	fputs("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; "
	    "charset=utf-8\"></head><body><div dir=\"ltr\">", f);
	for (; *t; t++) {
		if (*t == '<')
			fputs("&lt;", f);
		else if (*t == '>')
			fputs("&gt;", f);
		else if (*t == '&')
			fputs("&amp;", f);
		else if (*t == '\n')
			fputs("<br>\r\n", f);
		else
			fputc(*t, f);
	}
	fputs("</div></body></html>\r\n", f);
}

/* A player's orders as a client sends them, top-posted over the report
 * they answer. */
static char *
order_mail(int style, int k, const char *from, const char *game,
    const char *side, int turn, const char *secret, const char *orders,
    const char *report, size_t *len)
{
	char *buf = NULL, *q = NULL, *text = NULL;
	size_t n = 0, tn = 0;
	FILE *f = open_memstream(&buf, &n), *tf = open_memstream(&text, &tn);

	if (f == NULL || tf == NULL)
		return NULL;
	fprintf(tf, "GAME %s SIDE %s TURN %d PASSWORD %s\n\n%s\nRegards,\n\n",
	    game, side, turn, secret, orders);
	if (style == 0) {
		/* Outlook: the report below a "From:" block, unquoted. */
		fprintf(tf, "From: despatch <umpire@club.example>\nSent: 30 November "
		    "2026 20:16\nTo: %s\nSubject: [%s] Turn %d\n\n%s", from, game,
		    turn, report);
	} else {
		/* Gmail: an attribution line, the report quoted. */
		q = quoted(report);
		fprintf(tf, "On Mon, 30 Nov 2026 at 20:16, despatch "
		    "<umpire@club.example> wrote:\n%s", q != NULL ? q : "");
	}
	fclose(tf);
	fprintf(f, "From: Player <%s>\r\nTo: despatch <umpire@club.example>\r\n"
	    "Subject: RE: [%s] Turn %d\r\nDate: Mon, 30 Nov 2026 20:38:55 -0000\r\n"
	    "Message-ID: <bench-%d-%s@%s>\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: multipart/alternative; boundary=\"=_b%d\"\r\n%s\r\n"
	    "This is a multipart message in MIME format.\r\n\r\n--=_b%d\r\n"
	    "Content-Type: text/plain; charset=\"utf-8\"\r\n"
	    "Content-Transfer-Encoding: 8bit\r\n\r\n", from, game, turn, k, side,
	    strchr(from, '@') + 1, k, style == 0 ? "X-Mailer: Microsoft Outlook "
	    "16.0\r\n" : "", k);
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			fputc('\r', f);
		fputc(*p, f);
	}
	fprintf(f, "\r\n--=_b%d\r\nContent-Type: text/html; charset=\"utf-8\"\r\n"
	    "Content-Transfer-Encoding: 8bit\r\n\r\n", k);
	html_of(f, text);
	fprintf(f, "\r\n--=_b%d--\r\n", k);
	fclose(f);
	free(q);
	free(text);
	*len = n;
	return buf;
}

/* Plays game (already started) to its end or `steps` steps: each phase
 * the phasing side's player answers its last report with the units of
 * the side holding.  Returns the mail bytes seen. */
static long long
play(struct referee *r, struct store *st, const char *game, int steps,
    const char *const *to, const char *const *secrets, long long *db_before,
    long long *db_after, int *played)
{
	char *last[2] = { NULL, NULL };
	long long mail = 0;
	struct store_game g;
	struct battle *b = NULL;
	struct err e;
	int step;

	memset(&g, 0, sizeof(g));
	if (store_game_get(st, game, &g, &e) != 0 ||
	    store_battle_load(st, &g, &b, &e) != 0)
		die("the game", &e);
	deliver(st, to, last, 2, &mail);   /* the welcomes */
	mail = 0;
	*db_before = in_use(st);
	*played = 0;
	for (step = 1; step <= steps; step++) {
		struct turn_result tr;
		struct submit_result sr;
		int side = battle_step_side(b, step), u, who;
		char orders[4096], *raw;
		size_t ol = 0, rl = 0;

		if (side < 0)
			side = step % 2;
		who = side;
		orders[0] = '\0';
		for (u = 0; u < b->nunits && ol + 200 < sizeof(orders); u++)
			if (b->units[u].side == side)
				ol += (size_t)snprintf(orders + ol, sizeof(orders) - ol,
				    "%s: HOLD\n", b->units[u].name);
		raw = order_mail(who, step, to[who], game, b->sides[side].id,
		    battle_step_turn(b, step), secrets[who], orders,
		    last[who] != NULL ? last[who] : "(no report yet)\n", &rl);
		if (raw == NULL)
			die("the order mail", NULL);
		mail += (long long)rl;
		if (referee_submit(r, raw, rl, NULL, &sr, &e) != 0)
			die("submit", &e);
		free(raw);
		if (referee_turn(r, game, NULL, 0, &tr, &e) != 0)
			die("turn", &e);
		deliver(st, to, last, 2, &mail);
		(*played)++;
		if (tr.finished)
			break;
	}
	*db_after = in_use(st);
	free(last[0]);
	free(last[1]);
	battle_free(b);
	store_game_clear(&g);
	return mail;
}

static void
new_game(struct referee *r, const char *name, const char *scenario,
    const char *const *sides, const char *const *to,
    const char *const *secrets)
{
	char secret[REFEREE_SECRET_MAX];
	struct err e;
	int i;

	if (referee_new_game(r, name, scenario, 0, NULL, &e) != 0)
		die("new", &e);
	for (i = 0; i < 2; i++)
		if (referee_player_add(r, name, sides[i], to[i], secrets[i], NULL,
		    secret, &e) != 0)
			die("player add", &e);
	if (referee_start(r, name, &e) != 0)
		die("start", &e);
}

int
main(int argc, char **argv)
{
	const char *camp = DESPATCH_SOURCE_DIR "/campaign/cowpens-1781";
	const char *sides[2] = { "crown", "continental" };
	const char *to[2] = { "tarleton@crown.example.org",
	    "morgan@continental.example.org" };
	const char *secrets[2] = { "scarlet-bugle-thistle-harbour",
	    "hickory-ember-cove-wren" };
	char dir[] = "/tmp/despatch-bench-store-XXXXXX", path[512], db[600];
	char archive[600], cmd[700];
	int turns = 100, steps = 0, played = 0, warm_played = 0;
	long long before, after, mail, warm_mail, fresh, welcomed, queued, abytes;
	struct store *st = NULL;
	struct referee r;
	struct stat sb;
	struct err e;
	FILE *f;

	if (argc > 1)
		turns = atoi(argv[1]);
	if (turns < 2 || sodium_init() < 0 || mkdtemp(dir) == NULL) {
		fprintf(stderr, "usage: bench_store [TURNS]\n");
		return 1;
	}
	if (bench_cowpens(camp, dir, turns, path, sizeof(path)) != 0)
		return 1;
	snprintf(db, sizeof(db), "%s/bench.db", dir);
	if (store_open(db, 1, -1, &st, &e) != 0)
		die("the database", &e);
	referee_init(&r, st);
	r.fixed_now = 1700000000;
	r.key_demo = 1;
	/* A game played out first: the server is not empty. */
	snprintf(cmd, sizeof(cmd), "%s/cowpens.scenario", camp);
	new_game(&r, "first", cmd, sides, to, secrets);
	warm_mail = play(&r, st, "first", 12, to, secrets, &before, &after,
	    &warm_played);
	/* The game measured: its start, its welcomes, its steps. */
	fresh = in_use(st);
	new_game(&r, "cowpens", path, sides, to, secrets);
	queued = in_use(st);
	mail = play(&r, st, "cowpens", 2 * turns, to, secrets, &before, &after,
	    &played);
	welcomed = before;
	steps = played;
	snprintf(archive, sizeof(archive), "%s/archive.jsonl", dir);
	f = fopen(archive, "w");
	if (f == NULL || referee_export(&r, "cowpens", f, 0, &e) != 0)
		die("export", &e);
	fclose(f);
	if (stat(archive, &sb) != 0)
		die(archive, NULL);
	abytes = (long long)sb.st_size;
	printf("bench_store: despatch %s; a Cowpens of %d turns played through "
	    "the referee, %d steps,\n  each phase's orders top-posted over the "
	    "whole report (Outlook and Gmail styles),\n  after a first game of "
	    "%d steps (%lld bytes of mail)\n", DESPATCH_VERSION, turns, steps,
	    warm_played, warm_mail);
	printf("1 database growth    %10.0f bytes a step (%lld in use after the "
	    "welcomes, %lld at the end)\n", (double)(after - before) / steps,
	    before, after);
	printf("2 archive            %10.0f bytes a step (%lld bytes in all)\n",
	    (double)abytes / steps, abytes);
	printf("3 ratio 1/2          %10.2f   (target at most 4: %s)\n",
	    (double)(after - before) / (double)abytes,
	    (double)(after - before) <= 4.0 * (double)abytes ? "met" : "NOT met");
	printf("4 mail a step        %10.0f bytes sent and taken in (what the "
	    "store kept for good\n                                 before mail "
	    "was trimmed: %.0f times the archive)\n", (double)mail / steps,
	    (double)mail / (double)abytes);
	printf("5 a new game         %10lld bytes with its welcomes queued, %lld "
	    "once they are sent\n                                 (target at most "
	    "65536, queued: %s)\n", queued - fresh, welcomed - fresh,
	    queued - fresh <= 65536 ? "met" : "NOT met");
	referee_fini(&r);
	store_close(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_store: could not remove %s\n", dir);
	return 0;
}
