/*
 * archive.c - writing a game's archive (despatch-archive(5)): one JSON
 * object a line, the scenario, the ledger's records with everything they
 * hash (each order set with its salt, the events of each step, the state
 * after it), so that `despatch verify` can replay the battle without the
 * database, and another program can recompute every hash.
 *
 * The store keeps no state a step: the lines are made first, then
 * played again by verify's own replay (ledger_verify, the one step
 * path), which hands back each step's state to be written into its line.
 * So the states shown are the ones the replay makes, and an archive that
 * would not verify is never written.  Steps of an engine this build does
 * not replay (before a `game upgrade`) get no state; the upgrade's line
 * carries its checkpoint, kept with the act.
 *
 * Written with jansson, keys in a fixed order, so the same game gives
 * the same bytes on every build.
 */
#include "referee/referee.h"

#include <jansson.h>
#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "ledger/engine.h"
#include "ledger/events_json.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "ledger/verify.h"
#include "referee/chain.h"
#include "referee/internal.h"

static json_t *
hexstr(const void *v, size_t n)
{
	char *h = malloc(2 * n + 1);
	json_t *j;

	if (h == NULL)
		return NULL;
	ledger_hex(v, (int)n, h);
	j = json_string(h);
	free(h);
	return j;
}

#define ARCHIVE_JSON (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII)

/* The archive's lines, made before any is written. */
struct alines {
	json_t **v;
	size_t n, cap;
};

/* Keeps o as the next line (it is the lines' now); -1 if it could not. */
static int
put_line(struct alines *al, json_t *o, struct err *e)
{
	if (o != NULL && al->n == al->cap) {
		size_t cap = al->cap ? al->cap * 2 : 64;
		json_t **v = realloc(al->v, cap * sizeof(*v));

		if (v == NULL) {
			json_decref(o);
			o = NULL;
		} else {
			al->v = v;
			al->cap = cap;
		}
	}
	if (o == NULL)
		return err_set(e, ERR_TEMP, "out of memory writing the archive");
	al->v[al->n++] = o;
	return 0;
}

static void
alines_free(struct alines *al)
{
	size_t i;

	for (i = 0; i < al->n; i++)
		json_decref(al->v[i]);
	free(al->v);
	memset(al, 0, sizeof(*al));
}

/* verify_opts.state: line's state into its line, last of its keys. */
static int
keep_state(int line, int step, json_t *state, void *arg)
{
	struct alines *al = arg;

	(void)step;
	if (line < 1 || (size_t)line > al->n)
		return -1;
	return json_object_set(al->v[line - 1], "state", state);
}

/* Plays the lines again through ledger_verify, which puts each step's
 * state into its line; -1 (nothing to be written) if they do not
 * verify. */
static int
states_add(struct alines *al, const char *game, struct err *e)
{
	struct verify_opts vo;
	struct verify_result *res = calloc(1, sizeof(*res));
	char *buf = NULL;
	size_t n = 0, i;
	FILE *f = open_memstream(&buf, &n);
	int rc = -1;

	if (res == NULL || f == NULL) {
		err_set(e, ERR_TEMP, "out of memory writing the archive");
		goto out;
	}
	for (i = 0; i < al->n; i++)
		if (json_dumpf(al->v[i], f, ARCHIVE_JSON) != 0 ||
		    fputc('\n', f) == EOF)
			break;
	if (fclose(f) != 0 || i < al->n) {
		f = NULL;
		err_set(e, ERR_TEMP, "out of memory writing the archive");
		goto out;
	}
	f = fmemopen(buf, n, "r");
	if (f == NULL) {
		err_set(e, ERR_TEMP, "out of memory writing the archive");
		goto out;
	}
	memset(&vo, 0, sizeof(vo));
	vo.state = keep_state;
	vo.state_arg = al;
	if (ledger_verify(f, &vo, res) != 0) {
		char where[48] = "";

		if (res->line > 0)
			snprintf(where, sizeof(where), "line %d, ", res->line);
		if (res->step > 0)
			snprintf(where + strlen(where), sizeof(where) - strlen(where),
			    "step %d, ", res->step);
		err_set(e, ERR_DATA, "the archive of game %s does not verify, so it "
		    "was not written: %s%s: %s", game, where, res->field, res->msg);
		goto out;
	}
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	free(buf);
	free(res);
	return rc;
}

/* Bytes as hex into o[key], when they are whole (ok); else the ledger
 * is damaged, and key says where. */
static int
blob_hex(json_t *o, const char *key, int ok, const void *v, size_t n,
    struct err *e)
{
	if (!ok) {
		if (e->msg[0] == '\0')
			err_set(e, ERR_DATA, "the ledger of this game is damaged "
			    "(%s)", key);
		return -1;
	}
	json_object_set_new(o, key, hexstr(v, n));
	return 0;
}

/* Ledger record rec (found: 1, or 0 when missing): its bytes, head and
 * signature, in hex, into o's "record", "head" and "sig". */
static int
record_hex(json_t *o, int found, const struct store_record *rec,
    struct err *e)
{
	return blob_hex(o, "record", found, rec->bytes, rec->len, e) != 0 ||
	    blob_hex(o, "head", rec->head_ok, rec->head, LEDGER_HASH, e) != 0 ||
	    blob_hex(o, "sig", rec->sig_ok, rec->sig, LEDGER_SIG, e) != 0 ?
	    -1 : 0;
}

/* An upgrade act's checkpoint, the state it carried over, into o (none
 * for any other act). */
static int
checkpoint_add(struct referee *r, json_t *o, int64_t game, int64_t seq,
    struct err *e)
{
	char *text = NULL;
	size_t n = 0;
	json_t *cp;
	json_error_t je;

	if (store_ledger_checkpoint(r->st, game, seq, &text, &n, e) < 0)
		return -1;
	if (text == NULL)
		return 0;
	cp = json_loadb(text, n, 0, &je);
	free(text);
	if (cp == NULL)
		return err_set(e, ERR_DATA, "the checkpoint of record %lld is "
		    "damaged", (long long)seq);
	json_object_set_new(o, "checkpoint", cp);
	return 0;
}

/* The engine step record rec names (as its step record says it), or
 * -1 when it does not decode. */
static int
record_engine(const struct store_record *rec)
{
	struct ledger_step *ls = calloc(1, sizeof(*ls));
	int n = -1;

	if (ls != NULL && ledger_step_decode(rec->bytes, rec->len, ls) == 0)
		n = ls->engine;
	free(ls);
	return n;
}

int
referee_export(struct referee *r, const char *game, FILE *out,
    int with_addresses, struct err *e)
{
	struct store_game g;
	struct store_player pl[MAX_PLAYERS];
	struct ledger_genesis *gen = NULL;
	struct events ev;
	struct store_record rec;
	int *evsteps = NULL;
	unsigned char head[LEDGER_HASH];
	int64_t nrec = 0, seq;
	int np, i, got, rc = -1;
	json_t *o, *seats;
	struct alines al = { NULL, 0, 0 };
	size_t li;

	memset(&g, 0, sizeof(g));
	memset(&rec, 0, sizeof(rec));
	events_init(&ev);
	if (store_begin_read(r->st, e) != 0)
		return -1;
	if (store_game_get(r->st, game, &g, e) != 0)
		goto out;
	gen = malloc(sizeof(*gen));
	if (gen == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		goto out;
	}
	if (chain_genesis_get(r, g.id, gen, head, e) != 0) {
		err_set(e, ERR_USER, "game %s has no ledger yet: it is written when "
		    "the game starts", g.name);
		goto out;
	}
	if (store_ledger_count(r->st, g.id, &nrec, e) != 0 ||
	    store_events_load(r->st, g.id, 0, &ev, &evsteps, e) != 0)
		goto out;
	np = store_players(r->st, g.id, -1, pl, MAX_PLAYERS, e);
	if (np < 0)
		goto out;
	/* The header: what the battle was played from. */
	o = json_object();
	json_object_set_new(o, "despatch_archive", json_integer(1));
	json_object_set_new(o, "game", json_string(g.name));
	json_object_set_new(o, "ruleset", json_string(g.ruleset));
	json_object_set_new(o, "engine", json_string(gen->engine));
	json_object_set_new(o, "finished", json_boolean(g.status == GAME_FINISHED));
	json_object_set_new(o, "scenario", json_stringn(g.scenario_text,
	    g.scenario_len));
	if (put_line(&al, o, e) != 0)
		goto out;
	/* The genesis, with each seat's address if asked for (the record
	 * holds only their hashes). */
	o = json_object();
	json_object_set_new(o, "seq", json_integer(0));
	json_object_set_new(o, "kind", json_string("genesis"));
	seats = json_array();
	for (i = 0; i < gen->nseats; i++) {
		json_t *s = json_object();

		json_object_set_new(s, "seat", json_integer(i + 1));
		json_object_set_new(s, "side", json_string(gen->seats[i].side));
		if (with_addresses && i < np)
			json_object_set_new(s, "email", json_string(pl[i].email));
		json_array_append_new(seats, s);
	}
	json_object_set_new(o, "seats", seats);
	got = store_ledger_record(r->st, g.id, 0, &rec, e);
	if (got < 0 || record_hex(o, got, &rec, e) != 0) {
		json_decref(o);
		goto out;
	}
	if (put_line(&al, o, e) != 0)
		goto out;
	for (seq = 1; seq < nrec; seq++) {
		int64_t nl = 0, k;
		int step;
		json_t *leaves;

		free(rec.bytes);
		if (store_ledger_record(r->st, g.id, seq, &rec, e) != 1)
			goto out;
		if (strcmp(rec.kind, "act") == 0) {
			/* An operator's act: the record says it all. */
			o = json_object();
			json_object_set_new(o, "seq", json_integer(seq));
			json_object_set_new(o, "kind", json_string("act"));
			if (record_hex(o, 1, &rec, e) != 0 ||
			    checkpoint_add(r, o, g.id, seq, e) != 0) {
				json_decref(o);
				goto out;
			}
			if (put_line(&al, o, e) != 0)
				goto out;
			continue;
		}
		step = rec.step;
		if (store_ledger_leaves_count(r->st, g.id, step, &nl, e) != 0)
			goto out;
		o = json_object();
		json_object_set_new(o, "seq", json_integer(seq));
		json_object_set_new(o, "kind", json_string("step"));
		json_object_set_new(o, "step", json_integer(step));
		if (record_hex(o, 1, &rec, e) != 0) {
			json_decref(o);
			goto out;
		}
		leaves = json_array();
		for (k = 0; k < nl; k++) {
			json_t *l = json_object();
			struct store_leaf lf;

			if (store_ledger_leaf(r->st, g.id, step, (int)k, &lf,
			    e) != 1 || lf.side < 0 || lf.side >= gen->nsides) {
				free(lf.orders);
				json_decref(l);
				json_decref(leaves);
				json_decref(o);
				if (e->msg[0] == '\0')
					err_set(e, ERR_DATA, "step %lld's leaves are "
					    "damaged", (long long)step);
				goto out;
			}
			json_object_set_new(l, "seat", json_integer(lf.seat));
			json_object_set_new(l, "side",
			    json_string(gen->sides[lf.side]));
			json_object_set_new(l, "mailed",
			    json_boolean(lf.mailed));
			if (blob_hex(l, "salt", lf.salt_ok, lf.salt,
			    LEDGER_SALT, e) != 0) {
				free(lf.orders);
				json_decref(l);
				json_decref(leaves);
				json_decref(o);
				goto out;
			}
			json_object_set_new(l, "orders",
			    json_string(lf.orders));
			free(lf.orders);
			json_array_append_new(leaves, l);
		}
		json_object_set_new(o, "leaves", leaves);
		{
			const struct ledger_engine *en =
			    ledger_engine_get(record_engine(&rec));

			json_object_set_new(o, "events", ledger_events_to_json(&ev,
			    evsteps, step, en != NULL && en->typed_events));
		}
		if (put_line(&al, o, e) != 0)
			goto out;
	}
	/* Each step's state, from the replay. */
	if (states_add(&al, g.name, e) != 0)
		goto out;
	for (li = 0; li < al.n; li++)
		if (json_dumpf(al.v[li], out, ARCHIVE_JSON) != 0 ||
		    fputc('\n', out) == EOF)
			break;
	if (li < al.n || fflush(out) != 0) {
		err_set(e, ERR_TEMP, "cannot write the archive");
		goto out;
	}
	rc = 0;
out:
	alines_free(&al);
	store_rollback(r->st);
	free(rec.bytes);
	free(evsteps);
	events_free(&ev);
	free(gen);
	store_game_clear(&g);
	return rc;
}
