/*
 * fuzz_intake.c - libFuzzer target for the whole intake of a mail
 * (referee_submit: MIME parsing, the header line, redaction, the orders,
 * the reply) against a started game in a scratch database.  Not built by
 * default; the mail corpus (tests/fuzz/corpus/mail) seeds it.  Build:
 *   clang -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L \
 *     -D_DEFAULT_SOURCE -Isrc -Ibuild src/{core,rules,scenario,orders,mail,\
 *     store,referee,report,ledger}/NAME.c (every .c) build/generated/migrations.c \
 *     tests/fuzz/fuzz_intake.c -lpcre2-8 -letpan -lsqlite3 -lsodium
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "referee/referee.h"
#include "referee/internal.h"
#include "store/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char scen[] =
    "scenario \"F\"\nruleset vnb-wing\ntable 24 x 24\nside a \"A\"\n"
    "  commander \"CA\" army at 2,2\n  brigade \"BA\" commander \"BCA\" at 4,4\n"
    "    unit \"UA\" type british-line stands 1 sp 2 at 6,6 facing 0\n"
    "side b \"B\"\n  commander \"CB\" army at 20,20\n"
    "  brigade \"BB\" commander \"BCB\" at 18,18\n"
    "    unit \"UB\" type raw-militia stands 1 sp 2 at 16,16 facing 180\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct store *st;
	static struct referee r;
	struct submit_result res;
	struct err e;

	if (st == NULL) {
		char db[64], path[64], secret[REFEREE_SECRET_MAX];
		FILE *f;

		snprintf(db, sizeof(db), "/tmp/fuzz-intake-%d.db", (int)getpid());
		snprintf(path, sizeof(path), "/tmp/fuzz-intake-%d.scenario",
		    (int)getpid());
		unlink(db);
		f = fopen(path, "w");
		if (f == NULL)
			abort();
		fputs(scen, f);
		fclose(f);
		if (store_open(db, 1, -1, &st, &e) != 0)
			abort();
		referee_init(&r, st);
		if (referee_new_game(&r, "f", path, 1, NULL, &e) != 0 ||
		    referee_player_add(&r, "f", "a", "a@a.example.org",
		    "secret-aaaa", NULL, secret, &e) != 0 ||
		    referee_player_add(&r, "f", "b", "b@b.example.org",
		    "secret-bbbb", NULL, secret, &e) != 0 ||
		    referee_start(&r, "f", &e) != 0)
			abort();
	}
	if (referee_submit(&r, (const char *)data, size, "x@x.example.org", &res,
	    &e) != 0 && e.kind != ERR_TEMP)
		abort();   /* only a passing failure may refuse a mail */
	return 0;
}
