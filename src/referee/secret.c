/*
 * secret.c - SECRET [GAME]: a new secret for a player who lost theirs
 * (docs/orders.md, Commands).
 *
 * The mail gives no secret, so all it proves is a From, which anyone may
 * forge.  Hence: the new secret, made by the server like every secret,
 * goes only to the address the player is registered with, never to a
 * Reply-To; and it waits beside the old one, which goes on working until
 * a mail first gives the new one (referee_secret_match).  A forged
 * request costs the player one mail and nothing else.
 *
 * The answer to the mail tells which games an address plays only when it
 * goes back to that address (Reply-To, if any, the same as From), as LIST
 * does; otherwise, and for an address that plays no game, it is the same
 * few lines whatever the server holds, so it tells nobody whether any
 * player exists.
 *
 * The ledger's reset act is written when the new secret is first used,
 * not when it is mailed: only then does the seat's secret change, and a
 * request nobody takes up (a forgery, say) leaves the game's public
 * record as it was, so that nobody can add acts to it by mail.
 *
 * Here too: matching a header's secret to a player (referee_authenticate,
 * with or without what a mail wraps it in, referee_secret_bare).
 */
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "orders/orders.h"
#include "referee/chain.h"
#include "referee/internal.h"

/* The most games one address is told of. */
#define SECRET_GAMES 32

/* A game the asking address plays. */
struct secret_seat {
	char game[64];
	struct store_player p;
};

/* The games addr plays, named game ("" for any), at most max into out:
 * how many, or -1 with e set. */
static int
seats_of(struct referee *r, const char *addr, const char *game,
    struct secret_seat *out, int max, struct err *e)
{
	struct store_player *pl;
	char *names = store_game_names(r->st), *name, *save = NULL;
	int n = 0, np, i;

	pl = calloc(MAX_PLAYERS, sizeof(*pl));
	if (pl == NULL) {
		free(names);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	for (name = names ? strtok_r(names, "\n", &save) : NULL;
	    name != NULL && n < max; name = strtok_r(NULL, "\n", &save)) {
		struct store_game g;

		if (game[0] != '\0' && strcasecmp(name, game) != 0)
			continue;
		memset(&g, 0, sizeof(g));
		if (store_game_get(r->st, name, &g, e) != 0) {
			n = -1;
			break;
		}
		np = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
		store_game_clear(&g);
		if (np < 0) {
			n = -1;
			break;
		}
		for (i = 0; i < np && n < max; i++)
			if (strcasecmp(pl[i].email, addr) == 0) {
				snprintf(out[n].game, sizeof(out[n].game), "%s", name);
				out[n++].p = pl[i];
			}
	}
	free(pl);
	free(names);
	return n;
}

/* Makes player p of game a new secret waiting to be used and mails it to
 * p's registered address.  *said: what the answer may tell the address
 * itself.  0, or -1 with e set. */
static int
send_secret(struct intake *in, const struct secret_seat *seat, char *said,
    size_t size)
{
	struct referee *r = in->r;
	struct store_game g;
	struct battle *b = NULL;
	char secret[REFEREE_SECRET_MAX], body[1200], subj[128];
	unsigned char hash[32];
	int rc = -1;

	if (referee_game_begin(r, seat->game, &g, in->e) != 0)
		return -1;
	if (g.status == GAME_SETUP) {
		snprintf(said, size, "Game %s has not started: your secret comes "
		    "in your welcome mail when it\nstarts, so none was made now.\n",
		    g.name);
		rc = 0;
		goto out;
	}
	if (g.status == GAME_FINISHED) {
		snprintf(said, size, "The battle of game %s is over: no mail to it "
		    "needs a secret any more,\nso none was made.\n", g.name);
		rc = 0;
		goto out;
	}
	if (store_battle_load(r->st, &g, &b, in->e) != 0)
		goto out;
	referee_make_secret(secret);
	if (referee_secret_hash(r, secret, hash, in->e) != 0 ||
	    store_player_pending_set(r->st, seat->p.id, hash, in->e) != 0)
		goto out;
	snprintf(body, sizeof(body), "A mail from this address asked (SECRET) "
	    "for a new secret for side %s\nof game %s. Here it is, made by the "
	    "server:\n\nYour new secret: %s\n\nSend it with every order mail, "
	    "in the first line:\n\n  GAME %s SIDE %s TURN <turn> PASSWORD %s\n\n"
	    "Your old secret goes on working until a mail gives this new one; "
	    "from\nthat mail on, only the new one works. If you did not ask, "
	    "nothing has\nchanged: keep using your old secret, and this one "
	    "never starts.\n", b->sides[seat->p.side].id, g.name, secret,
	    g.name, b->sides[seat->p.side].id, secret);
	snprintf(subj, sizeof(subj), "[%s] Your new secret", g.name);
	rc = referee_queue_mail_s(r, g.id, g.name, seat->p.email, subj,
	    "secret", NULL, body, 1, in->e);
	sodium_memzero(body, sizeof(body));
	sodium_memzero(secret, sizeof(secret));
	sodium_memzero(hash, sizeof(hash));
	if (rc == 0)
		snprintf(said, size, "A new secret for game %s, made by the server, "
		    "is mailed to the address\nthis game has for you, in a mail of "
		    "its own. Your old secret goes on\nworking until a mail gives "
		    "the new one.\n", g.name);
out:
	battle_free(b);
	return referee_game_end(r, &g, rc, in->e);
}

int
referee_commands_secret(struct intake *in, const char *game)
{
	struct secret_seat *seats;
	char body[2400], said[600] = "", note[400];
	int n = 0, i, back, rc = -1;
	size_t k;

	/* Only an answer that goes back to the From may tell what that
	 * address plays. */
	back = in->sender != NULL && in->reply_to != NULL &&
	    strcasecmp(in->sender, in->reply_to) == 0;
	seats = calloc(SECRET_GAMES, sizeof(*seats));
	if (seats == NULL)
		return err_set(in->e, ERR_INTERNAL, "out of memory");
	if (in->sender != NULL) {
		n = seats_of(in->r, in->sender, game, seats, SECRET_GAMES, in->e);
		if (n < 0)
			goto out;
	}
	if (n == 1 && send_secret(in, &seats[0], said, sizeof(said)) != 0)
		goto out;
	if (back && n == 1) {
		k = (size_t)snprintf(body, sizeof(body), "%s", said);
	} else if (back && n > 1) {
		k = (size_t)snprintf(body, sizeof(body), "This address plays %d "
		    "games on this server:", n);
		for (i = 0; i < n && k < sizeof(body); i++)
			k += (size_t)snprintf(body + k, sizeof(body) - k, "%s %s",
			    i ? "," : "", seats[i].game);
		if (k < sizeof(body))
			k += (size_t)snprintf(body + k, sizeof(body) - k, ".\nNo "
			    "secret was made: say for which game, on a line of its "
			    "own,\n  SECRET %s\n", seats[0].game);
	} else {
		/* The same words whatever the server holds. */
		k = (size_t)snprintf(body, sizeof(body), "A new secret goes only "
		    "to the address a player is registered with, in a\nmail of "
		    "its own, and never to another. If this mail's address is "
		    "one\nthat plays %s%s on this server, that mail is on its "
		    "way; the old\nsecret goes on working until a mail gives the "
		    "new one. An address that\nplays several games gets no secret "
		    "until it says which: SECRET <game>.\n", game[0] ? "game " :
		    "a game", game);
	}
	referee_operator_note(in->r, 0, note, sizeof(note));
	if (k < sizeof(body))
		snprintf(body + k, sizeof(body) - k, "\n%s", note);
	rc = referee_intake_reply(in, "reply", "[despatch] SECRET", body);
out:
	free(seats);
	return rc;
}

int
referee_secret_match(struct intake *in, const struct store_player *p,
    const unsigned char hash[32])
{
	int took;

	if (sodium_memcmp(hash, p->secret_hash, 32) == 0)
		return 1;
	if (!p->pending || sodium_memcmp(hash, p->pending_hash, 32) != 0)
		return 0;
	/* The first mail with the new secret: it becomes the secret, and the
	 * old one stops (see the top of this file for why the act is written
	 * now). */
	took = store_player_pending_take(in->r->st, p->id, in->e);
	if (took < 0 || (took > 0 && chain_act(in->r, in->game_id, "reset",
	    p->id, NULL, 0, "SECRET", in->e) != 0))
		return -1;
	return 2;
}

int
referee_secret_headed(struct orders_parser *op, const char *body,
    const struct orders_header *h, struct orders_cmd *out)
{
	const char *s = body;
	int line;

	/* A line after the header's first, read as a mail without one:
	 * the header reads SECRET as its word for the secret, so the line
	 * may be taken into it. */
	for (line = 1; s != NULL && line <= h->line + 1; line++) {
		if (line > h->first_line && orders_bare_command(op, s, out) ==
		    CMD_SECRET && out->line != -1) {
			snprintf(out->arg, sizeof(out->arg), "%s", h->game);
			return CMD_SECRET;
		}
		s = strchr(s, '\n');
		s = s != NULL ? s + 1 : NULL;
	}
	return -1;
}

int
referee_secret_bare(const char *secret, char *bare, size_t size)
{
	size_t a = 0, z = strlen(secret);

	while (a < z && strchr("\"'<([", secret[a]))
		a++;
	while (z > a && strchr("\"'>)].,;:!", secret[z - 1]))
		z--;
	if (z - a >= size)
		z = a + size - 1;
	memcpy(bare, secret + a, z - a);
	bare[z - a] = '\0';
	return strcmp(bare, secret) == 0 ? -1 : 0;
}

int
referee_authenticate(struct intake *in, int64_t game, int side,
    const char *secret)
{
	struct store_player pl[MAX_PLAYERS];
	unsigned char hash[32];
	char bare[128];
	int n, i, pass, k = 0, same;

	if (secret[0] == '\0')
		return 0;
	n = store_players(in->r->st, game, side, pl, MAX_PLAYERS, in->e);
	if (n < 0)
		return -1;
	/* As typed, then without wrapping: "secret", secret. or <secret>. */
	same = referee_secret_bare(secret, bare, sizeof(bare));
	for (pass = 0; pass < 2 && in->player_id == 0 && k >= 0; pass++) {
		const char *try = pass == 0 ? secret : bare;

		if (pass == 1 && same)
			break;
		if (referee_secret_hash(in->r, try, hash, in->e) != 0)
			return -1;
		/* The secret, or the one SECRET mailed, now first used. */
		for (i = 0; i < n && k >= 0; i++)
			if ((k = referee_secret_match(in, &pl[i], hash)) > 0) {
				in->player_id = pl[i].id;
				snprintf(in->registered, sizeof(in->registered), "%s",
				    pl[i].email);
				snprintf(in->brigades, sizeof(in->brigades), "%s",
				    pl[i].brigades);
				break;
			}
	}
	sodium_memzero(bare, sizeof(bare));
	return k < 0 ? -1 : 0;
}
