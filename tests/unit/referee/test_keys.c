/*
 * test_keys.c - the keyed-hash keys live beside the ledger's key, never in
 * the database: a new store holds none; one an older despatch made has
 * them carried into DATABASE.key.secrets (0600) and wiped, so that no
 * byte of them is left in the file or its WAL; a key file that is not
 * the database's own is refused (issue 19, modes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sodium.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/ledger.h"
#include "referee/referee.h"
#include "referee/internal.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

/* 1 when the file at path holds the n bytes of needle anywhere. */
static int
file_holds(const char *path, const void *needle, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = fopen(path, "rb");
	int found = 0;

	if (f == NULL)
		return 0;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	for (i = 0; i + n <= len && !found; i++)
		found = memcmp(buf + i, needle, n) == 0;
	free(buf);
	return found;
}

/* A store as an older despatch left it: its keys in server_keys. */
static struct store *
old_store(const char *db, const unsigned char k1[32], const unsigned char k2[32])
{
	struct store *st = NULL;
	struct err e;

	unlink(db);
	if (store_open(db, 1, -1, &st, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(store_exec(st, &e, "INSERT INTO server_keys (name, key) "
	    "VALUES ('secret-hash', ?), ('concede', ?)", "bb", (const void *)k1,
	    (size_t)32, (const void *)k2, (size_t)32), 0);
	store_close(st);
	if (store_open(db, 0, -1, &st, &e) != 0)
		fail_msg("%s", e.msg);
	return st;
}

static void
keys_an_older_store_kept_move_to_their_file_and_leave_no_trace(void **state)
{
	unsigned char k1[32], k2[32], got[32], want[32];
	char dir[128], db[200], kf[260], p[300], hex[65];
	struct referee r;
	struct store *st;
	struct stat sb;
	struct err e;
	int64_t n = -1;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/despatch-test-keys-%d", (int)getpid());
	mkdir(dir, 0700);
	snprintf(db, sizeof(db), "%s/old.db", dir);
	snprintf(kf, sizeof(kf), "%s.key.secrets", db);
	unlink(kf);
	memset(k1, 0x5a, sizeof(k1));
	k1[0] = 1;   /* a pattern no page holds by chance */
	memset(k2, 0xa5, sizeof(k2));
	st = old_store(db, k1, k2);
	referee_init(&r, st);
	assert_int_equal(referee_keys_settle(&r, &e), 0);
	/* In the file, private, with the old keys. */
	assert_int_equal(stat(kf, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	ledger_hex(k1, 32, hex);
	assert_true(file_holds(kf, hex, 64));
	/* Hashing with the key the players' stored hashes were made with. */
	assert_int_equal(referee_secret_hash(&r, "red-coat-secret", got, &e), 0);
	crypto_generichash(want, 32, (const unsigned char *)"red-coat-secret",
	    15, k1, 32);
	assert_memory_equal(got, want, 32);
	/* Out of the database, and no byte of them left in it. */
	assert_int_equal(store_query_int(st, &e, &n, "SELECT count(*) FROM "
	    "server_keys", ""), 1);
	assert_int_equal(n, 0);
	referee_fini(&r);
	store_close(st);
	assert_false(file_holds(db, k1, 32));
	assert_false(file_holds(db, k2, 32));
	snprintf(p, sizeof(p), "%s-wal", db);
	assert_false(file_holds(p, k1, 32));
	/* The next open reads the file and finds nothing more to move. */
	if (store_open(db, 0, -1, &st, &e) != 0)
		fail_msg("%s", e.msg);
	referee_init(&r, st);
	assert_int_equal(referee_secret_hash(&r, "red-coat-secret", got, &e), 0);
	assert_memory_equal(got, want, 32);
	referee_fini(&r);
	store_close(st);

	/* A key file that is not this database's is refused, not used. */
	memset(k1, 0x33, sizeof(k1));
	st = old_store(db, k1, k2);
	referee_init(&r, st);
	assert_int_equal(referee_secret_hash(&r, "red-coat-secret", got, &e), -1);
	assert_non_null(strstr(e.msg, "not the one in"));
	referee_fini(&r);
	store_close(st);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* A store made now never holds a key: a copy of it alone cannot check a
 * guess at a secret. */
static void
a_new_store_holds_no_key(void **state)
{
	struct fx *f = *state;
	struct stat sb;
	struct err e;
	char kf[400];

	snprintf(kf, sizeof(kf), "%s.key.secrets", f->db);
	assert_int_equal(stat(kf, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(q(f, "SELECT count(*) FROM server_keys"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM player_secrets"), 2);
	/* A file others can read is refused, saying how to mend it. */
	referee_fini(&f->r);
	referee_init(&f->r, f->st);
	assert_int_equal(chmod(kf, 0644), 0);
	{
		unsigned char h[32];

		assert_int_equal(referee_secret_hash(&f->r, "x", h, &e), -1);
		assert_non_null(strstr(e.msg, "chmod 600"));
	}
	assert_int_equal(chmod(kf, 0600), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_an_older_store_kept_move_to_their_file_and_leave_no_trace),
		cmocka_unit_test_setup_teardown(a_new_store_holds_no_key, setup_live, teardown),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
