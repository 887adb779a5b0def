/*
 * bench_util.h - what the benchmarks share: a clock read in seconds, the
 * way out on a failure, and the campaign's Cowpens scenario made as long
 * as asked.
 */
#ifndef DESPATCH_BENCH_UTIL_H
#define DESPATCH_BENCH_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenario/scenario.h"

/* Clock id (CLOCK_MONOTONIC for the wall, CLOCK_THREAD_CPUTIME_ID for
 * the thread's CPU) in seconds. */
static inline double
bench_clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "WHO: what went wrong" on stderr, and exit 1. */
static inline void bench_die(const char *who, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

static inline void
bench_die(const char *who, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Writes camp/cowpens.scenario, with `turns` turns, to dir/cowpens.scenario
 * (its path into path); 0, or -1 with a message on stderr. */
static inline int
bench_cowpens(const char *camp, const char *dir, int turns, char *path,
    size_t size)
{
	char *text = NULL, *scen2, *t;
	size_t len = 0;
	struct err e;
	FILE *f;
	int rc = -1;

	snprintf(path, size, "%s/cowpens.scenario", camp);
	if (scenario_read_file(path, 1 << 20, &text, &len, &e) != 0) {
		fprintf(stderr, "bench: the scenario: %s\n", e.msg);
		return -1;
	}
	t = strstr(text, "\nturns 6 ");
	scen2 = malloc(len + 32);
	if (t == NULL || scen2 == NULL) {
		fprintf(stderr, "bench: the scenario has no 'turns 6' line\n");
		goto out;
	}
	snprintf(scen2, len + 32, "%.*s\nturns %d %s", (int)(t - text), text,
	    turns, t + strlen("\nturns 6 "));
	snprintf(path, size, "%s/cowpens.scenario", dir);
	f = fopen(path, "w");
	if (f == NULL || fputs(scen2, f) == EOF || fclose(f) != 0) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		goto out;
	}
	rc = 0;
out:
	free(scen2);
	free(text);
	return rc;
}

#endif
