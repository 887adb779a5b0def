/*
 * registry.c - the rulesets this build plays: the one list of them.
 * Adding a ruleset adds its line here, and nothing else outside its own
 * files (docs/design.md).
 */
#include "core/ruleset.h"

#include <stddef.h>
#include <string.h>

extern const struct ruleset ruleset_vnb_wing;
extern const struct ruleset ruleset_bb7;

static const struct ruleset *const all[] = {
	&ruleset_vnb_wing,
	&ruleset_bb7,
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
