/* The fixture the orders parser's tests share: a battle read from a
 * scenario text, a vnb-wing parser, and room for a mail's result. */
#ifndef DESPATCH_TEST_ORDERS_FIXTURE_H
#define DESPATCH_TEST_ORDERS_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "orders/orders.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"

struct fx {
	struct battle *b;
	struct orders_parser *p;
	struct orders_result *r;
};

static int
fx_setup(void **state, const char *scen)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct err e;

	assert_non_null(f);
	if (scenario_parse(scen, strlen(scen), "t", 0, &f->b, &e) != 0)
		fail_msg("%s", e.msg);
	f->p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(f->p);
	f->r = malloc(sizeof(*f->r));
	assert_non_null(f->r);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;

	orders_parser_free(f->p);
	battle_free(f->b);
	free(f->r);
	free(f);
	return 0;
}

#endif
