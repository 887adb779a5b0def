/*
 * fixture.h - the referee tests' game: a two-unit skirmish on a real
 * database in a temporary folder, and helpers to feed it mail and read
 * what it queued.  Included by each test program of this folder.
 */
#ifndef DESPATCH_TEST_REFEREE_FIXTURE_H
#define DESPATCH_TEST_REFEREE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "referee/referee.h"
#include "referee/internal.h"
#include "mail/mail.h"
#include "store/store.h"
#include "store/sqlite.h"

static const char scenario[] =
    "scenario \"Skirmish at the Mill\"\n"
    "ruleset vnb-wing\n"
    "table 48 x 48\n"
    "turns 2\n"
    "side crown \"Crown\"\n"
    "  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 24,8\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0\n"
    "side continental \"Continental\"\n"
    "  commander \"Greene\" army at 24,44\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,34\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 24,30 facing 180\n";

struct fx {
	char dir[256];
	char db[300];
	struct store *st;
	struct referee r;
};

/* The skirmish with Fog of War cards, each side's first hand given. */
static const char cards_lines[] =
    "cards\n"
    "hand crown \"Good Going\" \"Regulars!!\" \"Bad Going\" \"Panic!!!\"\n"
    "hand continental \"Good Going\" \"Bad Going\" \"Liberty or Death!!!\" "
    "\"Local Knowledge\"\n";

static inline int setup_game_with(void **state, int sandbox, const char *extra,
    const char *crown_brigades);

static inline int
setup_game(void **state, int sandbox)
{
	return setup_game_with(state, sandbox, "", NULL);
}

static inline int
setup_cards(void **state)
{
	return setup_game_with(state, 0, cards_lines, NULL);
}

/* The same, the crown's player commanding the 1st brigade only, so that
 * a second player may take the army commander. */
static inline int
setup_cards_shared(void **state)
{
	return setup_game_with(state, 0, cards_lines, "1st");
}

static inline int setup_game_text(void **state, int sandbox,
    const char *text, const char *crown_brigades);

static inline int
setup_game_with(void **state, int sandbox, const char *extra,
    const char *crown_brigades)
{
	char *text = malloc(sizeof(scenario) + strlen(extra));
	int rc;

	assert_non_null(text);
	sprintf(text, "%s%s", scenario, extra);
	rc = setup_game_text(state, sandbox, text, crown_brigades);
	free(text);
	return rc;
}

/* The same with the game "mill" made from text, a scenario of the test's
 * own, with the same two sides and players. */
static inline int
setup_game_text(void **state, int sandbox, const char *text,
    const char *crown_brigades)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[400], secret[REFEREE_SECRET_MAX];
	struct err e;
	FILE *fp;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/despatch-test-ref-%d", (int)getpid());
	mkdir(f->dir, 0700);
	snprintf(f->db, sizeof(f->db), "%s/t.db", f->dir);
	unlink(f->db);
	snprintf(path, sizeof(path), "%s/mill.scenario", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	if (store_open(f->db, 1, -1, &f->st, &e) != 0)
		fail_msg("%s", e.msg);
	referee_init(&f->r, f->st);
	f->r.fixed_now = 1700000000;
	if (referee_new_game(&f->r, "mill", path, sandbox, NULL, &e) != 0 ||
	    referee_player_add(&f->r, "mill", "crown", "howe@crown.example.org",
	    "red-coat-secret", crown_brigades, secret, &e) != 0 ||
	    referee_player_add(&f->r, "mill", "continental",
	    "greene@cont.example.org", "blue-coat-secret", NULL, secret, &e) != 0)
		fail_msg("%s", e.msg);
	*state = f;
	return 0;
}

static inline int
setup_sandbox(void **state)
{
	return setup_game(state, 1);
}

static inline int
setup_live(void **state)
{
	return setup_game(state, 0);
}

static inline int
teardown(void **state)
{
	struct fx *f = *state;
	char cmd[600];

	referee_fini(&f->r);
	store_close(f->st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static inline void
start(struct fx *f)
{
	struct err e;

	if (referee_start(&f->r, "mill", &e) != 0)
		fail_msg("%s", e.msg);
}

/* A mail as a client would write it. */
static inline char *
mail(const char *msgid, const char *from, const char *body)
{
	char *m = malloc(strlen(body) + 1024);

	assert_non_null(m);
	sprintf(m, "From: Player <%s>\r\nTo: despatch@localhost\r\n"
	    "Subject: orders\r\nDate: Tue, 14 Nov 2023 22:13:20 +0000\r\n"
	    "Message-ID: <%s>\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n\r\n%s", from, msgid, body);
	return m;
}

/* The same with a Reply-To (none when reply_to is NULL). */
static inline char *
mail_reply_to(const char *msgid, const char *from, const char *reply_to,
    const char *body)
{
	char *m = mail(msgid, from, body), *full;

	if (reply_to == NULL)
		return m;
	full = malloc(strlen(m) + 300);
	assert_non_null(full);
	sprintf(full, "Reply-To: <%s>\r\n%s", reply_to, m);
	free(m);
	return full;
}

static inline int
submit(struct fx *f, const char *raw, struct submit_result *res)
{
	struct err e;
	int rc = referee_submit(&f->r, raw, strlen(raw), NULL, res, &e);

	if (rc != 0)
		fail_msg("submit failed: %s", e.msg);
	return rc;
}

/* The text of the last mail to `to` whose subject has `what` in it, as
 * the player reads it (decoded); NULL when there is none. */
static inline char *
mail_to(struct fx *f, const char *to, const char *what)
{
	struct store_mail *m = NULL;
	struct mail_msg *msg = NULL;
	char *out = NULL;
	int n = 0, k;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	for (k = n - 1; k >= 0; k--)
		if (strcmp(m[k].recipient, to) == 0 &&
		    strstr(m[k].subject, what) != NULL)
			break;
	if (k >= 0) {
		assert_int_equal(mail_parse(m[k].raw, m[k].len, &msg, &e), 0);
		out = strdup(msg->body);
		assert_non_null(out);
		mail_msg_free(msg);
	}
	store_mails_free(m, n);
	return out;
}

/* Plays the open step of game, which must be `step`. */
static inline void
play(struct fx *f, const char *game, int step)
{
	struct turn_result tr;
	struct err e;

	if (referee_turn(&f->r, game, NULL, 0, &tr, &e) != 0)
		fail_msg("step %d: %s", step, e.msg);
	assert_int_equal(tr.step, step);
}

static inline int64_t
count(struct fx *f, const char *table)
{
	char sql[128];
	struct store_mail *m = NULL;
	int n = 0;
	int64_t c = 0;
	struct err e;

	if (strcmp(table, "outbox") == 0) {
		assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
		store_mails_free(m, n);
		return n;
	}
	if (strcmp(table, "messages") == 0) {
		assert_int_equal(store_message_count(f->st, &c, &e), 0);
		return c;
	}
	snprintf(sql, sizeof(sql), "%s", table);
	fail_msg("unknown table %s", sql);
	return -1;
}

static inline int
orders_for(struct fx *f, int step, int side)
{
	char *text = NULL;
	int n = 0;
	struct err e;

	assert_int_equal(store_orders_text(f->st, 1, step, side, 0, &text, &n, &e), 0);
	free(text);
	return n;
}

/* The one number a query answers. */
static inline int64_t
q(struct fx *f, const char *sql)
{
	int64_t v = -1;
	struct err e;

	assert_int_equal(store_query_int(f->st, &e, &v, sql, ""), 1);
	return v;
}

/* The newest mail in the outbox as a player reads it: its header
 * section as written, a blank line, and its text decoded (a multipart
 * mail's text/plain part, quoted-printable undone) by the same reader
 * that takes players' mail in. */
static inline char *
last_mail(struct fx *f)
{
	struct store_mail *m = NULL;
	struct mail_msg *msg = NULL;
	const char *end = NULL;
	size_t hl;
	int n = 0;
	char *out;
	struct err e;

	assert_int_equal(store_outbox_list(f->st, 0, &m, &n, &e), 0);
	assert_true(n > 0);
	end = strstr(m[n - 1].raw, "\r\n\r\n");
	assert_non_null(end);
	hl = (size_t)(end - m[n - 1].raw) + 4;
	err_clear(&e);
	assert_int_equal(mail_parse(m[n - 1].raw, m[n - 1].len, &msg, &e), 0);
	out = malloc(hl + msg->body_len + 1);
	assert_non_null(out);
	memcpy(out, m[n - 1].raw, hl);
	memcpy(out + hl, msg->body, msg->body_len + 1);
	mail_msg_free(msg);
	store_mails_free(m, n);
	return out;
}


#endif
