/*
 * clock.c - the game clock from the command line: tick (from cron),
 * pause, resume and extend.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "ledger/engine.h"
#include "referee/referee.h"

int
cmd_tick(int argc, char **argv)
{
	struct store *st = NULL;
	struct referee r;
	struct tick_result res;
	struct err e;
	int rc;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch tick\n\n"
		    "Does once what the game clock says is due now, for every game: "
		    "plays a phase\nwhose players have all sent orders (unless one "
		    "asked to WAIT, or the game\nhas fixed deadlines) or whose "
		    "deadline and grace have passed, and sends\nthe reminders that "
		    "are due. Run it from cron every minute or so; no step is\n"
		    "ever played twice, however many run at once.\n");
		return 0;
	}
	if (argc != 1)
		return cli_usage_error("tick", "takes no arguments");
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	cli_referee_init(&r, st);
	rc = referee_tick(&r, &res, &e);
	referee_fini(&r);
	store_close(st);
	if (rc != 0)
		return cli_fail(&e);
	printf("%d phase%s played, %d reminder%s queued%s%s\n", res.played,
	    res.played == 1 ? "" : "s", res.reminders, res.reminders == 1 ? "" :
	    "s", res.last[0] ? "; " : "", res.last);
	return res.errors > 0 ? EXIT_FAILURE : 0;
}

static int
pause_or_resume(int argc, char **argv, int pause)
{
	struct store *st = NULL;
	struct referee r;
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
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	cli_referee_init(&r, st);
	rc = referee_pause(&r, game, pause, why, &e);
	referee_fini(&r);
	store_close(st);
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
	struct store *st = NULL;
	struct referee r;
	struct err e;
	int64_t secs = 0;
	int rc;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch extend GAME TIME\n\n"
		    "Puts the open phase's deadline off by TIME (12h, 2d, 90m). "
		    "Every player is\ntold the new deadline.\n");
		return 0;
	}
	if (argc != 3)
		return cli_usage_error("extend", "expected GAME and TIME");
	if (referee_parse_time(argv[2], &secs) != 0 || secs == 0)
		return cli_usage_error("extend", "TIME is like 12h, 2d or 90m");
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	cli_referee_init(&r, st);
	rc = referee_extend(&r, argv[1], secs, &e);
	referee_fini(&r);
	store_close(st);
	if (rc != 0)
		return cli_fail(&e);
	printf("game %s: deadline extended by %s; the players are told\n",
	    argv[1], argv[2]);
	return 0;
}

int
cmd_status(int argc, char **argv)
{
	struct store *st = NULL;
	struct store_mail *m = NULL;
	struct err e;
	char *state = NULL, *detail = NULL, *names = NULL, *name, *save = NULL;
	int64_t pid = 0, at = 0;
	int n = 0, i, waiting = 0, failed = 0, retrying = 0;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch status\n\n"
		    "The server at a glance: whether despatchd runs and what it did "
		    "last, the mail\nwaiting to go out (and failed for good), and "
		    "each running game's open phase\nand deadline. Secrets are never "
		    "shown.\n");
		return 0;
	}
	if (argc != 1)
		return cli_usage_error("status", "takes no arguments");
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	if (store_daemon_status(st, &state, &detail, &pid, &at, &e) < 0 ||
	    store_outbox_list(st, 1, &m, &n, &e) != 0) {
		free(state);
		free(detail);
		store_close(st);
		return cli_fail(&e);
	}
	if (state == NULL) {
		printf("despatchd  never ran on this database\n");
	} else {
		int alive = strcmp(state, "running") == 0 && kill((pid_t)pid, 0) == 0;
		char when[64];
		time_t t = (time_t)at;
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("despatchd  %s (pid %lld), as of %s: %s\n", alive ? "running" :
		    strcmp(state, "running") == 0 ? "gone (it did not stop cleanly)" :
		    state, (long long)pid, when, detail ? detail : "");
	}
	for (i = 0; i < n; i++) {
		if (m[i].failed_at != 0)
			failed++;
		else if (m[i].attempts > 0)
			retrying++;
		else
			waiting++;
	}
	printf("outbox     %d waiting, %d being retried, %d failed for good%s\n",
	    waiting, retrying, failed, failed ? " (see 'despatch outbox')" : "");
	store_mails_free(m, n);
	{
		int64_t spooled = 0, kept = 0;

		if (store_spool_counts(st, &spooled, &kept, &e) == 0)
			printf("spool      %lld taken from the mailbox and not yet "
			    "read, %lld the intake failed on%s\n", (long long)spooled,
			    (long long)kept, kept ? " (kept in the spool table, "
			    "with the error)" : "");
	}
	names = store_game_names(st);
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		int64_t dl = 0, step = 0, id = 0;
		enum game_status gst = GAME_SETUP;
		struct store_clock c;
		const char *gstatus = NULL;
		int found = store_game_find(st, name, &id, &gst, &step, &e);

		if (found < 0 || (found == 1 && store_game_clock(st, id, &c,
		    &e) != 0))
			break;
		if (found == 1) {
			gstatus = store_status_name(gst);
			dl = c.deadline;
		}
		if (dl > 0) {
			char when[64];
			time_t t = (time_t)dl;
			struct tm tm;

			gmtime_r(&t, &tm);
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
			printf("game       %-16s %s, step %lld, deadline %s\n", name,
			    gstatus ? gstatus : "?", (long long)step, when);
		} else {
			printf("game       %-16s %s, step %lld\n", name, gstatus ?
			    gstatus : "?", (long long)step);
		}
		if (gstatus != NULL && strcmp(gstatus, "running") == 0) {
			/* Played by another engine: no phase is played until the
			 * operator carries it over. */
			struct referee r;
			int eng = 0;

			cli_referee_init(&r, st);
			if (referee_engine_of(&r, id, &eng, &e) == 0 &&
			    eng != ledger_engine_current()) {
				const struct ledger_engine *en = ledger_engine_get(eng);

				printf("           %-16s WAITS: played by rules engine "
				    "%d, this build plays %d; %s%s\n", "", eng,
				    ledger_engine_current(), eng > ledger_engine_current() ?
				    "run a newer despatch" : en == NULL ||
				    en->state_hash == NULL ? "this build cannot carry it "
				    "over: finish it with " : "run 'despatch game upgrade' "
				    "for it", eng < ledger_engine_current() && (en == NULL ||
				    en->state_hash == NULL) ? (en != NULL ? en->build :
				    "the build that played it") : "");
			}
			referee_fini(&r);
		}
	}
	free(names);
	free(state);
	free(detail);
	store_close(st);
	return 0;
}
