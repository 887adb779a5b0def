/*
 * bb3.h - the Bloodybacks 3 ruleset ("bb3").
 *
 * The ruleset table is the export; docs/rules-bb3.md says how the text is
 * read.
 */
#ifndef DESPATCH_RULES_BB3_H
#define DESPATCH_RULES_BB3_H

#include "core/ruleset.h"

extern const struct ruleset ruleset_bb3;

extern const struct troop_type bb3_types[];
extern const struct rule_param bb3_params[];
extern const int bb3_nparams;
extern const struct verb_def bb3_verbs[];
extern const int bb3_nverbs;

/* The ruleset's functions (see struct ruleset for their contracts). */
int bb3_prepare(struct battle *b, struct err *e);
int bb3_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e);
int bb3_turn_order(const struct battle *b, int turn, int *order);
void bb3_sees(const struct battle *b, int side, unsigned char *seen);
int bb3_order_line(const struct order_line_ctx *c, const char *line,
    struct order *o, char *msg, size_t msize);
void bb3_order_text(const struct battle *b, const struct order *o,
    char *out, size_t size);
int bb3_step_check(const struct battle *b, int who, int is_cmd,
    const struct order_step *st, char *msg, size_t msize);
int bb3_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize);
const char *bb3_form_word(const struct battle *b, int u, enum formation f);
const char *bb3_form_phrase(const struct battle *b, int u);
int bb3_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f);
void bb3_unit_marks(const struct battle *b, int u, struct ruleset_marks *m);
void bb3_crib(const struct battle *b, int side, char *out, size_t size);
void bb3_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size);
int bb3_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size);
/* The d10 score (or less) unit u moves on as the table stands: its
 * commander's rating with the modifiers; *who that commander, -1 for
 * none (and then 0). */
int bb3_order_rating(const struct battle *b, int u, int *who);

/* A unit's numbers of its own (struct unit): fixed for the battle
 * (rules[]) ... */
enum {
	B3_MORALE = 0,   /* its morale value: 2d6 at or under it passes */
	B3_CLASS,        /* the B3C_ classes below */
	B3_EQUIV,        /* figures to one stand removed (the text's stand
	                    equivalent) */
	B3_FIGURES0      /* its figures when the battle began */
};
/* ... and changed by a step (state[]): only the third, its markers. */
enum {
	B3_MARKS = 2
};
#define B3M_PINNED   0x01  /* failed a panic test: no charge or move */
#define B3M_RALLIED  0x02  /* rallied this turn: nothing else */
#define B3M_VOLLEYED 0x04  /* has fired its first volley */
#define B3M_CHARGED  0x08  /* charged this step: counts as charging in its
                              melee phase */
#define B3M_ACTED    0x10  /* charged or moved this turn */
#define B3M_PURSUED  0x20  /* pursued into contact: counts as charging in
                              the next melee phase */

/* A troop type's classes (struct troop_type.abil holds the core's
 * abilities; these are rules[B3_CLASS], from the type's numbers[1]). */
#define B3C_ELITE     0x01
#define B3C_MILITIA   0x02
#define B3C_LIGHT     0x04  /* regular light infantry */
#define B3C_CONVERGED 0x08  /* converged flank companies */
#define B3C_SKIRMISH  0x10  /* skirmish half-stands */
#define B3C_AMERICAN  0x20  /* American skirmishers: may pick off officers */
#define B3C_NATIVE    0x40  /* Native Americans */
#define B3C_CREW      0x80  /* a gun's crew */

/* A unit's response to a charge (the "responses" table). */
enum bb3_response {
	B3R_NONE = 0,    /* the side's, else STAND */
	B3R_STAND,
	B3R_EVADE,
	B3R_FLEE,
	B3R_FIRE_FLEE,
	B3R_ABOUT_FACE,
	B3R_COUNT
};

/* Its own weapon. */
#define WEAPON_CARBINE ((enum weapon)WEAPON_RULESET)

/* bb3's own verbs (core/order.h numbers them from V_RULESET). */
enum {
	B3_V_FALL_BACK = V_RULESET,
	B3_V_PICK_OFF,
	B3_V_IF_STAND,
	B3_V_IF_EVADE,
	B3_V_IF_FLEE,
	B3_V_IF_FIRE_FLEE,
	B3_V_IF_ABOUT_FACE
};

/* Its special lines (struct order.special). */
enum {
	B3_SPECIAL_INITIATIVE = 1,  /* special_arg 0 FIRST, 1 SECOND */
	B3_SPECIAL_RESPONSE,        /* special_arg an enum bb3_response */
	/* A unit's "NAME: IF CHARGED X" on a line of its own: special
	 * B3_SPECIAL_UNIT + its index (one of each unit's, apart from its
	 * other orders), who the unit, special_arg the response. */
	B3_SPECIAL_UNIT = 16
};

/* The battle's own state (battle.rules): the initiative of each turn
 * decided so far, each side's choice and response, each unit's response. */
#define B3_MAX_TURNS 201
struct bb3_state {
	unsigned char first[B3_MAX_TURNS];   /* side + 1 leading turn t, 0
	                                        not yet decided */
	unsigned char roll[B3_MAX_TURNS][2]; /* the deciding dice */
	unsigned char second[4];             /* side chooses to go second */
	unsigned char side_response[4];      /* enum bb3_response */
	unsigned char response[BATTLE_MAX_UNITS];
};
_Static_assert(sizeof(struct bb3_state) <= BATTLE_RULES_BLOCK,
    "bb3's state fits the battle's rules block");

static inline struct bb3_state *
bb3_state(struct battle *b)
{
	return (struct bb3_state *)(void *)b->rules;
}

static inline const struct bb3_state *
bb3_cstate(const struct battle *b)
{
	return (const struct bb3_state *)(const void *)b->rules;
}

#endif
