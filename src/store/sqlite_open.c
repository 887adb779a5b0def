/*
 * sqlite_open.c - opening the store (store.h): making a new database private,
 * refusing one the world can read, checking it whole, and bringing an
 * older schema forward, each migration in its own transaction with the
 * version, after a copy of the file as it was (DATABASE.before-N, the
 * same backup code as 'despatch backup').
 *
 * Workload: once a process; a migration or a backup copies the whole
 * file, a quick_check reads it, all at an operator's pace.
 */
#include "store/store.h"
#include "core/crash.h"

#include <sqlite3.h>
#include <sodium.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite.h"
#include "store/migrations.h"

int
store_latest_version(void)
{
	return store_migration_count > 0 ?
	    store_migrations[store_migration_count - 1].version : 0;
}

int
sqlite_upgraded_from(const struct store *s, const char **copy)
{
	if (copy != NULL)
		*copy = SQ(s)->copy;
	return SQ(s)->upgraded_from;
}

int
sqlite_quick_check(struct store *s, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = store_stmt_get(s, "PRAGMA quick_check(1)", &st);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0),
	    "ok") == 0) {
		store_stmt_release(s, st);
		return 0;
	}
	if (rc == SQLITE_ROW)
		err_set(e, ERR_DATA, "%s: the database is damaged (%s); restore it "
		    "from a backup", store_path(s), sqlite3_column_text(st, 0));
	else
		err_set(e, ERR_DATA, "%s: the database is damaged (%s); restore it "
		    "from a backup", store_path(s), sqlite3_errmsg(SQ(s)->db));
	store_stmt_release(s, st);
	return -1;
}

int
sqlite_version(struct store *s)
{
	sqlite3_stmt *st = NULL;
	int v = -1;

	if (store_stmt_get(s, "PRAGMA user_version", &st) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	store_stmt_release(s, st);
	return v;
}

static int db_create_private(const char *path, struct err *e);

/* Removes path.before-N for every N but keep. */
static void
copies_prune(const char *path, int keep)
{
	char dir[4200], base[1024];
	const char *slash = strrchr(path, '/');
	DIR *d;
	struct dirent *de;
	size_t bl;

	if (slash != NULL) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		if (dir[0] == '\0')
			snprintf(dir, sizeof(dir), "/");
		snprintf(base, sizeof(base), "%s.before-", slash + 1);
	} else {
		snprintf(dir, sizeof(dir), ".");
		snprintf(base, sizeof(base), "%s.before-", path);
	}
	bl = strlen(base);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *end, f[8400];
		long n;

		if (strncmp(de->d_name, base, bl) != 0 || !isdigit((unsigned char)
		    de->d_name[bl]))
			continue;
		n = strtol(de->d_name + bl, &end, 10);
		if (*end != '\0' || n == keep)
			continue;
		snprintf(f, sizeof(f), "%s/%s", dir, de->d_name);
		unlink(f);
	}
	closedir(d);
}

/* The store copied whole, consistent as of one moment, to a new file
 * to (made beside and renamed: a crash leaves no half copy under the
 * name) with mode; SQLite's backup API, in one step, which in WAL mode
 * holds only a read transaction, so writers are not held up. */
static int
backup_file(struct store *s, const char *to, mode_t mode, struct err *e)
{
	char tmp[4300];
	sqlite3 *dst = NULL;
	sqlite3_backup *bk;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s.part%ld", to, (long)getpid());
	unlink(tmp);
	if (db_create_private(tmp, e) != 0)
		return -1;
	(void)chmod(tmp, mode);
	rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK) {
		bk = sqlite3_backup_init(dst, "main", SQ(s)->db, "main");
		if (bk == NULL)
			rc = sqlite3_errcode(dst);
		else {
			while ((rc = sqlite3_backup_step(bk, -1)) == SQLITE_OK ||
			    rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
				sqlite3_sleep(10);
			rc = sqlite3_backup_finish(bk);
		}
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_close(dst);
	else
		sqlite3_close(dst);
	if (rc != SQLITE_OK || rename(tmp, to) != 0) {
		err_set(e, rc == SQLITE_FULL || (rc == SQLITE_OK && errno == ENOSPC) ?
		    ERR_TEMP : ERR_DATA, "%s: cannot copy the database there: %s",
		    to, rc != SQLITE_OK ? sqlite3_errstr(rc) : strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
sqlite_backup(struct store *s, const char *to, struct err *e)
{
	return backup_file(s, to, 0600, e);
}

/* The whole store, as it is at schema version v, copied to
 * path.before-v, private like the store; only the latest such copy is
 * kept.  Made before any migration, so an upgrade that goes wrong can be
 * undone by hand. */
static int
copy_before(struct store *s, const char *path, int v, struct err *e)
{
	struct stat sb;
	struct err ce;

	snprintf(SQ(s)->copy, sizeof(SQ(s)->copy), "%s.before-%d", path, v);
	/* A group the operator gave the store (0660) goes to the copy. */
	err_clear(&ce);
	if (backup_file(s, SQ(s)->copy, stat(path, &sb) == 0 ?
	    (sb.st_mode & 0660) | 0600 : 0600, &ce) != 0) {
		err_set(e, ce.kind, "cannot keep a copy of the database before "
		    "upgrading it (%s); nothing was changed", ce.msg);
		SQ(s)->copy[0] = '\0';
		return -1;
	}
	copies_prune(path, v);
	SQ(s)->upgraded_from = v;
	return 0;
}

static int
migrate(struct store *s, const char *path, int max_version, struct err *e)
{
	int v = store_version(s), i, target;

	if (v < 0)
		return store_db_err(s, e, "reading the schema version");
	if (v > store_latest_version())
		return err_set(e, ERR_DATA, "the database is at schema version %d, "
		    "newer than this despatch knows (%d): use a newer despatch",
		    v, store_latest_version());
	target = max_version >= 0 && max_version < store_latest_version() ?
	    max_version : store_latest_version();
	/* A database that holds something (not one just made) is copied
	 * before its schema changes. */
	if (v > 0 && v < target && copy_before(s, path, v, e) != 0)
		return -1;
	for (i = 0; i < store_migration_count; i++) {
		const struct store_migration *m = &store_migrations[i];
		char pragma[64];

		if (m->version <= v)
			continue;
		if (max_version >= 0 && m->version > max_version)
			break;
		if (sqlite3_exec(SQ(s)->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			return store_db_err(s, e, "starting a migration");
		/* Another process may have applied it while we waited for the
		 * lock: look again now that we hold it. */
		if (store_version(s) >= m->version) {
			sqlite3_exec(SQ(s)->db, "ROLLBACK", NULL, NULL, NULL);
			continue;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		    m->version);
		if (sqlite3_exec(SQ(s)->db, m->sql, NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(SQ(s)->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			store_db_err(s, e, m->name);
			sqlite3_exec(SQ(s)->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		crash_point("migration-applied");
		if (sqlite3_exec(SQ(s)->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			store_db_err(s, e, "committing a migration");
			sqlite3_exec(SQ(s)->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		crash_point("migration-committed");
	}
	return 0;
}

/* The database holds what must stay private (queued welcomes with their
 * secrets, every address, a fog game's orders, the secrets' hashes), so
 * it is made 0600 whatever the umask.  SQLite gives its -wal and -shm
 * files the database's own mode, so they follow, and so does a group
 * mode (0660) an operator sets to share the store with the MTA's user. */
static int
db_create_private(const char *path, struct err *e)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return errno == EEXIST ? 0 : err_set(e, errno == ENOSPC ?
		    ERR_TEMP : ERR_USER, "%s: cannot create the database: %s",
		    path, strerror(errno));
	/* Exactly 0600: a umask such as 0277 must not leave it unwritable. */
	if (fchmod(fd, 0600) != 0) {
		err_set(e, ERR_USER, "%s: cannot set its mode: %s", path,
		    strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* Refuses a database (or its -wal or -shm) that every user on the machine
 * may read or write, naming the chmod that mends it. */
static int
db_check_mode(const char *path, struct err *e)
{
	static const char *const ext[] = { "", "-wal", "-shm" };
	char f[4200], fix[13000] = "";
	struct stat sb;
	unsigned mode = 0;
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(f, sizeof(f), "%s%s", path, ext[i]);
		if (stat(f, &sb) != 0 || !S_ISREG(sb.st_mode) ||
		    (sb.st_mode & 0007) == 0)
			continue;
		if (mode == 0)
			mode = (unsigned)(sb.st_mode & 07777);
		snprintf(fix + strlen(fix), sizeof(fix) - strlen(fix), " %s", f);
	}
	if (mode == 0)
		return 0;
	return err_set(e, ERR_USER, "%s: every user on this machine can %s the "
	    "database (mode %04o), and it holds players' addresses, orders and "
	    "secrets; run 'chmod o-rwx%s' (600, or 660 to share it with a "
	    "group)", path, (mode & 0002) ? "write" : "read", mode, fix);
}

/* How long a writer waits for another, in milliseconds. */
static int busy_ms = 15000;

void
store_busy_timeout(long ms)
{
	busy_ms = ms > 0 && ms < 600000 ? (int)ms : 15000;
}

int
sqlite_claims(const char *where)
{
	/* A path; a URI (scheme://...) is some other backend's. */
	return strstr(where, "://") == NULL;
}

int
sqlite_open(const char *path, int create, int max_version, struct store **out,
    struct err *e)
{
	struct sqlite_store *q;
	struct store *s = NULL;
	struct stat sb;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*out = NULL;
	if (sodium_init() < 0)
		return err_set(e, ERR_INTERNAL, "libsodium failed to initialise");
	if (!create && stat(path, &sb) != 0)
		return err_set(e, ERR_USER, "%s: no such database; create one with "
		    "'despatch new GAME SCENARIO' (or give --db FILE)", path);
	if (create) {
		flags |= SQLITE_OPEN_CREATE;
		if (db_create_private(path, e) != 0)
			return -1;
	}
	if (db_check_mode(path, e) != 0)
		return -1;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	q->base.be = &store_backend_sqlite;
	s = &q->base;
	if (sqlite3_open_v2(path, &SQ(s)->db, flags, NULL) != SQLITE_OK) {
		err_set(e, ERR_USER, "%s: cannot open the database: %s", path,
		    SQ(s)->db ? sqlite3_errmsg(SQ(s)->db) : "out of memory");
		store_close(s);
		return -1;
	}
	{
		/* How long a writer waits for another before giving up (the
		 * pipe then exits 75 and the MTA retries): 15 s, or what
		 * store_busy_timeout set ($DESPATCH_BUSY_TIMEOUT).  A turn of the largest
		 * battle holds the lock for under 2 s on an idle machine;
		 * 15 s leaves room for a loaded one, and an MTA's pipe waits
		 * far longer than that. */
		sqlite3_busy_timeout(SQ(s)->db, busy_ms);
	}
	if (sqlite3_exec(SQ(s)->db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"
	    " PRAGMA synchronous=FULL;", NULL, NULL, NULL) != SQLITE_OK) {
		store_db_err(s, e, path);
		if (e)
			e->kind = e->kind == ERR_TEMP ? ERR_TEMP : ERR_USER;
		store_close(s);
		return -1;
	}
	if (migrate(s, path, max_version, e) != 0) {
		store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void
sqlite_close(struct store *s)
{
	store_stmt_cache_free(s);
	sqlite3_close_v2(SQ(s)->db);
	free(SQ(s));
}

const struct store_backend store_backend_sqlite = {
	.name = "sqlite",
	.claims = sqlite_claims,
	.open = sqlite_open,
	.close = sqlite_close,
#define STORE_OP(ret, name, params, args) .name = sqlite_##name,
#define STORE_VOP(name, params, args) .name = sqlite_##name,
#include "store/ops.h"
#undef STORE_OP
#undef STORE_VOP
};
