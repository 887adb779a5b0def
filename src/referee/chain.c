/*
 * chain.c - the referee's side of the ledger: the server's key, a game's
 * genesis record, and the signed record of each step (docs/ledger.md).
 *
 * The hashes and the record layout are src/ledger/'s; this file finds
 * what goes into them in the store and writes the records in the
 * caller's transaction, so a record exists exactly when its step does.
 */
#include "referee/chain.h"

#include <jansson.h>
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/engine.h"
#include "ledger/ledger.h"
#include "ledger/verify.h"

/* Where the key is: the configured file, else DATABASE.key; "" for a
 * database in memory. */
void
referee_key_file(struct referee *r, char *path, size_t size)
{
	const char *db = store_path(r->st);

	if (r->key_path[0] != '\0')
		snprintf(path, size, "%s", r->key_path);
	else if (db != NULL && db[0] != '\0')
		snprintf(path, size, "%s.key", db);
	else
		path[0] = '\0';
}

int
referee_key(struct referee *r, unsigned char pk[32], char *path, size_t psize,
    struct err *e)
{
	const struct ledger_key *k;

	if (chain_key(r, &k, e) != 0)
		return -1;
	memcpy(pk, k->pk, LEDGER_PK);
	if (r->key_demo)
		snprintf(path, psize, "(demo)");
	else
		referee_key_file(r, path, psize);
	if (path[0] == '\0')
		snprintf(path, psize, "(memory)");
	return 0;
}

int
chain_key(struct referee *r, const struct ledger_key **out, struct err *e)
{
	char path[sizeof(r->key_path) + 8];

	if (r->key == NULL) {
		struct ledger_key *k = sodium_malloc(sizeof(*k));

		if (k == NULL)
			return err_set(e, ERR_TEMP, "out of memory for the signing key");
		if (r->key_demo) {
			ledger_key_demo(k);
		} else {
			referee_key_file(r, path, sizeof(path));
			if (path[0] == '\0') {
				/* A database in memory (tests): a key for this
				 * process only. */
				unsigned char seed[32];

				randombytes_buf(seed, sizeof(seed));
				crypto_sign_seed_keypair(k->pk, k->sk, seed);
				sodium_memzero(seed, sizeof(seed));
				k->demo = 0;
			} else if (ledger_key_load(path, 1, k, e) != 0) {
				sodium_free(k);
				return -1;
			}
		}
		r->key = k;
	}
	*out = r->key;
	return 0;
}

/* The last record of a game: its seq and head; seq -1 when none. */
int
chain_last(struct referee *r, int64_t game, int64_t *seq,
    unsigned char head[LEDGER_HASH], struct err *e)
{
	int got;

	if (store_ledger_last_seq(r->st, game, seq, e) != 0)
		return -1;
	if (*seq < 0)
		return 0;
	got = store_ledger_head(r->st, game, *seq, head, e);
	if (got < 0)
		return -1;
	if (got == 0)
		return err_set(e, ERR_DATA, "the ledger of game %lld has a damaged "
		    "head at record %lld", (long long)game, (long long)*seq);
	return 0;
}

/* What the next step's dice hang on: the last step's dice seed, or the
 * genesis head before the first step.  Never a record's head: an act of
 * the operator is signed into the chain between steps, and nothing the
 * operator writes may reach the dice.  -1 with e set when the game has
 * no ledger. */
static int
chain_dice_prev(struct referee *r, int64_t game, unsigned char out[LEDGER_HASH],
    struct err *e)
{
	struct store_record rec;
	int got, rc = -1;

	got = store_ledger_last_step(r->st, game, &rec, e);
	if (got < 0)
		return -1;
	if (got == 1) {
		struct ledger_step *s = malloc(sizeof(*s));

		if (s == NULL)
			err_set(e, ERR_TEMP, "out of memory");
		else if (ledger_step_decode(rec.bytes, rec.len, s) != 0)
			err_set(e, ERR_DATA, "the last step record of game %lld is "
			    "damaged", (long long)game);
		else {
			memcpy(out, s->dice_seed, LEDGER_HASH);
			rc = 0;
		}
		free(s);
		free(rec.bytes);
		return rc;
	}
	got = store_ledger_head(r->st, game, 0, out, e);
	if (got < 0)
		return -1;
	if (got == 0)
		return err_set(e, ERR_DATA, "game %lld has no genesis record",
		    (long long)game);
	return 0;
}

/* Signs rec and appends it as record seq; its head and signature in
 * head and sig. */
static int
chain_append(struct referee *r, int64_t game, int64_t seq, const char *kind,
    int step, const struct lbuf *rec, unsigned char head[LEDGER_HASH],
    unsigned char sig[LEDGER_SIG], struct err *e)
{
	const struct ledger_key *k;

	if (chain_key(r, &k, e) != 0)
		return -1;
	ledger_head(rec->p, rec->n, head);
	ledger_sign(k, head, sig);
	return store_ledger_append(r->st, game, seq, kind, step, rec->p, rec->n,
	    head, sig, e);
}

/* The genesis record of game g (its chain covering steps from_step on)
 * into rec. */
static int
genesis_build(struct referee *r, const struct store_game *g,
    const struct battle *b, int from_step, struct lbuf *rec, struct err *e)
{
	struct ledger_genesis *gen;
	struct store_player pl[MAX_PLAYERS];
	const struct ledger_key *k;
	int n, i, rc = -1;

	if (chain_key(r, &k, e) != 0)
		return -1;
	n = store_players(r->st, g->id, -1, pl, MAX_PLAYERS, e);
	if (n < 0)
		return -1;
	gen = calloc(1, sizeof(*gen));
	if (gen == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	snprintf(gen->game, sizeof(gen->game), "%s", g->name);
	snprintf(gen->title, sizeof(gen->title), "%s", g->title);
	crypto_hash_sha256(gen->scenario_sha256,
	    (const unsigned char *)g->scenario_text, g->scenario_len);
	snprintf(gen->ruleset, sizeof(gen->ruleset), "%s", g->ruleset);
	ledger_engine_name(ledger_engine_current(), gen->engine,
	    sizeof(gen->engine));
	gen->steps = battle_steps(b);
	gen->from_step = from_step;
	gen->sandbox = g->sandbox;
	gen->fog = strcmp(g->visibility, "fog") == 0;
	gen->nonces = chain_nonces(r, g->id, e);
	if (gen->nonces < 0) {
		free(gen);
		return -1;
	}
	gen->nsides = b->nsides;
	for (i = 0; i < b->nsides; i++)
		snprintf(gen->sides[i], sizeof(gen->sides[i]), "%s", b->sides[i].id);
	gen->nseats = n;
	for (i = 0; i < n; i++) {
		gen->seats[i].seat = i + 1;
		snprintf(gen->seats[i].side, sizeof(gen->seats[i].side), "%s",
		    b->sides[pl[i].side].id);
		ledger_email_hash(pl[i].email, gen->seats[i].email_hash);
	}
	ledger_chain_at(g->seed_secret, gen->steps, 0, gen->s0);
	memcpy(gen->pk, k->pk, LEDGER_PK);
	if (ledger_genesis_encode(gen, rec) != 0)
		err_set(e, ERR_TEMP, "out of memory");
	else
		rc = 0;
	free(gen);
	return rc;
}

int
chain_genesis(struct referee *r, const struct store_game *g,
    const struct battle *b, int from_step, struct err *e)
{
	struct lbuf rec = { 0 };
	unsigned char head[LEDGER_HASH], sig[LEDGER_SIG];
	int64_t seq;
	int rc = -1;

	if (chain_last(r, g->id, &seq, head, e) != 0)
		return -1;
	if (seq >= 0)
		return 0;   /* it has one */
	if (genesis_build(r, g, b, from_step, &rec, e) != 0 ||
	    chain_append(r, g->id, 0, "genesis", 0, &rec, head, sig, e) != 0 ||
	    store_game_set_chain_steps(r->st, g->id, battle_steps(b), e) != 0)
		goto out;
	rc = 0;
out:
	ledger_buf_free(&rec);
	return rc;
}

void
chain_prep_free(struct chain_prep *cp)
{
	int i;

	for (i = 0; i < cp->n; i++)
		free(cp->leaf[i].orders);
	sodium_memzero(cp->s_step, sizeof(cp->s_step));
	memset(cp, 0, sizeof(*cp));
}

int
chain_prepare(struct referee *r, const struct store_game *g,
    const struct battle *b, int step, const struct chain_played *played,
    int nplayed, struct chain_prep *cp, struct err *e)
{
	unsigned char leaves[MAX_PLAYERS][LEDGER_HASH];
	int64_t seq, steps = 0;
	int i;

	memset(cp, 0, sizeof(*cp));
	if (chain_last(r, g->id, &seq, cp->prev, e) != 0)
		return -1;
	if (seq < 0) {
		/* A game begun before the ledger: its genesis is written with
		 * this step, and the chain covers the steps from here. */
		cp->need_genesis = 1;
		memset(cp->prev, 0, sizeof(cp->prev));
	} else if (store_game_chain_steps(r->st, g->id, &steps, e) != 0 ||
	    chain_dice_prev(r, g->id, cp->prev, e) != 0) {
		return -1;
	}
	cp->steps = cp->need_genesis ? battle_steps(b) : (int)steps;
	cp->nonces = chain_nonces(r, g->id, e);
	if (cp->nonces < 0)
		return -1;
	if (step < 1 || step > cp->steps)
		return err_set(e, ERR_DATA, "game %s: step %d is outside its seed "
		    "chain of %d", g->name, step, cp->steps);
	ledger_chain_at(g->seed_secret, cp->steps, step, cp->s_step);
	for (i = 0; i < nplayed && i < MAX_PLAYERS; i++) {
		struct chain_leaf *l = &cp->leaf[cp->n];

		l->side = played[i].side;
		l->player = played[i].player;
		l->seat = played[i].seat;
		l->mailed = played[i].mailed;
		l->orders = strdup(played[i].orders);
		if (l->orders == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		cp->n++;
		ledger_salt(cp->s_step, b->sides[l->side].id, l->seat, l->orders,
		    l->salt);
		if (cp->nonces) {
			memcpy(l->commit, played[i].commit, LEDGER_HASH);
			snprintf(l->nonce, sizeof(l->nonce), "%s", played[i].nonce);
		}
		if ((cp->nonces ? ledger_leaf_committed(g->name, step,
		    b->sides[l->side].id, l->seat, l->salt, l->orders, l->commit,
		    l->leaf) : ledger_leaf(g->name, step, b->sides[l->side].id,
		    l->seat, l->salt, l->orders, l->leaf)) != 0)
			return err_set(e, ERR_TEMP, "out of memory");
		memcpy(leaves[i], l->leaf, LEDGER_HASH);
	}
	ledger_root(g->name, step, (const unsigned char (*)[LEDGER_HASH])leaves,
	    cp->n, cp->root);
	if (cp->need_genesis) {
		/* The genesis is written with the step; its head, known now,
		 * is the step's previous head (the same bytes are built
		 * again then). */
		struct lbuf rec = { 0 };

		if (genesis_build(r, g, b, step, &rec, e) != 0) {
			ledger_buf_free(&rec);
			return -1;
		}
		ledger_head(rec.p, rec.n, cp->prev);
		ledger_buf_free(&rec);
	}
	if (cp->nonces) {
		struct ledger_step *ls = calloc(1, sizeof(*ls));

		if (ls == NULL)
			return err_set(e, ERR_TEMP, "out of memory");
		ls->nleaves = cp->n;
		for (i = 0; i < cp->n; i++) {
			snprintf(ls->leaves[i].side, sizeof(ls->leaves[i].side), "%s",
			    b->sides[cp->leaf[i].side].id);
			ls->leaves[i].seat = cp->leaf[i].seat;
			memcpy(ls->leaves[i].nonce, cp->leaf[i].nonce,
			    sizeof(ls->leaves[i].nonce));
		}
		ledger_dice_seed_nonces(g->name, step, cp->s_step, cp->root,
		    cp->prev, ls, cp->dice_seed);
		free(ls);
	} else {
		ledger_dice_seed(g->name, step, cp->s_step, cp->root, cp->prev,
		    cp->dice_seed);
	}
	return 0;
}

int
chain_nonces(struct referee *r, int64_t game, struct err *e)
{
	return referee_setting_on(r, game, "nonces", e);
}

/* The state the step left, as the archive shows it, kept for the game
 * until the next step: an upgrade's checkpoint is it.  (The store's own
 * tables hold the state carried, which lacks what lasts only the step,
 * such as a brigade's hits, and so does not hash to the record's.) */
static int
last_state_keep(struct referee *r, int64_t game, const struct battle *after,
    struct err *e)
{
	json_t *j = ledger_state_json(after);
	char *t = j != NULL ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_ENSURE_ASCII) : NULL;
	int rc;

	json_decref(j);
	if (t == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	rc = store_game_set_last_state(r->st, game, t, e);
	free(t);
	return rc;
}

int
chain_record(struct referee *r, const struct store_game *g,
    const struct battle *after, int step, const struct chain_prep *cp,
    const struct events *ev, int scripted, long rolls,
    unsigned char head[LEDGER_HASH], unsigned char sig[LEDGER_SIG],
    struct err *e)
{
	struct ledger_step *ls;
	struct lbuf rec = { 0 };
	unsigned char prev[LEDGER_HASH];
	int64_t seq;
	int i, ps, rc = -1;

	if (cp->need_genesis && chain_genesis(r, g, after, step, e) != 0)
		return -1;
	/* The record follows the last record, whatever it is (an act may
	 * have come meanwhile); the dice followed the last step's. */
	if (chain_last(r, g->id, &seq, prev, e) != 0 ||
	    chain_dice_prev(r, g->id, head, e) != 0)
		return -1;
	if (seq < 0 || sodium_memcmp(head, cp->prev, LEDGER_HASH) != 0)
		return err_set(e, ERR_DATA, "game %s: the ledger changed while step "
		    "%d was played; nothing was written", g->name, step);
	ls = calloc(1, sizeof(*ls));
	if (ls == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	ls->engine = ledger_engine_current();
	ls->step = step;
	ls->turn = battle_step_turn(after, step);
	ps = battle_step_side(after, step);
	snprintf(ls->phase, sizeof(ls->phase), "%s", ps >= 0 ?
	    after->sides[ps].id : "");
	memcpy(ls->prev, prev, LEDGER_HASH);
	ls->nleaves = cp->n;
	for (i = 0; i < cp->n; i++) {
		const struct chain_leaf *l = &cp->leaf[i];

		snprintf(ls->leaves[i].side, sizeof(ls->leaves[i].side), "%s",
		    after->sides[l->side].id);
		ls->leaves[i].seat = l->seat;
		ls->leaves[i].mailed = l->mailed;
		memcpy(ls->leaves[i].leaf, l->leaf, LEDGER_HASH);
		memcpy(ls->leaves[i].commit, l->commit, LEDGER_HASH);
		memcpy(ls->leaves[i].nonce, l->nonce, sizeof(ls->leaves[i].nonce));
		if (store_ledger_leaf_add(r->st, g->id, step, i, l->side,
		    l->player, l->seat, l->mailed, l->salt, l->orders, l->leaf,
		    e) != 0)
			goto out;
	}
	memcpy(ls->root, cp->root, LEDGER_HASH);
	memcpy(ls->s_step, cp->s_step, LEDGER_HASH);
	if (!scripted)
		memcpy(ls->dice_seed, cp->dice_seed, LEDGER_HASH);
	ls->scripted = scripted;
	ls->rolls = rolls;
	if (ledger_engine_get(ls->engine)->events_hash(ev, ls->events) != 0 ||
	    ledger_state_hash(after, ls->state) != 0 ||
	    ledger_step_encode(ls, &rec) != 0) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if (chain_append(r, g->id, seq + 1, "step", step, &rec, head, sig, e) != 0 ||
	    last_state_keep(r, g->id, after, e) != 0)
		goto out;
	rc = 0;
out:
	ledger_buf_free(&rec);
	free(ls);
	return rc;
}

int
chain_genesis_get(struct referee *r, int64_t game, struct ledger_genesis *gen,
    unsigned char head[LEDGER_HASH], struct err *e)
{
	struct store_record rec;
	int got, rc = -1;

	got = store_ledger_record(r->st, game, 0, &rec, e);
	if (got < 0)
		goto out;
	if (got == 0 || !rec.head_ok ||
	    ledger_genesis_decode(rec.bytes, rec.len, gen) != 0) {
		err_set(e, ERR_DATA, "game %lld has no whole genesis record",
		    (long long)game);
		goto out;
	}
	memcpy(head, rec.head, LEDGER_HASH);
	rc = 0;
out:
	free(rec.bytes);
	return rc;
}

/* Signs act a (its step and previous head filled in here) as the game's
 * next record, with the checkpoint text of an upgrade. */
static int
act_append(struct referee *r, int64_t game, struct ledger_act *a,
    const char *checkpoint, struct err *e)
{
	struct lbuf rec = { 0 };
	unsigned char head[LEDGER_HASH], sig[LEDGER_SIG];
	int64_t seq, step = 0;
	int rc;

	if (chain_last(r, game, &seq, head, e) != 0)
		return -1;
	if (seq < 0)
		return 0;   /* no ledger (not started, or begun before it) */
	if (store_game_step(r->st, game, &step, e) != 0)
		return -1;
	a->step = (int)step;
	memcpy(a->prev, head, LEDGER_HASH);
	utf8_trim_tail(a->text);
	if (ledger_act_encode(a, &rec) != 0) {
		ledger_buf_free(&rec);
		return err_set(e, ERR_TEMP, "out of memory");
	}
	rc = chain_append(r, game, seq + 1, "act", a->step, &rec, head, sig, e);
	if (rc == 0 && checkpoint != NULL)
		rc = store_ledger_checkpoint_set(r->st, game, seq + 1,
		    checkpoint, e);
	ledger_buf_free(&rec);
	return rc;
}

int
chain_act(struct referee *r, int64_t game, const char *act, int64_t player,
    const char *new_email, int64_t amount, const char *text, struct err *e)
{
	struct store_player pl[MAX_PLAYERS];
	struct ledger_act a;
	int n, i;

	memset(&a, 0, sizeof(a));
	snprintf(a.act, sizeof(a.act), "%s", act);
	if (player > 0) {
		n = store_players(r->st, game, -1, pl, MAX_PLAYERS, e);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (pl[i].id == player)
				a.seat = i + 1;
	}
	if (new_email != NULL)
		ledger_email_hash(new_email, a.email_hash);
	a.amount = amount;
	snprintf(a.text, sizeof(a.text), "%s", text != NULL ? text : "");
	return act_append(r, game, &a, NULL, e);
}

int
chain_upgrade(struct referee *r, int64_t game, int from, int to,
    const unsigned char state_from[LEDGER_HASH],
    const unsigned char state_to[LEDGER_HASH], const char *checkpoint,
    struct err *e)
{
	struct ledger_act a;

	memset(&a, 0, sizeof(a));
	snprintf(a.act, sizeof(a.act), "upgrade");
	a.engine_from = from;
	a.engine_to = to;
	memcpy(a.state_from, state_from, LEDGER_HASH);
	memcpy(a.state_to, state_to, LEDGER_HASH);
	return act_append(r, game, &a, checkpoint, e);
}

int
chain_engine(struct referee *r, int64_t game, int *engine, int *last_state,
    unsigned char state[LEDGER_HASH], struct err *e)
{
	struct ledger_genesis *gen;
	struct ledger_step *ls;
	struct ledger_act a;
	struct store_record rec;
	unsigned char head[LEDGER_HASH];
	int64_t seq = -1;
	int got, rc = -1;

	*engine = ledger_engine_current();
	*last_state = 0;
	memset(&rec, 0, sizeof(rec));
	if (chain_last(r, game, &seq, head, e) != 0)
		return -1;
	if (seq < 0)
		return 0;   /* no ledger: nothing names an engine */
	gen = malloc(sizeof(*gen));
	ls = malloc(sizeof(*ls));
	if (gen == NULL || ls == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if (chain_genesis_get(r, game, gen, head, e) != 0)
		goto out;
	*engine = ledger_engine_parse(gen->engine);
	/* The last upgrade, if any, names the engine since: the upgrades
	 * are the records that hold a checkpoint. */
	got = store_ledger_last_upgrade(r->st, game, &rec, e);
	if (got < 0)
		goto out;
	if (got == 1) {
		if (ledger_act_decode(rec.bytes, rec.len, &a) != 0 ||
		    strcmp(a.act, "upgrade") != 0) {
			err_set(e, ERR_DATA, "the last upgrade record of game %lld is "
			    "damaged", (long long)game);
			goto out;
		}
		*engine = a.engine_to;
	}
	free(rec.bytes);
	got = store_ledger_last_step(r->st, game, &rec, e);
	if (got < 0)
		goto out;
	if (got == 1) {
		if (ledger_step_decode(rec.bytes, rec.len, ls) != 0) {
			err_set(e, ERR_DATA, "the last step record of game %lld is "
			    "damaged", (long long)game);
			goto out;
		}
		memcpy(state, ls->state, LEDGER_HASH);
		*last_state = 1;
	}
	rc = 0;
out:
	free(rec.bytes);
	free(gen);
	free(ls);
	return rc;
}

int
chain_nonces_owed(struct referee *r, int64_t game, int step, int64_t *owe,
    struct err *e)
{
	return store_nonces_owed(r->st, game, step, owe, e);
}
