/*
 * ledger_list.c - a game's ledger as stored, listed and its chain checked
 * (`despatch ledger GAME`).
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/check.h"
#include "ledger/ledger.h"
#include "referee/internal.h"

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

int
referee_ledger_print(struct referee *r, const char *game, FILE *out,
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
	if (n == 0) {
		fprintf(out, "game %s has no ledger yet: it is written when the game "
		    "starts\n", g.name);
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
		fprintf(out, "game %s: chain of %d steps from step %d, signed by %s%s\n",
		    g.name, gen->steps, gen->from_step, hex,
		    ledger_key_is_demo(gen->pk) ? " (the demo's published key: "
		    "it proves nothing)" : "");
	}
	for (i = 0; i < n; i++) {
		struct ledger_step *s = malloc(sizeof(*s));

		ledger_hex(recs[i].head, 32, hex);
		struct ledger_act act;

		if (i == 0)
			fprintf(out, "%4d genesis          head %s\n", i, hex);
		else if (ledger_act_decode(recs[i].rec, recs[i].n, &act) == 0)
			fprintf(out, "%4d act %-7s step %-3d head %s\n", i, act.act, act.step,
			    hex);
		else if (s != NULL && ledger_step_decode(recs[i].rec, recs[i].n,
		    s) == 0)
			fprintf(out, "%4d step %-3d turn %-3d head %s%s\n", i, s->step,
			    s->turn, hex, s->scripted ? " (scripted dice)" : "");
		else
			fprintf(out, "%4d ?                head %s\n", i, hex);
		free(s);
	}
	if (ledger_check_chain(recs, n, gen, NULL, &f) != 0) {
		fprintf(out, "FAILED at record %d (%s): %s\n", f.index, f.field, f.msg);
		goto out;
	}
	fprintf(out, "the chain holds: %d record%s, every signature and link good\n",
	    n, n == 1 ? "" : "s");
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free((void *)recs[i].rec);
	free(recs);
	free(gen);
	store_game_clear(&g);
	return rc;
}

