/*
 * crash.c - named crash points (crash.h).  Reads the environment, so it
 * is for the program's I/O layers only; the rules core never calls it.
 */
#include "core/crash.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the variable env names name and this visit is the K-th or a
 * later one (K 1 unless NAME:K); visits counts the visits. */
static int
named(const char *env, const char *name, long *visits)
{
	const char *v = getenv(env);
	size_t n = strlen(name);
	long k = 1;

	if (v == NULL || strncmp(v, name, n) != 0)
		return 0;
	if (v[n] == ':')
		k = strtol(v + n + 1, NULL, 10);
	else if (v[n] != '\0')
		return 0;
	return ++*visits >= k;
}

void
crash_point(const char *name)
{
	static long visits;

	if (named("DESPATCH_CRASH", name, &visits))
		raise(SIGKILL);
}

int
fault_point(const char *name)
{
	static long visits;

	return named("DESPATCH_FAULT", name, &visits);
}
