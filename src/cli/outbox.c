/*
 * outbox.c - the outbox from the command line: the mail waiting to go
 * out listed, written as .eml files into a folder, or sent over SMTP
 * (despatch(1), "outbox").
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"
#include "config/config.h"
#include "core/crash.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "referee/referee.h"
#include "report/json.h"
#include "scenario/scenario.h"
#include "store/store.h"

/* --- outbox ------------------------------------------------------------ */


static int
write_file_atomic(const char *dir, const char *name, const char *data,
    size_t len, struct err *e)
{
	char path[4096], tmp[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	if (access(path, F_OK) == 0) {
		/* The same mail written before (and then not marked, say the
		 * database was busy) counts as delivered; anything else there
		 * is never overwritten. */
		char *old = NULL;
		size_t olen = 0;
		struct err ignore;

		if (scenario_read_file(path, len + 1, &old, &olen, &ignore) == 0 &&
		    olen == len && memcmp(old, data, len) == 0) {
			free(old);
			return 0;
		}
		free(old);
		return err_set(e, ERR_USER, "%s exists already; despatch never "
		    "overwrites mail (is another database writing into %s?)", path,
		    dir);
	}
	{
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		f = fd >= 0 && fchmod(fd, 0600) == 0 ? fdopen(fd, "wb") : NULL;
		if (f == NULL && fd >= 0)
			close(fd);
	}
	if (f == NULL)
		return err_set(e, ERR_USER, "%s: %s", tmp, strerror(errno));
	if (fwrite(data, 1, len, f) != len || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0) {
		fclose(f);
		unlink(tmp);
		return err_set(e, ERR_TEMP, "%s: %s", tmp, strerror(errno));
	}
	/* link() refuses to replace a file that appeared meanwhile. */
	if (fclose(f) != 0 || link(tmp, path) != 0) {
		int err = errno;

		unlink(tmp);
		return err_set(e, err == EEXIST ? ERR_USER : ERR_TEMP, "%s: %s",
		    path, strerror(err));
	}
	unlink(tmp);
	return 0;
}

int
cli_outbox_write(struct store *st, const char *dir, int quiet, int *written,
    struct err *e)
{
	struct store_mail *m = NULL;
	int n = 0, i, failed = 0;
	struct stat sb;
	char *drawn = NULL;
	size_t dlen = 0;
	int wrc;

	*written = 0;
	/* The mails hold secrets (a welcome's) and a fog game's orders. */
	if (cli_mkdir_p(dir, 0700) != 0 || stat(dir, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode))
		return err_set(e, ERR_USER, "%s: cannot make the directory: %s",
		    dir, strerror(errno));
	if (store_outbox_list(st, 1, &m, &n, e) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		char name[512], who[128];
		size_t k;

		/* A file name from the recipient's local part, made safe. */
		snprintf(who, sizeof(who), "%.60s", m[i].recipient);
		for (k = 0; who[k]; k++)
			if (who[k] == '@') {
				who[k] = '\0';
				break;
			} else if (!isalnum((unsigned char)who[k]) && who[k] != '-' &&
			    who[k] != '.') {
				who[k] = '_';
			}
		/* The Message-ID is unique to this mail, so its hash keeps
		 * files from different databases apart. */
		{
			unsigned char h[32];
			char hex[65];

			crypto_hash_sha256(h, (const unsigned char *)m[i].message_id,
			    strlen(m[i].message_id));
			ledger_hex(h, 4, hex);
			snprintf(name, sizeof(name), "%s-%06lld-%s-%s-%s.eml",
			    m[i].game[0] ? m[i].game : "despatch", (long long)m[i].id,
			    m[i].kind, who, hex);
		}
		/* A welcome's map is drawn now (referee_mail_drawn). */
		{
			struct referee r;
			int drc;

			free(drawn);
			drawn = NULL;
			cli_referee_init(&r, st);
			drc = referee_mail_drawn(&r, &m[i], &drawn, &dlen, e);
			referee_fini(&r);
			if (drc != 0) {
				if (e->kind == ERR_TEMP) {
					store_mails_free(m, n);
					return -1;
				}
				err_clear(e);
			}
		}
		if (drawn != NULL && store_outbox_hash(st, m[i].id, drawn, dlen,
		    e) != 0) {
			free(drawn);
			store_mails_free(m, n);
			return -1;
		}
		wrc = write_file_atomic(dir, name, drawn != NULL ? drawn : m[i].raw,
		    drawn != NULL ? dlen : m[i].len, e);
		free(drawn);
		drawn = NULL;
		if (wrc != 0) {
			if (e->kind == ERR_TEMP) {
				store_mails_free(m, n);
				return -1;
			}
			/* One mail that cannot be written must not hold back
			 * the others: say so, and go on. */
			fprintf(stderr, "despatch: %s\n", e->msg);
			failed++;
			continue;
		}
		crash_point("after-write");
		if (store_outbox_delivered(st, m[i].id, (int64_t)time(NULL), e) != 0) {
			store_mails_free(m, n);
			return -1;
		}
		crash_point("after-mark");
		if (!quiet)
			printf("%s%s%s\n", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			    name);
		(*written)++;
	}
	store_mails_free(m, n);
	if (failed > 0)
		return err_set(e, ERR_USER, "%d mail%s could not be written (see "
		    "above); the rest went out", failed, failed == 1 ? "" : "s");
	return 0;
}

/* outbox send: the due mail over SMTP, as the configuration says. */
static int
outbox_send(int now)
{
	struct store *st = NULL;
	struct referee r;
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
	if (cli_open_store(0, &st, &e) != 0) {
		sodium_memzero(smtp.password, sizeof(smtp.password));
		return cli_fail(&e);
	}
	cli_referee_init(&r, st);
	rc = referee_outbox_send(&r, &smtp, now, &res, &e);
	sodium_memzero(smtp.password, sizeof(smtp.password));
	referee_fini(&r);
	store_close(st);
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
	struct store *st = NULL;
	struct store_mail *m = NULL;
	struct err e;
	int n = 0, i, as_json = 0;

	err_clear(&e);
	if (cli_wants_help(argc, argv)) {
		printf("usage: despatch outbox [--json]\n"
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
		    "server's acceptance and its record: with the same Message-ID.\n");
		return 0;
	}
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
		if (cli_open_store(0, &st, &e) != 0)
			return cli_fail(&e);
		if (cli_outbox_write(st, argv[2], 0, &written, &e) != 0) {
			store_close(st);
			return cli_fail(&e);
		}
		store_close(st);
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
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	if (store_outbox_list(st, 1, &m, &n, &e) != 0) {
		store_close(st);
		return cli_fail(&e);
	}
	if (as_json) {
		struct jw j;

		jw_init(&j, stdout);
		jw_arr(&j, NULL);
		for (i = 0; i < n; i++) {
			jw_obj(&j, NULL);
			jw_int(&j, "id", m[i].id);
			jw_str(&j, "message_id", m[i].message_id);
			jw_str(&j, "to", m[i].recipient);
			jw_str(&j, "subject", m[i].subject);
			jw_str(&j, "kind", m[i].kind);
			jw_int(&j, "bytes", (int64_t)m[i].len);
			jw_int(&j, "attempts", m[i].attempts);
			if (m[i].last_error[0] != '\0')
				jw_str(&j, "last_error", m[i].last_error);
			if (m[i].failed_at != 0)
				jw_int(&j, "failed_at", m[i].failed_at);
			jw_end_obj(&j);
		}
		jw_end_arr(&j);
		jw_done(&j);
	} else {
		int failed = 0;

		for (i = 0; i < n; i++) {
			printf("%6lld  %-8s %-32s %s\n", (long long)m[i].id, m[i].kind,
			    m[i].recipient, m[i].subject);
			if (m[i].failed_at != 0) {
				printf("        FAILED: %s\n", m[i].last_error);
				failed++;
			} else if (m[i].attempts > 0) {
				printf("        %d attempt%s; last: %s\n", m[i].attempts,
				    m[i].attempts == 1 ? "" : "s", m[i].last_error);
			}
		}
		printf("%d mail%s waiting", n - failed, n - failed == 1 ? "" : "s");
		if (failed > 0)
			printf(", %d failed for good", failed);
		printf("\n");
	}
	store_mails_free(m, n);
	store_close(st);
	return 0;
}

