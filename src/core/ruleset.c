/*
 * ruleset.c - finding rulesets and their numbers.
 */
#include "core/ruleset.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

extern const struct ruleset ruleset_vnb_wing;

static const struct ruleset *const all[] = {
	&ruleset_vnb_wing,
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

const struct troop_type *
ruleset_type(const struct ruleset *r, const char *id)
{
	int i;

	for (i = 0; i < r->ntypes; i++)
		if (strcmp(r->types[i].id, id) == 0)
			return &r->types[i];
	return NULL;
}

const struct rule_param *
ruleset_param_def(const struct ruleset *r, const char *name)
{
	int i;

	for (i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return &r->params[i];
	return NULL;
}

int
ruleset_has_param(const struct ruleset *r, const char *name)
{
	return ruleset_param_def(r, name) != NULL;
}

int
ruleset_param(const struct ruleset *r, const struct battle *b,
    const char *name)
{
	int i;

	for (i = 0; b != NULL && i < b->nsettings; i++)
		if (strcmp(b->settings[i].name, name) == 0)
			return b->settings[i].value;
	for (i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].name, name) == 0)
			return r->params[i].value;
	assert(!"unknown rule parameter");
	return 0;
}
