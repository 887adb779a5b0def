/*
 * lobby.c - LIST: the games this server runs, for anyone who asks by
 * mail, with or without the line naming a game (docs/orders.md).
 *
 * To anyone: the games whose operator opened them for joining
 * (`despatch set GAME joining open`) and that have not started, with
 * their free seats.  To a player, also the games they play, and to an
 * observer those they observe, found by the
 * address the answer goes to: a mail whose Reply-To differs from its From
 * is not told anyone's games, so a forged From learns nothing.  LIST GAME
 * tells one such game's status, seats and each side's standing.  No
 * answer names an address or a secret.
 *
 * JOIN GAME SIDE takes a free seat of a game open for joining for the
 * mail's From (its answer going there, never to a Reply-To elsewhere);
 * the secret comes in the welcome at the start, as for every player, and
 * the game's operator is told.
 *
 * Workload: one call per LIST mail; it reads every game once (a server
 * holds tens of games), as `despatch status` does.
 */
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "orders/orders.h"
#include "report/report.h"
#include "referee/internal.h"

/* A game as LIST tells it: read once, freed by lobby_game_clear. */
struct lobby_game {
	struct store_game g;
	struct battle *b;
	int joining;            /* joining open, not started */
	int mine;               /* the asker plays it */
	int observes;           /* ... or observes it (db/015) */
	int my_side;            /* ... on this side (the first if several) */
};

static void
lobby_game_clear(struct lobby_game *l)
{
	store_game_clear(&l->g);
	battle_free(l->b);
	memset(l, 0, sizeof(*l));
}

int
referee_side_seats(struct referee *r, int64_t game, const struct battle *b,
    int side, struct err *e)
{
	char v[512], *tok, *save = NULL;
	size_t n = strlen(b->sides[side].id);

	if (referee_setting_get(r, game, "seats", v, sizeof(v), e) != 0)
		return -1;
	for (tok = strtok_r(v, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		if (strncmp(tok, b->sides[side].id, n) == 0 && tok[n] == '=')
			return atoi(tok + n + 1);
	return 1;
}

/* The free seats of side: its seats less its players, never below 0. */
static int
free_seats(struct referee *r, const struct lobby_game *l, int side,
    int64_t *players, struct err *e)
{
	int seats = referee_side_seats(r, l->g.id, l->b, side, e);

	if (seats < 0 || store_players_count(r->st, l->g.id, side, players,
	    e) != 0)
		return -1;
	return *players >= seats ? 0 : seats - (int)*players;
}

/* Reads game name; whether it is open for joining and whether who (""
 * for nobody) plays it.  0, or -1 with e set. */
static int
lobby_read(struct referee *r, const char *name, const char *who,
    struct lobby_game *l, struct err *e)
{
	char v[16];

	memset(l, 0, sizeof(*l));
	l->my_side = -1;
	if (store_game_get(r->st, name, &l->g, e) != 0 ||
	    store_battle_load(r->st, &l->g, &l->b, e) != 0 ||
	    referee_setting_get(r, l->g.id, "joining", v, sizeof(v), e) != 0)
		return -1;
	l->joining = strcmp(v, "open") == 0 && l->g.status == GAME_SETUP;
	if (who[0] != '\0') {
		struct store_player p[64];
		int n = store_players(r->st, l->g.id, -1, p, 64, e), i;

		if (n < 0)
			return -1;
		for (i = 0; i < n && !l->mine; i++)
			if (strcasecmp(p[i].email, who) == 0) {
				l->mine = 1;
				l->my_side = p[i].side;
			}
	}
	if (who[0] != '\0' && !l->mine &&
	    (l->observes = referee_observes(r, l->g.id, who, e)) < 0)
		return -1;
	return 0;
}

/* The game a player typed, whatever its case, into out: 1, 0 when the
 * server has none of that name. */
static int
lobby_name(struct referee *r, const char *typed, char *out, size_t size)
{
	char *names = store_game_names(r->st), *name, *save = NULL;
	int found = 0;

	for (name = names ? strtok_r(names, "\n", &save) : NULL;
	    name != NULL && !found; name = strtok_r(NULL, "\n", &save))
		if (strcasecmp(name, typed) == 0) {
			snprintf(out, size, "%s", name);
			found = 1;
		}
	free(names);
	return found;
}

/* "turn 2 of 6, the crown phase, deadline ..." or how it stands. */
static int
lobby_phase(struct referee *r, const struct lobby_game *l, struct text *t,
    struct err *e)
{
	struct store_clock c;

	if (l->g.status == GAME_SETUP) {
		text_add(t, "not started");
		return 0;
	}
	if (l->g.status == GAME_FINISHED) {
		text_add(t, "over%s%s", l->g.result[0] ? ": " : "", l->g.result);
		return 0;
	}
	{
		int ps = battle_step_side(l->b, l->g.step);
		int turn = battle_step_turn(l->b, l->g.step);

		text_add(t, "turn %d of %d, %s", turn > l->b->turns ?
		    l->b->turns : turn, l->b->turns, ps >= 0 ?
		    l->b->sides[ps].name : "both sides at once");
	}
	if (store_game_clock(r->st, l->g.id, &c, e) != 0)
		return -1;
	if (c.paused) {
		text_add(t, ", paused");
	} else if (c.deadline > 0) {
		char when[80];

		referee_clock_format(r, l->g.id, c.deadline, when, sizeof(when));
		text_add(t, ", deadline %s", when);
	} else {
		text_add(t, ", no deadline (the operator plays each phase)");
	}
	return 0;
}

/* One game's line and, with detail, its seats and each side's standing. */
static int
lobby_tell(struct referee *r, const struct lobby_game *l, int detail,
    struct text *t, struct err *e)
{
	int s;

	text_add(t, "  %s: %s (ruleset %s%s), ", l->g.name, l->b->title,
	    l->g.ruleset, strcmp(l->g.visibility, "fog") == 0 ? ", played in fog" :
	    "");
	if (lobby_phase(r, l, t, e) != 0)
		return -1;
	text_add(t, "\n");
	if (l->mine)
		text_add(t, "    you play %s\n", l->b->sides[l->my_side].name);
	else if (l->observes)
		text_add(t, "    you observe it (HISTORY, without the first line, "
		    "resends what you were sent)\n");
	for (s = 0; s < l->b->nsides; s++) {
		int64_t players = 0, with = 0;
		int fs = free_seats(r, l, s, &players, e);

		if (fs < 0)
			return -1;
		if (!detail && !l->joining && !l->mine && !l->observes)
			continue;
		if (!detail && !l->mine && !l->observes && fs == 0)
			continue;
		text_add(t, "    %-14s %s: %d %s", l->b->sides[s].id,
		    l->b->sides[s].name, (int)players,
		    report_plural((int)players, "player", "players"));
		if (l->joining && fs > 0)
			text_add(t, ", %d free %s (JOIN %s %s)", fs,
			    report_plural(fs, "seat", "seats"), l->g.name,
			    l->b->sides[s].id);
		else if (l->joining)
			text_add(t, ", no free seat");
		if (l->g.status == GAME_RUNNING && (detail || l->mine ||
		    l->observes) &&
		    players > 0) {
			int step = l->g.step;

			/* Orders for the open phase, if it is this side's. */
			if (battle_step_side(l->b, step) == s ||
			    battle_step_side(l->b, step) < 0) {
				if (store_orders_players(r->st, l->g.id, step, s, &with,
				    e) != 0)
					return -1;
				text_add(t, "; orders for the open phase: %s",
				    with == 0 ? "none yet" : with >= players ?
				    "sent" : "sent by some of its players");
			}
		}
		text_add(t, "\n");
	}
	return 0;
}

int
referee_commands_list(struct intake *in, const char *game)
{
	struct referee *r = in->r;
	struct text t;
	char *names = NULL, *name, *save = NULL, note[400];
	const char *who = "";
	int rc = -1, open = 0, told = 0;

	/* Only a mail whose answer goes back to its From learns whose games
	 * that address plays. */
	if (in->sender != NULL && in->reply_to != NULL &&
	    strcasecmp(in->sender, in->reply_to) == 0)
		who = in->sender;
	text_init(&t, ANSWER_MAX);
	if (game != NULL && game[0] != '\0') {
		struct lobby_game l;
		char gname[64];

		if (!lobby_name(r, game, gname, sizeof(gname))) {
			text_add(&t, "This server runs no game called \"%s\". Send "
			    "LIST alone for the games you may\njoin or play.\n", game);
		} else {
			if (lobby_read(r, gname, who, &l, in->e) != 0) {
				lobby_game_clear(&l);
				goto out;
			}
			if (l.joining || l.mine || l.observes) {
				text_add(&t, "Game %s:\n", l.g.name);
				rc = lobby_tell(r, &l, 1, &t, in->e);
				if (rc == 0 && l.joining)
					text_add(&t, "\nJoining is open until the game "
					    "starts.\n");
			} else {
				text_add(&t, "Game %s is not open for joining, and you "
				    "play no part in it. Send\nLIST alone for the games "
				    "you may join, play or observe.\n", game);
				rc = 0;
			}
			lobby_game_clear(&l);
			if (rc != 0)
				goto out;
			rc = -1;
		}
		goto send;
	}
	names = store_game_names(r->st);
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		struct lobby_game l;

		if (lobby_read(r, name, who, &l, in->e) != 0) {
			lobby_game_clear(&l);
			goto out;
		}
		if (l.joining || l.mine || l.observes) {
			if (told++ == 0)
				text_add(&t, "Games on this server open to you:\n\n");
			open += l.joining;
			if (lobby_tell(r, &l, 0, &t, in->e) != 0) {
				lobby_game_clear(&l);
				goto out;
			}
		}
		lobby_game_clear(&l);
	}
	if (told == 0)
		text_add(&t, "No game on this server is open for joining now%s.\n",
		    who[0] ? ", and this address plays in none" : "");
	text_add(&t, "\n%s"
	    "LIST <game> tells one game's seats and how each side stands.\n",
	    open ? "JOIN <game> <side> takes a free seat; your secret comes "
	    "in the welcome\nwhen the game starts.\n" : "");
send:
	referee_operator_note(r, 0, note, sizeof(note));
	text_add(&t, "%s", note);
	rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
	    referee_intake_reply(in, "reply", "[despatch] LIST", t.s);
out:
	free(names);
	text_free(&t);
	return rc;
}

/* Tells the game's operator (if one is set) that addr took a seat. */
static int
tell_operator(struct referee *r, const struct lobby_game *l, int side,
    const char *addr, struct err *e)
{
	char op[300], subj[200], body[1200];
	int64_t players = 0;
	int fs;

	if (referee_setting_get(r, l->g.id, "operator", op, sizeof(op), e) != 0)
		return -1;
	if (op[0] == '\0')
		return 0;
	if ((fs = free_seats(r, l, side, &players, e)) < 0)
		return -1;
	snprintf(subj, sizeof(subj), "[%s] %s joined %s", l->g.name, addr,
	    l->b->sides[side].id);
	snprintf(body, sizeof(body), "%s took a seat of %s (%s) in game %s by "
	    "mail (JOIN).\nThe side has %d %s now, %d %s still free.\n"
	    "'despatch player list %s' shows the roster; 'despatch player "
	    "remove %s %s'\nundoes it.\n", addr, l->b->sides[side].id,
	    l->b->sides[side].name, l->g.name, (int)players,
	    report_plural((int)players, "player", "players"), fs,
	    report_plural(fs, "seat", "seats"), l->g.name, l->g.name, addr);
	return referee_queue_mail(r, l->g.id, l->g.name, op, subj, "notice",
	    NULL, body, e);
}

int
referee_commands_join(struct intake *in, const char *game, const char *what)
{
	char side[64] = "";
	const char *brigades = NULL;
	int at = 0;
	struct referee *r = in->r;
	struct lobby_game l;
	struct text t;
	char secret[REFEREE_SECRET_MAX], note[400], gname[64];
	int64_t players = 0;
	int s, fs, seats = 0, rc = -1;

	memset(&l, 0, sizeof(l));
	text_init(&t, ANSWER_MAX);
	/* "crown", or "crown 1st, 2nd" for a side of several seats. */
	if (sscanf(what, "%63s %n", side, &at) == 1 && what[at] != '\0')
		brigades = what + at;
	if (in->sender == NULL || in->reply_to == NULL ||
	    strcasecmp(in->sender, in->reply_to) != 0) {
		text_add(&t, "JOIN must come from the address that will play, and "
		    "be answered there: this\nmail asks for its answers at "
		    "another address (Reply-To). Send JOIN again\nfrom the "
		    "address you will play from, without a Reply-To.\n");
		goto send;
	}
	if (!lobby_name(r, game, gname, sizeof(gname))) {
		text_add(&t, "This server runs no game called \"%s\". Send LIST "
		    "for the games open for\njoining.\n", game);
		goto send;
	}
	if (lobby_read(r, gname, in->sender, &l, in->e) != 0)
		goto out;
	if (!l.joining) {
		text_add(&t, "Game %s is not open for joining%s. Send LIST for the "
		    "games that are.\n", l.g.name, l.g.status != GAME_SETUP ?
		    ": it has started" : "");
		goto send;
	}
	if (l.mine) {
		text_add(&t, "You play in game %s already (%s). A player takes one "
		    "seat of a game.\n", l.g.name, l.b->sides[l.my_side].name);
		goto send;
	}
	for (s = 0; s < l.b->nsides; s++)
		if (strcasecmp(l.b->sides[s].id, side) == 0)
			break;
	if (s == l.b->nsides || (fs = free_seats(r, &l, s, &players,
	    in->e)) == 0) {
		if (s < l.b->nsides)
			text_add(&t, "Side %s of game %s has no free seat.\n",
			    l.b->sides[s].id, l.g.name);
		else
			text_add(&t, "Game %s has no side \"%s\".\n", l.g.name, side);
		text_add(&t, "Its sides:\n");
		if (lobby_tell(r, &l, 1, &t, in->e) != 0)
			goto out;
		goto send;
	}
	if (fs < 0)
		goto out;
	/* A side of several seats is shared by brigades: each joiner names
	 * theirs. */
	if (brigades == NULL && (seats = referee_side_seats(r, l.g.id, l.b, s,
	    in->e)) < 0)
		goto out;
	if (brigades == NULL && seats > 1) {
		int i;

		text_add(&t, "Side %s of game %s is shared by %d players, each "
		    "commanding brigades of\nits own: name yours after the side, "
		    "as in\n  JOIN %s %s <brigade>, <brigade>\n(\"army\" for the "
		    "army commander). Its brigades:\n", l.b->sides[s].id,
		    l.g.name, seats, l.g.name, l.b->sides[s].id);
		for (i = 0; i < l.b->nbrigades; i++)
			if (l.b->brigades[i].side == s)
				text_add(&t, "  %s\n", l.b->brigades[i].name);
		goto send;
	}
	if (referee_player_add(r, l.g.name, l.b->sides[s].id, in->sender, NULL,
	    brigades, secret, in->e) != 0) {
		if (in->e->kind != ERR_USER)
			goto out;
		text_add(&t, "Your seat could not be taken: %s.\n", in->e->msg);
		err_clear(in->e);
		goto send;
	}
	sodium_memzero(secret, sizeof(secret));
	if (tell_operator(r, &l, s, in->sender, in->e) != 0)
		goto out;
	text_add(&t, "You have a seat of %s (%s) in game %s: %s, ruleset %s.\n\n"
	    "When the operator starts the game you get the welcome mail: your "
	    "secret, which\nevery order mail needs, your forces and how to give "
	    "them orders. Until then\nLIST %s shows who else has joined.\n",
	    l.b->sides[s].id, l.b->sides[s].name, l.g.name, l.b->title,
	    l.g.ruleset, l.g.name);
send:
	referee_operator_note(r, l.g.id, note, sizeof(note));
	text_add(&t, "%s", note);
	rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
	    referee_intake_reply(in, "reply", "[despatch] JOIN", t.s);
out:
	lobby_game_clear(&l);
	text_free(&t);
	return rc;
}

int
referee_commands_bare(struct intake *in, const struct orders_cmd *c)
{
	char body[900];

	if (c->line == -1) {
		snprintf(body, sizeof(body), "Your mail's command could not be "
		    "read: %.600s.\n\n%s", c->text, referee_help_tail);
		return referee_intake_reply(in, "reply", NULL, body);
	}
	switch (c->kind) {
	case CMD_HELP:
		return referee_commands_general_help(in);
	case CMD_LIST:
		return referee_commands_list(in, c->arg);
	case CMD_JOIN:
		return referee_commands_join(in, c->arg, c->text);
	case CMD_HISTORY:
		return referee_commands_history_bare(in, c);
	case CMD_SECRET:
		return referee_commands_secret(in, c->arg);
	default:
		return 0;
	}
}

/* Contract (internal.h). */
int
referee_commands_no_header(struct intake *in)
{
	char body[1800], note[400];

	referee_operator_note(in->r, 0, note, sizeof(note));
	snprintf(body, sizeof(body), "Your mail has no line naming the game, "
	    "your side and your secret, so nothing\nwas taken from it. Every "
	    "mail to this address needs that line, even a reply\nto one of its "
	    "mails or to a message from another player: the secret is how\nthe "
	    "server knows it is you.\n%s\n%s", referee_help_tail, note);
	return referee_intake_reply(in, "reply", NULL, body);
}
