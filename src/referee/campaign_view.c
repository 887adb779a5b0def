/*
 * campaign_view.c - what is drawn or told of a campaign outside its
 * turns: the operational map for the operator (despatch campaign map),
 * and what a campaign battle will carry back, for its last report.
 * Both read the campaign as the store keeps it (referee_campaign_load).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "ledger/record.h"
#include "map/map.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

int
referee_campaign_map(struct referee *r, const char *name, const char *side,
    const char *path, struct err *e)
{
	struct store_campaign sc;
	struct campaign *c = NULL;
	char title[300], sub[300], date[64];
	int s = -1, rc = -1;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (referee_campaign_load(r, &sc, &c, e) != 0)
		goto out;
	if (side != NULL && (s = campaign_find_side(c, side)) < 0) {
		err_set(e, ERR_USER, "campaign \"%s\" has no side '%s'", name, side);
		goto out;
	}
	/* The day the map stands at: the last turn's once it is over. */
	campaign_date_long(c->start_day + (c->over && c->turn > 0 ? c->turn - 1 :
	    c->turn) / c->halves, date, sizeof(date));
	snprintf(title, sizeof(title), "%s (campaign %s)", c->title, sc.name);
	snprintf(sub, sizeof(sub), "%s, after turn %d%s%s", date, c->turn,
	    s >= 0 ? ": as " : "", s >= 0 ? c->sides[s].name : "");
	rc = campaign_map_write(c, s, title, sub, path, e);
out:
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

int
referee_campaign_carry_preview(struct referee *r, int64_t game,
    const struct battle *b, int played, int side, struct text *out,
    struct err *e)
{
	struct store_campaign sc;
	struct campaign *c = NULL;
	struct cp_turn *t = calloc(1, sizeof(*t));
	struct cp_carry *cr = calloc(1, sizeof(*cr));
	int64_t games[LEDGER_MAX_CBATTLES];
	char name[64];
	int k, n, i, cs, rc = -1;

	memset(&sc, 0, sizeof(sc));
	if (t == NULL || cr == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if ((k = store_game_campaign(r->st, game, name, e)) <= 0) {
		rc = k < 0 ? -1 : 0;
		goto out;
	}
	if (store_campaign_get(r->st, name, &sc, e) != 0)
		goto out;
	/* Carried back by the turn still open, from the state after its
	 * march: what its settle will do with this battle's end. */
	if (sc.pending == NULL) {
		rc = 0;
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0 ||
	    campaign_turn_read(sc.pending, sc.pending_len, t, e) != 0)
		goto out;
	n = store_campaign_battles(r->st, sc.id, t->turn, games,
	    LEDGER_MAX_CBATTLES, e);
	if (n < 0)
		goto out;
	for (i = 0; i < n && i < t->ncontacts && games[i] != game; i++)
		;
	cs = side >= 0 && side < b->nsides ? campaign_find_side(c,
	    b->sides[side].id) : -1;
	if (i == n || i >= t->ncontacts || cs < 0) {
		rc = 0;
		goto out;
	}
	if (campaign_carry(c, &t->contacts[i], b, played, CARRY_BY_RESULT, cr,
	    e) != 0)
		goto out;
	campaign_carry_report(c, cr, cs, 1, out);
	rc = 1;
out:
	if (t != NULL)
		campaign_turn_free(t);
	free(t);
	free(cr);
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}
