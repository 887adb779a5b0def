/*
 * test_differential.c - the geometry that does not look far (issue 24)
 * plays every battle as the all-pairs geometry before it did.
 *
 * Each battle is played twice in step: once with geom_reference(1) (every
 * stand measured against every stand at every step, as before) and once
 * with the fast paths, from the same scenario, the same orders and the
 * same dice.  After every phase the two must agree on every event (kind,
 * side, unit, target, value, message id, values and text), on the state
 * hash the ledger signs, and on every stand byte for byte.
 *
 * A battle comes from a source (struct battle_source): the campaigns'
 * battles are read from campaign/ with their order mails; a source of
 * generated battles adds a row to sources[] with its own load and
 * orders functions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/battle.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"
#include "core/ruleset.h"
#include "ledger/record.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

struct battle_source {
	const char *name;
	/* The battle at its start (the caller frees it); 0 or -1. */
	int (*load)(const struct battle_source *src, struct battle **b,
	    struct err *e);
	/* The order text of side's phase of turn (malloc'd, the caller
	 * frees it), its orders after line *header (op finds the header),
	 * or NULL for none: the side holds. */
	char *(*orders)(const struct battle_source *src,
	    const struct battle *b, int turn, int side,
	    struct orders_parser *op, int *header);
	int steps;             /* how many to play; 0: the whole battle */
	const char *dir;       /* a campaign's: campaign/DIR */
	const char *scenario;  /* ... and its scenario file */
};

/* --- the campaigns' battles -------------------------------------------- */

static char *
slurp(const char *path)
{
	char *t = NULL;
	size_t len = 0;
	struct err e;

	if (scenario_read_file(path, 1 << 22, &t, &len, &e) != 0)
		return NULL;
	return t;
}

static int
campaign_load(const struct battle_source *src, struct battle **b,
    struct err *e)
{
	char path[512], *t;
	int rc;

	snprintf(path, sizeof(path), "%s/campaign/%s/%s", DESPATCH_SOURCE_DIR,
	    src->dir, src->scenario);
	t = slurp(path);
	if (t == NULL)
		fail_msg("cannot read %s", path);
	rc = scenario_parse(t, strlen(t), path, 0, b, e);
	free(t);
	return rc;
}

/* The mail of side's turn, read as the referee reads it (its text part,
 * decoded), the orders after its header.  Past the last turn of the
 * campaign's mails each side gives its last orders again, so that the
 * battle goes on being fought to its end.  *header is the header's
 * line. */
static char *
campaign_orders(const struct battle_source *src, const struct battle *b,
    int turn, int side, struct orders_parser *op, int *header)
{
	char path[512], *t = NULL, *out;
	struct mail_msg *m = NULL;
	struct orders_header h;
	struct err e;
	int k;

	for (k = turn; k >= 1 && t == NULL; k--) {
		snprintf(path, sizeof(path), "%s/campaign/%s/orders/t%02d-%s.eml",
		    DESPATCH_SOURCE_DIR, src->dir, k, b->sides[side].id);
		t = slurp(path);
	}
	if (t == NULL)
		return NULL;
	if (mail_parse(t, strlen(t), &m, &e) != 0)
		fail_msg("%s: %s", path, e.msg);
	free(t);
	memset(&h, 0, sizeof(h));
	assert_int_equal(orders_find_header(op, m->subject, m->body, &h), 0);
	*header = h.found ? h.line : 0;
	out = strdup(m->body);
	assert_non_null(out);
	mail_msg_free(m);
	return out;
}

static const struct battle_source sources[] = {
	{ "Cowpens (vnb-wing)", campaign_load, campaign_orders, 0,
	  "cowpens-1781", "cowpens.scenario" },
	{ "Freeman's Farm (bb7)", campaign_load, campaign_orders, 0,
	  "freemans-farm-1777", "freemans-farm.scenario" },
};

/* --- the same dice both ways ------------------------------------------- */

static int
xorshift_next(void *ctx, int sides, int *out, struct err *e)
{
	uint64_t *s = ctx;

	(void)e;
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	*out = 1 + (int)((*s >> 11) % (uint64_t)sides);
	return 0;
}

/* --- one side of the comparison ---------------------------------------- */

struct run {
	struct battle *b;
	struct orders_parser *op;
	struct orders_result *res;
	struct order_set sets[BATTLE_MAX_SIDES];
	struct events ev;
	uint64_t dice;
	int rc;
	struct err e;
};

static void
run_step(const struct battle_source *src, const struct ruleset *rs,
    struct run *r, int step, int reference)
{
	int turn = battle_step_turn(r->b, step);
	int side = battle_step_side(r->b, step), sd, nsets = 0;
	struct dice d;

	for (sd = 0; sd < r->b->nsides; sd++) {
		char *text;
		int header = 0;

		if (side >= 0 && sd != side)
			continue;
		text = src->orders(src, r->b, turn, sd, r->op, &header);
		if (text == NULL)
			continue;
		orders_parse(r->op, r->b, sd, text, header, r->res);
		free(text);
		r->sets[nsets++] = r->res->set;
	}
	events_free(&r->ev);
	events_init(&r->ev);
	dice_init(&d, xorshift_next, &r->dice, &r->ev);
	err_clear(&r->e);
	geom_reference(reference);
	r->rc = rs->adjudicate(r->b, step, r->sets, nsets, &d, &r->ev, &r->e);
	geom_reference(0);
}

static void
compare(const struct battle_source *src, int step, const struct run *a,
    const struct run *b)
{
	unsigned char ha[LEDGER_HASH], hb[LEDGER_HASH];
	int i;

	if (a->rc != b->rc || strcmp(a->e.msg, b->e.msg) != 0)
		fail_msg("%s, step %d: the step %s (%s) with the old geometry, %s "
		    "(%s) with the new", src->name, step, a->rc ? "failed" : "played",
		    a->e.msg, b->rc ? "failed" : "played", b->e.msg);
	if (a->ev.n != b->ev.n)
		fail_msg("%s, step %d: %d events with the old geometry, %d with "
		    "the new", src->name, step, a->ev.n, b->ev.n);
	for (i = 0; i < a->ev.n; i++) {
		const struct event *x = &a->ev.v[i], *y = &b->ev.v[i];

		if (x->kind != y->kind || x->side != y->side || x->unit != y->unit ||
		    x->target != y->target || x->value != y->value ||
		    x->sides != y->sides || x->nargs != y->nargs ||
		    strcmp(x->text, y->text) != 0 || strcmp(x->msg, y->msg) != 0 ||
		    strcmp(x->types, y->types) != 0 ||
		    memcmp(x->args, y->args, sizeof(x->args)) != 0)
			fail_msg("%s, step %d, event %d differs:\n  old: %s\n  new: %s",
			    src->name, step, i + 1, x->text, y->text);
	}
	for (i = 0; i < a->b->nstands; i++)
		if (memcmp(&a->b->stands[i], &b->b->stands[i],
		    sizeof(a->b->stands[i])) != 0)
			fail_msg("%s, step %d: stand %d differs (old at %d,%d, new at "
			    "%d,%d)", src->name, step, i, a->b->stands[i].pos.x,
			    a->b->stands[i].pos.y, b->b->stands[i].pos.x,
			    b->b->stands[i].pos.y);
	assert_int_equal(ledger_state_hash(a->b, ha), 0);
	assert_int_equal(ledger_state_hash(b->b, hb), 0);
	if (memcmp(ha, hb, sizeof(ha)) != 0)
		fail_msg("%s, step %d: the state hashes differ", src->name, step);
}

static void
plays_the_same_both_ways(void **state)
{
	const struct battle_source *src = *state;
	struct run r[2];
	const struct ruleset *rs;
	int i, step, steps, events = 0;

	memset(r, 0, sizeof(r));
	for (i = 0; i < 2; i++) {
		if (src->load(src, &r[i].b, &r[i].e) != 0)
			fail_msg("%s: %s", src->name, r[i].e.msg);
		rs = ruleset_find(r[i].b->ruleset);
		assert_non_null(rs);
		r[i].op = orders_parser_new(rs, &r[i].e);
		assert_non_null(r[i].op);
		r[i].res = calloc(1, sizeof(*r[i].res));
		assert_non_null(r[i].res);
		events_init(&r[i].ev);
		r[i].dice = 0x1781c0a1e5ce17a9ULL;
	}
	rs = ruleset_find(r[0].b->ruleset);
	steps = src->steps > 0 ? src->steps : battle_steps(r[0].b);
	for (step = 1; step <= steps; step++) {
		run_step(src, rs, &r[0], step, 1);
		run_step(src, rs, &r[1], step, 0);
		compare(src, step, &r[0], &r[1]);
		events += r[0].ev.n;
		if (r[0].rc != 0)
			break;
	}
	print_message("%s: %d steps, %d events the same both ways\n", src->name,
	    step > steps ? steps : step, events);
	/* A battle that plays nothing pins nothing. */
	assert_true(events > 0);
	for (i = 0; i < 2; i++) {
		orders_parser_free(r[i].op);
		free(r[i].res);
		events_free(&r[i].ev);
		battle_free(r[i].b);
	}
}

int
main(void)
{
	struct CMUnitTest tests[sizeof(sources) / sizeof(sources[0])];
	size_t i;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		tests[i].name = sources[i].name;
		tests[i].test_func = plays_the_same_both_ways;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = (void *)&sources[i];
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
