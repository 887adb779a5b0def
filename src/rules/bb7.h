/*
 * bb7.h - the Bloodybacks 7 ruleset ("bb7").
 *
 * The ruleset table is the export; docs/rules-bb7.md says how the text is
 * read.
 */
#ifndef DESPATCH_RULES_BB7_H
#define DESPATCH_RULES_BB7_H

#include "core/ruleset.h"

extern const struct ruleset ruleset_bb7;

extern const struct troop_type bb7_types[];
extern const struct rule_param bb7_params[];
extern const int bb7_nparams;
extern const struct verb_def bb7_verbs[];
extern const int bb7_nverbs;

/* The ruleset's functions (see struct ruleset for their contracts). */
void bb7_unit_number_set(struct battle *b, int u, int k, int v);
int bb7_prepare(struct battle *b, struct err *e);
int bb7_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e);
void bb7_sees(const struct battle *b, int side, unsigned char *seen);
void bb7_crib(const struct battle *b, int side, char *out, size_t size);
int bb7_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size);
struct battle *bb7_preview_battle(const struct battle *b,
    const struct order_set *set);
const char *bb7_form_word(const struct battle *b, int u, enum formation f);
const char *bb7_form_phrase(const struct battle *b, int u);
void bb7_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size);
int bb7_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f);
int bb7_step_check(const struct battle *b, int who, int is_cmd,
    const struct order_step *st, char *msg, size_t msize);
void bb7_unit_marks(const struct battle *b, int u, struct ruleset_marks *m);
int bb7_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize);

/* The numbers a scenario's unit line may give (bb7_unit_numbers, in
 * this order), and a troop type's defaults for them. */
enum {
	B7_N_QUALITY = 0,
	B7_N_DENSITY
};

/* A unit's numbers of its own (struct unit): fixed for the battle
 * (rules[]) ... */
enum {
	B7_QUALITY = 0,   /* 1 (worst) to 5 */
	B7_DENSITY0       /* the density it formed at (the scenario's) */
};
/* ... and changed by a step (state[]), signed in this order. */
enum {
	B7_DENSITY = 0,   /* figures to the standard frontage, 3 to 7; a
	                     unit may lower it by spreading out */
	B7_DISRUPTION,    /* disruption points, 0 to 3 */
	B7_MARKS          /* the UM_ markers below */
};
#define UM_SMOKE  0x01  /* shot, and hidden in its own smoke */
#define UM_HIT    0x08  /* hit already this game turn */
#define UM_SHOT   0x10  /* shot this phase */
#define UM_MOVED  0x20  /* moved this phase */

/* A gun's markers (struct stand.flags; core/battle.h). */
#define ST_LOW_CANISTER  0x800u   /* out of canister until resupplied */
#define ST_LOW_ROUNDSHOT 0x1000u  /* ... out of roundshot */
_Static_assert(((ST_LOW_CANISTER | ST_LOW_ROUNDSHOT) & ST_SHARED) == 0,
    "bb7's markers are its own bits");

/* Its own weapon. */
#define WEAPON_CARBINE ((enum weapon)WEAPON_RULESET)   /* cavalry's */

/* bb7's own verbs (core/order.h numbers them from V_RULESET). */
enum {
	B7_V_RESUPPLY = V_RULESET,
	B7_V_DICE,
	B7_V_DENSITY
};

#endif
