/*
 * registry.c - the rulesets this build plays.
 *
 * The list is CMakeLists.txt's DESPATCH_RULESETS, which the build writes
 * as a header of RULESET(symbol) lines and names in DESPATCH_RULESETS_LIST.
 * Adding a ruleset adds its files and its entry there, and touches no
 * other file (docs/hacking.md).  The test build of despatch compiles this
 * file again with a list that adds the test-only rulesets; its own copy
 * then stands in for the library's (a static library's member is linked
 * only for a name nothing else defines).
 */
#include "core/ruleset.h"

#include <stddef.h>
#include <string.h>

#define RULESET(sym) extern const struct ruleset sym;
#include DESPATCH_RULESETS_LIST
#undef RULESET

static const struct ruleset *const all[] = {
#define RULESET(sym) &sym,
#include DESPATCH_RULESETS_LIST
#undef RULESET
	NULL
};

const struct ruleset *const *
ruleset_all(void)
{
	return all;
}

const struct ruleset *
ruleset_find(const char *name)
{
	int i;

	for (i = 0; all[i] != NULL; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}
