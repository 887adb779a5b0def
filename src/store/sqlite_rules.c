/*
 * sqlite_rules.c - a battle's state of its ruleset's own in the store:
 * each unit's state numbers (struct unit's state[], db/023) and the rows
 * of the ruleset's tables of its block (struct ruleset.tables, db/024),
 * as two texts in the battle's row of battle_rules.  The store gives
 * them no meaning: the ruleset's tables say how many values a row has
 * and check them when they are read back.
 */
#include "store/sqlite.h"

#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"
#include "core/text.h"

/* The whole numbers of p, separated by single spaces, up to the line's
 * end, into v (at most max): how many, -1 if not such numbers; *next is
 * where the next line starts. */
static int
line_numbers(const char *p, int *v, int max, const char **next)
{
	int n = 0;

	while (*p != '\0' && *p != '\n') {
		char *end = NULL;
		long x = strtol(p, &end, 10);

		if (end == p || n == max || x < -2147483647 || x > 2147483647 ||
		    (*end != ' ' && *end != '\n' && *end != '\0') ||
		    (*end == ' ' && (end[1] == '\0' || end[1] == '\n')))
			return -1;
		v[n++] = (int)x;
		p = end + (*end == ' ');
	}
	*next = p + (*p == '\n');
	return n;
}

/* Each unit with a state number not 0: "INDEX N0 N1 N2". */
static void
units_text(const struct battle *b, struct text *t)
{
	int i, k;

	for (i = 0; i < b->nunits; i++) {
		const int *v = b->units[i].state;

		for (k = 0; k < BATTLE_UNIT_STATE && v[k] == 0; k++)
			;
		if (k == BATTLE_UNIT_STATE)
			continue;
		text_add(t, "%s%d", t->len > 0 ? "\n" : "", i);
		for (k = 0; k < BATTLE_UNIT_STATE; k++)
			text_add(t, " %d", v[k]);
	}
}

static int
units_read(struct battle *b, const char *p)
{
	while (*p != '\0') {
		int v[1 + BATTLE_UNIT_STATE];

		if (line_numbers(p, v, 1 + BATTLE_UNIT_STATE, &p) !=
		    1 + BATTLE_UNIT_STATE || v[0] < 0 || v[0] >= b->nunits)
			return -1;
		memcpy(b->units[v[0]].state, v + 1, sizeof(b->units[0].state));
	}
	return 0;
}

/* Each row of each of the ruleset's tables: "TABLE ROW V1 V2 ...". */
static void
tables_text(const struct battle *b, const struct ruleset *rs,
    struct text *t)
{
	int i, r, k, v[RULES_TABLE_MAX_KEYS];

	for (i = 0; rs != NULL && i < rs->ntables; i++) {
		const struct rules_table *rt = &rs->tables[i];
		int n = rt->rows(b);

		for (r = 0; r < n; r++) {
			rt->get(b, r, v);
			text_add(t, "%s%s %d", t->len > 0 ? "\n" : "", rt->name, r);
			for (k = 0; rt->keys[k] != NULL; k++)
				text_add(t, " %d", v[k]);
		}
	}
}

/* The rows tables_text wrote, into b, fresh from its scenario: a table
 * with no rows stored keeps what the scenario made of it (a game stored
 * before its ruleset kept the table).  -1 for a text that is not such
 * rows: a table the ruleset lacks, a row missing or twice, values the
 * table refuses. */
static int
tables_read(struct battle *b, const struct ruleset *rs, const char *text)
{
	int i;

	for (i = 0; *text != '\0' && rs != NULL && i < rs->ntables; i++) {
		const struct rules_table *rt = &rs->tables[i];
		size_t nl = strlen(rt->name);
		int nkeys = 0, nrows = 0, pass;

		while (rt->keys[nkeys] != NULL)
			nkeys++;
		/* Counted first, then taken in order. */
		for (pass = 0; pass < 2; pass++) {
			const char *p = text;
			int seen = 0;

			if (pass == 1 && nrows > 0 && rt->set(b, nrows, -1, NULL) != 0)
				return -1;
			while (*p != '\0') {
				int v[1 + RULES_TABLE_MAX_KEYS];
				int mine = strncmp(p, rt->name, nl) == 0 && p[nl] == ' ';
				const char *q = mine ? p + nl + 1 : strchr(p, '\n');

				if (!mine) {
					p = q != NULL ? q + 1 : p + strlen(p);
					continue;
				}
				if (line_numbers(q, v, 1 + nkeys, &p) != 1 + nkeys)
					return -1;
				if (pass == 0) {
					nrows++;
					continue;
				}
				if (v[0] != seen++ || rt->set(b, nrows, v[0], v + 1) != 0)
					return -1;
			}
		}
	}
	/* Every line is a row of one of its tables. */
	while (*text != '\0') {
		const char *sp = strchr(text, ' '), *nl = strchr(text, '\n');
		int known = 0;

		for (i = 0; sp != NULL && rs != NULL && i < rs->ntables; i++)
			known |= strlen(rs->tables[i].name) == (size_t)(sp - text) &&
			    strncmp(text, rs->tables[i].name, (size_t)(sp - text)) == 0;
		if (!known)
			return -1;
		text = nl != NULL ? nl + 1 : text + strlen(text);
	}
	return 0;
}

int
store_rules_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e)
{
	struct text u, t;
	int rc;

	text_init(&u, 1u << 20);
	text_init(&t, 8u << 20);
	units_text(b, &u);
	tables_text(b, ruleset_find(b->ruleset), &t);
	if (u.over || t.over)
		rc = err_set(e, ERR_TEMP, "out of memory saving the battle");
	else if (u.len == 0 && t.len == 0)
		rc = 0;
	else
		rc = store_exec(s, e, "INSERT INTO battle_rules (game_id, units, "
		    "tables) VALUES (?, ?, ?)", "itt", game, u.len ? u.s : "",
		    t.len ? t.s : "");
	text_free(&u);
	text_free(&t);
	return rc;
}

int
store_rules_load(struct store *s, int64_t game, struct battle *b,
    struct err *e)
{
	sqlite3_stmt *st = NULL;
	int ok = 1;

	if (store_prepare(s, e, &st, "SELECT units, tables FROM battle_rules "
	    "WHERE game_id = ?", "i", game) != 0)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *u = (const char *)sqlite3_column_text(st, 0);
		const char *t = (const char *)sqlite3_column_text(st, 1);

		ok = u != NULL && t != NULL && units_read(b, u) == 0 &&
		    tables_read(b, ruleset_find(b->ruleset), t) == 0;
	}
	store_stmt_release(s, st);
	return ok;
}
