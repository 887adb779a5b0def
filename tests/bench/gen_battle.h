/*
 * gen_battle.h - generated battles of any size, for the adjudication
 * benchmark (bench_adjudicate) and for tests that need a big battle
 * played the same way twice (issue 24).
 *
 * A generated battle is a normal one: the generator writes scenario text
 * in the project's format (docs/scenario.md) and the project's scenario
 * parser reads it.  Two armies stand in rows of brigades, the fronts 10"
 * apart and each row 10" behind the one before, every brigade of mixed
 * arms (infantry, guns and horse as the ruleset has them) with its
 * commander among its units; woods, hills, a stream and a road (bb7:
 * woods, forest and a village, which its rules read) are strewn at a
 * fixed rate an area.  The table grows with the stands (more brigades a
 * row and more rows, about as the square root each), so the stands a
 * square inch stay about the same at every size.  Everything follows
 * from the spec: the same spec gives the same bytes on every machine.
 *
 * Each phase's orders are made from the table as it stands: every unit
 * of the phasing side moves at its nearest enemy and fires at it, guns
 * fire, horse charges what is near, some infantry charges, and every
 * brigade commander follows his brigade; they are the text of an order
 * mail, read by the project's order parser.
 */
#ifndef DESPATCH_BENCH_GEN_BATTLE_H
#define DESPATCH_BENCH_GEN_BATTLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/order.h"
#include "ledger/ledger.h"

struct orders_parser;

struct gen_spec {
	const char *ruleset;   /* "vnb-wing" or "bb7" */
	int stands;            /* on the table at the start, both sides: an
	                          even number from 20 to BATTLE_MAX_STANDS */
	uint64_t seed;         /* the layout, the mix of troops, the ground,
	                          the orders and the dice */
	int turns;             /* game turns (0: 12, so 24 phases) */
};

/* The scenario text of g, malloc'd, into *text (its length into *len).
 * 0, or -1 with e set (a ruleset it cannot make, a size out of range). */
int gen_battle_scenario(const struct gen_spec *g, char **text, size_t *len,
    struct err *e);

/* The battle of g, read by scenario_parse from gen_battle_scenario's
 * text; *out owns it (battle_free).  0, or -1 with e set. */
int gen_battle_new(const struct gen_spec *g, struct battle **out,
    struct err *e);

/* The orders of side for step (1-based) on the table b as it stands: one
 * line a unit with a stand on the table, and one a brigade commander,
 * as the body of an order mail; malloc'd into *text.  0, or -1 with e
 * set. */
int gen_battle_orders(const struct gen_spec *g, const struct battle *b,
    int side, int step, char **text, struct err *e);

/* The order sets of step: the phasing side's (every side's if the
 * sequence has none) orders made by gen_battle_orders and read by op,
 * which must be made for g's ruleset.  sets must have room for
 * b->nsides; *nsets is how many were filled, *bad how many lines did not
 * read (0 for a good generator; they are left out).  0, or -1 with e
 * set. */
int gen_battle_order_sets(const struct gen_spec *g, struct orders_parser *op,
    const struct battle *b, int step, struct order_set *sets, int *nsets,
    int *bad, struct err *e);

/* The dice of step: the ledger's keyed stream under a seed made from g's
 * seed and the step, so a step plays the same every time. */
void gen_battle_dice(const struct gen_spec *g, int step,
    struct ledger_dice *ld);

#endif
