/*
 * sqlite_cards.c - the Fog of War cards of a battle in the store: where each
 * card is and the effects in play (db/017_cards.sql).  Saved and loaded
 * with the rest of the battle state by store_battle_save/load.
 */
#include "store/sqlite.h"

#include <string.h>

#include "core/ruleset.h"

int
store_cards_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e)
{
	const struct cards *c = &b->cards;
	int i;

	if (store_exec(s, e, "DELETE FROM cards WHERE game_id = ?", "i", game) ||
	    store_exec(s, e, "DELETE FROM card_effects WHERE game_id = ?", "i",
	    game))
		return -1;
	for (i = 0; i < c->n; i++)
		if (store_exec(s, e, "INSERT INTO cards (game_id, idx, place) "
		    "VALUES (?, ?, ?)", "iII", game, i, (int)c->at[i]))
			return -1;
	for (i = 0; i < c->neffects; i++) {
		const struct card_effect *x = &c->effects[i];

		if (store_exec(s, e, "INSERT INTO card_effects (game_id, seq, card, "
		    "side_idx, unit_idx, commander, x, y, value, until_step, spent) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "iIIIIIIIIII", game,
		    i, x->card, x->side, x->unit, x->commander, x->at.x, x->at.y,
		    x->value, x->until, x->spent))
			return -1;
	}
	return 0;
}

/* 1 if the stored cards match the scenario's deck and forces, 0 if not
 * (the caller says the state is damaged), -1 with e set on error. */
int
store_cards_load(struct store *s, int64_t game, struct battle *b,
    struct err *e)
{
	struct cards *c = &b->cards;
	const struct ruleset *rs = ruleset_find(b->ruleset);
	sqlite3_stmt *st = NULL;
	int n = 0, ok = 1, k;

	if (store_prepare(s, e, &st, "SELECT idx, place FROM cards WHERE "
	    "game_id = ? ORDER BY idx", "i", game) != 0)
		return -1;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		int i = sqlite3_column_int(st, 0), at = sqlite3_column_int(st, 1);

		if (i != n || i >= c->n || at < CARD_USED || at >= b->nsides)
			ok = 0;
		else
			c->at[n++] = (signed char)at;
	}
	store_stmt_release(s, st);
	st = NULL;
	/* A game stored before it had cards keeps the scenario's deal. */
	if (!ok || (n != 0 && n != c->n))
		return 0;
	if (store_prepare(s, e, &st, "SELECT card, side_idx, unit_idx, commander, "
	    "x, y, value, until_step, spent FROM card_effects WHERE game_id = ? "
	    "ORDER BY seq", "i", game) != 0)
		return -1;
	c->neffects = 0;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		struct card_effect *x;

		if (c->neffects == BATTLE_MAX_EFFECTS) {
			ok = 0;
			break;
		}
		x = &c->effects[c->neffects++];
		x->card = sqlite3_column_int(st, 0);
		x->side = sqlite3_column_int(st, 1);
		x->unit = sqlite3_column_int(st, 2);
		x->commander = sqlite3_column_int(st, 3);
		x->at.x = sqlite3_column_int(st, 4);
		x->at.y = sqlite3_column_int(st, 5);
		x->value = sqlite3_column_int(st, 6);
		x->until = sqlite3_column_int(st, 7);
		x->spent = sqlite3_column_int(st, 8);
		if (x->side < 0 || x->side >= b->nsides || x->unit < -1 ||
		    x->unit >= b->nunits || x->commander < -1 ||
		    x->commander >= b->ncommanders || x->card < 0 ||
		    rs == NULL || x->card >= rs->ncards || x->value < 0 ||
		    x->until < 0 || x->spent < 0 || x->spent > 1)
			ok = 0;
	}
	store_stmt_release(s, st);
	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].out_until < 0 ||
		    b->commanders[k].out_removed < 0 ||
		    b->commanders[k].out_removed > 1)
			ok = 0;
	return ok;
}
