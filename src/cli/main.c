/*
 * main.c - the despatch command: create games, add players, take order
 * mails, play turns, show state and events, deliver queued mail, and play
 * the Cowpens demo.  See despatch(1) (docs/despatch.1).
 *
 * Exit status: 0 success; 1 a user or data error (the message says which
 * and what would be right); 2 a usage error; 75 (EX_TEMPFAIL) from submit
 * when a mail could not be stored for a passing reason, so an MTA retries.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "campaign/campaign.h"
#include "cli/cli.h"
#include "core/crash.h"
#include "config/config.h"
#include "mail/mail.h"
#include "report/json.h"
#include "core/dice.h"
#include "core/ruleset.h"
#include "ledger/engine.h"
#include "ledger/ledger.h"
#include "map/map.h"
#include "referee/referee.h"
#include "report/report.h"
#include "scenario/scenario.h"


const char *db_path;
const struct config *cli_config;
const char *cli_config_path;
/* The referee's options: the configuration's, else the environment's,
 * read once in main. */
static struct referee_opts cli_ropts;

const struct referee_opts *
cli_referee_opts(void)
{
	return &cli_ropts;
}


int
cli_fail(const struct err *e)
{
	fprintf(stderr, "despatch: %s\n", e->msg);
	return e->kind == ERR_TEMP ? EXIT_TEMPFAIL : EXIT_FAILURE;
}

int
cli_usage_error(const char *cmd, const char *msg)
{
	fprintf(stderr, "despatch %s: %s\nTry 'despatch %s --help'.\n", cmd, msg,
	    cmd);
	return EXIT_USAGE;
}

int
cli_unknown_option(const char *cmd, const char *opt)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "unknown option '%.100s'", opt);
	return cli_usage_error(cmd, msg);
}

int
cli_wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	return 0;
}

int
cli_help(int argc, char **argv, const char *usage)
{
	if (!cli_wants_help(argc, argv))
		return 0;
	fputs(usage, stdout);
	return 1;
}

int
cli_help_or_usage(int argc, char **argv, int bad, const char *usage)
{
	if (cli_help(argc, argv, usage))
		return 0;
	if (!bad)
		return -1;
	fputs(usage, stdout);
	return EXIT_USAGE;
}

int
cli_open(int create, struct referee **r, struct err *e)
{
	const char *copy = NULL;
	int from, now;

	if (referee_open(db_path, create, &cli_ropts, r, e) != 0)
		return -1;
	if ((from = referee_store_upgraded(*r, &now, &copy)) > 0)
		fprintf(stderr, "despatch: %s was at schema version %d and is now "
		    "at %d; a copy of it as it was is kept as %s\n", db_path, from,
		    now, copy);
	return 0;
}

/* --- new, player, start ------------------------------------------------ */

static int
cmd_new(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *game = NULL, *file = NULL;
	int sandbox = 0, i, rc;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch new GAME SCENARIO [--sandbox]\n\n"
	    "Creates game GAME, in set-up, from the scenario file SCENARIO\n"
	    "(docs/scenario.md), making the database if it does not exist.\n"
	    "--sandbox marks a game whose dice may be scripted with\n"
	    "'despatch turn --dice' (tests and worked examples); a live game\n"
	    "can never take chosen dice.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sandbox") == 0)
			sandbox = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_unknown_option("new", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else if (file == NULL)
			file = argv[i];
		else
			return cli_usage_error("new", "too many arguments");
	}
	if (game == NULL || file == NULL)
		return cli_usage_error("new", "GAME and SCENARIO are required");
	{
		/* Read the scenario first: a bad file must not create a database. */
		char *text = NULL;
		size_t len = 0;
		struct battle *b = NULL;

		if (scenario_load_file(file, &text, &len, &b, &e) != 0)
			return cli_fail(&e);
		battle_free(b);
		free(text);
	}
	if (cli_open(1, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_new_game(r, game, file, sandbox, NULL, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	{
		char *text = NULL;
		size_t len = 0;
		struct battle *b = NULL;
		int k;

		printf("created game %s from %s%s in %s\n", game, file, sandbox ?
		    " (sandbox)" : "", db_path);
		if (scenario_load_file(file, &text, &len, &b, &e) == 0) {
			printf("sides:");
			for (k = 0; k < b->nsides; k++)
				printf(" %s", b->sides[k].id);
			printf("\nnext: despatch player add %s SIDE EMAIL, for each "
			    "side\n", game);
		}
		battle_free(b);
		free(text);
	}
	return 0;
}

static int
cmd_player(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *pos[3] = { NULL, NULL, NULL }, *password = NULL, *verb;
	const char *brigades = NULL;
	char secret[REFEREE_SECRET_MAX];
	int i, n = 0, rc, want, delay = -1, as_json = 0;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch player add GAME SIDE EMAIL [--password P] "
	    "[--brigades LIST]\n"
	    "       despatch player add GAME observer EMAIL [--delay N]\n"
	    "       despatch player list GAME [--json]\n"
	    "       despatch player remove GAME EMAIL\n"
	    "       despatch player reset GAME EMAIL [--password P]\n"
	    "       despatch player replace GAME SIDE|EMAIL NEW-EMAIL "
	    "[--password P]\n\n"
	    "add: adds a player for SIDE of GAME (before the game starts) and\n"
	    "prints the player's secret: a random token made by the server,\n"
	    "or P (at least 8 characters) if given. Only a keyed hash of it\n"
	    "is kept once the welcome mail has told the player. A side may\n"
	    "have several players: give each --brigades, the brigades it\n"
	    "commands (\"Main Line, Cavalry Reserve\", and \"army\" for the\n"
	    "army commander); together they must cover the side.\n"
	    "add ... observer: EMAIL follows the game without playing: after\n"
	    "each phase the whole picture of it (both sides, every roll, the\n"
	    "map), N phases late (default: the observer-delay setting, 2);\n"
	    "all that is held back goes when the battle ends. Any time.\n"
	    "list: the players of GAME, one a line (with --json an array of\n"
	    "{side, email, brigades}, docs/json.md).\n"
	    "remove: takes a player out of a game still in set-up.\n"
	    "reset: gives a player a new secret and prints it; in a started\n"
	    "game a mail tells the player (the old secret stops working).\n"
	    "replace: hands a player's place in a running game (a side with "
	    "one player,\nor the player's address) to NEW-EMAIL with a new "
	    "secret; the new player\ngets it with the help and the forces, "
	    "the old one and the others are told.\n"))
		return 0;
	if (argc < 2)
		return cli_usage_error("player", "expected add, list, remove or reset");
	verb = argv[1];
	want = strcmp(verb, "add") == 0 || strcmp(verb, "replace") == 0 ? 3 :
	    strcmp(verb, "list") == 0 ? 1 :
	    strcmp(verb, "remove") == 0 || strcmp(verb, "reset") == 0 ? 2 : 0;
	if (want == 0)
		return cli_usage_error("player", "expected add, list, remove, reset "
		    "or replace");
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--password") == 0 && (want == 3 ||
		    strcmp(verb, "reset") == 0)) {
			if (++i >= argc)
				return cli_usage_error("player", "--password needs a value");
			password = argv[i];
		} else if (strcmp(argv[i], "--delay") == 0 &&
		    strcmp(verb, "add") == 0) {
			char *end = NULL;

			if (++i >= argc)
				return cli_usage_error("player", "--delay needs a number "
				    "of phases");
			delay = (int)strtol(argv[i], &end, 10);
			if (*end != '\0' || delay < 0 || delay > 1000)
				return cli_usage_error("player", "--delay takes a number "
				    "of phases, 0 to 1000");
		} else if (strcmp(argv[i], "--json") == 0 &&
		    strcmp(verb, "list") == 0) {
			as_json = 1;
		} else if (strcmp(argv[i], "--brigades") == 0 &&
		    strcmp(verb, "add") == 0) {
			if (++i >= argc)
				return cli_usage_error("player", "--brigades needs a list");
			brigades = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_unknown_option("player", argv[i]);
		} else if (n < want) {
			pos[n++] = argv[i];
		} else {
			return cli_usage_error("player", "too many arguments");
		}
	}
	if (n != want)
		return cli_usage_error("player", want == 3 ? "GAME, SIDE and EMAIL are "
		    "required (replace: GAME, SIDE or EMAIL, and NEW-EMAIL)" : want == 2 ? "GAME and EMAIL are required" :
		    "GAME is required");
	if (delay >= 0 && (n < 2 || strcmp(pos[1], "observer") != 0))
		return cli_usage_error("player", "--delay is for an observer: "
		    "player add GAME observer EMAIL --delay N");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	if (strcmp(verb, "list") == 0) {
		char *text = NULL;

		rc = referee_player_list(r, pos[0], as_json, &text, &e);
		if (rc == 0)
			fputs(text, stdout);
		free(text);
	} else if (strcmp(verb, "remove") == 0) {
		rc = referee_player_remove(r, pos[0], pos[1], &e);
		if (rc == 0)
			printf("removed %s from game %s\n", pos[1], pos[0]);
	} else if (strcmp(verb, "replace") == 0) {
		rc = referee_player_replace(r, pos[0], pos[1], pos[2], password,
		    secret, &e);
		if (rc == 0)
			printf("%s now plays %s in game %s (the welcome is queued)\n"
			    "secret: %s\n", pos[2], pos[1], pos[0], secret);
	} else if (strcmp(verb, "reset") == 0) {
		rc = referee_player_reset(r, pos[0], pos[1], password, secret, &e);
		if (rc == 0)
			printf("new secret for %s in game %s\nsecret: %s\n", pos[1],
			    pos[0], secret);
	} else if (strcmp(pos[1], "observer") == 0) {
		rc = referee_observer_add(r, pos[0], pos[2], delay, &e);
		if (rc == 0)
			printf("%s observes game %s (told by mail)\n", pos[2], pos[0]);
	} else {
		rc = referee_player_add(r, pos[0], pos[1], pos[2], password,
		    brigades,
		    secret, &e);
		if (rc == 0)
			printf("added %s to game %s, side %s\nsecret: %s\n", pos[2],
			    pos[0], pos[1], secret);
	}
	sodium_memzero(secret, sizeof(secret));
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	return 0;
}

static int
cmd_start(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	int rc;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch start GAME\n\nFreezes the roster of GAME, "
	    "queues a welcome mail to every player\n(with their side, the "
	    "game's facts and how to send orders) and opens\nthe first "
	    "phase. Every side needs at least one player.\n"))
		return 0;
	if (argc != 2)
		return cli_usage_error("start", "expected 'start GAME'");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_start(r, argv[1], &e);
	if (rc == 0) {
		struct referee_game g;
		struct battle *b = NULL;
		int deploys = 0;

		/* the first step: the deployment, where the battle has one */
		if (referee_game_load(r, argv[1], &g, &b, &e) == 0)
			deploys = battle_deploy_steps(b) > 0;
		battle_free(b);
		err_clear(&e);
		printf("game %s started: welcome mails queued (see 'despatch "
		    "outbox'); %s is open\n", argv[1], deploys ? "the deployment "
		    "(turn 0)" : "turn 1");
		if (cli_ropts.from == NULL || *cli_ropts.from == '\0')
			fprintf(stderr, "despatch: note: the mail goes out From %s; "
			    "set DESPATCH_FROM to the address players should "
			    "answer\n", referee_from(r));
	}
	referee_free(r);
	return rc != 0 ? cli_fail(&e) : 0;
}

/* --- submit ------------------------------------------------------------ */

/* Reads a mail from f.  One past the limit is read only up to the limit
 * and a byte (the rest is drained): the intake stores that much, as
 * unreadable, and answers its sender with the limit, rather than the
 * mail being refused and bounced without a word. */
static int
read_stream(FILE *f, char **buf, size_t *len, struct err *e)
{
	char *b = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			if (cap > SUBMIT_MAX) {
				char sink[65536];

				while (fread(sink, 1, sizeof(sink), f) > 0)
					;
				break;
			}
			cap = cap ? cap * 2 : 65536;
			if (cap > SUBMIT_MAX)
				cap = SUBMIT_MAX + 1;
			nb = realloc(b, cap + 1);
			if (nb == NULL) {
				free(b);
				return err_set(e, ERR_TEMP, "out of memory");
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(b);
		return err_set(e, ERR_TEMP, "reading the mail: %s", strerror(errno));
	}
	if (b == NULL && (b = malloc(1)) == NULL)
		return err_set(e, ERR_TEMP, "out of memory");
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* A mail the store could not take, whatever the reason (locked, full,
 * missing, damaged): exit 75, so the MTA keeps the mail and tries again
 * while the operator mends the store, rather than bouncing a player's
 * orders.  What the MTA may quote in a bounce or a delay notice is one
 * line without paths; the detail goes to syslog (and to a terminal). */
static int
submit_trouble(const char *name, const struct err *e)
{
	syslog(LOG_MAIL | LOG_WARNING, "submit: %s: not stored: %s", name,
	    e->msg);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "despatch: %s: not stored: %s\n", name, e->msg);
	else
		fprintf(stderr, "despatch: the mail was not stored now (the "
		    "server's store is not available); it will be tried again\n");
	return EXIT_TEMPFAIL;
}

static int
submit_one(struct referee *r, const char *name, const char *raw, size_t len,
    const char *sender, int quiet)
{
	struct submit_result res;
	struct err e;

	err_clear(&e);
	if (referee_submit(r, raw, len, sender, &res, &e) != 0)
		return submit_trouble(name, &e);
	if (!quiet)
		printf("%s: %s: %s\n", name, res.outcome == SUBMIT_DUPLICATE ?
		    "duplicate" : res.status, res.note);
	return 0;
}

static int
cmd_submit(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	const char *sender = NULL;
	int i, nfiles = 0, worst = 0;

	err_clear(&e);
	if (cli_help(argc, argv,
	    "usage: despatch submit [--sender ADDR] [FILE...]\n\n"
	    "Takes order mails (RFC 5322 messages) from the files, or one from\n"
	    "standard input, as an MTA pipe would deliver them. Each mail is\n"
	    "stored (with the player's secret blanked) and answered: with what\n"
	    "was understood, or with what is wrong. A mail stored before (same\n"
	    "Message-ID or same bytes) is neither stored nor answered again.\n"
	    "--sender gives the envelope sender, used when the mail has no\n"
	    "usable From.\n\n"
	    "Exit status: 0 once every mail is safely stored, whatever the\n"
	    "replies say; 75 if one could not be stored (the database locked,\n"
	    "full, missing or damaged: the MTA keeps the mail and retries),\n"
	    "saying so in one line without paths, the detail going to syslog\n"
	    "(mail facility) and to a terminal; 1 for an unreadable FILE.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sender") == 0) {
			if (++i >= argc)
				return cli_usage_error("submit", "--sender needs an address");
			sender = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_unknown_option("submit", argv[i]);
		} else {
			nfiles++;
		}
	}
	openlog("despatch", LOG_PID, LOG_MAIL);
	if (cli_open(0, &r, &e) != 0)
		return submit_trouble(nfiles == 0 ? "stdin" : "the mail", &e);
	if (nfiles == 0) {
		char *raw = NULL;
		size_t len = 0;

		if (read_stream(stdin, &raw, &len, &e) != 0) {
			referee_free(r);
			return submit_trouble("stdin", &e);
		}
		worst = submit_one(r, "stdin", raw, len, sender, 0);
		free(raw);
	}
	for (i = 1; i < argc && nfiles > 0; i++) {
		char *raw = NULL;
		size_t len = 0;

		if (strcmp(argv[i], "--sender") == 0) {
			i++;
			continue;
		}
		if (scenario_read_file(argv[i], SUBMIT_MAX, &raw, &len, &e) != 0) {
			fprintf(stderr, "despatch: %s\n", e.msg);
			if (worst == 0)
				worst = EXIT_FAILURE;
			continue;
		}
		{
			int rc = submit_one(r, argv[i], raw, len, sender, 0);

			if (rc != 0)
				worst = rc;
		}
		free(raw);
	}
	referee_free(r);
	return worst;
}

/* --- turn -------------------------------------------------------------- */

static int
cmd_turn(int argc, char **argv)
{
	struct referee *r = NULL;
	struct turn_result tr;
	struct err e;
	const char *game = NULL, *dicefile = NULL;
	int *dice = NULL, ndice = 0, i, rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch turn GAME [--dice FILE]\n\n"
	    "Adjudicates the open phase of GAME now with the orders received\n"
	    "(sides without orders hold), stores the new state and the events,\n"
	    "and queues each player's report. Dice come from the game's seeded\n"
	    "stream; --dice FILE (sandbox games only) takes whole numbers from\n"
	    "FILE instead, in order: each must fit its die, and the phase fails,\n"
	    "changing nothing, if they run out or some are left over.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--dice") == 0) {
			if (++i >= argc)
				return cli_usage_error("turn", "--dice needs a file");
			dicefile = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_unknown_option("turn", argv[i]);
		} else if (game == NULL) {
			game = argv[i];
		} else {
			return cli_usage_error("turn", "too many arguments");
		}
	}
	if (game == NULL)
		return cli_usage_error("turn", "GAME is required");
	if (dicefile != NULL) {
		char *text = NULL;
		size_t len = 0;

		if (scenario_read_file(dicefile, 1024 * 1024, &text, &len, &e) != 0)
			return cli_fail(&e);
		rc = dice_script_parse(text, dicefile, &dice, &ndice, &e);
		free(text);
		if (rc != 0)
			return cli_fail(&e);
		if (dice == NULL) {
			dice = malloc(sizeof(int));
			if (dice == NULL)
				return EXIT_FAILURE;
		}
	}
	if (cli_open(0, &r, &e) != 0) {
		free(dice);
		return cli_fail(&e);
	}
	rc = referee_turn(r, game, dice, ndice, &tr, &e);
	referee_free(r);
	free(dice);
	if (rc != 0)
		return cli_fail(&e);
	if (tr.closed) {
		printf("game %s: turn %d closed to orders; the nonces are awaited "
		    "(the players have the Close notice)\n", game, tr.turn);
		return 0;
	}
	printf("game %s: played turn %d, step %d: %d event%s, %d %s%s\n", game,
	    tr.turn, tr.step, tr.events, tr.events == 1 ? "" : "s", tr.rolls,
	    tr.rolls == 1 ? "die" : "dice", tr.finished ?
	    "; the battle is over" : "");
	return 0;
}

/* --- state and events ------------------------------------------------- */

static int
load_game(const char *name, struct referee **r, struct referee_game *g,
    struct battle **b, struct err *e)
{
	if (cli_open(0, r, e) != 0)
		return -1;
	if (referee_game_load(*r, name, g, b, e) != 0) {
		referee_free(*r);
		*r = NULL;
		return -1;
	}
	return 0;
}

static void
report_game_of(const struct referee_game *g, struct report_game *rg)
{
	rg->name = g->name;
	rg->status = g->status;
	rg->visibility = g->visibility;
	rg->sandbox = g->sandbox;
	rg->step = g->step;
	rg->result = g->result;
	rg->nar = NULL;
}

/* --side SIDE: the side whose view is shown (*side -1: every side) and,
 * in a fog game, what it sees (*seen, malloc'd; NULL in an open game).
 * 0; 2 after saying the side is unknown; 1 with e set when out of
 * memory. */
static int
view_of(const char *cmd, const struct battle *b, const struct referee_game *g,
    const char *id, int *side, unsigned char **seen, struct err *e)
{
	int s;

	*side = -1;
	*seen = NULL;
	if (id == NULL)
		return 0;
	for (s = 0; s < b->nsides; s++)
		if (strcmp(b->sides[s].id, id) == 0)
			break;
	if (s == b->nsides) {
		fprintf(stderr, "despatch %s: this battle has no side \"%s\"; its "
		    "sides are", cmd, id);
		for (s = 0; s < b->nsides; s++)
			fprintf(stderr, " %s", b->sides[s].id);
		fprintf(stderr, "\n");
		return 2;
	}
	*side = s;
	if (strcmp(g->visibility, "fog") == 0 &&
	    (*seen = map_seen(b, s)) == NULL) {
		err_set(e, ERR_TEMP, "out of memory");
		return 1;
	}
	return 0;
}

static int
cmd_state(int argc, char **argv)
{
	struct referee_game g;
	struct referee *r = NULL;
	struct battle *b = NULL;
	struct err e;
	const char *game = NULL, *side_id = NULL;
	int i, as_json = 0, side = -1, rc;
	unsigned char *seen = NULL;

	err_clear(&e);
	memset(&g, 0, sizeof(g));
	if (cli_help(argc, argv,
	    "usage: despatch state GAME [--side SIDE] [--json]\n\nPrints "
	    "the battle state of GAME: every unit with its position, SP\nand "
	    "markers, every brigade with its losses. With --json, the whole "
	    "state\nin the shape docs/json.md describes. With --side, what "
	    "that side's players\nare shown: in a fog game, only the enemy "
	    "it can see.\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = 1;
		else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc)
			side_id = argv[++i];
		else if (strcmp(argv[i], "--side") == 0)
			return cli_usage_error("state", "--side needs a side id");
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_unknown_option("state", argv[i]);
		else if (game == NULL)
			game = argv[i];
		else
			return cli_usage_error("state", "too many arguments");
	}
	if (game == NULL)
		return cli_usage_error("state", "GAME is required");
	if (load_game(game, &r, &g, &b, &e) != 0)
		return cli_fail(&e);
	if ((rc = view_of("state", b, &g, side_id, &side, &seen, &e)) != 0) {
		battle_free(b);
		referee_free(r);
		return rc == 2 ? 2 : cli_fail(&e);
	}
	if (as_json) {
		struct report_game rg;
		struct jw j;

		report_game_of(&g, &rg);
		jw_init(&j, stdout);
		report_json_state(&j, NULL, &rg, b, side, seen);
		jw_done(&j);
	} else if (side >= 0) {
		struct text t;
		int s;

		text_init(&t, 4u << 20);
		text_add(&t, "%s (game %s), as %s sees it\n\n== %s (%s)\n", b->title,
		    g.name, b->sides[side].id, b->sides[side].name,
		    b->sides[side].id);
		report_forces(&t, b, side);
		report_holdings(&t, b, side, g.step);
		if (seen != NULL) {
			text_add(&t, "\n== The enemy in sight\n");
			report_seen(&t, b, side, seen);
		} else {
			for (s = 0; s < b->nsides; s++)
				if (s != side) {
					text_add(&t, "\n== %s (%s)\n", b->sides[s].name,
					    b->sides[s].id);
					report_forces(&t, b, s);
				}
		}
		fputs(t.s ? t.s : "", stdout);
		text_free(&t);
	} else {
		struct text t;
		int s;

		text_init(&t, 4u << 20);
		if (g.running)
			text_add(&t, "%s (game %s): turn %d of %d, the %s phase is "
			    "open\n", b->title, g.name, battle_step_turn(b, g.step),
			    b->turns, battle_step_side(b, g.step) >= 0 ?
			    b->sides[battle_step_side(b, g.step)].id :
			    battle_step_deploys(b, g.step) ? "deployment" : "joint");
		else
			text_add(&t, "%s (game %s): %s\n", b->title, g.name,
			    !g.finished ? "in set-up" : "the battle is over");
		for (s = 0; s < b->nsides; s++) {
			text_add(&t, "\n== %s (%s)\n", b->sides[s].name, b->sides[s].id);
			report_forces(&t, b, s);
			report_holdings_line(&t, b, s);
		}
		fputs(t.s ? t.s : "", stdout);
		text_free(&t);
	}
	free(seen);
	battle_free(b);
	referee_free(r);
	return 0;
}

static int
cmd_events(int argc, char **argv)
{
	struct referee_game g;
	struct referee *r = NULL;
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	const char *game = NULL, *side_id = NULL;
	int *steps = NULL, turn = -1, i, as_json = 0, side = -1, rc;
	unsigned char *seen = NULL;
	const struct narrative *nar = NULL;

	err_clear(&e);
	events_init(&ev);
	memset(&g, 0, sizeof(g));
	if (cli_help(argc, argv,
	    "usage: despatch events GAME [--turn N] [--side SIDE] "
	    "[--json]\n\nPrints what happened in GAME (all played phases, "
	    "or those of turn N)\nin order, each die roll with its purpose; "
	    "with --json in the shape\ndocs/json.md describes. With --side, "
	    "in a fog game, only what that side\ncould know (judged by what "
	    "it sees now).\n"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			as_json = 1;
		} else if (strcmp(argv[i], "--side") == 0) {
			if (++i >= argc)
				return cli_usage_error("events", "--side needs a side id");
			side_id = argv[i];
		} else if (strcmp(argv[i], "--turn") == 0) {
			char *end = NULL;

			if (++i >= argc)
				return cli_usage_error("events", "--turn needs a number");
			turn = (int)strtol(argv[i], &end, 10);
			/* 0: a battle's deployment */
			if (end == argv[i] || *end || turn < 0)
				return cli_usage_error("events", "--turn needs a number from 0");
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_unknown_option("events", argv[i]);
		} else if (game == NULL) {
			game = argv[i];
		} else {
			return cli_usage_error("events", "too many arguments");
		}
	}
	if (game == NULL)
		return cli_usage_error("events", "GAME is required");
	if (load_game(game, &r, &g, &b, &e) != 0)
		return cli_fail(&e);
	if ((rc = view_of("events", b, &g, side_id, &side, &seen, &e)) != 0) {
		battle_free(b);
		referee_free(r);
		return rc == 2 ? 2 : cli_fail(&e);
	}
	if (turn > b->turns) {
		free(seen);
		err_set(&e, ERR_USER, "game %s has turns 1 to %d; there is no turn "
		    "%d", g.name, b->turns, turn);
		battle_free(b);
		referee_free(r);
		return cli_fail(&e);
	}
	if (referee_game_events(r, g.id, 0, &ev, &steps, &e) != 0 ||
	    (as_json && (nar = referee_narrative(r, ruleset_find(g.ruleset),
	    &e)) == NULL)) {
		free(seen);
		free(steps);
		events_free(&ev);
		battle_free(b);
		referee_free(r);
		return cli_fail(&e);
	}
	{
		struct jw j;
		int seq = 0, last = -1;

		jw_init(&j, stdout);
		if (as_json) {
			jw_obj(&j, NULL);
			jw_str(&j, "game", g.name);
			if (turn >= 0)
				jw_int(&j, "turn", turn);
			else
				jw_null(&j, "turn");
			jw_arr(&j, "events");
		}
		for (i = 0; i < ev.n; i++) {
			const struct event *x = &ev.v[i];
			int t = battle_step_turn(b, steps[i]);
			int ph = battle_step_side(b, steps[i]);

			if (steps[i] != last) {
				seq = 0;
				last = steps[i];
			}
			seq++;
			if (turn >= 0 && t != turn)
				continue;
			if (seen != NULL && !report_event_known(b, side, seen, x))
				continue;
			if (!as_json) {
				printf("%d %-12s %s\n", t, ph >= 0 ? b->sides[ph].id : "",
				    x->text);
				continue;
			}
			report_json_event(&j, b, nar, x, steps[i], seq);
		}
		if (as_json) {
			jw_end_arr(&j);
			jw_end_obj(&j);
			jw_done(&j);
		}
	}
	free(seen);
	free(steps);
	events_free(&ev);
	battle_free(b);
	referee_free(r);
	return 0;
}

/* --- rules ------------------------------------------------------------- */

static int
cmd_rules(int argc, char **argv)
{
	const struct ruleset *const *all = ruleset_all();
	const struct ruleset *rs;
	int i;

	if (cli_help(argc, argv,
	    "usage: despatch rules [RULESET]\n\nWithout RULESET, lists the "
	    "rulesets. With one, lists its troop types and\nevery number it "
	    "uses, each marked 'text' (from the rules text) or\n'default' (our "
	    "choice, with the reason); a scenario overrides a number\nwith "
	    "'set NAME VALUE' (distances in inches).\n"))
		return 0;
	if (argc < 2) {
		for (i = 0; all[i] != NULL; i++)
			printf("%-10s %s\n", all[i]->name, all[i]->title);
		return 0;
	}
	rs = ruleset_find(argv[1]);
	if (rs == NULL) {
		fprintf(stderr, "despatch: no ruleset called \"%s\" (try 'despatch "
		    "rules')\n", argv[1]);
		return EXIT_FAILURE;
	}
	printf("%s: %s\n\nTroop types\n", rs->name, rs->title);
	for (i = 0; i < rs->ntypes; i++) {
		const struct troop_type *t = &rs->types[i];

		if (rs->words->type_numbers != NULL) {
			/* A ruleset that rates its troops by numbers of its
			 * own, in place of speed and morale. */
			char nums[80];

			rs->words->type_numbers(t, nums, sizeof(nums));
			printf("  %-26s %-10s %s  %-9s %s\n", t->id,
			    battle_kind_name(t->kind), nums,
			    ruleset_weapon_name(rs, t->weapon), t->label);
			continue;
		}
		printf("  %-26s %-10s speed %2d  morale %d  %-9s %s%s%s%s%s%s%s%s%s%s\n",
		    t->id, battle_kind_name(t->kind), t->speed, t->morale,
		    ruleset_weapon_name(rs, t->weapon), t->abil & ABIL_SS ? "SS " : "",
		    t->abil & ABIL_R ? "R " : "", t->abil & ABIL_SK ? "SK " : "",
		    t->abil & ABIL_SH ? "Sh " : "", t->abil & ABIL_NE ? "NE " : "",
		    t->abil & ABIL_MC ? "MC " : "", t->abil & ABIL_PT ? "PT " : "",
		    t->abil & ABIL_MIL ? "MIL" : "", t->abil & ABIL_MI ? "MI" : "",
		    t->abil & ABIL_NA ? "NA" : "");
	}
	printf("\nNumbers: name, value, the range a scenario may set, where it "
	    "comes from, and why.\nA scenario changes one with 'set NAME VALUE' "
	    "(distances in inches, as shown).\n");
	for (i = 0; i < rs->nparams; i++) {
		const struct rule_param *p = &rs->params[i];
		char v[32];

		char lo[24], hi[24], range[64];

		if (p->unit == PARAM_INCHES) {
			geom_fmt_fx(p->value, v, sizeof(v));
			strcat(v, "\"");
			snprintf(range, sizeof(range), "%s-%s\"",
			    geom_fmt_fx(p->min, lo, sizeof(lo)),
			    geom_fmt_fx(p->max, hi, sizeof(hi)));
		} else {
			snprintf(v, sizeof(v), "%d%s", p->value,
			    p->unit == PARAM_PERCENT ? "%" : "");
			snprintf(range, sizeof(range), "%d-%d", p->min, p->max);
		}
		printf("  %-32s %6s  %-9s %-7s %s\n", p->name, v, range, p->source,
		    p->why);
	}
	if (rs->base != NULL)
		printf("\n%s plays on %s's table: every number 'despatch rules %s' "
		    "lists\nis one of its own too (those above stand first), and a "
		    "scenario sets\nthem the same way.\n", rs->name, rs->base->name,
		    rs->base->name);
	if (rs->words->rules_note != NULL) {
		struct text t;

		text_init(&t, 1u << 20);
		rs->words->rules_note(&t);
		if (t.len > 0)
			fputs(t.s, stdout);
		text_free(&t);
	}
	return 0;
}

FILE *
cli_fopen_public(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fchmod(fd, 0644) != 0 || (f = fdopen(fd, "w")) == NULL) {
		close(fd);
		return NULL;
	}
	return f;
}

/* The commands: each row's run (NULL for a further usage line of the
 * command above), what follows "despatch" in the usage, and what it
 * does.  Dispatch and the usage both come from here. */
struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *what;
};

static const struct cli_command commands[] = {
	{ "new", cmd_new, "new GAME SCENARIO [--sandbox]",
	    "create a game in set-up from a scenario file" },
	{ "player", cmd_player, "player add GAME SIDE EMAIL [--password P] "
	    "[--brigades LIST]", "add a player; prints their secret" },
	{ "player", NULL, "player list GAME [--json]",
	    "the players of a game, one a line" },
	{ "player", NULL, "player remove|reset|replace GAME EMAIL "
	    "[NEW-EMAIL]", "remove, give a new secret to, or replace a player" },
	{ "start", cmd_start, "start GAME",
	    "freeze the roster, mail the welcomes, open turn 1" },
	{ "submit", cmd_submit, "submit [--sender ADDR] [FILE...]",
	    "take order mails from files or standard input" },
	{ "turn", cmd_turn, "turn GAME [--dice FILE]",
	    "adjudicate the open phase now" },
	{ "state", cmd_state, "state GAME [--json]",
	    "the battle state (as JSON with --json)" },
	{ "events", cmd_events, "events GAME [--turn N] [--json]",
	    "what happened (as JSON with --json)" },
	{ "outbox", cmd_outbox, "outbox [--json]",
	    "list the mail waiting to go out" },
	{ "outbox", NULL, "outbox write DIR",
	    "deliver waiting mail as .eml files into DIR" },
	{ "outbox", NULL, "outbox send [--now]",
	    "send the due mail over SMTP (the config's [smtp])" },
	{ "game", cmd_game, "game remove GAME --yes",
	    "remove a game that has not started" },
	{ "game", NULL, "game upgrade GAME",
	    "carry a game over to this build's rules engine" },
	{ "campaign", cmd_campaign, "campaign check FILE",
	    "read a campaign file and say what it holds, or what is wrong" },
	{ "campaign", NULL, "campaign new|start|state|show NAME ...",
	    "make, start and look at a campaign" },
	{ "campaign", NULL, "campaign player add NAME SIDE EMAIL "
	    "[--password P]", "add a campaign's player; prints their secret" },
	{ "campaign", NULL, "campaign orders NAME SIDE FILE|-",
	    "a side's orders for the campaign's next turn" },
	{ "campaign", NULL, "campaign turn NAME",
	    "play the next campaign turn, or end it once its battles are over" },
	{ "campaign", NULL, "campaign set NAME [KEY VALUE]",
	    "a campaign's clock: deadline, settle, reminders" },
	{ "campaign", NULL, "campaign map NAME FILE [--side SIDE]",
	    "draw the operational map to a PNG or an SVG" },
	{ "check", cmd_check, "check",
	    "check the configuration as despatchd does at its start" },
	{ "tick", cmd_tick, "tick",
	    "play what is due, send due reminders (cron)" },
	{ "status", cmd_status, "status [--json]",
	    "despatchd, outbox, games; exits 0-3 to monitors" },
	{ "games", cmd_games, "games [--json]",
	    "every game: ruleset, status, turn and deadline" },
	{ "pause", cmd_pause, "pause|resume GAME [--why TEXT]",
	    "stop or restart a game's clock" },
	{ "resume", cmd_resume, NULL, NULL },
	{ "extend", cmd_extend, "extend GAME TIME",
	    "put the open phase's deadline off" },
	{ "set", cmd_set, "set GAME|--server KEY VALUE",
	    "change a setting (deadline, press, ...)" },
	{ "show", cmd_show, "show GAME [--json]",
	    "a game's status, players and settings" },
	{ "rules", cmd_rules, "rules [RULESET]",
	    "list rulesets, or a ruleset's numbers and troop types" },
	{ "demo", cmd_demo, "demo [--campaign] [DIR]",
	    "play the Cowpens demo into DIR (default ./demo-out)" },
	{ "key", cmd_key, "key show", "the ledger's public key and its file" },
	{ "ledger", cmd_ledger, "ledger GAME [--json]",
	    "a game's signed records, the chain checked" },
	{ "export", cmd_export, "export GAME FILE [--with-addresses]",
	    "write the game's archive (despatch-archive(5))" },
	{ "verify", cmd_verify, "verify FILE [--head HEX] [--json]",
	    "check an archive from scratch, the battle replayed" },
	{ "map", cmd_map, "map GAME FILE [--side SIDE]",
	    "draw the table to a PNG, an SVG or a text map" },
	{ "backup", cmd_backup, "backup DIR",
	    "copy the database and its keys into DIR, safely" },
	{ "restore", cmd_restore, "restore DIR [--force]",
	    "put a backup back; each game's chain records it" },
	{ "vacuum", cmd_vacuum, "vacuum",
	    "give back the space of mail no longer needed" },
};

static void
usage_main(FILE *f)
{
	size_t i;

	fprintf(f,
	    "usage: despatch [-c CONFIG] [--db FILE] COMMAND [ARGS]\n"
	    "       despatch --help | --version\n"
	    "\n"
	    "A play-by-email server for American War of Independence wargames.\n"
	    "\n"
	    "Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct cli_command *c = &commands[i];

		if (c->synopsis == NULL)
			continue;
		if (strlen(c->synopsis) <= 32)
			fprintf(f, "  %-31s %s\n", c->synopsis, c->what);
		else
			fprintf(f, "  %s\n%34s%s\n", c->synopsis, "", c->what);
	}
	fprintf(f,
	    "\n"
	    "Options (before or after the command):\n"
	    "  -c, --config=FILE    the configuration (despatch.conf(5)); without it\n"
	    "                       $DESPATCH_CONFIG (\"\" for none), else\n"
	    "                       %s when it exists\n"
	    "  --db=FILE            the database\n"
	    "  -h, --help           this text; 'despatch COMMAND --help' tells more\n"
	    "  --version            the version\n"
	    "\n"
	    "The database is --db FILE, else the configuration's 'database', else\n"
	    "$DESPATCH_DB, else ./despatch.db. Run as root with a configured 'user',\n"
	    "despatch becomes that user before it opens the database. demo, verify\n"
	    "and --help read no configuration.\n", CONFIG_DEFAULT);
}

/* The global options, wherever they stand (despatch(1), OPTIONS). */
static const struct option global_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "db", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct globals {
	const char *db, *config;
	int help, version;
};

/* getopt_long over argv up to its first word that is no option (with
 * '+': the command, whose own options are its to read).  0, or
 * EXIT_USAGE after saying what is wrong. */
static int
globals_parse(int argc, char **argv, struct globals *g, int *next)
{
	int ch;

	opterr = 0;
	optind = 0;   /* glibc: start afresh, whatever a call before did */
	while ((ch = getopt_long(argc, argv, "+:c:h", global_options,
	    NULL)) != -1) {
		const char *opt = argv[optind - 1];

		switch (ch) {
		case 'c':
		case 'd':
			if (*optarg == '\0') {
				fprintf(stderr, "despatch: %s needs a file\n", opt);
				return EXIT_USAGE;
			}
			if (ch == 'c')
				g->config = optarg;
			else
				g->db = optarg;
			break;
		case 'h':
			g->help = 1;
			break;
		case 'V':
			g->version = 1;
			break;
		case ':':
			fprintf(stderr, "despatch: %s needs a file\n", opt);
			return EXIT_USAGE;
		default:
			if (optopt != 0 && strncmp(opt, "--", 2) != 0)
				fprintf(stderr, "despatch: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "despatch: unknown option '%s'\n", opt);
			fprintf(stderr, "Try 'despatch --help'.\n");
			return EXIT_USAGE;
		}
	}
	*next = optind;
	return 0;
}

/* 1 if arg is a global option that may follow the command (--db and
 * --config, each with =FILE or the next word, and -c FILE); *words is
 * how many words it takes. */
static int
is_late_global(const char *arg, int *words)
{
	if (strcmp(arg, "--db") == 0 || strcmp(arg, "--config") == 0 ||
	    strcmp(arg, "-c") == 0) {
		*words = 2;
		return 1;
	}
	if (strncmp(arg, "--db=", 5) == 0 || strncmp(arg, "--config=", 9) == 0) {
		*words = 1;
		return 1;
	}
	return 0;
}

/* The global options after the command are taken out of its arguments
 * (argv[from..]) and read with getopt_long, as those before it are. */
static int
late_globals(int *argc, char **argv, int from, struct globals *g)
{
	char *late[64];
	int nlate = 1, i, k, words, next;

	late[0] = argv[0];
	for (i = from; i < *argc; ) {
		if (!is_late_global(argv[i], &words)) {
			i++;
			continue;
		}
		if (i + words > *argc) {
			fprintf(stderr, "despatch: %s needs a file\n", argv[i]);
			return EXIT_USAGE;
		}
		if (nlate + words >= (int)(sizeof(late) / sizeof(late[0]))) {
			fprintf(stderr, "despatch: too many options\n");
			return EXIT_USAGE;
		}
		for (k = 0; k < words; k++)
			late[nlate++] = argv[i + k];
		for (k = i; k + words < *argc; k++)
			argv[k] = argv[k + words];
		*argc -= words;
	}
	late[nlate] = NULL;
	if (nlate == 1)
		return 0;
	return globals_parse(nlate, late, g, &next);
}

/* The configuration named by -c, else by $DESPATCH_CONFIG ("" for
 * none), else the default when it exists: 0 with *path (NULL: none),
 * or -1 having said why not. */
static int
config_path_of(const char *arg, const char *db, const char **path)
{
	const char *env = getenv("DESPATCH_CONFIG");
	struct stat st;

	*path = NULL;
	if (arg != NULL) {
		*path = arg;
		return 0;
	}
	if (env != NULL) {
		*path = *env != '\0' ? env : NULL;
		return 0;
	}
	/* A missing default is no error (a clone, a user's own games). The
	 * package's is root:despatch 0640: a user outside that group who
	 * names a database of their own with --db or $DESPATCH_DB plays
	 * without it; without one, they are told to. */
	if (stat(CONFIG_DEFAULT, &st) != 0 && (errno == ENOENT ||
	    errno == ENOTDIR))
		return 0;
	if (access(CONFIG_DEFAULT, R_OK) != 0 && errno == EACCES) {
		const char *env_db = getenv("DESPATCH_DB");

		if (db != NULL || (env_db != NULL && *env_db != '\0'))
			return 0;
		fprintf(stderr, "despatch: %s: %s; it is the server's (run as "
		    "root, or as a member of its group), or name a database of "
		    "your own with --db FILE\n", CONFIG_DEFAULT, strerror(EACCES));
		return -1;
	}
	*path = CONFIG_DEFAULT;
	return 0;
}

/* The commands that never read a configuration nor change user: they
 * touch no server's database, so a broken /etc file cannot stop them
 * (nor can any COMMAND --help). */
static const char *const no_config[] = { "demo", "verify", NULL };
/* The commands that read the configuration themselves: check reports a
 * broken one rather than failing on it. */
static const char *const own_config[] = { "check", NULL };

static int
listed(const char *const *list, const char *name)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], name) == 0)
			return 1;
	return 0;
}

static int
needs_no_config(int argc, char **argv)
{
	if (listed(no_config, argv[0]))
		return 1;
	return cli_wants_help(argc, argv);
}

int
main(int argc, char **argv)
{
	static struct config conf;
	struct globals g;
	const char *conf_path = NULL;
	const struct cli_command *cmd = NULL;
	size_t k;
	int rc, next = 1;

	memset(&g, 0, sizeof(g));
	/* The environment, read here once (despatch(1), ENVIRONMENT): the
	 * library reads none of it. */
	(void)ledger_engine_test(getenv("DESPATCH_TEST_ENGINE"));
	campaign_engine_test(getenv("DESPATCH_TEST_CAMPAIGN_ENGINE"));
	crash_init(getenv("DESPATCH_CRASH"), getenv("DESPATCH_FAULT"));
	if (getenv("DESPATCH_BUSY_TIMEOUT") != NULL)
		cli_ropts.busy_ms = strtol(getenv("DESPATCH_BUSY_TIMEOUT"), NULL, 10);
	cli_ropts.from = getenv("DESPATCH_FROM");
	cli_ropts.key_path = getenv("DESPATCH_KEY");
	cli_ropts.templates = getenv("DESPATCH_TEMPLATES");
	if ((rc = globals_parse(argc, argv, &g, &next)) != 0)
		return rc;
	if (g.help) {
		usage_main(stdout);
		return 0;
	}
	if (g.version) {
		printf("despatch %s\n", DESPATCH_VERSION);
		return 0;
	}
	if (next >= argc) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	/* --db FILE and -c FILE may stand after the command too. */
	if ((rc = late_globals(&argc, argv, next + 1, &g)) != 0)
		return rc;
	argc -= next;
	argv += next;
	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (commands[k].run != NULL && strcmp(argv[0], commands[k].name) == 0)
			cmd = &commands[k];
	if (cmd == NULL) {
		fprintf(stderr, "despatch: unknown command '%s'\n", argv[0]);
		usage_main(stderr);
		return EXIT_USAGE;
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "despatch: libsodium failed to initialise\n");
		return EXIT_FAILURE;
	}
	/* The database: --db, else the configuration's, else $DESPATCH_DB,
	 * else ./despatch.db (written down once, in despatch(1), FILES). */
	db_path = getenv("DESPATCH_DB");
	if (db_path == NULL || *db_path == '\0')
		db_path = "./despatch.db";
	if (listed(own_config, argv[0])) {
		cli_config_path = g.config;
	} else if (!needs_no_config(argc, argv)) {
		struct err e;

		err_clear(&e);
		if (config_path_of(g.config, g.db, &conf_path) != 0)
			return EXIT_FAILURE;
		if (conf_path != NULL) {
			if (config_load(conf_path, &conf, &e) != 0)
				return cli_fail(&e);
			cli_config = &conf;
			if (conf.database[0] != '\0')
				db_path = conf.database;
			if (conf.from[0] != '\0')
				cli_ropts.from = conf.from;
			if (conf.key[0] != '\0')
				cli_ropts.key_path = conf.key;
			if (conf.templates[0] != '\0')
				cli_ropts.templates = conf.templates;
		}
		/* Root with a configured user becomes it before the store is
		 * opened, as despatchd does, so that what despatch makes (the
		 * database, its key, the outbox's files) is the daemon's. */
		if (cli_config != NULL &&
		    config_become_user(cli_config, &e) != 0) {
			fprintf(stderr, "despatch: %s\n", e.msg);
			return EXIT_FAILURE;
		}
	}
	if (g.db != NULL)
		db_path = g.db;
	return cmd->run(argc, argv);
}
