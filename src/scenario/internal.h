/*
 * internal.h - what the scenario parser's files share: the parser's
 * state, the token, and the helpers that check a line's words and say
 * what is wrong with them.  Not for use outside src/scenario/.
 *
 *   scenario.c  the file, line by line, every keyword, and the lines a
 *               ruleset reads itself (struct ruleset.scenario_words)
 *   forces.c    sides, commanders, brigades, units and stands
 *   campaign.c  a campaign file (campaign/campaign.h), whose columns'
 *               brigade and unit lines are checked as a scenario's
 */
#ifndef DESPATCH_SCENARIO_INTERNAL_H
#define DESPATCH_SCENARIO_INTERNAL_H

#include <stddef.h>

#include "core/ruleset.h"
#include "scenario/scenario.h"

#define MAX_TOKENS 256

struct tok {
	char *s;
	int quoted;
};

struct parser {
	const char *fname;
	int line;
	struct battle *b;
	const struct ruleset *rs;
	int have_title, have_table, have_sequence;
	int cur_side, cur_brigade, cur_unit;
	int unit_by_stand;       /* cur_unit was declared without stands */
	int seq_line;
	int have_first;
	int brigade_line[BATTLE_MAX_BRIGADES];
	int unit_line[BATTLE_MAX_UNITS];
	int nwings;
	char wing_name[BATTLE_MAX_BRIGADES][BATTLE_NAME_MAX];
	int wing_side[BATTLE_MAX_BRIGADES];
	int wing_cmd[BATTLE_MAX_BRIGADES];
	/* What an `alias` line names: the unit, commander or brigade the
	 * last line declared (-1 after any other line but a stand). */
	int named_of, named_idx;
	int alias_line[BATTLE_MAX_ALIASES];
	/* The ruleset's own, for its scenario lines (zeroed at the start). */
	_Alignas(16) unsigned char scratch[RULESET_SCENARIO_SCRATCH];
	struct err *e;
};

/* Splits a line in place into tokens (t: MAX_TOKENS of them).  Returns
 * the count, or -1 with an error for an unterminated quote or too many
 * tokens. */
int scn_tokenize(struct parser *p, char *line, struct tok *t);
/* "x,y" (at most two decimals each) into out: 0, or -1 with the error. */
int scn_parse_point(struct parser *p, const char *s, struct pt *out);
/* An error at the parser's line: "file:line: message"; returns -1. */
int scn_perr(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Token i as a quoted name into out (size bytes); 0, or -1 with e set. */
int scn_want_name(struct parser *p, struct tok *t, int n, int i,
    const char *what, char *out, size_t size);
/* Token i as a whole number from lo to hi. */
int scn_want_int(struct parser *p, struct tok *t, int n, int i,
    const char *what, int lo, int hi, int *out);
/* Tokens i and i+1 as "at x,y", a point on the table. */
int scn_want_at(struct parser *p, struct tok *t, int n, int i,
    const char *what, struct pt *out);
/* 0 if pt lies on the table, else -1 with an error naming what. */
int scn_check_on_table(struct parser *p, struct pt pt, const char *what);

/* The lines of forces (forces.c): each takes its line's n tokens t and
 * returns 0, or -1 with the error set (scn_perr). */
int scn_do_side(struct parser *p, struct tok *t, int n);
int scn_do_commander(struct parser *p, struct tok *t, int n);
int scn_do_wing(struct parser *p, struct tok *t, int n);
int scn_do_brigade(struct parser *p, struct tok *t, int n);
int scn_do_unit(struct parser *p, struct tok *t, int n);
int scn_do_stand(struct parser *p, struct tok *t, int n);
/* 0 unless two stands overlap (forces.c). */
int scn_check_overlaps(struct parser *p);
/* 0 if name can be written in orders, else -1 with the error set. */
int scn_orderable_name(struct parser *p, const char *name);

#endif
