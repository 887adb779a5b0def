/*
 * keys.c - the server's keyed-hash keys: the one under which players'
 * secrets are hashed (so checking one costs microseconds, DESIGN.md,
 * Secrets) and the one behind a CONCEDE's confirmation code.
 *
 * They live in one file beside the ledger's signing key, KEYFILE.secrets
 * (mode 0600, "NAME HEX" a line), never in the database: a copy of the
 * database alone (a backup, a DATABASE.before-N, a stolen file) then lets
 * nobody test guesses at a secret offline.  The file is made whole beside
 * its name and linked into place, so a crash leaves no half of it and two
 * processes making it at once end with one (the loser reads the winner's).
 * An older despatch kept the keys in the server_keys table: the first
 * need of a key, or referee_keys_settle, carries them into the file and
 * then wipes them from the database.  A database in memory (tests) keeps
 * them in its table, as there is no file beside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "ledger/ledger.h"
#include "referee/internal.h"
#include "referee/referee.h"
#include "store/store.h"

static const char *const key_names[2] = { "secret-hash", "concede" };

static int
key_index(const char *name)
{
	int i;

	for (i = 0; i < 2; i++)
		if (strcmp(name, key_names[i]) == 0)
			return i;
	return -1;
}

static void
secrets_path(struct referee *r, char *path, size_t size)
{
	char kf[4096];

	referee_key_file(r, kf, sizeof(kf));
	if (kf[0] == '\0' || strlen(kf) + 9 > size)
		path[0] = '\0';
	else
		snprintf(path, size, "%s.secrets", kf);
}

/* Reads path: 1 with both keys, 0 when there is no file, -1 (e) when it
 * is damaged or readable by others. */
static int
file_read(const char *path, unsigned char keys[2][32], struct err *e)
{
	char buf[512], *line, *save = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), got = 0;
	struct stat sb;
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? 0 : err_set(e, ERR_TEMP, "%s: cannot read "
		    "the server's keys: %s", path, strerror(errno));
	if (fstat(fd, &sb) == 0 && (sb.st_mode & 0077) != 0) {
		close(fd);
		return err_set(e, ERR_USER, "%s holds the key of the players' "
		    "secrets and others can read it (mode %03o): run 'chmod 600 %s'",
		    path, (unsigned)(sb.st_mode & 0777), path);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		int k;

		if (sp == NULL)
			continue;
		*sp = '\0';
		if ((k = key_index(line)) >= 0 &&
		    ledger_unhex(sp + 1, keys[k], 32) == 0)
			got |= 1 << k;
	}
	sodium_memzero(buf, sizeof(buf));
	if (got != 3)
		return err_set(e, ERR_DATA, "%s is damaged: it should hold the "
		    "secret-hash and concede keys; restore it from a backup (new "
		    "keys would leave every player's secret unknown)", path);
	return 1;
}

/* Writes keys to path, never over an existing file: 1 written, 0 there
 * was one already (made meanwhile by another process), -1 (e). */
static int
file_make(const char *path, unsigned char keys[2][32], struct err *e)
{
	char text[200], hex[65];
	size_t len = 0;
	int i, rc;

	for (i = 0; i < 2; i++) {
		ledger_hex(keys[i], 32, hex);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s %s\n",
		    key_names[i], hex);
	}
	rc = ledger_file_make(path, text, len, e);
	sodium_memzero(hex, sizeof(hex));
	sodium_memzero(text, sizeof(text));
	return rc;
}

/* The keys into r->skeys: from the file; else those the database holds
 * (or new ones) written to it.  Then whatever the database still holds
 * must be the same keys, and is wiped. */
static int
keys_load(struct referee *r, struct err *e)
{
	unsigned char db[2][32];
	char path[4200];
	int i, rc, have[2];

	if (r->skeys_loaded)
		return 0;
	secrets_path(r, path, sizeof(path));
	for (i = 0; i < 2; i++)
		if ((have[i] = store_server_key_find(r->st, key_names[i], db[i],
		    e)) < 0)
			return -1;
	if (path[0] == '\0') {
		/* In memory: the table is the only place there is. */
		for (i = 0; i < 2; i++)
			if (store_server_key(r->st, key_names[i], r->skeys[i], e) != 0)
				return -1;
		r->skeys_loaded = 1;
		return 0;
	}
	rc = file_read(path, r->skeys, e);
	if (rc == 0) {
		for (i = 0; i < 2; i++)
			if (have[i])
				memcpy(r->skeys[i], db[i], 32);
			else
				randombytes_buf(r->skeys[i], 32);
		rc = file_make(path, r->skeys, e);
		if (rc == 0)   /* another process made it first: its keys */
			rc = file_read(path, r->skeys, e);
	}
	if (rc < 0)
		goto fail;
	for (i = 0; i < 2; i++)
		if (have[i] && sodium_memcmp(db[i], r->skeys[i], 32) != 0) {
			err_set(e, ERR_DATA, "the database holds a %s key that is not "
			    "the one in %s: the file belongs to another database; put "
			    "back the right one", key_names[i], path);
			goto fail;
		}
	sodium_memzero(db, sizeof(db));
	if ((have[0] || have[1]) && store_server_keys_wipe(r->st, e) != 0)
		goto fail;
	r->skeys_loaded = 1;
	return 0;
fail:
	sodium_memzero(db, sizeof(db));
	sodium_memzero(r->skeys, sizeof(r->skeys));
	return -1;
}

int
referee_server_key(struct referee *r, const char *name, unsigned char key[32],
    struct err *e)
{
	int k = key_index(name);

	if (k < 0)
		return err_set(e, ERR_INTERNAL, "no server key called %s", name);
	if (keys_load(r, e) != 0)
		return -1;
	memcpy(key, r->skeys[k], 32);
	return 0;
}

int
referee_keys_settle(struct referee *r, struct err *e)
{
	return keys_load(r, e);
}
