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
int bb7_preview(const struct battle *b, const struct order_set *set,
    char *out, size_t size);
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
int bb7_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize);

/* bb7's own verbs (core/order.h numbers them from V_RULESET). */
enum {
	B7_V_RESUPPLY = V_RULESET,
	B7_V_DICE,
	B7_V_DENSITY
};

#endif
