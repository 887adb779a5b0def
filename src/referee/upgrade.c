/*
 * upgrade.c - a game meeting a new rules engine (docs/ledger.md,
 * "Engines and upgrades").
 *
 * A game whose records name an engine other than this build's is not
 * played on with no word: its steps would be played by other rules than
 * the ones its first steps were, and an archive is only proved step by
 * step by the engine that played it.  Until the operator carries it over
 * (`despatch game upgrade`, or the server setting upgrade=auto), orders
 * are taken, no step is played, `status` says so and the players are
 * told once.  The upgrade writes a signed act holding the checkpoint:
 * the state the game carries, hashed under the old engine's rules (which
 * must give the last step's signed state) and under the new one's, so
 * verify can start the new engine's span from it.
 */
#include <jansson.h>
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/engine.h"
#include "ledger/ledger.h"
#include "ledger/verify.h"
#include "referee/chain.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "rules/engine.h"

int
referee_engine_of(struct referee *r, int64_t game, int *engine, struct err *e)
{
	unsigned char state[LEDGER_HASH];
	int last;

	return chain_engine(r, game, engine, &last, state, e);
}

/* Why game g (engine from) waits, in a sentence for the operator. */
static void
wait_why(const struct store_game *g, int from, char *out, size_t size)
{
	int cur = ledger_engine_current();
	const struct ledger_engine *en = ledger_engine_get(from);

	if (from > cur)
		snprintf(out, size, "game %s is played by rules engine %d, newer "
		    "than this build's %d: run a newer despatch", g->name, from, cur);
	else if (en == NULL || en->state_hash == NULL)
		snprintf(out, size, "game %s is played by rules engine %d, which "
		    "this build cannot carry over: finish it with %s", g->name,
		    from, en != NULL ? en->build : "the build that played it");
	else
		snprintf(out, size, "game %s waits for an upgrade: it was played "
		    "by rules engine %d and this build plays engine %d; run "
		    "'despatch game upgrade %s' to carry it over (or set the "
		    "server's upgrade setting to auto)", g->name, from, cur, g->name);
}

int
referee_engine_wait(struct referee *r, const struct store_game *g, int *from,
    char *why, size_t size, struct err *e)
{
	if (referee_engine_of(r, g->id, from, e) != 0)
		return -1;
	if (*from == ledger_engine_current())
		return 0;
	if (why != NULL)
		wait_why(g, *from, why, size);
	return 1;
}

int
referee_engine_told(struct referee *r, const struct store_game *g, int from,
    int *told, struct err *e)
{
	struct battle *b = NULL;
	int64_t at = 0;
	char subject[200], body[1200];
	int turn, side;

	*told = 0;
	if (store_game_upgrade_told(r->st, g->id, &at, e) != 0)
		return -1;
	if (at == g->step)
		return 0;
	if (store_battle_load(r->st, g, &b, e) != 0)
		return -1;
	turn = battle_step_turn(b, g->step);
	side = battle_step_side(b, g->step);
	snprintf(subject, sizeof(subject), "[%s] Turn %d waits for the server's "
	    "upgrade", g->name, turn);
	snprintf(body, sizeof(body), "The server running game %s has a new "
	    "rules engine, engine %d.\nThis game was played by engine %d so "
	    "far.\n\nTurn %d%s%s%s is due, but it is not played\nuntil the "
	    "operator carries the game over to the new engine, which\nthe "
	    "game's ledger will record.\n\nYour orders are kept, and you may "
	    "still send or change them. You will\nget your report as usual "
	    "once the phase is played.\n", g->name, ledger_engine_current(),
	    from, turn, side >= 0 ? ", the " : "", side >= 0 ?
	    b->sides[side].id : "", side >= 0 ? " phase," : "");
	battle_free(b);
	if (from > ledger_engine_current())
		return 0;   /* nothing the players need wait for */
	if (referee_tell_all(r, g, subject, body, e) != 0 ||
	    store_game_set_upgrade_told(r->st, g->id, g->step, e) != 0)
		return -1;
	*told = 1;
	return 0;
}

/* The checkpoint of game g (its battle b as the store carries it): the
 * state its last step left, kept with the game, which must hash under
 * the old engine's rules to the state that step signed (last; NULL
 * before any step, when it is b itself) and carry to b.  Its text in
 * *text, its hashes under the old and the new rules in h_from, h_to. */
static int
checkpoint_make(struct referee *r, const struct store_game *g,
    const struct battle *b, const struct ledger_engine *old,
    const struct ledger_engine *now, const unsigned char *last, char **text,
    unsigned char h_from[LEDGER_HASH], unsigned char h_to[LEDGER_HASH],
    struct err *e)
{
	struct battle *x = battle_new(), *c = battle_new();
	json_t *j = NULL, *jc = NULL, *jb = NULL;
	json_error_t je;
	char *kept = NULL;
	int rc = -1, f = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII;

	*text = NULL;
	if (x == NULL || c == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	memcpy(x, b, sizeof(*x));
	if (last != NULL) {
		if (store_game_last_state(r->st, g->id, &kept, e) < 0)
			goto out;
		if (kept != NULL) {
			j = json_loads(kept, 0, &je);
		} else {
			/* Played by a build that kept no such state: the state
			 * the tables carry will do when it is the one the step
			 * signed, that is when the step left nothing that lasts
			 * only a step (a brigade's hits in its combat). */
			j = ledger_state_json(b);
			if (j != NULL && old->state_hash(b, h_from) == 0 &&
			    sodium_memcmp(h_from, last, LEDGER_HASH) != 0) {
				err_set(e, ERR_USER, "game %s's last phase was played by "
				    "a build that did not keep the state a phase leaves, "
				    "and it left what the store does not hold (a "
				    "brigade's hits in that phase's combat), so no "
				    "checkpoint can be proved against its record: the "
				    "game cannot be carried over, and is finished with "
				    "%s (the database as it was is kept as DATABASE."
				    "before-N)", g->name, old->build);
				goto out;
			}
		}
		if (j == NULL || ledger_state_read(x, j) != 0) {
			err_set(e, ERR_DATA, "game %s: the state its last phase left "
			    "is damaged in the store; nothing was changed", g->name);
			goto out;
		}
	}
	if (old->state_hash(x, h_from) != 0 || now->state_hash(x, h_to) != 0) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	/* Under the old engine's rules it is the state the last step
	 * signed, and what it carries is what the store holds. */
	memcpy(c, b, sizeof(*c));
	battle_carry(c, x);
	jc = ledger_state_json(c);
	jb = ledger_state_json(b);
	*text = json_dumps(last != NULL ? j : (jb != NULL ? jb : json_null()), f);
	if (jc == NULL || jb == NULL || *text == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if ((last != NULL && sodium_memcmp(h_from, last, LEDGER_HASH) != 0) ||
	    !json_equal(jc, jb)) {
		err_set(e, ERR_DATA, "game %s: the state in the store is not the "
		    "one its last step signed, so it cannot be carried over (the "
		    "store is damaged: restore a backup); nothing was changed",
		    g->name);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	free(kept);
	json_decref(j);
	json_decref(jc);
	json_decref(jb);
	battle_free(x);
	battle_free(c);
	return rc;
}

/* Carries game g over inside the caller's write transaction. */
static int
upgrade_in(struct referee *r, const struct store_game *g,
    struct upgrade_result *ur, struct err *e)
{
	const struct ledger_engine *old, *now;
	unsigned char last[LEDGER_HASH], h_from[LEDGER_HASH], h_to[LEDGER_HASH];
	struct battle *b = NULL;
	char *text = NULL, subject[200], body[1400];
	int64_t closed = 0;
	int from, have_last, turn, side, rc = -1;

	if (chain_engine(r, g->id, &from, &have_last, last, e) != 0)
		return -1;
	ur->from = from;
	ur->to = ledger_engine_current();
	if (from == ur->to)
		return err_set(e, ERR_USER, "game %s already plays rules engine %d, "
		    "this build's", g->name, from);
	if (from > ur->to)
		return err_set(e, ERR_USER, "game %s is played by rules engine %d, "
		    "newer than this build's %d: a game cannot go back to an older "
		    "engine; run a newer despatch", g->name, from, ur->to);
	old = ledger_engine_get(from);
	now = ledger_engine_get(ur->to);
	if (old == NULL || now == NULL || old->state_hash == NULL ||
	    now->state_hash == NULL)
		return err_set(e, ERR_USER, "game %s is played by rules engine %d, "
		    "whose state this build cannot hash, so it cannot carry the "
		    "game over: finish it with %s", g->name, from,
		    old != NULL ? old->build : "the build that played it");
	if (store_game_closed(r->st, g->id, &closed, NULL, e) != 0)
		return -1;
	if (closed != 0 && closed == g->step)
		return err_set(e, ERR_USER, "game %s: step %lld is closed for its "
		    "nonces under engine %d, and its orders were frozen knowing that "
		    "engine would play them: play it with the build that closed it "
		    "(%s), then upgrade", g->name, (long long)g->step, from,
		    old->build);
	if (store_battle_load(r->st, g, &b, e) != 0)
		return -1;
	if (checkpoint_make(r, g, b, old, now, have_last ? last : NULL, &text,
	    h_from, h_to, e) != 0)
		goto out;
	if (chain_upgrade(r, g->id, from, ur->to, h_from, h_to, text, e) != 0)
		goto out;
	ledger_hex(h_from, LEDGER_HASH, ur->state_hex);
	turn = battle_step_turn(b, g->step);
	side = battle_step_side(b, g->step);
	snprintf(subject, sizeof(subject), "[%s] The game goes on under the new "
	    "rules engine", g->name);
	snprintf(body, sizeof(body), "The operator has carried game %s over\n"
	    "from rules engine %d to engine %d.\n\nTurn %d%s%s%s goes on from "
	    "the state the last phase\nleft, which the game's ledger records "
	    "as a checkpoint:\n  %s\n\nThe phases before it were played by "
	    "engine %d; to check them\nfrom the archive, use %s.\nThe phases "
	    "from now on are played by engine %d.\n", g->name, from, ur->to,
	    turn, side >= 0 ? ", the " : "", side >= 0 ? b->sides[side].id : "",
	    side >= 0 ? " phase," : "", ur->state_hex, from, old->build, ur->to);
	if (referee_tell_all(r, g, subject, body, e) != 0)
		goto out;
	rc = 0;
out:
	free(text);
	battle_free(b);
	return rc;
}

int
referee_game_upgrade(struct referee *r, const char *game,
    struct upgrade_result *ur, struct err *e)
{
	struct store_game g;
	int rc = -1;

	memset(ur, 0, sizeof(*ur));
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	if (g.status != GAME_RUNNING) {
		err_set(e, ERR_USER, "game %s is %s: only a game being played is "
		    "carried over (one not started starts on this build's engine; "
		    "a finished one's archive verifies as it is)", g.name,
		    g.status == GAME_FINISHED ? "over" : "not started");
		goto out;
	}
	if (upgrade_in(r, &g, ur, e) != 0)
		goto out;
	rc = 0;
out:
	return referee_game_end(r, &g, rc, e);
}

int
referee_engine_gate(struct referee *r, const char *game, int auto_ok,
    int *upgraded, int *told, struct err *e)
{
	struct store_game g;
	char why[400], v[16];
	int from, w;

	*upgraded = 0;
	*told = 0;
	memset(&g, 0, sizeof(g));
	/* Asked before every phase that is due: read first, and write only
	 * for a game that waits. */
	if (store_begin_read(r->st, e) != 0)
		return -1;
	w = store_game_get(r->st, game, &g, e) != 0 ? -1 :
	    g.status == GAME_RUNNING ? referee_engine_wait(r, &g, &from, NULL, 0,
	    e) : 0;
	store_rollback(r->st);
	store_game_clear(&g);
	if (w <= 0)
		return w;
	if (referee_game_begin(r, game, &g, e) != 0)
		return -1;
	w = g.status == GAME_RUNNING ? referee_engine_wait(r, &g, &from, why,
	    sizeof(why), e) : 0;
	if (w < 0)
		goto fail;
	if (w == 0) {
		store_rollback(r->st);
		store_game_clear(&g);
		return 0;
	}
	if (referee_setting_get(r, 0, "upgrade", v, sizeof(v), e) != 0)
		goto fail;
	if (auto_ok && strcmp(v, "auto") == 0 && from < ledger_engine_current()) {
		struct upgrade_result ur;
		struct err ue;

		err_clear(&ue);
		/* In a savepoint of its own: an upgrade that fails halfway
		 * (its act written, its mail not) leaves nothing. */
		if (store_begin(r->st, e) != 0)
			goto fail;
		if (upgrade_in(r, &g, &ur, &ue) == 0 && store_commit(r->st,
		    &ue) == 0) {
			if (referee_game_end(r, &g, 0, e) != 0)
				return -1;
			*upgraded = 1;
			return 0;
		}
		store_rollback(r->st);
		if (ue.kind == ERR_TEMP) {
			*e = ue;
			goto fail;
		}
		/* Not possible now (a phase closed for its nonces): it waits
		 * as if by hand, and says why. */
		snprintf(why, sizeof(why), "%.399s", ue.msg);
	}
	if (referee_engine_told(r, &g, from, told, e) != 0)
		goto fail;
	if (referee_game_end(r, &g, 0, e) != 0)
		return -1;
	err_set(e, ERR_USER, "%s", why);
	return 1;
fail:
	return referee_game_end(r, &g, -1, e);
}
