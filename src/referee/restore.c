/*
 * restore.c - what follows putting the store back from a backup
 * ('despatch restore'): every game's chain says so, and every player is
 * told what will be played again.
 *
 * The backup holds each game's ledger as it was then; the steps played
 * since are gone from the store, but players hold their heads from the
 * reports.  So each game's chain gets a restore act, signed, naming the
 * head it goes on from: a step played again after it is visibly a second
 * playing, and it is played with the same committed seed (the operator
 * cannot draw new dice by restoring, only be seen to have restored).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/ledger.h"
#include "referee/chain.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

static int
restored_one(struct referee *r, const char *name, const char *taken,
    int *done, struct err *e)
{
	struct store_game g;
	struct battle *b = NULL;
	unsigned char head[LEDGER_HASH];
	char hex[LEDGER_HASH * 2 + 1], text[300], subject[300], body[1600];
	int64_t seq = -1;
	int rc = -1;

	if (referee_game_begin(r, name, &g, e) != 0)
		return -1;
	if (chain_last(r, g.id, &seq, head, e) != 0)
		goto out;
	if (seq < 0 || g.status != GAME_RUNNING) {
		store_rollback(r->st);
		store_game_clear(&g);
		return 0;
	}
	ledger_hex(head, LEDGER_HASH, hex);
	snprintf(text, sizeof(text), "restored from the backup taken %s; the "
	    "chain goes on from head %s", taken, hex);
	if (chain_act(r, g.id, "restore", 0, NULL, 0, text, e) != 0)
		goto out;
	if (g.status == GAME_RUNNING) {
		int turn, side;

		if (store_battle_load(r->st, &g, &b, e) != 0)
			goto out;
		turn = battle_step_turn(b, g.step);
		side = battle_step_side(b, g.step);
		snprintf(subject, sizeof(subject), "[%s] The server was restored "
		    "from a backup", g.name);
		snprintf(body, sizeof(body), "The server's records were put back "
		    "from a backup taken\n%s.\n\nGame %s goes on from turn %d%s%s%s, "
		    "as it stood then.\nWhatever the server did for this game after "
		    "the backup is void:\n- a phase played since will be played "
		    "again, with the same committed\n  seed, so the same orders give "
		    "the same dice;\n- orders and commands you sent since were lost: "
		    "send your orders for\n  the open phase again;\n- mail the server "
		    "sent since may come again, with the same Message-ID.\n\nThe "
		    "game's ledger records the restore, going on from head\n  %s\n"
		    "A head from a report sent after the backup no longer belongs to "
		    "the\nchain.\n", taken, g.name, turn, side >= 0 ? ", the " : "",
		    side >= 0 ? b->sides[side].id : "", side >= 0 ? " phase" : "",
		    hex);
		if (referee_tell_all(r, &g, subject, body, e) != 0)
			goto out;
	}
	rc = 0;
out:
	battle_free(b);
	if (referee_game_end(r, &g, rc, e) != 0)
		return -1;
	(*done)++;
	return 0;
}

int
referee_restored(struct referee *r, const char *taken, int *games,
    struct err *e)
{
	char *names = store_game_names(r->st), *name, *save = NULL;
	int rc = 0;

	*games = 0;
	if (names == NULL)
		return err_set(e, ERR_TEMP, "cannot list the games");
	for (name = strtok_r(names, "\n", &save); name != NULL && rc == 0;
	    name = strtok_r(NULL, "\n", &save))
		rc = restored_one(r, name, taken, games, e);
	free(names);
	return rc;
}
