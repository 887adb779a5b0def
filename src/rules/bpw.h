/*
 * bpw.h - the Black Powder Wars ratings module on wing-scale geometry
 * ("bpw"): vnb-wing's table, moves and dice, with the module's morale
 * grades, troop quality, quality attacks and morale and rally checks.
 * docs/rules-bpw.md says how the text is read.
 *
 * The only export to the rest of despatch is the ruleset table; the
 * rest is what bpw.c (the phase's steps) and bpw_data.c (the table,
 * the scenario's rating lines, the words) share.
 */
#ifndef DESPATCH_RULES_BPW_H
#define DESPATCH_RULES_BPW_H

#include "core/ruleset.h"

extern const struct ruleset ruleset_bpw;

/* A unit's numbers fixed at the start (struct unit.rules[]) ... */
#define BP_GRADE    0   /* the morale grade: the number a d6 must reach */
#define BP_QUALITY  1   /* the troop quality: the same */
#define BP_TRAITS   2   /* BP_T_* */
#define BP_T_ELITE     1
#define BP_T_CONSCRIPT 2
#define BP_T_HEAVY     4
#define BP_T_LANCERS   8
/* ... and changed by a step (struct unit.state[]). */
#define BP_STATE    0   /* BP_S_* */
#define BP_S_BLOODIED  1   /* a routed unit that rallied */
#define BP_S_MOVED     2   /* moved in its side's last phase */
#define BP_S_SHATTERED 4   /* removed by a failed check */

static inline int
bp_trait(const struct battle *b, int u, int t)
{
	return (b->units[u].rules[BP_TRAITS] & t) != 0;
}

static inline int
bp_bloodied(const struct battle *b, int u)
{
	return (b->units[u].state[BP_STATE] & BP_S_BLOODIED) != 0;
}

/* The names of a grade's and a quality's number in battle b, whose
 * scenario may set them ("Veteran", "Regulars"). */
const char *bp_grade_name(const struct battle *b, int n);
const char *bp_quality_name(const struct battle *b, int n);

/* The phase (bpw.c), the crib and warnings (bpw_preview.c). */
int bp_adjudicate(struct battle *b, int step, const struct order_set *orders,
    int nsets, struct dice *d, struct events *ev, struct err *e);
void bp_crib(const struct battle *b, int side, char *out, size_t size);
int bp_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size);

#endif
