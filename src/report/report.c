/*
 * report.c - plain-text turn reports (see report.h).
 */
#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX (1024u * 1024u)

void
text_init(struct text *t, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max;
}

void
text_free(struct text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

void
text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || t->len + (size_t)n + 1 > t->max) {
		t->over = 1;
		return;
	}
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		char *ns;

		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		ns = realloc(t->s, cap);
		if (ns == NULL) {
			t->over = 1;
			return;
		}
		t->s = ns;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void
report_clock(const struct battle *b, int turn, char *buf, size_t size)
{
	int m = b->first_minute + (turn - 1) * b->minutes;

	snprintf(buf, size, "%02d:%02d", m / 60 % 24, m % 60);
}

static const char *
unit_state(const struct battle *b, int u, char *buf, size_t size)
{
	const struct unit *un = &b->units[u];
	int s, dis = 0, rout = 0, perm = 0, stat = 0, alive = 0;

	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		unsigned f = b->stands[s].flags;

		if (f & ST_GONE)
			continue;
		alive++;
		if ((f & ST_ROUTED) == ST_ROUTED)
			rout++;
		else if (f & ST_PERMANENT)
			perm++;
		else if (f & ST_DISORDERED)
			dis++;
		if (f & ST_STATIONARY)
			stat++;
	}
	if (alive == 0)
		snprintf(buf, size, "destroyed");
	else
		snprintf(buf, size, "%s%s%s%s%s", rout ? "routed " : "",
		    perm ? "permanently disordered " : "", dis ? "disordered " : "",
		    stat ? "stationary " : "",
		    (rout || perm || dis || stat) ? "" : "in good order");
	/* Drop a trailing space. */
	if (buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	return buf;
}

void
report_forces(struct text *t, const struct battle *b, int side)
{
	int br, u;

	for (br = 0; br < b->nbrigades; br++) {
		const struct brigade *g = &b->brigades[br];
		const struct commander *k = &b->commanders[g->commander];
		char x[24], y[24];

		if (g->side != side)
			continue;
		text_add(t, "\n%s (%s at %s,%s): lost %d of %d SP%s%s\n", g->name,
		    k->name, geom_fmt_fx(k->pos.x, x, sizeof(x)),
		    geom_fmt_fx(k->pos.y, y, sizeof(y)), g->lost, g->sp0,
		    (g->flags & BR_EXHAUSTED) ? ", EXHAUSTED" : "",
		    (g->flags & BR_COLLAPSED) ? ", COLLAPSED" : "");
		for (u = 0; u < b->nunits; u++) {
			const struct unit *un = &b->units[u];
			struct pt c;
			char st[96];

			if (un->brigade != br)
				continue;
			if (!battle_unit_centre(b, u, &c)) {
				text_add(t, "  %-36s destroyed\n", un->name);
				continue;
			}
			text_add(t, "  %-36s at %s,%s facing %3d, %d stand%s, %2d SP, %s\n",
			    un->name, geom_fmt_fx(c.x, x, sizeof(x)),
			    geom_fmt_fx(c.y, y, sizeof(y)),
			    b->stands[un->first_stand].facing,
			    battle_unit_alive(b, u), battle_unit_alive(b, u) == 1 ?
			    "" : "s", battle_unit_sp(b, u),
			    unit_state(b, u, st, sizeof(st)));
		}
	}
	for (u = 0; u < b->ncommanders; u++) {
		const struct commander *k = &b->commanders[u];
		char x[24], y[24];

		if (k->side == side && k->brigade < 0)
			text_add(t, "\nArmy commander: %s at %s,%s\n", k->name,
			    geom_fmt_fx(k->pos.x, x, sizeof(x)),
			    geom_fmt_fx(k->pos.y, y, sizeof(y)));
	}
}

char *
report_step(const struct battle *b, const char *game, int step, int side,
    const struct events *ev, int next_step)
{
	struct text t;
	int turn = battle_step_turn(b, step), i, rolls = 0, phasing;
	char clock[16];

	text_init(&t, REPORT_MAX);
	phasing = battle_step_side(b, step);
	report_clock(b, turn, clock, sizeof(clock));
	text_add(&t, "%s\n", b->title);
	text_add(&t, "Report for %s: turn %d of %d, %s phase (%s).\n\n",
	    b->sides[side].name, turn, b->turns,
	    phasing >= 0 ? b->sides[phasing].name : "both sides'", clock);
	text_add(&t, "What happened\n-------------\n");
	for (i = 0; i < ev->n; i++) {
		if (ev->v[i].kind == EV_ROLL) {
			rolls++;
			continue;
		}
		if (ev->v[i].kind == EV_PHASE)
			continue;
		text_add(&t, "- %s\n", ev->v[i].text);
	}
	if (ev->n - rolls <= 1)
		text_add(&t, "- Nothing of note.\n");
	text_add(&t, "\nYour forces after the phase\n---------------------------\n");
	report_forces(&t, b, side);
	if (rolls > 0) {
		int k = 0;

		text_add(&t, "\nDice rolled (%d)\n----------\n", rolls);
		for (i = 0; i < ev->n; i++)
			if (ev->v[i].kind == EV_ROLL)
				text_add(&t, "%4d. %s\n", ++k, ev->v[i].text);
	}
	text_add(&t, "\n");
	if (next_step > battle_steps(b)) {
		text_add(&t, "The battle is over: this was the last phase.\n");
	} else {
		int nt = battle_step_turn(b, next_step);
		int ns = battle_step_side(b, next_step);

		report_clock(b, nt, clock, sizeof(clock));
		if (ns == side)
			text_add(&t, "Next: your phase of turn %d (%s). Send your "
			    "orders with the line\n  GAME %s SIDE %s TURN %d PASSWORD "
			    "<your secret>\n", nt, clock, game, b->sides[side].id, nt);
		else
			text_add(&t, "Next: the %s phase of turn %d (%s); you will "
			    "hear when it has been played.\n", b->sides[ns].name, nt,
			    clock);
	}
	if (t.over) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}
