/*
 * campaign.c - 'despatch campaign': campaigns from the command line.
 *
 * check reads a campaign file as a campaign would (every refusal at its
 * line) and says what it holds; new, player add, start, state and show
 * make and look at a campaign in the database; orders and turn play its
 * turns by hand, set changes its clock (despatch tick plays them by it),
 * and map draws it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "cli/cli.h"
#include "referee/referee.h"
#include "scenario/scenario.h"

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
	{
		char w[256];

		campaign_weather_summary(c, w, sizeof(w));
		printf("weather: %s\n", w);
	}
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
		for (k = 0; k < c->ndepots; k++) {
			char f[16] = "", t[16] = "";

			if (c->depots[k].side != s)
				continue;
			if (c->depots[k].from_day)
				campaign_date_fmt(c->depots[k].from_day, f, sizeof(f));
			if (c->depots[k].to_day)
				campaign_date_fmt(c->depots[k].to_day, t, sizeof(t));
			printf("  depot at %s%s%s%s%s\n",
			    c->places[c->depots[k].place].name, f[0] ? " from " : "",
			    f, t[0] ? " to " : "", t);
		}
	}
	for (k = 0; k < c->nplaces; k++)
		if (c->places[k].field_path[0] != '\0')
			printf("battlefield of %s: %s\n", c->places[k].name,
			    c->places[k].field_path);
	printf("%s: no problems found\n", path);
	campaign_free(c);
	return 0;
}

static const char usage[] =
    "usage: despatch campaign check FILE\n"
    "       despatch campaign new NAME FILE [--sandbox]\n"
    "       despatch campaign player add NAME SIDE EMAIL [--password P]\n"
    "                                    [--columns LIST]\n"
    "       despatch campaign start NAME\n"
    "       despatch campaign state NAME [--json]\n"
    "       despatch campaign show NAME\n"
    "       despatch campaign orders NAME SIDE FILE|-\n"
    "       despatch campaign turn NAME\n"
    "       despatch campaign set NAME [KEY VALUE]\n"
    "       despatch campaign map NAME FILE [--side SIDE]\n\n"
    "check: reads a campaign file (docs/campaign.md) as a campaign would be\n"
    "read, its battlefields and every column's order of battle included,\n"
    "and says what it holds, or the first line that is wrong and why. It\n"
    "touches no database.\n"
    "new: makes campaign NAME in set-up from FILE; the file and its\n"
    "battlefield files are kept in the database.\n"
    "player add: adds a player for SIDE and prints the player's secret\n"
    "(P if given), the same for the campaign and each of its battles;\n"
    "with --columns (names by ',') the player commands only those of the\n"
    "side's columns, and in a battle their brigades.\n"
    "start: every side needs a player; writes the campaign's signed\n"
    "genesis and starts it.\n"
    "state: where every column is and its strength (--json: the shape\n"
    "docs/campaign.md gives).\n"
    "show: the campaign, its players and the heads of its chain.\n"
    "orders: SIDE's orders for the next turn, one a line (docs/campaign.md,\n"
    "Campaign orders), from FILE or standard input; each line is answered,\n"
    "and those understood replace the side's orders for their columns.\n"
    "turn: plays the next turn's march and opens a game for each battle;\n"
    "run again once the battles are over, it ends the turn (what they\n"
    "carry back, the day's supply and rest).\n"
    "set: changes the campaign's clock, which 'despatch tick' plays its\n"
    "turns by: deadline TIME (after the turn opened, the turn is marched on\n"
    "the orders given), settle TIME (once every side's orders are in, the\n"
    "turn is marched this long after the last), reminders TIME,TIME (before\n"
    "the deadline, to the players of each side that has sent none). Times\n"
    "as 'despatch set' takes them (48h, 2d, 90m, none); a key the campaign\n"
    "does not set takes the server's value ('despatch set --server'). With\n"
    "NAME alone: the three, where each value comes from, and the open\n"
    "turn's deadline.\n"
    "map: draws the operational map as it stands to FILE (.png or .svg):\n"
    "places, roads, rivers, depots and every column with its strength;\n"
    "with --side, that side's columns and the enemy's it sees, no other.\n";

int
cmd_campaign(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	char secret[REFEREE_SECRET_MAX];
	const char *verb;
	int rc = cli_help_or_usage(argc, argv, argc < 2, usage);

	if (rc >= 0)
		return rc;
	verb = argv[1];
	err_clear(&e);
	if (strcmp(verb, "check") == 0) {
		if (argc != 3)
			return cli_usage_error("campaign", "check takes FILE");
		return campaign_check(argv[2]);
	}
	if (strcmp(verb, "new") == 0) {
		int sandbox = argc == 5 && strcmp(argv[4], "--sandbox") == 0;

		if (argc != 4 && !sandbox)
			return cli_usage_error("campaign", "new takes NAME FILE "
			    "[--sandbox]");
		if (cli_open(1, &r, &e) != 0)
			return cli_fail(&e);
		rc = referee_campaign_new(r, argv[2], argv[3], sandbox, NULL, &e);
		if (rc == 0)
			printf("campaign %s made from %s; next: despatch campaign "
			    "player add %s SIDE EMAIL, for each side\n", argv[2],
			    argv[3], argv[2]);
	} else if (strcmp(verb, "player") == 0) {
		const char *password = NULL, *columns = NULL;
		int k;

		for (k = 6; k < argc; k += 2) {
			if (k + 1 >= argc || (strcmp(argv[k], "--password") != 0 &&
			    strcmp(argv[k], "--columns") != 0))
				return cli_usage_error("campaign", "player add NAME SIDE "
				    "EMAIL [--password P] [--columns LIST]");
			if (strcmp(argv[k], "--password") == 0)
				password = argv[k + 1];
			else
				columns = argv[k + 1];
		}
		if (argc < 6)
			return cli_usage_error("campaign", "player add NAME SIDE EMAIL "
			    "[--password P] [--columns LIST]");
		if (strcmp(argv[2], "add") != 0)
			return cli_usage_error("campaign", "expected player add");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		rc = referee_campaign_player_add(r, argv[3], argv[4], argv[5],
		    columns, password, secret, &e);
		if (rc == 0)
			printf("%s plays %s in campaign %s%s%s; secret: %s\n", argv[5],
			    argv[4], argv[3], columns != NULL ? ", commanding " : "",
			    columns != NULL ? columns : "", secret);
	} else if (strcmp(verb, "start") == 0 || strcmp(verb, "show") == 0 ||
	    strcmp(verb, "state") == 0) {
		int as_json = argc == 4 && strcmp(verb, "state") == 0 &&
		    strcmp(argv[3], "--json") == 0;

		if (argc != 3 && !as_json)
			return cli_usage_error("campaign", strcmp(verb, "state") == 0 ?
			    "state takes NAME [--json]" : "takes NAME");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		if (strcmp(verb, "start") == 0) {
			rc = referee_campaign_start(r, argv[2], &e);
			if (rc == 0)
				printf("campaign %s started: its genesis is signed "
				    "(despatch campaign show %s)\n", argv[2], argv[2]);
		} else if (strcmp(verb, "show") == 0) {
			rc = referee_campaign_show(r, argv[2], stdout, &e);
		} else {
			rc = referee_campaign_state_print(r, argv[2], as_json, stdout,
			    &e);
		}
	} else if (strcmp(verb, "orders") == 0) {
		char *text = NULL;
		size_t len = 0;
		int refused = 0;

		if (argc != 5)
			return cli_usage_error("campaign", "orders takes NAME SIDE "
			    "FILE (- for standard input)");
		if (strcmp(argv[4], "-") == 0) {
			size_t cap = 0, got;
			char buf[4096];

			while ((got = fread(buf, 1, sizeof(buf), stdin)) > 0) {
				char *nt;

				if (len + got + 1 > cap) {
					cap = (len + got + 1) * 2;
					if (cap > SUBMIT_MAX ||
					    (nt = realloc(text, cap)) == NULL) {
						free(text);
						return cli_usage_error("campaign", "the orders "
						    "are too long");
					}
					text = nt;
				}
				memcpy(text + len, buf, got);
				len += got;
			}
			if (text == NULL && (text = calloc(1, 1)) == NULL)
				return 1;
			text[len] = '\0';
		} else if (scenario_read_file(argv[4], SUBMIT_MAX, &text, &len,
		    &e) != 0) {
			return cli_fail(&e);
		}
		if (cli_open(0, &r, &e) != 0) {
			free(text);
			return cli_fail(&e);
		}
		rc = referee_campaign_orders(r, argv[2], argv[3], 0, text, stdout,
		    &refused, NULL, &e);
		free(text);
		if (rc == 0 && refused > 0) {
			referee_free(r);
			return 1;
		}
	} else if (strcmp(verb, "turn") == 0) {
		if (argc != 3)
			return cli_usage_error("campaign", "turn takes NAME");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		rc = referee_campaign_turn(r, argv[2], stdout, &e);
	} else if (strcmp(verb, "set") == 0) {
		/* Campaigns and games are named apart: NAME is a campaign's,
		 * never a game's (despatch set GAME for those). */
		if (argc != 3 && argc != 5)
			return cli_usage_error("campaign", "set takes NAME, and KEY "
			    "VALUE to change one (deadline, settle, reminders)");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		if (argc == 3)
			rc = referee_campaign_settings_print(r, argv[2], stdout,
			    &e);
		else if ((rc = referee_campaign_setting_set(r, argv[2], argv[3],
		    argv[4], &e)) == 0)
			printf("campaign %s: %s = %s\n", argv[2], argv[3], argv[4]);
	} else if (strcmp(verb, "map") == 0) {
		const char *side = NULL;
		size_t n;

		if (argc == 6 && strcmp(argv[4], "--side") == 0)
			side = argv[5];
		else if (argc != 4)
			return cli_usage_error("campaign", "map takes NAME FILE "
			    "[--side SIDE]");
		n = strlen(argv[3]);
		if (n < 5 || (strcmp(argv[3] + n - 4, ".png") != 0 &&
		    strcmp(argv[3] + n - 4, ".svg") != 0))
			return cli_usage_error("campaign", "the map's FILE ends in "
			    ".png or .svg");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		rc = referee_campaign_map(r, argv[2], side, argv[3], &e);
		if (rc == 0)
			printf("the map of campaign %s%s%s is in %s\n", argv[2],
			    side ? " as side " : "", side ? side : "", argv[3]);
	} else {
		return cli_usage_error("campaign", "expected check, new, player "
		    "add, start, state, show, orders, turn, set or map");
	}
	referee_free(r);
	return rc == 0 ? 0 : cli_fail(&e);
}
