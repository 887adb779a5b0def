/*
 * check.c - 'despatch check': the configuration looked at as despatchd
 * looks at it when it starts (config_check), and nothing started.  Like
 * 'postfix check': one line a problem, and exit 78 (EX_CONFIG, what
 * despatchd exits with) when there is one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"

#define EXIT_CONFIG 78

static void
said(void *arg, const char *what)
{
	(void)arg;
	printf("%s\n", what);
}

int
cmd_check(int argc, char **argv)
{
	static struct config conf;
	const char *path = cli_config_path;
	struct err e;
	int n, rc;

	rc = cli_help_or_usage(argc, argv, argc > 1,
	    "usage: despatch [-c FILE] check\n\n"
	    "Checks the configuration FILE (default $DESPATCH_CONFIG, else\n"
	    "/etc/despatch/despatch.conf) as despatchd does when it starts:\n"
	    "its syntax, the database and its folder, each password file,\n"
	    "CA file, the Maildir, the key, the templates, the user, and the\n"
	    "syntax of each server's URL. It reaches no server. Run it as\n"
	    "the user despatchd runs as. One line a problem; exit 78 when\n"
	    "there is one, 0 when there is none.\n");
	if (rc >= 0)
		return rc;
	if (path == NULL)
		path = config_default_path(getenv("DESPATCH_CONFIG"));
	err_clear(&e);
	if (config_load(path, &conf, &e) != 0) {
		printf("%s\n", e.msg);
		return EXIT_CONFIG;
	}
	/* Checked as the user despatchd would run as. */
	if (config_become_user(&conf, &e) != 0) {
		printf("%s\n", e.msg);
		return EXIT_CONFIG;
	}
	n = config_check(&conf, 1, said, NULL);
	if (n > 0) {
		printf("%s: %d problem%s; despatchd would not start\n", path, n,
		    n == 1 ? "" : "s");
		return EXIT_CONFIG;
	}
	printf("%s: no problems found (no server was reached)\n", path);
	return 0;
}
