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
 * battles are read from campaign/ with their order mails, and widened
 * (copied side by side, with orders made up each phase) for more stands
 * and more contact; a source of generated battles adds a row to
 * sources[] with its own load and orders functions.
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
#include "gen_battle.h"
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
	int copies;            /* a widened campaign's: copies side by side */
	const char *ruleset;   /* a generated battle's (gen_battle.h) ... */
	int stands;            /* ... and its stands */
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

/* --- a campaign's battle widened ---------------------------------------- *
 *
 * The campaign's brigades and ground copied `copies` times side by side,
 * each copy 72" east of the last (the campaigns' tables are 72" wide),
 * with " N" after each name, and orders made up each phase: the first
 * side's units charge their opposite numbers on odd turns and advance on
 * even ones, the other side's advance and shoot.  More stands, more
 * contact, routs and pushes than the campaigns' own few turns. */

static void
put(char **o, size_t *n, size_t *cap, const char *s, size_t len)
{
	if (*n + len + 1 > *cap) {
		*cap = (*n + len + 1) * 2;
		*o = realloc(*o, *cap);
		assert_non_null(*o);
	}
	memcpy(*o + *n, s, len);
	*n += len;
	(*o)[*n] = '\0';
}

/* line with every "X,Y" pair after `from` moved dx inches east, and " N"
 * put after its first quoted name (and after its second, for a brigade
 * line's commander). */
static void
put_copy(char **o, size_t *n, size_t *cap, const char *line, size_t len,
    const char *from, int dx, int k, int names)
{
	const char *p = line, *end = line + len, *move = from;
	char tag[16];
	int q = 0;

	snprintf(tag, sizeof(tag), " %d", k);
	while (p < end) {
		if (*p == '"') {
			q++;
			if (q % 2 == 0 && q / 2 <= names)
				put(o, n, cap, tag, strlen(tag));
			put(o, n, cap, p, 1);
			p++;
			continue;
		}
		if (move != NULL && p >= move && q % 2 == 0 &&
		    (*p == '-' || (*p >= '0' && *p <= '9')) &&
		    (p == line || p[-1] == ' ')) {
			char *e1, *e2, num[32];
			double x = strtod(p, &e1);

			if (*e1 == ',' && (strtod(e1 + 1, &e2), e2 > e1 + 1)) {
				snprintf(num, sizeof(num), "%g", x + dx);
				put(o, n, cap, num, strlen(num));
				p = e1;
				continue;
			}
		}
		put(o, n, cap, p, 1);
		p++;
	}
}

static int
widened_load(const struct battle_source *src, struct battle **b,
    struct err *e)
{
	char path[512], *t, *out = NULL;
	const char *p, *body[2] = { NULL, NULL };
	size_t n = 0, cap = 0;
	int k, sd = -1, rc;

	snprintf(path, sizeof(path), "%s/campaign/%s/%s", DESPATCH_SOURCE_DIR,
	    src->dir, src->scenario);
	t = slurp(path);
	if (t == NULL)
		fail_msg("cannot read %s", path);
	/* Ground, then each side's head lines once and its brigades
	 * copies times. */
	for (p = t; *p; ) {
		const char *nl = strchr(p, '\n'), *w = p;
		size_t len = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);

		while (*w == ' ')
			w++;
		if (strncmp(w, "side ", 5) == 0) {
			sd++;
			body[sd] = p;
			p += len;
			continue;
		}
		if (sd < 0) {
			if (strncmp(w, "table ", 6) == 0) {
				char line[64];

				snprintf(line, sizeof(line), "table %d x 48\n",
				    72 * src->copies);
				put(&out, &n, &cap, line, strlen(line));
			} else if (strncmp(w, "terrain ", 8) == 0) {
				const char *at = strstr(w, " poly ");

				if (at == NULL)
					at = strstr(w, " line ");
				for (k = 0; k < src->copies; k++)
					put_copy(&out, &n, &cap, p, len, at, 72 * k, k, 1);
			} else
				put(&out, &n, &cap, p, len);
		}
		p += len;
	}
	for (sd = 0; sd < 2; sd++) {
		const char *first_brigade = NULL, *stop;

		assert_non_null(body[sd]);
		stop = sd == 0 ? body[1] : body[sd] + strlen(body[sd]);
		for (p = body[sd]; p < stop; ) {
			const char *nl = strchr(p, '\n'), *w = p;
			size_t len = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);

			while (*w == ' ')
				w++;
			if (strncmp(w, "brigade ", 8) == 0 && first_brigade == NULL)
				first_brigade = p;
			if (first_brigade == NULL)
				put(&out, &n, &cap, p, len);
			p += len;
		}
		for (k = 0; first_brigade != NULL && k < src->copies; k++)
			for (p = first_brigade; p < stop; ) {
				const char *nl = strchr(p, '\n'), *w = p;
				size_t len = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);

				while (*w == ' ')
					w++;
				if (*w != '#' && *w != '\n')
					put_copy(&out, &n, &cap, p, len, strstr(p, " at "),
					    72 * k, k, strncmp(w, "brigade ", 8) == 0 ? 2 : 1);
				p += len;
			}
	}
	free(t);
	rc = scenario_parse(out, n, path, 0, b, e);
	free(out);
	return rc;
}

static char *
widened_orders(const struct battle_source *src, const struct battle *b,
    int turn, int side, struct orders_parser *op, int *header)
{
	char *out = NULL, line[300];
	size_t n = 0, cap = 0;
	int u, foe[BATTLE_MAX_UNITS], nfoe = 0, i = 0;

	(void)src;
	(void)op;
	*header = 0;
	for (u = 0; u < b->nunits; u++)
		if (b->units[u].side != side && battle_unit_alive(b, u) > 0)
			foe[nfoe++] = u;
	for (u = 0; u < b->nunits; u++) {
		if (b->units[u].side != side || battle_unit_alive(b, u) == 0)
			continue;
		if (side == 0 && turn % 2 == 1 && nfoe > 0)
			snprintf(line, sizeof(line), "%s: CHARGE %s\n",
			    b->units[u].name, b->units[foe[i++ % nfoe]].name);
		else
			snprintf(line, sizeof(line), "%s: ADVANCE %d\n",
			    b->units[u].name, side == 0 ? 5 : 2);
		put(&out, &n, &cap, line, strlen(line));
	}
	return out;
}

/* --- generated battles (tests/bench/gen_battle.h) --------------------- */

static struct gen_spec
spec_of(const struct battle_source *src)
{
	struct gen_spec g;

	memset(&g, 0, sizeof(g));
	g.ruleset = src->ruleset;
	g.stands = src->stands;
	g.seed = 24;   /* bench_adjudicate's */
	return g;
}

static int
generated_load(const struct battle_source *src, struct battle **b,
    struct err *e)
{
	struct gen_spec g = spec_of(src);

	return gen_battle_new(&g, b, e);
}

/* The generator's orders for the step of side's phase of turn, as
 * bench_adjudicate plays them; the text is all orders (no header). */
static char *
generated_orders(const struct battle_source *src, const struct battle *b,
    int turn, int side, struct orders_parser *op, int *header)
{
	struct gen_spec g = spec_of(src);
	struct err e;
	char *text = NULL;
	int step, n = battle_steps(b);

	(void)op;
	*header = 0;
	for (step = 1; step <= n; step++)
		if (battle_step_turn(b, step) == turn &&
		    (battle_step_side(b, step) == side ||
		    battle_step_side(b, step) < 0))
			break;
	if (step > n)
		return NULL;
	err_clear(&e);
	if (gen_battle_orders(&g, b, side, step, &text, &e) != 0)
		fail_msg("%s: %s", src->name, e.msg);
	return text;
}

static const struct battle_source sources[] = {
	{ "Cowpens (vnb-wing)", campaign_load, campaign_orders, 0,
	  "cowpens-1781", "cowpens.scenario", 0 },
	{ "Freeman's Farm (bb7)", campaign_load, campaign_orders, 0,
	  "freemans-farm-1777", "freemans-farm.scenario", 0 },
	{ "Cowpens four times over (vnb-wing)", widened_load, widened_orders,
	  12, "cowpens-1781", "cowpens.scenario", 4 },
	{ "Freeman's Farm three times over (bb7)", widened_load,
	  widened_orders, 12, "freemans-farm-1777", "freemans-farm.scenario",
	  3 },
	{ "generated, 400 stands (vnb-wing)", generated_load, generated_orders,
	  6, NULL, NULL, 0, "vnb-wing", 400 },
	{ "generated, 400 stands (bb7)", generated_load, generated_orders,
	  6, NULL, NULL, 0, "bb7", 400 },
#ifndef DIFFERENTIAL_NO_HUGE
	/* The old geometry takes seconds a phase here: the first two, where
	 * every unit still walks, are what the fast paths change most.  Left
	 * out of a sanitizer build (.ci/run's budget). */
	{ "generated, 1,600 stands (vnb-wing)", generated_load,
	  generated_orders, 2, NULL, NULL, 0, "vnb-wing", 1600 },
	{ "generated, 1,600 stands (bb7)", generated_load, generated_orders,
	  2, NULL, NULL, 0, "bb7", 1600 },
#endif
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
