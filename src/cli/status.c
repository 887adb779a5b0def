/*
 * status.c - `despatch status` and `despatch games`: the server and its
 * games at a glance, in text or JSON, with exit codes a monitoring check
 * can use (despatch(1), status).
 *
 * Whether despatchd runs is read from its lock, DATABASE.despatchd.lock,
 * which it holds with flock(LOCK_EX) for as long as it serves the
 * database: a shared lock that cannot be had means it runs.  Not from
 * its pid: kill(pid, 0) run as another user says EPERM, and a pid may
 * have been given to another process since.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli/cli.h"
#include "referee/referee.h"

/* Whether a despatchd holds the lock of database db; note says why when
 * that cannot be known. */
static enum referee_daemon_lock
daemon_lock(const char *db, char *note, size_t size)
{
	char path[4200];
	int fd, rc;

	snprintf(path, sizeof(path), "%s.despatchd.lock", db);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return REFEREE_LOCK_FREE;   /* no despatchd ever served it */
		snprintf(note, size, "cannot open %s: %s (run status as the "
		    "daemon's user or root)", path, strerror(errno));
		return REFEREE_LOCK_UNKNOWN;
	}
	/* Held for an instant and let go at once (close). */
	rc = flock(fd, LOCK_SH | LOCK_NB);
	if (rc != 0 && errno == EWOULDBLOCK) {
		close(fd);
		return REFEREE_LOCK_HELD;
	}
	if (rc != 0) {
		snprintf(note, size, "cannot look at the lock %s: %s", path,
		    strerror(errno));
		close(fd);
		return REFEREE_LOCK_UNKNOWN;
	}
	close(fd);
	return REFEREE_LOCK_FREE;
}

/* --json alone, or nothing: 1 for --json, 0 for nothing, -1 else. */
static int
json_flag(int argc, char **argv)
{
	if (argc == 1)
		return 0;
	if (argc == 2 && strcmp(argv[1], "--json") == 0)
		return 1;
	return -1;
}

int
cmd_status(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	char note[4400] = "";
	enum referee_daemon_lock lock;
	int as_json, rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch status [--json]\n\n"
	    "The server at a glance: whether despatchd runs (it holds its lock "
	    "on the\ndatabase) and what it did last, the mail waiting to go "
	    "out, the spool, and\neach game's phase and deadline; with --json "
	    "the same as one object\n(docs/json.md). Secrets are never shown.\n\n"
	    "Exit status, for a monitoring check (text and --json alike):\n"
	    "  0  all is well\n"
	    "  1  warnings: mail failed for good, spooled mail the intake failed "
	    "on,\n     a mail server despatchd cannot reach, a game waiting for "
	    "an upgrade\n"
	    "  2  despatchd is not running (it never ran, stopped, or is gone)\n"
	    "  3  unknown: no database, or the database or the lock cannot be "
	    "read\n\n"
	    "Run it as the daemon's user or as root: the database and the lock "
	    "are 0600.\nIt never creates a database.\n"))
		return 0;
	if ((as_json = json_flag(argc, argv)) < 0)
		return cli_usage_error("status", "takes only --json");
	if (cli_open(0, &r, &e) != 0)
		return referee_status_unknown(stdout, as_json, e.msg);
	lock = daemon_lock(db_path, note, sizeof(note));
	rc = referee_status_print(r, stdout, as_json, lock, note, &e);
	referee_free(r);
	if (rc < 0)
		return referee_status_unknown(stdout, as_json, e.msg);
	return rc;
}

int
cmd_games(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	int as_json, rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch games [--json]\n\n"
	    "Lists every game, one a line: its name, ruleset, status (setup, "
	    "running,\npaused or over), turn (TURN/TURNS, \"-\" before the "
	    "start) and the open\nphase's deadline in the game's time zone "
	    "(\"-\" for none). With --json, an\narray of objects "
	    "(docs/json.md), the deadline in ISO 8601 UTC.\n"))
		return 0;
	if ((as_json = json_flag(argc, argv)) < 0)
		return cli_usage_error("games", "takes only --json");
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_games_print(r, stdout, as_json, &e);
	referee_free(r);
	return rc != 0 ? cli_fail(&e) : 0;
}
