/*
 * crash.c - named crash points (crash.h).  Reads the environment, so it
 * is for the program's I/O layers only; the rules core never calls it.
 */
#include "core/crash.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

void
crash_point(const char *name)
{
	static long visits;
	const char *v = getenv("DESPATCH_CRASH");
	size_t n = strlen(name);
	long k = 1;

	if (v == NULL || strncmp(v, name, n) != 0)
		return;
	if (v[n] == ':')
		k = strtol(v + n + 1, NULL, 10);
	else if (v[n] != '\0')
		return;
	if (++visits >= k)
		raise(SIGKILL);
}
