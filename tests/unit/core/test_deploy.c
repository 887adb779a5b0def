/*
 * test_deploy.c - the deployment step (core/deploy.h): the scenario's
 * `deploy` lines and their refusals, the steps a battle with zones has,
 * DEPLOY read and refused by the orders parser, and the step played
 * through ledger_play_step as the referee and verify play it: units
 * carried whole and turned, commanders with them, the later of two
 * overlapping orders giving way, and no die rolled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/deploy.h"
#include "core/geom.h"
#include "ledger/play.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

/* Two sides, each with a zone along its own edge; the crown's 7th and
 * 71st in line side by side, Tarleton with the 7th. */
static const char scen[] =
    "scenario \"Deploy\"\nruleset vnb-wing\ntable 48 x 48\nturns 3\n"
    "side crown \"Crown\"\n"
    "deploy crown 0,0 48,16\n"
    "  commander \"Tarleton\" army at 24,4\n"
    "  brigade \"1st\" commander \"McArthur\" at 24,8\n"
    "    unit \"7th Foot\" type british-line stands 2 sp 2 at 24,10 "
    "facing 0\n"
    "    unit \"71st Highlanders\" type highlanders stands 2 sp 2 at 36,10 "
    "facing 0\n"
    "side continental \"Continental\"\n"
    "deploy continental 0,32 48,48\n"
    "  commander \"Morgan\" army at 24,44\n"
    "  brigade \"Line\" commander \"Howard\" at 24,40\n"
    "    unit \"Maryland\" type continentals-post-1778 stands 2 sp 2 "
    "at 24,36 facing 180\n";

static struct battle *
parse(const char *text)
{
	struct battle *b = NULL;
	struct err e;

	if (scenario_parse(text, strlen(text), "d.scenario", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	return b;
}

/* The refusal text for a scenario line added after scen's sides. */
static void
refused(const char *line, const char *want)
{
	char text[4096];
	struct battle *b = NULL;
	struct err e;

	snprintf(text, sizeof(text), "%s%s\n", scen, line);
	assert_int_not_equal(scenario_parse(text, strlen(text), "d.scenario", 0,
	    &b, &e), 0);
	assert_null(b);
	if (strstr(e.msg, want) == NULL)
		fail_msg("'%s' gave \"%s\", not \"%s\"", line, e.msg, want);
	/* the line is named: the scenario has 15 lines before it */
	assert_non_null(strstr(e.msg, "d.scenario:16:"));
}

/* The refusal for a reinforcement's unit line with `extra` at its end. */
static void
refused_unit(const char *extra, const char *want)
{
	char text[4096];
	struct battle *b = NULL;
	struct err e;

	snprintf(text, sizeof(text), "%s    unit \"Late\" type british-line "
	    "stands 1 sp 2 at 40,4 facing 0 %s\n", scen, extra);
	assert_int_not_equal(scenario_parse(text, strlen(text), "d.scenario", 0,
	    &b, &e), 0);
	if (strstr(e.msg, want) == NULL)
		fail_msg("'%s' gave \"%s\", not \"%s\"", extra, e.msg, want);
}

static void
zones_read_and_refused(void **state)
{
	struct battle *b = parse(scen);

	(void)state;
	assert_int_equal(b->nzones, 2);
	assert_int_equal(b->zones[0].side, 0);
	assert_int_equal(b->zones[0].x1, FX(48));
	assert_int_equal(b->zones[0].y1, FX(16));
	assert_int_equal(b->zones[1].side, 1);
	assert_int_equal(b->zones[1].y0, FX(32));
	battle_free(b);
	refused("deploy french 0,0 10,10", "no side 'french'");
	refused("deploy crown 10,10 5,20", "is empty");
	refused("deploy crown 0,0 60,10", "off the table");
	refused("deploy crown 0,0", "expected 'deploy SIDE");
}

/* A battle with zones has one step more, the first: turn 0, every side
 * at once; the phases follow as they would without it. */
static void
steps_with_a_deployment(void **state)
{
	struct battle *b = parse(scen);
	int s;

	(void)state;
	assert_int_equal(battle_deploy_steps(b), 1);
	assert_int_equal(battle_steps(b), 1 + 3 * 2);
	assert_true(battle_step_deploys(b, 1));
	assert_false(battle_step_deploys(b, 2));
	assert_int_equal(battle_step_turn(b, 1), 0);
	assert_int_equal(battle_step_side(b, 1), -1);
	for (s = 2; s <= battle_steps(b); s++) {
		assert_int_equal(battle_step_turn(b, s), (s - 2) / 2 + 1);
		assert_int_equal(battle_step_side(b, s), (s - 2) % 2);
	}
	/* without zones nothing changes */
	b->nzones = 0;
	assert_int_equal(battle_steps(b), 6);
	assert_int_equal(battle_step_turn(b, 1), 1);
	assert_int_equal(battle_step_side(b, 1), 0);
	battle_free(b);
}

struct pfx {
	struct battle *b;
	struct orders_parser *p;
	struct orders_result *r;
};

static struct pfx *
pfx_new(void)
{
	struct pfx *f = calloc(1, sizeof(*f));
	struct err e;

	assert_non_null(f);
	f->b = parse(scen);
	f->p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(f->p);
	f->r = malloc(sizeof(*f->r));
	assert_non_null(f->r);
	return f;
}

static void
pfx_free(struct pfx *f)
{
	orders_parser_free(f->p);
	battle_free(f->b);
	free(f->r);
	free(f);
}

/* The text of the mail's line n (1-based) in the result. */
static const char *
line_text(const struct orders_result *r, int n)
{
	int i;

	for (i = 0; i < r->nlines; i++)
		if (r->lines[i].line == n)
			return r->lines[i].text;
	return "";
}

static void
deploy_orders_read_and_refused(void **state)
{
	struct pfx *f = pfx_new();

	(void)state;
	orders_parser_deploying(f->p, 1);
	orders_parse(f->p, f->b, 0,
	    "7th: deploy at 20,6 facing 90\n"
	    "71st: DEPLOY AT 30,12\n"
	    "Tarleton: DEPLOY AT 10,4\n"
	    "7th Foot: ADVANCE 4\n"
	    "71st: DEPLOY AT 30,30\n"
	    "McArthur: DEPLOY AT 8,8 FACING 400\n"
	    "Maryland: DEPLOY AT 24,40\n", 0, f->r);
	assert_string_equal(line_text(f->r, 1),
	    "7th Foot: DEPLOY AT 20,6 FACING 90");
	assert_string_equal(line_text(f->r, 2), "71st Highlanders: DEPLOY AT 30,12");
	assert_string_equal(line_text(f->r, 3), "Tarleton: DEPLOY AT 10,4");
	/* a move in the deployment, said what is taken instead */
	assert_non_null(strstr(line_text(f->r, 4), "only DEPLOY lines are taken for it"));
	/* outside the zone: what the zone is */
	assert_non_null(strstr(line_text(f->r, 5),
	    "30,30 is outside your deployment zone"));
	assert_non_null(strstr(line_text(f->r, 5), "within 0,0 to 48,16"));
	assert_non_null(strstr(line_text(f->r, 6), "FACING needs a bearing"));
	/* another side's unit is not the crown's to deploy */
	assert_int_equal(f->r->nerrors, 4);
	assert_int_equal(f->r->set.n, 3);
	assert_int_equal(f->r->set.orders[0].steps[0].verb, V_DEPLOY);
	assert_int_equal(f->r->set.orders[0].steps[0].angle, 90);
	assert_int_equal(f->r->set.orders[1].steps[0].angle, -1);
	/* the canonical text reads back as itself */
	orders_parse(f->p, f->b, 0, "7th Foot: DEPLOY AT 20,6 FACING 90\n", 0,
	    f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_string_equal(line_text(f->r, 1),
	    "7th Foot: DEPLOY AT 20,6 FACING 90");
	/* a brigade's line is refused: its units would share one point */
	orders_parse(f->p, f->b, 0, "1st: DEPLOY AT 20,6\n", 0, f->r);
	assert_int_equal(f->r->set.n, 0);
	assert_non_null(strstr(line_text(f->r, 1), "unit by unit"));
	/* a standing order is the ruleset's, kept for the turns after */
	orders_parse(f->p, f->b, 0, "STANDING: 7th Foot: HOLD\n", 0, f->r);
	assert_int_equal(f->r->nerrors, 0);
	assert_int_equal(f->r->standing.n, 1);
	/* its centre in the zone, a stand past the edge: the stand named */
	orders_parse(f->p, f->b, 0, "71st: DEPLOY AT 47,8\n", 0, f->r);
	assert_int_equal(f->r->set.n, 0);
	assert_non_null(strstr(line_text(f->r, 1), "at 47,8 a stand of the unit "
	    "would stand at 48.5,8, outside your deployment zone"));
	/* once the deployment is played DEPLOY is refused */
	orders_parser_deploying(f->p, 0);
	orders_parse(f->p, f->b, 0, "7th: DEPLOY AT 20,6\n", 0, f->r);
	assert_int_equal(f->r->set.n, 0);
	assert_non_null(strstr(line_text(f->r, 1), "DEPLOY is taken only for the battle's deployment"));
	pfx_free(f);
}

/* Plays the deployment with each side's orders (NULL: none). */
static void
play(struct pfx *f, const char *crown, const char *cont, struct events *ev)
{
	struct play_seat seats[2] = { { 0, crown }, { 1, cont } };
	struct play_in in;
	struct play_out out;
	struct err e;
	int none = 0;

	memset(&in, 0, sizeof(in));
	in.step = 1;
	in.seats = seats;
	in.nseats = 2;
	in.script = &none;
	in.nscript = 0;
	in.script_all = 1;
	events_init(ev);
	if (ledger_play_step(ruleset_find("vnb-wing"), f->p, f->b, &in, ev,
	    &out, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(out.rolls, 0);
}

static int
has_event(const struct events *ev, const char *msg, int unit)
{
	int i;

	for (i = 0; i < ev->n; i++)
		if (strcmp(ev->v[i].msg, msg) == 0 && ev->v[i].unit == unit)
			return 1;
	return 0;
}

static void
deployment_carries_units_whole(void **state)
{
	struct pfx *f = pfx_new();
	struct battle *b = f->b;
	struct events ev;
	const struct unit *u = &b->units[0];
	struct stand s0 = b->stands[u->first_stand];
	struct stand s1 = b->stands[u->first_stand + 1];
	struct pt c, mary = b->stands[b->units[2].first_stand].pos;
	fx spread = s1.pos.x - s0.pos.x;

	(void)state;
	/* Tarleton rides with the 7th */
	b->commanders[0].attached = 0;
	assert_true(spread > 0);
	assert_int_equal(s0.pos.y, s1.pos.y);
	play(f, "7th Foot: DEPLOY AT 20,6 FACING 90\n", NULL, &ev);
	/* the centre where it was sent, the line turned to face east: its
	 * stands now one behind the other along y, as far apart as before */
	assert_int_equal(battle_unit_centre(b, 0, &c), 1);
	assert_true(abs(c.x - FX(20)) <= 1 && abs(c.y - FX(6)) <= 1);
	assert_int_equal(b->stands[u->first_stand].facing, 90);
	assert_int_equal(b->stands[u->first_stand + 1].facing, 90);
	assert_true(abs(b->stands[u->first_stand].pos.x -
	    b->stands[u->first_stand + 1].pos.x) <= 1);
	assert_true(abs(abs(b->stands[u->first_stand + 1].pos.y -
	    b->stands[u->first_stand].pos.y) - spread) <= 1);
	/* Tarleton kept his place relative to the unit: 6" behind its
	 * centre before (24,4 from 24,10, the unit facing north, +y), 6"
	 * behind it now that it faces east (west of 20,6) */
	assert_true(abs(b->commanders[0].pos.x - FX(14)) <= 1);
	assert_true(abs(b->commanders[0].pos.y - FX(6)) <= 1);
	/* McArthur, the 1st's commander with no line of his own, follows
	 * his brigade: 3" behind the middle of its two units (20,6 and
	 * 36,10: 28,8), to the rear of the 7th's new facing (east) */
	assert_true(abs(b->commanders[1].pos.x - FX(25)) <= 1);
	assert_true(abs(b->commanders[1].pos.y - FX(8)) <= 1);
	/* a side that sent nothing stands where the scenario put it */
	assert_int_equal(b->stands[b->units[2].first_stand].pos.x, mary.x);
	assert_int_equal(b->stands[b->units[2].first_stand].pos.y, mary.y);
	assert_true(has_event(&ev, "deploys", 0));
	assert_int_equal(ev.v[0].kind, EV_PHASE);
	assert_string_equal(ev.v[0].msg, "deployment");
	events_free(&ev);
	pfx_free(f);
}

/* Two units sent to the same ground: the later order gives way and keeps
 * its place, and says on whom it would have stood; a unit sent onto one
 * that was not ordered gives way to it. */
static void
deployment_overlap_gives_way(void **state)
{
	struct pfx *f = pfx_new();
	struct battle *b = f->b;
	struct events ev;
	struct pt before = b->stands[b->units[1].first_stand].pos, c;

	(void)state;
	play(f, "7th Foot: DEPLOY AT 12,12\n71st Highlanders: DEPLOY AT 12,12\n",
	    NULL, &ev);
	assert_int_equal(battle_unit_centre(b, 0, &c), 1);
	assert_true(abs(c.x - FX(12)) <= 1 && abs(c.y - FX(12)) <= 1);
	assert_int_equal(b->stands[b->units[1].first_stand].pos.x, before.x);
	assert_int_equal(b->stands[b->units[1].first_stand].pos.y, before.y);
	assert_true(has_event(&ev, "deploy-blocked", 1));
	assert_false(has_event(&ev, "deploys", 1));
	events_free(&ev);
	pfx_free(f);

	f = pfx_new();
	b = f->b;
	before = b->stands[b->units[0].first_stand].pos;
	play(f, "7th Foot: DEPLOY AT 36,10\n", NULL, &ev);
	assert_int_equal(b->stands[b->units[0].first_stand].pos.x, before.x);
	assert_true(has_event(&ev, "deploy-blocked", 0));
	events_free(&ev);
	pfx_free(f);
}

/* A reinforcement: the crown's Legion comes on from turn 2 at 12,4. */
static const char reinf[] =
    "scenario \"Arrive\"\nruleset vnb-wing\ntable 48 x 48\nturns 3\n"
    "side crown \"Crown\"\n"
    "deploy crown 0,0 48,16\n"
    "  commander \"Tarleton\" army at 24,4\n"
    "  brigade \"1st\" commander \"McArthur\" at 24,8\n"
    "    unit \"7th Foot\" type british-line stands 2 sp 2 at 24,10 "
    "facing 0\n"
    "    unit \"Legion\" type british-line stands 2 sp 3 at 12,4 "
    "facing 0 arrives 2\n"
    "side continental \"Continental\"\n"
    "  commander \"Morgan\" army at 24,44\n"
    "  brigade \"Line\" commander \"Howard\" at 24,40\n"
    "    unit \"Maryland\" type continentals-post-1778 stands 2 sp 2 "
    "at 24,36 facing 180\n";

/* Plays step with the seeded dice and no orders. */
static void
play_seeded(struct battle *b, struct orders_parser *p, int step,
    struct events *ev)
{
	static const unsigned char seed[32] = { 1, 2, 3 };
	struct play_seat seats[2] = { { 0, NULL }, { 1, NULL } };
	struct play_in in;
	struct play_out out;
	struct err e;

	memset(&in, 0, sizeof(in));
	in.step = step;
	in.seats = seats;
	in.nseats = 2;
	in.dice_seed = seed;
	events_init(ev);
	if (ledger_play_step(ruleset_find("vnb-wing"), p, b, &in, ev, &out,
	    &e) != 0)
		fail_msg("step %d: %s", step, e.msg);
}

static int
event_at(const struct events *ev, const char *msg)
{
	int i;

	for (i = 0; i < ev->n; i++)
		if (strcmp(ev->v[i].msg, msg) == 0)
			return i;
	return -1;
}

static void
reinforcement_comes_on_in_its_turn(void **state)
{
	struct battle *b = parse(reinf);
	struct orders_parser *p;
	struct events ev;
	struct err e;
	int legion = 1, s;
	char msg[300];

	(void)state;
	p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(p);
	/* off the table, its strength its own, not lost */
	assert_int_equal(b->units[legion].arrives, 2);
	assert_true(battle_unit_away(b, legion));
	assert_int_equal(battle_unit_alive(b, legion), 0);
	assert_int_equal(battle_unit_sp(b, legion), 6);
	for (s = 0; s < 2; s++)
		assert_int_equal(b->stands[b->units[legion].first_stand + s].flags &
		    (ST_GONE | ST_AWAY), ST_GONE | ST_AWAY);
	/* not to be deployed: it is not there yet */
	assert_int_equal(battle_deploy_check(b, 0, 0, legion, (struct pt){
	    FX(10), FX(10) }, -1, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "is not on the field yet: it comes on from "
	    "turn 2"));
	/* the deployment and turn 1: still away, the brigade not worn */
	play_seeded(b, p, 1, &ev);
	assert_int_equal(event_at(&ev, "arrives"), -1);
	events_free(&ev);
	play_seeded(b, p, 2, &ev);
	assert_int_equal(event_at(&ev, "arrives"), -1);
	assert_true(battle_unit_away(b, legion));
	assert_int_equal(b->brigades[0].lost, 0);
	assert_false(b->brigades[0].flags & BR_EXHAUSTED);
	events_free(&ev);
	/* the continental phase of turn 1 brings no crown unit */
	play_seeded(b, p, 3, &ev);
	assert_int_equal(event_at(&ev, "arrives"), -1);
	events_free(&ev);
	/* the crown's phase of turn 2: it comes on where the scenario put
	 * it, told right after the phase's first line */
	play_seeded(b, p, 4, &ev);
	assert_int_equal(battle_step_turn(b, 4), 2);
	assert_int_equal(battle_step_side(b, 4), 0);
	assert_int_equal(ev.v[0].kind, EV_PHASE);
	assert_int_equal(event_at(&ev, "arrives"), 1);
	assert_int_equal(ev.v[1].unit, legion);
	assert_false(battle_unit_away(b, legion));
	assert_int_equal(battle_unit_alive(b, legion), 2);
	events_free(&ev);
	battle_free(b);

	/* its ground taken by a unit of its own: it waits, and comes on in
	 * its next phase once the ground is clear; the event names the unit
	 * in its way in its sentence, but not as its target (the other side
	 * may not see the one waiting) */
	b = parse(reinf);
	for (s = 0; s < 2; s++) {
		b->stands[b->units[0].first_stand + s].pos.x -= FX(12);
		b->stands[b->units[0].first_stand + s].pos.y -= FX(6);
	}
	play_seeded(b, p, 4, &ev);
	assert_true(event_at(&ev, "arrival-waits") >= 0);
	assert_int_equal(ev.v[event_at(&ev, "arrival-waits")].target, -1);
	assert_true(battle_unit_away(b, legion));
	events_free(&ev);
	/* not in the enemy's phase */
	for (s = 0; s < 2; s++)
		b->stands[b->units[0].first_stand + s].pos.x += FX(20);
	play_seeded(b, p, 5, &ev);
	assert_int_equal(event_at(&ev, "arrives"), -1);
	assert_true(battle_unit_away(b, legion));
	events_free(&ev);
	play_seeded(b, p, 6, &ev);
	assert_true(event_at(&ev, "arrives") >= 0);
	assert_false(battle_unit_away(b, legion));
	events_free(&ev);
	battle_free(b);
	orders_parser_free(p);
	refused_unit("arrives 0", "the turn it comes on");
}

/* A reinforcement able to skirmish, placed in skirmish order: it waits
 * broken into its detachments, and comes on as them, its strength
 * neither doubled nor lost; its commander waits with it and may not be
 * deployed. */
static void
reinforcement_in_skirmish_order_and_its_commander(void **state)
{
	static const char text[] =
	    "scenario \"Arrive\"\nruleset vnb-wing\ntable 48 x 48\nturns 3\n"
	    "side crown \"Crown\"\n"
	    "deploy crown 0,0 48,16\n"
	    "  commander \"Tarleton\" army at 24,4\n"
	    "  brigade \"1st\" commander \"McArthur\" at 24,8\n"
	    "    unit \"7th Foot\" type british-line stands 2 sp 2 at 24,10 "
	    "facing 0\n"
	    "  brigade \"Light\" commander \"Ferguson\" at 8,2 arrives 2\n"
	    "    unit \"Light Coy\" type british-line +SK stands 2 sp 3 at 14,4 "
	    "facing 0 skirmish arrives 2\n"
	    "side continental \"Continental\"\n"
	    "  commander \"Morgan\" army at 24,44\n"
	    "  brigade \"Line\" commander \"Howard\" at 24,40\n"
	    "    unit \"Maryland\" type continentals-post-1778 stands 2 sp 2 "
	    "at 24,36 facing 180\n";
	struct battle *b = parse(text);
	struct orders_parser *p;
	struct events ev;
	struct err e;
	int lc = battle_find_unit(b, "Light Coy"), fg;
	int s, live = 0, away = 0;
	char msg[300];

	(void)state;
	p = orders_parser_new(ruleset_find("vnb-wing"), &e);
	assert_non_null(p);
	fg = battle_find_commander(b, "Ferguson");
	assert_true(lc >= 0 && fg >= 0);
	assert_int_equal(battle_unit_sp(b, lc), 6);
	assert_int_equal(battle_unit_alive(b, lc), 0);
	assert_int_equal(b->commanders[fg].out_until, BATTLE_STEP_AWAY);
	assert_int_equal(battle_deploy_check(b, 0, 1, fg, (struct pt){ FX(10),
	    FX(10) }, -1, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "Ferguson is not on the field yet"));
	play_seeded(b, p, 1, &ev);
	events_free(&ev);
	play_seeded(b, p, 2, &ev);
	events_free(&ev);
	play_seeded(b, p, 3, &ev);
	events_free(&ev);
	play_seeded(b, p, 4, &ev);
	assert_true(event_at(&ev, "arrives") >= 0);
	assert_true(event_at(&ev, "arrives-commander") >= 0);
	events_free(&ev);
	for (s = 0; s < b->units[lc].nstands; s++) {
		unsigned f = b->stands[b->units[lc].first_stand + s].flags;

		live += !(f & ST_GONE);
		away += (f & ST_AWAY) != 0;
	}
	/* 6 SP in detachments of the ruleset's size, none left waiting */
	assert_int_equal(away, 0);
	assert_int_equal(battle_unit_sp(b, lc), 6);
	assert_int_equal(live, 6 / ruleset_param(ruleset_find("vnb-wing"), b,
	    "detachment.sp"));
	assert_int_equal(b->commanders[fg].out_until, 0);
	assert_int_equal(b->brigades[1].lost, 0);
	battle_free(b);
	orders_parser_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zones_read_and_refused),
		cmocka_unit_test(steps_with_a_deployment),
		cmocka_unit_test(deploy_orders_read_and_refused),
		cmocka_unit_test(deployment_carries_units_whole),
		cmocka_unit_test(deployment_overlap_gives_way),
		cmocka_unit_test(reinforcement_comes_on_in_its_turn),
		cmocka_unit_test(reinforcement_in_skirmish_order_and_its_commander),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
