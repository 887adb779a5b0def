/*
 * ledger.c - the ledger from the command line: the server's signing key
 * (key show) and a game's chain of records as stored (ledger GAME).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "ledger/check.h"
#include "ledger/ledger.h"
#include "referee/referee.h"

int
cmd_key(int argc, char **argv)
{
	struct store *st = NULL;
	struct referee r;
	struct err e;
	unsigned char pk[32];
	char path[4200], hex[65];
	int rc;

	err_clear(&e);
	if (cli_wants_help(argc, argv) || argc != 2 || strcmp(argv[1], "show") != 0) {
		printf("usage: despatch key show\n\n"
		    "Prints the public half of the key that signs every game's ledger, "
		    "and the\nfile it is in (the database's name with .key, or the "
		    "configuration's key),\nmaking it if there is none yet. Publish the "
		    "public key: players check the\nsignatures on their reports and "
		    "archives against it.\n");
		return cli_wants_help(argc, argv) ? 0 : EXIT_USAGE;
	}
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	referee_init(&r, st);
	rc = referee_key(&r, pk, path, sizeof(path), &e);
	referee_fini(&r);
	store_close(st);
	if (rc != 0)
		return cli_fail(&e);
	ledger_hex(pk, 32, hex);
	printf("public key %s\nkey file   %s\n", hex, path);
	return 0;
}

/* The records of game id, from the store. */
static int
load_records(struct store *st, int64_t id, struct ledger_rec **out, int *n,
    struct err *e)
{
	int64_t count = 0;
	int i;

	*out = NULL;
	*n = 0;
	if (store_query_int(st, e, &count, "SELECT count(*) FROM ledger WHERE "
	    "game_id = ?", "i", id) < 0)
		return -1;
	*out = calloc((size_t)count + 1, sizeof(**out));
	if (*out == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	for (i = 0; i < count; i++) {
		char *rec = NULL, *head = NULL, *sig = NULL;
		size_t rl = 0, hl = 0, sl = 0;

		if (store_query_text(st, e, &rec, &rl, "SELECT record FROM ledger "
		    "WHERE game_id = ? AND seq = ?", "iI", id, i) != 1 ||
		    store_query_text(st, e, &head, &hl, "SELECT head FROM ledger "
		    "WHERE game_id = ? AND seq = ?", "iI", id, i) != 1 ||
		    store_query_text(st, e, &sig, &sl, "SELECT sig FROM ledger "
		    "WHERE game_id = ? AND seq = ?", "iI", id, i) != 1 ||
		    hl != 32 || sl != 64) {
			free(rec);
			free(head);
			free(sig);
			if (e->msg[0] == '\0')
				err_set(e, ERR_DATA, "ledger record %d is missing or "
				    "damaged", i);
			return -1;
		}
		(*out)[i].rec = (unsigned char *)rec;
		(*out)[i].n = rl;
		memcpy((*out)[i].head, head, 32);
		memcpy((*out)[i].sig, sig, 64);
		free(head);
		free(sig);
		*n = i + 1;
	}
	return 0;
}

int
cmd_ledger(int argc, char **argv)
{
	struct store *st = NULL;
	struct store_game g;
	struct ledger_rec *recs = NULL;
	struct ledger_genesis *gen = NULL;
	struct ledger_fail f;
	struct err e;
	char hex[65];
	int n = 0, i, rc = EXIT_FAILURE;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch ledger GAME\n\n"
		    "Lists the game's ledger: its genesis record and one record for "
		    "each step\nplayed, each with its head, and checks the chain as "
		    "stored: every head the\nhash of its record and signed by the key "
		    "the genesis names, each record\nlinked to the one before, each "
		    "revealed seed hashing down to the committed\nS_0, each orders "
		    "root and dice seed made of what it should be. Exits 0 if\nall "
		    "holds, else 1 naming the first record and field that fails.\n");
		return 0;
	}
	if (argc != 2)
		return cli_usage_error("ledger", "takes one game");
	memset(&g, 0, sizeof(g));
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	if (store_game_get(st, argv[1], &g, &e) != 0 ||
	    load_records(st, g.id, &recs, &n, &e) != 0) {
		rc = cli_fail(&e);
		goto out;
	}
	if (n == 0) {
		printf("game %s has no ledger yet: it is written when the game "
		    "starts\n", g.name);
		rc = 0;
		goto out;
	}
	gen = malloc(sizeof(*gen));
	if (gen == NULL) {
		err_set(&e, ERR_TEMP, "out of memory");
		rc = cli_fail(&e);
		goto out;
	}
	if (ledger_genesis_decode(recs[0].rec, recs[0].n, gen) == 0) {
		ledger_hex(gen->pk, 32, hex);
		printf("game %s: chain of %d steps from step %d, signed by %s%s\n",
		    g.name, gen->steps, gen->from_step, hex,
		    ledger_key_is_demo(gen->pk) ? " (the demo's published key: "
		    "it proves nothing)" : "");
	}
	for (i = 0; i < n; i++) {
		struct ledger_step *s = malloc(sizeof(*s));

		ledger_hex(recs[i].head, 32, hex);
		if (i == 0)
			printf("%4d genesis          head %s\n", i, hex);
		else if (s != NULL && ledger_step_decode(recs[i].rec, recs[i].n,
		    s) == 0)
			printf("%4d step %-3d turn %-3d head %s%s\n", i, s->step,
			    s->turn, hex, s->scripted ? " (scripted dice)" : "");
		else
			printf("%4d ?                head %s\n", i, hex);
		free(s);
	}
	if (ledger_check_chain(recs, n, gen, &f) != 0) {
		printf("FAILED at record %d (%s): %s\n", f.index, f.field, f.msg);
		goto out;
	}
	printf("the chain holds: %d record%s, every signature and link good\n",
	    n, n == 1 ? "" : "s");
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free((void *)recs[i].rec);
	free(recs);
	free(gen);
	store_game_clear(&g);
	store_close(st);
	return rc;
}
