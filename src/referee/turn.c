/*
 * turn.c - adjudicating the open step of a game.
 *
 * Reads the state and the stored canonical orders, runs the ruleset with
 * the step's dice, and writes the new state, the events and a report per
 * player in one transaction.
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
#include "referee/internal.h"

/* A report mail's body at most: longer reports go in several mails. */
#define REPORT_PART_MAX (256u * 1024u)

/* --- turn ------------------------------------------------------------ */

/* The canonical orders side plays at step: each player's orders for the
 * step, or, from a player who sent none, that player's standing orders
 * (only in a phase the side plays).  *standing counts the players whose
 * standing orders were taken. */
static int
side_orders_text(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, int s, char **text, int *count,
    int *standing, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	int n, i, ps = battle_step_side(b, step);
	size_t len = 0;

	*text = calloc(1, 1);
	*count = 0;
	*standing = 0;
	if (*text == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	n = store_players(r->st, g->id, s, pl, MAX_PLAYERS, e);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *t = NULL, *nb;
		int c = 0;

		if (store_orders_text(r->st, g->id, step, s, pl[i].id, &t, &c,
		    e) != 0)
			return -1;
		if (c == 0 && (ps < 0 || ps == s)) {
			free(t);
			if (store_standing_text(r->st, g->id, pl[i].id, &t, &c,
			    e) != 0)
				return -1;
			*standing += c > 0;
		}
		nb = realloc(*text, len + strlen(t) + 1);
		if (nb == NULL) {
			free(t);
			return err_set(e, ERR_INTERNAL, "out of memory");
		}
		*text = nb;
		memcpy(*text + len, t, strlen(t) + 1);
		len += strlen(t);
		*count += c;
		free(t);
	}
	return 0;
}

/* Typed orders of every side for step, from the stored canonical text.
 * used_standing[s] says whether side s played standing orders. */
static int
load_orders(struct referee *r, const struct store_game *g,
    const struct ruleset *rs, const struct battle *b, int step,
    struct order_set *sets, int *nsets, int *used_standing, struct err *e)
{
	struct orders_parser *op = referee_parser(r, rs, e);
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

		if (side_orders_text(r, g, b, step, s, &text, &count,
		    &used_standing[s], e) != 0) {
			free(text);
			goto out;
		}
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
	return rc;
}

/* Queues a report, in several mails when it is long: each part ends at a
 * line, says which part it is, and all are queued in the same
 * transaction as the step. */
static int
queue_report(struct referee *r, const struct store_game *g, const char *to,
    const struct turn_result *tr, const struct side *sides, const char *clock,
    const char *body, struct err *e)
{
	char subject[300], **parts = NULL;
	int n = 0, k, rc = 0;

	if (report_split(body, REPORT_PART_MAX, &parts, &n) != 0)
		return err_set(e, ERR_TEMP, "out of memory splitting a report");
	for (k = 0; k < n && rc == 0; k++) {
		char *withhead = NULL;

		snprintf(subject, sizeof(subject), "[%s] Turn %d, %s phase (%s)%s",
		    g->name, tr->turn, tr->side >= 0 ? sides[tr->side].id : "all",
		    clock, tr->finished ? ": the battle is over" : "");
		if (n > 1) {
			size_t len = strlen(parts[k]) + 128;

			snprintf(subject + strlen(subject), sizeof(subject) -
			    strlen(subject), " (part %d of %d)", k + 1, n);
			withhead = malloc(len);
			if (withhead == NULL) {
				rc = err_set(e, ERR_TEMP, "out of memory");
				break;
			}
			snprintf(withhead, len, "(Part %d of %d of this report.)\n\n%s",
			    k + 1, n, parts[k]);
		}
		rc = queue_mail(r, g->id, g->name, to, subject, "report", NULL,
		    withhead ? withhead : parts[k], e);
		free(withhead);
	}
	for (k = 0; k < n; k++)
		free(parts[k]);
	free(parts);
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
	int used_standing[BATTLE_MAX_SIDES] = { 0 };

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
	if (load_orders(r, &g, rs, b, step, sets, &nsets, used_standing, e) != 0)
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
		char clock[16];
		struct report_orders ro;
		char *body;
		int k, t;

		/* What the report tells of the player's orders: whether this
		 * phase had any, and whether the next are stored already. */
		memset(&ro, 0, sizeof(ro));
		ro.sent = tr->side >= 0 && tr->side != pl[i].side ? -1 : 0;
		for (k = 0; k < nsets; k++)
			if (sets[k].side == pl[i].side && ro.sent == 0)
				ro.sent = 1;
		ro.standing = used_standing[pl[i].side];
		for (t = battle_step_turn(b, step); !tr->finished && t <= b->turns; t++)
			if (step_for(b, t, pl[i].side) > step) {
				int64_t n = 0;

				ro.next_turn = t;
				if (store_query_int(r->st, e, &n, "SELECT count(*) FROM "
				    "orders WHERE game_id = ? AND step = ? AND side_idx = ? "
				    "AND superseded = 0", "iII", g.id,
				    step_for(b, t, pl[i].side), pl[i].side) < 0)
					goto fail;
				ro.next_stored = (int)n;
				break;
			}
		body = report_step(b, g.name, step, pl[i].side, &ev, step + 1,
		    strcmp(g.visibility, "fog") != 0, &ro);

		if (body == NULL) {
			err_set(e, ERR_TEMP, "out of memory writing the report");
			goto fail;
		}
		report_clock(b, tr->turn, clock, sizeof(clock));
		if (queue_report(r, &g, pl[i].email, tr, b->sides, clock, body,
		    e) != 0) {
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
