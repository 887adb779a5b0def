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

/* What a ruleset built on vnb-wing's table shares with it, as its
 * struct ruleset's and struct ruleset_words' initializers say them:
 * the troops, the orders' other words, sight, command, moves and the
 * words of the map. */
#define VNB_TABLE_SHARED \
	.types = vnb_types, \
	.ntypes = VNB_NTYPES, \
	.turn_minutes = 15, \
	.verb_aliases = vnb_aliases, \
	.sees = vnb_sees, \
	.in_command = vnb_in_command, \
	.preview_battle = vnb_preview_battle, \
	.form_check = vnb_form_check, \
	.road_spacer = 1, \
	.form_words = "LINE, SKIRMISH, DETACHMENTS, ROAD, MOUNTED or DISMOUNTED"
#define VNB_WORDS_SHARED \
	.situation = vnb_situation, \
	.yards_per_foot = 300, \
	.column_word = "road march", \
	.stand_markers = 1

/* --- The Fog of War cards: the text's optional rule, and so this
 * ruleset's alone (docs/rules-vnb-wing.md, Fog of War cards). -------- */

/* Who may play a card: any side, or only the one the scenario says
 * plays the crown's cards (or the others, the rebels'). */
enum vnb_allegiance { VNB_NEUTRAL = 0, VNB_CROWN, VNB_REBEL };

/* What a card is played on. */
enum vnb_target {
	VNB_ON_NOTHING = 0,
	VNB_ON_OWN_UNIT,        /* ON a unit of the player's side */
	VNB_ON_ENEMY_UNIT,      /* ON an enemy unit */
	VNB_ON_ENEMY_COMMANDER, /* ON an enemy commander */
	VNB_ON_POINT            /* AT x,y */
};

struct vnb_card_def {
	const char *name;       /* as the text names it (unique) */
	enum vnb_allegiance allegiance;
	int count;              /* in the basic deck */
	enum vnb_target target;
	const char *help;       /* what it does, in one line */
};

#define VNB_MAX_CARDS    128
#define VNB_MAX_EFFECTS  256   /* two turns of every card played */

/* Where a card of the deck is (struct vnb_deck.at). */
#define VNB_IN_DECK  (-1)   /* to be drawn */
#define VNB_USED     (-2)   /* played or discarded: back into the deck at
                               the next draw */

/* A card's effect that lasts beyond the moment it is played. */
struct vnb_effect {
	int card;        /* enum vnb_card */
	int side;        /* the side that played it */
	int unit;        /* the unit it is on, or -1 */
	int commander;   /* the commander it is on, or -1 */
	struct pt at;    /* the point it names (a stream's section) */
	int value;       /* what it rolled (inches gained or lost) */
	int until;       /* the last step it lasts */
	int spent;       /* used up (a one-time reroll) */
};

/* The deck of a battle that plays the cards: the ruleset's block of the
 * battle (battle.rules).  Cards are kept in the scenario's order; each
 * is in the deck, used, or held by a side. */
struct vnb_deck {
	int n;                          /* 0: the scenario plays without */
	int crown;                      /* the side playing the crown's
	                                   cards (the others play the
	                                   rebels'), -1 */
	unsigned char kind[VNB_MAX_CARDS];  /* enum vnb_card */
	signed char at[VNB_MAX_CARDS];      /* VNB_IN_DECK, VNB_USED or the
	                                       side holding it */
	int neffects;
	struct vnb_effect effects[VNB_MAX_EFFECTS];
};
_Static_assert(sizeof(struct vnb_deck) <= BATTLE_RULES_BLOCK,
    "the deck fits the battle's block");

/* The battle's deck (const for a const battle). */
#define vnb_deck(b) _Generic((b), \
	const struct battle *: (const struct vnb_deck *)(const void *)(b)->rules, \
	struct battle *: (struct vnb_deck *)(void *)(b)->rules)

/* The catalogue and numbers, shared by the table and the adjudicator. */
extern const struct troop_type vnb_types[];
extern const int vnb_ntypes;
#define VNB_NTYPES 36   /* the same, for a table built on vnb-wing's */
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
extern const struct vnb_card_def vnb_cards[VC_COUNT];

/* The card whose name is `name`, case, spaces and punctuation other than
 * '!' not counting: its index, or -1. */
int vnb_card_exact(const char *name);
/* The same, or a name that only starts one (with its '!'s and no more,
 * or without any '!') when only one card of `among` starts so (among: a
 * flag a card, NULL for all).  A card's whole name is that card only:
 * -1 if among leaves it out.  Its index, -1 if none, -2 if several. */
int vnb_card_find(const char *name, const unsigned char *among);
/* 1 if a side may play card k: neutral, or its allegiance is the
 * side's. */
int vnb_card_playable(const struct battle *b, int k, int side);

/* The deck as the rest of despatch meets it (vnb_wing_deck.c,
 * vnb_wing_card_words.c; their contracts are struct ruleset's and
 * struct ruleset_words'). */
extern const struct rules_table vnb_tables[2];
extern const char *const vnb_scenario_words[];
int vnb_scenario_line(struct battle *b, void *scratch,
    const struct scenario_line *l, char *msg, size_t msize);
int vnb_scenario_end(struct battle *b, void *scratch, int *line, char *msg,
    size_t msize);
int vnb_order_line(const struct order_line_ctx *c, const char *buf,
    struct order *o, char *msg, size_t msize);
void vnb_order_text(const struct battle *b, const struct order *o,
    char *out, size_t size);
void vnb_holdings(const struct battle *b, int side, int next_step,
    struct text *t);
void vnb_holdings_line(const struct battle *b, int side, struct text *t);
void vnb_welcome(const struct battle *b, int side, int step,
    struct text *t);
void vnb_holdings_json(const struct battle *b, int side, int fog,
    const struct ruleset_json *j);
void vnb_rules_note(struct text *t);
/* The orders of vnb-wing's table, for its own list and a ruleset built
 * on it (which plays them with its own REFORM: reform_help is REFORM's
 * line of HELP). */
#define VNB_VERBS(reform_help) \
	{ .word = "ADVANCE", .verb = V_ADVANCE, .arg = ARG_DIST, .for_units = 1, .for_commanders = 0, .help = "ADVANCE N: move N inches straight ahead" }, \
	{ .word = "MOVE TO", .verb = V_MOVE_TO, .arg = ARG_POINT, .for_units = 1, .for_commanders = 1, .help = "MOVE TO X,Y: move the centre to the point" }, \
	{ .word = "WHEEL", .verb = V_WHEEL, .arg = ARG_TURN, .for_units = 1, .for_commanders = 0, .help = "WHEEL LEFT|RIGHT N: turn N degrees about the centre" }, \
	{ .word = "FACE", .verb = V_FACE, .arg = ARG_BEARING, .for_units = 1, .for_commanders = 0, .help = "FACE N: face the bearing N (0 north, 90 east)" }, \
	{ .word = "FORM", .verb = V_FORM, .arg = ARG_FORMATION, .for_units = 1, .for_commanders = 0, .help = "FORM LINE|SKIRMISH|DETACHMENTS|ROAD|MOUNTED: change formation" }, \
	{ .word = "FIRE AT", .verb = V_FIRE_AT, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "FIRE AT UNIT: choose the target of the unit's fire" }, \
	{ .word = "CHARGE", .verb = V_CHARGE, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "CHARGE UNIT: move straight at the enemy unit and melee it" }, \
	{ .word = "HOLD", .verb = V_HOLD, .arg = ARG_NONE, .for_units = 1, .for_commanders = 1, .help = "HOLD: stay and go stationary where allowed" }, \
	{ .word = "REFORM", .verb = V_REFORM, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = (reform_help) }, \
	{ .word = "RETIRE", .verb = V_RETIRE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "RETIRE: (mounted) until your next phase, when hit by fire, retire 6\" a hit and roll a save for each" }, \
	{ .word = "NO ADVANCE", .verb = V_NO_ADVANCE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "NO ADVANCE: if the unit wins a melee this phase, it keeps its ground instead of advancing into the ground the enemy left" }, \
	{ .word = "HURRY", .verb = V_HURRY, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "HURRY: cross bridges this phase at the cost of disorder instead of half the move" }, \
	{ .word = "JOIN", .verb = V_JOIN, .arg = ARG_FRIEND, .for_units = 0, .for_commanders = 1, .help = "JOIN UNIT: (commanders) ride to the rear of a friendly unit and move with it until ordered elsewhere" },
extern const struct verb_def vnb_verbs[];
extern const int vnb_nverbs;
/* The words of other games vnb-wing reads as its own ("RALLY"). */
extern const char *const vnb_aliases[][2];

/* The ruleset's functions (see struct ruleset for their contracts). */
int vnb_prepare(struct battle *b, struct err *e);
/* Warnings for a side's orders before they are played (out of command,
 * out of range), as lines in out; returns how many. */
int vnb_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size);
/* The same for a ruleset built on vnb-wing whose REFORM is no move and
 * may be ordered out of command (reform_out_of_command: 1). */
int vnb_preview_rules(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size,
    int reform_out_of_command);
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
