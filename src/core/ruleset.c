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

/* A card name as compared: ASCII letters (lower case) and digits, and
 * the '!'s when bangs is set; nothing else. */
static void
card_norm(const char *s, int bangs, char *out, size_t size)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 'A' && ch <= 'Z')
			out[n++] = (char)(ch - 'A' + 'a');
		else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    (bangs && ch == '!'))
			out[n++] = (char)ch;
	}
	out[n] = '\0';
}

int
ruleset_card_exact(const struct ruleset *r, const char *name)
{
	char want[128], have[128];
	int k;

	card_norm(name, 1, want, sizeof(want));
	for (k = 0; want[0] != '\0' && k < r->ncards; k++) {
		card_norm(r->cards[k].name, 1, have, sizeof(have));
		if (strcmp(have, want) == 0)
			return k;
	}
	return -1;
}

int
ruleset_card_find(const struct ruleset *r, const char *name,
    const unsigned char *among)
{
	char want[128], have[128];
	int pass, k, found;

	/* A card's whole name is that card, held or not. */
	k = ruleset_card_exact(r, name);
	if (k >= 0)
		return among == NULL || among[k] ? k : -1;
	/* 1: the start of a name, '!'s and all (and no more '!'s after
	 * them: "Liberty or Death!" is not "Liberty or Death!!"); 2: its
	 * start without them, for a name written without any. */
	for (pass = 1; pass < 3; pass++) {
		int bangs = pass < 2;
		size_t wl;

		if (pass == 2 && strchr(name, '!') != NULL)
			break;
		card_norm(name, bangs, want, sizeof(want));
		wl = strlen(want);
		if (wl == 0)
			return -1;
		found = -1;
		for (k = 0; k < r->ncards; k++) {
			if (among != NULL && !among[k])
				continue;
			card_norm(r->cards[k].name, bangs, have, sizeof(have));
			if (strncmp(have, want, wl) != 0 ||
			    (bangs && have[wl] == '!'))
				continue;
			if (found >= 0)
				return -2;
			found = k;
		}
		if (found >= 0)
			return found;
	}
	return -1;
}

int
ruleset_card_playable(const struct ruleset *r, const struct battle *b,
    int k, int side)
{
	enum card_allegiance a = r->cards[k].allegiance;

	if (a == CARD_NEUTRAL)
		return 1;
	return (a == CARD_CROWN) == (side == b->cards.crown);
}
