/*
 * ruleset.c - a ruleset's troop types and numbers.  Which rulesets
 * there are is the registry's (src/rules/registry.c): core names none.
 */
#include "core/ruleset.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

void
ruleset_unit_marks(const struct battle *b, int u, struct ruleset_marks *m)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	memset(m, 0, sizeof(*m));
	if (rs != NULL && rs->words != NULL && rs->words->unit_marks != NULL)
		rs->words->unit_marks(b, u, m);
}

const char *
ruleset_weapon_name(const struct ruleset *r, enum weapon w)
{
	const char *name = battle_weapon_name(w);
	int k;

	if (name != NULL)
		return name;
	for (k = 0; r != NULL && r->weapons != NULL && r->weapons[k] != NULL;
	    k++)
		if (WEAPON_RULESET + k == (int)w)
			return r->weapons[k];
	return "?";
}

int
ruleset_weapon_parse(const struct ruleset *r, const char *name,
    enum weapon *out)
{
	int k;

	if (battle_weapon_parse(name, out) == 0)
		return 0;
	for (k = 0; r != NULL && r->weapons != NULL && r->weapons[k] != NULL &&
	    WEAPON_RULESET + k < WEAPON_COUNT; k++)
		if (strcmp(r->weapons[k], name) == 0) {
			*out = (enum weapon)(WEAPON_RULESET + k);
			return 0;
		}
	return -1;
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

	for (; r != NULL; r = r->base)
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
	{
		const struct rule_param *p = ruleset_param_def(r, name);

		if (p != NULL)
			return p->value;
	}
	assert(!"unknown rule parameter");
	return 0;
}

