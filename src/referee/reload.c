/*
 * reload.c - what of a running referee a front may change, and the check
 * that a signing key is the one the games being played were begun with.
 *
 * A daemon reloading its configuration hands the referee its new options:
 * the From of games made from now on (each game keeps the one it was
 * made with) and the narrative templates, every ruleset's loaded in full
 * before any is swapped in, so a mistake keeps the old ones whole.  The
 * key is never changed under a running referee: every genesis commits
 * the key its chain is signed with, and a chain signed by two keys
 * cannot be verified.
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/ledger.h"
#include "ledger/record.h"
#include "referee/chain.h"
#include "referee/internal.h"
#include "report/narrative.h"

int
referee_reconfigure(struct referee *r, const struct referee_opts *o,
    struct err *e)
{
	struct referee probe;
	int i;

	/* Every ruleset's templates loaded from the new folder (or read
	 * again from the same one) into a scratch referee: the first that
	 * fails keeps all the old ones. */
	memset(&probe, 0, sizeof(probe));
	snprintf(probe.templates_dir, sizeof(probe.templates_dir), "%s",
	    o->templates != NULL ? o->templates : "");
	if (referee_templates_check(&probe, e) != 0) {
		for (i = 0; i < REFEREE_PARSERS; i++)
			narrative_free(probe.narr[i]);
		return -1;
	}
	for (i = 0; i < REFEREE_PARSERS; i++) {
		narrative_free(r->narr[i]);
		r->narr[i] = probe.narr[i];
		r->narr_rs[i] = probe.narr_rs[i];
	}
	memcpy(r->templates_dir, probe.templates_dir, sizeof(r->templates_dir));
	if (o->from != NULL && *o->from != '\0') {
		snprintf(r->from, sizeof(r->from), "%s", o->from);
		if (o->domain != NULL && *o->domain != '\0')
			snprintf(r->domain, sizeof(r->domain), "%s", o->domain);
		else
			referee_domain_of(r->from, r->domain, sizeof(r->domain));
	}
	return 0;
}

int
referee_key_agrees(struct referee *r, char *games, size_t size,
    struct err *e)
{
	unsigned char pk[32];
	char kp[4200];
	char *names, *name, *save = NULL;
	size_t at = 0;
	int differ = 0, rc = 0;

	if (size > 0)
		games[0] = '\0';
	if (referee_key(r, pk, kp, sizeof(kp), e) != 0)
		return -1;
	names = store_game_names(r->st);
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		struct ledger_genesis *gen;
		unsigned char head[LEDGER_HASH];
		enum game_status st = GAME_SETUP;
		int64_t id = 0, step = 0;
		struct err ge;
		int found = store_game_find(r->st, name, &id, &st, &step, e);

		if (found < 0) {
			rc = -1;
			break;
		}
		if (found == 0 || st != GAME_RUNNING)
			continue;
		gen = malloc(sizeof(*gen));
		if (gen == NULL) {
			rc = err_set(e, ERR_TEMP, "out of memory");
			break;
		}
		/* A game begun before the ledger has no genesis yet: its
		 * first step writes one with the key of the day. */
		err_clear(&ge);
		if (chain_genesis_get(r, id, gen, head, &ge) == 0 &&
		    memcmp(gen->pk, pk, sizeof(pk)) != 0) {
			int n = snprintf(games + at, at < size ? size - at : 0, "%s%s",
			    differ ? ", " : "", name);

			if (n > 0)
				at += (size_t)n;
			if (at >= size && size > 0)
				at = size - 1;
			differ++;
		}
		free(gen);
	}
	free(names);
	if (rc < 0)
		return -1;
	return differ > 0;
}
