/*
 * campaign.c - 'despatch campaign': campaigns from the command line.
 *
 * For now one verb, check: a campaign file read as a campaign would be
 * (every refusal at its line), and what it holds.  The verbs that play
 * a campaign (new, player add, start, state, show) come with its store
 * and ledger (issue 26).
 */
#include <stdio.h>
#include <string.h>

#include "campaign/campaign.h"
#include "cli/cli.h"

static int
campaign_check(const char *path)
{
	struct campaign *c = NULL;
	struct err e;
	char a[16], b[16];
	int s, k;

	err_clear(&e);
	if (campaign_load_file(path, &c, &e) != 0)
		return cli_fail(&e);
	campaign_date_fmt(c->start_day, a, sizeof(a));
	campaign_date_fmt(c->end_day, b, sizeof(b));
	printf("%s: \"%s\", %s\n", path, c->title, c->ruleset);
	printf("calendar: %s to %s, %d %s\n", a, b,
	    (c->end_day - c->start_day + 1) * c->halves,
	    c->halves == 1 ? "days" : "half-days");
	printf("map: %d place%s, %d road%s\n", c->nplaces,
	    c->nplaces == 1 ? "" : "s", c->nroads, c->nroads == 1 ? "" : "s");
	for (s = 0; s < c->nsides; s++) {
		printf("side %s \"%s\":\n", c->sides[s].id, c->sides[s].name);
		for (k = 0; k < c->ncolumns; k++) {
			const struct cp_column *col = &c->columns[k];
			int nb = 0, i;

			if (col->side != s)
				continue;
			for (i = 0; i < c->nbrigades; i++)
				nb += c->brigades[i].column == k;
			printf("  column \"%s\" (%s) at %s: %d brigade%s, %d %s\n",
			    col->name, col->commander, c->places[col->place].name,
			    nb, nb == 1 ? "" : "s", campaign_column_sp(c, k),
			    c->rs->words != NULL &&
			    c->rs->words->strength_word != NULL ?
			    c->rs->words->strength_word : "SP");
		}
		for (k = 0; k < c->ndepots; k++)
			if (c->depots[k].side == s)
				printf("  depot at %s\n", c->places[c->depots[k].place].name);
	}
	for (k = 0; k < c->nplaces; k++)
		if (c->places[k].field_path[0] != '\0')
			printf("battlefield of %s: %s\n", c->places[k].name,
			    c->places[k].field_path);
	printf("%s: no problems found\n", path);
	campaign_free(c);
	return 0;
}

int
cmd_campaign(int argc, char **argv)
{
	int rc = cli_help_or_usage(argc, argv, argc != 3 ||
	    strcmp(argv[1], "check") != 0,
	    "usage: despatch campaign check FILE\n\n"
	    "Reads a campaign file (docs/campaign.md) as a campaign would be\n"
	    "read, its battlefields and every column's order of battle\n"
	    "included, and says what it holds, or the first line that is\n"
	    "wrong and why. It touches no database.\n");

	if (rc >= 0)
		return rc;
	return campaign_check(argv[2]);
}
