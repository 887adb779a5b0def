/*
 * campaign_mail.c - a campaign's orders by mail.  The first line names the
 * campaign (CAMPAIGN south, or GAME south where no game has that name),
 * the side and the player's campaign secret, as a battle's order mail
 * names its game; the lines after it are the side's orders for the next
 * campaign turn (docs/campaign.md, Campaign orders).  The mail is stored
 * and answered at once: each line as it was read, or what is wrong with it
 * and what would do, and the side's orders as they now stand.  A wrong line
 * loses nothing already given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "campaign/campaign.h"
#include "core/text.h"
#include "ledger/record.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

/* The lines of the mail to read as orders: the player's own (no quotes,
 * no signature), remarks around the orders left out, each at its line of
 * the body so that the answer's line numbers are the mail's. */
struct cm_lines {
	const struct campaign *c;
	int side;
	struct text t;
	int at;                 /* lines written to t so far */
	int orders;             /* lines that read as orders, right or wrong */
	int help;               /* a line saying HELP */
	char mail[8];           /* SET MAIL: "text", "html", "full", or "" */
	char mail_bad[48];      /* SET MAIL with a word it does not take */
};

/* What a refused campaign mail is told at its end. */
static const char cm_tail[] =
    "\nA campaign's order mail starts with the line\n"
    "  CAMPAIGN <campaign> SIDE <side> PASSWORD <your secret>\n"
    "and then has one line a column, for example\n"
    "  Morgan's Flying Army: MARCH TO Cowpens\n"
    "A mail with that first line and HELP under it gets the orders and "
    "your columns.\n";

/* The orders, and where the side's columns are (HELP); mine: the
 * columns the player commands ("" for all). */
static void
cm_help(struct text *t, const struct campaign *c, int side, const char *mine)
{
	int k;

	text_add(t, "\nThe orders, one line a column (its name, a colon, "
	    "the order):\n"
	    "  MARCH TO place [BY road]         by the shortest road route "
	    "(BY: that road first)\n"
	    "  FORCED MARCH TO place [BY road]  further a day, at the cost of "
	    "stragglers\n"
	    "                                   (and exhaustion, day after "
	    "day)\n"
	    "  RETREAT TO place [BY road]       fall back toward the place\n"
	    "  HOLD                             stay where it is, ready to "
	    "fight\n"
	    "  REST                             stay; in supply, men and "
	    "order come back\n"
	    "  SCOUT                            stay and send the cavalry "
	    "out\n"
	    "  DETACH brigade, brigade AS \"name\"  those brigades leave as a "
	    "new column\n"
	    "  JOIN column                      go into another column of "
	    "yours\n"
	    "And on a line of its own:\n"
	    "  SET MAIL TEXT|HTML|FULL          your daily reports as plain "
	    "text, with\n"
	    "                                   the map (the default), or "
	    "with it as SVG too\n");
	if (mine[0] != '\0')
		text_add(t, "Your side's columns (you command %s; the others "
		    "take their orders\nfrom your side's other players):\n", mine);
	else
		text_add(t, "Your columns:\n");
	for (k = 0; k < c->ncolumns; k++) {
		const struct cp_column *col = &c->columns[k];

		if (col->side != side || col->gone)
			continue;
		if (col->road >= 0) {
			const struct cp_road *rd = &c->roads[col->road];

			text_add(t, "  %s, on the road from %s to %s\n", col->name,
			    c->places[col->from].name, c->places[rd->a == col->from ?
			    rd->b : rd->a].name);
		} else {
			text_add(t, "  %s, at %s\n", col->name,
			    c->places[col->place].name);
		}
	}
}

/* The answer to SET MAIL in a campaign mail, after the format is kept. */
static void
cm_mail_answer(struct text *t, const char *campaign, const struct cm_lines *cl)
{
	if (cl->mail_bad[0])
		text_add(t, "SET MAIL takes TEXT, HTML or FULL, not\n  \"%s\"\n"
		    "so how your reports come is unchanged.\n", cl->mail_bad);
	else if (strcmp(cl->mail, "text") == 0)
		text_add(t, "Noted: your daily reports of campaign\n  %s\nnow come "
		    "as plain text only. SET MAIL HTML brings the operational\nmap "
		    "back into the mail.\n", campaign);
	else if (strcmp(cl->mail, "html") == 0)
		text_add(t, "Noted: your daily reports of campaign\n  %s\nnow come "
		    "with the operational map as your side knows it shown in\nthe "
		    "mail (on a day it changed), and the plain text beside it.\n",
		    campaign);
	else if (strcmp(cl->mail, "full") == 0)
		text_add(t, "Noted: your daily reports of campaign\n  %s\nnow come "
		    "with the operational map shown in the mail and attached\nas "
		    "SVG too (which you can zoom), on a day it changed.\n",
		    campaign);
}

static void
cm_line(void *arg, int line, const char *text)
{
	struct cm_lines *cl = arg;

	if (strcasecmp(text, "help") == 0) {
		cl->help = 1;
		return;
	}
	if (strncasecmp(text, "set mail", 8) == 0 && (text[8] == ' ' ||
	    text[8] == '\t' || text[8] == '\0')) {
		static const char *const formats[] = { "text", "html", "full" };
		const char *v = text + 8;
		int i;

		while (*v == ' ' || *v == '\t')
			v++;
		for (i = 0; i < 3 && strcasecmp(v, formats[i]) != 0; i++)
			;
		if (i < 3)
			snprintf(cl->mail, sizeof(cl->mail), "%s", formats[i]);
		else
			snprintf(cl->mail_bad, sizeof(cl->mail_bad), "%.40s",
			    v[0] ? v : "(nothing)");
		return;
	}
	if (campaign_line_prose(cl->c, cl->side, text))
		return;
	while (cl->at < line - 1) {
		text_add(&cl->t, "\n");
		cl->at++;
	}
	text_add(&cl->t, "%s\n", text);
	cl->at++;
	cl->orders++;
}

/* The campaign player of side whose secret the header gave: 1 with *out,
 * 0 for none, -1 on a store error. */
static int
campaign_player(struct intake *in, int64_t campaign, const char *side,
    const char *secret, struct store_cplayer *out)
{
	struct store_cplayer pl[LEDGER_MAX_SEATS];
	unsigned char hash[32];
	char bare[128];
	int n, i, pass, same, found = 0;

	if (secret[0] == '\0')
		return 0;
	n = store_campaign_players(in->r->st, campaign, pl, LEDGER_MAX_SEATS,
	    in->e);
	if (n < 0)
		return -1;
	same = referee_secret_bare(secret, bare, sizeof(bare));
	for (pass = 0; pass < 2 && !found; pass++) {
		if (pass == 1 && same)
			break;
		if (referee_secret_hash(in->r, pass == 0 ? secret : bare, hash,
		    in->e) != 0) {
			found = -1;
			break;
		}
		for (i = 0; i < n; i++)
			if (strcmp(pl[i].side, side) == 0 &&
			    sodium_memcmp(pl[i].secret_hash, hash, 32) == 0) {
				*out = pl[i];
				found = 1;
				break;
			}
	}
	sodium_memzero(bare, sizeof(bare));
	sodium_memzero(hash, sizeof(hash));
	return found;
}

int
referee_campaign_mail(struct intake *in, const struct orders_header *h)
{
	struct referee *r = in->r;
	struct store_campaign sc;
	struct store_cplayer pl;
	struct campaign *c = NULL;
	struct cm_lines cl;
	struct text t;
	char date[64], *ans = NULL;
	size_t alen = 0;
	FILE *mem;
	int s, i, rc = -1, refused = 0, taken = 0, k, next;

	memset(&sc, 0, sizeof(sc));
	memset(&cl, 0, sizeof(cl));
	text_init(&t, 256 * 1024);
	if (store_campaign_get(r->st, h->game, &sc, in->e) != 0) {
		if (in->e->kind != ERR_USER)
			goto out;
		err_clear(in->e);
		referee_intake_status(in, "unknown-game", "no campaign \"%s\"",
		    h->game);
		text_add(&t, "There is no campaign called \"%s\" on this server, "
		    "so nothing was taken from\nyour mail. Check the CAMPAIGN word "
		    "in the first line of your orders.\n%s", h->game,
		    cm_tail);
		rc = referee_intake_refuse(in, &t, "unknown-game");
		goto out;
	}
	/* Its answers are the campaign's mail (their Message-ID, the name
	 * the outbox files them under). */
	snprintf(in->game, sizeof(in->game), "%s", sc.name);
	if (referee_campaign_load(r, &sc, &c, in->e) != 0)
		goto out;
	s = campaign_find_side(c, h->side);
	if (s < 0) {
		referee_intake_status(in, "rejected", "unknown side \"%s\" in "
		    "campaign %s", h->side, sc.name);
		if (h->side[0])
			text_add(&t, "Campaign %s has no side called \"%s\"; its sides "
			    "are", sc.name, h->side);
		else
			text_add(&t, "Your first line names no SIDE; the sides of "
			    "campaign %s are", sc.name);
		for (i = 0; i < c->nsides; i++)
			text_add(&t, "%s %s", i ? "," : "", c->sides[i].id);
		text_add(&t, ".\nNothing was taken from your mail.\n%s",
		    cm_tail);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	k = campaign_player(in, sc.id, c->sides[s].id, h->secret, &pl);
	if (k < 0)
		goto out;
	if (k == 0) {
		referee_intake_status(in, "rejected", "%s secret for side %s of "
		    "campaign %s", h->secret[0] ? "wrong" : "no", c->sides[s].id,
		    sc.name);
		if (h->secret[0])
			text_add(&t, "The secret after PASSWORD is not that of a player "
			    "of side %s in\ncampaign %s. Nothing was taken from your "
			    "mail. Your campaign secret is the\none the operator gave "
			    "you when you joined the campaign; it is the same in\n"
			    "every battle of the campaign.\n", c->sides[s].id, sc.name);
		else
			text_add(&t, "Your first line gives no secret: write it after "
			    "PASSWORD,\n\n  CAMPAIGN %s SIDE %s PASSWORD <your secret>"
			    "\n\nNothing was taken from your mail.\n", sc.name,
			    c->sides[s].id);
		text_add(&t, "%s", cm_tail);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	snprintf(in->registered, sizeof(in->registered), "%s", pl.email);
	cl.c = c;
	cl.side = s;
	text_init(&cl.t, 1u << 20);
	orders_body_lines(in->op, in->m->body, h->line, cm_line, &cl);
	next = c->turn + 1;
	/* A mail of SET MAIL (and HELP) alone is taken whatever the turn:
	 * it gives no orders. */
	if (cl.orders == 0 && (cl.mail[0] || cl.mail_bad[0]) &&
	    (sc.status != GAME_RUNNING || sc.pending != NULL ||
	    (h->turn != 0 && h->turn != next))) {
		referee_intake_status(in, "commands", "SET MAIL %s",
		    cl.mail[0] ? cl.mail : "refused");
		text_add(&t, "Campaign %s (%s)\n\n", sc.name, c->title);
		cm_mail_answer(&t, sc.name, &cl);
		goto reply;
	}
	campaign_date_long(c->start_day + c->turn / c->halves, date,
	    sizeof(date));
	if (sc.status != GAME_RUNNING || sc.pending != NULL) {
		referee_intake_status(in, "rejected", "campaign %s %s", sc.name,
		    sc.status == GAME_SETUP ? "not started" : sc.status ==
		    GAME_FINISHED ? "over" : "waits for its battles");
		if (sc.status == GAME_SETUP)
			text_add(&t, "Campaign %s has not started yet, so there is no "
			    "turn to give orders for.\nNothing was taken; send them "
			    "once it has started.\n", sc.name);
		else if (sc.status == GAME_FINISHED)
			text_add(&t, "Campaign %s is over; no more orders are "
			    "taken.\n", sc.name);
		else
			text_add(&t, "Campaign %s waits for the battles of turn %d to "
			    "end: orders for turn %d\nare taken once they are over. "
			    "Nothing was taken from your mail; send it\nagain then. "
			    "Orders for a battle go to the battle's game, with its "
			    "GAME line.\n", sc.name, next, next + 1);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	if (h->turn != 0 && h->turn != next) {
		referee_intake_status(in, "rejected", "TURN %s, not turn %d",
		    h->turn_text, next);
		text_add(&t, "Campaign %s takes orders for turn %d (%s)\nnow, not "
		    "for \"TURN %s\". Nothing was taken from your mail: send it\n"
		    "again with TURN %d, or with no TURN.\n", sc.name, next, date,
		    h->turn_text, next);
		rc = referee_intake_refuse(in, &t, "rejected");
		goto out;
	}
	mem = open_memstream(&ans, &alen);
	if (mem == NULL || cl.t.over) {
		if (mem != NULL)
			fclose(mem);
		err_set(in->e, ERR_TEMP, "out of memory");
		goto out;
	}
	k = referee_campaign_orders(r, sc.name, c->sides[s].id, pl.id,
	    cl.t.s != NULL ? cl.t.s : "", mem, &refused, &taken, in->e);
	fclose(mem);
	if (k != 0)
		goto out;
	if (cl.orders == 0)
		referee_intake_status(in, cl.help || cl.mail[0] ||
		    cl.mail_bad[0] ? "commands" : "no-orders",
		    "%s; the side's orders stand", cl.help ? "HELP" : cl.mail[0] ||
		    cl.mail_bad[0] ? "SET MAIL" : "no order lines");
	else
		referee_intake_status(in, "orders", "%d order%s, %d line%s not "
		    "understood", taken, taken == 1 ? "" : "s", refused,
		    refused == 1 ? "" : "s");
	text_add(&t, "Campaign %s (%s)\nThe orders of %s (%s) for turn %d, "
	    "%s.\n\n", sc.name, c->title, c->sides[s].name, c->sides[s].id, next,
	    date);
	if (cl.mail[0] || cl.mail_bad[0]) {
		cm_mail_answer(&t, sc.name, &cl);
		text_add(&t, "\n");
	}
	if (cl.orders == 0)
		text_add(&t, "%s", cl.help ? "Your mail asks for HELP (below) and "
		    "has no order lines, so your orders\nare as they were.\n" :
		    "No order lines were found in your mail, so your orders are "
		    "as they were.\n");
	else if (refused == 0)
		text_add(&t, "Understood, each line as it was read:\n");
	else
		text_add(&t, "%d line%s could not be taken, and %s nothing else "
		    "(the orders understood\nare taken; send the others again, "
		    "corrected). Each line as it was read:\n", refused,
		    refused == 1 ? "" : "s", refused == 1 ? "changes" : "change");
	text_add(&t, "\n%s\nA column with no new order goes on with its march "
	    "until it gets there, and\notherwise holds. A later mail changes "
	    "only the columns it names.\n", ans != NULL ? ans : "");
	text_add(&t, "\nOrders for a battle of the campaign go to the battle's "
	    "own game (its GAME\nline, from the battle's welcome).\n");
reply:
	/* A mail taken: its SET MAIL kept with it, HELP answered. */
	if (cl.mail[0] && store_campaign_player_set_format(r->st, pl.id,
	    cl.mail, in->e) != 0)
		goto out;
	if (cl.help)
		cm_help(&t, c, s, pl.columns);
	if (referee_intake_store(in) != 0 ||
	    referee_intake_reply(in, "reply", NULL, t.s) != 0)
		goto out;
	rc = 0;
out:
	free(ans);
	text_free(&cl.t);
	text_free(&t);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}
