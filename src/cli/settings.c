/*
 * settings.c - `despatch set` and `despatch show`: the operator's choices
 * for a game or for the whole server, and a game at a glance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "referee/referee.h"

int
cmd_set(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *game, *value = argc > 3 ? argv[3] : NULL;
	char two[200];

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch set GAME KEY VALUE\n"
		    "       despatch set GAME seats SIDE N\n"
		    "       despatch set --server KEY VALUE\n\n"
		    "Changes a setting of one game, or of the whole server (every "
		    "game that does\nnot set it itself). The keys:\n\n");
		referee_setting_help(stdout);
		return 0;
	}
	/* despatch set GAME seats SIDE N: the one setting with two words. */
	if (argc == 5 && strcmp(argv[2], "seats") == 0) {
		snprintf(two, sizeof(two), "%s %s", argv[3], argv[4]);
		value = two;
	} else if (argc != 4) {
		return cli_usage_error("set", "expected GAME (or --server), KEY and "
		    "VALUE");
	}
	game = strcmp(argv[1], "--server") == 0 ? NULL : argv[1];
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	if (referee_setting_set(r, game, argv[2], value, &e) != 0) {
		referee_free(r);
		return cli_fail(&e);
	}
	printf("%s: %s = %s\n", game ? game : "server", argv[2], value);
	referee_free(r);
	return 0;
}

int
cmd_show(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	char *out = NULL;
	const char *game = NULL;
	int as_json = 0, i;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch show GAME [--json]\n\n"
	    "Shows a game: its scenario and status, the open phase, which "
	    "sides have\nstored orders for their next phase, the players, "
	    "and every setting with\nwhere its value comes from; with --json "
	    "as one object (docs/json.md).\nSecrets are never shown.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = 1;
		else if (argv[i][0] == '-' && argv[i][1] != '\0')
			return cli_unknown_option("show", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else
			return cli_usage_error("show", "expected GAME");
	}
	if (game == NULL)
		return cli_usage_error("show", "expected GAME");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	if (referee_show(r, game, as_json, &out, &e) != 0) {
		referee_free(r);
		return cli_fail(&e);
	}
	fputs(out, stdout);
	free(out);
	referee_free(r);
	return 0;
}

int
cmd_game(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	int yes = 0, i, rc, upgrade;
	const char *game = NULL;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch game remove GAME --yes\n"
	    "       despatch game upgrade GAME\n\n"
	    "remove: removes a game that has not started, with its players "
	    "and settings,\nso its name can be used again (a scenario "
	    "mistake found after 'new'). A game\nthat has started is "
	    "kept.\n\n"
	    "upgrade: carries a running game that an older despatch played "
	    "over to this\nbuild's rules engine. Until then its phases are "
	    "not played. The game's ledger\nrecords the change with a "
	    "checkpoint of the state carried, and the players\nare told "
	    "(docs/ledger.md, \"Engines and upgrades\"). Refused while a "
	    "phase is\nclosed for its nonces.\n"))
		return 0;
	if (argc < 2 || (strcmp(argv[1], "remove") != 0 &&
	    strcmp(argv[1], "upgrade") != 0))
		return cli_usage_error("game", "expected: game remove GAME --yes, "
		    "or game upgrade GAME");
	upgrade = strcmp(argv[1], "upgrade") == 0;
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--yes") == 0 && !upgrade)
			yes = 1;
		else if (argv[i][0] == '-')
			return cli_unknown_option("game", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else
			return cli_usage_error("game", "too many arguments");
	}
	if (game == NULL)
		return cli_usage_error("game", "GAME is required");
	if (upgrade) {
		struct upgrade_result ur;

		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		rc = referee_game_upgrade(r, game, &ur, &e);
		referee_free(r);
		if (rc != 0)
			return cli_fail(&e);
		printf("game %s carried over from rules engine %d to %d\n"
		    "checkpoint: the state hashed %s\n", game, ur.from, ur.to,
		    ur.state_hex);
		return 0;
	}
	if (!yes)
		return cli_usage_error("game", "removing a game cannot be undone: "
		    "add --yes to do it");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_game_remove(r, game, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("removed game %s\n", game);
	return 0;
}
