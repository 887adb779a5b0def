/*
 * backup.c - despatch backup DIR: a copy of the store and of the keys
 * beside it, consistent and safe to take while despatchd and the MTA's
 * pipe go on writing.
 *
 * DIR is made, mode 0700, and holds the database (SQLite's backup API:
 * one moment's state, whatever writes go on), the ledger's signing key
 * and the secrets' keys (KEY.secrets), each 0600 under its own base name,
 * and MANIFEST, a line for each file: what it is, its name in DIR, where
 * it came from and its SHA-256.  The copy is checked (PRAGMA quick_check)
 * before the command says it is done.  To put it back by hand: stop
 * despatchd and the pipe, and copy each file to where MANIFEST says it
 * came from.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"
#include "ledger/ledger.h"
#include "referee/referee.h"
#include "store/store.h"

static const char *
base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* A file's SHA-256 in hex; 0, or -1 with e set. */
static int
file_sha256(const char *path, char hex[65], struct err *e)
{
	crypto_hash_sha256_state h;
	unsigned char buf[65536], d[32];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return err_set(e, ERR_TEMP, "%s: %s", path, strerror(errno));
	crypto_hash_sha256_init(&h);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		crypto_hash_sha256_update(&h, buf, n);
	if (ferror(f)) {
		fclose(f);
		return err_set(e, ERR_TEMP, "%s: cannot read it", path);
	}
	fclose(f);
	crypto_hash_sha256_final(&h, d);
	ledger_hex(d, 32, hex);
	return 0;
}

/* A small file (a key) copied to to, mode 0600, synced. */
static int
copy_private(const char *from, const char *to, struct err *e)
{
	char buf[4096];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;

	if (in < 0)
		return err_set(e, ERR_USER, "%s: cannot read it: %s", from,
		    strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0 || fchmod(out, 0600) != 0) {
		err_set(e, ERR_TEMP, "%s: %s", to, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			err_set(e, ERR_TEMP, "%s: %s", to, strerror(errno));
			goto out;
		}
	if (n < 0 || fsync(out) != 0) {
		err_set(e, ERR_TEMP, "%s: %s", n < 0 ? from : to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(buf, sizeof(buf));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

int
cmd_backup(int argc, char **argv)
{
	struct store *st = NULL, *check = NULL;
	struct referee r;
	struct err e;
	struct stat sb;
	unsigned char pk[32];
	char key[4200], secrets[4300], db_copy[8400], key_copy[8400],
	    sec_copy[8400], manifest[8400], hex[65];
	const char *dir;
	FILE *mf = NULL;
	int rc = EXIT_FAILURE, inited = 0;

	err_clear(&e);
	if (cli_wants_help(argc, argv) || argc != 2) {
		printf("usage: despatch backup DIR\n\n"
		    "Copies the database, the ledger's signing key and the secrets' "
		    "keys into\nDIR, a new folder (mode 0700, each file 0600), with a "
		    "MANIFEST of where\neach came from and its SHA-256. Safe while "
		    "despatchd runs and mail comes\nin: the database is copied as it "
		    "was at one moment. The copy is checked\nbefore it is called "
		    "done. Run it from cron every night (README, \"Run it for\n"
		    "real\").\n");
		return cli_wants_help(argc, argv) ? 0 : EXIT_USAGE;
	}
	dir = argv[1];
	if (stat(dir, &sb) == 0)
		return err_set(&e, ERR_USER, "%s exists already; name a new folder "
		    "for the backup", dir), cli_fail(&e);
	if (cli_open_store(0, &st, &e) != 0)
		return cli_fail(&e);
	referee_init(&r, st);
	inited = 1;
	/* The keys, made now if a game has not yet needed them. */
	if (referee_key(&r, pk, key, sizeof(key), &e) != 0 ||
	    referee_keys_settle(&r, &e) != 0)
		goto out;
	snprintf(secrets, sizeof(secrets), "%s.secrets", key);
	if (cli_mkdir_p(dir, 0700) != 0) {
		err_set(&e, ERR_USER, "%s: cannot make the folder: %s", dir,
		    strerror(errno));
		goto out;
	}
	snprintf(db_copy, sizeof(db_copy), "%s/%s", dir, base_of(db_path));
	snprintf(key_copy, sizeof(key_copy), "%s/%s", dir, base_of(key));
	snprintf(sec_copy, sizeof(sec_copy), "%s/%s", dir, base_of(secrets));
	if (store_backup(st, db_copy, &e) != 0 ||
	    copy_private(key, key_copy, &e) != 0 ||
	    copy_private(secrets, sec_copy, &e) != 0)
		goto out;
	/* The copy must be a whole database. */
	if (store_open(db_copy, 0, -1, &check, &e) != 0 ||
	    store_quick_check(check, &e) != 0)
		goto out;
	store_close(check);
	check = NULL;
	snprintf(manifest, sizeof(manifest), "%s/MANIFEST", dir);
	{
		int fd = open(manifest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		mf = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (mf == NULL) {
			err_set(&e, ERR_TEMP, "%s: %s", manifest, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	}
	fprintf(mf, "# despatch backup: what each file is, its name here, where "
	    "it came from, its SHA-256\n");
	if (file_sha256(db_copy, hex, &e) != 0)
		goto out;
	fprintf(mf, "database %s %s %s\n", base_of(db_copy), db_path, hex);
	if (file_sha256(key_copy, hex, &e) != 0)
		goto out;
	fprintf(mf, "key %s %s %s\n", base_of(key_copy), key, hex);
	if (file_sha256(sec_copy, hex, &e) != 0)
		goto out;
	fprintf(mf, "secrets %s %s %s\n", base_of(sec_copy), secrets, hex);
	if (fflush(mf) != 0 || fsync(fileno(mf)) != 0) {
		err_set(&e, ERR_TEMP, "%s: %s", manifest, strerror(errno));
		goto out;
	}
	if (stat(db_copy, &sb) == 0)
		printf("backed up %s (%lld bytes) and its keys into %s\n", db_path,
		    (long long)sb.st_size, dir);
	rc = 0;
out:
	if (mf != NULL && fclose(mf) != 0 && rc == 0)
		rc = err_set(&e, ERR_TEMP, "%s: %s", manifest, strerror(errno));
	store_close(check);
	if (inited)
		referee_fini(&r);
	store_close(st);
	return rc == 0 ? 0 : cli_fail(&e);
}
