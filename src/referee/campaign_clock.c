/*
 * campaign_clock.c - a campaign's turns on a clock, as a battle's phases
 * are on its own: the turn is marched once every side has sent its
 * orders and the settle time since the last of them has passed, or when
 * the turn's deadline passes (a side that sent nothing plays its standing
 * orders); it is settled as soon as the battles it opened are over.  The
 * times are the campaign's own settings (despatch campaign set NAME
 * deadline|settle), else the server's (despatch set --server ...), which
 * its battles take too.  Run by every tick (despatch tick, despatchd),
 * after the games, so a battle's last phase and the turn it ends are
 * played in the same tick.  A tick reads the store alone for a campaign
 * with nothing due; the campaign file is parsed only to play a turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "core/err.h"
#include "ledger/record.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

/* Contract (internal.h). */
int
referee_campaign_deadline(struct referee *r, const struct store_campaign *sc,
    int64_t *opened, int64_t *deadline, struct err *e)
{
	int64_t secs = 0;

	*opened = *deadline = 0;
	/* The turn opened with the campaign's last record. */
	if (referee_campaign_setting_secs(r, sc->id, "deadline", &secs,
	    e) != 0 || store_campaign_opened(r->st, sc->id, opened, e) != 0)
		return -1;
	if (secs > 0 && *opened > 0)
		*deadline = *opened + secs;
	return 0;
}

/* What a tick reads of a running campaign's open turn: when it opened
 * and is due (0: no deadline), and how many of its sides have sent
 * orders for it. */
struct cclock {
	int64_t opened, deadline;
	int sides, sent;
};

/* Is campaign sc (running) due at now: 1 to march, 2 to settle, 0 not,
 * -1 with e set.  *why says which, for the operator; *ck the turn's
 * clock (deadline 0 while the turn waits for its battles). */
static int
due(struct referee *r, const struct store_campaign *sc, int64_t now,
    struct cclock *ck, char *why, size_t size, struct err *e)
{
	struct store_cplayer pl[LEDGER_MAX_SEATS];
	int64_t games[LEDGER_MAX_CBATTLES], settle = 0, last = 0;
	int n, i, s;

	memset(ck, 0, sizeof(*ck));
	if (sc->pending != NULL) {
		/* The turn marched waits for its battles: settled once every
		 * one is over. */
		n = store_campaign_battles(r->st, sc->id, sc->turn + 1, games,
		    LEDGER_MAX_CBATTLES, e);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			char name[64];
			struct store_game g;
			int over;

			if (store_game_name_of(r->st, games[i], name, e) != 0 ||
			    store_game_get(r->st, name, &g, e) != 0)
				return -1;
			over = g.status == GAME_FINISHED;
			store_game_clear(&g);
			if (!over)
				return 0;
		}
		snprintf(why, size, "its battles are over");
		return 2;
	}
	/* Its sides are its players' (each has one before it starts): no
	 * campaign file is read for a tick with nothing due. */
	n = store_campaign_players(r->st, sc->id, pl, LEDGER_MAX_SEATS, e);
	if (n < 0 || referee_campaign_setting_secs(r, sc->id, "settle",
	    &settle, e) != 0 || referee_campaign_deadline(r, sc, &ck->opened,
	    &ck->deadline, e) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		int64_t at = 0;
		int k;

		for (s = 0; s < i && strcmp(pl[s].side, pl[i].side) != 0; s++)
			;
		if (s < i)
			continue;    /* a side already looked at */
		ck->sides++;
		k = store_campaign_orders_at(r->st, sc->id, sc->turn + 1,
		    pl[i].side, &at, e);
		if (k < 0)
			return -1;
		if (k > 0) {
			ck->sent++;
			if (at > last)
				last = at;
		}
	}
	if (ck->sent == ck->sides && now >= last + settle) {
		snprintf(why, size, "every side's orders are in");
		return 1;
	}
	if (ck->deadline > 0 && now >= ck->deadline) {
		snprintf(why, size, "its deadline passed, %d of %d sides' "
		    "orders in", ck->sent, ck->sides);
		return 1;
	}
	return 0;
}

int
referee_campaign_tick(struct referee *r, int64_t now, struct tick_result *res,
    struct err *e)
{
	char *names = store_campaign_names(r->st), *name, *save = NULL;
	int rc = 0;

	for (name = names ? strtok_r(names, "\n", &save) : NULL;
	    name != NULL && rc == 0; name = strtok_r(NULL, "\n", &save)) {
		struct store_campaign sc;
		struct cclock ck;
		char why[200] = "";
		struct err te;
		FILE *sink;
		int k;

		memset(&ck, 0, sizeof(ck));
		if (store_campaign_get(r->st, name, &sc, e) != 0) {
			rc = -1;
			break;
		}
		k = sc.status == GAME_RUNNING ? due(r, &sc, now, &ck, why,
		    sizeof(why), e) : 0;
		store_campaign_clear(&sc);
		if (k < 0) {
			rc = -1;
			break;
		}
		if (k == 0)
			continue;
		sink = fopen("/dev/null", "w");
		if (sink == NULL) {
			rc = err_set(e, ERR_TEMP, "cannot open /dev/null");
			break;
		}
		err_clear(&te);
		if (referee_campaign_turn(r, name, sink, &te) == 0) {
			res->campaign_turns++;
			snprintf(res->last, sizeof(res->last), "campaign %s: turn %s "
			    "(%s)", name, k == 1 ? "marched" : "settled", why);
		} else if (te.kind == ERR_TEMP) {
			*e = te;
			rc = -1;
		} else {
			res->errors++;
			snprintf(res->last, sizeof(res->last), "campaign %s: %.200s",
			    name, te.msg);
			utf8_trim_tail(res->last);
		}
		fclose(sink);
	}
	free(names);
	return rc;
}
