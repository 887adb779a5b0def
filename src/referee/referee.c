/*
 * referee.c - the game lifecycle and the conversation with players.
 *
 * Workload: one call per CLI command or incoming mail; each opens one
 * transaction, reads the game, and writes what changed plus the mail it
 * owes.  A player's mistake is always answered, never bounced; only a
 * failure to store (ERR_TEMP) leaves the caller with an error.
 */
#include "referee/referee.h"

#include <sodium.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/dice.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/report.h"
#include "scenario/scenario.h"

#define MAX_PLAYERS 64

static int check_password(const char *password, struct err *e);

void
referee_init(struct referee *r, struct store *st)
{
	const char *from = getenv("DESPATCH_FROM");
	const char *at;

	memset(r, 0, sizeof(*r));
	r->st = st;
	snprintf(r->from, sizeof(r->from), "%s", from && *from ? from :
	    "despatch <despatch@localhost>");
	at = strrchr(r->from, '@');
	if (at != NULL) {
		size_t n = strcspn(at + 1, ">");

		if (n >= sizeof(r->domain))
			n = sizeof(r->domain) - 1;
		memcpy(r->domain, at + 1, n);
		r->domain[n] = '\0';
	} else {
		snprintf(r->domain, sizeof(r->domain), "localhost");
	}
}

int64_t
referee_now(struct referee *r)
{
	if (r->fixed_now != 0) {
		int64_t t = r->fixed_now;

		r->fixed_now += 60;
		return t;
	}
	return (int64_t)time(NULL);
}

static void
make_msgid(struct referee *r, const char *game, const char *kind, char *out,
    size_t size)
{
	if (r->fixed_now != 0) {
		snprintf(out, size, "%s.%s.%ld@%s", game ? game : "despatch", kind,
		    ++r->msg_counter, r->domain);
	} else {
		unsigned char rnd[12];
		char hex[25];

		randombytes_buf(rnd, sizeof(rnd));
		ledger_hex(rnd, sizeof(rnd), hex);
		snprintf(out, size, "%s.%s.%s@%s", game ? game : "despatch", kind,
		    hex, r->domain);
	}
}

/* Composes and queues one mail. */
static int
queue_mail_s(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, int sensitive, struct err *e)
{
	struct mail_out m;
	char msgid[256], date[64];
	char *raw;
	size_t len;
	int64_t now = referee_now(r);
	int rc;

	make_msgid(r, game, kind, msgid, sizeof(msgid));
	memset(&m, 0, sizeof(m));
	m.from = r->from;
	m.to = to;
	m.subject = subject;
	m.message_id = msgid;
	m.in_reply_to = in_reply_to;
	m.date = mail_date((long long)now, date, sizeof(date));
	m.auto_reply = in_reply_to != NULL;
	m.body = body;
	raw = mail_compose(&m, &len, e);
	if (raw == NULL)
		return -1;
	rc = store_outbox_add(r->st, game_id, msgid, to, subject, kind, raw, len,
	    sensitive, now, e);
	free(raw);
	return rc;
}

static int
queue_mail(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, struct err *e)
{
	return queue_mail_s(r, game_id, game, to, subject, kind, in_reply_to,
	    body, 0, e);
}

int
referee_secret_hash(struct referee *r, const char *secret,
    unsigned char out[32], struct err *e)
{
	unsigned char key[32];

	if (store_server_key(r->st, "secret-hash", key, e) != 0)
		return -1;
	crypto_generichash(out, 32, (const unsigned char *)secret, strlen(secret),
	    key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	return 0;
}

/* A secret that is easy to type: five groups of five letters and digits
 * from a 32-symbol alphabet without look-alikes, 125 bits. */
static void
make_secret(char *out)
{
	static const char alpha[] = "abcdefghjkmnpqrstuvwxyz23456789";
	int i, k = 0;

	for (i = 0; i < 25; i++) {
		if (i > 0 && i % 5 == 0)
			out[k++] = '-';
		out[k++] = alpha[randombytes_uniform(sizeof(alpha) - 1)];
	}
	out[k] = '\0';
}

static int
valid_game_name(const char *n)
{
	size_t i, len = strlen(n);

	if (len == 0 || len > 40 || !isalnum((unsigned char)n[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)n[i]) && n[i] != '-' && n[i] != '_')
			return 0;
	return 1;
}

int
referee_new_game(struct referee *r, const char *name, const char *path,
    int sandbox, const unsigned char *seed_secret, struct err *e)
{
	struct battle *b = NULL;
	char *text = NULL;
	size_t len = 0;
	unsigned char secret[32];
	const char *base;
	int64_t id;
	int rc = -1, seen;
	struct store_game g;

	if (!valid_game_name(name))
		return err_set(e, ERR_USER, "\"%s\" is not a usable game name: use "
		    "1 to 40 letters, digits, '-' or '_', starting with a letter or "
		    "digit", name);
	if (scenario_load_file(path, &text, &len, &b, e) != 0)
		return -1;
	if (seed_secret != NULL)
		memcpy(secret, seed_secret, 32);
	else
		randombytes_buf(secret, sizeof(secret));
	if (store_begin(r->st, e) != 0)
		goto out;
	seen = store_game_get(r->st, name, &g, e);
	store_game_clear(&g);
	if (seen == 0) {
		err_set(e, ERR_USER, "a game called \"%s\" already exists in this "
		    "database", name);
		goto fail;
	}
	err_clear(e);
	base = strrchr(path, '/');
	if (store_game_insert(r->st, name, b, base ? base + 1 : path, text, len,
	    sandbox, secret, referee_now(r), &id, e) != 0 ||
	    store_battle_save(r->st, id, b, e) != 0 ||
	    store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	sodium_memzero(secret, sizeof(secret));
	battle_free(b);
	free(text);
	return rc;
}

static int
valid_email(const char *a)
{
	const char *at = strchr(a, '@');
	size_t i;

	if (at == NULL || at == a || strchr(at + 1, '@') != NULL ||
	    strchr(at + 1, '.') == NULL || strlen(a) > 254)
		return 0;
	for (i = 0; a[i]; i++)
		if ((unsigned char)a[i] <= ' ' || strchr("<>()[],;:\\\"", a[i]))
			return 0;
	return at[1] != '.' && a[strlen(a) - 1] != '.';
}

int
referee_player_add(struct referee *r, const char *game, const char *side,
    const char *email, const char *password, char *secret_out, struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	unsigned char hash[32];
	int s, rc = -1;

	memset(&g, 0, sizeof(g));
	if (!valid_email(email))
		return err_set(e, ERR_USER, "\"%s\" is not a mail address: expected "
		    "something like player@example.org", email);
	if (password != NULL && check_password(password, e) != 0)
		return -1;
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto fail;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has started: its roster is "
		    "frozen", game);
		goto fail;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto fail;
	s = battle_side(b, side);
	if (s < 0) {
		char list[256] = "";
		int i;

		for (i = 0; i < b->nsides; i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, b->sides[i].id, sizeof(list) - strlen(list) - 1);
		}
		err_set(e, ERR_USER, "game \"%s\" has no side \"%s\"; its sides are "
		    "%s", game, side, list);
		goto fail;
	}
	{
		struct store_player pl[MAX_PLAYERS];
		int n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);

		if (n < 0)
			goto fail;
		if (n == MAX_PLAYERS) {
			err_set(e, ERR_USER, "game \"%s\" has %d players, as many as "
			    "a game takes", game, MAX_PLAYERS);
			goto fail;
		}
	}
	if (password != NULL)
		snprintf(secret_out, REFEREE_SECRET_MAX, "%s", password);
	else
		make_secret(secret_out);
	if (referee_secret_hash(r, secret_out, hash, e) != 0)
		goto fail;
	if (store_player_add(r->st, g.id, s, email, hash, secret_out,
	    referee_now(r), e) != 0) {
		if (strstr(e->msg, "UNIQUE") != NULL)
			err_set(e, ERR_USER, "%s already plays in game \"%s\"", email,
			    game);
		goto fail;
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

static int
check_password(const char *password, struct err *e)
{
	const char *p;

	if (strlen(password) < 8 || strlen(password) >= REFEREE_SECRET_MAX)
		return err_set(e, ERR_USER, "a password must be 8 to %d characters",
		    REFEREE_SECRET_MAX - 1);
	for (p = password; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 127)
			return err_set(e, ERR_USER, "a password may hold only "
			    "printable ASCII without spaces");
	return 0;
}

int
referee_player_remove(struct referee *r, const char *game, const char *email,
    struct err *e)
{
	struct store_game g;
	int rc = -1, n;

	memset(&g, 0, sizeof(g));
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto fail;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has started: its roster is frozen "
		    "(a player who lost the secret can be given a new one with "
		    "'despatch player reset')", game);
		goto fail;
	}
	n = store_player_remove(r->st, g.id, email, e);
	if (n < 0)
		goto fail;
	if (n == 0) {
		err_set(e, ERR_USER, "%s does not play in game \"%s\" (see "
		    "'despatch player list %s')", email, game, game);
		goto fail;
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	store_game_clear(&g);
	return rc;
}

int
referee_player_reset(struct referee *r, const char *game, const char *email,
    const char *password, char *secret_out, struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	unsigned char hash[32];
	int64_t player = 0;
	int side = 0, n, rc = -1;

	memset(&g, 0, sizeof(g));
	if (password != NULL && check_password(password, e) != 0)
		return -1;
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto fail;
	if (password != NULL)
		snprintf(secret_out, REFEREE_SECRET_MAX, "%s", password);
	else
		make_secret(secret_out);
	if (referee_secret_hash(r, secret_out, hash, e) != 0)
		goto fail;
	n = store_player_rehash(r->st, g.id, email, hash, &player, &side, e);
	if (n < 0)
		goto fail;
	if (n == 0) {
		err_set(e, ERR_USER, "%s does not play in game \"%s\" (see "
		    "'despatch player list %s')", email, game, game);
		goto fail;
	}
	if (g.status == GAME_SETUP) {
		/* Not yet told: the welcome will carry the new one. */
		if (store_exec(r->st, e, "INSERT OR REPLACE INTO player_secrets "
		    "(player_id, secret) VALUES (?, ?)", "it", player,
		    secret_out) != 0)
			goto fail;
	} else {
		char body[1024], subject[256];

		if (store_battle_load(r->st, &g, &b, e) != 0)
			goto fail;
		snprintf(body, sizeof(body), "The operator of game %s has given you "
		    "a new secret for side %s;\nthe old one no longer works.\n\n"
		    "Your secret: %s\n\nSend it with every order mail, in the first "
		    "line:\n\n  GAME %s SIDE %s TURN <turn> PASSWORD %s\n", g.name,
		    b->sides[side].id, secret_out, g.name, b->sides[side].id,
		    secret_out);
		snprintf(subject, sizeof(subject), "[%s] Your new secret", g.name);
		if (queue_mail_s(r, g.id, g.name, email, subject, "secret", NULL,
		    body, 1, e) != 0) {
			sodium_memzero(body, sizeof(body));
			goto fail;
		}
		sodium_memzero(body, sizeof(body));
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

int
referee_player_list(struct referee *r, const char *game, char **out,
    struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	struct text t;
	int n, i, rc = -1;

	memset(&g, 0, sizeof(g));
	*out = NULL;
	text_init(&t, 64 * 1024);
	if (store_game_get(r->st, game, &g, e) != 0 ||
	    store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto out;
	for (i = 0; i < n; i++)
		text_add(&t, "%-16s %s\n", b->sides[pl[i].side].id, pl[i].email);
	if (n == 0)
		text_add(&t, "(no players yet)\n");
	*out = t.s ? t.s : strdup("");
	t.s = NULL;
	rc = *out ? 0 : err_set(e, ERR_INTERNAL, "out of memory");
out:
	text_free(&t);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

int
referee_start(struct referee *r, const char *game, struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	int n, i, s, rc = -1;

	memset(&g, 0, sizeof(g));
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto fail;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has already started", game);
		goto fail;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto fail;
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto fail;
	for (s = 0; s < b->nsides; s++) {
		int have = 0;

		for (i = 0; i < n; i++)
			if (pl[i].side == s)
				have = 1;
		if (!have) {
			err_set(e, ERR_USER, "side \"%s\" has no player yet: add one "
			    "with 'despatch player add %s %s EMAIL'", b->sides[s].id,
			    game, b->sides[s].id);
			goto fail;
		}
	}
	for (i = 0; i < n; i++) {
		struct text t;
		char subject[256], clock[16], wbuf[24], dbuf[24];
		char secret[REFEREE_SECRET_MAX];
		int first = battle_step_side(b, 1);

		text_init(&t, 256 * 1024);
		report_clock(b, 1, clock, sizeof(clock));
		text_add(&t, "Welcome to %s.\n\n", b->title);
		text_add(&t, "Game:      %s\nRuleset:   %s\nYour side: %s (%s)\n",
		    g.name, b->ruleset, b->sides[pl[i].side].name,
		    b->sides[pl[i].side].id);
		text_add(&t, "Turns:     %d of %d minutes, the first at %s\n",
		    b->turns, b->minutes, clock);
		text_add(&t, "Phases:    each turn, first");
		for (s = 0; s < b->nsides; s++)
			text_add(&t, "%s %s", s == 0 ? "" : s + 1 == b->nsides ?
			    " and then" : ",", b->sides[b->side_order[s]].id);
		text_add(&t, " moves and fights.\n%s", g.sandbox ? "This is a "
		    "sandbox game: the operator may script its dice.\n" : "");
		if (store_player_secret_take(r->st, pl[i].id, secret,
		    sizeof(secret), e) != 0) {
			text_free(&t);
			goto fail;
		}
		if (secret[0] != '\0')
			text_add(&t, "\nYour secret: %s\n\nKeep it: this mail is "
			    "the only time despatch tells it (the server keeps\nonly "
			    "a hash of it). Send it with every order mail, in the first "
			    "line:\n\n  GAME %s SIDE %s TURN 1 PASSWORD %s\n\n", secret,
			    g.name, b->sides[pl[i].side].id, secret);
		else
			text_add(&t, "\nSend the secret the operator gave you with "
			    "every order mail, in the\nfirst line:\n\n  GAME %s SIDE "
			    "%s TURN 1 PASSWORD <your secret>\n\n", g.name,
			    b->sides[pl[i].side].id);
		sodium_memzero(secret, sizeof(secret));
		text_add(&t, "Then one line a unit: the unit's name (any part of it "
		    "that is enough),\na colon, and its orders, for example\n"
		    "  <unit name>: ADVANCE 6\n  <unit name>: WHEEL LEFT 45 THEN "
		    "FIRE AT <enemy unit>\n\nOrders: ADVANCE N, MOVE TO X,Y, WHEEL "
		    "LEFT|RIGHT N, FACE N,\nFORM LINE|MOUNTED|SKIRMISH|ROAD, FIRE AT "
		    "UNIT, CHARGE UNIT, HOLD, REFORM,\nand for commanders MOVE TO X,Y "
		    "and JOIN UNIT. Join several with THEN.\n\n"
		    "The table is %s\" wide (x, west to east) and %s\" deep (y, "
		    "south to north);\n0,0 is the south-west corner. Distances are "
		    "inches; facings are degrees\nclockwise from north (0 north, 90 "
		    "east, 180 south, 270 west). SP are strength\npoints (50 men or "
		    "one gun each).\n", geom_fmt_fx(b->width, wbuf, sizeof(wbuf)),
		    geom_fmt_fx(b->depth, dbuf, sizeof(dbuf)));
		report_terrain(&t, b);
		text_add(&t, "\nYour forces\n-----------\n");
		report_forces(&t, b, pl[i].side);
		text_add(&t, "\nThe enemy\n---------\n");
		for (s = 0; s < b->nsides; s++)
			if (s != pl[i].side)
				report_forces(&t, b, s);
		text_add(&t, "\nThe first phase is turn 1 (%s), the %s phase.\n",
		    clock, b->sides[first].id);
		snprintf(subject, sizeof(subject), "[%s] Welcome: you command %s",
		    g.name, b->sides[pl[i].side].name);
		if (t.over) {
			text_free(&t);
			err_set(e, ERR_INTERNAL, "the welcome mail is too large");
			goto fail;
		}
		if (queue_mail_s(r, g.id, g.name, pl[i].email, subject, "welcome",
		    NULL, t.s, 1, e) != 0) {
			sodium_memzero(t.s, t.len);
			text_free(&t);
			goto fail;
		}
		sodium_memzero(t.s, t.len);
		text_free(&t);
	}
	if (store_game_set_status(r->st, g.id, GAME_RUNNING, 1, referee_now(r),
	    e) != 0 || store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

/* --- submit ---------------------------------------------------------- */

struct intake {
	struct referee *r;
	const char *raw;
	size_t len;
	unsigned char sha[32];
	struct mail_msg *m;
	const char *reply_to;
	struct submit_result *res;
	struct err *e;
	char *stored;           /* raw with the secret blanked */
	size_t stored_len;
	int64_t game_id;
	int64_t player_id;
	int64_t msg_row;        /* the stored message's row */
	int step;
	char game[64];
	char subject_re[300];
	char secret[128];       /* the secret as typed, "" if none */
	const char *sender;     /* From (or the envelope sender): who wrote */
};

static void
set_status(struct intake *in, const char *status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
set_status(struct intake *in, const char *status, const char *fmt, ...)
{
	va_list ap;

	snprintf(in->res->status, sizeof(in->res->status), "%s", status);
	va_start(ap, fmt);
	vsnprintf(in->res->note, sizeof(in->res->note), fmt, ap);
	va_end(ap);
}

/* Stores the message row with the current status. */
static int
store_msg(struct intake *in, int64_t *id)
{
	int rc = store_message_insert(in->r->st, in->m ? in->m->message_id : NULL,
	    in->sha, in->sender, in->m ? in->m->subject : NULL, in->game_id,
	    in->player_id, in->step, in->res->status, in->res->note,
	    in->stored, in->stored_len, referee_now(in->r), &in->msg_row, in->e);

	if (id != NULL)
		*id = in->msg_row;
	return rc;
}

/* Queues our answer.  An answer that cannot be written (an address or a
 * Message-ID our composer refuses) must not cost the player the mail we
 * stored: only a passing failure undoes the intake; any other is noted
 * on the stored message and the mail stays stored, unanswered. */
static int
reply(struct intake *in, const char *body)
{
	if (in->reply_to == NULL || in->m == NULL || in->m->auto_submitted)
		return 0;
	if (queue_mail(in->r, in->game_id, in->game[0] ? in->game : NULL,
	    in->reply_to, in->subject_re, "reply", in->m->message_id, body,
	    in->e) == 0)
		return 0;
	if (in->e->kind == ERR_TEMP)
		return -1;
	{
		char why[200];
		size_t n = strlen(in->e->msg);

		if (n >= sizeof(why)) {
			n = sizeof(why) - 1;
			while (n > 0 && ((unsigned char)in->e->msg[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(why, in->e->msg, n);
		why[n] = '\0';
		snprintf(in->res->note, sizeof(in->res->note),
		    "stored, not answered: %s", why);
	}
	err_clear(in->e);
	if (in->msg_row != 0)
		return store_exec(in->r->st, in->e, "UPDATE messages SET note = ? "
		    "WHERE id = ?", "ti", in->res->note, in->msg_row);
	return 0;
}

/* Blanks, in buf, the typed secret and every word that follows PASSWORD,
 * SECRET or "secret:" (so a wrong secret, a quoted welcome or a guess is
 * not kept either). */
static void
redact(char *buf, size_t len, const char *secret)
{
	static const char *const kw[] = { "password", "secret" };
	size_t i, k;

	if (secret != NULL && secret[0] != '\0')
		orders_blank_secret(buf, len, secret);
	for (i = 0; i < len; i++) {
		if (i > 0 && isalnum((unsigned char)buf[i - 1]))
			continue;
		for (k = 0; k < 2; k++) {
			size_t n = strlen(kw[k]), j;

			if (len - i < n || strncasecmp(buf + i, kw[k], n) != 0)
				continue;
			j = i + n;
			if (j < len && isalnum((unsigned char)buf[j]))
				continue;
			while (j < len && (buf[j] == ' ' || buf[j] == '\t' ||
			    buf[j] == ':' || buf[j] == '='))
				j++;
			while (j < len && !isspace((unsigned char)buf[j]) &&
			    buf[j] != '<' && buf[j] != '>')
				buf[j++] = '*';
		}
	}
}

/* Blanks every word of buf that is some player's secret (by its keyed
 * hash), so a real secret quoted anywhere is not kept even when the mail
 * names no game or gives a wrong one.  Words are runs of non-space; a
 * trailing comma, full stop or the like is tried off too. */
/* Blanks buf[a..z) (or it less trailing punctuation) if it is a secret. */
static void
hash_blank(char *buf, size_t a, size_t z, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	int cut;

	for (cut = 0; cut < 2; cut++) {
		unsigned char h[32];
		size_t w = z - a;
		int k;

		if (cut == 1) {
			while (w > 0 && ispunct((unsigned char)buf[a + w - 1]))
				w--;
			if (w == z - a)
				return;
		}
		if (w < 8 || w >= REFEREE_SECRET_MAX)
			continue;
		crypto_generichash(h, 32, (const unsigned char *)buf + a, w, key, 32);
		for (k = 0; k < n; k++)
			if (sodium_memcmp(h, hashes + (size_t)k * 32, 32) == 0) {
				memset(buf + a, '*', w);
				return;
			}
	}
}

static void
redact_known(char *buf, size_t len, const unsigned char *hashes, int n,
    const unsigned char key[32])
{
	size_t i = 0;

	if (n == 0)
		return;
	while (i < len) {
		size_t j;

		while (i < len && isspace((unsigned char)buf[i]))
			i++;
		j = i;
		while (j < len && !isspace((unsigned char)buf[j]))
			j++;
		/* The whole run, then each part of it between quotes,
		 * brackets, '=', ':' or ',' (as in pw=secret or "secret."),
		 * with trailing punctuation tried off. */
		{
			size_t a = i;

			hash_blank(buf, i, j, hashes, n, key);
			while (a < j) {
				size_t z = a;

				while (z < j && !strchr("\"'()<>[]=:,;", buf[z]))
					z++;
				if (a != i || z != j)
					hash_blank(buf, a, z, hashes, n, key);
				a = z + 1;
			}
		}
		i = j;
	}
}

static int
has_ci(const char *buf, size_t len, const char *what)
{
	size_t n = strlen(what), i;

	for (i = 0; i + n <= len; i++)
		if (strncasecmp(buf + i, what, n) == 0)
			return 1;
	return 0;
}

/* Makes the copy of the mail we keep (in->stored): the raw bytes with
 * secrets blanked.  Where a transfer encoding or an encoded-word could
 * hide a secret from a search of the raw bytes, the copy is instead the
 * header block (less its Subject) with the decoded subject and body, all
 * redacted, and a note saying so. */
static int
make_stored_copy(struct intake *in)
{
	const char *sep;
	size_t hdr;
	int encoded;

	free(in->stored);
	in->stored = malloc(in->len + 1);
	if (in->stored == NULL)
		return err_set(in->e, ERR_INTERNAL, "out of memory");
	memcpy(in->stored, in->raw, in->len);
	in->stored[in->len] = '\0';
	in->stored_len = in->len;
	{
		unsigned char *hashes = NULL, key[32];
		int n = 0;

		if (store_secret_hashes(in->r->st, &hashes, &n, in->e) != 0)
			return -1;
		if (n > 0 && store_server_key(in->r->st, "secret-hash", key,
		    in->e) != 0) {
			free(hashes);
			return -1;
		}
		redact_known(in->stored, in->stored_len, hashes, n, key);
		if (in->m != NULL) {
			if (in->m->subject != NULL)
				redact_known(in->m->subject, strlen(in->m->subject),
				    hashes, n, key);
			redact_known(in->m->body, in->m->body_len, hashes, n, key);
		}
		sodium_memzero(key, sizeof(key));
		free(hashes);
	}
	redact(in->stored, in->stored_len, in->secret);
	if (in->m == NULL)
		return 0;
	if (in->m->subject != NULL)
		redact(in->m->subject, strlen(in->m->subject), in->secret);
	redact(in->m->body, in->m->body_len, in->secret);
	encoded = has_ci(in->raw, in->len, "base64") ||
	    has_ci(in->raw, in->len, "quoted-printable") ||
	    has_ci(in->raw, in->len, "=?");
	if (!encoded)
		return 0;
	sep = strstr(in->stored, "\r\n\r\n");
	hdr = sep ? (size_t)(sep - in->stored) + 2 : 0;
	if (sep == NULL) {
		sep = strstr(in->stored, "\n\n");
		hdr = sep ? (size_t)(sep - in->stored) + 1 : in->stored_len;
	}
	{
		static const char note[] = "MIME-Version: 1.0\r\n"
		    "Content-Type: text/plain; charset=utf-8\r\n"
		    "Content-Transfer-Encoding: 8bit\r\n"
		    "X-Despatch-Stored: decoded and redacted (the mail was "
		    "encoded)\r\n\r\n";
		const char *subj = in->m->subject ? in->m->subject : "";
		size_t cap = hdr + strlen(subj) + sizeof(note) + in->m->body_len + 32;
		char *nb = malloc(cap), *o;
		size_t i = 0;
		int skipping = 0;

		if (nb == NULL)
			return err_set(in->e, ERR_INTERNAL, "out of memory");
		o = nb;
		/* The header block without its Subject (and folded lines). */
		while (i < hdr) {
			const char *nl = memchr(in->stored + i, '\n', hdr - i);
			size_t l = nl ? (size_t)(nl - (in->stored + i)) + 1 : hdr - i;

			if (in->stored[i] != ' ' && in->stored[i] != '\t')
				skipping = (l >= 8 &&
				    strncasecmp(in->stored + i, "subject:", 8) == 0) ||
				    (l >= 8 && strncasecmp(in->stored + i, "content-",
				    8) == 0) || (l >= 13 && strncasecmp(in->stored + i,
				    "mime-version:", 13) == 0);
			if (!skipping) {
				memcpy(o, in->stored + i, l);
				o += l;
			}
			i += l;
		}
		o += sprintf(o, "Subject: %s\r\n%s", subj, note);
		memcpy(o, in->m->body, in->m->body_len);
		o += in->m->body_len;
		*o = '\0';
		free(in->stored);
		in->stored = nb;
		in->stored_len = (size_t)(o - nb);
	}
	return 0;
}

static int
step_for(const struct battle *b, int turn, int side)
{
	int i;

	if (b->sequence != SEQ_ALTERNATE)
		return turn;
	for (i = 0; i < b->nsides; i++)
		if (b->side_order[i] == side)
			return (turn - 1) * b->nsides + i + 1;
	return -1;
}

static const char help_tail[] =
	"\nAn order mail starts with the line\n"
	"  GAME <game> SIDE <side> TURN <turn> PASSWORD <your secret>\n"
	"and then has one line a unit, for example\n"
	"  7th Foot: ADVANCE 8\n";

static int
handle_orders(struct intake *in, struct orders_header *h,
    struct orders_result *res)
{
	struct referee *r = in->r;
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	struct text t;
	unsigned char hash[32];
	int side, n, i, step, had = 0, rc = -1, turn;
	int64_t msg_id;
	char clock[16], earlier[256];

	memset(&g, 0, sizeof(g));
	text_init(&t, 256 * 1024);
	snprintf(in->game, sizeof(in->game), "%s", h->game);
	if (store_game_get(r->st, h->game, &g, in->e) != 0) {
		if (in->e->kind != ERR_USER)
			goto out;
		err_clear(in->e);
		in->game[0] = '\0';
		set_status(in, "unknown-game", "no game \"%s\"", h->game);
		text_add(&t, "There is no game called \"%s\" on this server, so "
		    "no orders were taken from your mail.\nCheck the GAME word in "
		    "the first line of your orders.\n%s", h->game, help_tail);
		if (store_msg(in, NULL) || reply(in, t.s))
			goto out;
		rc = 0;
		goto out;
	}
	in->game_id = g.id;
	if (store_battle_load(r->st, &g, &b, in->e) != 0)
		goto out;
	side = battle_side(b, h->side);
	if (side < 0) {
		set_status(in, "rejected", "unknown side \"%s\"", h->side);
		if (h->side[0])
			text_add(&t, "Game %s has no side called \"%s\"; its sides are",
			    g.name, h->side);
		else
			text_add(&t, "Your first line names no SIDE; the sides of game "
			    "%s are", g.name);
		for (i = 0; i < b->nsides; i++)
			text_add(&t, "%s %s", i ? "," : "", b->sides[i].id);
		text_add(&t, ".\nNo orders were taken from your mail.\n%s", help_tail);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	n = store_players(r->st, g.id, side, pl, MAX_PLAYERS, in->e);
	if (n < 0)
		goto out;
	if (h->secret[0] != '\0' && referee_secret_hash(r, h->secret, hash,
	    in->e) != 0)
		goto out;
	for (i = 0; i < n && h->secret[0]; i++)
		if (sodium_memcmp(hash, pl[i].secret_hash, 32) == 0) {
			in->player_id = pl[i].id;
			break;
		}
	if (in->player_id == 0 && h->secret[0]) {
		/* "secret", secret. or <secret>: try it without the wrapping. */
		char bare[sizeof(h->secret)];
		size_t a = 0, z = strlen(h->secret);

		while (a < z && strchr("\"'<([", h->secret[a]))
			a++;
		while (z > a && strchr("\"'>)].,;:!", h->secret[z - 1]))
			z--;
		if (z > a && z - a < strlen(h->secret)) {
			memcpy(bare, h->secret + a, z - a);
			bare[z - a] = '\0';
			if (referee_secret_hash(r, bare, hash, in->e) != 0)
				goto out;
			for (i = 0; i < n; i++)
				if (sodium_memcmp(hash, pl[i].secret_hash, 32) == 0) {
					in->player_id = pl[i].id;
					break;
				}
			sodium_memzero(bare, sizeof(bare));
		}
	}
	if (in->player_id == 0) {
		set_status(in, "rejected", "%s secret for side %s", h->secret[0] ?
		    "wrong" : "no", b->sides[side].id);
		if (h->secret[0])
			text_add(&t, "The secret after PASSWORD does not match any "
			    "player of side %s in game %s,\nso no orders were taken "
			    "from your mail. Check it against the secret in your\n"
			    "welcome mail (letters, digits and dashes exactly as "
			    "given).\n", b->sides[side].id, g.name);
		else
			text_add(&t, "Your first line has no PASSWORD, so nothing was "
			    "stored from your mail.\nAdd the secret from your welcome "
			    "mail:\n  GAME %s SIDE %s TURN <turn> "
			    "PASSWORD <your secret>\n", g.name, b->sides[side].id);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (g.status == GAME_SETUP) {
		set_status(in, "rejected", "game not started");
		text_add(&t, "Game %s has not started yet, so there is no turn to "
		    "give orders for. No orders were taken;\nyou will get a welcome "
		    "mail when the game starts.\n", g.name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (g.status == GAME_FINISHED) {
		set_status(in, "rejected", "game finished");
		text_add(&t, "The battle of game %s is over; no more orders are "
		    "taken.\n", g.name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	turn = h->turn;
	if (turn == 0) {
		/* No TURN: the side's next phase that is still open. */
		for (turn = battle_step_turn(b, g.step); turn <= b->turns; turn++)
			if (step_for(b, turn, side) >= g.step)
				break;
	}
	step = turn > 0 && turn <= b->turns ? step_for(b, turn, side) : -1;
	if (step < 0) {
		set_status(in, "rejected", "bad turn %d", h->turn);
		text_add(&t, "Turn %d is not a turn of game %s, which has turns 1 "
		    "to %d. No orders were taken.\n", h->turn, g.name, b->turns);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	if (step < g.step) {
		set_status(in, "rejected", "too late for turn %d", turn);
		text_add(&t, "Your phase of turn %d has already been played, so "
		    "these orders came too late and\nno orders were taken. The open "
		    "phase is turn %d, %s.\n", turn, battle_step_turn(b, g.step),
		    b->sides[battle_step_side(b, g.step)].name);
		rc = store_msg(in, NULL) || reply(in, t.s) ? -1 : 0;
		goto out;
	}
	in->step = step;
	{
		const struct ruleset *rs = ruleset_find(g.ruleset);
		struct orders_parser *gop = rs ? orders_parser_new(rs, in->e) : NULL;

		if (gop == NULL) {
			if (rs == NULL)
				err_set(in->e, ERR_DATA, "game %s uses ruleset %s, "
				    "which this build does not have", g.name, g.ruleset);
			goto out;
		}
		orders_parse(gop, b, side, in->m->body, h->line, res);
		orders_parser_free(gop);
	}
	set_status(in, "orders", "%d order%s, %d line%s not understood",
	    res->set.n, res->set.n == 1 ? "" : "s", res->nerrors,
	    res->nerrors == 1 ? "" : "s");
	if (store_msg(in, &msg_id) != 0)
		goto out;
	if (store_orders_sender(r->st, g.id, step, side, earlier, sizeof(earlier),
	    in->e) != 0 ||
	    store_orders_supersede(r->st, g.id, step, side, &had, in->e) != 0)
		goto out;
	/* Orders replaced from another address: the side's secret is known
	 * to more than one mailbox, and the first sender should hear of it. */
	if (had > 0 && earlier[0] != '\0' && (in->sender == NULL ||
	    strcasecmp(earlier, in->sender) != 0)) {
		char note[1024], subj[256];

		snprintf(note, sizeof(note), "The orders you sent for game %s, side "
		    "%s, turn %d were replaced by a mail\nfrom %s, which gave "
		    "your side's secret. If that was not you or a fellow\nplayer "
		    "of your side, tell the operator: someone else knows the "
		    "secret.\nSend your orders again to replace theirs.\n", g.name,
		    b->sides[side].id, turn, in->sender ? in->sender :
		    "an unknown sender");
		snprintf(subj, sizeof(subj), "[%s] Your turn %d orders were replaced",
		    g.name, turn);
		if (queue_mail(r, g.id, g.name, earlier, subj, "notice", NULL, note,
		    in->e) != 0)
			goto out;
	}
	{
		int seq = 0;

		for (i = 0; i < res->nlines; i++)
			if (res->lines[i].status == ORDERS_OK &&
			    store_order_insert(r->st, g.id, step, side,
			    in->player_id, msg_id, ++seq, res->lines[i].line,
			    res->lines[i].raw, res->lines[i].text, in->e) != 0)
				goto out;
	}
	report_clock(b, turn, clock, sizeof(clock));
	text_add(&t, "Your orders for %s (game %s), %s, turn %d (%s) are "
	    "stored.\n", b->title, g.name, b->sides[side].name, turn, clock);
	if (had > 0)
		text_add(&t, "They replace the orders you sent before for this "
		    "phase.\n");
	if (h->turn == 0)
		text_add(&t, "Your first line gave no TURN, so they were taken as "
		    "your next phase, turn %d.\n", turn);
	if (step > g.step)
		text_add(&t, "They are for a later phase than the one now open "
		    "(turn %d, %s) and will be played then.\n",
		    battle_step_turn(b, g.step),
		    b->sides[battle_step_side(b, g.step)].name);
	text_add(&t, "\nUnderstood (%d):\n", res->set.n);
	if (res->set.n == 0)
		text_add(&t, "  (no orders: your units will hold)\n");
	{
		int k = 0;

		for (i = 0; i < res->nlines; i++) {
			const struct order *o;
			int st;

			if (res->lines[i].status != ORDERS_OK)
				continue;
			text_add(&t, "  line %-3d %s\n", res->lines[i].line,
			    res->lines[i].text);
			/* Orders that will come to nothing: say so now. */
			o = &res->set.orders[k++];
			if (!o->is_commander && battle_unit_alive(b, o->who) == 0)
				text_add(&t, "           (%s has no stands left on the "
				    "table: this order will do nothing)\n",
				    b->units[o->who].name);
			for (st = 0; st < o->nsteps; st++)
				if (o->steps[st].target >= 0 &&
				    battle_unit_alive(b, o->steps[st].target) == 0)
					text_add(&t, "           (%s is no longer on the "
					    "table)\n", b->units[o->steps[st].target].name);
		}
	}
	if (res->nerrors > 0) {
		text_add(&t, "\nNot understood (%d); these lines were ignored. To "
		    "change them, send the whole\nset again: a new mail replaces "
		    "this one.\n", res->nerrors);
		for (i = 0; i < res->nlines; i++)
			if (res->lines[i].status == ORDERS_ERROR)
				text_add(&t, "  line %-3d %s\n           %s\n",
				    res->lines[i].line, res->lines[i].raw,
				    res->lines[i].text);
		if (res->too_many)
			text_add(&t, "  (more than %d order lines: the rest were "
			    "not read)\n", ORDERS_MAX_LINES);
	}
	text_add(&t, "\nUnits without orders hold. You will get the report "
	    "when the phase has been\nplayed; until then you may send a whole "
	    "new set, which replaces this one.\n");
	if (t.over) {
		err_set(in->e, ERR_INTERNAL, "the reply is too large");
		goto out;
	}
	if (reply(in, t.s) != 0)
		goto out;
	rc = 0;
out:
	text_free(&t);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

static int
is_our_address(const struct referee *r, const char *addr)
{
	const char *lt = strchr(r->from, '<');
	const char *a = lt ? lt + 1 : r->from;
	size_t n = strcspn(a, ">");

	return strlen(addr) == n && strncasecmp(a, addr, n) == 0;
}

int
referee_submit(struct referee *r, const char *raw, size_t len,
    const char *envelope_sender, struct submit_result *res, struct err *e)
{
	struct intake in;
	struct orders_header h;
	struct orders_parser *op = NULL;
	struct orders_result *ores = NULL;
	int seen, rc = -1;

	memset(&in, 0, sizeof(in));
	memset(res, 0, sizeof(*res));
	in.r = r;
	in.raw = raw;
	in.len = len;
	in.res = res;
	in.e = e;
	crypto_hash_sha256(in.sha, (const unsigned char *)raw, len);
	{
		struct err pe;

		err_clear(&pe);
		if (mail_parse(raw, len, &in.m, &pe) != 0) {
			in.m = NULL;
			set_status(&in, "unreadable", "%s", pe.msg);
		}
	}
	memset(&h, 0, sizeof(h));
	if (in.m != NULL) {
		op = orders_parser_new(ruleset_all()[0], e);
		if (op == NULL)
			goto out;
		orders_find_header(op, in.m->subject, in.m->body, &h);
		snprintf(in.secret, sizeof(in.secret), "%s", h.secret);
	}
	/* From here on nothing we keep or send holds a secret. */
	if (make_stored_copy(&in) != 0)
		goto out;
	if (in.m != NULL) {
		char subj[sizeof(in.subject_re) - 8];
		const char *ms = in.m->subject ? in.m->subject : "your orders";
		size_t n = strlen(ms);

		in.reply_to = in.m->reply_to ? in.m->reply_to : in.m->from_addr;
		/* A long subject is cut at a character boundary. */
		if (n >= sizeof(subj)) {
			n = sizeof(subj) - 1;
			while (n > 0 && ((unsigned char)ms[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(subj, ms, n);
		subj[n] = '\0';
		snprintf(in.subject_re, sizeof(in.subject_re), "%s%s",
		    strncasecmp(subj, "Re:", 3) == 0 ? "" : "Re: ", subj);
	}
	if (in.reply_to == NULL)
		in.reply_to = envelope_sender;
	in.sender = in.m != NULL && in.m->from_addr != NULL ? in.m->from_addr :
	    envelope_sender;
	if (store_begin(r->st, e) != 0)
		goto out;
	seen = store_message_seen(r->st, in.m ? in.m->message_id : NULL, in.sha, e);
	if (seen < 0)
		goto fail;
	if (seen) {
		res->outcome = SUBMIT_DUPLICATE;
		set_status(&in, "duplicate", "already stored (same Message-ID or "
		    "the same bytes); not stored or answered again");
		store_rollback(r->st);
		rc = 0;
		goto out;
	}
	if (in.m == NULL) {
		/* Unreadable: keep the bytes, answer if we know whom. */
		if (store_msg(&in, NULL) != 0)
			goto fail;
		if (envelope_sender != NULL) {
			char body[1200];

			snprintf(body, sizeof(body), "Your mail could not be read as a "
			    "mail message (%s), so it was kept for\nthe operator but "
			    "no orders were taken from it.\n%s", res->note, help_tail);
			snprintf(in.subject_re, sizeof(in.subject_re),
			    "Your mail could not be read");
			if (queue_mail(r, 0, NULL, envelope_sender, in.subject_re,
			    "reply", NULL, body, e) != 0) {
				if (e->kind == ERR_TEMP)
					goto fail;
				err_clear(e);
			}
		}
	} else if (in.m->auto_submitted) {
		set_status(&in, "ignored", "automatic mail (auto-reply, bounce or "
		    "list): stored, not answered");
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else if (in.reply_to != NULL && is_our_address(r, in.reply_to)) {
		set_status(&in, "ignored", "mail from our own address: stored, not "
		    "answered");
		if (store_msg(&in, NULL) != 0)
			goto fail;
	} else {
		if (!h.found) {
			char body[1200];

			set_status(&in, "no-header", "no GAME line");
			snprintf(body, sizeof(body), "I could not find the line that "
			    "names your game, so no orders were taken from\nyour mail. "
			    "This address reads only order mails; questions for the "
			    "person\nrunning the game should go to them directly.\n%s",
			    help_tail);
			if (store_msg(&in, NULL) != 0 || reply(&in, body) != 0)
				goto fail;
		} else {
			ores = malloc(sizeof(*ores));
			if (ores == NULL) {
				err_set(e, ERR_INTERNAL, "out of memory");
				goto fail;
			}
			if (handle_orders(&in, &h, ores) != 0)
				goto fail;
		}
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	free(ores);
	orders_parser_free(op);
	free(in.stored);
	mail_msg_free(in.m);
	return rc;
}

/* --- turn ------------------------------------------------------------ */

/* Typed orders of every side for step, from the stored canonical text. */
static int
load_orders(struct referee *r, const struct store_game *g,
    const struct ruleset *rs, const struct battle *b, int step,
    struct order_set *sets, int *nsets, struct err *e)
{
	struct orders_parser *op = orders_parser_new(rs, e);
	struct orders_result *res = NULL;
	int s, rc = -1;

	*nsets = 0;
	if (op == NULL)
		return -1;
	res = malloc(sizeof(*res));
	if (res == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (s = 0; s < b->nsides; s++) {
		char *text = NULL;
		int count = 0;

		if (store_orders_text(r->st, g->id, step, s, &text, &count, e) != 0)
			goto out;
		if (count > 0) {
			orders_parse(op, b, s, text, 0, res);
			/* What was acknowledged must be what is played: a stored
			 * order that no longer reads is damage, not a hold. */
			if (res->nerrors > 0 || res->set.n != count) {
				err_set(e, ERR_DATA, "game %s: a stored order for side %s "
				    "no longer reads (%s); the turn was not played",
				    g->name, b->sides[s].id, res->nerrors > 0 ?
				    res->lines[0].text : "a line is missing");
				free(text);
				goto out;
			}
			sets[*nsets] = res->set;
			(*nsets)++;
		}
		free(text);
	}
	rc = 0;
out:
	free(res);
	orders_parser_free(op);
	return rc;
}

int
referee_turn(struct referee *r, const char *game, const int *dice, int ndice,
    struct turn_result *tr, struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	struct order_set *sets = NULL;
	struct events ev;
	struct dice d;
	struct dice_script script;
	struct ledger_dice ld;
	unsigned char seed[32];
	const struct ruleset *rs;
	int nsets = 0, step, np, i, rc = -1;

	memset(&g, 0, sizeof(g));
	memset(tr, 0, sizeof(*tr));
	events_init(&ev);
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto fail;
	if (g.status == GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has not started: add players and "
		    "run 'despatch start %s'", game, game);
		goto fail;
	}
	if (g.status == GAME_FINISHED) {
		err_set(e, ERR_USER, "game \"%s\" is over: its last turn has been "
		    "played", game);
		goto fail;
	}
	if (dice != NULL && !g.sandbox) {
		err_set(e, ERR_USER, "game \"%s\" is not a sandbox game, so its dice "
		    "cannot be scripted (only games made with 'despatch new "
		    "--sandbox' take --dice)", game);
		goto fail;
	}
	rs = ruleset_find(g.ruleset);
	if (rs == NULL) {
		err_set(e, ERR_DATA, "game %s uses ruleset %s, which this build "
		    "does not have", g.name, g.ruleset);
		goto fail;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto fail;
	step = g.step;
	sets = calloc((size_t)b->nsides, sizeof(*sets));
	if (sets == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto fail;
	}
	if (load_orders(r, &g, rs, b, step, sets, &nsets, e) != 0)
		goto fail;
	if (dice != NULL) {
		script.v = dice;
		script.n = ndice;
		script.pos = 0;
		dice_init(&d, dice_script_next, &script, &ev);
	} else {
		ledger_step_seed(g.seed_secret, g.name, step, seed);
		ledger_dice_init(&ld, seed);
		dice_init(&d, ledger_dice_next, &ld, &ev);
	}
	if (rs->adjudicate(b, step, sets, nsets, &d, &ev, e) != 0)
		goto fail;
	if (dice != NULL && dice_script_done(&script, e) != 0)
		goto fail;
	tr->step = step;
	tr->turn = battle_step_turn(b, step);
	tr->side = battle_step_side(b, step);
	tr->events = ev.n;
	tr->rolls = (int)d.rolls;
	tr->finished = step + 1 > battle_steps(b);
	if (store_battle_save(r->st, g.id, b, e) != 0 ||
	    store_events_insert(r->st, g.id, step, &ev, e) != 0 ||
	    store_turn_insert(r->st, g.id, step, tr->turn, tr->side,
	    dice ? NULL : seed, dice != NULL, d.rolls, referee_now(r), e) != 0 ||
	    store_game_set_status(r->st, g.id, tr->finished ? GAME_FINISHED :
	    GAME_RUNNING, tr->finished ? step : step + 1, referee_now(r), e) != 0)
		goto fail;
	np = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (np < 0)
		goto fail;
	for (i = 0; i < np; i++) {
		char subject[256], clock[16];
		char *body = report_step(b, g.name, step, pl[i].side, &ev, step + 1,
		    strcmp(g.visibility, "fog") != 0);

		if (body == NULL) {
			err_set(e, ERR_INTERNAL, "the report is too large");
			goto fail;
		}
		report_clock(b, tr->turn, clock, sizeof(clock));
		snprintf(subject, sizeof(subject), "[%s] Turn %d, %s phase (%s)%s",
		    g.name, tr->turn, tr->side >= 0 ? b->sides[tr->side].id : "all",
		    clock, tr->finished ? ": the battle is over" : "");
		if (queue_mail(r, g.id, g.name, pl[i].email, subject, "report",
		    NULL, body, e) != 0) {
			free(body);
			goto fail;
		}
		free(body);
	}
	if (store_commit(r->st, e) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	sodium_memzero(seed, sizeof(seed));
	events_free(&ev);
	free(sets);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}
