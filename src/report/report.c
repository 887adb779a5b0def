/*
 * report.c - plain-text turn reports (see report.h).
 */
#include "report/report.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/ruleset.h"
#include "report/narrative.h"

/* Room kept for the note that says what a cut section left out. */
#define NOTE_ROOM 256

void
report_clock(const struct battle *b, int turn, char *buf, size_t size)
{
	/* the deployment (turn 0) is at turn 1's hour */
	int m = b->first_minute + (turn > 1 ? turn - 1 : 0) * b->minutes;

	snprintf(buf, size, "%02d:%02d", m / 60 % 24, m % 60);
}

const char *
report_phase_id(const struct battle *b, int step)
{
	int ps = battle_step_side(b, step);

	if (ps >= 0)
		return b->sides[ps].id;
	return battle_step_deploys(b, step) ? "deployment" : "joint";
}

/* What the ruleset calls a unit with the routed markers ("fleeing"). */
static const char *
routed_word(const struct battle *b)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	return rs != NULL && rs->words->routed_word != NULL ?
	    rs->words->routed_word : "routed";
}

/* Unit u's states as the tags of its line ("[routed] [stationary]"), the
 * words html.c turns into badges.  marks: the ruleset's own state marker
 * ("2 disruption points", "" for none), told beside the tags, so a unit
 * that has one is not "in good order" by default. */
static const char *
unit_tags(const struct battle *b, int u, const char *marks, char *buf,
    size_t size)
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
		snprintf(buf, size, "[gone]");
	else
		snprintf(buf, size, "%s%s%s%s%s%s%s", rout ? " [" : "",
		    rout ? routed_word(b) : "", rout ? "]" : "",
		    perm ? " [permanently disordered]" : "",
		    dis ? " [disordered]" : "", stat ? " [stationary]" : "",
		    (rout || perm || dis || stat || marks[0] != '\0') ? "" :
		    " [in good order]");
	/* No leading space: the caller puts one. */
	if (buf[0] == ' ')
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

const char *
report_plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* 1 if every stand of the unit on the table touches another of them. */
static int
unit_together(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int s, k;

	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		struct pt r1[4];
		int touching = 0, others = 0;

		if (b->stands[s].flags & ST_GONE)
			continue;
		battle_stand_rect(b, s, r1);
		for (k = un->first_stand; k < un->first_stand + un->nstands; k++) {
			struct pt r2[4];

			if (k == s || (b->stands[k].flags & ST_GONE))
				continue;
			others++;
			battle_stand_rect(b, k, r2);
			if (geom_rect_dist(r1, r2) <= 10)
				touching = 1;
		}
		if (others > 0 && !touching)
			return 0;
	}
	return 1;
}

static void stands_apart(struct text *t, const struct battle *b, int side);

static const char *
stand_state(const struct battle *b, unsigned f)
{
	if ((f & ST_ROUTED) == ST_ROUTED)
		return routed_word(b);
	if (f & ST_PERMANENT)
		return (f & ST_STATIONARY) ? "permanently disordered, stationary" :
		    "permanently disordered";
	if (f & ST_DISORDERED)
		return "disordered";
	return (f & ST_STATIONARY) ? "stationary" : "in good order";
}

void
report_terrain(struct text *t, const struct battle *b)
{
	int i, j;

	if (b->nterrain == 0)
		return;
	text_add(t, "\nThe ground\n----------\n");
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *tr = &b->terrain[i];
		char x[24], y[24];

		text_add(t, "  %-12s %s%s%s", battle_terrain_name(tr->kind), tr->name,
		    tr->kind == T_HILL ? " (contour " : "",
		    tr->kind == T_HILL ? (tr->level == 1 ? "1)" : tr->level == 2 ?
		    "2)" : "3+)") : "");
		text_add(t, "%s%s:", tr->marshy ? ", marshy banks" : "",
		    tr->kind >= T_FIRST_LINE ? ", a line through" : ", corners");
		for (j = 0; j < tr->npts; j++)
			text_add(t, " %s,%s",
			    geom_fmt_fx(b->points[tr->first_pt + j].x, x, sizeof(x)),
			    geom_fmt_fx(b->points[tr->first_pt + j].y, y, sizeof(y)));
		text_add(t, "\n");
	}
}

/* The stands' SP, "2+2+1", into buf. */
static const char *
stand_sps(const struct battle *b, int u, char *buf, size_t size)
{
	const struct unit *un = &b->units[u];
	size_t k = 0;
	int s;

	buf[0] = '\0';
	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		if (b->stands[s].flags & ST_GONE)
			continue;
		if (k + 8 >= size)
			break;
		k += (size_t)snprintf(buf + k, size - k, "%s%d", k ? "+" : "",
		    b->stands[s].sp);
	}
	return buf;
}

void
report_forces(struct text *t, const struct battle *b, int side)
{
	report_forces_detail(t, b, side, NULL, 0);
}

/* A commander put out for a while (a casualty, or one still to come
 * on): how long, between open and close (" (" and ")"), into buf; "out
 * of action" for one gone for good; "" for neither. */
static const char *
commander_note(const struct battle *b, const struct commander *k,
    const char *open, const char *close, char *buf, size_t size)
{
	int ns;

	if (k->gone)
		snprintf(buf, size, "%sout of action%s", open, close);
	else if (k->out_until == 0)
		buf[0] = '\0';
	else if (k->arrives > 0 && k->out_until == BATTLE_STEP_AWAY)
		snprintf(buf, size, "%soff the table: he comes on from turn %d%s",
		    open, k->arrives, close);
	else {
		ns = battle_step_side(b, k->out_until + 1);
		snprintf(buf, size, "%s%s until the %s phase of turn %d%s", open,
		    k->out_removed ? "out of the fight" :
		    "unhorsed, commanding nobody", ns >= 0 ? b->sides[ns].id :
		    "next", battle_step_turn(b, k->out_until + 1), close);
	}
	return buf;
}

/* Unit u's formation as the report says it, from stand fs. */
static const char *
form_phrase(const struct ruleset *rs, const struct battle *b, int u, int fs)
{
	enum formation f = b->stands[fs].form;

	if (rs != NULL && rs->words->form_phrase != NULL)
		return rs->words->form_phrase(b, u);
	return f == FORM_LINE ? "" : f == FORM_ROAD ? "in road march" :
	    f == FORM_SKIRMISH ? "in skirmish order" : "dismounted";
}

void
report_forces_detail(struct text *t, const struct battle *b, int side,
    const unsigned char *seen, int detail)
{
	const struct ruleset *rsw = ruleset_find(b->ruleset);
	const struct ruleset *rs = detail ? rsw : NULL;
	const char *strength = rsw != NULL && rsw->words->strength_word != NULL ?
	    rsw->words->strength_word : "SP";
	const char *stand_word = rsw != NULL && rsw->words->stand_word != NULL ?
	    rsw->words->stand_word : "stand";
	int br, u;

	for (br = 0; br < b->nbrigades; br++) {
		const struct brigade *g = &b->brigades[br];
		const struct commander *k = &b->commanders[g->commander];
		char x[24], y[24], lv[24], note[96];

		if (g->side != side)
			continue;
		char kq[24] = "";

		if (k->quality > 0)
			snprintf(kq, sizeof(kq), ", quality %d", k->quality);
		/* within the brigade's brackets: "; unhorsed, ..." */
		note[0] = '\0';
		if (k->out_until != 0)
			commander_note(b, k, "; ", "", note, sizeof(note));
		text_add(t, "\n%s (%s at %s,%s%s%s): lost %d of %d %s%s%s%s%s%s\n",
		    g->name, k->name, geom_fmt_fx(k->pos.x, x, sizeof(x)),
		    geom_fmt_fx(k->pos.y, y, sizeof(y)), note, kq, g->lost,
		    g->sp0,
		    strength,
		    detail && g->level10 > 0 && !(g->flags & BR_EXHAUSTED) ?
		    " (exhausted at " : "",
		    detail && g->level10 > 0 && !(g->flags & BR_EXHAUSTED) ?
		    geom_fmt_fx(g->level10 * 10, lv, sizeof(lv)) : "",
		    detail && g->level10 > 0 && !(g->flags & BR_EXHAUSTED) ?
		    ")" : "",
		    (g->flags & BR_EXHAUSTED) ? ", EXHAUSTED" : "",
		    (g->flags & BR_COLLAPSED) ? ", COLLAPSED" : "");
		for (u = 0; u < b->nunits; u++) {
			const struct unit *un = &b->units[u];
			struct pt c;
			char st[96], sps[96];

			if (un->brigade != br)
				continue;
			int fs = un->first_stand;

			/* Facing and formation from a stand still there. */
			while (fs < un->first_stand + un->nstands - 1 &&
			    (b->stands[fs].flags & ST_GONE))
				fs++;
			if (!battle_unit_centre(b, u, &c) && battle_unit_away(b, u)) {
				text_add(t, "  %s [coming]  off the table: it comes on "
				    "from turn %d, %d %s\n", un->name, un->arrives,
				    battle_unit_sp(b, u), strength);
				continue;
			}
			if (!battle_unit_centre(b, u, &c)) {
				struct ruleset_marks gm;

				/* A ruleset may say how it went ("shattered"). */
				ruleset_unit_marks(b, u, &gm);
				text_add(t, "  %s [gone]  off the table: %s\n", un->name,
				    gm.gone[0] != '\0' ? gm.gone : "destroyed, or "
				    "routed off it");
				continue;
			}
			{
				const char *fp = form_phrase(rsw, b, u, fs);
				struct ruleset_marks mk;
				char rated[48] = "", line[320];
				const char *marks = mk.state;
				size_t n;

				/* A ruleset that rates units says how. */
				ruleset_unit_marks(b, u, &mk);
				if (mk.rated[0] != '\0')
					snprintf(rated, sizeof(rated), ", %s", mk.rated);
				unit_tags(b, u, marks, st, sizeof(st));
				n = (size_t)snprintf(line, sizeof(line), "%s%s, %d %s%s, "
				    "%d %s", un->type, rated, battle_unit_alive(b, u),
				    stand_word, battle_unit_alive(b, u) == 1 ? "" : "s",
				    battle_unit_sp(b, u), strength);
				if (detail && battle_unit_alive(b, u) > 1 &&
				    n < sizeof(line))
					n += (size_t)snprintf(line + n, sizeof(line) - n,
					    " (%s)", stand_sps(b, u, sps, sizeof(sps)));
				if (n < sizeof(line))
					snprintf(line + n, sizeof(line) - n, "%s%s%s%s, "
					    "at %s,%s facing %d%s", fp[0] ? ", " : "", fp,
					    marks[0] ? ", " : "", marks,
					    geom_fmt_fx(c.x, x, sizeof(x)),
					    geom_fmt_fx(c.y, y, sizeof(y)),
					    b->stands[fs].facing, unit_together(b, u) ? "" :
					    detail ? ",\n      its stands apart (the "
					    "appendix places each)" : ", its stands apart");
				/* The unit and its state on one line where it fits
				 * in a mail's 78 columns, else its details below. */
				if (!detail && 2 + strlen(un->name) + 1 + strlen(st) +
				    2 + strlen(line) <= 78)
					text_add(t, "  %s%s%s  %s\n", un->name,
					    st[0] ? " " : "", st, line);
				else
					text_add(t, "  %s%s%s\n      %s\n", un->name,
					    st[0] ? " " : "", st, line);
			}
			if (rs != NULL && rs->words->situation != NULL) {
				char line[512];

				rs->words->situation(b, u, seen, line, sizeof(line));
				text_add(t, "%s", line);
			}
		}
	}
	for (u = 0; u < b->ncommanders; u++) {
		const struct commander *k = &b->commanders[u];
		char x[24], y[24], note[96];

		if (k->side != side || k->rank == RANK_BRIGADE)
			continue;
		if (k->rank == RANK_ARMY && k->quality > 0)
			text_add(t, "\nArmy commander: %s (quality %d) at %s,%s%s\n",
			    k->name, k->quality, geom_fmt_fx(k->pos.x, x, sizeof(x)),
			    geom_fmt_fx(k->pos.y, y, sizeof(y)),
			    commander_note(b, k, " (", ")", note, sizeof(note)));
		else if (k->rank == RANK_ARMY)
			text_add(t, "\nArmy commander: %s at %s,%s%s\n", k->name,
			    geom_fmt_fx(k->pos.x, x, sizeof(x)),
			    geom_fmt_fx(k->pos.y, y, sizeof(y)),
			    commander_note(b, k, " (", ")", note, sizeof(note)));
		else if (k->rank == RANK_WING)
			text_add(t, "Wing commander: %s at %s,%s%s\n", k->name,
			    geom_fmt_fx(k->pos.x, x, sizeof(x)),
			    geom_fmt_fx(k->pos.y, y, sizeof(y)),
			    commander_note(b, k, " (", ")", note, sizeof(note)));
		else
			text_add(t, "Unit commander: %s of %s at %s,%s%s\n",
			    k->name, b->units[k->unit].name,
			    geom_fmt_fx(k->pos.x, x, sizeof(x)),
			    geom_fmt_fx(k->pos.y, y, sizeof(y)),
			    commander_note(b, k, " (", ")", note, sizeof(note)));
	}
}

void
report_totals(struct text *t, const struct battle *b)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	const char *strength = rs != NULL && rs->words->strength_word != NULL ?
	    rs->words->strength_word : "SP";
	int s, u, br;

	for (s = 0; s < b->nsides; s++) {
		int sp = 0, sp0 = 0, exh = 0, col = 0, nbr = 0, k;

		for (u = 0; u < b->nunits; u++) {
			if (b->units[u].side != s)
				continue;
			sp += battle_unit_sp(b, u);
			for (k = 0; k < b->units[u].nstands; k++)
				if (!(b->stands[b->units[u].first_stand + k].flags &
				    ST_DETACH))
					sp0 += b->stands[b->units[u].first_stand +
					    k].sp0;
		}
		for (br = 0; br < b->nbrigades; br++)
			if (b->brigades[br].side == s) {
				nbr++;
				exh += (b->brigades[br].flags & BR_EXHAUSTED) != 0;
				col += (b->brigades[br].flags & BR_COLLAPSED) != 0;
			}
		/* Brigades wear out only in a ruleset that counts it. */
		if (b->brigades[0].level10 > 0)
			text_add(t, "  %s: %d of %d %s left; %d of %d brigades "
			    "exhausted, %d collapsed.\n", b->sides[s].name, sp, sp0,
			    strength, exh, nbr, col);
		else
			text_add(t, "  %s: %d of %d %s left.\n", b->sides[s].name, sp,
			    sp0, strength);
	}
}

/* What the ruleset calls a stand ("stand", "base"). */
static const char *
stand_word(const struct battle *b)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	return rs != NULL && rs->words->stand_word != NULL ? rs->words->stand_word : "stand";
}

void
report_standing(struct text *t, const struct battle *b, int played)
{
	struct battle_result r;
	char line[256];
	int i, s;

	battle_result(b, played, &r);
	if (b->nobjectives > 0) {
		text_add(t, "Objectives (held by the only side with a %s not "
		    "routed within reach):\n", stand_word(b));
		for (i = 0; i < b->nobjectives; i++) {
			const struct objective *o = &b->objectives[i];
			char x[24], y[24], rad[24];

			text_add(t, "  %s at %s,%s, within %s\" (%d point%s): held "
			    "by %s\n",
			    o->name, geom_fmt_fx(o->at.x, x, sizeof(x)),
			    geom_fmt_fx(o->at.y, y, sizeof(y)),
			    geom_fmt_fx(o->radius, rad, sizeof(rad)), o->points,
			    o->points == 1 ? "" : "s", r.holder[i] >= 0 ?
			    b->sides[r.holder[i]].id : "nobody");
		}
	}
	if (b->victory.exhausted > 0 || b->victory.collapsed > 0)
		text_add(t, "Points%s (an enemy brigade exhausted scores %d, "
		    "collapsed %d):", r.over ? "" : " if the battle ended now",
		    b->victory.exhausted,
		    b->victory.collapsed);
	else
		text_add(t, "Points%s:", r.over ? "" : " if the battle ended now");
	for (s = 0; s < b->nsides; s++)
		text_add(t, "%s %s %d", s ? "," : "", b->sides[s].id, r.points[s]);
	text_add(t, ".\n");
	for (s = 0; s < b->nsides; s++)
		if (r.broken[s])
			text_add(t, "%s: every brigade is exhausted or collapsed; "
			    "its army has broken.\n", b->sides[s].name);
	if (r.over) {
		result_text(b, &r, line, sizeof(line));
		text_add(t, "Result: %s.\n", line);
	}
}

/* Starts a section of at most budget bytes. */
static void
section(struct text *t, size_t budget)
{
	t->over = 0;
	t->dropped = 0;
	t->max = t->len + budget - NOTE_ROOM;
}

/* Ends a section: if it was cut at its budget, says how much it left out
 * (in the room kept for that). */
static void
cut_note(struct text *t, const char *what)
{
	if (!t->over)
		return;
	t->over = 0;
	t->max += NOTE_ROOM;
	text_add(t, "(The report is too long: %d more %s are not shown here; "
	    "the operator's\n'despatch events' has them all.)\n", t->dropped,
	    what);
}

void
report_seen(struct text *t, const struct battle *b, int side,
    const unsigned char *seen)
{
	int u, s, shown = 0;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		int64_t x = 0, y = 0;
		int n = 0, disordered = 0, routed = 0;
		char xs[24], ys[24], routed_tag[40];

		if (un->side == side)
			continue;
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
			const struct stand *st = &b->stands[s];

			if ((st->flags & ST_GONE) || !seen[s])
				continue;
			x += st->pos.x;
			y += st->pos.y;
			n++;
			if ((st->flags & ST_ROUTED) == ST_ROUTED)
				routed++;
			else if (st->flags & ST_DISORDERED)
				disordered++;
		}
		if (n == 0)
			continue;
		snprintf(routed_tag, sizeof(routed_tag), "[%s]", routed_word(b));
		text_add(t, "  %s %s%s%s\n      %s, %s, at %s,%s, %d stand%s in "
		    "sight\n", un->name, routed ? routed_tag : "",
		    routed && disordered ? " " : "", disordered ? "[disordered]" :
		    routed ? "" : "[in good order]", un->type,
		    b->sides[un->side].id, geom_fmt_fx((fx)(x / n), xs, sizeof(xs)),
		    geom_fmt_fx((fx)(y / n), ys, sizeof(ys)), n, n == 1 ? "" : "s");
		shown++;
	}
	if (shown == 0)
		text_add(t, "  None of the enemy is in sight of your stands and "
		    "commanders.\n");
}

/* The enemy units the side saw leave play in the step (gone: a flag a
 * unit), under a heading of their own; nothing when there are none. */
static void
report_seen_going(struct text *t, const struct battle *b,
    const unsigned char *gone)
{
	int u, n = 0;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];

		if (!gone[u])
			continue;
		if (n++ == 0)
			text_add(t, "\nThe enemy seen leaving the field\n"
			    "--------------------------------\n");
		text_add(t, "  %s [gone]\n      %s, %s, seen to leave the field "
		    "this phase (destroyed or off\n      the table)\n", un->name,
		    un->type, b->sides[un->side].id);
	}
}

void
report_last_seen(struct text *t, const struct battle *b,
    const struct sighting *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct unit *un = NULL;
		char xs[24], ys[24], clock[16], when[64];

		if (v[i].unit < 0 || v[i].unit >= b->nunits)
			continue;
		un = &b->units[v[i].unit];
		if (v[i].turn > 0) {
			report_clock(b, v[i].turn, clock, sizeof(clock));
			snprintf(when, sizeof(when), "in turn %d (%s)", v[i].turn,
			    clock);
		} else {
			snprintf(when, sizeof(when), "before the battle began");
		}
		text_add(t, "  %s\n      %s, %s, last seen at %s,%s facing %d, "
		    "%d stand%s, %s\n", un->name, un->type, b->sides[un->side].id,
		    geom_fmt_fx(v[i].x, xs, sizeof(xs)),
		    geom_fmt_fx(v[i].y, ys, sizeof(ys)), v[i].facing, v[i].stands,
		    v[i].stands == 1 ? "" : "s", when);
	}
}

char *
report_observer(const struct battle *b, const char *game, int step,
    const struct events *ev, const struct narrative *nar, int delay)
{
	struct text t;
	int turn = battle_step_turn(b, step);
	int i, s, k = 0;
	char clock[16], words[80];
	int hh = 0, mm = 0;

	text_init(&t, REPORT_MAX);
	report_clock(b, turn, clock, sizeof(clock));
	text_add(&t, "%s (game %s)\nTurn %d of %d, %s: the %s phase.\n",
	    b->title, game, turn, b->turns, clock, report_phase_id(b, step));
	text_add(&t, "You observe this battle: this is the whole picture, both "
	    "sides and every\nroll%s.\n\n", delay > 0 ? ", sent some phases "
	    "after it was played so that nothing in it\ncan help a player" :
	    "");
	text_add(&t, "What happened\n-------------\n");
	if (sscanf(clock, "%d:%d", &hh, &mm) == 2) {
		narrative_time(hh * 60 + mm, words, sizeof(words));
		text_add(&t, "%c%s (%s).\n", toupper((unsigned char)words[0]),
		    words + 1, clock);
	}
	k = report_story(&t, nar, b, ev, -1, NULL, &i);
	if (k < 0) {
		text_free(&t);
		return NULL;
	}
	if (k == 0)
		text_add(&t, "- Nothing of note.\n");
	k = 0;
	for (s = 0; s < b->nsides; s++) {
		text_add(&t, "\n%s after the phase\n", b->sides[s].name);
		for (i = 0; b->sides[s].name[i] != '\0'; i++)
			text_add(&t, "-");
		text_add(&t, "----------------\n");
		report_forces(&t, b, s);
		stands_apart(&t, b, s);
	}
	text_add(&t, "\nDice rolled\n-----------\n");
	for (i = 0; i < ev->n; i++)
		if (ev->v[i].kind == EV_ROLL)
			text_add(&t, "%4d. %s\n", ++k, ev->v[i].text);
	if (k == 0)
		text_add(&t, "None.\n");
	if (t.over || t.s == NULL) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}

void
report_holdings_line(struct text *t, const struct battle *b, int side)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	if (rs != NULL && rs->words->holdings_line != NULL)
		rs->words->holdings_line(b, side, t);
}

void
report_holdings(struct text *t, const struct battle *b, int side,
    int next_step)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	if (rs != NULL && rs->words->holdings != NULL)
		rs->words->holdings(b, side, next_step, t);
}

/* Each stand of side's units that stands apart from the rest of its
 * unit, by unit: where it is and in what state.  Nothing when every
 * unit is together. */
static void
stands_apart(struct text *t, const struct battle *b, int side)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	const char *strength = rs != NULL && rs->words->strength_word != NULL ?
	    rs->words->strength_word : "SP";
	const char *stand_word = rs != NULL && rs->words->stand_word != NULL ?
	    rs->words->stand_word : "stand";
	int u, s, n = 0;

	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		char x[24], y[24];

		if (un->side != side || battle_unit_alive(b, u) == 0 ||
		    unit_together(b, u))
			continue;
		if (n++ == 0)
			text_add(t, "\nThe %ss of %s apart from their units:\n",
			    stand_word, b->sides[side].name);
		text_add(t, "  %s\n", un->name);
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
			if (b->stands[s].flags & ST_GONE)
				continue;
			text_add(t, "      %s %d at %s,%s facing %d, %d %s, %s\n",
			    stand_word, s - un->first_stand + 1,
			    geom_fmt_fx(b->stands[s].pos.x, x, sizeof(x)),
			    geom_fmt_fx(b->stands[s].pos.y, y, sizeof(y)),
			    b->stands[s].facing, b->stands[s].sp, strength,
			    stand_state(b, b->stands[s].flags));
		}
	}
}

void
report_appendix(struct text *t, const struct battle *b, int side,
    const struct events *ev, int open, const unsigned char *seen)
{
	int i, k = 0, rolls = 0, hidden = 0, s;

	/* Each part bounded, as the report's sections are: a battle of
	 * thousands of rolls is cut with a note, never left unwritten. */
	section(t, REPORT_MAX / 4);
	stands_apart(t, b, side);
	for (s = 0; open && s < b->nsides; s++)
		if (s != side) {
			text_add(t, "\nThe enemy's forces: %s\n", b->sides[s].name);
			report_forces(t, b, s);
			stands_apart(t, b, s);
		}
	cut_note(t, "lines of forces");
	for (i = 0; i < ev->n; i++)
		if (ev->v[i].kind == EV_ROLL)
			rolls++;
	if (rolls == 0)
		return;
	section(t, REPORT_MAX / 4);
	text_add(t, "\nDice rolled: %d\n", rolls);
	for (i = 0; i < ev->n; i++) {
		const struct event *x = &ev->v[i];

		if (x->kind != EV_ROLL)
			continue;
		k++;
		/* A fog game shows a side the rolls of its own units (and its
		 * side's); the others are in the archive when the battle is
		 * over. */
		if (!open && !report_event_known(b, side, seen, x)) {
			hidden++;
			continue;
		}
		text_add(t, "%4d. %s\n", k, x->text);
	}
	if (hidden > 0)
		text_add(t, "(%d roll%s for the enemy, not shown in a fog game: the "
		    "archive shows every\nroll when the battle is over.)\n", hidden,
		    hidden == 1 ? "" : "s");
	cut_note(t, "dice");
}

/* Each brigade of the sides other than side, a line each: what it has
 * lost, how many of its units are on the table, and whether it is
 * exhausted or collapsed (tags, as a unit's states are). */
static void
enemy_brigades(struct text *t, const struct battle *b, int side)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);
	const char *strength = rs != NULL && rs->words->strength_word != NULL ?
	    rs->words->strength_word : "SP";
	int br, u;

	for (br = 0; br < b->nbrigades; br++) {
		const struct brigade *g = &b->brigades[br];
		int n = 0, on = 0;

		if (g->side == side)
			continue;
		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == br) {
				n++;
				on += battle_unit_alive(b, u) > 0;
			}
		char head[200], rest[120];

		snprintf(head, sizeof(head), "  %s (%s)%s%s", g->name,
		    b->commanders[g->commander].name,
		    (g->flags & BR_EXHAUSTED) ? " [exhausted]" : "",
		    (g->flags & BR_COLLAPSED) ? " [collapsed]" : "");
		snprintf(rest, sizeof(rest), "lost %d of %d %s, %d of %d unit%s on "
		    "the table", g->lost, g->sp0, strength, on, n, n == 1 ? "" :
		    "s");
		/* One line where it fits in 78 columns, else two. */
		if (strlen(head) + 2 + strlen(rest) <= 78)
			text_add(t, "%s  %s\n", head, rest);
		else
			text_add(t, "%s\n      %s\n", head, rest);
	}
}

/* What the reader does next and by when; or, the battle over, how it
 * ended. */
static void
report_next(struct text *t, const struct battle *b, const char *game,
    int side, int next_step, const struct report_orders *ro)
{
	char clock[16];
	int nt, ns, stored;

	if (battle_over(b, next_step - 1)) {
		if (next_step > battle_steps(b))
			text_add(t, "The battle is over: this was the last phase. "
			    "Where it ended:\n");
		else
			text_add(t, "The battle is over: an army has broken. Where "
			    "it ended:\n");
		report_totals(t, b);
		report_standing(t, b, next_step - 1);
		return;
	}
	nt = battle_step_turn(b, next_step);
	ns = battle_step_side(b, next_step);
	stored = ro != NULL && ro->next_turn > 0 && ro->next_stored > 0;
	report_clock(b, nt, clock, sizeof(clock));
	if (ns == side && ro != NULL && ro->next_deadline != NULL &&
	    ro->next_deadline[0] != '\0')
		text_add(t, "Next: your phase, turn %d (%s), due by\n  %s\n", nt,
		    clock, ro->next_deadline);
	else if (ns == side && ro != NULL && ro->next_deadline != NULL)
		text_add(t, "Next: your phase, turn %d (%s). No deadline is set: "
		    "the operator plays it.\n", nt, clock);
	else if (ns == side)
		text_add(t, "Next: your phase, turn %d (%s).\n", nt, clock);
	else
		text_add(t, "Next: the %s phase of turn %d (%s); you will hear when "
		    "it has been played.\n", report_phase_id(b, next_step), nt,
		    clock);
	if (stored)
		text_add(t, "Your orders for turn %d are already stored (%d order%s): "
		    "they will be played as\nthey are. Send a whole new set only "
		    "to replace them.\n", ro->next_turn, ro->next_stored,
		    ro->next_stored == 1 ? "" : "s");
	else if (ns == side)
		text_add(t, "Send your orders with the first line\n  GAME %s SIDE %s "
		    "TURN %d PASSWORD <your secret>\n%s", game, b->sides[side].id,
		    nt, ro != NULL && ro->has_standing ? "If you send none, your "
		    "standing orders are played.\n" : "");
}

char *
report_step(const struct battle *b, const char *game, int step, int side,
    const struct events *ev, int next_step, int open,
    const struct report_orders *ro, const unsigned char *seen,
    const struct narrative *nar)
{
	struct text t;
	int turn = battle_step_turn(b, step), hidden = 0;
	char clock[16];

	text_init(&t, REPORT_MAX);
	section(&t, 64 * 1024);
	report_clock(b, turn, clock, sizeof(clock));
	text_add(&t, "%s (game %s)\n", b->title, game);
	text_add(&t, "Turn %d of %d, %s: the %s phase.\n", turn, b->turns, clock,
	    report_phase_id(b, step));
	text_add(&t, "This report is for %s.\n", b->sides[side].name);
	if (!open && seen != NULL)
		report_fog_note(&t);
	if (ro != NULL && ro->sent == 0 && battle_step_deploys(b, step))
		text_add(&t, "No deployment from your side reached the server: "
		    "your units stand\nwhere the battle's opening put them.\n");
	else if (ro != NULL && ro->sent == 0)
		text_add(&t, "No orders from your side reached the server for "
		    "this phase: every unit of\nyours held where it stood.\n");
	else if (ro != NULL && ro->standing > 0)
		text_add(&t, "No orders came for this phase, so your side's "
		    "standing orders were played.\n");
	text_add(&t, "\n");
	/* What to do next, and by when: what a reader looks for first. */
	report_next(&t, b, game, side, next_step, ro);
	text_add(&t, "\n");
	cut_note(&t, "lines");
	section(&t, REPORT_MAX / 8 * 3);
	text_add(&t, "What happened\n-------------\n");
	{
		/* The time of day, from the scenario's clock. */
		char words[80];
		int hh = 0, mm = 0;

		if (sscanf(clock, "%d:%d", &hh, &mm) == 2) {
			narrative_time(hh * 60 + mm, words, sizeof(words));
			text_add(&t, "%c%s (%s).\n", toupper((unsigned char)words[0]),
			    words + 1, clock);
		}
	}
	switch (report_story(&t, nar, b, ev, side, !open && seen != NULL ? seen :
	    NULL, &hidden)) {
	case -1:
		text_free(&t);
		return NULL;
	case 0:
		text_add(&t, "- Nothing of note.\n");
		break;
	default:
		break;
	}
	if (hidden > 0)
		text_add(&t, "(%d thing%s happened out of your sight: the archive "
		    "tells %s when the battle is\nover.)\n", hidden, hidden == 1 ?
		    "" : "s", hidden == 1 ? "it" : "them");
	cut_note(&t, "events");
	section(&t, REPORT_MAX / 4);
	text_add(&t, "\nYour forces after the phase\n---------------------------\n");
	report_forces_detail(&t, b, side, open ? NULL : seen, open ||
	    seen != NULL);
	if (open) {
		/* The enemy's brigades, a line each: its units, each with its
		 * place and state, are in the appendix. */
		text_add(&t, "\nThe enemy\n---------\n");
		enemy_brigades(&t, b, side);
		text_add(&t, "Every enemy unit, with its place and state, is in the "
		    "appendix.\n");
	} else if (seen != NULL) {
		text_add(&t, "\nThe enemy in sight\n------------------\n");
		report_seen(&t, b, side, seen);
		if (ro != NULL && ro->gone != NULL)
			report_seen_going(&t, b, ro->gone);
		if (ro != NULL && ro->nlast > 0) {
			text_add(&t, "\nThe enemy last seen\n-------------------\n");
			report_last_seen(&t, b, ro->last, ro->nlast);
		}
	}
	cut_note(&t, "lines of forces");
	section(&t, 64 * 1024);
	if (b->nobjectives > 0)
		text_add(&t, "\n");
	report_holdings(&t, b, side, next_step);
	/* Who holds what tells where the enemy is: in a fog game, only at
	 * the end (report_next says it then). */
	if (open && b->nobjectives > 0 && !battle_over(b, next_step - 1))
		report_standing(&t, b, next_step - 1);
	cut_note(&t, "lines");
	if (t.s == NULL)
		return NULL;
	return t.s;
}

int
report_split(const char *text, size_t max, char ***parts, int *n)
{
	size_t len = strlen(text), at = 0;
	char **v = NULL;
	int k = 0;

	*parts = NULL;
	*n = 0;
	do {
		size_t end = len - at <= max ? len : at + max;
		char **nv;

		/* Back to the end of a line, unless one line is longer. */
		if (end < len) {
			size_t e = end;

			while (e > at && text[e - 1] != '\n')
				e--;
			if (e > at)
				end = e;
			else	/* a character boundary */
				while (end > at + 1 &&
				    ((unsigned char)text[end] & 0xc0) == 0x80)
					end--;
		}
		nv = realloc(v, (size_t)(k + 1) * sizeof(*v));
		if (nv == NULL)
			goto oom;
		v = nv;
		v[k] = malloc(end - at + 1);
		if (v[k] == NULL)
			goto oom;
		memcpy(v[k], text + at, end - at);
		v[k][end - at] = '\0';
		k++;
		at = end;
	} while (at < len);
	*parts = v;
	*n = k;
	return 0;
oom:
	while (k > 0)
		free(v[--k]);
	free(v);
	return -1;
}
