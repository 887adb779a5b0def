/*
 * ledger_list.c - a game's ledger as stored, listed and its chain checked
 * (`despatch ledger GAME [--json]`).
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/check.h"
#include "ledger/ledger.h"
#include "referee/internal.h"
#include "report/json.h"

/* The records of game id, from the store. */
static int
load_records(struct store *st, int64_t id, struct ledger_rec **out, int *n,
    struct err *e)
{
	int64_t count = 0;
	int i;

	*out = NULL;
	*n = 0;
	if (store_ledger_count(st, id, &count, e) != 0)
		return -1;
	*out = calloc((size_t)count + 1, sizeof(**out));
	if (*out == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	for (i = 0; i < count; i++) {
		struct store_record r;

		if (store_ledger_record(st, id, i, &r, e) != 1 || !r.head_ok ||
		    !r.sig_ok) {
			free(r.bytes);
			if (e->msg[0] == '\0')
				err_set(e, ERR_DATA, "ledger record %d is missing or "
				    "damaged", i);
			return -1;
		}
		(*out)[i].rec = r.bytes;
		(*out)[i].n = r.len;
		memcpy((*out)[i].head, r.head, 32);
		memcpy((*out)[i].sig, r.sig, 64);
		*n = i + 1;
	}
	return 0;
}

/* The records listed and the chain checked, as text to out, or as one
 * JSON object through j when j is not NULL. */
static int
ledger_list(struct referee *r, const char *game, FILE *out, struct jw *j,
    struct err *e)
{
	struct store_game g;
	struct ledger_rec *recs = NULL;
	struct ledger_genesis *gen = NULL;
	struct ledger_fail f;
	char hex[65];
	int n = 0, i, rc = 1;

	memset(&g, 0, sizeof(g));
	if (store_game_get(r->st, game, &g, e) != 0 ||
	    load_records(r->st, g.id, &recs, &n, e) != 0) {
		rc = -1;
		goto out;
	}
	if (j != NULL) {
		jw_obj(j, NULL);
		jw_str(j, "game", g.name);
	}
	if (n == 0) {
		if (j != NULL) {
			jw_null(j, "key");
			jw_arr(j, "records");
			jw_end_arr(j);
			jw_bool(j, "holds", 1);
			jw_null(j, "failure");
			jw_end_obj(j);
		} else {
			fprintf(out, "game %s has no ledger yet: it is written when the "
			    "game starts\n", g.name);
		}
		rc = 0;
		goto out;
	}
	gen = malloc(sizeof(*gen));
	if (gen == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		rc = -1;
		goto out;
	}
	if (ledger_genesis_decode(recs[0].rec, recs[0].n, gen) == 0) {
		ledger_hex(gen->pk, 32, hex);
		if (j != NULL) {
			jw_str(j, "key", hex);
			jw_bool(j, "demo_key", ledger_key_is_demo(gen->pk));
			jw_int(j, "chain_steps", gen->steps);
			jw_int(j, "from_step", gen->from_step);
		} else {
			fprintf(out, "game %s: chain of %d steps from step %d, signed by "
			    "%s%s\n", g.name, gen->steps, gen->from_step, hex,
			    ledger_key_is_demo(gen->pk) ? " (the demo's published key: "
			    "it proves nothing)" : "");
		}
	} else if (j != NULL) {
		jw_null(j, "key");
	}
	if (j != NULL)
		jw_arr(j, "records");
	for (i = 0; i < n; i++) {
		struct ledger_step *s = malloc(sizeof(*s));
		struct ledger_act act;
		int is_act = 0, is_step = 0;

		ledger_hex(recs[i].head, 32, hex);
		if (i > 0 && ledger_act_decode(recs[i].rec, recs[i].n, &act) == 0)
			is_act = 1;
		else if (i > 0 && s != NULL && ledger_step_decode(recs[i].rec,
		    recs[i].n, s) == 0)
			is_step = 1;
		if (j != NULL) {
			jw_obj(j, NULL);
			jw_int(j, "index", i);
			jw_str(j, "kind", i == 0 ? "genesis" : is_act ? "act" : is_step ?
			    "step" : "unknown");
			if (is_act) {
				jw_str(j, "act", act.act);
				jw_int(j, "step", act.step);
			} else if (is_step) {
				jw_int(j, "step", s->step);
				jw_int(j, "turn", s->turn);
				jw_bool(j, "scripted", s->scripted);
			}
			jw_str(j, "head", hex);
			jw_end_obj(j);
		} else if (i == 0) {
			fprintf(out, "%4d genesis          head %s\n", i, hex);
		} else if (is_act) {
			fprintf(out, "%4d act %-7s step %-3d head %s\n", i, act.act,
			    act.step, hex);
		} else if (is_step) {
			fprintf(out, "%4d step %-3d turn %-3d head %s%s\n", i, s->step,
			    s->turn, hex, s->scripted ? " (scripted dice)" : "");
		} else {
			fprintf(out, "%4d ?                head %s\n", i, hex);
		}
		free(s);
	}
	if (j != NULL)
		jw_end_arr(j);
	if (ledger_check_chain(recs, n, gen, NULL, &f) != 0) {
		if (j != NULL) {
			jw_bool(j, "holds", 0);
			jw_obj(j, "failure");
			jw_int(j, "index", f.index);
			jw_str(j, "field", f.field);
			jw_str(j, "error", f.msg);
			jw_end_obj(j);
			jw_end_obj(j);
		} else {
			fprintf(out, "FAILED at record %d (%s): %s\n", f.index, f.field,
			    f.msg);
		}
		goto out;
	}
	if (j != NULL) {
		jw_bool(j, "holds", 1);
		jw_null(j, "failure");
		jw_end_obj(j);
	} else {
		fprintf(out, "the chain holds: %d record%s, every signature and link "
		    "good\n", n, n == 1 ? "" : "s");
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free((void *)recs[i].rec);
	free(recs);
	free(gen);
	store_game_clear(&g);
	return rc;
}

int
referee_ledger_print(struct referee *r, const char *game, FILE *out,
    int as_json, struct err *e)
{
	struct jw j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!as_json)
		return ledger_list(r, game, out, NULL, e);
	/* In memory first: a store that fails prints no half an object. */
	if ((f = open_memstream(&buf, &len)) == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	jw_init(&j, f);
	rc = ledger_list(r, game, NULL, &j, e);
	if (rc >= 0)
		jw_done(&j);
	if (fclose(f) != 0 && rc >= 0)
		rc = err_set(e, ERR_TEMP, "out of memory");
	if (rc >= 0)
		fwrite(buf, 1, len, out);
	free(buf);
	return rc;
}
