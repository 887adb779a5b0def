/*
 * campaign.c - reading a campaign file (docs/campaign.md) into a struct
 * campaign.
 *
 * The same discipline as a scenario: one declaration a line, every
 * refusal "file:line: what is wrong, what would do", nothing returned
 * from a file with an error.  A column's brigade and unit lines are a
 * scenario's without the positions (a battle deploys them), so once the
 * file is read every column is laid out on a scratch table and the
 * whole order of battle is read by the scenario parser: a unit line a
 * battle would refuse is refused here, at its own line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "campaign/campaign.h"
#include "core/text.h"
#include "scenario/internal.h"

struct cparser {
	struct parser p;          /* fname, line and e for the shared helpers */
	struct campaign *c;
	const struct cp_fields *fields;
	int have_title, have_calendar;
	int cur_place, cur_side, cur_column, cur_brigade;
};

static const char *const place_kinds[PLACE_KIND_COUNT] = {
	"town", "crossroads", "ford", "ferry", "bridge", "plantation", "hill"
};
static const char *const grounds[GROUND_COUNT] = {
	"open", "wooded", "hilly", "riverbank", "town"
};
static const char *const dirs[DIR_COUNT] = {
	"north", "north-east", "east", "south-east", "south", "south-west",
	"west", "north-west"
};
static const char *const dirs_short[DIR_COUNT] = {
	"n", "ne", "e", "se", "s", "sw", "w", "nw"
};

const char *
campaign_place_kind_name(enum cp_place_kind k)
{
	return (unsigned)k < PLACE_KIND_COUNT ? place_kinds[k] : "?";
}

const char *
campaign_ground_name(enum cp_ground g)
{
	return (unsigned)g < GROUND_COUNT ? grounds[g] : "?";
}

const char *
campaign_dir_name(enum cp_dir d)
{
	return (unsigned)d < DIR_COUNT ? dirs[d] : "?";
}

static const char *const weathers[WEATHER_COUNT] = { "fair", "rain",
	"storm" };

const char *
campaign_weather_name(enum cp_weather w)
{
	return (unsigned)w < WEATHER_COUNT ? weathers[w] : "?";
}

int
campaign_find_place(const struct campaign *c, const char *name)
{
	int i;

	for (i = 0; i < c->nplaces; i++)
		if (strcasecmp(c->places[i].name, name) == 0)
			return i;
	return -1;
}

int
campaign_find_column(const struct campaign *c, const char *name)
{
	int i;

	for (i = 0; i < c->ncolumns; i++)
		if (strcasecmp(c->columns[i].name, name) == 0)
			return i;
	return -1;
}

int
campaign_find_side(const struct campaign *c, const char *id)
{
	int i;

	/* In any case, as a battle's SIDE is read (SIDE Crown is crown). */
	for (i = 0; i < c->nsides; i++)
		if (strcasecmp(c->sides[i].id, id) == 0)
			return i;
	return -1;
}

void
campaign_free(struct campaign *c)
{
	int i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nplaces; i++)
		free(c->places[i].field_text);
	free(c);
}

/* ---- dates -------------------------------------------------------------- */

/* Days from 1 January 1 to y-m-d, proleptic Gregorian (the civil-from-
 * days algorithm run backwards): integer arithmetic only. */
static int
days_from_civil(int y, int m, int d)
{
	int era, yoe, doy, doe;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 306;   /* 306: 1 March 0 to 1 January 1 */
}

static void
civil_from_days(int z, int *y, int *m, int *d)
{
	int era, doe, yoe, doy, mp;

	z += 306;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	*y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp + (mp < 10 ? 3 : -9);
	*y += *m <= 2;
}

int
campaign_date_parse(const char *s, int *day)
{
	int y, m, d, n = 0, y2, m2, d2;

	if (s == NULL || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 ||
	    s[n] != '\0' || strlen(s) != 10 || y < 1000 || m < 1 || m > 12 ||
	    d < 1 || d > 31)
		return -1;
	*day = days_from_civil(y, m, d);
	civil_from_days(*day, &y2, &m2, &d2);
	return y2 == y && m2 == m && d2 == d ? 0 : -1;
}

void
campaign_date_fmt(int day, char *out, size_t size)
{
	int y, m, d;

	civil_from_days(day, &y, &m, &d);
	snprintf(out, size, "%04d-%02d-%02d", y, m, d);
}

void
campaign_date_long(int day, char *out, size_t size)
{
	static const char *const months[12] = { "January", "February",
		"March", "April", "May", "June", "July", "August", "September",
		"October", "November", "December" };
	/* 1 January 1 (day 0) was a Monday. */
	static const char *const wdays[7] = { "Monday", "Tuesday",
		"Wednesday", "Thursday", "Friday", "Saturday", "Sunday" };
	int y, m, d;

	civil_from_days(day, &y, &m, &d);
	snprintf(out, size, "%s %d %s %d", wdays[((day % 7) + 7) % 7], d,
	    months[m - 1], y);
}

/* ---- helpers -------------------------------------------------------------- */

static int
word_index(const char *const *list, int n, const char *w)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcasecmp(list[i], w) == 0)
			return i;
	return -1;
}

static void
list_words(const char *const *list, int n, char *out, size_t size)
{
	size_t o = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i == 0 ? "" :
		    i == n - 1 ? " or " : ", ", list[i]);
}

/* "12.5" miles into hundredths. */
static int
want_miles(struct parser *p, struct tok *t, int n, int i, const char *what,
    int *out)
{
	fx v;

	if (i >= n || t[i].quoted || geom_parse_fx(t[i].s, &v) != 0 || v < 0 ||
	    v > FX(2000))
		return scn_perr(p, "expected %s in miles (0 to 2000, at most two "
		    "decimals), for example 12.5", what);
	*out = (int)v;
	return 0;
}

/* A place named in quotes at token i. */
static int
want_place(struct cparser *cp, struct tok *t, int n, int i, const char *what,
    int *out)
{
	char name[BATTLE_NAME_MAX];

	if (scn_want_name(&cp->p, t, n, i, what, name, sizeof(name)) != 0)
		return -1;
	*out = campaign_find_place(cp->c, name);
	if (*out < 0)
		return scn_perr(&cp->p, "no place \"%s\": declare it with a "
		    "'place' line before it is named", name);
	return 0;
}

static int
want_date(struct parser *p, struct tok *t, int n, int i, const char *what,
    int *day)
{
	if (i >= n || t[i].quoted || campaign_date_parse(t[i].s, day) != 0)
		return scn_perr(p, "expected %s as YYYY-MM-DD, a day of the "
		    "calendar (for example 1781-01-17)%s%s%s", what,
		    i < n ? "; '" : "", i < n ? t[i].s : "",
		    i < n ? "' is not one" : "");
	return 0;
}

/* Appends token w to out as a scenario line writes it (quoted, with \"
 * and \\ escaped, when it was quoted). */
static int
put_token(char *out, size_t size, const struct tok *w)
{
	size_t o = strlen(out);
	const char *s;

	if (o + 2 >= size)
		return -1;
	if (o > 0)
		out[o++] = ' ';
	if (w->quoted)
		out[o++] = '"';
	for (s = w->s; *s; s++) {
		if (o + 3 >= size)
			return -1;
		if (w->quoted && (*s == '"' || *s == '\\'))
			out[o++] = '\\';
		out[o++] = *s;
	}
	if (w->quoted) {
		if (o + 2 >= size)
			return -1;
		out[o++] = '"';
	}
	out[o] = '\0';
	return 0;
}

static int
name_in_use(const struct campaign *c, const char *name)
{
	int i;

	for (i = 0; i < c->nunits; i++)
		if (strcasecmp(c->units[i].name, name) == 0)
			return 1;
	for (i = 0; i < c->nbrigades; i++)
		if (strcasecmp(c->brigades[i].commander, name) == 0)
			return 1;
	for (i = 0; i < c->ncolumns; i++)
		if (strcasecmp(c->columns[i].commander, name) == 0)
			return 1;
	return 0;
}

/* ---- the lines ------------------------------------------------------------ */

static int
do_campaign(struct cparser *cp, struct tok *t, int n)
{
	if (cp->have_title)
		return scn_perr(&cp->p, "'campaign' may appear only once");
	if (scn_want_name(&cp->p, t, n, 1, "the campaign's title",
	    cp->c->title, sizeof(cp->c->title)) != 0)
		return -1;
	if (n > 2)
		return scn_perr(&cp->p, "unexpected '%s' after the title", t[2].s);
	cp->have_title = 1;
	return 0;
}

static int
do_ruleset(struct cparser *cp, struct tok *t, int n)
{
	const struct ruleset *rs;

	if (cp->c->rs != NULL)
		return scn_perr(&cp->p, "'ruleset' may appear only once");
	if (n != 2 || t[1].quoted)
		return scn_perr(&cp->p, "expected 'ruleset NAME', for example "
		    "'ruleset %s'", ruleset_all()[0]->name);
	rs = ruleset_find(t[1].s);
	if (rs == NULL)
		return scn_perr(&cp->p, "unknown ruleset '%s' (see 'despatch "
		    "rules' for the list)", t[1].s);
	if (rs->campaign_params == NULL)
		return scn_perr(&cp->p, "ruleset '%s' has no campaign numbers (what "
		    "a battle's losses carry back), so it cannot be campaigned",
		    rs->name);
	cp->c->rs = rs;
	snprintf(cp->c->ruleset, sizeof(cp->c->ruleset), "%s", rs->name);
	return 0;
}

/* calendar YYYY-MM-DD to YYYY-MM-DD turn day|half-day */
static int
do_calendar(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;

	if (cp->have_calendar)
		return scn_perr(&cp->p, "'calendar' may appear only once");
	if (want_date(&cp->p, t, n, 1, "the first day", &c->start_day) != 0)
		return -1;
	if (n < 4 || strcmp(t[2].s, "to") != 0)
		return scn_perr(&cp->p, "expected 'calendar FIRST to LAST turn "
		    "day', for example 'calendar 1781-01-16 to 1781-03-20 turn "
		    "day'");
	if (want_date(&cp->p, t, n, 3, "the last day", &c->end_day) != 0)
		return -1;
	if (c->end_day < c->start_day)
		return scn_perr(&cp->p, "the last day comes before the first: "
		    "write the earlier date first");
	if (c->end_day - c->start_day > 3660)
		return scn_perr(&cp->p, "a campaign may last at most ten years");
	c->halves = 1;
	if (n > 4) {
		if (strcmp(t[4].s, "turn") != 0 || n != 6)
			return scn_perr(&cp->p, "expected 'turn day' or 'turn "
			    "half-day' after the dates");
		if (strcmp(t[5].s, "day") == 0)
			c->halves = 1;
		else if (strcmp(t[5].s, "half-day") == 0)
			c->halves = 2;
		else
			return scn_perr(&cp->p, "a campaign turn is a 'day' or a "
			    "'half-day', not '%s'", t[5].s);
	}
	cp->have_calendar = 1;
	return 0;
}

static int
do_set(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	const struct rule_param *r;
	struct cp_setting *st;
	int v, i;

	if (c->rs == NULL)
		return scn_perr(&cp->p, "'ruleset' must come before 'set'");
	if (n != 3)
		return scn_perr(&cp->p, "expected 'set NAME VALUE', for example "
		    "'set march.infantry.road 15'");
	r = campaign_param_row(c, t[1].s);
	if (r == NULL)
		return scn_perr(&cp->p, "the campaign has no number '%s' (docs/"
		    "campaign.md lists them; a battle's numbers go in its "
		    "scenario)", t[1].s);
	if (scn_want_int(&cp->p, t, n, 2, r->name, r->min, r->max, &v) != 0)
		return -1;
	for (i = 0; i < c->nsettings; i++)
		if (strcmp(c->settings[i].name, r->name) == 0)
			return scn_perr(&cp->p, "'%s' is set twice (line %d)",
			    r->name, c->settings[i].line);
	if (c->nsettings == CAMPAIGN_MAX_SETTINGS)
		return scn_perr(&cp->p, "too many 'set' lines (at most %d)",
		    CAMPAIGN_MAX_SETTINGS);
	st = &c->settings[c->nsettings++];
	snprintf(st->name, sizeof(st->name), "%s", r->name);
	st->value = v;
	st->line = cp->p.line;
	return 0;
}

/* place "Name" kind KIND at x,y [ground GROUND] [field "FILE"] */
static int
do_place(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_place *pl;
	char words[160];
	struct pt at;
	int i, k;

	if (c->nplaces == CAMPAIGN_MAX_PLACES)
		return scn_perr(&cp->p, "too many places (at most %d)",
		    CAMPAIGN_MAX_PLACES);
	pl = &c->places[c->nplaces];
	memset(pl, 0, sizeof(*pl));
	if (scn_want_name(&cp->p, t, n, 1, "the place's name", pl->name,
	    sizeof(pl->name)) != 0)
		return -1;
	if (campaign_find_place(c, pl->name) >= 0)
		return scn_perr(&cp->p, "place \"%s\" is declared twice",
		    pl->name);
	if (n < 6 || strcmp(t[2].s, "kind") != 0 || strcmp(t[4].s, "at") != 0)
		return scn_perr(&cp->p, "expected 'place \"Name\" kind KIND at "
		    "x,y' (x,y in miles east and north)");
	if ((k = word_index(place_kinds, PLACE_KIND_COUNT, t[3].s)) < 0) {
		list_words(place_kinds, PLACE_KIND_COUNT, words, sizeof(words));
		return scn_perr(&cp->p, "unknown kind of place '%s': expected %s",
		    t[3].s, words);
	}
	pl->kind = (enum cp_place_kind)k;
	if (scn_parse_point(&cp->p, t[5].s, &at) != 0)
		return -1;
	if (at.x < 0 || at.y < 0 || at.x > FX(2000) || at.y > FX(2000))
		return scn_perr(&cp->p, "a place lies 0 to 2000 miles east and "
		    "north of the map's corner");
	pl->x100 = at.x;
	pl->y100 = at.y;
	pl->ground = pl->kind == PLACE_TOWN ? GROUND_TOWN :
	    pl->kind == PLACE_FORD || pl->kind == PLACE_FERRY ||
	    pl->kind == PLACE_BRIDGE ? GROUND_RIVERBANK :
	    pl->kind == PLACE_HILL ? GROUND_HILLY : GROUND_OPEN;
	for (i = 6; i < n; i++) {
		if (strcmp(t[i].s, "ground") == 0 && !t[i].quoted) {
			if (i + 1 >= n || (k = word_index(grounds, GROUND_COUNT,
			    t[i + 1].s)) < 0) {
				list_words(grounds, GROUND_COUNT, words, sizeof(words));
				return scn_perr(&cp->p, "'ground' wants one of %s%s%s%s",
				    words, i + 1 < n ? " (not '" : "",
				    i + 1 < n ? t[i + 1].s : "", i + 1 < n ? "')" : "");
			}
			pl->ground = (enum cp_ground)k;
			i++;
		} else if (strcmp(t[i].s, "field") == 0 && !t[i].quoted) {
			if (scn_want_name(&cp->p, t, n, i + 1, "the battlefield's "
			    "scenario file", pl->field_path,
			    sizeof(pl->field_path)) != 0)
				return -1;
			i++;
		} else {
			return scn_perr(&cp->p, "unexpected '%s' in the place line "
			    "(what may follow 'at x,y' is 'ground GROUND' and "
			    "'field \"FILE\"')", t[i].s);
		}
	}
	pl->line = cp->p.line;
	if (pl->field_path[0] != '\0') {
		struct err fe;

		if (cp->fields == NULL)
			return scn_perr(&cp->p, "the battlefield \"%s\" cannot be "
			    "read here (the campaign was not read from a file)",
			    pl->field_path);
		err_clear(&fe);
		if (cp->fields->read(cp->fields->ctx, pl->field_path,
		    &pl->field_text, &pl->field_len, &fe) != 0) {
			c->nplaces++;   /* so that campaign_free frees it */
			return scn_perr(&cp->p, "the battlefield \"%s\" cannot be "
			    "read: %s", pl->field_path, fe.msg);
		}
	}
	cp->cur_place = c->nplaces++;
	return 0;
}

/* zone DIR x0,y0 x1,y1: where forces coming from DIR deploy. */
static int
do_zone(struct cparser *cp, struct tok *t, int n)
{
	struct cp_place *pl;
	struct pt a, b;
	int d;

	if (cp->cur_place < 0)
		return scn_perr(&cp->p, "'zone' must follow the 'place' line of "
		    "its battlefield");
	pl = &cp->c->places[cp->cur_place];
	if (pl->field_path[0] == '\0')
		return scn_perr(&cp->p, "place \"%s\" has no 'field': a generated "
		    "battlefield has its zones already", pl->name);
	if (n != 4)
		return scn_perr(&cp->p, "expected 'zone DIRECTION x0,y0 x1,y1' in "
		    "the battlefield's inches, for example 'zone south 0,0 72,14'");
	d = word_index(dirs, DIR_COUNT, t[1].s);
	if (d < 0)
		d = word_index(dirs_short, DIR_COUNT, t[1].s);
	if (d < 0)
		return scn_perr(&cp->p, "unknown direction '%s': expected north, "
		    "north-east, east, south-east, south, south-west, west or "
		    "north-west", t[1].s);
	if (pl->zone[d].set)
		return scn_perr(&cp->p, "the %s zone of \"%s\" is given twice",
		    dirs[d], pl->name);
	if (scn_parse_point(&cp->p, t[2].s, &a) != 0 ||
	    scn_parse_point(&cp->p, t[3].s, &b) != 0)
		return -1;
	if (b.x - a.x < FX(4) || b.y - a.y < FX(2))
		return scn_perr(&cp->p, "a zone runs from its south-west corner to "
		    "its north-east corner and is at least 4 inches wide and 2 "
		    "deep");
	pl->zone[d].set = 1;
	pl->zone[d].x0 = a.x;
	pl->zone[d].y0 = a.y;
	pl->zone[d].x1 = b.x;
	pl->zone[d].y1 = b.y;
	return 0;
}

/* road "A" to "B" miles M [track] [river "R" ...] [name "N"] */
static int
do_road(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_road *r;
	int i;

	if (c->nroads == CAMPAIGN_MAX_ROADS)
		return scn_perr(&cp->p, "too many roads (at most %d)",
		    CAMPAIGN_MAX_ROADS);
	r = &c->roads[c->nroads];
	memset(r, 0, sizeof(*r));
	if (want_place(cp, t, n, 1, "the place the road starts from", &r->a))
		return -1;
	if (n < 6 || strcmp(t[2].s, "to") != 0 || strcmp(t[4].s, "miles") != 0)
		return scn_perr(&cp->p, "expected 'road \"From\" to \"To\" miles M'");
	if (want_place(cp, t, n, 3, "the place the road goes to", &r->b))
		return -1;
	if (r->a == r->b)
		return scn_perr(&cp->p, "a road must join two different places");
	if (want_miles(&cp->p, t, n, 5, "the road's length", &r->miles100))
		return -1;
	if (r->miles100 < 10)
		return scn_perr(&cp->p, "a road is at least 0.1 miles long");
	for (i = 6; i < n; i++) {
		if (strcmp(t[i].s, "track") == 0 && !t[i].quoted) {
			r->kind = ROAD_TRACK;
		} else if (strcmp(t[i].s, "road") == 0 && !t[i].quoted) {
			r->kind = ROAD_ROAD;
		} else if (strcmp(t[i].s, "river") == 0 && !t[i].quoted) {
			/* one 'river' a river crossed; the same name again is
			 * the same river (a file of campaign engine 1 may
			 * have one named twice: it was read as one) */
			char nm[BATTLE_NAME_MAX];

			if (scn_want_name(&cp->p, t, n, ++i, "the river's name", nm,
			    sizeof(nm)) != 0)
				return -1;
			if (r->nrivers == 0 || strcmp(nm, r->river) != 0)
				r->nrivers++;
			if (r->river[0] == '\0')
				memcpy(r->river, nm, sizeof(r->river));
		} else if (strcmp(t[i].s, "name") == 0 && !t[i].quoted) {
			if (scn_want_name(&cp->p, t, n, ++i, "the road's name",
			    r->name, sizeof(r->name)) != 0)
				return -1;
		} else {
			return scn_perr(&cp->p, "unexpected '%s' in the road line "
			    "(what may follow the miles is 'track', 'river \"Name\"' "
			    "(one for each river) and 'name \"Name\"')", t[i].s);
		}
	}
	for (i = 0; i < c->nroads; i++)
		if ((c->roads[i].a == r->a && c->roads[i].b == r->b) ||
		    (c->roads[i].a == r->b && c->roads[i].b == r->a))
			return scn_perr(&cp->p, "\"%s\" and \"%s\" are joined already "
			    "(line %d); put a place between two roads that join "
			    "the same places", c->places[r->a].name,
			    c->places[r->b].name, c->roads[i].line);
	r->line = cp->p.line;
	c->nroads++;
	return 0;
}

static int
do_side(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_side *s;
	int i;

	if (n < 3 || t[1].quoted)
		return scn_perr(&cp->p, "expected 'side ID \"Name\"', for example "
		    "'side crown \"Crown forces\" nation british'");
	if (campaign_find_side(c, t[1].s) >= 0)
		return scn_perr(&cp->p, "side '%s' is declared twice", t[1].s);
	if (c->nsides == BATTLE_MAX_SIDES)
		return scn_perr(&cp->p, "too many sides (at most %d)",
		    BATTLE_MAX_SIDES);
	s = &c->sides[c->nsides];
	memset(s, 0, sizeof(*s));
	if (strlen(t[1].s) >= sizeof(s->id))
		return scn_perr(&cp->p, "side id '%s' is too long", t[1].s);
	snprintf(s->id, sizeof(s->id), "%s", t[1].s);
	if (scn_want_name(&cp->p, t, n, 2, "a side name", s->name,
	    sizeof(s->name)) != 0)
		return -1;
	for (i = 3; i < n; i++)
		if (put_token(s->tail, sizeof(s->tail), &t[i]) != 0)
			return scn_perr(&cp->p, "the side line is too long");
	s->line = cp->p.line;
	cp->cur_side = c->nsides++;
	cp->cur_column = cp->cur_brigade = -1;
	return 0;
}

/* column "Name" commander "Name" at "Place" */
static int
do_column(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_column *col;

	if (cp->cur_side < 0)
		return scn_perr(&cp->p, "'column' must follow a 'side' line");
	if (c->ncolumns == CAMPAIGN_MAX_COLUMNS)
		return scn_perr(&cp->p, "too many columns (at most %d)",
		    CAMPAIGN_MAX_COLUMNS);
	col = &c->columns[c->ncolumns];
	memset(col, 0, sizeof(*col));
	if (scn_want_name(&cp->p, t, n, 1, "the column's name", col->name,
	    sizeof(col->name)) != 0)
		return -1;
	if (campaign_find_column(c, col->name) >= 0)
		return scn_perr(&cp->p, "column \"%s\" is declared twice",
		    col->name);
	if (n != 6 || strcmp(t[2].s, "commander") != 0 ||
	    strcmp(t[4].s, "at") != 0)
		return scn_perr(&cp->p, "expected 'column \"Name\" commander "
		    "\"Name\" at \"Place\"'");
	if (scn_want_name(&cp->p, t, n, 3, "the column commander's name",
	    col->commander, sizeof(col->commander)) != 0)
		return -1;
	if (name_in_use(c, col->commander))
		return scn_perr(&cp->p, "the name \"%s\" is already used: every "
		    "unit and commander needs a name of its own", col->commander);
	if (want_place(cp, t, n, 5, "the place the column starts at",
	    &col->place) != 0)
		return -1;
	col->side = cp->cur_side;
	col->road = col->from = col->came_by = -1;
	col->standing_kind = CO_HOLD;
	col->standing_dest = col->standing_by = -1;
	col->line = cp->p.line;
	cp->cur_column = c->ncolumns++;
	cp->cur_brigade = -1;
	return 0;
}

/* brigade "Name" commander "Name" */
static int
do_brigade(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_brigade *br;
	int i;

	if (cp->cur_column < 0)
		return scn_perr(&cp->p, "'brigade' must follow a 'column' line "
		    "(every brigade marches in a column)");
	if (c->nbrigades == CAMPAIGN_MAX_BRIGADES)
		return scn_perr(&cp->p, "too many brigades (at most %d)",
		    CAMPAIGN_MAX_BRIGADES);
	br = &c->brigades[c->nbrigades];
	memset(br, 0, sizeof(*br));
	if (scn_want_name(&cp->p, t, n, 1, "the brigade's name", br->name,
	    sizeof(br->name)) != 0)
		return -1;
	for (i = 0; i < c->nbrigades; i++)
		if (strcasecmp(c->brigades[i].name, br->name) == 0)
			return scn_perr(&cp->p, "brigade \"%s\" is declared twice "
			    "(line %d): a battle may bring any two together, so "
			    "every brigade needs a name of its own", br->name,
			    c->brigades[i].line);
	if (n != 4 || strcmp(t[2].s, "commander") != 0)
		return scn_perr(&cp->p, "expected 'brigade \"Name\" commander "
		    "\"Name\"' (a battle places the brigade)");
	if (scn_want_name(&cp->p, t, n, 3, "the brigade commander's name",
	    br->commander, sizeof(br->commander)) != 0)
		return -1;
	if (name_in_use(c, br->commander))
		return scn_perr(&cp->p, "the name \"%s\" is already used: every "
		    "unit and commander needs a name of its own", br->commander);
	br->column = cp->cur_column;
	br->line = cp->p.line;
	cp->cur_brigade = c->nbrigades++;
	return 0;
}

static int
sp_list(struct parser *p, const char *s, int *sp, int *count)
{
	char buf[512];
	char *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return scn_perr(p, "the SP list is too long");
	memcpy(buf, s, strlen(s) + 1);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		char *end = NULL;
		long v = strtol(tok, &end, 10);

		if (end == tok || *end || v < 1 || v > 20)
			return scn_perr(p, "'%s' is not a strength: each stand has "
			    "1 to 20 SP, written like 'sp 3' or 'sp 3,2'", s);
		if (n == CAMPAIGN_MAX_STANDS)
			return scn_perr(p, "more SP values than a unit may have "
			    "stands (%d)", CAMPAIGN_MAX_STANDS);
		sp[n++] = (int)v;
	}
	*count = n;
	return 0;
}

/* unit "Name" type TYPE [OPTIONS] stands N sp A,B [full C,D] [FORMATION]
 * (no 'at' or 'facing': a battle deploys the unit). */
static int
do_unit(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	const struct troop_type *tt;
	struct cp_unit *u;
	int i, nst = 0, nsp = 0, nfull = 0, sp[CAMPAIGN_MAX_STANDS];
	int full[CAMPAIGN_MAX_STANDS];
	enum formation form;

	if (cp->cur_brigade < 0)
		return scn_perr(&cp->p, "'unit' must follow a 'brigade' line "
		    "(every unit belongs to a brigade)");
	if (c->rs == NULL)
		return scn_perr(&cp->p, "'ruleset' must come before the first "
		    "unit");
	if (c->nunits == CAMPAIGN_MAX_UNITS)
		return scn_perr(&cp->p, "too many units (at most %d)",
		    CAMPAIGN_MAX_UNITS);
	u = &c->units[c->nunits];
	memset(u, 0, sizeof(*u));
	if (scn_want_name(&cp->p, t, n, 1, "the unit's name", u->name,
	    sizeof(u->name)) != 0)
		return -1;
	if (name_in_use(c, u->name))
		return scn_perr(&cp->p, "the name \"%s\" is already used: every "
		    "unit and commander needs a name of its own", u->name);
	if (n < 4 || strcmp(t[2].s, "type") != 0)
		return scn_perr(&cp->p, "expected 'type TYPE' after the unit's "
		    "name (see 'despatch rules %s' for the troop types)",
		    c->rs->name);
	tt = ruleset_type(c->rs, t[3].s);
	if (tt == NULL)
		return scn_perr(&cp->p, "unknown troop type '%s' for %s (see "
		    "'despatch rules %s' for the list)", t[3].s, c->rs->name,
		    c->rs->name);
	u->kind = tt->kind;
	for (i = 2; i < n; i++) {
		const char *w = t[i].s;

		if (!t[i].quoted && (strcmp(w, "at") == 0 ||
		    strcmp(w, "facing") == 0))
			return scn_perr(&cp->p, "a column's unit has no '%s': the "
			    "battle it fights deploys it (leave out 'at' and "
			    "'facing')", w);
		if (!t[i].quoted && strcmp(w, "stands") == 0) {
			if (scn_want_int(&cp->p, t, n, ++i, "number of stands", 1,
			    CAMPAIGN_MAX_STANDS, &nst) != 0)
				return -1;
		} else if (!t[i].quoted && strcmp(w, "sp") == 0) {
			if (++i >= n)
				return scn_perr(&cp->p, "'sp' needs the stands' "
				    "strength");
			if (sp_list(&cp->p, t[i].s, sp, &nsp) != 0)
				return -1;
		} else if (!t[i].quoted && strcmp(w, "full") == 0) {
			if (++i >= n)
				return scn_perr(&cp->p, "'full' needs the stands' "
				    "strength at full establishment");
			if (sp_list(&cp->p, t[i].s, full, &nfull) != 0)
				return -1;
		} else if (!t[i].quoted && i == n - 1 &&
		    battle_form_parse(w, &form) == 0) {
			snprintf(u->form, sizeof(u->form), "%s", w);
		} else if (put_token(u->opts, sizeof(u->opts), &t[i]) != 0) {
			return scn_perr(&cp->p, "the unit line is too long");
		}
	}
	if (nsp == 0)
		return scn_perr(&cp->p, "the unit needs 'sp N' (the strength of "
		    "each stand)");
	if (nst == 0)
		nst = nsp;
	if (nsp != 1 && nsp != nst)
		return scn_perr(&cp->p, "'stands %d' but %d SP values: give one "
		    "value for all stands or one per stand", nst, nsp);
	if (nfull != 0 && nfull != 1 && nfull != nst)
		return scn_perr(&cp->p, "'stands %d' but %d 'full' values: give "
		    "one value for all stands or one per stand", nst, nfull);
	u->nstands = nst;
	for (i = 0; i < nst; i++) {
		u->sp[i] = nsp == 1 ? sp[0] : sp[i];
		u->full[i] = nfull == 0 ? u->sp[i] : nfull == 1 ? full[0] :
		    full[i];
		if (u->full[i] < u->sp[i])
			return scn_perr(&cp->p, "stand %d has %d SP but only %d at "
			    "full strength: 'full' may not be less than 'sp'",
			    i + 1, u->sp[i], u->full[i]);
	}
	u->brigade = cp->cur_brigade;
	u->start = campaign_unit_sp(u);
	u->line = cp->p.line;
	c->nunits++;
	return 0;
}

static int
do_depot(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_depot *d;
	int k;

	if (cp->cur_side < 0)
		return scn_perr(&cp->p, "'depot' must follow a 'side' line");
	if (c->ndepots == CAMPAIGN_MAX_DEPOTS)
		return scn_perr(&cp->p, "too many depots (at most %d)",
		    CAMPAIGN_MAX_DEPOTS);
	d = &c->depots[c->ndepots];
	memset(d, 0, sizeof(*d));
	if (n != 2 && n != 4 && n != 6)
		return scn_perr(&cp->p, "expected 'depot \"Place\" [from DATE] "
		    "[to DATE]', for example 'depot \"Salisbury\" to 1781-02-03'");
	if (want_place(cp, t, n, 1, "the depot's place", &d->place) != 0)
		return -1;
	/* from DATE, to DATE: the days it supplies (a depot set up, or
	 * given up, during the campaign) */
	if (n > 2 && !cp->have_calendar)
		return scn_perr(&cp->p, "'calendar' must come before a depot with "
		    "dates");
	for (k = 2; k + 1 < n; k += 2) {
		int *day = strcmp(t[k].s, "from") == 0 ? &d->from_day :
		    strcmp(t[k].s, "to") == 0 ? &d->to_day : NULL;

		if (day == NULL || t[k].quoted || *day != 0)
			return scn_perr(&cp->p, "expected 'from DATE' or 'to DATE' "
			    "after the depot's place, not '%s'", t[k].s);
		if (want_date(&cp->p, t, n, k + 1, "the depot's date", day) != 0)
			return -1;
		if (*day < c->start_day || *day > c->end_day)
			return scn_perr(&cp->p, "%s is outside the calendar",
			    t[k + 1].s);
	}
	if (d->from_day != 0 && d->to_day != 0 && d->to_day < d->from_day)
		return scn_perr(&cp->p, "the depot's last day comes before its "
		    "first: write the earlier date after 'from'");
	d->side = cp->cur_side;
	d->line = cp->p.line;
	c->ndepots++;
	return 0;
}

/* weather FROM [to TO] fair|rain|storm */
static int
do_weather(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_weather_fix *w;
	int i, k;

	if (!cp->have_calendar)
		return scn_perr(&cp->p, "'calendar' must come before 'weather'");
	if (c->nweather == CAMPAIGN_MAX_WEATHER)
		return scn_perr(&cp->p, "too many 'weather' lines (at most %d)",
		    CAMPAIGN_MAX_WEATHER);
	w = &c->weather_fix[c->nweather];
	if ((n != 3 && n != 5) || (n == 5 && strcmp(t[2].s, "to") != 0))
		return scn_perr(&cp->p, "expected 'weather DATE KIND' or "
		    "'weather FIRST to LAST KIND', KIND fair, rain or storm, for "
		    "example 'weather 1781-02-02 to 1781-02-03 rain'");
	if (want_date(&cp->p, t, n, 1, "the first day of the weather",
	    &w->from) != 0)
		return -1;
	w->to = w->from;
	if (n == 5 && want_date(&cp->p, t, n, 3, "the last day of the weather",
	    &w->to) != 0)
		return -1;
	if (w->to < w->from)
		return scn_perr(&cp->p, "the last day comes before the first: "
		    "write the earlier date first");
	if (w->from < c->start_day || w->to > c->end_day)
		return scn_perr(&cp->p, "the weather's days must be in the "
		    "calendar");
	for (k = 0; k < WEATHER_COUNT; k++)
		if (strcmp(t[n - 1].s, weathers[k]) == 0)
			break;
	if (k == WEATHER_COUNT || t[n - 1].quoted)
		return scn_perr(&cp->p, "the weather is fair, rain or storm, not "
		    "'%s'", t[n - 1].s);
	w->kind = (enum cp_weather)k;
	for (i = 0; i < c->nweather; i++)
		if (w->from <= c->weather_fix[i].to &&
		    c->weather_fix[i].from <= w->to)
			return scn_perr(&cp->p, "these days' weather is given "
			    "already (line %d)", c->weather_fix[i].line);
	w->line = cp->p.line;
	c->nweather++;
	return 0;
}

/* goal SIDE hold "Place" on DATE points N | goal SIDE break points N |
 * goal margin N */
static int
do_goal(struct cparser *cp, struct tok *t, int n)
{
	struct campaign *c = cp->c;
	struct cp_goal *g;

	if (n == 3 && strcmp(t[1].s, "margin") == 0)
		return scn_want_int(&cp->p, t, n, 2, "winning margin", 0, 1000,
		    &c->goal_margin);
	if (c->ngoals == CAMPAIGN_MAX_GOALS)
		return scn_perr(&cp->p, "too many goals (at most %d)",
		    CAMPAIGN_MAX_GOALS);
	g = &c->goals[c->ngoals];
	memset(g, 0, sizeof(*g));
	if (n < 3 || (g->side = campaign_find_side(c, t[1].s)) < 0)
		return scn_perr(&cp->p, "expected 'goal SIDE hold \"Place\" on "
		    "DATE points N' or 'goal SIDE break points N', SIDE a side "
		    "declared above");
	if (strcmp(t[2].s, "hold") == 0) {
		if (n != 8 || strcmp(t[4].s, "on") != 0 ||
		    strcmp(t[6].s, "points") != 0)
			return scn_perr(&cp->p, "expected 'goal %s hold \"Place\" on "
			    "DATE points N'", t[1].s);
		g->kind = GOAL_HOLD;
		if (want_place(cp, t, n, 3, "the place to hold", &g->place) != 0 ||
		    want_date(&cp->p, t, n, 5, "the day it is held on", &g->day))
			return -1;
		if (cp->have_calendar && (g->day < c->start_day ||
		    g->day > c->end_day))
			return scn_perr(&cp->p, "%s is outside the calendar",
			    t[5].s);
		if (scn_want_int(&cp->p, t, n, 7, "points", 1, 1000,
		    &g->points) != 0)
			return -1;
	} else if (strcmp(t[2].s, "break") == 0) {
		if (n != 5 || strcmp(t[3].s, "points") != 0)
			return scn_perr(&cp->p, "expected 'goal %s break points N' "
			    "(points for each enemy column broken)", t[1].s);
		g->kind = GOAL_BREAK;
		g->place = -1;
		if (scn_want_int(&cp->p, t, n, 4, "points", 1, 1000,
		    &g->points) != 0)
			return -1;
	} else {
		return scn_perr(&cp->p, "a goal is 'hold' or 'break', not '%s'",
		    t[2].s);
	}
	g->line = cp->p.line;
	c->ngoals++;
	return 0;
}

/* ---- the order of battle, read as a scenario ----------------------------- */

/* Every column laid out on a scratch table, one unit a row, each line
 * numbered as the campaign file's line it comes from, and read by the
 * scenario parser.  Its messages name the campaign file's lines. */
static int
check_forces(struct cparser *cp)
{
	struct campaign *c = cp->c;
	struct text txt;
	int *map = NULL, nmap = 0, cap = 0, s, k, b, u, row = 0, rc = -1;
	struct battle *bt = NULL;
	struct err e2;

#define EMIT(line, ...) do {						\
		text_add(&txt, __VA_ARGS__);				\
		if (nmap == cap) {					\
			int *nm = realloc(map, (size_t)(cap + 64) *	\
			    sizeof(*map));				\
			if (nm == NULL)					\
				goto oom;				\
			map = nm;					\
			cap += 64;					\
		}							\
		map[nmap++] = (line);					\
	} while (0)

	text_init(&txt, 8u * 1024 * 1024);
	EMIT(1, "scenario \"check\"\n");
	EMIT(1, "ruleset %s\n", c->ruleset);
	EMIT(1, "table 1000 x 1000\n");
	for (s = 0; s < c->nsides; s++) {
		const struct cp_side *sd = &c->sides[s];
		char sname[BATTLE_NAME_MAX * 2 + 4];
		struct tok nt = { NULL, 1 };

		sname[0] = '\0';
		nt.s = (char *)sd->name;
		put_token(sname, sizeof(sname), &nt);
		EMIT(sd->line, "side %s %s %s\n", sd->id, sname, sd->tail);
		/* The side's army commander in a battle is a column's; here
		 * one that no name can clash with (a quote is no name's). */
		EMIT(sd->line, "commander \"(army of %s)\" army at 1,1\n", sd->id);
		for (k = 0; k < c->ncolumns; k++) {
			if (c->columns[k].side != s)
				continue;
			EMIT(c->columns[k].line, "wing \"(column %d)\" commander "
			    "\"%s\" at 2,2\n", k, c->columns[k].commander);
			for (b = 0; b < c->nbrigades; b++) {
				if (c->brigades[b].column != k)
					continue;
				EMIT(c->brigades[b].line, "brigade \"%s\" commander "
				    "\"%s\" at 3,3 wing \"(column %d)\"\n",
				    c->brigades[b].name, c->brigades[b].commander, k);
				for (u = 0; u < c->nunits; u++) {
					const struct cp_unit *un = &c->units[u];
					int band = row / 160, y = 5 + 6 * (row % 160), i;

					if (un->brigade != b)
						continue;
					row++;
					text_add(&txt, "unit \"");
					for (i = 0; un->name[i]; i++)
						text_add(&txt, "%s%c", un->name[i] == '"' ||
						    un->name[i] == '\\' ? "\\" : "",
						    un->name[i]);
					text_add(&txt, "\" %s stands %d sp ", un->opts,
					    un->nstands);
					for (i = 0; i < un->nstands; i++)
						text_add(&txt, "%s%d", i ? "," : "", un->sp[i]);
					text_add(&txt, " full ");
					for (i = 0; i < un->nstands; i++)
						text_add(&txt, "%s%d", i ? "," : "",
						    un->full[i]);
					EMIT(un->line, " at %d,%d facing 0 %s\n",
					    170 + 330 * band, y, un->form);
				}
			}
		}
	}
	if (txt.over) {
		err_set(cp->p.e, ERR_USER, "%s: the order of battle is too large "
		    "to check", cp->p.fname);
		goto out;
	}
	err_clear(&e2);
	if (scenario_parse(txt.s, txt.len, "\x01", 0, &bt, &e2) != 0) {
		/* "\x01:N: message" or "\x01: message" */
		const char *m = e2.msg;
		int ln = 0;

		if (m[0] == '\x01' && m[1] == ':') {
			m += 2;
			if (*m >= '0' && *m <= '9') {
				ln = atoi(m);
				while (*m >= '0' && *m <= '9')
					m++;
				if (*m == ':')
					m++;
			}
			while (*m == ' ')
				m++;
		}
		if (ln >= 1 && ln <= nmap)
			err_set(cp->p.e, ERR_USER, "%s:%d: %s", cp->p.fname,
			    map[ln - 1], m);
		else
			err_set(cp->p.e, ERR_USER, "%s: %s", cp->p.fname, m);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	err_set(cp->p.e, ERR_INTERNAL, "out of memory");
out:
#undef EMIT
	battle_free(bt);
	text_free(&txt);
	free(map);
	return rc;
}

static int
finish(struct cparser *cp)
{
	struct campaign *c = cp->c;
	int s, k, b, u, i;

	if (!cp->have_title)
		return scn_perr(&cp->p, "the file has no 'campaign \"Title\"' "
		    "line");
	if (c->rs == NULL)
		return scn_perr(&cp->p, "the file names no ruleset (ruleset %s)",
		    ruleset_all()[0]->name);
	if (!cp->have_calendar)
		return scn_perr(&cp->p, "the file has no 'calendar FIRST to LAST' "
		    "line");
	if (c->nsides < 2)
		return scn_perr(&cp->p, "a campaign needs at least two sides");
	for (s = 0; s < c->nsides; s++) {
		int any = 0;

		for (k = 0; k < c->ncolumns; k++)
			any |= c->columns[k].side == s;
		if (!any) {
			cp->p.line = c->sides[s].line;
			return scn_perr(&cp->p, "side '%s' has no columns",
			    c->sides[s].id);
		}
	}
	for (k = 0; k < c->ncolumns; k++) {
		int any = 0;

		for (b = 0; b < c->nbrigades; b++)
			any |= c->brigades[b].column == k;
		if (!any) {
			cp->p.line = c->columns[k].line;
			return scn_perr(&cp->p, "column \"%s\" has no brigades",
			    c->columns[k].name);
		}
	}
	for (b = 0; b < c->nbrigades; b++) {
		int any = 0;

		for (u = 0; u < c->nunits; u++)
			any |= c->units[u].brigade == b;
		if (!any) {
			cp->p.line = c->brigades[b].line;
			return scn_perr(&cp->p, "brigade \"%s\" has no units",
			    c->brigades[b].name);
		}
	}
	/* Every place can be reached from every other: a place no road
	 * reaches is a typing slip, not a strategy. */
	{
		int seen[CAMPAIGN_MAX_PLACES] = { 0 }, grew = 1;

		seen[0] = 1;
		while (grew) {
			grew = 0;
			for (i = 0; i < c->nroads; i++) {
				const struct cp_road *r = &c->roads[i];

				if (seen[r->a] != seen[r->b]) {
					seen[r->a] = seen[r->b] = 1;
					grew = 1;
				}
			}
		}
		for (i = 0; i < c->nplaces; i++)
			if (!seen[i]) {
				cp->p.line = c->places[i].line;
				return scn_perr(&cp->p, "no road reaches \"%s\" from \"%s\": "
				    "join it with a 'road' line", c->places[i].name,
				    c->places[0].name);
			}
	}
	/* A battlefield's zones: a field with a file needs one zone for
	 * every direction a road comes into the place from (the nearest
	 * given is taken for a direction without one, so at least one). */
	for (i = 0; i < c->nplaces; i++) {
		const struct cp_place *pl = &c->places[i];
		int d, any = 0;

		if (pl->field_path[0] == '\0')
			continue;
		for (d = 0; d < DIR_COUNT; d++)
			any |= pl->zone[d].set;
		if (!any) {
			cp->p.line = pl->line;
			return scn_perr(&cp->p, "the battlefield of \"%s\" has no "
			    "'zone' lines: give one for each direction forces "
			    "come from (zone south 0,0 72,14)", pl->name);
		}
	}
	if (c->nplaces == 0)
		return scn_perr(&cp->p, "the campaign has no places");
	return check_forces(cp);
}

static int
dispatch(struct cparser *cp, struct tok *t, int n)
{
	static const char *const keys[] = { "campaign", "ruleset", "calendar",
		"set", "place", "zone", "road", "side", "column", "brigade",
		"unit", "depot", "goal", "weather" };
	const char *w = t[0].s;

	if (strcmp(w, "zone") != 0)
		cp->cur_place = -1;
	if (strcmp(w, "campaign") == 0)
		return do_campaign(cp, t, n);
	if (!cp->have_title)
		return scn_perr(&cp->p, "the first declaration must be 'campaign "
		    "\"Title\"'");
	if (strcmp(w, "ruleset") == 0)
		return do_ruleset(cp, t, n);
	if (strcmp(w, "calendar") == 0)
		return do_calendar(cp, t, n);
	if (strcmp(w, "set") == 0)
		return do_set(cp, t, n);
	if (strcmp(w, "place") == 0)
		return do_place(cp, t, n);
	if (strcmp(w, "zone") == 0)
		return do_zone(cp, t, n);
	if (strcmp(w, "road") == 0)
		return do_road(cp, t, n);
	if (strcmp(w, "side") == 0)
		return do_side(cp, t, n);
	if (strcmp(w, "column") == 0)
		return do_column(cp, t, n);
	if (strcmp(w, "brigade") == 0)
		return do_brigade(cp, t, n);
	if (strcmp(w, "unit") == 0)
		return do_unit(cp, t, n);
	if (strcmp(w, "depot") == 0)
		return do_depot(cp, t, n);
	if (strcmp(w, "goal") == 0)
		return do_goal(cp, t, n);
	if (strcmp(w, "weather") == 0)
		return do_weather(cp, t, n);
	{
		char list[256];

		list_words(keys, (int)(sizeof(keys) / sizeof(keys[0])), list,
		    sizeof(list));
		return scn_perr(&cp->p, "unknown keyword '%s' (a campaign file's "
		    "lines start with %s)", w, list);
	}
}

/* Battlefields from the files beside the campaign file. */
static int
read_beside(void *ctx, const char *name, char **text, size_t *len,
    struct err *e)
{
	char path[CAMPAIGN_PATH_MAX * 3];

	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", (const char *)ctx, name);
	return scenario_expand_file(path, text, len, e);
}

int
campaign_parse(const char *text, size_t len, const char *fname,
    const char *dir, struct campaign **out, struct err *e)
{
	struct cp_fields f = { read_beside, (void *)dir };

	return campaign_parse_with(text, len, fname, dir != NULL ? &f : NULL,
	    out, e);
}

int
campaign_parse_with(const char *text, size_t len, const char *fname,
    const struct cp_fields *fields, struct campaign **out, struct err *e)
{
	struct cparser cp;
	struct tok t[MAX_TOKENS];
	char *line = NULL;
	size_t pos = 0;
	int rc = -1;

	*out = NULL;
	memset(&cp, 0, sizeof(cp));
	cp.p.fname = fname;
	cp.p.e = e;
	cp.fields = fields;
	cp.cur_place = cp.cur_side = cp.cur_column = cp.cur_brigade = -1;
	if (len > CAMPAIGN_MAX_BYTES) {
		err_set(e, ERR_USER, "%s: the file is larger than %u bytes", fname,
		    CAMPAIGN_MAX_BYTES);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		err_set(e, ERR_USER, "%s: the file holds a NUL byte; a campaign "
		    "is plain text", fname);
		return -1;
	}
	if (utf8_valid_prefix(text, len) < len) {
		size_t ok = utf8_valid_prefix(text, len), k;
		int ln = 1;

		for (k = 0; k < ok; k++)
			ln += text[k] == '\n';
		err_set(e, ERR_USER, "%s:%d: the text is not valid UTF-8; save "
		    "the file as UTF-8", fname, ln);
		return -1;
	}
	cp.c = calloc(1, sizeof(*cp.c));
	line = malloc(SCENARIO_LINE_MAX + 1);
	if (cp.c == NULL || line == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto out;
	}
	cp.c->halves = 1;
	cp.c->goal_margin = 1;
	cp.c->winner = -1;
	cp.c->engine = campaign_engine_now();
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;
		int n;

		cp.p.line++;
		if (l > SCENARIO_LINE_MAX) {
			scn_perr(&cp.p, "the line is longer than %d characters",
			    SCENARIO_LINE_MAX);
			goto out;
		}
		memcpy(line, text + pos, l);
		line[l] = '\0';
		pos += l + (nl ? 1 : 0);
		n = scn_tokenize(&cp.p, line, t);
		if (n < 0)
			goto out;
		if (n == 0)
			continue;
		if (t[0].quoted) {
			scn_perr(&cp.p, "a line must start with a keyword, not a name");
			goto out;
		}
		if (dispatch(&cp, t, n) != 0)
			goto out;
	}
	if (finish(&cp) != 0)
		goto out;
	*out = cp.c;
	cp.c = NULL;
	rc = 0;
out:
	free(line);
	campaign_free(cp.c);
	return rc;
}

int
campaign_load_file(const char *path, struct campaign **out, struct err *e)
{
	char *text = NULL, dir[CAMPAIGN_PATH_MAX * 2];
	const char *slash;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (scenario_read_file(path, CAMPAIGN_MAX_BYTES, &text, &len, e) != 0)
		return -1;
	slash = strrchr(path, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	rc = campaign_parse(text, len, path, dir, out, e);
	free(text);
	return rc;
}
