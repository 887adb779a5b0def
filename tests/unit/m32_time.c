/*
 * m32_time.c - despatch's time parsing and formatting as a 32-bit
 * machine (a Raspberry Pi, i386) runs it, where long and, without
 * _TIME_BITS=64, time_t are 32 bits.  Built with gcc -m32 and run by
 * tests/unit/m32.sh from the project's own source files; the values are
 * those that a 32-bit long or time_t would wrap: "1194h" of poll times
 * an hour's milliseconds comes out as 57 minutes, "49711d" of a game
 * setting times a day's seconds as 17.5 hours, a deadline in 2040 as
 * one in 1904.
 *
 * Self-contained, with checks of its own rather than cmocka: there is no
 * 32-bit libcmocka on the machine, nor any other 32-bit library the
 * project links.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "mail/mail.h"
#include "referee/internal.h"
#include "referee/referee.h"

static int failed;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failed++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

/* config_duration_ms: poll = ..., 10 ms to a day. */
static void
durations(void)
{
	static const struct { const char *v; int ms; } ok[] = {
		{ "24h", 86400000 }, { "1440m", 86400000 }, { "86400", 86400000 },
		{ "86400s", 86400000 }, { "86400000ms", 86400000 }, { "10ms", 10 },
		{ "30s", 30000 },
	};
	/* Each one wraps a 32-bit long into the range a poll may take:
	 * 1194 h = 4298400000 ms, 2^32 + 3432704 (57 minutes); 71583 m =
	 * 2^32 + 12704 ms; 4294968 s = 2^32 + 704 ms; and two past what any
	 * long holds. */
	static const char *const bad[] = {
		"1194h", "71583m", "4294968s", "4294968", "25h", "86401s",
		"99999999999999999999h", "9223372036854775807ms", "-1s", "5ms",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int ms = -1;
		int rc = config_duration_ms(ok[i].v, &ms);

		CHECK(rc == 0 && ms == ok[i].ms, "poll = %s: rc %d, %d ms, not %d",
		    ok[i].v, rc, ms, ok[i].ms);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ms = -1;
		int rc = config_duration_ms(bad[i], &ms);

		CHECK(rc != 0, "poll = %s taken, as %d ms", bad[i], ms);
	}
}

/* referee_parse_time: a game's times (deadline, reminders, extend GAME
 * TIME), up to 366 days. */
static void
game_times(void)
{
	static const struct { const char *v; int64_t s; } ok[] = {
		{ "366d", 31622400 }, { "8784h", 31622400 }, { "527040m", 31622400 },
		{ "10000000s", 10000000 }, { "none", 0 }, { "90m", 5400 },
	};
	/* 49711 d = 2^32 + 63104 s and 1193047 h = 2^32 + 1904 s: each
	 * would land under 366 days in a 32-bit long. */
	static const char *const bad[] = {
		"49711d", "1193047h", "367d", "10000001s", "10000001m",
		"99999999999999999999d", "-1d",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int64_t s = -1;
		int rc = referee_parse_time(ok[i].v, &s);

		CHECK(rc == 0 && s == ok[i].s, "time %s: rc %d, %lld s, not %lld",
		    ok[i].v, rc, (long long)s, (long long)ok[i].s);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t s = -1;
		int rc = referee_parse_time(bad[i], &s);

		CHECK(rc != 0, "time %s taken, as %lld s", bad[i], (long long)s);
	}
}

/* Times of 2^31 seconds and more: "in N days" and a mail's Date. */
static void
far_times(void)
{
	char out[64];
	char date[MAIL_DATE_MAX];

	referee_clock_until((int64_t)3000000000, out, sizeof(out));
	CHECK(strcmp(out, "in 34722 days") == 0, "3e9 s from now: \"%s\"", out);
	referee_clock_until((int64_t)INT32_MAX + 1, out, sizeof(out));
	CHECK(strcmp(out, "in 24855 days") == 0, "2^31 s from now: \"%s\"", out);
	/* time_t of 32 bits ends on 19 January 2038: a deadline or a Date
	 * after it would be shown as one in 1901 or not at all. */
	CHECK(sizeof(time_t) >= 8, "time_t is %u bytes in this build: dates after "
	    "19 January 2038 are lost (build with -D_TIME_BITS=64 "
	    "-D_FILE_OFFSET_BITS=64)", (unsigned)sizeof(time_t));
	mail_date(2240000000LL, date, sizeof(date));
	CHECK(strcmp(date, "Mon, 24 Dec 2040 22:13:20 +0000") == 0,
	    "the Date of a mail in 2040: \"%s\"", date);
	mail_date(0, date, sizeof(date));
	CHECK(strcmp(date, "Thu, 01 Jan 1970 00:00:00 +0000") == 0,
	    "the Date of a mail at 0: \"%s\"", date);
}

int
main(void)
{
	printf("long %u bits, time_t %u bits, pointers %u bits\n",
	    (unsigned)sizeof(long) * 8, (unsigned)sizeof(time_t) * 8,
	    (unsigned)sizeof(void *) * 8);
	durations();
	game_times();
	far_times();
	printf("%s\n", failed ? "FAILED" : "all passed");
	return failed ? 1 : 0;
}
