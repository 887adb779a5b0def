/*
 * battles.c - a game's battle read once for a batch of mails, not once a
 * mail.
 *
 * Reading a battle parses the game's scenario and reads its rows: most of
 * what a mail costs once its map is drawn.  A daemon takes mail in
 * batches, often many for one game, and a reply's map reads the battle
 * again after the intake.  So while a batch (or one mail with its map)
 * is taken in, the referee keeps the last battle it read, keyed by the
 * game's id, its open step, its status and its scenario's text, and lends
 * each mail a copy of it.  The key is checked against the game as read
 * inside the mail's own transaction: only a game made or a step played
 * writes a battle (store_battle_save), and each makes a new scenario,
 * moves the step or (the last step) ends the game, so a battle whose key
 * matches is the one the store holds, however many servers share the
 * store.  The copy is the mail's to
 * change; the kept one is never lent out.  Outside a batch nothing is
 * kept.
 */
#include <stdlib.h>
#include <string.h>

#include "referee/internal.h"

/* Contract (internal.h). */
void
referee_battles_keep(struct referee *r)
{
	r->bc.on++;
}

/* Contract (internal.h). */
void
referee_battles_drop(struct referee *r)
{
	if (r->bc.on > 0 && --r->bc.on > 0)
		return;
	battle_free(r->bc.b);
	free(r->bc.scenario);
	r->bc.b = NULL;
	r->bc.scenario = NULL;
	r->bc.len = 0;
	r->bc.game = 0;
}

static int
matches(const struct referee *r, const struct store_game *g)
{
	return r->bc.b != NULL && r->bc.game == g->id &&
	    r->bc.step == g->step && r->bc.status == (int)g->status &&
	    r->bc.len == g->scenario_len && g->scenario_text != NULL &&
	    memcmp(r->bc.scenario, g->scenario_text, g->scenario_len) == 0;
}

/* Contract (internal.h). */
int
referee_battle_load(struct referee *r, const struct store_game *g,
    struct battle **out, struct err *e)
{
	struct battle *b = NULL, *keep = NULL;
	char *text = NULL;

	*out = NULL;
	if (r->bc.on > 0 && matches(r, g)) {
		if ((b = malloc(sizeof(*b))) == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		memcpy(b, r->bc.b, sizeof(*b));
		r->bc.hits++;
		*out = b;
		return 0;
	}
	r->bc.loads++;
	if (store_battle_load(r->st, g, &b, e) != 0)
		return -1;
	*out = b;
	if (r->bc.on == 0 || g->scenario_text == NULL)
		return 0;
	/* Kept as a copy of its own; a battle that cannot be kept (out of
	 * memory) is simply read again by the next mail. */
	if ((keep = malloc(sizeof(*keep))) == NULL ||
	    (text = malloc(g->scenario_len + 1)) == NULL) {
		free(keep);
		return 0;
	}
	memcpy(keep, b, sizeof(*keep));
	memcpy(text, g->scenario_text, g->scenario_len);
	text[g->scenario_len] = '\0';
	battle_free(r->bc.b);
	free(r->bc.scenario);
	r->bc.b = keep;
	r->bc.scenario = text;
	r->bc.len = g->scenario_len;
	r->bc.game = g->id;
	r->bc.step = g->step;
	r->bc.status = (int)g->status;
	return 0;
}
