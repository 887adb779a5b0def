/*
 * draw.c - DRAW and DRAW WITHDRAW: a draw by agreement (docs/orders.md).
 *
 * A player's DRAW is a standing proposal until they withdraw it; each
 * proposal and each withdrawal is a ledger act of their seat
 * ("draw-offer", "draw-withdraw").  When every player of every side has a
 * proposal standing, the battle ends drawn with a "draw" act, which
 * verify accepts only after standing proposals of every seat
 * (ledger/check.c).  The proposals standing are kept beside the ledger,
 * as the game's "draw-offers" entry of the settings table (the players'
 * ids, comma-separated), written in the same transaction as the act.
 *
 * Workload: one call per DRAW mail; a game has at most MAX_PLAYERS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/chain.h"
#include "referee/internal.h"

#define DRAW_KEY "draw-offers"

/* Whether player id is in the list ("3,7,9"). */
static int
listed(const char *list, int64_t id)
{
	const char *p = list;

	while (p != NULL && *p) {
		if (strtoll(p, NULL, 10) == id)
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* list with id added (add) or taken out, into out. */
static void
relist(const char *list, int64_t id, int add, char *out, size_t size)
{
	const char *p = list;
	size_t k = 0;

	out[0] = '\0';
	while (p != NULL && *p) {
		long long v = strtoll(p, NULL, 10);

		if (v != id && v > 0 && k < size)
			k += (size_t)snprintf(out + k, size - k, "%s%lld", k ? "," :
			    "", v);
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	if (add && k < size)
		snprintf(out + k, size - k, "%s%lld", k ? "," : "", (long long)id);
}

int
referee_commands_draw(struct intake *in, struct store_game *g,
    const struct battle *b, int withdraw)
{
	struct store_player pl[MAX_PLAYERS];
	char subj[160], body[1600], *v = NULL, list[MAX_PLAYERS * 24];
	const char *me = b->sides[in->side].name;
	int n, i, standing = 0, rc = -1, got;

	snprintf(subj, sizeof(subj), "[%s] DRAW%s", g->name, withdraw ?
	    " WITHDRAW" : "");
	if (g->status != GAME_RUNNING) {
		snprintf(body, sizeof(body), "Game %s is not being played, so there "
		    "is no draw to propose.\n", g->name);
		return referee_intake_reply(in, "reply", subj, body);
	}
	if ((got = store_setting_get(in->r->st, g->id, DRAW_KEY, &v, NULL,
	    in->e)) < 0)
		return -1;
	if (listed(v, in->player_id) == !withdraw) {
		snprintf(body, sizeof(body), withdraw ? "You have no proposal of a "
		    "draw standing in game %s: nothing\nchanged.\n" : "Your "
		    "proposal of a draw in game %s stands already: nothing\n"
		    "changed. DRAW WITHDRAW takes it back.\n", g->name);
		free(v);
		return referee_intake_reply(in, "reply", subj, body);
	}
	relist(v, in->player_id, !withdraw, list, sizeof(list));
	free(v);
	v = NULL;
	if (chain_act(in->r, g->id, withdraw ? "draw-withdraw" : "draw-offer",
	    in->player_id, NULL, 0, NULL, in->e) != 0 ||
	    store_setting_set(in->r->st, g->id, DRAW_KEY, list, in->e) != 0)
		return -1;
	if ((n = store_players(in->r->st, g->id, -1, pl, MAX_PLAYERS,
	    in->e)) < 0)
		return -1;
	for (i = 0; i < n; i++)
		standing += listed(list, pl[i].id);
	if (!withdraw && standing == n) {
		char result[300], end[160];

		snprintf(result, sizeof(result), "drawn by agreement on turn %d",
		    battle_step_turn(b, g->step));
		snprintf(end, sizeof(end), "[%s] The battle is over: drawn by "
		    "agreement", g->name);
		if (store_setting_set(in->r->st, g->id, DRAW_KEY, "", in->e) != 0)
			return -1;
		return referee_battle_end(in, g, b, "draw", 0, result, end);
	}
	/* The others are told which side, never which address. */
	for (i = 0; i < n; i++) {
		char s2[200];

		if (pl[i].id == in->player_id)
			continue;
		snprintf(s2, sizeof(s2), "[%s] %s %s a draw", g->name, me,
		    withdraw ? "withdraws its proposal of" : "proposes");
		snprintf(body, sizeof(body), "A player of %s %s a draw in game "
		    "%s.\nProposals standing: %d of the game's %d players. The "
		    "battle ends drawn when\nevery player has one standing. %s\n",
		    me, withdraw ? "has withdrawn a proposal of" : "proposes",
		    g->name, standing, n, listed(list, pl[i].id) ? "Yours stands "
		    "(DRAW WITHDRAW takes it back)." : "To agree, send DRAW after "
		    "your usual first line.");
		if (referee_queue_mail(in->r, g->id, g->name, pl[i].email, s2,
		    "notice", NULL, body, in->e) != 0)
			goto out;
		in->replies++;
	}
	snprintf(body, sizeof(body), withdraw ? "Your proposal of a draw in game "
	    "%s is withdrawn, and the other\nplayers are told.\n"
	    "Proposals standing: %d of the game's %d players.\n" : "Your "
	    "proposal of a draw in game %s stands until you withdraw it (DRAW\n"
	    "WITHDRAW), and the other players are told. The battle ends drawn "
	    "when every\nplayer has one standing; the phases go on being played "
	    "meanwhile.\nProposals standing: %d of the game's %d players.\n",
	    g->name, standing, n);
	rc = referee_intake_reply(in, "reply", subj, body);
out:
	return rc;
}
