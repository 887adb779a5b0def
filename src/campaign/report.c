/*
 * report.c - the daily report of a campaign turn for one side: where each
 * of its columns is and what it did, its strength by brigade, supply and
 * the day's losses and returns, the battles of the day and what they
 * carried back, the enemy columns it sees and where, the score, and what
 * to send next.  Pure: the same turn gives the same text, and a side is
 * told only what it knows (its own columns; the enemy's it sees).
 */
#include <stdio.h>
#include <string.h>

#include "campaign/campaign.h"
#include "core/text.h"

void
campaign_where_at(const struct campaign *c, int place, int road, int from,
    int along100, char *out, size_t size)
{
	if (road < 0) {
		snprintf(out, size, "at %s", c->places[place].name);
	} else {
		const struct cp_road *rd = &c->roads[road];
		int to = from == rd->a ? rd->b : rd->a;

		if (along100 == 0)
			snprintf(out, size, "at %s, setting out on the road to %s",
			    c->places[from].name, c->places[to].name);
		else
			snprintf(out, size, "on the road from %s to %s, %d.%02d "
			    "miles out", c->places[from].name, c->places[to].name,
			    along100 / 100, along100 % 100);
	}
}

void
campaign_where(const struct campaign *c, int column, char *out, size_t size)
{
	const struct cp_column *col = &c->columns[column];

	campaign_where_at(c, col->place, col->road, col->from, col->along100,
	    out, size);
}

/* Appends piece to a line that is *w columns long so far, after sep
 * (", ", "; "), going on at the next line indented by indent when it
 * would pass 78 columns. */
static void
wrap_add(struct text *o, int *w, int indent, const char *sep,
    const char *piece)
{
	int n = (int)strlen(piece), sl = (int)strlen(sep);

	if (*w > indent && *w + sl + n > 78) {
		text_add(o, "%.*s\n%*s%s", sl > 0 ? sl - 1 : 0, sep, indent, "",
		    piece);
		*w = indent + n;
	} else {
		text_add(o, "%s%s", *w > indent ? sep : "", piece);
		*w += (*w > indent ? sl : 0) + n;
	}
}

/* The order column k played this turn, or NULL. */
static const struct cp_order *
played(const struct cp_turn *t, int k)
{
	int i;

	for (i = 0; i < t->norders; i++)
		if (t->orders[i].column == k)
			return &t->orders[i];
	return NULL;
}

/* The battle of the turn column k fought in, or -1. */
static int
fought(const struct cp_turn *t, int k)
{
	int i, j;

	for (i = 0; i < t->ncontacts; i++)
		for (j = 0; j < t->contacts[i].narrivals; j++)
			if (t->contacts[i].arrivals[j].column == k)
				return i;
	return -1;
}

/* What column k did in words. */
static void
did(const struct campaign *c, const struct cp_turn *t, int k, struct text *o)
{
	const struct cp_order *od = played(t, k);
	const struct cp_column *col = &c->columns[k];

	if (od == NULL) {
		text_add(o, "held");
		return;
	}
	switch (od->kind) {
	case CO_MARCH:
	case CO_FORCED:
	case CO_RETREAT:
		text_add(o, "%s toward %s", od->kind == CO_FORCED ?
		    "force-marched" : od->kind == CO_RETREAT ? "fell back" :
		    "marched", od->dest >= 0 ? c->places[od->dest].name : "?");
		if (col->road < 0 && col->place == od->dest)
			text_add(o, ", and is there");
		break;
	case CO_REST:
		text_add(o, "rested");
		break;
	case CO_SCOUT:
		text_add(o, "held, its cavalry out scouting");
		break;
	case CO_DETACH:
		text_add(o, "sent off \"%s\"", od->name);
		break;
	case CO_JOIN:
		text_add(o, "joined \"%s\"", od->target >= 0 ?
		    c->columns[od->target].name : "?");
		break;
	default:
		text_add(o, "held");
		break;
	}
}

static void
column_lines(const struct campaign *c, const struct cp_turn *t,
    const struct cp_settle *s, int k, struct text *o)
{
	const struct cp_column *col = &c->columns[k];
	char where[256], piece[BATTLE_NAME_MAX + 96];
	struct text d;
	int b, u, sp, full, i, kb, w = 4;

	campaign_where(c, k, where, sizeof(where));
	text_add(o, "  %s (%s),\n    %s\n    ", col->name, col->commander,
	    where);
	text_init(&d, 1024);
	did(c, t, k, &d);
	wrap_add(o, &w, 4, "; ", d.s != NULL ? d.s : "held");
	text_free(&d);
	if ((kb = fought(t, k)) >= 0) {
		snprintf(piece, sizeof(piece), "fought at %s",
		    c->places[t->contacts[kb].place].name);
		wrap_add(o, &w, 4, "; ", piece);
	}
	for (i = 0; i < s->upkeep.ncolumns; i++) {
		const struct cp_column_day *cd = &s->upkeep.columns[i];

		if (cd->column != k)
			continue;
		wrap_add(o, &w, 4, "; ", cd->supplied ? "in supply" :
		    "OUT OF SUPPLY");
		if (cd->straggled > 0) {
			snprintf(piece, sizeof(piece), "%d straggled on the march "
			    "(back when it rests)", cd->straggled);
			wrap_add(o, &w, 4, "; ", piece);
		}
		if (cd->starved > 0) {
			snprintf(piece, sizeof(piece), "%d lost for want of supply",
			    cd->starved);
			wrap_add(o, &w, 4, "; ", piece);
		}
		if (cd->recovered > 0) {
			snprintf(piece, sizeof(piece), "%d back with rest",
			    cd->recovered);
			wrap_add(o, &w, 4, "; ", piece);
		}
		if (cd->replaced > 0) {
			snprintf(piece, sizeof(piece), "%d replaced from the depot",
			    cd->replaced);
			wrap_add(o, &w, 4, "; ", piece);
		}
		if (cd->spent > 0)
			wrap_add(o, &w, 4, "; ", "exhausted by forced marching");
		if (cd->refreshed > 0) {
			snprintf(piece, sizeof(piece), "%d brigade%s rested back in "
			    "order", cd->refreshed, cd->refreshed == 1 ? "" : "s");
			wrap_add(o, &w, 4, "; ", piece);
		}
	}
	text_add(o, "\n");
	sp = full = 0;
	for (u = 0; u < c->nunits; u++)
		if (!c->units[u].gone &&
		    c->brigades[c->units[u].brigade].column == k) {
			sp += campaign_unit_sp(&c->units[u]);
			full += campaign_unit_full(&c->units[u]);
		}
	snprintf(piece, sizeof(piece), "    strength %d of %d:", sp, full);
	text_add(o, "%s", piece);
	w = (int)strlen(piece);
	for (b = 0, i = 0; b < c->nbrigades; b++) {
		int bs = 0, bf = 0, any = 0;

		if (c->brigades[b].column != k)
			continue;
		for (u = 0; u < c->nunits; u++)
			if (c->units[u].brigade == b && !c->units[u].gone) {
				bs += campaign_unit_sp(&c->units[u]);
				bf += campaign_unit_full(&c->units[u]);
				any = 1;
			}
		if (!any)
			continue;
		/* A brigade a piece, the line wrapped before 78 columns. */
		snprintf(piece, sizeof(piece), "%s%s %d of %d%s", i == 0 ? " " :
		    "", c->brigades[b].name, bs, bf, campaign_exhaustion(c) &&
		    c->brigades[b].spent > 0 ? " (exhausted)" : "");
		wrap_add(o, &w, 6, i == 0 ? "" : ", ", piece);
		i++;
	}
	text_add(o, "\n");
}

/* The side's brigades a battle left exhausted. */
static void
exhausted_line(const struct campaign *c, const struct cp_carry *cr,
    int side, struct text *o)
{
	int j, n = 0, w = 0;

	for (j = 0; j < cr->nexhausted; j++) {
		int b = cr->exhausted[j];

		if (c->columns[c->brigades[b].column].side != side)
			continue;
		if (n++ == 0) {
			text_add(o, "    Exhausted at the end, until rested:");
			w = 38;
		}
		wrap_add(o, &w, 6, n == 1 ? " " : ", ", c->brigades[b].name);
	}
	if (n > 0)
		text_add(o, ".\n");
}

/* A unit's carry-over: "NAME: 1 at the end, 3 of 5 the next morning (2
 * back, 1 lost for good, 1 missing until rest)", wrapped. */
static void
unit_carry_line(const struct cp_carry_unit *cu, const char *name,
    struct text *o)
{
	char piece[BATTLE_NAME_MAX + 64];
	int w = 4, n = 0, missing = cu->full - cu->now;

	text_add(o, "    ");
	if (cu->captured || cu->destroyed) {
		snprintf(piece, sizeof(piece), "%s: %s", name, cu->captured ?
		    "its guns are taken" : "destroyed, gone for good");
		wrap_add(o, &w, 6, "", piece);
		text_add(o, "\n");
		return;
	}
	snprintf(piece, sizeof(piece), "%s: %d at the end,", name, cu->after);
	wrap_add(o, &w, 6, "", piece);
	snprintf(piece, sizeof(piece), "%d of %d the next morning", cu->now,
	    cu->full);
	wrap_add(o, &w, 6, " ", piece);
	/* what makes it up, each a piece, the bracket on the first and the
	 * last (so the line's width counts them) */
	{
		char what[3][48];
		int i;

		if (cu->returned > 0)
			snprintf(what[n++], sizeof(what[0]), "%d back", cu->returned);
		if (cu->lost + cu->routed > 0)
			snprintf(what[n++], sizeof(what[0]), "%d lost for good",
			    cu->lost + cu->routed);
		if (missing > 0)
			snprintf(what[n++], sizeof(what[0]), "%d missing until rest",
			    missing);
		if (n == 0)
			snprintf(what[n++], sizeof(what[0]), "no loss");
		for (i = 0; i < n; i++) {
			snprintf(piece, sizeof(piece), "%s%s%s", i == 0 ? "(" : "",
			    what[i], i == n - 1 ? ")" : "");
			wrap_add(o, &w, 6, i == 0 ? " " : ", ", piece);
		}
	}
	text_add(o, "\n");
}

void
campaign_carry_report(const struct campaign *c, const struct cp_carry *cr,
    int side, int units, struct text *o)
{
	int j, back = 0, lost = 0, gone = 0;

	text_add(o, "  At %s: %s.\n", c->places[cr->place].name,
	    cr->winner < 0 ? "a draw" : cr->winner == side ? "your side won" :
	    "the enemy won");
	for (j = 0; j < cr->nunits; j++) {
		const struct cp_carry_unit *cu = &cr->units[j];
		const struct cp_unit *un = &c->units[cu->unit];

		if (c->brigades[un->brigade].column < 0 ||
		    c->columns[c->brigades[un->brigade].column].side != side)
			continue;
		back += cu->returned;
		lost += cu->lost + cu->routed;
		gone += cu->captured || cu->destroyed;
		if (units)
			unit_carry_line(cu, un->name, o);
	}
	{
		char piece[96];
		int w = 4;

		snprintf(piece, sizeof(piece), "    Your losses: %d for good, %d "
		    "back the next morning", lost, back);
		text_add(o, "%s", piece);
		w = (int)strlen(piece);
		if (gone > 0) {
			snprintf(piece, sizeof(piece), "%d unit%s destroyed or taken",
			    gone, gone == 1 ? "" : "s");
			wrap_add(o, &w, 6, "; ", piece);
		}
		text_add(o, ".\n");
	}
	for (j = 0; j < cr->nfell; j++) {
		const struct cp_fell *f = &cr->fell[j];
		int col = f->column >= 0 ? f->column : f->brigade >= 0 ?
		    c->brigades[f->brigade].column : -1;

		if (col >= 0 && c->columns[col].side == side)
			text_add(o, "    %s fell; %s takes the command.\n", f->was,
			    f->now);
	}
	exhausted_line(c, cr, side, o);
	for (j = 0; j < cr->nretreats; j++)
		text_add(o, "    %s falls back to %s.\n",
		    c->columns[cr->retreats[j].column].name,
		    c->places[cr->retreats[j].to].name);
}

void
campaign_day_report(const struct campaign *c, const char *name, int side,
    const struct cp_turn *t, const struct cp_settle *s, struct text *o)
{
	unsigned char seen[CAMPAIGN_MAX_COLUMNS];
	char date[64], next[64];
	int k, i, n, points[BATTLE_MAX_SIDES];
	int turns = (c->end_day - c->start_day + 1) * c->halves;

	campaign_date_long(t->day, date, sizeof(date));
	text_add(o, "Campaign %s: %s\n", name, c->title);
	text_add(o, "Turn %d of %d, %s%s: the report of %s.\n", t->turn, turns,
	    date, c->halves == 2 ? (t->turn % 2 ? ", morning" : ", afternoon") :
	    "", c->sides[side].name);
	if (c->engine >= 2)
		text_add(o, "Weather: %s.\n", c->weather == WEATHER_STORM ?
		    "a storm; the roads and tracks were deep in mud, the rivers "
		    "in flood" : c->weather == WEATHER_RAIN ? "rain; the tracks "
		    "were heavy going, the rivers up" : "fair");
	text_add(o, "\nYour columns\n");
	for (k = n = 0; k < c->ncolumns; k++)
		if (c->columns[k].side == side && !c->columns[k].gone) {
			column_lines(c, t, s, k, o);
			n++;
		}
	if (n == 0)
		text_add(o, "  none: your side has no column left\n");
	for (k = 0; k < c->ncolumns; k++)
		if (c->columns[k].side == side && c->columns[k].gone)
			text_add(o, "  %s is gone (joined another column, or "
			    "destroyed)\n", c->columns[k].name);
	if (s->ncarries > 0) {
		text_add(o, "\nBattles\n");
		for (i = 0; i < s->ncarries; i++)
			campaign_carry_report(c, &s->carries[i], side, 0, o);
	}
	/* the side's depots that open or close with the next turn */
	{
		int day = c->start_day + c->turn / c->halves, d, m = 0;
		char when[64];

		campaign_date_long(day, when, sizeof(when));
		for (d = 0; !c->over && day <= c->end_day && d < c->ndepots; d++) {
			int now = campaign_depot_open(c, d, t->day);
			int then = campaign_depot_open(c, d, day);

			if (c->depots[d].side != side || now == then)
				continue;
			if (m++ == 0)
				text_add(o, "\nDepots\n");
			text_add(o, "  %s %s from %s.\n",
			    c->places[c->depots[d].place].name, then ? "supplies" :
			    "no longer supplies", when);
		}
	}
	campaign_sees(c, side, t->orders, t->norders, t->contacts, t->ncontacts,
	    seen);
	text_add(o, "\nEnemy columns seen\n");
	for (k = n = 0; k < c->ncolumns; k++) {
		char where[256];

		if (c->columns[k].side == side || c->columns[k].gone || !seen[k])
			continue;
		campaign_where(c, k, where, sizeof(where));
		text_add(o, "  %s (%s), %s\n", c->columns[k].name,
		    c->sides[c->columns[k].side].name, where);
		n++;
	}
	if (n == 0)
		text_add(o, "  none in sight\n");
	/* those out of sight now: where they were last seen, and when */
	for (k = n = 0; c->engine >= 2 && k < c->ncolumns; k++) {
		const struct cp_sighting *ls = &c->last_seen[side][k];
		char where[256], when[64];

		if (c->columns[k].side == side || c->columns[k].gone || seen[k] ||
		    ls->turn <= 0)
			continue;
		if (n++ == 0)
			text_add(o, "Out of sight, last seen\n");
		campaign_where_at(c, ls->place, ls->road, ls->from, ls->along100,
		    where, sizeof(where));
		campaign_date_long(c->start_day + (ls->turn - 1) / c->halves, when,
		    sizeof(when));
		text_add(o, "  %s (%s), on %s%s,\n    %s\n", c->columns[k].name,
		    c->sides[c->columns[k].side].name, when, c->halves == 2 ?
		    (ls->turn % 2 ? " (morning)" : " (afternoon)") : "", where);
	}
	campaign_score(c, points);
	text_add(o, "\nPoints:");
	for (i = 0; i < c->nsides; i++)
		text_add(o, "%s %s %d", i ? "," : "", c->sides[i].name, points[i]);
	text_add(o, " (a lead of %d wins at the end)\n", c->goal_margin);
	if (c->over) {
		text_add(o, "\nThe campaign is over: %s.\n", c->winner < 0 ?
		    "a draw" : c->winner == side ? "your side has won it" :
		    "the enemy has won it");
		return;
	}
	campaign_date_long(c->start_day + c->turn / c->halves, next,
	    sizeof(next));
	text_add(o, "\nNext: orders for turn %d (%s), one line a\ncolumn, "
	    "under the line\n  CAMPAIGN %s SIDE %s PASSWORD <your secret>\n"
	    "A column with no new order goes on with its march until it gets "
	    "there, and\notherwise holds.\n", c->turn + 1, next, name,
	    c->sides[side].id);
	for (k = 0; campaign_exhaustion(c) && k < c->nbrigades; k++)
		if (c->brigades[k].spent > 0 &&
		    !c->columns[c->brigades[k].column].gone &&
		    c->columns[c->brigades[k].column].side == side &&
		    campaign_brigade_sp(c, k) > 0)
			break;
	if (campaign_exhaustion(c) && k < c->nbrigades)
		text_add(o, "An exhausted brigade begins its next battle "
		    "exhausted, until its column\nRESTs %d day%s in supply.\n", campaign_param(c, "rest.exhausted"),
		    campaign_param(c, "rest.exhausted") == 1 ? "" : "s");
}
