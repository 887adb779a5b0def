/*
 * campaign_players.c - a campaign's players: added by side, each
 * commanding the side's every column or those the operator lists
 * (`campaign player add ... --columns`), and seated in its battles with
 * the brigades of those columns.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "campaign/campaign.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "referee/internal.h"
#include "store/store.h"

#define MAX_CPLAYERS LEDGER_MAX_SEATS

/* 1 if name is one of list's (names joined by ", "), case ignored. */
static int
in_list(const char *list, const char *name)
{
	size_t nl = strlen(name);
	const char *p = list;

	while (*p) {
		const char *end = strstr(p, ", ");
		size_t l = end != NULL ? (size_t)(end - p) : strlen(p);

		if (l == nl && strncasecmp(p, name, nl) == 0)
			return 1;
		p += l + (end != NULL ? 2 : 0);
	}
	return 0;
}

int
referee_cplayer_commands(const struct campaign *c,
    const struct store_cplayer *pl, int np, int p, int k)
{
	int i;

	if (pl[p].columns[0] == '\0' || in_list(pl[p].columns,
	    c->columns[k].name))
		return 1;
	for (i = 0; i < np; i++)
		if (strcmp(pl[i].side, pl[p].side) == 0 &&
		    in_list(pl[i].columns, c->columns[k].name))
			return 0;
	return 1;   /* nobody's: made by DETACH, or given to none */
}

/* The columns list (names or unique beginnings of side s's columns, by
 * ',') as their names joined by ", " into out; 0, or -1 with e (ERR_USER)
 * naming what is not one. */
static int
columns_list(const struct campaign *c, int s, const char *list, char *out,
    size_t size, struct err *e)
{
	const char *p = list;

	out[0] = '\0';
	while (p != NULL && *p) {
		char name[BATTLE_NAME_MAX];
		const char *end = strchr(p, ',');
		size_t l = end != NULL ? (size_t)(end - p) : strlen(p);
		int k, hit = -1, hits = 0;

		while (l > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			l--;
		}
		while (l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'))
			l--;
		snprintf(name, sizeof(name), "%.*s", (int)l, p);
		p = end != NULL ? end + 1 : NULL;
		if (name[0] == '\0')
			continue;
		for (k = 0; k < c->ncolumns; k++)
			if (c->columns[k].side == s && strncasecmp(
			    c->columns[k].name, name, strlen(name)) == 0) {
				if (strcasecmp(c->columns[k].name, name) == 0) {
					hit = k;
					hits = 1;
					break;
				}
				hit = k;
				hits++;
			}
		if (hits != 1) {
			char all[512] = "";

			for (k = 0; k < c->ncolumns; k++)
				if (c->columns[k].side == s)
					snprintf(all + strlen(all), sizeof(all) -
					    strlen(all), "%s\"%s\"", all[0] ? ", " : "",
					    c->columns[k].name);
			return err_set(e, ERR_USER, "side %s has %s column \"%s\" "
			    "(its columns: %s)", c->sides[s].id, hits ? "more than "
			    "one" : "no", name, all);
		}
		if (in_list(out, c->columns[hit].name))
			continue;
		if (strlen(out) + strlen(c->columns[hit].name) + 3 > size)
			return err_set(e, ERR_USER, "too many columns for one "
			    "player");
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
		    out[0] ? ", " : "", c->columns[hit].name);
	}
	return 0;
}

int
referee_campaign_player_add(struct referee *r, const char *name,
    const char *side, const char *email, const char *columns,
    const char *password, char *secret_out, struct err *e)
{
	struct store_campaign sc;
	struct store_cplayer pl[MAX_CPLAYERS];
	struct campaign *c = NULL;
	unsigned char hash[32];
	char cols[sizeof(pl[0].columns)];
	int n, i, rc = -1;

	if (store_campaign_get(r->st, name, &sc, e) != 0)
		return -1;
	if (sc.status != GAME_SETUP) {
		err_set(e, ERR_USER, "campaign \"%s\" has started: its players are "
		    "fixed", name);
		goto out;
	}
	if (referee_campaign_load(r, &sc, &c, e) != 0)
		goto out;
	if (campaign_find_side(c, side) < 0) {
		char list[256] = "";

		for (i = 0; i < c->nsides; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
			    "%s%s", i ? ", " : "", c->sides[i].id);
		err_set(e, ERR_USER, "campaign \"%s\" has no side '%s' (its sides: "
		    "%s)", name, side, list);
		goto out;
	}
	if (!referee_valid_email(email)) {
		err_set(e, ERR_USER, "\"%s\" is not an email address", email);
		goto out;
	}
	if (columns_list(c, campaign_find_side(c, side), columns, cols,
	    sizeof(cols), e) != 0)
		goto out;
	n = store_campaign_players(r->st, sc.id, pl, MAX_CPLAYERS, e);
	if (n < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (strcasecmp(pl[i].email, email) == 0) {
			err_set(e, ERR_USER, "%s already plays in campaign \"%s\"",
			    email, name);
			goto out;
		}
	if (n == MAX_CPLAYERS) {
		err_set(e, ERR_USER, "campaign \"%s\" has %d players, the most it "
		    "may have", name, MAX_CPLAYERS);
		goto out;
	}
	if (password != NULL)
		snprintf(secret_out, REFEREE_SECRET_MAX, "%s", password);
	else
		referee_make_secret(secret_out);
	if (referee_secret_hash(r, secret_out, hash, e) != 0 ||
	    store_campaign_player_add(r->st, sc.id, c->sides[campaign_find_side(c,
	    side)].id, email, hash, cols, referee_now(r), e) != 0)
		goto out;
	rc = 0;
out:
	campaign_free(c);
	store_campaign_clear(&sc);
	return rc;
}

/* The brigade list (as `player add --brigades` takes it) of campaign
 * player k of pl in battle b, on its side s: "" (the whole side) for a
 * player of every column; else the brigades here of the columns they
 * command, and "army" when the army here is one of theirs.  How many
 * brigades (or the army) that is, -1 meaning the whole side. */
int
referee_campaign_seat(const struct campaign *c, const struct battle *b, int s,
    const struct store_cplayer *pl, int np, int k, char *out, size_t size)
{
	int cb, a, n = 0;

	out[0] = '\0';
	if (pl[k].columns[0] == '\0')
		return -1;
	for (cb = 0; cb < c->nbrigades; cb++) {
		int col = c->brigades[cb].column;

		if (col < 0 || c->columns[col].side != campaign_find_side(c,
		    pl[k].side) || battle_find_brigade(b, c->brigades[cb].name) < 0 ||
		    !referee_cplayer_commands(c, pl, np, k, col))
			continue;
		if (strlen(out) + strlen(c->brigades[cb].name) + 3 >= size)
			break;
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
		    n++ ? ", " : "", c->brigades[cb].name);
	}
	for (a = 0; a < b->ncommanders; a++) {
		int col;

		if (b->commanders[a].side != s || b->commanders[a].rank != RANK_ARMY)
			continue;
		for (col = 0; col < c->ncolumns; col++)
			if (strcmp(c->columns[col].commander,
			    b->commanders[a].name) == 0 &&
			    referee_cplayer_commands(c, pl, np, k, col) &&
			    strlen(out) + 8 < size) {
				snprintf(out + strlen(out), size - strlen(out), "%sarmy",
				    n++ ? ", " : "");
				break;
			}
	}
	return n;
}
