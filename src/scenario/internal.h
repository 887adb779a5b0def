/*
 * internal.h - what the scenario parser's files share: the parser's
 * state, the token, and the helpers that check a line's words and say
 * what is wrong with them.  Not for use outside src/scenario/.
 *
 *   scenario.c  the file, line by line, and every keyword but those below
 *   cards.c     cards, card and hand: the Fog of War deck
 */
#ifndef DESPATCH_SCENARIO_INTERNAL_H
#define DESPATCH_SCENARIO_INTERNAL_H

#include <stddef.h>

#include "core/ruleset.h"
#include "scenario/scenario.h"

#define SCN_CARD_KINDS 64   /* card kinds a ruleset may have */

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
	/* Fog of War cards (cards.c), built into the deck at the end. */
	int cards_line;          /* the `cards` line, 0 if none */
	char crown_id[BATTLE_ID_MAX];    /* `cards crown SIDE`, "" if not */
	int card_count[SCN_CARD_KINDS];  /* `card "Name" N`, -1: the ruleset's */
	int card_line[SCN_CARD_KINDS];
	int nhand;               /* `hand` lines' cards, in order */
	char hand_side[BATTLE_MAX_CARDS][BATTLE_ID_MAX];
	int hand_kind[BATTLE_MAX_CARDS], hand_line[BATTLE_MAX_CARDS];
	struct err *e;
};

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

/* cards.c: the lines, and the deck made from them once the file is read
 * (0, or -1 with e set). */
int scn_do_cards(struct parser *p, struct tok *t, int n);
int scn_do_card(struct parser *p, struct tok *t, int n);
int scn_do_hand(struct parser *p, struct tok *t, int n);
int scn_cards_finish(struct parser *p);

#endif
