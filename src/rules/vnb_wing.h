/*
 * vnb_wing.h - the Volley & Bayonet wing-scale AWI ruleset ("vnb-wing").
 *
 * The only export is the ruleset table; docs/rules-vnb-wing.md says how
 * the text is read.
 */
#ifndef DESPATCH_RULES_VNB_WING_H
#define DESPATCH_RULES_VNB_WING_H

#include "core/ruleset.h"

/* Its own stand markers (struct stand.flags; core/battle.h). */
#define ST_GUNS_LOST  0x10u  /* routed guns abandoned: moves as infantry, no fire */
#define ST_MARSH_ROLLED 0x20u /* rolled for the marsh it is in */
#define ST_MARSH_X2   0x40u  /* ... and pays 2 for 1 there */
#define ST_MARSH_X4   0x80u  /* ... and pays 4 for 1 there */
#define ST_RETIRES   0x400u  /* mounted: retires 6" a hit from fire to save,
                                until its side's next phase (RETIRE) */
_Static_assert(((ST_GUNS_LOST | ST_MARSH_ROLLED | ST_MARSH_X2 | ST_MARSH_X4 |
    ST_RETIRES) & ST_SHARED) == 0, "vnb-wing's markers are its own bits");

extern const struct ruleset ruleset_vnb_wing;

/* The catalogue and numbers, shared by the table and the adjudicator. */
extern const struct troop_type vnb_types[];
extern const int vnb_ntypes;
extern const struct rule_param vnb_params[];
extern const int vnb_nparams;
/* The Fog of War cards, in the deck's order (vnb_wing_cards.c plays
 * them). */
enum vnb_card {
	VC_OFFICER_CASUALTIES = 0, VC_GOOD_GUNNERY, VC_BAD_GUNNERY,
	VC_DEVASTATING_VOLLEY, VC_DISAPPOINTING_VOLLEY, VC_SHARPSHOOTERS,
	VC_BAD_GOING, VC_GOOD_GOING,
	VC_COLD_STEEL_CROWN, VC_COLD_STEEL_BRITISH, VC_GOD_SAVE_REROLL,
	VC_GOD_SAVE_RALLY, VC_GOD_SAVE_STEADY, VC_GOTT_MIT_UNS, VC_PANIC,
	VC_REGULARS_SHAKEN, VC_REGULARS_CROWN, VC_REGULARS_BRITISH,
	VC_LOYALIST_KNOWLEDGE, VC_HIGHLANDER_FURY,
	VC_PICK_OFF, VC_OLD_LINE_STATE, VC_LIBERTY_RALLY, VC_LIBERTY_REROLL,
	VC_LIBERTY_STEADY, VC_LOCAL_STREAM, VC_LOCAL_KNOWLEDGE,
	VC_COLD_STEEL_LIGHT, VC_TARLETONS_QUARTER,
	VC_COUNT
};
extern const struct card_def vnb_cards[VC_COUNT];
extern const struct verb_def vnb_verbs[];
extern const int vnb_nverbs;

/* The ruleset's functions (see struct ruleset for their contracts). */
int vnb_prepare(struct battle *b, struct err *e);
/* Warnings for a side's orders before they are played (out of command,
 * out of range), as lines in out; returns how many. */
int vnb_preview(const struct battle *b, const struct order_set *set,
    char *out, size_t size);
/* The crib of the numbers a player of side needs, as lines in out. */
void vnb_crib(const struct battle *b, int side, char *out, size_t size);
void vnb_sees(const struct battle *b, int side, unsigned char *seen);
/* A malloc'd copy of b with set's moves played as the preview plays
 * them (free with free); NULL when out of memory. */
struct battle *vnb_preview_battle(const struct battle *b,
    const struct order_set *set);
/* How far commander k puts stands in command. */
fx vnb_command_reach(const struct battle *b, int k);
/* Sets in_cmd[s] (b->nstands entries) for side's stands in command now. */
void vnb_command_stands(const struct battle *b, int side, unsigned char *in_cmd);
/* Whether every stand of unit u able to move is in command now. */
int vnb_in_command(const struct battle *b, int u);
/* A unit's command and the nearest enemy in sight, for the report. */
void vnb_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size);
/* Why side cannot play card k as order o asks, the table as it stands
 * (the wrong kind of unit, nobody in range), or NULL if it can: what
 * the adjudicator checks when the card is played, and the preview warns
 * of. */
const char *vnb_card_unplayable(const struct battle *b, int k, int side,
    const struct order *o);
/* The JSON's "vnb-wing" object of unit u (struct ruleset.unit_fields). */
int vnb_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f);
int vnb_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize);
int vnb_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e);

#endif
