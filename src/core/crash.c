/*
 * crash.c - named crash points (crash.h).  The fronts pass what the
 * environment says once (crash_init); the I/O layers call the points,
 * and the rules core never does.
 */
#include "core/crash.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char crash_at[64], fault_at[64];

void
crash_init(const char *crash, const char *fault)
{
	snprintf(crash_at, sizeof(crash_at), "%s", crash != NULL ? crash : "");
	snprintf(fault_at, sizeof(fault_at), "%s", fault != NULL ? fault : "");
}

/* 1 when v names name and this visit is the K-th or a later one (K 1
 * unless NAME:K); visits counts the visits. */
static int
named(const char *v, const char *name, long *visits)
{
	size_t n = strlen(name);
	long k = 1;

	if (v[0] == '\0' || strncmp(v, name, n) != 0)
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

	if (named(crash_at, name, &visits))
		raise(SIGKILL);
}

int
crash_fault_point(const char *name)
{
	static long visits;

	return named(fault_at, name, &visits);
}
