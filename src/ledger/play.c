/*
 * play.c - playing one step from what its record commits to.
 *
 * The referee and `despatch verify` both come here, so the code that
 * proves a battle is the code that played it: the order sets are put
 * together, read and counted one way, the dice set up one way, and the
 * ruleset's adjudicate is called from here alone (the deployment step,
 * which is every ruleset's, from here too).
 */
#include "ledger/play.h"

#include <stdlib.h>
#include <string.h>

#include "core/deploy.h"
#include "core/dice.h"
#include "ledger/ledger.h"
#include "orders/orders.h"

int
ledger_play_step(const struct ruleset *rs, struct orders_parser *op,
    struct battle *b, const struct play_in *in, struct events *ev,
    struct play_out *out, struct err *e)
{
	struct order_set *sets = NULL;
	struct orders_result *res = NULL;
	struct dice d;
	struct dice_script script;
	struct ledger_dice ld;
	struct events arr = { 0 };
	char *text = NULL;
	int nsets = 0, s, k, rc = -1, n0 = ev->n;

	memset(out, 0, sizeof(*out));
	out->side = -1;
	sets = calloc((size_t)(b->nsides > 0 ? b->nsides : 1), sizeof(*sets));
	res = malloc(sizeof(*res));
	if (sets == NULL || res == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	orders_parser_replay(op, 1);
	orders_parser_deploying(op, battle_step_deploys(b, in->step));
	for (s = 0; s < b->nsides; s++) {
		/* The side's orders: its seats' sets in seat order. */
		size_t len = 0;
		int count = 0;

		free(text);
		text = calloc(1, 1);
		if (text == NULL) {
			err_set(e, ERR_TEMP, "out of memory");
			goto out;
		}
		for (k = 0; k < in->nseats; k++) {
			const char *o = in->seats[k].orders, *p;
			size_t ol;
			char *nt;

			if (in->seats[k].side != s || o == NULL)
				continue;
			ol = strlen(o);
			nt = realloc(text, len + ol + 1);
			if (nt == NULL) {
				err_set(e, ERR_TEMP, "out of memory");
				goto out;
			}
			text = nt;
			memcpy(text + len, o, ol + 1);
			len += ol;
			for (p = o; *p; p++)
				count += *p == '\n';
		}
		if (count == 0)
			continue;
		orders_parse(op, b, s, text, 0, res);
		/* What was taken must be what is played: a set that no longer
		 * reads, line for line, is damage, not a hold. */
		if (res->nerrors > 0 || res->set.n != count) {
			out->fail = PLAY_ORDERS;
			out->side = s;
			err_set(e, ERR_DATA, "side %s's orders for step %d do not read "
			    "(%s)", b->sides[s].id, in->step, res->nerrors > 0 ?
			    res->lines[0].text : "a line is missing");
			goto out;
		}
		sets[nsets++] = res->set;
	}
	if (in->dice_seed != NULL) {
		ledger_dice_init(&ld, in->dice_seed);
		dice_init(&d, ledger_dice_next, &ld, ev);
	} else {
		script.v = in->script;
		script.n = in->nscript;
		script.pos = 0;
		dice_init(&d, dice_script_next, &script, ev);
	}
	/* The deployment and the reinforcements' arrival are the same for
	 * every ruleset, and roll none of the step's dice; the arrivals are
	 * told after the phase's first line (the ruleset's "Turn N, the X
	 * phase"). */
	if (battle_step_deploys(b, in->step) ?
	    battle_deploy_play(b, sets, nsets, b->first_minute, ev, e) != 0 :
	    battle_arrivals(b, in->step, &arr, e) != 0 ||
	    rs->adjudicate(b, in->step, sets, nsets, &d, ev, e) != 0) {
		out->fail = PLAY_RULES;
		goto out;
	}
	if (arr.n > 0) {
		int at = n0;

		while (at < ev->n && ev->v[at].kind != EV_PHASE)
			at++;
		if (events_insert(ev, at < ev->n ? at + 1 : n0, &arr) != 0) {
			err_set(e, ERR_TEMP, "out of memory telling the arrivals");
			out->fail = PLAY_RULES;
			goto out;
		}
	}
	if (in->dice_seed == NULL && in->script_all &&
	    dice_script_done(&script, e) != 0) {
		out->fail = PLAY_DICE;
		goto out;
	}
	out->rolls = (long)d.rolls;
	rc = 0;
out:
	orders_parser_replay(op, 0);
	orders_parser_deploying(op, 0);
	events_free(&arr);
	free(text);
	free(res);
	free(sets);
	return rc;
}
