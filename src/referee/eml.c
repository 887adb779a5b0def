/*
 * eml.c - the outbox delivered as .eml files into a folder (`despatch
 * outbox write`, the demo): for a server whose mail leaves by another
 * road, and for tests.  Each file is written whole under a temporary
 * name and linked into place, so a reader never sees half of one, and
 * the mail is marked sent only after.
 */
#include "referee/referee.h"

#include <sodium.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/crash.h"
#include "ledger/ledger.h"
#include "referee/internal.h"
#include "scenario/scenario.h"

int
referee_mkdir_p(const char *dir, unsigned mode)
{
	char buf[4096];
	size_t i;

	if (strlen(dir) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, strlen(dir) + 1);
	for (i = 1; buf[i]; i++)
		if (buf[i] == '/') {
			buf[i] = '\0';
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return -1;
			buf[i] = '/';
		}
	if (mkdir(buf, mode) == 0)
		return chmod(buf, mode);   /* exactly mode, whatever the umask */
	return errno == EEXIST ? 0 : -1;
}

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
referee_outbox_write(struct referee *r, const char *dir,
    void (*told)(void *arg, const char *path, const char *failed), void *arg,
    int *written, struct err *e)
{
	struct store_mail *m = NULL;
	int n = 0, i, failed = 0;
	struct stat sb;
	char *drawn = NULL;
	size_t dlen = 0;
	int wrc;

	*written = 0;
	/* The mails hold secrets (a welcome's) and a fog game's orders. */
	if (referee_mkdir_p(dir, 0700) != 0 || stat(dir, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode))
		return err_set(e, ERR_USER, "%s: cannot make the directory: %s",
		    dir, strerror(errno));
	if (store_outbox_list(r->st, 1, &m, &n, e) != 0)
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
			int drc;

			free(drawn);
			drawn = NULL;
			drc = referee_mail_drawn(r, &m[i], &drawn, &dlen, e);
			if (drc != 0) {
				if (e->kind == ERR_TEMP) {
					store_mails_free(m, n);
					return -1;
				}
				err_clear(e);
			}
		}
		if (drawn != NULL && store_outbox_hash(r->st, m[i].id, drawn, dlen,
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
			if (told != NULL)
				told(arg, NULL, e->msg);
			err_clear(e);
			failed++;
			continue;
		}
		crash_point("after-write");
		if (store_outbox_delivered(r->st, m[i].id, (int64_t)time(NULL), e) != 0) {
			store_mails_free(m, n);
			return -1;
		}
		crash_point("after-mark");
		if (told != NULL) {
			char path[4700];

			snprintf(path, sizeof(path), "%s%s%s", dir,
			    dir[strlen(dir) - 1] == '/' ? "" : "/", name);
			told(arg, path, NULL);
		}
		(*written)++;
	}
	store_mails_free(m, n);
	if (failed > 0)
		return err_set(e, ERR_USER, "%d mail%s could not be written (see "
		    "above); the rest went out", failed, failed == 1 ? "" : "s");
	return 0;
}
