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
 * came from, or run 'despatch restore DIR'.
 *
 * despatch restore DIR puts such a backup back: it checks every file
 * against MANIFEST and the database with quick_check, refuses while a
 * daemon serves the store (and holds its lock meanwhile so none starts),
 * refuses to replace keys that are not the backup's without --force,
 * puts the database in place whole (copied beside, then renamed, the old
 * WAL dropped so it cannot be replayed into the new file), then each
 * game's chain records the restore and its players are told.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"
#include "ledger/ledger.h"
#include "referee/referee.h"

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
	struct referee *r = NULL;
	struct err e;
	struct stat sb;
	unsigned char pk[32];
	char key[4200], secrets[4300], db_copy[8400], key_copy[8400],
	    sec_copy[8400], manifest[8400], hex[65];
	const char *dir;
	FILE *mf = NULL;
	int rc = EXIT_FAILURE, inited = 0, help;

	err_clear(&e);
	if ((help = cli_help_or_usage(argc, argv, argc != 2,
	    "usage: despatch backup DIR\n\n"
	    "Copies the database, the ledger's signing key and the secrets' "
	    "keys into\nDIR, a new folder (mode 0700, each file 0600), with a "
	    "MANIFEST of where\neach came from and its SHA-256. Safe while "
	    "despatchd runs and mail comes\nin: the database is copied as it "
	    "was at one moment. The copy is checked\nbefore it is called "
	    "done. Run it from cron every night (README, \"Run it for\n"
	    "real\").\n")) >= 0)
		return help;
	dir = argv[1];
	if (stat(dir, &sb) == 0)
		return err_set(&e, ERR_USER, "%s exists already; name a new folder "
		    "for the backup", dir), cli_fail(&e);
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	inited = 1;
	/* The keys, made now if a game has not yet needed them. */
	if (referee_key(r, pk, key, sizeof(key), &e) != 0 ||
	    referee_keys_settle(r, &e) != 0)
		goto out;
	snprintf(secrets, sizeof(secrets), "%s.secrets", key);
	if (referee_mkdir_p(dir, 0700) != 0) {
		err_set(&e, ERR_USER, "%s: cannot make the folder: %s", dir,
		    strerror(errno));
		goto out;
	}
	snprintf(db_copy, sizeof(db_copy), "%s/%s", dir, base_of(db_path));
	snprintf(key_copy, sizeof(key_copy), "%s/%s", dir, base_of(key));
	snprintf(sec_copy, sizeof(sec_copy), "%s/%s", dir, base_of(secrets));
	if (referee_store_copy(r, db_copy, &e) != 0 ||
	    copy_private(key, key_copy, &e) != 0 ||
	    copy_private(secrets, sec_copy, &e) != 0)
		goto out;
	/* The copy must be a whole database. */
	if (referee_store_file_check(db_copy, &e) != 0)
		goto out;
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
	{
		char when[64];
		time_t now = time(NULL);
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
		    gmtime_r(&now, &tm));
		fprintf(mf, "taken %s\n", when);
	}
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
	if (inited)
		referee_free(r);
	return rc == 0 ? 0 : cli_fail(&e);
}

/* The files of a backup, from its MANIFEST. */
struct manifest {
	char taken[64];
	char db[1024], key[1024], secrets[1024];   /* names in DIR */
};

static int
manifest_read(const char *dir, struct manifest *m, struct err *e)
{
	char path[4200], line[6000];
	FILE *f;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	if ((f = fopen(path, "r")) == NULL)
		return err_set(e, ERR_USER, "%s: no MANIFEST there (%s): is it a "
		    "folder 'despatch backup' made?", dir, strerror(errno));
	while (fgets(line, sizeof(line), f) != NULL) {
		char what[32], name[1024], from[4200], sum[80], have[65], p[5300];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "taken %63s", m->taken) == 1)
			continue;
		if (sscanf(line, "%31s %1023s %4199s %79s", what, name, from,
		    sum) != 4 || strchr(name, '/') != NULL) {
			fclose(f);
			return err_set(e, ERR_USER, "%s: a line that is not what "
			    "'despatch backup' writes: %.80s", path, line);
		}
		snprintf(p, sizeof(p), "%s/%s", dir, name);
		if (file_sha256(p, have, e) != 0) {
			fclose(f);
			return -1;
		}
		if (strcmp(have, sum) != 0) {
			fclose(f);
			return err_set(e, ERR_DATA, "%s is not the file the backup "
			    "made (its SHA-256 differs from MANIFEST's): the backup is "
			    "damaged; take another", p);
		}
		if (strcmp(what, "database") == 0)
			snprintf(m->db, sizeof(m->db), "%s", name);
		else if (strcmp(what, "key") == 0)
			snprintf(m->key, sizeof(m->key), "%s", name);
		else if (strcmp(what, "secrets") == 0)
			snprintf(m->secrets, sizeof(m->secrets), "%s", name);
	}
	fclose(f);
	if (m->db[0] == '\0' || m->key[0] == '\0' || m->secrets[0] == '\0')
		return err_set(e, ERR_USER, "%s: MANIFEST lacks the database or a "
		    "key", dir);
	if (m->taken[0] == '\0')
		snprintf(m->taken, sizeof(m->taken), "(when, the backup does not "
		    "say)");
	return 0;
}

/* 1 when both files exist and differ, 0 when they match or there is
 * nothing at to (so nothing would be lost), -1 with e set. */
static int
differs(const char *from, const char *to, struct err *e)
{
	char a[65], b[65];
	struct stat sb;

	if (stat(to, &sb) != 0)
		return 0;
	if (file_sha256(from, a, e) != 0 || file_sha256(to, b, e) != 0)
		return -1;
	return strcmp(a, b) != 0;
}

/* from copied to to whole: beside it first, then renamed. */
static int
put_in_place(const char *from, const char *to, struct err *e)
{
	char tmp[4300];

	snprintf(tmp, sizeof(tmp), "%s.restore.%ld", to, (long)getpid());
	unlink(tmp);
	if (copy_private(from, tmp, e) != 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, to) != 0) {
		err_set(e, ERR_TEMP, "%s: %s", to, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
cmd_restore(int argc, char **argv)
{
	struct manifest m;
	struct referee *r = NULL;
	struct err e;
	char src[3][5300], key[4200], secrets[4300], lock[4200], tmp[4300],
	    p[4300];
	const char *dir = NULL, *ke = getenv("DESPATCH_KEY");
	int force = 0, i, lockfd = -1, games = 0, rc = EXIT_FAILURE, help;

	err_clear(&e);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--force") == 0)
			force = 1;
		else if (dir == NULL && argv[i][0] != '-')
			dir = argv[i];
		else if (!cli_wants_help(argc, argv))
			return cli_usage_error("restore", "takes a backup's folder "
			    "and --force");
	}
	if ((help = cli_help_or_usage(argc, argv, dir == NULL,
	    "usage: despatch restore DIR [--force]\n\n"
	    "Puts back the backup 'despatch backup DIR' made: the database "
	    "and its keys.\nEvery file is checked against the backup's "
	    "MANIFEST first. Refused while\ndespatchd serves the database "
	    "(stop it, and the MTA's pipe, first), and\nwhen it would "
	    "replace a key that is not the backup's, unless --force.\n"
	    "Each game's ledger then records the restore, and the players "
	    "of each game\nbeing played are told which phase will be "
	    "played again.\n")) >= 0)
		return help;
	if (manifest_read(dir, &m, &e) != 0)
		return cli_fail(&e);
	snprintf(src[0], sizeof(src[0]), "%s/%s", dir, m.db);
	snprintf(src[1], sizeof(src[1]), "%s/%s", dir, m.key);
	snprintf(src[2], sizeof(src[2]), "%s/%s", dir, m.secrets);
	if (ke != NULL && ke[0] != '\0')
		snprintf(key, sizeof(key), "%s", ke);
	else
		snprintf(key, sizeof(key), "%s.key", db_path);
	snprintf(secrets, sizeof(secrets), "%s.secrets", key);
	/* No daemon now, and none starting while the files change. */
	snprintf(lock, sizeof(lock), "%s.despatchd.lock", db_path);
	lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX | LOCK_NB) != 0) {
		err_set(&e, ERR_USER, "despatchd serves %s (it holds %s): stop it "
		    "first, and the MTA's pipe", db_path, lock);
		goto out;
	}
	for (i = 1; i < 3 && !force; i++) {
		int d = differs(src[i], i == 1 ? key : secrets, &e);

		if (d < 0)
			goto out;
		if (d) {
			err_set(&e, ERR_USER, "%s is not the backup's %s: putting the "
			    "backup back would replace it, and the games it signed or "
			    "the secrets it checks would be lost; give --force if that "
			    "is what you want", i == 1 ? key : secrets, i == 1 ?
			    "ledger key" : "secrets' keys");
			goto out;
		}
	}
	/* The database beside its place first, and checked there. */
	snprintf(tmp, sizeof(tmp), "%s.restore.%ld", db_path, (long)getpid());
	unlink(tmp);
	if (copy_private(src[0], tmp, &e) != 0)
		goto out;
	if (referee_store_file_check(tmp, &e) != 0) {
		unlink(tmp);
		goto out;
	}
	/* The old file's WAL belongs to it: dropped before the new file
	 * takes the name, so it is never replayed into it. */
	snprintf(p, sizeof(p), "%s-wal", db_path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", db_path);
	unlink(p);
	if (rename(tmp, db_path) != 0) {
		err_set(&e, ERR_TEMP, "%s: %s", db_path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (put_in_place(src[1], key, &e) != 0 ||
	    put_in_place(src[2], secrets, &e) != 0)
		goto out;
	if (cli_open(0, &r, &e) != 0)
		goto out;
	if (referee_restored(r, m.taken, &games, &e) != 0)
		goto out;
	printf("restored %s from %s (taken %s); %d game%s told of it\n", db_path,
	    dir, m.taken, games, games == 1 ? "" : "s");
	rc = 0;
out:
	referee_free(r);
	if (lockfd >= 0)
		close(lockfd);
	return rc == 0 ? 0 : cli_fail(&e);
}

int
cmd_vacuum(int argc, char **argv)
{
	struct referee *r = NULL;
	struct vacuum_result vr;
	struct err e;
	int rc;

	err_clear(&e);
	if ((rc = cli_help_or_usage(argc, argv, argc != 1,
	    "usage: despatch vacuum\n\n"
	    "Gives back to the disk the space of mail the database no longer "
	    "needs. Mail is\ntrimmed as it goes: a delivered mail keeps its "
	    "headers, a hash of its bytes\nand its text (compressed); a "
	    "player's mail keeps its headers and the text\nits orders were "
	    "read from once its phase is played, other mail of a game a\n"
	    "week after it came. This cuts what is left (and what a database "
	    "made by an\nolder despatch still holds) and runs SQLite's "
	    "VACUUM, which needs a moment\nwith the database to itself. It "
	    "runs by itself when a battle ends.\n")) >= 0)
		return rc;
	if (cli_open(0, &r, &e) != 0)
		return cli_fail(&e);
	rc = referee_vacuum(r, &vr, &e);
	referee_free(r);
	if (rc != 0)
		return cli_fail(&e);
	printf("trimmed %lld received mail%s and %lld delivered one%s of an older "
	    "despatch\nthe database: %lld bytes before, %lld after\n",
	    (long long)vr.messages, vr.messages == 1 ? "" : "s",
	    (long long)vr.outbox, vr.outbox == 1 ? "" : "s",
	    (long long)vr.before, (long long)vr.after);
	return 0;
}
