/*
 * json_report.c - the battle as JSON (docs/json.md): the state, the
 * events, and a side's report of one phase, each in the view of one
 * side when the game is fogged.
 *
 * The CLI prints these (state --json, events --json) and each player who
 * asked for FULL mail gets the side report attached to every turn's
 * report.  Pure functions of the state and the events, like the text
 * report: the same step gives the same bytes.
 */
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/ruleset.h"
#include "report/json.h"
#include "report/narrative.h"

int
report_event_known(const struct battle *b, int side, const unsigned char *seen,
    const struct event *x)
{
	int s;

	if (x->kind == EV_PHASE)
		return 1;
	/* A side sees its own dice; the enemy's only when the battle is
	 * over, in the archive. */
	if (x->kind == EV_ROLL)
		return x->unit >= 0 && x->unit < b->nunits ?
		    b->units[x->unit].side == side : x->side == side;
	if (x->side == side)
		return 1;
	/* An enemy's command, and what it was ordered and could not do, are
	 * in its general's head, not on the field. */
	if (x->kind == EV_OUT_OF_COMMAND || x->kind == EV_ORDER_REFUSED)
		return 0;
	if (x->target >= 0 && x->target < b->nunits &&
	    b->units[x->target].side == side)
		return 1;
	if (x->unit >= 0 && x->unit < b->nunits) {
		const struct unit *un = &b->units[x->unit];

		if (un->side == side)
			return 1;
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (seen != NULL && seen[s])
				return 1;
	}
	return 0;
}

void
report_seen_contacts(const struct battle *b, int side,
    const struct events *ev, unsigned char *seen)
{
	int i, s;

	for (i = 0; i < ev->n; i++) {
		const struct event *x = &ev->v[i];
		int other = -1;

		if (x->kind != EV_FIRE && x->kind != EV_MELEE_WON &&
		    x->kind != EV_MELEE_LOST && x->kind != EV_HIT)
			continue;
		if (x->unit < 0 || x->unit >= b->nunits || x->target < 0 ||
		    x->target >= b->nunits)
			continue;
		if (b->units[x->unit].side == side &&
		    b->units[x->target].side != side)
			other = x->target;
		else if (b->units[x->target].side == side &&
		    b->units[x->unit].side != side)
			other = x->unit;
		if (other < 0)
			continue;
		for (s = b->units[other].first_stand; s <
		    b->units[other].first_stand + b->units[other].nstands; s++)
			if (!(b->stands[s].flags & ST_GONE))
				seen[s] = 1;
	}
}

/* A stand; hidden set (an enemy's in a fog game): its strength null, as
 * the table does not show it. */
static void
json_stand(struct jw *j, const struct battle *b, const struct stand *t,
    int hidden)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	char form[24];
	size_t k;

	/* The formation in the ruleset's own word, where it has its own. */
	snprintf(form, sizeof(form), "%s", rs != NULL && rs->form_word != NULL ?
	    rs->form_word(b, t->unit, t->form) : battle_form_name(t->form));
	for (k = 0; form[k]; k++)
		if (form[k] >= 'A' && form[k] <= 'Z')
			form[k] = (char)(form[k] - 'A' + 'a');
	jw_obj(j, NULL);
	if (hidden) {
		jw_null(j, "sp");
		jw_null(j, "sp_start");
	} else {
		jw_int(j, "sp", t->sp);
		jw_int(j, "sp_start", t->sp0);
	}
	jw_fx(j, "x", t->pos.x);
	jw_fx(j, "y", t->pos.y);
	jw_int(j, "facing", t->facing);
	jw_str(j, "formation", form);
	jw_bool(j, "disordered", (t->flags & ST_DISORDERED) != 0);
	jw_bool(j, "permanent", (t->flags & ST_PERMANENT) != 0);
	jw_bool(j, "routed", (t->flags & ST_ROUTED) == ST_ROUTED);
	jw_bool(j, "stationary", (t->flags & ST_STATIONARY) != 0);
	jw_bool(j, "removed", (t->flags & ST_GONE) != 0);
	jw_end_obj(j);
}

/* One unit; with hide set (an enemy unit in a fog game), only the stands
 * in sight, and nothing of its strength or brigade that the side cannot
 * see. */
static void
json_unit(struct jw *j, const struct battle *b, int i,
    const unsigned char *hide)
{
	const struct unit *u = &b->units[i];
	struct pt c;
	int s;
	int alive = hide != NULL ? battle_unit_centre_seen(b, i, hide, &c) > 0 :
	    battle_unit_centre(b, i, &c);

	jw_obj(j, NULL);
	jw_str(j, "name", u->name);
	jw_str(j, "side", b->sides[u->side].id);
	jw_str(j, "brigade", hide != NULL ? NULL :
	    b->brigades[u->brigade].name);
	jw_str(j, "type", u->type);
	jw_str(j, "kind", battle_kind_name(u->kind));
	jw_int(j, "morale", u->morale);
	jw_fx(j, "speed", u->speed);
	jw_str(j, "weapon", ruleset_weapon_name(ruleset_find(b->ruleset),
	    u->weapon));
	if (alive) {
		jw_fx(j, "x", c.x);
		jw_fx(j, "y", c.y);
	} else {
		jw_null(j, "x");
		jw_null(j, "y");
	}
	if (hide != NULL) {
		jw_null(j, "sp");
		jw_null(j, "stands_left");
	} else {
		jw_int(j, "sp", battle_unit_sp(b, i));
		jw_int(j, "stands_left", battle_unit_alive(b, i));
	}
	jw_arr(j, "stands");
	for (s = u->first_stand; s < u->first_stand + u->nstands; s++) {
		if (hide != NULL && (!hide[s] || (b->stands[s].flags & ST_GONE)))
			continue;
		/* The form a unit is not in is not a stand of it now. */
		if (b->stands[s].flags & ST_SPARE)
			continue;
		json_stand(j, b, &b->stands[s], hide != NULL);
	}
	jw_end_arr(j);
	/* What only the unit's ruleset has, in an object named after it. */
	jw_obj(j, b->ruleset);
	{
		const struct ruleset *rs = ruleset_find(b->ruleset);
		struct unit_field f[RULESET_MAX_FIELDS];
		int k, n = rs != NULL && rs->words->unit_fields != NULL ?
		    rs->words->unit_fields(b, i, hide, f) : 0;

		for (k = 0; k < n; k++)
			if (f[k].kind == FIELD_BOOL)
				jw_bool(j, f[k].key, f[k].value != 0);
			else if (f[k].kind == FIELD_INCHES)
				jw_fx(j, f[k].key, (fx)f[k].value);
			else
				jw_int(j, f[k].key, f[k].value);
	}
	jw_end_obj(j);
	jw_end_obj(j);
}

/* The scenario's victory conditions and the standing: points, who holds
 * each objective, and when the battle is over how it ended.  A fog game
 * shows a side neither points nor holders until the end. */
static void
json_result(struct jw *j, const struct report_game *g,
    const struct battle *b, int fog)
{
	struct battle_result r;
	int finished = strcmp(g->status, "finished") == 0;
	int played = finished ? g->step : strcmp(g->status, "running") == 0 ?
	    g->step - 1 : 0, i, hide;
	int conceded, drawn;

	battle_result(b, played, &r);
	/* Finished short of its end with no army broken: conceded, or drawn
	 * by agreement, which the result says (referee/draw.c writes it). */
	conceded = finished && !r.over;
	drawn = conceded && g->result != NULL &&
	    strncmp(g->result, "drawn", 5) == 0;
	hide = fog && !finished;
	jw_obj(j, "result");
	jw_bool(j, "over", finished || r.over);
	jw_str(j, "kind", drawn ? "drawn" : conceded ? "conceded" :
	    result_kind_name(r.kind));
	jw_str(j, "winner", !conceded && r.winner >= 0 ?
	    b->sides[r.winner].id : NULL);
	jw_str(j, "text", g->result != NULL && g->result[0] ? g->result :
	    NULL);
	jw_obj(j, "victory");
	jw_int(j, "exhausted", b->victory.exhausted);
	jw_int(j, "collapsed", b->victory.collapsed);
	jw_int(j, "margin", b->victory.margin);
	jw_bool(j, "army_break", b->victory.army_break);
	jw_end_obj(j);
	if (hide) {
		jw_null(j, "points");
	} else {
		jw_obj(j, "points");
		for (i = 0; i < b->nsides; i++)
			jw_int(j, b->sides[i].id, r.points[i]);
		jw_end_obj(j);
	}
	jw_arr(j, "objectives");
	for (i = 0; i < b->nobjectives; i++) {
		const struct objective *o = &b->objectives[i];

		jw_obj(j, NULL);
		jw_str(j, "name", o->name);
		jw_fx(j, "x", o->at.x);
		jw_fx(j, "y", o->at.y);
		jw_fx(j, "radius", o->radius);
		jw_int(j, "points", o->points);
		if (hide)
			jw_null(j, "held_by");
		else
			jw_str(j, "held_by", r.holder[i] >= 0 ?
			    b->sides[r.holder[i]].id : NULL);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_end_obj(j);
}

/* The writer lent to a ruleset for what its side holds (struct
 * ruleset_words.holdings_json). */
static void rj_obj(void *w, const char *k) { jw_obj(w, k); }
static void rj_end_obj(void *w) { jw_end_obj(w); }
static void rj_arr(void *w, const char *k) { jw_arr(w, k); }
static void rj_end_arr(void *w) { jw_end_arr(w); }
static void rj_str(void *w, const char *k, const char *v) { jw_str(w, k, v); }
static void rj_num(void *w, const char *k, int v) { jw_int(w, k, v); }
static void rj_inches(void *w, const char *k, fx v) { jw_fx(w, k, v); }

/* What the side holds of its ruleset's own. */
static void
json_holdings(struct jw *j, const struct battle *b, int side, int fog)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	const struct ruleset_json rj = {
		.w = j, .obj = rj_obj, .end_obj = rj_end_obj, .arr = rj_arr,
		.end_arr = rj_end_arr, .str = rj_str, .num = rj_num,
		.inches = rj_inches,
	};

	if (rs != NULL && rs->words->holdings_json != NULL)
		rs->words->holdings_json(b, side, fog, &rj);
}

void
report_json_state(struct jw *j, const char *key, const struct report_game *g,
    const struct battle *b, int side, const unsigned char *seen)
{
	int i, s, fog = side >= 0 && seen != NULL;

	jw_obj(j, key);
	jw_str(j, "game", g->name);
	jw_str(j, "title", b->title);
	jw_str(j, "ruleset", b->ruleset);
	jw_str(j, "status", g->status);
	jw_bool(j, "sandbox", g->sandbox);
	jw_str(j, "visibility", g->visibility);
	jw_str(j, "view", side >= 0 ? b->sides[side].id : NULL);
	jw_int(j, "step", g->step);
	jw_int(j, "steps", battle_steps(b));
	jw_int(j, "turn", strcmp(g->status, "setup") == 0 ? 0 :
	    battle_step_turn(b, g->step));
	jw_int(j, "turns", b->turns);
	if (strcmp(g->status, "running") == 0)
		jw_str(j, "phase", report_phase_id(b, g->step));
	else
		jw_null(j, "phase");
	jw_obj(j, "table");
	jw_fx(j, "width", b->width);
	jw_fx(j, "depth", b->depth);
	jw_end_obj(j);
	jw_arr(j, "sides");
	for (i = 0; i < b->nsides; i++) {
		jw_obj(j, NULL);
		jw_str(j, "id", b->sides[i].id);
		jw_str(j, "name", b->sides[i].name);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_arr(j, "commanders");
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *c = &b->commanders[i];

		if (fog && c->side != side)
			continue;
		jw_obj(j, NULL);
		jw_str(j, "name", c->name);
		jw_str(j, "side", b->sides[c->side].id);
		jw_str(j, "brigade", c->brigade >= 0 ?
		    b->brigades[c->brigade].name : NULL);
		jw_str(j, "rank", battle_rank_name(c->rank));
		jw_str(j, "unit", c->unit >= 0 ? b->units[c->unit].name : NULL);
		jw_fx(j, "x", c->pos.x);
		jw_fx(j, "y", c->pos.y);
		jw_bool(j, "removed", c->gone);
		/* A casualty: out until this step is over (0: not). */
		jw_int(j, "out_until_step", c->out_until);
		jw_bool(j, "out_of_play", c->out_removed);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_arr(j, "brigades");
	for (i = 0; i < b->nbrigades; i++) {
		const struct brigade *br = &b->brigades[i];

		if (fog && br->side != side)
			continue;
		jw_obj(j, NULL);
		jw_str(j, "name", br->name);
		jw_str(j, "side", b->sides[br->side].id);
		jw_str(j, "commander", b->commanders[br->commander].name);
		jw_fx(j, "exhaustion_level", br->level10 * 10);
		jw_int(j, "sp_start", br->sp0);
		jw_int(j, "sp_lost", br->lost);
		jw_bool(j, "exhausted", (br->flags & BR_EXHAUSTED) != 0);
		jw_bool(j, "collapsed", (br->flags & BR_COLLAPSED) != 0);
		jw_end_obj(j);
	}
	jw_end_arr(j);
	jw_arr(j, "units");
	for (i = 0; i < b->nunits; i++) {
		const struct unit *u = &b->units[i];
		int any = 0;

		if (!fog || u->side == side) {
			json_unit(j, b, i, NULL);
			continue;
		}
		for (s = u->first_stand; s < u->first_stand + u->nstands; s++)
			if (seen[s] && !(b->stands[s].flags & ST_GONE))
				any = 1;
		if (any)
			json_unit(j, b, i, seen);
	}
	jw_end_arr(j);
	json_holdings(j, b, side, fog);
	json_result(j, g, b, fog);
	jw_end_obj(j);
}

void
report_json_event(struct jw *j, const struct battle *b,
    const struct narrative *nar, const struct event *x, int step, int seq)
{
	char said[2 * EVENT_TEXT_MAX];
	int k;

	int ph = battle_step_side(b, step);

	jw_obj(j, NULL);
	jw_int(j, "step", step);
	jw_int(j, "turn", battle_step_turn(b, step));
	jw_str(j, "phase", ph >= 0 || battle_step_deploys(b, step) ?
	    report_phase_id(b, step) : NULL);
	jw_int(j, "seq", seq);
	jw_str(j, "kind", events_kind_name(x->kind));
	jw_str(j, "side", x->side >= 0 && x->side < b->nsides ?
	    b->sides[x->side].id : NULL);
	jw_str(j, "unit", x->unit >= 0 && x->unit < b->nunits ?
	    b->units[x->unit].name : NULL);
	jw_str(j, "target", x->target >= 0 && x->target < b->nunits ?
	    b->units[x->target].name : NULL);
	/* A move's distance is kept in hundredths of an inch; the JSON
	 * gives inches, as for every distance. */
	if (x->kind == EV_MOVE || x->kind == EV_COMMANDER)
		jw_fx(j, "value", (fx)x->value);
	else
		jw_int(j, "value", x->value);
	if (x->kind == EV_ROLL)
		jw_int(j, "die", x->sides);
	if (x->msg[0] != '\0') {
		jw_str(j, "msg", x->msg);
		jw_arr(j, "args");
		for (k = 0; k < x->nargs; k++) {
			const char *v = events_arg(x, k);

			jw_obj(j, NULL);
			if (events_type_number(x->types[k]))
				jw_int(j, events_type_name(x->types[k]),
				    (int)strtol(v, NULL, 10));
			else
				jw_str(j, events_type_name(x->types[k]), v);
			jw_end_obj(j);
		}
		jw_end_arr(j);
	}
	/* A die's sentence is the core's ("d6 = 4: ..."), as the dice
	 * appendix gives it. */
	if (x->kind == EV_ROLL)
		snprintf(said, sizeof(said), "%s", x->text);
	else
		narrative_say(nar, b, x, said, sizeof(said));
	jw_str(j, "text", said);
	jw_end_obj(j);
}

char *
report_json_side(const struct report_game *g, const struct battle *b, int side,
    const unsigned char *seen, const struct events *ev, int step,
    const struct sighting *last, int nlast, size_t *len)
{
	struct jw j;
	char *buf = NULL, clock[16];
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int i, seq = 0, hidden = 0;

	if (f == NULL)
		return NULL;
	report_clock(b, battle_step_turn(b, step), clock, sizeof(clock));
	jw_init(&j, f);
	jw_obj(&j, NULL);
	jw_str(&j, "report", "despatch side report");
	jw_int(&j, "version", 1);
	jw_str(&j, "game", g->name);
	jw_str(&j, "side", b->sides[side].id);
	jw_int(&j, "step", step);
	jw_int(&j, "turn", battle_step_turn(b, step));
	jw_str(&j, "clock", clock);
	jw_arr(&j, "events");
	for (i = 0; i < ev->n; i++) {
		seq++;
		if (seen != NULL && !report_event_known(b, side, seen,
		    &ev->v[i])) {
			hidden++;
			continue;
		}
		report_json_event(&j, b, g->nar, &ev->v[i], step, seq);
	}
	jw_end_arr(&j);
	jw_int(&j, "events_out_of_sight", hidden);
	report_json_state(&j, "state", g, b, side, seen);
	jw_arr(&j, "last_seen");
	for (i = 0; i < nlast; i++) {
		if (last[i].unit < 0 || last[i].unit >= b->nunits)
			continue;
		jw_obj(&j, NULL);
		jw_str(&j, "unit", b->units[last[i].unit].name);
		jw_str(&j, "side", b->sides[b->units[last[i].unit].side].id);
		jw_fx(&j, "x", last[i].x);
		jw_fx(&j, "y", last[i].y);
		jw_int(&j, "facing", last[i].facing);
		jw_int(&j, "stands", last[i].stands);
		jw_int(&j, "turn", last[i].turn);
		jw_int(&j, "step", last[i].step);
		jw_end_obj(&j);
	}
	jw_end_arr(&j);
	jw_end_obj(&j);
	jw_done(&j);
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		return NULL;
	}
	if (len != NULL)
		*len = n;
	return buf;
}
