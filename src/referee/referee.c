/*
 * referee.c - the game lifecycle: new, the roster, start, and the mail
 * queue every part of the referee shares.
 *
 * Workload: one call per CLI command; each opens one transaction, reads
 * the game, and writes what changed plus the mail it owes.  The intake of
 * mail is intake.c, adjudication turn.c, secret blanking redact.c.
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

#include "core/deploy.h"
#include "core/dice.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "map/map.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/narrative.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "referee/chain.h"
#include "referee/internal.h"
#include "report/json.h"

static int check_password(const char *password, struct err *e);
static int queue_welcome(struct referee *r, const struct store_game *g, int later,
    const struct battle *b, const struct store_player *p, const char *secret,
    struct err *e);

void
referee_domain_of(const char *from, char *out, size_t size)
{
	const char *at = strrchr(from, '@');

	if (at != NULL) {
		size_t n = strcspn(at + 1, ">");

		if (n >= size)
			n = size - 1;
		memcpy(out, at + 1, n);
		out[n] = '\0';
	} else {
		snprintf(out, size, "localhost");
	}
}

void
referee_init(struct referee *r, struct store *st)
{
	referee_init_with(r, st, NULL);
}

void
referee_init_with(struct referee *r, struct store *st,
    const struct referee_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	if (o != NULL && o->templates != NULL)
		snprintf(r->templates_dir, sizeof(r->templates_dir), "%s",
		    o->templates);
	if (o != NULL && o->key_path != NULL)
		snprintf(r->key_path, sizeof(r->key_path), "%s", o->key_path);
	snprintf(r->from, sizeof(r->from), "%s", o != NULL && o->from != NULL &&
	    *o->from ? o->from : "despatch <despatch@localhost>");
	if (o != NULL && o->domain != NULL && *o->domain)
		snprintf(r->domain, sizeof(r->domain), "%s", o->domain);
	else
		referee_domain_of(r->from, r->domain, sizeof(r->domain));
	if (o != NULL) {
		r->fixed_now = o->fixed_now;
		r->key_demo = o->key_demo;
	}
}

void
referee_fini(struct referee *r)
{
	int i;

	for (i = 0; i < REFEREE_PARSERS; i++) {
		orders_parser_free(r->parser[i]);
		r->parser[i] = NULL;
		r->parser_rs[i] = NULL;
		narrative_free(r->narr[i]);
		r->narr[i] = NULL;
		r->narr_rs[i] = NULL;
	}
	referee_previews_drop(r, 0);
	r->bc.on = 0;
	referee_battles_drop(r);
	sodium_memzero(r->skeys, sizeof(r->skeys));
	r->skeys_loaded = 0;
	free(r->unmarked);
	r->unmarked = NULL;
	r->nunmarked = 0;
	if (r->key != NULL)
		sodium_free(r->key);   /* wipes it */
	r->key = NULL;
}

const struct narrative *
referee_narrative(struct referee *r, const struct ruleset *rs, struct err *e)
{
	int i;

	for (i = 0; i < REFEREE_PARSERS; i++)
		if (r->narr_rs[i] == rs)
			return r->narr[i];
	for (i = 0; i < REFEREE_PARSERS; i++)
		if (r->narr_rs[i] == NULL)
			break;
	if (i == REFEREE_PARSERS) {
		err_set(e, ERR_INTERNAL, "more rulesets in use than the referee "
		    "keeps templates for");
		return NULL;
	}
	if ((r->narr[i] = narrative_load_ruleset(rs, r->templates_dir, e)) ==
	    NULL)
		return NULL;
	r->narr_rs[i] = rs;
	return r->narr[i];
}

int
referee_templates_check(struct referee *r, struct err *e)
{
	const struct ruleset *const *all = ruleset_all();
	int i;

	for (i = 0; all[i] != NULL; i++)
		if (referee_narrative(r, all[i], e) == NULL)
			return -1;
	return 0;
}

struct orders_parser *
referee_parser(struct referee *r, const struct ruleset *rs, struct err *e)
{
	int i;

	for (i = 0; i < REFEREE_PARSERS; i++)
		if (r->parser[i] != NULL && r->parser_rs[i] == rs) {
			orders_parser_limit(r->parser[i], 0, 0);
			return r->parser[i];
		}
	for (i = 0; i < REFEREE_PARSERS; i++)
		if (r->parser[i] == NULL) {
			r->parser[i] = orders_parser_new(rs, e);
			r->parser_rs[i] = r->parser[i] ? rs : NULL;
			return r->parser[i];
		}
	/* More rulesets than slots: a parser for this call alone would
	 * leak, so reuse the last slot. */
	orders_parser_free(r->parser[REFEREE_PARSERS - 1]);
	r->parser[REFEREE_PARSERS - 1] = orders_parser_new(rs, e);
	r->parser_rs[REFEREE_PARSERS - 1] = r->parser[REFEREE_PARSERS - 1] ?
	    rs : NULL;
	return r->parser[REFEREE_PARSERS - 1];
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

/* Contract (internal.h). */
int
referee_game_begin(struct referee *r, const char *game, struct store_game *g,
    struct err *e)
{
	memset(g, 0, sizeof(*g));
	if (store_begin(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, g, e) != 0 ||
	    store_game_lock(r->st, g->id, e) != 0)
		return referee_game_end(r, g, -1, e);
	return 0;
}

/* Contract (internal.h). */
int
referee_game_end(struct referee *r, struct store_game *g, int rc,
    struct err *e)
{
	if (rc == 0 && store_commit(r->st, e) != 0)
		rc = -1;
	if (rc != 0)
		store_rollback(r->st);
	store_game_clear(g);
	return rc;
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
int
referee_queue_mail_s(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, int sensitive, struct err *e)
{
	return referee_queue_mail_x(r, game_id, game, to, subject, kind,
	    in_reply_to,
	    body, NULL, sensitive, e);
}

int
referee_queue_mail_x(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, const struct mail_extra *x,
    int sensitive, struct err *e)
{
	struct mail_out m;
	char msgid[256], date[64], *game_from = NULL;
	char *raw;
	size_t len;
	int64_t now = referee_now(r);
	int rc;

	/* A game's mail goes out from the address stored with it. */
	if (game_id > 0 && store_game_from(r->st, game_id, &game_from, e) < 0)
		return -1;
	if (game_from != NULL) {
		char saved[sizeof(r->domain)];

		memcpy(saved, r->domain, sizeof(saved));
		referee_domain_of(game_from, r->domain, sizeof(r->domain));
		make_msgid(r, game, kind, msgid, sizeof(msgid));
		memcpy(r->domain, saved, sizeof(saved));
	} else {
		make_msgid(r, game, kind, msgid, sizeof(msgid));
	}
	memset(&m, 0, sizeof(m));
	m.from = game_from != NULL ? game_from : r->from;
	m.to = to;
	m.subject = subject;
	m.message_id = msgid;
	/* An id the composer cannot write (too long, folded, with spaces
	 * or brackets) is left out of the answer; the answer still goes,
	 * and is still marked as one. */
	m.in_reply_to = mail_msgid_writable(in_reply_to) ? in_reply_to : NULL;
	m.date = mail_date((long long)now, date, sizeof(date));
	m.auto_reply = in_reply_to != NULL;
	m.body = body;
	if (x != NULL) {
		m.reply_to = x->reply_to;
		m.html = x->html;
		m.parts = x->parts;
		m.nparts = x->nparts;
	}
	raw = mail_compose(&m, &len, e);
	if (raw == NULL) {
		free(game_from);
		return -1;
	}
	/* A game's mail keeps its text once delivered (RESEND, the audit);
	 * the rest of its bytes go then. */
	rc = store_outbox_add(r->st, game_id, msgid, to, subject, kind, raw, len,
	    sensitive, game_id > 0 ? body : NULL, now, e);
	free(raw);
	/* m still points at game_from here. */
	if (rc == 0 && r->hold_set != NULL)
		rc = preview_note(r, &m, now, e);
	free(game_from);
	return rc;
}

int
referee_queue_mail(struct referee *r, int64_t game_id, const char *game,
    const char *to, const char *subject, const char *kind,
    const char *in_reply_to, const char *body, struct err *e)
{
	return referee_queue_mail_s(r, game_id, game, to, subject, kind,
	    in_reply_to,
	    body, 0, e);
}

int
referee_secret_hash(struct referee *r, const char *secret,
    unsigned char out[32], struct err *e)
{
	unsigned char key[32];

	if (referee_server_key(r, "secret-hash", key, e) != 0)
		return -1;
	crypto_generichash(out, 32, (const unsigned char *)secret, strlen(secret),
	    key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	return 0;
}

/* Contract (internal.h). */
void
referee_make_secret(char *out)
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

/* A player's secret into out: the password the operator chose, else a
 * new one; and its keyed hash, the only form the database keeps it in. */
static int
player_secret(struct referee *r, const char *password, char *out,
    unsigned char hash[32], struct err *e)
{
	if (password != NULL)
		snprintf(out, REFEREE_SECRET_MAX, "%s", password);
	else
		referee_make_secret(out);
	return referee_secret_hash(r, out, hash, e);
}

/* A new player of game g at email: refused (-1, e set) if the address
 * plays in it already, as addresses are one mailbox whatever their case;
 * else their secret and its hash, as player_secret. */
static int
new_player(struct referee *r, const struct store_game *g, const char *game,
    const char *email, const char *password, char *secret_out,
    unsigned char hash[32], struct err *e)
{
	int64_t dup = 0;

	if (store_players_with_email(r->st, g->id, email, &dup, e) != 0)
		return -1;
	if (dup > 0)
		return err_set(e, ERR_USER, "%s already plays in game \"%s\"",
		    email, game);
	return player_secret(r, password, secret_out, hash, e);
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
referee_new_game_text(struct referee *r, const char *name, const char *fname,
    const char *text, size_t len, int sandbox, const unsigned char *seed_secret,
    int64_t *idp, struct err *e)
{
	struct battle *b = NULL;
	unsigned char secret[32];
	int64_t id;
	int rc = -1, seen;
	struct store_game g;

	if (!valid_game_name(name))
		return err_set(e, ERR_USER, "\"%s\" is not a usable game name: use "
		    "1 to 40 letters, digits, '-' or '_', starting with a letter or "
		    "digit", name);
	if (scenario_parse(text, len, fname, 0, &b, e) != 0)
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
	if (store_game_insert(r->st, name, b, fname, text, len,
	    sandbox, secret, referee_now(r), &id, e) != 0 ||
	    store_game_set_from(r->st, id, r->from, e) != 0 ||
	    store_battle_save(r->st, id, b, e) != 0 ||
	    store_commit(r->st, e) != 0)
		goto fail;
	if (idp != NULL)
		*idp = id;
	rc = 0;
	goto out;
fail:
	store_rollback(r->st);
out:
	sodium_memzero(secret, sizeof(secret));
	battle_free(b);
	return rc;
}

int
referee_new_game(struct referee *r, const char *name, const char *path,
    int sandbox, const unsigned char *seed_secret, struct err *e)
{
	struct battle *b = NULL;
	char *text = NULL;
	size_t len = 0;
	const char *base;
	int rc;

	if (!valid_game_name(name))
		return err_set(e, ERR_USER, "\"%s\" is not a usable game name: use "
		    "1 to 40 letters, digits, '-' or '_', starting with a letter or "
		    "digit", name);
	if (scenario_load_file(path, &text, &len, &b, e) != 0)
		return -1;
	battle_free(b);
	base = strrchr(path, '/');
	rc = referee_new_game_text(r, name, base ? base + 1 : path, text, len,
	    sandbox, seed_secret, NULL, e);
	free(text);
	return rc;
}

int
referee_valid_email(const char *a)
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
		else if (*p == ',' || *p == ';')
			/* The header reads "PASSWORD x, TURN 2": a comma or a
			 * semicolon ends the word, so it could never be typed. */
			return err_set(e, ERR_USER, "a password may not hold ',' "
			    "or ';' (they separate the words of an order mail's "
			    "first line)");
	return 0;
}

/* 0 when a new player's address is one, and the password chosen for them
 * (if any) one they can type; else -1 with e set. */
static int
check_new_player(const char *email, const char *password, struct err *e)
{
	if (!referee_valid_email(email))
		return err_set(e, ERR_USER, "\"%s\" is not a mail address: "
		    "expected something like player@example.org", email);
	if (password != NULL && check_password(password, e) != 0)
		return -1;
	return 0;
}

int
referee_game_remove(struct referee *r, const char *game, struct err *e)
{
	struct store_game g;

	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has started: a game that has "
		    "begun is kept, as the record of what was played", g.name);
		goto fail;
	}
	if (store_game_remove(r->st, g.id, e) != 0)
		goto fail;
	return referee_game_end(r, &g, 0, e);
fail:
	return referee_game_end(r, &g, -1, e);
}

int
referee_brigade_list(const struct battle *b, int side, const char *text,
    uint64_t *mask, int *army, char *canon, size_t csize, struct err *e)
{
	const char *p = text;
	size_t k = 0;

	*mask = 0;
	*army = 0;
	if (canon != NULL)
		canon[0] = '\0';
	while (p != NULL && *p) {
		char name[BATTLE_NAME_MAX];
		size_t n = strcspn(p, ",");
		int i, hit = -1, hits = 0;

		while (n > 0 && isspace((unsigned char)*p)) {
			p++;
			n--;
		}
		while (n > 0 && isspace((unsigned char)p[n - 1]))
			n--;
		if (n >= sizeof(name))
			return err_set(e, ERR_USER, "a brigade name in \"%s\" is too "
			    "long", text);
		memcpy(name, p, n);
		name[n] = '\0';
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
		if (n == 0)
			continue;
		if (strcasecmp(name, "army") == 0) {
			*army = 1;
		} else {
			/* The whole name, else a beginning of only one.  A seat's
			 * brigades are a 64-bit mask: a brigade past the 64th of
			 * the battle is said so, not "no such brigade". */
			for (i = 64; i < b->nbrigades; i++)
				if (b->brigades[i].side == side &&
				    strcasecmp(b->brigades[i].name, name) == 0)
					return err_set(e, ERR_USER, "brigade \"%s\" is number "
					    "%d of the battle: a player can be given only "
					    "brigades among its first 64 (give this side "
					    "to one player, or \"army\")", name, i + 1);
			for (i = 0; i < b->nbrigades && i < 64; i++)
				if (b->brigades[i].side == side &&
				    strcasecmp(b->brigades[i].name, name) == 0) {
					hit = i;
					hits = 1;
					break;
				}
			for (i = 0; hits == 0 && i < b->nbrigades && i < 64; i++)
				if (b->brigades[i].side == side &&
				    strncasecmp(b->brigades[i].name, name, n) == 0) {
					hit = i;
					hits++;
				}
			if (hits != 1) {
				char list[512] = "";
				int j;

				for (j = 0; j < b->nbrigades; j++)
					if (b->brigades[j].side == side) {
						strncat(list, list[0] ? ", " : "",
						    sizeof(list) - strlen(list) - 1);
						strncat(list, b->brigades[j].name,
						    sizeof(list) - strlen(list) - 1);
					}
				return err_set(e, ERR_USER, "side %s has %s brigade called "
				    "\"%s\"; its brigades are %s (and \"army\" for the "
				    "army commander)", b->sides[side].id, hits ? "more "
				    "than one" : "no", name, list);
			}
			*mask |= (uint64_t)1 << hit;
		}
		if (canon != NULL) {
			const char *nm = strcasecmp(name, "army") == 0 ? "army" :
			    b->brigades[hit].name;

			if (k + strlen(nm) + 3 > csize)
				return err_set(e, ERR_USER, "the list of brigades is "
				    "longer than %zu characters; give the player fewer "
				    "brigades, or the side fewer players", csize - 1);
			k += (size_t)snprintf(canon + k, csize - k, "%s%s", k ? ", " :
			    "", nm);
		}
	}
	return 0;
}

int
referee_player_add(struct referee *r, const char *game, const char *side,
    const char *email, const char *password, const char *brigades,
    char *secret_out, struct err *e)
{
	char canon[512] = "";
	struct store_game g;
	struct battle *b = NULL;
	unsigned char hash[32];
	int s, rc = -1;

	if (check_new_player(email, password, e) != 0)
		return -1;
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has started: its roster is "
		    "frozen", game);
		goto out;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
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
		goto out;
	}
	{
		struct store_player pl[MAX_PLAYERS];
		int n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);

		if (n < 0)
			goto out;
		if (n == MAX_PLAYERS) {
			err_set(e, ERR_USER, "game \"%s\" has %d players, as many as "
			    "a game takes", game, MAX_PLAYERS);
			goto out;
		}
	}
	if (new_player(r, &g, game, email, password, secret_out, hash, e) != 0)
		goto out;
	if (brigades != NULL) {
		struct store_player pl[MAX_PLAYERS];
		uint64_t mask, other;
		int army, oarmy, n, i;

		if (referee_brigade_list(b, s, brigades, &mask, &army, canon,
		    sizeof(canon),
		    e) != 0)
			goto out;
		if (mask == 0 && !army) {
			err_set(e, ERR_USER, "--brigades names no brigade");
			goto out;
		}
		/* A brigade has one player. */
		n = store_players(r->st, g.id, s, pl, MAX_PLAYERS, e);
		if (n < 0)
			goto out;
		for (i = 0; i < n; i++) {
			if (pl[i].brigades[0] == '\0') {
				err_set(e, ERR_USER, "%s already commands the whole of "
				    "side %s; give each player of a shared side "
				    "--brigades", pl[i].email, side);
				goto out;
			}
			if (referee_brigade_list(b, s, pl[i].brigades, &other,
			    &oarmy, NULL, 0,
			    e) != 0)
				goto out;
			if ((other & mask) != 0 || (oarmy && army)) {
				err_set(e, ERR_USER, "%s already commands some of "
				    "\"%s\"; a brigade has one player", pl[i].email,
				    canon);
				goto out;
			}
		}
	}
	if (store_player_add(r->st, g.id, s, email, hash, secret_out, canon,
	    referee_now(r), e) != 0) {
		if (e->kind == ERR_CONFLICT)
			err_set(e, ERR_USER, "%s already plays in game \"%s\"", email,
			    game);
		goto out;
	}
	rc = 0;
out:
	battle_free(b);
	return referee_game_end(r, &g, rc, e);
}

/* 0 when n, what a change to email's row in game returned, is a row
 * changed; -1 (with e set) when it failed or found no such player. */
static int
player_found(int n, const char *email, const char *game, struct err *e)
{
	if (n == 0)
		return err_set(e, ERR_USER, "%s does not play in game \"%s\" "
		    "(see 'despatch player list %s')", email, game, game);
	return n < 0 ? -1 : 0;
}

int
referee_player_remove(struct referee *r, const char *game, const char *email,
    struct err *e)
{
	struct store_game g;
	int rc = -1;

	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has started: its roster is frozen "
		    "(a player who lost the secret can be given a new one with "
		    "'despatch player reset')", game);
		goto out;
	}
	if (player_found(store_player_remove(r->st, g.id, email, e), email,
	    game, e) != 0)
		goto out;
	rc = 0;
out:
	return referee_game_end(r, &g, rc, e);
}

int
referee_player_reset(struct referee *r, const char *game, const char *email,
    const char *password, char *secret_out, struct err *e)
{
	return referee_player_reset_by(r, game, email, password, 0, secret_out,
	    e);
}

/* Contract (internal.h). */
int
referee_player_reset_by(struct referee *r, const char *game,
    const char *email, const char *password, int by_player, char *secret_out,
    struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	unsigned char hash[32];
	int64_t player = 0;
	int side = 0, rc = -1;

	if (password != NULL && check_password(password, e) != 0)
		return -1;
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (player_secret(r, password, secret_out, hash, e) != 0)
		goto out;
	if (player_found(store_player_rehash(r->st, g.id, email, hash, &player,
	    &side, e), email, game, e) != 0)
		goto out;
	if (g.status == GAME_SETUP) {
		/* Not yet told: the welcome will carry the new one. */
		if (store_player_secret_keep(r->st, player, secret_out, e) != 0)
			goto out;
	} else {
		char body[1024], subject[256];
		int64_t welcomes = 0;
		struct store_player p;

		if (chain_act(r, g.id, "reset", player, NULL, 0, NULL, e) != 0)
			goto out;

		if (store_battle_load(r->st, &g, &b, e) != 0)
			goto out;
		/* A welcome or secret mail still queued carries the old secret:
		 * it must not go out.  A welcome is queued again with the new
		 * one; otherwise a short mail tells the new secret. */
		if (store_outbox_withdraw_secrets(r->st, g.id, email, &welcomes,
		    e) != 0)
			goto out;
		memset(&p, 0, sizeof(p));
		p.id = player;
		p.side = side;
		snprintf(p.email, sizeof(p.email), "%s", email);
		if (welcomes > 0) {
			if (queue_welcome(r, &g, 0, b, &p, secret_out, e) != 0)
				goto out;
		} else {
			snprintf(body, sizeof(body), "%s game %s has given "
			    "you a new secret for side %s;\nthe old one no longer "
			    "works.\n\nYour secret: %s\n\nSend it with every order "
			    "mail, in the first line:\n\n  GAME %s SIDE %s TURN <turn> "
			    "PASSWORD %s\n", by_player ? "As you asked (SET PASSWORD), "
			    "the server of" : "The operator of", g.name,
			    b->sides[side].id, secret_out,
			    g.name, b->sides[side].id, secret_out);
			snprintf(subject, sizeof(subject), "[%s] Your new secret",
			    g.name);
			if (referee_queue_mail_s(r, g.id, g.name, email,
			    subject, "secret",
			    NULL, body, 1, e) != 0) {
				sodium_memzero(body, sizeof(body));
				goto out;
			}
			sodium_memzero(body, sizeof(body));
		}
	}
	rc = 0;
out:
	battle_free(b);
	return referee_game_end(r, &g, rc, e);
}

int
referee_player_replace(struct referee *r, const char *game, const char *who,
    const char *new_email, const char *password, char *secret_out,
    struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS], *p = NULL;
	struct battle *b = NULL;
	unsigned char hash[32];
	struct text t;
	char subject[256], old[256];
	int n, i, matches = 0, side = -1, rc = -1;

	text_init(&t, 256 * 1024);
	if (check_new_player(new_email, password, e) != 0)
		return -1;
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	if (g.status != GAME_RUNNING) {
		err_set(e, ERR_USER, "game \"%s\" is not being played: %s", game,
		    g.status == GAME_SETUP ? "before the start, 'player remove' and "
		    "'player add' change the roster" : "the battle is over");
		goto out;
	}
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto out;
	if (strchr(who, '@') == NULL)
		side = battle_side(b, who);
	for (i = 0; i < n; i++)
		if (side >= 0 ? pl[i].side == side :
		    strcasecmp(pl[i].email, who) == 0) {
			p = &pl[i];
			matches++;
		}
	if (matches == 0) {
		err_set(e, ERR_USER, "game \"%s\" has no player \"%s\" (give a "
		    "player's address or a side; see 'despatch player list %s')",
		    game, who, game);
		goto out;
	}
	if (matches > 1) {
		err_set(e, ERR_USER, "side %s has %d players: give the address of "
		    "the one to replace", who, matches);
		goto out;
	}
	if (new_player(r, &g, game, new_email, password, secret_out, hash,
	    e) != 0)
		goto out;
	snprintf(old, sizeof(old), "%s", p->email);
	if (store_player_replace(r->st, p->id, new_email, hash, e) != 0)
		goto out;
	/* The new player: the secret, where the battle stands, the help. */
	{
		char clock[16];

		report_clock(b, battle_step_turn(b, g.step), clock, sizeof(clock));
		text_add(&t, "Welcome to %s.\n\nYou take over %s (side %s) in game "
		    "%s from its\nplayer until now. The open phase is turn %d of %d "
		    "(%s), the %s phase.\n\nYour secret: %s\n\nKeep it: this mail "
		    "is the only time despatch tells it. Send it with\nevery order "
		    "mail, in the first line:\n\n  GAME %s SIDE %s PASSWORD %s\n\n",
		    b->title, b->sides[p->side].name, b->sides[p->side].id, g.name,
		    battle_step_turn(b, g.step), b->turns, clock,
		    report_phase_id(b, g.step), secret_out, g.name,
		    b->sides[p->side].id, secret_out);
		referee_deadline_note(r, &g, b, p->side, &t);
		text_add(&t, "\n");
		referee_commands_help_text(&t, &g, b, p->side);
		text_add(&t, "\nYour forces\n-----------\n");
		report_forces(&t, b, p->side);
		snprintf(subject, sizeof(subject), "[%s] You take over %s", g.name,
		    b->sides[p->side].name);
		if (t.s == NULL || referee_queue_mail_s(r, g.id, g.name,
		    new_email, subject,
		    "welcome", NULL, t.s, 1, e) != 0) {
			if (t.s != NULL)
				sodium_memzero(t.s, t.len);
			goto out;
		}
		sodium_memzero(t.s, t.len);
	}
	{
		char body[700];

		snprintf(subject, sizeof(subject), "[%s] Side %s has a new player",
		    g.name, b->sides[p->side].id);
		snprintf(body, sizeof(body), "The operator of game %s has handed "
		    "side %s (%s) to another player.\n", g.name,
		    b->sides[p->side].id, b->sides[p->side].name);
		for (i = 0; i < n; i++)
			if (pl[i].id != p->id && referee_queue_mail(r, g.id,
			    g.name,
			    pl[i].email, subject, "notice", NULL, body, e) != 0)
				goto out;
		snprintf(body, sizeof(body), "The operator of game %s has handed "
		    "your side, %s, to another player.\nYour secret no longer "
		    "works. Thank you for playing.\n", g.name,
		    b->sides[p->side].name);
		snprintf(subject, sizeof(subject), "[%s] Your side has a new "
		    "player", g.name);
		if (referee_queue_mail(r, g.id, g.name, old, subject, "notice",
		    NULL, body,
		    e) != 0)
			goto out;
	}
	/* The seat's new address goes into the ledger (as its hash). */
	if (chain_act(r, g.id, "replace", p->id, new_email, 0, NULL, e) != 0)
		goto out;
	rc = 0;
out:
	text_free(&t);
	battle_free(b);
	return referee_game_end(r, &g, rc, e);
}

int
referee_player_list(struct referee *r, const char *game, int as_json,
    char **out, struct err *e)
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
	if (as_json) {
		char *buf = NULL;
		size_t blen = 0;
		FILE *f = open_memstream(&buf, &blen);
		struct jw j;

		if (f == NULL) {
			err_set(e, ERR_TEMP, "out of memory");
			goto out;
		}
		jw_init(&j, f);
		jw_arr(&j, NULL);
		for (i = 0; i < n; i++) {
			jw_obj(&j, NULL);
			jw_str(&j, "side", b->sides[pl[i].side].id);
			jw_str(&j, "email", pl[i].email);
			jw_str(&j, "brigades", pl[i].brigades[0] ? pl[i].brigades :
			    NULL);
			jw_end_obj(&j);
		}
		jw_end_arr(&j);
		jw_done(&j);
		if (fclose(f) != 0) {
			free(buf);
			err_set(e, ERR_TEMP, "out of memory");
			goto out;
		}
		text_free(&t);
		t.s = buf;   /* given to *out below */
	} else {
		for (i = 0; i < n; i++)
			text_add(&t, "%-16s %s%s%s\n", b->sides[pl[i].side].id,
			    pl[i].email, pl[i].brigades[0] ? "  brigades: " : "",
			    pl[i].brigades);
		if (n == 0)
			text_add(&t, "(no players yet)\n");
	}
	*out = t.s ? t.s : strdup("");
	t.s = NULL;
	rc = *out ? 0 : err_set(e, ERR_INTERNAL, "out of memory");
out:
	text_free(&t);
	battle_free(b);
	store_game_clear(&g);
	return rc;
}

/* The name of the first unit of side in the brigades of mask (0: any),
 * for an example line. */
static const char *
own_unit_name(const struct battle *b, int side, uint64_t mask)
{
	int u;

	for (u = 0; u < b->nunits; u++)
		if (b->units[u].side == side && (mask == 0 ||
		    (b->units[u].brigade < 64 &&
		    (mask >> b->units[u].brigade) & 1)))
			return b->units[u].name;
	return "Unit";
}

/* Queues the welcome to one player: the game, the secret (when given:
 * "" says to use the one the operator gave), the full help with the
 * player's own units, the ground and both sides' forces. */
static int
queue_welcome(struct referee *r, const struct store_game *g, int later,
    const struct battle *b, const struct store_player *p, const char *secret,
    struct err *e)
{
	struct text t;
	char subject[256], clock[16];
	int s, first = battle_step_side(b, 1), rc;
	unsigned char *seen = NULL;
	uint64_t mine = 0;

	text_init(&t, 256 * 1024);
	report_clock(b, 1, clock, sizeof(clock));
	text_add(&t, "Welcome to %s.\n\n", b->title);
	text_add(&t, "Game:      %s\nRuleset:   %s\nYour side: %s (%s)\n",
	    g->name, b->ruleset, b->sides[p->side].name, b->sides[p->side].id);
	/* A player of some of the side's brigades: which. */
	if (p->brigades[0] != '\0') {
		struct err be;
		int army = 0;

		if (referee_brigade_list(b, p->side, p->brigades, &mine, &army,
		    NULL, 0, &be) != 0)
			mine = 0;
		text_add(&t, "You command: %s (your side's other players command "
		    "the rest)\n", p->brigades);
	}
	text_add(&t, "Turns:     %d of %d minutes, the first at %s\n",
	    b->turns, b->minutes, clock);
	{
		/* A ruleset that decides each turn's order as the battle
		 * goes (an initiative) keeps the scenario's for turn 1 only. */
		const struct ruleset *ors = ruleset_find(b->ruleset);
		int decided = ors != NULL && ors->turn_order != NULL;

		text_add(&t, "Phases:    %s, first", decided ? "in turn 1" :
		    "each turn");
		for (s = 0; s < b->nsides; s++)
			text_add(&t, "%s %s", s == 0 ? "" : s + 1 == b->nsides ?
			    " and then" : ",", b->sides[b->side_order[s]].id);
		text_add(&t, " moves and fights.\n%s%s", decided ? "           "
		    "After it, the order of each turn is decided as the battle\n"
		    "           goes (the rules' initiative, below); each report "
		    "says who\n           moves first next.\n" : "", g->sandbox ?
		    "This is a sandbox game: the operator may script its dice.\n" :
		    "");
	}
	{
		char camp[64];
		int k = store_game_campaign(r->st, g->id, camp, e);

		if (k < 0) {
			text_free(&t);
			return -1;
		}
		if (k > 0)
			text_add(&t, "Campaign:  %s: a battle of it, whose forces "
			    "came from its march; when it\n           is over, "
			    "what it ends with is carried back into the campaign.\n"
			    "           Your secret here is your campaign secret.\n",
			    camp);
	}
	if (secret[0] != '\0')
		text_add(&t, "\nYour secret: %s\n\nKeep it: this mail is "
		    "the only time despatch tells it (the server keeps\nonly "
		    "a hash of it). Send it with every order mail, in the first "
		    "line:\n\n  GAME %s SIDE %s TURN %d PASSWORD %s\n\n", secret,
		    g->name, b->sides[p->side].id, battle_step_turn(b, 1), secret);
	else
		text_add(&t, "\nSend the secret the operator gave you with "
		    "every order mail, in the\nfirst line:\n\n  GAME %s SIDE "
		    "%s TURN %d PASSWORD <your secret>\n\n", g->name,
		    b->sides[p->side].id, battle_step_turn(b, 1));
	referee_deadline_note(r, g, b, p->side, &t);
	text_add(&t, "\n");
	referee_commands_help_text(&t, g, b, p->side);
	{
		/* What the game's ledger committed before any order. */
		struct ledger_genesis *gen = malloc(sizeof(*gen));
		unsigned char head[LEDGER_HASH];
		char hex[2 * LEDGER_HASH + 1];

		if (gen == NULL) {
			text_free(&t);
			return err_set(e, ERR_TEMP, "out of memory");
		}
		if (chain_genesis_get(r, g->id, gen, head, e) != 0) {
			free(gen);
			sodium_memzero(t.s, t.len);
			text_free(&t);
			return -1;
		}
		text_add(&t, "The dice\n--------\nThis game's dice were fixed "
		    "before any order was sent, in a seed chain\nthe server "
		    "cannot change; each report will carry the signed record of "
		    "its\nphase. Keep these three values: with them you can check "
		    "every roll\n(docs/ledger.md says how).\n\n");
		ledger_hex(gen->s0, LEDGER_HASH, hex);
		text_add(&t, "  S_0           %s\n", hex);
		ledger_hex(gen->pk, LEDGER_PK, hex);
		text_add(&t, "  server key    %s\n%s", hex,
		    ledger_key_is_demo(gen->pk) ? "                (the demo's "
		    "published key: it proves nothing)\n" : "");
		ledger_hex(head, LEDGER_HASH, hex);
		text_add(&t, "  genesis head  %s\n\n", hex);
		free(gen);
	}
	{
		const struct ruleset *rs = ruleset_find(b->ruleset);

		text_add(&t, "Distances are inches. %s\n", rs != NULL &&
		    rs->words->scale_note != NULL ? rs->words->scale_note : "");
	}
	report_terrain(&t, b);
	text_add(&t, "\nYour forces\n-----------\n");
	report_forces(&t, b, p->side);
	seen = strcmp(g->visibility, "fog") == 0 ? map_seen(b, p->side) : NULL;
	/* What the side sees as it joins is where its sightings begin: at
	 * the start, step 0; a player joining later, after the last step. */
	if (seen != NULL && store_sightings_update(r->st, g->id, b, p->side,
	    seen, g->step > 1 ? g->step - 1 : 0, g->step > 1 ?
	    battle_step_turn(b, g->step - 1) : 0, e) != 0) {
		free(seen);
		sodium_memzero(t.s, t.len);
		text_free(&t);
		return -1;
	}
	if (seen != NULL) {
		/* A fog game: only the enemy the side can see from where it
		 * starts. */
		text_add(&t, "\nThe enemy in sight\n------------------\n");
		report_seen(&t, b, p->side, seen);
	} else {
		text_add(&t, "\nThe enemy\n---------\n");
		for (s = 0; s < b->nsides; s++)
			if (s != p->side)
				report_forces(&t, b, s);
	}
	{
		/* The field at the start, as text: in a fog game what the
		 * side can see. */
		char *field = map_ascii(b, p->side, seen, 72);

		if (field != NULL)
			text_add(&t, "\nThe field\n---------\n%s", field);
		free(field);
	}
	if (battle_deploy_steps(b) > 0) {
		char zones[512];

		battle_deploy_zones_text(b, p->side, zones, sizeof(zones));
		first = battle_step_side(b, battle_deploy_steps(b) + 1);
		text_add(&t, "\nThe battle opens with its deployment, turn 0 (%s): "
		    "every side places its\nunits at once, none seeing the "
		    "other's, with a line a unit such as\n\n  %s: DEPLOY AT x,y "
		    "FACING 90\n\n(x,y where the unit's centre goes, in inches; "
		    "FACING a bearing, 0 north,\n90 east; without it the unit "
		    "faces as it does now) and TURN 0 in the first\nline. Every "
		    "stand must fall within your zone%s: %s.\nA unit you do not "
		    "name stands where it is shown above; commanders take post "
		    "the same way\n(Name: DEPLOY AT x,y), and a brigade's "
		    "commander given no line follows his\nbrigade. Then comes "
		    "turn 1 (%s), the %s phase.\n", clock,
		    own_unit_name(b, p->side, mine),
		    strchr(zones,
		    ';') != NULL ? "s" : "", zones[0] ? zones : "none: your "
		    "forces stand as shown", clock, first >= 0 ?
		    b->sides[first].id : "joint");
	} else {
		text_add(&t, "\nThe first phase is turn 1 (%s), the %s phase.\n",
		    clock, b->sides[first].id);
	}
	snprintf(subject, sizeof(subject), "[%s] Welcome: you command %s",
	    g->name, b->sides[p->side].name);
	if (t.over || t.s == NULL) {
		if (t.s != NULL)
			sodium_memzero(t.s, t.len);
		text_free(&t);
		free(seen);
		return err_set(e, ERR_INTERNAL, "the welcome mail is too large");
	}
	{
		/* The map of the field at the start, in the HTML part. */
		struct side_visuals vis;
		struct mail_part mp[MAIL_PARTS_MAX];
		struct mail_extra x;
		char format[16], sub[200], name[128], *html = NULL;

		memset(&vis, 0, sizeof(vis));
		referee_start_subtitle(b, p->side, clock, sub, sizeof(sub));
		snprintf(name, sizeof(name), "%s-start-%s", g->name,
		    b->sides[p->side].id);
		rc = referee_player_mail_format(r, p->id, format,
		    sizeof(format), e);
		if (rc == 0 && later && strcmp(format, "text") != 0) {
			/* At the start, the field is the scenario's: its map is
			 * drawn when the mail is sent (referee_mail_drawn), so
			 * the queued welcome holds no map. */
			rc = referee_queue_mail_x(r, g->id, g->name, p->email,
			    subject,
			    "welcome", NULL, t.s, NULL, 1, e);
			if (rc == 0)
				rc = store_outbox_draw(r->st,
				    store_last_id(r->st), format, e);
			goto queued;
		}
		if (rc == 0)
			rc = referee_side_visuals_make(&vis, g, b, p->side,
			    seen, sub, NULL, NULL, 0,
			    NULL, NULL, NULL, 0, format, e);
		if (rc == 0)
			rc = report_extra(format, t.s, subject, &vis, name, mp, &x,
			    &html, e);
		if (rc == 0)
			rc = referee_queue_mail_x(r, g->id, g->name, p->email,
			    subject,
			    "welcome", NULL, t.s, &x, 1, e);
queued:
		if (html != NULL) {
			sodium_memzero(html, strlen(html));
			free(html);
		}
		referee_side_visuals_free(&vis);
	}
	free(seen);
	sodium_memzero(t.s, t.len);
	text_free(&t);
	return rc;
}

/* A side with several players (or one with a brigade list): each has a
 * brigade list (checked when added), and together they command every
 * brigade and the army commander, so no unit is left without a player. */
static int
check_shared_side(const struct battle *b, int s, const struct store_player *pl,
    int n, struct err *e)
{
	uint64_t all = 0, m;
	int i, k = 0, army = 0, a;

	for (i = 0; i < n; i++)
		k += pl[i].side == s;
	for (i = 0; i < n && k == 1; i++)
		if (pl[i].side == s && pl[i].brigades[0] == '\0')
			return 0;   /* one player for the whole side */
	for (i = 0; i < n; i++) {
		if (pl[i].side != s)
			continue;
		if (pl[i].brigades[0] == '\0')
			return err_set(e, ERR_USER, "side %s has %d players, and %s "
			    "has no --brigades: each player of a shared side "
			    "commands named brigades", b->sides[s].id, k, pl[i].email);
		if (referee_brigade_list(b, s, pl[i].brigades, &m, &a, NULL, 0,
		    e) != 0)
			return -1;
		all |= m;
		army |= a;
	}
	for (i = 0; i < b->nbrigades && i < 64; i++)
		if (b->brigades[i].side == s && !(all >> i & 1u))
			return err_set(e, ERR_USER, "no player of side %s commands the "
			    "%s brigade: add it to a player's --brigades",
			    b->sides[s].id, b->brigades[i].name);
	if (!army)
		return err_set(e, ERR_USER, "no player of side %s commands the army "
		    "commander: add \"army\" to a player's --brigades",
		    b->sides[s].id);
	return 0;
}

int
referee_start(struct referee *r, const char *game, struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct battle *b = NULL;
	int n, i, s, rc = -1;

	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_SETUP) {
		err_set(e, ERR_USER, "game \"%s\" has already started", game);
		goto out;
	}
	if (store_battle_load(r->st, &g, &b, e) != 0)
		goto out;
	n = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		goto out;
	for (s = 0; s < b->nsides; s++) {
		int have = 0;

		for (i = 0; i < n; i++)
			if (pl[i].side == s)
				have = 1;
		if (!have) {
			err_set(e, ERR_USER, "side \"%s\" has no player yet: add one "
			    "with 'despatch player add %s %s EMAIL'", b->sides[s].id,
			    game, b->sides[s].id);
			goto out;
		}
		if (check_shared_side(b, s, pl, n, e) != 0)
			goto out;
	}
	/* The genesis record commits the whole seed chain before any order
	 * can arrive; the welcome gives each player what it committed. */
	if (chain_genesis(r, &g, b, 1, e) != 0)
		goto out;
	/* Running, with the first phase's deadline, before the welcomes
	 * that tell it (one transaction: all or none). */
	if (store_game_set_status(r->st, g.id, GAME_RUNNING, 1, referee_now(r),
	    e) != 0 || referee_clock_open_step(r, g.id, referee_now(r),
	    e) != 0)
		goto out;
	g.status = GAME_RUNNING;
	g.step = 1;
	for (i = 0; i < n; i++) {
		char secret[REFEREE_SECRET_MAX];
		int rc2;

		if (store_player_secret_take(r->st, pl[i].id, secret,
		    sizeof(secret), e) != 0)
			goto out;
		rc2 = queue_welcome(r, &g, 1, b, &pl[i], secret, e);
		sodium_memzero(secret, sizeof(secret));
		if (rc2 != 0)
			goto out;
	}
	rc = 0;
out:
	battle_free(b);
	return referee_game_end(r, &g, rc, e);
}
