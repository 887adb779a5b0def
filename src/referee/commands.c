/*
 * commands.c - the mail commands a player may send instead of, or beside,
 * orders: HELP, STATUS, ORDERS, RESEND, PRESS, WAIT, READY, CONCEDE,
 * COMMIT, REVEAL and SET MAIL
 * (docs/orders.md).
 *
 * Each command gets an answer of its own, and none touches stored orders.
 * They run inside the intake's transaction, after the player has been
 * authenticated by the header's secret.  STATUS never tells what another
 * side ordered, only whether it has; PRESS never shows the sender's
 * address to those it reaches.
 */
#include <sodium.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "report/report.h"
#include "referee/chain.h"
#include "referee/internal.h"


static void
subject(struct intake *in, const char *what, char *out, size_t size)
{
	snprintf(out, size, "[%s] %s", in->game[0] ? in->game : "despatch", what);
}

/* Answers the mail's command what with body, under the subject
 * "[game] what". */
static int
answer(struct intake *in, const char *what, const char *body)
{
	char subj[128];

	subject(in, what, subj, sizeof(subj));
	return referee_intake_reply(in, "reply", subj, body);
}

/* The side's next phase still open: its step and turn. */
static void
next_phase(const struct store_game *g, const struct battle *b, int side,
    int want_turn, int *step, int *turn)
{
	int t = want_turn;

	if (t <= 0 || t > b->turns) {
		for (t = battle_step_turn(b, g->step > 0 ? g->step : 1);
		    t <= b->turns; t++)
			if (referee_step_for(b, t, side) >= g->step)
				break;
	}
	*turn = t;
	*step = t <= b->turns ? referee_step_for(b, t, side) : -1;
}

/* The word of rs's verb v for the help's examples, else of its first verb
 * for units (or commanders) taking arg (-1: no such fallback); NULL when
 * it has none. */
static const char *
verb_example(const struct ruleset *rs, int v, int arg, int commanders)
{
	int i;

	for (i = 0; rs != NULL && i < rs->nverbs; i++)
		if (rs->verbs[i].verb == v)
			return rs->verbs[i].word;
	for (i = 0; rs != NULL && arg >= 0 && i < rs->nverbs; i++)
		if ((int)rs->verbs[i].arg == arg && (commanders ?
		    rs->verbs[i].for_commanders : rs->verbs[i].for_units))
			return rs->verbs[i].word;
	return NULL;
}

void
referee_commands_help_text(struct text *t, const struct store_game *g,
    const struct battle *b, int side)
{
	const struct ruleset *rs = ruleset_find(g->ruleset);
	int i, own = -1, own2 = -1, foe = -1, cmd = -1, br = -1;
	char wbuf[24], dbuf[24];

	/* Examples with units and commanders still on the table. */
	for (i = 0; i < b->nunits; i++) {
		if (battle_unit_alive(b, i) == 0)
			continue;
		if (b->units[i].side == side && own < 0)
			own = i;
		else if (b->units[i].side == side && own2 < 0)
			own2 = i;
		else if (b->units[i].side != side && foe < 0)
			foe = i;
	}
	for (i = 0; i < b->ncommanders && cmd < 0; i++)
		if (b->commanders[i].side == side && !b->commanders[i].gone)
			cmd = i;
	for (i = 0; i < b->nbrigades && br < 0; i++)
		if (b->brigades[i].side == side)
			br = i;
	text_add(t, "How to send orders in game %s (%s), ruleset %s\n\n",
	    g->name, b->title, g->ruleset);
	if (strcmp(g->visibility, "fog") == 0)
		report_fog_help(t, b);
	text_add(t, "The mail starts with a line naming the game, your side, the "
	    "turn and your secret:\n  GAME %s SIDE %s TURN <turn> PASSWORD "
	    "<your secret>\nThe words may come in any order, on one line or on "
	    "several, or in the Subject.\nLeave TURN out and the orders are for "
	    "your next phase.\n\n", g->name, b->sides[side].id);
	text_add(t, "Then one line a unit or commander: its name (any part of it "
	    "that is enough),\na colon, and its orders. For example:\n");
	{
		/* Made from the ruleset's own verbs: a move, a turn then a
		 * shot, a brigade holding, a commander sent somewhere. */
		const char *move = verb_example(rs, V_ADVANCE, ARG_DIST, 0);
		const char *turn = verb_example(rs, V_WHEEL, ARG_TURN, 0);
		const char *fire = verb_example(rs, V_FIRE_AT, ARG_ENEMY, 0);
		const char *hold = verb_example(rs, V_HOLD, -1, 0);
		const char *ride = verb_example(rs, V_MOVE_TO, ARG_POINT, 1);

		if (own >= 0 && move != NULL)
			text_add(t, "  %s: %s 6\n", b->units[own].name, move);
		/* In a fog game no enemy is named: the first one alive may
		 * be one this side cannot see. */
		if (own >= 0 && foe >= 0 && turn != NULL && fire != NULL)
			text_add(t, "  %s: %s LEFT 30 THEN %s %s\n",
			    b->units[own2 >= 0 ? own2 : own].name, turn, fire,
			    strcmp(g->visibility, "fog") == 0 ?
			    "<an enemy unit in sight>" : b->units[foe].name);
		if (br >= 0 && hold != NULL)
			text_add(t, "  %s brigade: %s      (every unit of the "
			    "brigade without an order of its own)\n",
			    b->brigades[br].name, hold);
		else if (own >= 0 && hold != NULL && move == NULL)
			text_add(t, "  %s: %s\n", b->units[own].name, hold);
		if (cmd >= 0 && ride != NULL)
			text_add(t, "  %s: %s 30,20\n", b->commanders[cmd].name,
			    ride);
	}
	text_add(t, "\nOrders (join several with THEN or ';', at most %d; "
	    "more are left out):\n", ORDER_MAX_STEPS);
	for (i = 0; rs != NULL && i < rs->nverbs; i++)
		text_add(t, "  %s\n", rs->verbs[i].help);
	if (battle_deploy_steps(b) > 0)
		text_add(t, "  DEPLOY AT X,Y [FACING N]: (the deployment, turn 0, "
		    "alone) put the unit's centre\n    at X,Y facing N, every "
		    "stand within your zone; nothing else is taken then\n");
	if (rs != NULL && rs->words->welcome != NULL)
		rs->words->welcome(b, side, g->step > 0 ? g->step : 1, t);

	text_add(t, "\nA unit without an order holds. A new mail with orders "
	    "changes the orders of\nthe units it names and leaves the rest as "
	    "they are, so a correction needs\nonly the lines that change; "
	    "CLEAR at its top starts again from nothing. A\nmail without order "
	    "lines leaves your orders as they are. A later line for the\nsame "
	    "unit replaces an earlier one.\n\n"
	    "Standing orders: a line starting STANDING: (or the lines under a "
	    "line saying\nonly STANDING:) is kept from phase to phase and "
	    "played whenever you send no\norders for a phase of yours, for "
	    "example\n  STANDING: %s: HOLD\nA new mail with standing orders "
	    "replaces them all; STANDING: NONE clears them.\n\n",
	    own >= 0 ? b->units[own].name : "<unit>");
	text_add(t, "Commands, each on a line of its own after the first line "
	    "(each gets its own answer):\n"
	    "  HELP                     this help\n"
	    "  STATUS                   the open phase and which sides have "
	    "sent orders\n"
	    "  ORDERS                   the orders you have stored now\n"
	    "  CLEAR                    (at the top) your stored orders "
	    "withdrawn first\n"
	    "  QUESTION (or UMPIRE)     the rest of your mail goes to the "
	    "operator, a person\n"
	    "  RESEND                   your last turn report again\n"
	    "  HISTORY [TURN N | N-M]   the reports you were sent, again, in "
	    "one mail\n"
	    "                           (at most 30 phases); HISTORY TURN 3, "
	    "HISTORY 2-4\n"
	    "  PRESS TO <side|all> \"text\"  a message to the other players, "
	    "signed by your side\n"
	    "  WAIT / READY             ask for the full time to the deadline "
	    "/ withdraw that\n"
	    "  CONCEDE                  give up the battle (the answer asks you "
	    "to confirm)\n"
	    "  DRAW / DRAW WITHDRAW     propose a draw / take it back; the "
	    "battle ends drawn\n"
	    "                           when every player has a proposal "
	    "standing\n"
	    "  LIST [GAME]              the games you play and those open for "
	    "joining; LIST %s,\n"
	    "                           this game's seats and how each side "
	    "stands\n"
	    "  JOIN GAME SIDE           (alone in a mail, no first line) a "
	    "free seat of a game\n"
	    "                           open for joining\n"
	    "  SET PASSWORD             a new secret, made by the server and "
	    "mailed to your\n"
	    "                           registered address (this one stops "
	    "working)\n"
	    "  SECRET [GAME]            (alone in a mail, from your address, "
	    "no secret needed:\n"
	    "                           SECRET %s)\n"
	    "                           a new secret mailed to your registered "
	    "address; the\n"
	    "                           old one works until a mail gives the "
	    "new one\n"
	    "  ABSENT FROM d TO d       you will be away, for example ABSENT "
	    "FROM 2026-12-24\n"
	    "                           TO 2026-12-27; the other players are "
	    "told the dates\n"
	    "  ABSENT CANCEL            that absence withdrawn\n"
	    "  SET MAIL TEXT|HTML|FULL  how your reports come: plain text; with "
	    "the map shown\n"
	    "                           in the mail (the default); or that with "
	    "the map (PNG,\n"
	    "                           SVG) and the report (JSON) attached\n\n",
	    g->name, g->name);
	text_add(t, "The table is %s\" wide (x, west to east) and %s\" deep (y, "
	    "south to north);\n0,0 is the south-west corner. Facings are degrees "
	    "clockwise from north.\n", geom_fmt_fx(b->width, wbuf, sizeof(wbuf)),
	    geom_fmt_fx(b->depth, dbuf, sizeof(dbuf)));
	if (rs != NULL && rs->words->crib != NULL) {
		char crib[8192];

		rs->words->crib(b, side, crib, sizeof(crib));
		text_add(t, "\n%s", crib);
	}
}

int
referee_commands_general_help(struct intake *in)
{
	char body[2800], note[400];
	size_t k;

	referee_operator_note(in->r, 0, note, sizeof(note));
	k = (size_t)snprintf(body, sizeof(body), "This address is a play-by-mail game server "
	    "(despatch). It reads order mails\nfrom the players of its games and "
	    "answers each one.\n\n"
	    "An order mail starts with a line naming the game, your side, the "
	    "turn and the\nsecret from your welcome mail:\n"
	    "  GAME <game> SIDE <side> TURN <turn> PASSWORD <your secret>\n"
	    "then one line a unit, its name, a colon and its orders:\n"
	    "  7th Foot: ADVANCE 8\n  7th Foot: WHEEL LEFT 30 THEN FIRE AT "
	    "Maryland Continentals\n\n"
	    "Send HELP after that first line for the help of your own game: "
	    "its orders,\nexamples with your own units, the numbers that decide "
	    "a turn, and the\ncommands (STATUS, ORDERS, RESEND, HISTORY, PRESS, "
	    "WAIT, READY, CONCEDE).\n\n"
	    "Send LIST alone for the games this server runs that are open for "
	    "joining, and\nthose your address plays or observes; LIST <game> "
	    "for one game's seats;\nJOIN <game> <side> to take a free seat. "
	    "An observer sends HISTORY alone (or\nHISTORY TURN 3, HISTORY 2-4) "
	    "for the reports sent so far, again, in one mail.\n\n"
	    "Lost your secret? Send SECRET alone (SECRET <game> if you play "
	    "several)\nfrom the address you play from: a new one is mailed "
	    "there.\n\n");
	if (k < sizeof(body))
		snprintf(body + k, sizeof(body) - k, "%s", note);
	return referee_intake_reply(in, "reply", NULL, body);
}

static int
cmd_help(struct intake *in, struct store_game *g, struct battle *b)
{
	struct text t;
	char subj[128];
	int rc;

	text_init(&t, ANSWER_MAX);
	referee_commands_help_text(&t, g, b, in->side);
	text_add(&t, "\n");
	referee_deadline_note(in->r, g, b, in->side, &t);
	subject(in, "HELP", subj, sizeof(subj));
	rc = t.s == NULL ? err_set(in->e, ERR_INTERNAL, "out of memory") :
	    referee_intake_reply(in, "reply", subj, t.s);
	text_free(&t);
	return rc;
}

/* How many of side's players have orders stored for step, of how many. */
static int
players_with_orders(struct intake *in, int64_t game, int step, int side,
    int *with, int *of)
{
	int64_t v = 0, p = 0;

	if (store_orders_players(in->r->st, game, step, side, &v, in->e) != 0 ||
	    store_players_count(in->r->st, game, side, &p, in->e) != 0)
		return -1;
	*with = (int)v;
	*of = (int)p;
	return 0;
}

static int
cmd_status(struct intake *in, struct store_game *g, struct battle *b)
{
	struct text t;
	char clock[16], *result = NULL;
	int s, rc = -1, step, turn, n, of;

	text_init(&t, ANSWER_MAX);
	text_add(&t, "Game %s: %s (ruleset %s).\n", g->name, b->title,
	    g->ruleset);
	if (g->status == GAME_FINISHED) {
		if (store_game_result(in->r->st, g->id, &result, in->e) < 0)
			goto out;
		text_add(&t, "The battle is over%s%s.\n", result ? ": " : "",
		    result ? result : "");
	} else {
		int ps = battle_step_side(b, g->step);

		report_clock(b, battle_step_turn(b, g->step), clock, sizeof(clock));
		text_add(&t, "Open phase: turn %d of %d (%s), %s.\n",
		    battle_step_turn(b, g->step), b->turns, clock, ps >= 0 ?
		    b->sides[ps].name : "both sides at once");
		{
			struct store_clock c;

			if (store_game_clock(in->r->st, g->id, &c, in->e) != 0)
				goto out;
			if (c.paused) {
				text_add(&t, "The game is paused: no phase is played and no "
				    "deadline runs until it resumes.\n");
			} else if (c.deadline > 0) {
				char when[80];

				referee_clock_format(in->r, g->id, c.deadline,
				    when, sizeof(when));
				text_add(&t, "Deadline: %s (the phase may be played sooner, "
				    "once every\norder is in).\n", when);
			} else {
				text_add(&t, "Deadline: none is set; the operator plays each "
				    "phase.\n");
			}
		}
		text_add(&t, "\nOrders stored (whether, never what):\n");
		for (s = 0; s < b->nsides; s++) {
			next_phase(g, b, s, 0, &step, &turn);
			if (step < 0)
				continue;
			if (players_with_orders(in, g->id, step, s, &n, &of) != 0)
				goto out;
			if (of > 1)
				text_add(&t, "  %-14s turn %d: orders stored from %d of "
				    "its %d players%s\n", b->sides[s].id, turn, n, of,
				    s == in->side ? " (your side)" : "");
			else
				text_add(&t, "  %-14s turn %d: %s%s\n", b->sides[s].id,
				    turn, n > 0 ? "orders stored" : "no orders yet",
				    s == in->side ? " (your side)" : "");
		}
		{
			int64_t waiting = 0;

			if (store_players_waiting(in->r->st, g->id, g->step,
			    &waiting, in->e) != 0)
				goto out;
			if (waiting > 0)
				text_add(&t, "\nA player has asked for the full time to "
				    "the deadline (WAIT).\n");
		}
	}
	rc = answer(in, "STATUS", t.s);
out:
	free(result);
	text_free(&t);
	return rc;
}

static int
cmd_orders(struct intake *in, struct store_game *g, struct battle *b,
    int want_turn)
{
	struct text t;
	char clock[16], *text = NULL;
	int step, turn, count = 0, rc = -1;

	text_init(&t, ANSWER_MAX);
	next_phase(g, b, in->side, want_turn, &step, &turn);
	if (step < 0 || g->status == GAME_FINISHED) {
		text_add(&t, "There is no phase of yours still to play in game "
		    "%s.\n", g->name);
	} else {
		if (store_orders_text(in->r->st, g->id, step, in->side,
		    in->player_id, &text, &count, in->e) != 0)
			goto out;
		report_clock(b, turn, clock, sizeof(clock));
		if (count == 0)
			text_add(&t, "No orders of yours are stored for %s, turn %d "
			    "(%s). If none come, your\nstanding orders are played "
			    "(below), and units without one hold.\n",
			    b->sides[in->side].name, turn, clock);
		else
			text_add(&t, "The orders stored for %s, turn %d (%s), as they "
			    "will be played:\n\n%s", b->sides[in->side].name, turn,
			    clock, text);
	}
	{
		char *st = NULL;
		int sc = 0;

		if (store_standing_text(in->r->st, g->id, in->player_id, &st, &sc,
		    in->e) != 0)
			goto out;
		if (sc > 0)
			text_add(&t, "\nYour standing orders, played for any phase "
			    "you send no orders for:\n\n%s", st);
		else
			text_add(&t, "\nYou have no standing orders (lines starting "
			    "STANDING: set them).\n");
		free(st);
	}
	rc = answer(in, "ORDERS", t.s);
out:
	free(text);
	text_free(&t);
	return rc;
}

/* Sends one stored report mail again; 0, or -1 on a store error. */
/* Mail id, a report, sent again to the player as a reply: the text kept
 * of it (once delivered its other bytes are gone), else its body read
 * from the bytes still queued. */
static int
resend_one(struct intake *in, int64_t id)
{
	struct mail_msg *m = NULL;
	struct text t;
	struct err pe;
	char subj[400], *raw = NULL, *kept = NULL, *sub = NULL;
	size_t len = 0;
	const char *body = NULL;
	int rc = -1, got;

	err_clear(&pe);
	if (store_outbox_text(in->r->st, id, &kept, in->e) < 0 ||
	    store_outbox_subject(in->r->st, id, &sub, in->e) < 0)
		goto out;
	if (kept != NULL) {
		body = kept;
	} else {
		got = store_outbox_raw(in->r->st, id, &raw, &len, in->e);
		if (got < 0)
			goto out;
		if (got == 0 || mail_parse(raw, len, &m, &pe) != 0) {
			rc = 0;
			goto out;
		}
		body = m->body;
	}
	text_init(&t, ANSWER_MAX * 4);
	text_add(&t, "Your last report, sent again as you asked:\n\n%s", body);
	snprintf(subj, sizeof(subj), "%s (again)", sub ? sub :
	    "Your last report");
	rc = t.s == NULL ? err_set(in->e, ERR_TEMP, "out of memory") :
	    referee_intake_reply(in, "reply", subj, t.s);
	text_free(&t);
out:
	mail_msg_free(m);
	free(raw);
	free(kept);
	free(sub);
	return rc;
}

static int
cmd_resend(struct intake *in, struct store_game *g)
{
	char *last = NULL, subj[400];
	int64_t id = 0;
	int rc = -1, got, parts = 1, k;
	const char *p;

	got = store_outbox_last_report(in->r->st, g->id, in->registered, NULL,
	    &id, in->e);
	if (got == 1)
		got = store_outbox_subject(in->r->st, id, &last, in->e);
	if (got < 0)
		goto out;
	if (got == 0) {
		char body[300];

		snprintf(body, sizeof(body), "No turn report has been sent to you "
		    "in game %s yet: the first comes when\nthe first phase has "
		    "been played.\n", g->name);
		rc = answer(in, "RESEND", body);
		goto out;
	}
	/* A report in parts: every part again, in order. */
	p = strstr(last, " (part ");
	if (p != NULL && sscanf(p, " (part %*d of %d)", &parts) == 1 &&
	    parts > 1 && parts < 1000) {
		size_t base = (size_t)(p - last);

		for (k = 1; k <= parts; k++) {
			snprintf(subj, sizeof(subj), "%.*s (part %d of %d)",
			    (int)base, last, k, parts);
			got = store_outbox_last_report(in->r->st, g->id,
			    in->registered, subj, &id, in->e);
			if (got < 0 || (got == 1 && resend_one(in, id) != 0))
				goto out;
		}
		rc = 0;
		goto out;
	}
	rc = resend_one(in, id);
out:
	free(last);
	return rc;
}

static int
cmd_press(struct intake *in, struct store_game *g, struct battle *b,
    const struct orders_cmd *c)
{
	struct store_player pl[MAX_PLAYERS];
	struct text t;
	char subj[128], on[16];
	int to = -1, n, i, sent = 0, rc = -1;

	text_init(&t, ANSWER_MAX);
	subject(in, "PRESS", subj, sizeof(subj));
	if (referee_setting_get(in->r, g->id, "press", on, sizeof(on),
	    in->e) != 0)
		goto out;
	if (strcasecmp(on, "off") == 0) {
		text_add(&t, "Press is off in game %s: the operator has chosen "
		    "that players do not\nexchange messages through the server. "
		    "Your message was not passed on.\n", g->name);
		rc = referee_intake_reply(in, "reply", subj, t.s);
		goto out;
	}
	if (strcasecmp(c->arg, "all") != 0) {
		to = battle_side(b, c->arg);
		if (to < 0) {
			text_add(&t, "PRESS TO %s: game %s has no side called that; "
			    "its sides are", c->arg, g->name);
			for (i = 0; i < b->nsides; i++)
				text_add(&t, "%s %s", i ? "," : "", b->sides[i].id);
			text_add(&t, ", or write PRESS TO all.\nYour message was not "
			    "passed on.\n");
			rc = referee_intake_reply(in, "reply", subj, t.s);
			goto out;
		}
	}
	if (c->text[0] == '\0') {
		text_add(&t, "PRESS TO %s has no message after it: write it on the "
		    "same line,\nfor example PRESS TO %s \"Sir, I await your "
		    "reply.\"\n", c->arg, c->arg);
		rc = referee_intake_reply(in, "reply", subj, t.s);
		goto out;
	}
	n = store_players(in->r->st, g->id, to, pl, MAX_PLAYERS, in->e);
	if (n < 0)
		goto out;
	{
		struct text m;
		char psubj[200];

		text_init(&m, ANSWER_MAX);
		text_add(&m, "A message from %s (side %s), game %s:\n\n%s\n\n"
		    "(Passed on by the game server. To answer, send a mail with your "
		    "usual first\nline, GAME ... PASSWORD ..., and then the line "
		    "PRESS TO %s \"your answer\".)\n",
		    b->sides[in->side].name, b->sides[in->side].id, g->name,
		    c->text, b->sides[in->side].id);
		snprintf(psubj, sizeof(psubj), "[%s] Press from %s", g->name,
		    b->sides[in->side].id);
		for (i = 0; i < n; i++) {
			if (pl[i].id == in->player_id ||
			    (to < 0 && pl[i].side == in->side))
				continue;
			if (referee_queue_mail(in->r, g->id, g->name,
			    pl[i].email, psubj,
			    "press", NULL, m.s, in->e) != 0) {
				text_free(&m);
				goto out;
			}
			in->replies++;
			sent++;
		}
		text_free(&m);
	}
	text_add(&t, "Your message was passed on to %s (%d player%s), signed "
	    "as from %s.\n", to < 0 ? "every other side" : b->sides[to].name,
	    sent, sent == 1 ? "" : "s", b->sides[in->side].name);
	rc = referee_intake_reply(in, "reply", subj, t.s);
out:
	text_free(&t);
	return rc;
}

/* QUESTION (or UMPIRE): the rest of the mail goes to the operator, with
 * the game, side and sender, its secrets blanked, and Reply-To the
 * player, so the answer comes from a person.  Where no operator is set,
 * the player is told so. */
static int
cmd_question(struct intake *in, struct store_game *g, struct battle *b,
    const struct orders_cmd *c)
{
	struct mail_extra x;
	struct text m;
	char subj[128], op[300], body[800], q[ORDERS_PRESS_MAX];
	int rc = -1;

	subject(in, orders_cmd_word(c->kind), subj, sizeof(subj));
	if (referee_setting_get(in->r, g->id, "operator", op, sizeof(op),
	    in->e) != 0)
		return -1;
	if (op[0] == '\0') {
		snprintf(body, sizeof(body), "No operator address is set for game "
		    "%s, so your question could not be\npassed on to a person. "
		    "This address is read by a program only; ask the\nperson who "
		    "runs the game directly.\n", g->name);
		return referee_intake_reply(in, "reply", subj, body);
	}
	if (c->text[0] == '\0') {
		snprintf(body, sizeof(body), "%s has no question after it: write "
		    "it after the word, on the same line\nor on the lines below, "
		    "for example\n  QUESTION: can my riflemen fire from the "
		    "wood?\nNothing was passed on.\n", orders_cmd_word(c->kind));
		return referee_intake_reply(in, "reply", subj, body);
	}
	/* The player's secret (and any word after PASSWORD) never leaves. */
	snprintf(q, sizeof(q), "%s", c->text);
	referee_redact(q, strlen(q), in->secret);
	text_init(&m, ANSWER_MAX);
	text_add(&m, "A question from a player of game %s, passed on by "
	    "despatch.\n\n  Game:   %s (%s)\n  Side:   %s (%s)\n  From:   "
	    "%s\n\nReply to this mail to answer the player directly (its "
	    "Reply-To is theirs).\n\n----- the question -----\n%s\n"
	    "----- end -----\n", g->name, g->name, b->title,
	    b->sides[in->side].id, b->sides[in->side].name, in->registered, q);
	memset(&x, 0, sizeof(x));
	x.reply_to = in->registered;
	{
		char osubj[200];

		snprintf(osubj, sizeof(osubj), "[%s] Question from %s", g->name,
		    b->sides[in->side].id);
		if (referee_queue_mail_x(in->r, g->id, g->name, op, osubj,
		    "question", NULL, m.s, &x, 1, in->e) != 0)
			goto out;
	}
	in->replies++;
	snprintf(body, sizeof(body), "Your question was passed on to the "
	    "operator of game %s, %s, with\nyour side and address, so the "
	    "answer comes to you from them. Your secret\nwas blanked out of "
	    "it.\n", g->name, op);
	rc = referee_intake_reply(in, "reply", subj, body);
out:
	text_free(&m);
	return rc;
}

static int
cmd_wait(struct intake *in, struct store_game *g, struct battle *b, int wait)
{
	struct play_forecast f;
	char body[900], when[160];
	int step, turn;
	int64_t now = referee_now(in->r);

	if (store_player_wait(in->r->st, in->player_id, wait ? g->step : 0,
	    in->e) != 0)
		return -1;
	if (wait) {
		snprintf(body, sizeof(body), "Noted: the open phase of game %s will "
		    "not be played early, even when every\norder is in; it waits "
		    "for its deadline. Send READY to withdraw this.\n", g->name);
		return answer(in, "WAIT", body);
	}
	/* READY: the player's set for their next phase is in as it stands
	 * (and any WAIT of theirs withdrawn). */
	next_phase(g, b, in->side, 0, &step, &turn);
	if (step > 0 && store_order_state_ready(in->r->st, g->id, step,
	    in->player_id, in->e) != 0)
		return -1;
	if (step != g->step || referee_forecast(in->r, g, b, now, &f,
	    in->e) != 0) {
		if (in->e->kind == ERR_TEMP)
			return -1;
		snprintf(body, sizeof(body), "Noted: your orders for your next "
		    "phase of game %s count as complete as\nthey stand, and you "
		    "no longer ask for the full time.\n", g->name);
	} else if (f.at >= 0 && f.at <= now) {
		snprintf(body, sizeof(body), "Noted: your orders for the open phase "
		    "of game %s count as complete\nas they stand, and every "
		    "player owing orders is in: the phase will be\nplayed within "
		    "the minute.\n", g->name);
	} else if (f.at > now) {
		referee_clock_when(in->r, g->id, f.at, now, when, sizeof(when));
		snprintf(body, sizeof(body), "Noted: your orders for the open phase "
		    "of game %s count as complete\nas they stand. The phase will "
		    "be played at\n  %s\nunless orders change; READY from every "
		    "player still owing plays it now.\n", g->name, when);
	} else {
		snprintf(body, sizeof(body), "Noted: your orders for the open phase "
		    "of game %s count as complete\nas they stand. The phase "
		    "still waits for %d of the %d player%s who owe%s orders%s.\n",
		    g->name, f.players - f.in, f.players, f.players == 1 ? "" : "s",
		    f.players == 1 ? "s" : "",
		    f.waiting ? " (and a WAIT)" : f.fixed ? " (and this game "
		    "plays at its deadline)" : "");
	}
	return answer(in, "READY", body);
}

/* The code that confirms a player's CONCEDE: a keyed hash of the game and
 * the player, so only a mail that saw our answer can give it. */
static int
concede_code(struct intake *in, int64_t game, char out[10])
{
	unsigned char key[32], h[8];
	char msg[64], hex[17];

	if (referee_server_key(in->r, "concede", key, in->e) != 0)
		return -1;
	snprintf(msg, sizeof(msg), "concede/%lld/%lld", (long long)game,
	    (long long)in->player_id);
	crypto_generichash(h, sizeof(h), (const unsigned char *)msg,
	    strlen(msg), key, sizeof(key));
	sodium_memzero(key, sizeof(key));
	ledger_hex(h, 4, hex);
	snprintf(out, 10, "%.4s-%.4s", hex, hex + 4);
	return 0;
}

static int
cmd_concede(struct intake *in, struct store_game *g, struct battle *b,
    const struct orders_cmd *c)
{
	char code[10], subj[160], body[1200], result[300];

	subject(in, "CONCEDE", subj, sizeof(subj));
	if (g->status != GAME_RUNNING) {
		snprintf(body, sizeof(body), "Game %s is not being played, so there "
		    "is nothing to concede.\n", g->name);
		return referee_intake_reply(in, "reply", subj, body);
	}
	if (concede_code(in, g->id, code) != 0)
		return -1;
	if (c->arg[0] == '\0' || strcasecmp(c->arg, code) != 0) {
		snprintf(body, sizeof(body), "%sTo concede the battle of game %s "
		    "for %s, send a mail with your\nusual first line and then the "
		    "line\n\n  CONCEDE %s\n\nThe battle then ends at once with "
		    "your side's concession, and every player\nis told. Nothing "
		    "has changed yet.\n", c->arg[0] ? "That code is not the one "
		    "this server gave you.\n\n" : "", g->name,
		    b->sides[in->side].name, code);
		return referee_intake_reply(in, "reply", subj, body);
	}
	snprintf(result, sizeof(result), "%s conceded on turn %d",
	    b->sides[in->side].name, battle_step_turn(b, g->step));
	snprintf(subj, sizeof(subj), "[%s] The battle is over: %s conceded",
	    g->name, b->sides[in->side].id);
	return referee_battle_end(in, g, b, "concede", in->player_id, result,
	    subj);
}

/* Contract (internal.h). */
int
referee_battle_end(struct intake *in, struct store_game *g,
    const struct battle *b, const char *act, int64_t player,
    const char *result, const char *subj)
{
	struct store_player pl[MAX_PLAYERS];
	int n, i;

	/* The end is a record too: an archive of a battle ended early is
	 * whole without the steps never played. */
	if (chain_act(in->r, g->id, act, player, NULL, 0, result,
	    in->e) != 0 ||
	    store_game_set_result(in->r->st, g->id, result, in->e) != 0 ||
	    store_game_set_status(in->r->st, g->id, GAME_FINISHED, g->step,
	    referee_now(in->r), in->e) != 0 ||
	    /* The battle is over: observers get what was held back. */
	    store_outbox_release(in->r->st, g->id, g->step, 1, in->e) != 0)
		return -1;
	g->status = GAME_FINISHED;
	/* Its mail will be read no more: cut now, the space given back
	 * once this is committed. */
	if (store_messages_trim(in->r->st, g->id, g->step, referee_now(in->r),
	    in->e) != 0)
		return -1;
	in->r->vacuum_due = 1;
	n = store_players(in->r->st, g->id, -1, pl, MAX_PLAYERS, in->e);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct text t;
		int rc;

		text_init(&t, ANSWER_MAX);
		text_add(&t, "The battle of game %s (%s) is over: %s.\n\n"
		    "No more phases will be played. Where it ended:\n", g->name,
		    b->title, result);
		report_totals(&t, b);
		rc = referee_queue_mail(in->r, g->id, g->name, pl[i].email, subj,
		    "final",
		    NULL, t.s, in->e);
		text_free(&t);
		if (rc != 0)
			return -1;
		in->replies++;
	}
	return 0;
}

/* COMMIT <hash> on a mail without orders (or with orders for no phase):
 * the player's commitment for the open phase, so a player whose side has
 * no orders to give in it still adds a nonce to its dice. */
static int
cmd_commit(struct intake *in, struct store_game *g, const struct orders_cmd *c)
{
	char subj[128], body[700];
	unsigned char ch[32];
	int64_t closed = 0;
	int nonces = chain_nonces(in->r, g->id, in->e);

	if (nonces < 0 || store_game_closed(in->r->st, g->id, &closed, NULL,
	    in->e) != 0)
		return -1;
	if (in->committed)
		return 0;   /* kept with the mail's orders */
	subject(in, "COMMIT", subj, sizeof(subj));
	if (!nonces)
		snprintf(body, sizeof(body), "Game %s uses no nonces: the COMMIT "
		    "line was ignored.\n", g->name);
	else if (g->status != GAME_RUNNING)
		snprintf(body, sizeof(body), "Game %s is not being played: the "
		    "COMMIT line was ignored.\n", g->name);
	else if (closed == g->step)
		snprintf(body, sizeof(body), "The open phase of game %s is closed: "
		    "a commitment now would come\ntoo late. Send REVEAL <your "
		    "nonce> if you committed before.\n", g->name);
	else {
		if (ledger_unhex(c->text, ch, 32) != 0 ||
		    store_nonce_commit_set(in->r->st, g->id, g->step,
		    in->player_id, ch, in->e) != 0)
			return -1;
		snprintf(body, sizeof(body), "Your COMMIT for the open phase of game "
		    "%s is kept (it replaces any\nbefore). When the Close notice "
		    "comes, reveal your nonce: REVEAL <your nonce>.\n", g->name);
	}
	return referee_intake_reply(in, "reply", subj, body);
}

/* REVEAL <nonce>, in a game with nonces once a phase has closed: the
 * nonce must be the one the player's orders committed to. */
static int
cmd_reveal(struct intake *in, struct store_game *g, const struct orders_cmd *c)
{
	char subj[128], body[900];
	unsigned char commit[32];
	int got;
	int64_t closed = 0;
	int nonces = chain_nonces(in->r, g->id, in->e);
	unsigned char h[32];

	if (nonces < 0 || store_game_closed(in->r->st, g->id, &closed, NULL,
	    in->e) != 0)
		return -1;
	subject(in, "REVEAL", subj, sizeof(subj));
	if (!nonces) {
		snprintf(body, sizeof(body), "Game %s uses no nonces, so there is "
		    "nothing to reveal.\n", g->name);
		return referee_intake_reply(in, "reply", subj, body);
	}
	if (closed == 0 || closed != g->step) {
		snprintf(body, sizeof(body), "Nothing to reveal yet: the open phase "
		    "of game %s is not closed.\nReveal your nonce after the Close "
		    "notice, which comes when every order is\nin or the deadline "
		    "passes.\n", g->name);
		return referee_intake_reply(in, "reply", subj, body);
	}
	got = store_nonce_commit(in->r->st, g->id, g->step, in->player_id,
	    commit, in->e);
	if (got < 0)
		return -1;
	crypto_hash_sha256(h, (const unsigned char *)c->text, strlen(c->text));
	if (got == 0) {
		snprintf(body, sizeof(body), "You sent no COMMIT for the closed "
		    "phase of game %s, so there is\nno nonce of yours to reveal: "
		    "it counts as absent.\n", g->name);
	} else if (sodium_memcmp(h, commit, 32) != 0) {
		char want[65];

		ledger_hex(commit, 32, want);
		snprintf(body, sizeof(body), "That is not the nonce your orders "
		    "committed to: the SHA-256 of\n\"%.128s\" is not the\n%s\n"
		    "of your COMMIT. Check the nonce (every character counts, "
		    "spaces at its\nends do not) and send REVEAL again.\n", c->text,
		    want);
	} else {
		if (store_nonce_reveal_set(in->r->st, g->id, g->step,
		    in->player_id, c->text, in->e) != 0)
			return -1;
		snprintf(body, sizeof(body), "Your nonce is revealed and matches "
		    "your COMMIT. The phase is played\nwhen every nonce is in, or "
		    "when the time for them runs out.\n");
	}
	return referee_intake_reply(in, "reply", subj, body);
}

/* SET MAIL TEXT | HTML | FULL. */
static int
cmd_set(struct intake *in, struct store_game *g, const struct orders_cmd *c)
{
	char body[700];

	if (strcmp(c->arg, "password") == 0) {
		char secret[REFEREE_SECRET_MAX];
		int rc = referee_player_reset_by(in->r, g->name, in->registered,
		    NULL, 1, secret, in->e);

		sodium_memzero(secret, sizeof(secret));
		if (rc != 0)
			return -1;
		snprintf(body, sizeof(body), "A new secret for game %s, made by the "
		    "server, %s to your\nregistered address. The secret this mail "
		    "gave no longer works.\n", g->name, g->status == GAME_SETUP ?
		    "comes in your welcome when the game starts, sent" : "is mailed");
		return answer(in, "SET PASSWORD", body);
	}
	if (store_player_set_mail_format(in->r->st, in->player_id, c->text,
	    in->e) != 0)
		return -1;
	if (strcmp(c->text, "text") == 0)
		snprintf(body, sizeof(body), "Noted: your reports of game %s now "
		    "come as plain text only, with\nthe field drawn in letters. "
		    "SET MAIL HTML brings the map back into the mail.\n", g->name);
	else if (strcmp(c->text, "html") == 0)
		snprintf(body, sizeof(body), "Noted: your reports of game %s now "
		    "come with the map of your side's\npart of the field (your "
		    "forces and what you see) shown in the mail, and\nthe plain "
		    "text beside it for mail programs that show no HTML.\n",
		    g->name);
	else
		snprintf(body, sizeof(body), "Noted: your reports of game %s now "
		    "come with your part of the field\nshown in the mail, the "
		    "whole field's map attached as PNG and SVG (which\nyou can "
		    "zoom), and the report as JSON (its shape is in docs/json.md)"
		    "\nfor your own tools.\n", g->name);
	return answer(in, "SET MAIL", body);
}

void
referee_commands_unread(struct text *t, const struct orders_result *res)
{
	int i, n = 0;

	for (i = 0; i < res->nlines; i++) {
		const struct orders_line *l = &res->lines[i];

		if (l->status != ORDERS_ERROR)
			continue;
		if (n++ == 0)
			text_add(t, "These lines of your mail were not understood; "
			    "the commands read in it\nare answered in mails of their "
			    "own, and no orders were changed:\n");
		text_add(t, "  line %-3d %.120s\n           %.300s\n", l->line, l->raw,
		    l->text);
	}
	if (n > 0)
		text_add(t, "%s", referee_help_tail);
}

int
referee_commands_run(struct intake *in, struct store_game *g, struct battle *b,
    const struct orders_cmd *c, int turn)
{
	switch (c->kind) {
	case CMD_HELP:
		return cmd_help(in, g, b);
	case CMD_STATUS:
		return cmd_status(in, g, b);
	case CMD_ORDERS:
		return cmd_orders(in, g, b, turn);
	case CMD_RESEND:
		return cmd_resend(in, g);
	case CMD_PRESS:
		return cmd_press(in, g, b, c);
	case CMD_WAIT:
	case CMD_READY:
		return cmd_wait(in, g, b, c->kind == CMD_WAIT);
	case CMD_CONCEDE:
		return cmd_concede(in, g, b, c);
	case CMD_REVEAL:
		return cmd_reveal(in, g, c);
	case CMD_COMMIT:
		return cmd_commit(in, g, c);
	case CMD_SET:
		return cmd_set(in, g, c);
	case CMD_QUESTION:
	case CMD_UMPIRE:
		return cmd_question(in, g, b, c);
	case CMD_LIST:
		return referee_commands_list(in, c->arg);
	case CMD_JOIN:
		return referee_commands_join(in, c->arg, c->text);
	case CMD_DRAW:
		return referee_commands_draw(in, g, b, c->arg[0] != '\0');
	case CMD_HISTORY:
		return referee_commands_history(in, g, b, c);
	case CMD_SECRET:
		return referee_commands_secret(in, c->arg[0] ? c->arg : g->name);
	case CMD_ABSENT:
		return referee_commands_absent(in, g, b, c);
	default:
		return 0;
	}
}
