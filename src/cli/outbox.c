/*
 * outbox.c - the outbox from the command line: the mail waiting to go
 * out listed, written as .eml files into a folder, or sent over SMTP
 * (despatch(1), "outbox").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "cli/cli.h"
#include "config/config.h"
#include "mail/mail.h"
#include "referee/referee.h"
#include "report/json.h"

/* --- outbox ------------------------------------------------------------ */


/* outbox write prints each file it writes (unless *quiet), and says
 * what it could not write. */
static void
told_file(void *arg, const char *path, const char *failed)
{
	const int *quiet = arg;

	if (failed != NULL)
		fprintf(stderr, "despatch: %s\n", failed);
	else if (!*quiet)
		printf("%s\n", path);
}

int
cli_outbox_write(struct referee *r, const char *dir, int quiet, int *written,
    struct err *e)
{
	return referee_outbox_write(r, dir, told_file, &quiet, written, e);
}

/* outbox send: the due mail over SMTP, as the configuration says. */
static int
outbox_send(int now)
{
	struct referee *r = NULL;
	struct mail_smtp smtp;
	struct send_result res;
	struct err e;
	int rc;

	err_clear(&e);
	if (cli_config == NULL || !cli_config->smtp.set)
		return cli_usage_error("outbox", "'outbox send' needs the [smtp] "
		    "section of a configuration file: despatch -c FILE outbox "
		    "send (see despatch.conf(5))");
	memset(&smtp, 0, sizeof(smtp));
	snprintf(smtp.url, sizeof(smtp.url), "%s", cli_config->smtp.url);
	snprintf(smtp.user, sizeof(smtp.user), "%s", cli_config->smtp.user);
	snprintf(smtp.ca_file, sizeof(smtp.ca_file), "%s",
	    cli_config->smtp.ca_file);
	if (cli_config->smtp.password_file[0] != '\0' &&
	    config_read_secret(cli_config->smtp.password_file, smtp.password,
	    sizeof(smtp.password), &e) != 0)
		return cli_fail(&e);
	if (cli_open(0, &r, &e) != 0) {
		sodium_memzero(smtp.password, sizeof(smtp.password));
		return cli_fail(&e);
	}
	rc = referee_outbox_send(r, &smtp, now, &res, &e);
	sodium_memzero(smtp.password, sizeof(smtp.password));
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("%d sent, %d put off, %d failed for good\n", res.sent,
	    res.deferred, res.failed);
	if (res.deferred > 0)
		fprintf(stderr, "despatch: put off: %s\n", res.last_error);
	return 0;
}

int
cmd_outbox(int argc, char **argv)
{
	struct referee *r = NULL;
	struct err e;
	int i, as_json = 0, rc;

	err_clear(&e);
	if (cli_help(argc, argv, "usage: despatch outbox [--json]\n"
	    "       despatch outbox write DIR\n"
	    "       despatch -c CONFIG outbox send [--now]\n\n"
	    "Lists the mail waiting to be delivered, or delivers it: 'write'\n"
	    "puts each waiting mail into DIR as one .eml file and marks it\n"
	    "delivered, so a second call writes only what was queued since;\n"
	    "'send' sends what is due over SMTP with the [smtp] section of the\n"
	    "configuration (despatch.conf(5)), from cron for example. A mail the\n"
	    "server cannot take now is tried again later (after 1 minute, then\n"
	    "doubling to an hour; --now sends all of it now); one it refuses\n"
	    "for good is marked failed and\n"
	    "listed here. A mail may be sent twice if despatch dies between the\n"
	    "server's acceptance and its record: with the same Message-ID.\n"))
		return 0;
	if (argc >= 2 && strcmp(argv[1], "send") == 0) {
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "--now") != 0))
			return cli_usage_error("outbox", "expected 'outbox send "
			    "[--now]'");
		return outbox_send(argc == 3);
	}
	if (argc >= 2 && strcmp(argv[1], "write") == 0) {
		int written = 0;

		if (argc != 3)
			return cli_usage_error("outbox", "expected 'outbox write DIR'");
		if (cli_open(0, &r, &e) != 0)
			return cli_fail(&e);
		if (cli_outbox_write(r, argv[2], 0, &written, &e) != 0) {
			referee_free(r);
			return cli_fail(&e);
		}
		referee_free(r);
		fprintf(stderr, "%d mail%s written to %s\n", written, written == 1 ?
		    "" : "s", argv[2]);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = 1;
		else
			return cli_usage_error("outbox", "unknown argument");
	}
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_outbox_print(r, stdout, as_json, &e);
	referee_free(r);
	return rc != 0 ? cli_fail(&e) : 0;
}

