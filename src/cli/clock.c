/*
 * clock.c - the game clock from the command line: tick (from cron),
 * pause, resume and extend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "referee/referee.h"

int
cmd_tick(int argc, char **argv)
{
	struct referee *r = NULL;
	struct tick_result res;
	struct err e;
	int rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch tick\n\n"
	    "Does once what the game clock says is due now, for every game: "
	    "plays a phase\nwhose players have all sent orders (unless one "
	    "asked to WAIT, or the game\nhas fixed deadlines) or whose "
	    "deadline and grace have passed, and sends\nthe reminders that "
	    "are due; then marches each campaign turn whose sides'\norders "
	    "are all in (or whose deadline passed) and settles each whose "
	    "battles\nare over. Run it from cron every minute or so; no step "
	    "is ever played twice,\nhowever many run at once.\n"))
		return 0;
	if (argc != 1)
		return cli_usage_error("tick", "takes no arguments");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_tick(r, &res, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("%d phase%s played, %d reminder%s queued", res.played,
	    res.played == 1 ? "" : "s", res.reminders, res.reminders == 1 ? "" :
	    "s");
	if (res.campaign_turns > 0)
		printf(", %d campaign turn%s marched or settled",
		    res.campaign_turns, res.campaign_turns == 1 ? "" : "s");
	printf("%s%s\n", res.last[0] ? "; " : "", res.last);
	return res.errors > 0 ? EXIT_FAILURE : 0;
}

static int
pause_or_resume(int argc, char **argv, int pause)
{
	struct referee *r = NULL;
	struct err e;
	const char *game = NULL, *why = NULL, *cmd = pause ? "pause" : "resume";
	int i, rc;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch %s GAME [--why TEXT]\n\n%s", cmd, pause ?
		    "Pauses a game: no phase is played and no deadline runs until "
		    "it resumes.\nEvery player is told, with the reason.\n" :
		    "Resumes a paused game; the open phase's deadline gets back the "
		    "time it had\nleft. Every player is told.\n");
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--why") == 0) {
			if (++i >= argc)
				return cli_usage_error(cmd, "--why needs a text");
			why = argv[i];
		} else if (argv[i][0] == '-') {
			return cli_unknown_option(cmd, argv[i]);
		} else if (game == NULL) {
			game = argv[i];
		} else {
			return cli_usage_error(cmd, "too many arguments");
		}
	}
	if (game == NULL)
		return cli_usage_error(cmd, "GAME is required");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_pause(r, game, pause, why, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("game %s %s; the players are told (see 'despatch outbox')\n",
	    game, pause ? "paused" : "resumed");
	return 0;
}

int
cmd_pause(int argc, char **argv)
{
	return pause_or_resume(argc, argv, 1);
}

int
cmd_resume(int argc, char **argv)
{
	return pause_or_resume(argc, argv, 0);
}

int
cmd_extend(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	int64_t secs = 0;
	int rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch extend GAME TIME\n\n"
	    "Puts the open phase's deadline off by TIME (12h, 2d, 90m). "
	    "Every player is\ntold the new deadline.\n"))
		return 0;
	if (argc != 3)
		return cli_usage_error("extend", "expected GAME and TIME");
	if (referee_parse_time(argv[2], &secs) != 0 || secs == 0)
		return cli_usage_error("extend", "TIME is like 12h, 2d or 90m");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_extend(r, argv[1], secs, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("game %s: deadline extended by %s; the players are told\n",
	    argv[1], argv[2]);
	return 0;
}
