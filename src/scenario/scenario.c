/*
 * scenario.c - the scenario file parser (format: docs/scenario.md).
 *
 * Workload: one file of a few hundred lines, read once when a game is
 * created and again whenever a game's terrain is needed; it is hostile
 * only in the sense of being hand-written, so every line is checked and
 * every error names its line.
 *
 * Each line is cut into tokens (words, quoted names) and dispatched on its
 * first word.  Nesting is by what came last: a unit belongs to the last
 * brigade, a stand to the last unit.
 */
#include "scenario/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/result.h"
#include "core/ruleset.h"

int
scn_perr(struct parser *p, const char *fmt, ...)
{
	char msg[ERR_MSG_MAX - 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(p->e, ERR_USER, "%s:%d: %s", p->fname, p->line, msg);
}

int
scn_tokenize(struct parser *p, char *line, struct tok *t)
{
	int n = 0;
	char *s = line;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0' || *s == '#')
			break;
		if (n == MAX_TOKENS)
			return scn_perr(p, "too many words on one line (at most %d)",
			    MAX_TOKENS);
		if (*s == '"') {
			char *w = ++s, *o = s;

			while (*s && *s != '"') {
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				*o++ = *s++;
			}
			if (*s != '"')
				return scn_perr(p, "a name is missing its closing "
				    "quote (\")");
			*o = '\0';
			s++;
			if (*s && *s != ' ' && *s != '\t' && *s != '\r')
				return scn_perr(p, "a closing quote must be followed "
				    "by a space");
			t[n].s = w;
			t[n].quoted = 1;
			n++;
		} else {
			t[n].s = s;
			t[n].quoted = 0;
			n++;
			while (*s && *s != ' ' && *s != '\t' && *s != '\r' &&
			    *s != '#')
				s++;
			if (*s == '#') {
				*s = '\0';
				break;
			}
			if (*s)
				*s++ = '\0';
		}
	}
	return n;
}

int
scn_want_name(struct parser *p, struct tok *t, int n, int i, const char *what,
    char *out, size_t size)
{
	if (i >= n || !t[i].quoted)
		return scn_perr(p, "expected %s in double quotes, for example "
		    "\"%s\"", what, strcmp(what, "a side name") == 0 ?
		    "Tarleton's column" : "7th Foot");
	if (t[i].s[0] == '\0')
		return scn_perr(p, "%s may not be empty", what);
	if (strlen(t[i].s) >= size)
		return scn_perr(p, "%s is too long (at most %zu characters)", what,
		    size - 1);
	memcpy(out, t[i].s, strlen(t[i].s) + 1);
	return 0;
}

int
scn_want_int(struct parser *p, struct tok *t, int n, int i, const char *what,
    int lo, int hi, int *out)
{
	char *end = NULL;
	long v;

	if (i >= n || t[i].quoted)
		return scn_perr(p, "expected %s (a whole number from %d to %d)",
		    what, lo, hi);
	errno = 0;
	v = strtol(t[i].s, &end, 10);
	if (errno || end == t[i].s || *end || v < lo || v > hi)
		return scn_perr(p, "'%s' is not a valid %s: expected a whole number "
		    "from %d to %d", t[i].s, what, lo, hi);
	*out = (int)v;
	return 0;
}

int
scn_parse_point(struct parser *p, const char *s, struct pt *out)
{
	char buf[64];
	char *comma;

	if (strlen(s) >= sizeof(buf) || (comma = strchr(s, ',')) == NULL)
		return scn_perr(p, "'%s' is not a point: write x,y in inches with "
		    "no space, for example 12,30.5", s);
	memcpy(buf, s, strlen(s) + 1);
	buf[comma - s] = '\0';
	if (geom_parse_fx(buf, &out->x) != 0 ||
	    geom_parse_fx(buf + (comma - s) + 1, &out->y) != 0)
		return scn_perr(p, "'%s' is not a point: write x,y in inches with "
		    "no space and at most two decimals, for example 12,30.5", s);
	return 0;
}

int
scn_check_on_table(struct parser *p, struct pt pt, const char *what)
{
	char bx[24], by[24], bw[24], bd[24];

	if (!p->have_table)
		return scn_perr(p, "the table must be declared before %s "
		    "(table WIDTH x DEPTH)", what);
	if (pt.x < 0 || pt.y < 0 || pt.x > p->b->width || pt.y > p->b->depth)
		return scn_perr(p, "%s at %s,%s is off the table (0,0 to %s,%s)",
		    what, geom_fmt_fx(pt.x, bx, sizeof(bx)),
		    geom_fmt_fx(pt.y, by, sizeof(by)),
		    geom_fmt_fx(p->b->width, bw, sizeof(bw)),
		    geom_fmt_fx(p->b->depth, bd, sizeof(bd)));
	return 0;
}

int
scn_want_at(struct parser *p, struct tok *t, int n, int i, const char *what,
    struct pt *out)
{
	if (i + 1 >= n || strcmp(t[i].s, "at") != 0 || t[i].quoted)
		return scn_perr(p, "expected 'at x,y' giving where %s stands", what);
	if (scn_parse_point(p, t[i + 1].s, out) != 0)
		return -1;
	return scn_check_on_table(p, *out, what);
}

/* victory [exhausted N] [collapsed N] [margin N] [army-break on|off] */
static int
do_victory(struct parser *p, struct tok *t, int n)
{
	struct victory *v = &p->b->victory;
	int i;

	if (n < 3)
		return scn_perr(p, "expected 'victory' and one or more of 'exhausted "
		    "N', 'collapsed N', 'margin N', 'army-break on|off'");
	for (i = 1; i < n; i += 2) {
		if (i + 1 >= n)
			return scn_perr(p, "'%s' needs a value", t[i].s);
		if (strcmp(t[i].s, "exhausted") == 0) {
			if (scn_want_int(p, t, n, i + 1, "points for an enemy brigade "
			    "exhausted", 0, 1000, &v->exhausted) != 0)
				return -1;
		} else if (strcmp(t[i].s, "collapsed") == 0) {
			if (scn_want_int(p, t, n, i + 1, "points for an enemy brigade "
			    "collapsed", 0, 1000, &v->collapsed) != 0)
				return -1;
		} else if (strcmp(t[i].s, "margin") == 0) {
			if (scn_want_int(p, t, n, i + 1, "winning margin in points",
			    1, 1000, &v->margin) != 0)
				return -1;
		} else if (strcmp(t[i].s, "army-break") == 0) {
			if (strcmp(t[i + 1].s, "on") == 0)
				v->army_break = 1;
			else if (strcmp(t[i + 1].s, "off") == 0)
				v->army_break = 0;
			else
				return scn_perr(p, "'army-break' takes 'on' or 'off', "
				    "not '%s'", t[i + 1].s);
		} else {
			return scn_perr(p, "unexpected '%s': 'victory' takes "
			    "'exhausted N', 'collapsed N', 'margin N' and "
			    "'army-break on|off'", t[i].s);
		}
	}
	return 0;
}

/* objective "Name" at x,y radius R points N */
static int
do_objective(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	struct objective *o;
	int i;

	if (b->nobjectives == BATTLE_MAX_OBJECTIVES)
		return scn_perr(p, "too many objectives (at most %d)",
		    BATTLE_MAX_OBJECTIVES);
	o = &b->objectives[b->nobjectives];
	memset(o, 0, sizeof(*o));
	if (scn_want_name(p, t, n, 1, "the objective's name", o->name,
	    sizeof(o->name)) != 0)
		return -1;
	for (i = 0; i < b->nobjectives; i++)
		if (strcmp(b->objectives[i].name, o->name) == 0)
			return scn_perr(p, "objective \"%s\" is declared twice",
			    o->name);
	if (scn_want_at(p, t, n, 2, "the objective", &o->at) != 0)
		return -1;
	o->radius = -1;
	o->points = -1;
	for (i = 4; i < n; i += 2) {
		if (i + 1 >= n)
			return scn_perr(p, "'%s' needs a value", t[i].s);
		if (strcmp(t[i].s, "radius") == 0) {
			if (geom_parse_fx(t[i + 1].s, &o->radius) != 0 ||
			    o->radius <= 0 || o->radius > FX(100))
				return scn_perr(p, "'%s' is not a radius: expected "
				    "inches above 0, at most 100, for example "
				    "'radius 3'", t[i + 1].s);
		} else if (strcmp(t[i].s, "points") == 0) {
			if (scn_want_int(p, t, n, i + 1, "points for holding it", 0,
			    1000, &o->points) != 0)
				return -1;
		} else {
			return scn_perr(p, "unexpected '%s': an objective takes "
			    "'radius R' and 'points N'", t[i].s);
		}
	}
	if (o->radius < 0 || o->points < 0)
		return scn_perr(p, "expected 'objective \"Name\" at x,y radius R "
		    "points N'");
	b->nobjectives++;
	return 0;
}

/* deploy SIDE x0,y0 x1,y1: where the side may deploy; a battle with any
 * opens with a deployment step (core/deploy.h). */
static int
do_deploy(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	struct deploy_zone *z;
	struct pt a, c;
	int side;

	if (n != 4 || t[1].quoted)
		return scn_perr(p, "expected 'deploy SIDE x0,y0 x1,y1': the side's "
		    "id and two corners of the ground it may deploy on");
	side = battle_side(b, t[1].s);
	if (side < 0)
		return scn_perr(p, "'deploy %s': no side '%s' is declared before "
		    "this line", t[1].s, t[1].s);
	if (b->nzones == BATTLE_MAX_ZONES)
		return scn_perr(p, "too many deployment zones (at most %d)",
		    BATTLE_MAX_ZONES);
	if (scn_parse_point(p, t[2].s, &a) != 0 ||
	    scn_check_on_table(p, a, "the zone's corner") != 0 ||
	    scn_parse_point(p, t[3].s, &c) != 0 ||
	    scn_check_on_table(p, c, "the zone's corner") != 0)
		return -1;
	if (a.x >= c.x || a.y >= c.y)
		return scn_perr(p, "the zone %s %s is empty: give its corner "
		    "nearest 0,0 first, then the far one, for example "
		    "'deploy %s 0,0 72,12'", t[2].s, t[3].s, t[1].s);
	z = &b->zones[b->nzones++];
	z->side = side;
	z->x0 = a.x;
	z->y0 = a.y;
	z->x1 = c.x;
	z->y1 = c.y;
	return 0;
}

static int
do_scenario(struct parser *p, struct tok *t, int n)
{
	if (p->have_title)
		return scn_perr(p, "'scenario' may appear only once");
	if (scn_want_name(p, t, n, 1, "the scenario's title", p->b->title,
	    sizeof(p->b->title)) != 0)
		return -1;
	if (n > 2)
		return scn_perr(p, "unexpected '%s' after the title", t[2].s);
	p->have_title = 1;
	return 0;
}

static int
do_ruleset(struct parser *p, struct tok *t, int n)
{
	if (p->rs != NULL)
		return scn_perr(p, "'ruleset' may appear only once");
	if (n != 2)
		return scn_perr(p, "expected 'ruleset NAME', for example "
		    "'ruleset %s'", ruleset_all()[0]->name);
	p->rs = ruleset_find(t[1].s);
	if (p->rs == NULL) {
		const struct ruleset *const *all = ruleset_all();
		char known[256];
		size_t k = 0;
		int i;

		known[0] = '\0';
		for (i = 0; all[i] != NULL && k < sizeof(known); i++)
			k += (size_t)snprintf(known + k, sizeof(known) - k, "%s%s",
			    i ? ", " : "", all[i]->name);
		return scn_perr(p, "unknown ruleset '%s': this build knows %s",
		    t[1].s, known);
	}
	snprintf(p->b->ruleset, sizeof(p->b->ruleset), "%s", p->rs->name);
	p->b->minutes = p->rs->turn_minutes;
	p->b->road_spacer = p->rs->road_spacer;
	return 0;
}

static int
do_table(struct parser *p, struct tok *t, int n)
{
	fx w, d;

	if (p->have_table)
		return scn_perr(p, "'table' may appear only once");
	if (n != 4 || strcmp(t[2].s, "x") != 0 ||
	    geom_parse_fx(t[1].s, &w) != 0 || geom_parse_fx(t[3].s, &d) != 0)
		return scn_perr(p, "expected 'table WIDTH x DEPTH' in inches, for "
		    "example 'table 72 x 48'");
	if (w < FX(6) || d < FX(6) || w > FX(1000) || d > FX(1000))
		return scn_perr(p, "a table must be between 6 and 1000 inches "
		    "each way");
	p->b->width = w;
	p->b->depth = d;
	p->have_table = 1;
	return 0;
}

static int
do_turns(struct parser *p, struct tok *t, int n)
{
	int i;

	if (scn_want_int(p, t, n, 1, "number of turns", 1, 200, &p->b->turns) != 0)
		return -1;
	for (i = 2; i < n; i += 2) {
		if (i + 1 >= n)
			return scn_perr(p, "'%s' needs a value", t[i].s);
		if (strcmp(t[i].s, "first") == 0) {
			int hh, mm;
			char c;

			if (sscanf(t[i + 1].s, "%d:%d%c", &hh, &mm, &c) != 2 ||
			    hh < 0 || hh > 23 || mm < 0 || mm > 59)
				return scn_perr(p, "'%s' is not a time of day: "
				    "write HH:MM, for example 07:00",
				    t[i + 1].s);
			p->b->first_minute = hh * 60 + mm;
			p->have_first = 1;
		} else if (strcmp(t[i].s, "minutes") == 0) {
			if (scn_want_int(p, t, n, i + 1, "number of minutes a turn",
			    1, 1440, &p->b->minutes) != 0)
				return -1;
		} else {
			return scn_perr(p, "unexpected '%s': 'turns' takes 'first "
			    "HH:MM' and 'minutes N'", t[i].s);
		}
	}
	return 0;
}

static int
do_sequence(struct parser *p, struct tok *t, int n)
{
	int i;

	if (p->have_sequence)
		return scn_perr(p, "'sequence' may appear only once");
	if (n < 2)
		return scn_perr(p, "expected 'sequence alternate SIDE SIDE' or "
		    "'sequence simultaneous'");
	if (strcmp(t[1].s, "simultaneous") == 0) {
		return scn_perr(p, "'sequence simultaneous' is not supported by "
		    "this version yet; use 'sequence alternate'");
	} else if (strcmp(t[1].s, "alternate") != 0) {
		return scn_perr(p, "unknown sequence '%s': expected alternate",
		    t[1].s);
	}
	p->b->sequence = SEQ_ALTERNATE;
	/* Side ids are checked once all sides are known. */
	if (n - 2 > BATTLE_MAX_SIDES)
		return scn_perr(p, "too many sides in the sequence");
	for (i = 2; i < n; i++) {
		int s = battle_side(p->b, t[i].s), k;

		for (k = 2; k < i; k++)
			if (strcasecmp(t[k].s, t[i].s) == 0)
				return scn_perr(p, "side '%s' is named twice in the "
				    "sequence: name each side once", t[i].s);
		if (s < 0) {
			/* The sides may be declared later: remember the
			 * names in the side table order by reserving them. */
			if (p->b->nsides >= BATTLE_MAX_SIDES)
				return scn_perr(p, "too many sides");
			s = p->b->nsides++;
			snprintf(p->b->sides[s].id, sizeof(p->b->sides[s].id),
			    "%s", t[i].s);
			p->b->sides[s].name[0] = '\0';
		}
		p->b->side_order[i - 2] = s;
	}
	p->have_sequence = n - 2;
	if (p->have_sequence == 0)
		p->have_sequence = -1;
	p->seq_line = p->line;
	return 0;
}

static int
do_set(struct parser *p, struct tok *t, int n)
{
	const struct rule_param *def;
	struct setting *s;
	int v;

	if (p->rs == NULL)
		return scn_perr(p, "'ruleset' must come before 'set'");
	if (n != 3)
		return scn_perr(p, "expected 'set NAME VALUE'");
	def = ruleset_param_def(p->rs, t[1].s);
	if (def == NULL)
		return scn_perr(p, "the %s ruleset has no number named '%s' (see "
		    "'despatch rules %s')", p->rs->name, t[1].s, p->rs->name);
	if (def->unit == PARAM_INCHES) {
		fx d;
		char lo[24], hi[24];

		if (geom_parse_fx(t[2].s, &d) != 0 || d < def->min || d > def->max)
			return scn_perr(p, "'%s' is not a valid %s: expected inches from "
			    "%s to %s, for example 'set %s 6.5'", t[2].s, def->name,
			    geom_fmt_fx(def->min, lo, sizeof(lo)),
			    geom_fmt_fx(def->max, hi, sizeof(hi)), def->name);
		v = d;
	} else if (scn_want_int(p, t, n, 2, def->unit == PARAM_PERCENT ?
	    "percentage" : def->name, def->min, def->max, &v) != 0) {
		return -1;
	}
	if (p->b->nsettings == BATTLE_MAX_SETTINGS)
		return scn_perr(p, "too many 'set' lines (at most %d)",
		    BATTLE_MAX_SETTINGS);
	s = &p->b->settings[p->b->nsettings++];
	snprintf(s->name, sizeof(s->name), "%s", t[1].s);
	s->value = v;
	return 0;
}

static int
do_terrain(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	struct terrain *tr;
	enum terrain_kind k;
	int i = 3, is_line;

	if (n < 2 || battle_terrain_kind(t[1].s, &k) != 0)
		return scn_perr(p, "unknown terrain kind '%s': expected one of "
		    "wood, forest, thicket, swamp, marsh, hill, crops, broken, "
		    "camp, town, village, works, ford, bridge, treeline, fence, "
		    "hedge, road, stream, river, sunken-road",
		    n < 2 ? "" : t[1].s);
	if (b->nterrain == BATTLE_MAX_TERRAIN)
		return scn_perr(p, "too much terrain (at most %d pieces)",
		    BATTLE_MAX_TERRAIN);
	tr = &b->terrain[b->nterrain];
	memset(tr, 0, sizeof(*tr));
	tr->kind = k;
	if (scn_want_name(p, t, n, 2, "the terrain's name", tr->name,
	    sizeof(tr->name)) != 0)
		return -1;
	is_line = k >= T_FIRST_LINE;
	for (; i < n; i++) {
		if (strcmp(t[i].s, "level") == 0) {
			if (k != T_HILL)
				return scn_perr(p, "'level' belongs to hills only");
			if (scn_want_int(p, t, n, i + 1, "contour level", 1, 9,
			    &tr->level) != 0)
				return -1;
			i++;
		} else if (strcmp(t[i].s, "marshy") == 0) {
			if (k != T_STREAM)
				return scn_perr(p, "'marshy' belongs to streams only");
			tr->marshy = 1;
		} else {
			break;
		}
	}
	if (k == T_HILL && tr->level == 0)
		return scn_perr(p, "a hill needs 'level N' (1 to 9) before its "
		    "polygon");
	if (i >= n || strcmp(t[i].s, is_line ? "line" : "poly") != 0)
		return scn_perr(p, "%s is %s: expected '%s' and its points",
		    t[1].s, is_line ? "a line" : "an area",
		    is_line ? "line x,y x,y ..." : "poly x,y x,y x,y ...");
	i++;
	if (n - i < (is_line ? 2 : 3))
		return scn_perr(p, "%s needs at least %d points", is_line ?
		    "a line" : "an area", is_line ? 2 : 3);
	tr->first_pt = b->npoints;
	for (; i < n; i++) {
		struct pt pt;

		if (b->npoints == BATTLE_MAX_POINTS)
			return scn_perr(p, "too many terrain points (at most %d)",
			    BATTLE_MAX_POINTS);
		if (scn_parse_point(p, t[i].s, &pt) != 0 ||
		    scn_check_on_table(p, pt, "a terrain point") != 0)
			return -1;
		b->points[b->npoints++] = pt;
		tr->npts++;
	}
	b->nterrain++;
	return 0;
}

/* The ruleset's word in list, or NULL. */
static const char *
word_of(const char *const *list, const char *w)
{
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(*list, w) == 0)
			return *list;
	return NULL;
}

/* What name already is ("a unit", "a commander", "a brigade", or
 * "another alias" for an alias other than skip_alias), ASCII case
 * ignored; NULL if nothing. */
static const char *
name_taken(const struct battle *b, const char *name, int skip_alias)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (strcasecmp(b->units[i].name, name) == 0)
			return "a unit";
	for (i = 0; i < b->ncommanders; i++)
		if (strcasecmp(b->commanders[i].name, name) == 0)
			return "a commander";
	for (i = 0; i < b->nbrigades; i++)
		if (strcasecmp(b->brigades[i].name, name) == 0)
			return "a brigade";
	for (i = 0; i < b->naliases; i++)
		if (i != skip_alias && strcasecmp(b->aliases[i].name, name) == 0)
			return "another alias";
	return NULL;
}

/* alias "Name": another name for the unit, commander or brigade declared
 * on the line before (stand lines between them aside), which orders may
 * use as they use its own. */
static int
do_alias(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	struct alias *a;
	const char *taken;

	if (p->named_of < 0)
		return scn_perr(p, "'alias' must follow a unit, commander or "
		    "brigade line: it gives that one another name (alias \"NC "
		    "Rifles\" under unit \"North Carolina Riflemen\")");
	if (b->naliases == BATTLE_MAX_ALIASES)
		return scn_perr(p, "too many aliases (at most %d)",
		    BATTLE_MAX_ALIASES);
	a = &b->aliases[b->naliases];
	if (scn_want_name(p, t, n, 1, "the other name", a->name,
	    sizeof(a->name)) != 0)
		return -1;
	if (n > 2)
		return scn_perr(p, "unexpected '%s' after the name (one alias a "
		    "line)", t[2].s);
	if (scn_orderable_name(p, a->name) != 0)
		return -1;
	taken = name_taken(b, a->name, -1);
	if (taken != NULL)
		return scn_perr(p, "\"%s\" is already the name of %s here: an "
		    "alias must be a name of its own", a->name, taken);
	a->of = (enum alias_of)p->named_of;
	a->idx = p->named_idx;
	p->alias_line[b->naliases++] = p->line;
	return 0;
}

/* A line in the ruleset's own words (struct ruleset.scenario_words),
 * which its reader takes; else an unknown keyword, said with the words
 * there are. */
static int
own_words(struct parser *p, struct tok *t, int n)
{
	const struct ruleset *const *all = ruleset_all();
	const char *w[MAX_TOKENS];
	int quoted[MAX_TOKENS], i;
	char msg[ERR_MSG_MAX], more[200] = "";

	if (p->rs != NULL && word_of(p->rs->scenario_words, t[0].s) != NULL) {
		struct scenario_line l = { w, quoted, n, p->line };

		for (i = 0; i < n; i++) {
			w[i] = t[i].s;
			quoted[i] = t[i].quoted;
		}
		msg[0] = '\0';
		if (p->rs->scenario_line(p->b, p->scratch, &l, msg,
		    sizeof(msg)) != 0)
			return scn_perr(p, "%s", msg);
		return 0;
	}
	for (i = 0; all[i] != NULL; i++) {
		if (word_of(all[i]->scenario_words, t[0].s) == NULL)
			continue;
		if (p->rs == NULL)
			return scn_perr(p, "'ruleset' must come before '%s' (a "
			    "word of ruleset %s's)", t[0].s, all[i]->name);
		return scn_perr(p, "'%s' is a word of ruleset %s's, and this "
		    "scenario plays %s, which has no use for it", t[0].s,
		    all[i]->name, p->rs->name);
	}
	for (i = 0; p->rs != NULL && p->rs->scenario_words != NULL &&
	    p->rs->scenario_words[i] != NULL; i++) {
		size_t l = strlen(more);

		snprintf(more + l, sizeof(more) - l, ", %s",
		    p->rs->scenario_words[i]);
	}
	return scn_perr(p, "unknown keyword '%s' (expected scenario, ruleset, "
	    "table, turns, sequence, set, terrain, side, commander, wing, "
	    "brigade, unit, stand, alias, victory%s or objective)", t[0].s, more);
}

/* Once the file is read: the ruleset's reader's say on its lines. */
static int
own_words_end(struct parser *p)
{
	char msg[ERR_MSG_MAX];
	int line = p->line;

	if (p->rs->scenario_end == NULL)
		return 0;
	msg[0] = '\0';
	if (p->rs->scenario_end(p->b, p->scratch, &line, msg, sizeof(msg)) == 0)
		return 0;
	p->line = line;
	return scn_perr(p, "%s", msg);
}

static int
finish(struct parser *p)
{
	struct battle *b = p->b;
	int s, i;

	if (!p->have_title)
		return scn_perr(p, "the file has no 'scenario \"Title\"' line");
	if (p->rs == NULL)
		return scn_perr(p, "the file names no ruleset (ruleset %s)",
		    ruleset_all()[0]->name);
	if (!p->have_table)
		return scn_perr(p, "the file has no 'table WIDTH x DEPTH' line");
	if (b->nsides < 2)
		return scn_perr(p, "a battle needs at least two sides");
	for (s = 0; s < b->nsides; s++) {
		int army = 0, units = 0;

		if (b->sides[s].name[0] == '\0') {
			p->line = p->seq_line;
			return scn_perr(p, "the sequence names side '%s', which is "
			    "never declared with a 'side' line", b->sides[s].id);
		}
		for (i = 0; i < b->ncommanders; i++)
			if (b->commanders[i].side == s &&
			    b->commanders[i].rank == RANK_ARMY)
				army = 1;
		for (i = 0; i < b->nunits; i++)
			if (b->units[i].side == s)
				units++;
		if (!army)
			return scn_perr(p, "side '%s' has no army commander "
			    "(commander \"Name\" army at x,y)", b->sides[s].id);
		if (units == 0)
			return scn_perr(p, "side '%s' has no units", b->sides[s].id);
	}
	for (i = 0; i < b->nunits; i++)
		if (b->units[i].nstands == 0) {
			p->line = p->unit_line[i];
			return scn_perr(p, "unit \"%s\" has no stands: give 'stands N sp "
			    "... at x,y facing F' on its line, or 'stand' lines below "
			    "it", b->units[i].name);
		}
	for (i = 0; i < b->nbrigades; i++) {
		int u, any = 0;

		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == i)
				any = 1;
		if (!any) {
			p->line = p->brigade_line[i];
			return scn_perr(p, "brigade \"%s\" has no units", b->brigades[i].name);
		}
	}
	/* An alias declared before a unit of the same name. */
	for (i = 0; i < b->naliases; i++) {
		const char *taken = name_taken(b, b->aliases[i].name, i);

		if (taken != NULL) {
			p->line = p->alias_line[i];
			return scn_perr(p, "\"%s\" is also the name of %s here: an "
			    "alias must be a name of its own", b->aliases[i].name,
			    taken);
		}
	}
	if (scn_check_overlaps(p) != 0)
		return -1;
	if (p->have_sequence <= 0) {
		for (s = 0; s < b->nsides; s++)
			b->side_order[s] = s;
	} else if (p->have_sequence != b->nsides) {
		return scn_perr(p, "the sequence must name every side once");
	}
	if (b->turns == 0)
		b->turns = 12;
	if (b->minutes == 0)
		b->minutes = 15;
	if (!p->have_first)
		b->first_minute = 12 * 60;
	return own_words_end(p);
}

int
scenario_parse(const char *text, size_t len, const char *fname,
    int line_offset, struct battle **out, struct err *e)
{
	struct parser p;
	struct tok t[MAX_TOKENS];
	char *line = NULL;
	size_t pos = 0;
	int rc = -1, cq, arr, ncmd;

	*out = NULL;
	memset(&p, 0, sizeof(p));
	p.fname = fname;
	p.e = e;
	p.cur_side = p.cur_brigade = p.cur_unit = -1;
	p.named_of = -1;
	p.line = line_offset;
	for (pos = 0; pos < len && strchr(" \t\r\n", text[pos]) != NULL &&
	    text[pos] != '\0'; pos++)
		;
	if (pos == len) {
		err_set(e, ERR_USER, "%s: the file is empty; a scenario starts "
		    "with 'scenario \"Title\"' (see docs/scenario.md)", fname);
		return -1;
	}
	pos = 0;
	if (len > SCENARIO_MAX_BYTES) {
		err_set(e, ERR_USER, "%s: the file is larger than %u bytes",
		    fname, SCENARIO_MAX_BYTES);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		err_set(e, ERR_USER, "%s: the file holds a NUL byte; a scenario "
		    "is plain text", fname);
		return -1;
	}
	/* Every name ends up in mail, which must be UTF-8: refuse the file
	 * here, at its line, not at 'start' when the welcome is written. */
	{
		size_t ok = utf8_valid_prefix(text, len), k;
		int ln = line_offset + 1, col = 1;

		if (ok < len) {
			for (k = 0; k < ok; k++) {
				if (text[k] == '\n') {
					ln++;
					col = 1;
				} else if (((unsigned char)text[k] & 0xc0) != 0x80) {
					col++;
				}
			}
			err_set(e, ERR_USER, "%s:%d: the text is not valid UTF-8 (byte "
			    "0x%02X at column %d); save the file as UTF-8", fname, ln,
			    (unsigned char)text[ok], col);
			return -1;
		}
	}
	p.b = battle_new();
	line = malloc(SCENARIO_LINE_MAX + 1);
	if (p.b == NULL || line == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto out;
	}
	result_defaults(&p.b->victory);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;
		int n;

		p.line++;
		if (l > SCENARIO_LINE_MAX) {
			scn_perr(&p, "the line is longer than %d characters",
			    SCENARIO_LINE_MAX);
			goto out;
		}
		memcpy(line, text + pos, l);
		line[l] = '\0';
		pos += l + (nl ? 1 : 0);
		n = scn_tokenize(&p, line, t);
		if (n < 0)
			goto out;
		if (n == 0)
			continue;
		if (t[0].quoted) {
			scn_perr(&p, "a line must start with a keyword, not a name");
			goto out;
		}
		if (!p.have_title && strcmp(t[0].s, "scenario") != 0) {
			scn_perr(&p, "the first declaration must be 'scenario "
			    "\"Title\"'");
			goto out;
		}
		/* A commander's line (army, unit, wing or brigade) may end
		 * with his command quality. */
		/* ... and, a reinforcement's, with the turn he comes on. */
		arr = 0;
		if ((strcmp(t[0].s, "commander") == 0 ||
		    strcmp(t[0].s, "brigade") == 0 || strcmp(t[0].s, "wing") == 0) &&
		    n >= 4 && !t[n - 2].quoted && strcmp(t[n - 2].s, "arrives") == 0) {
			if (scn_want_int(&p, t, n, n - 1, "the turn he comes on", 1,
			    999, &arr) != 0)
				goto out;
			n -= 2;
		}
		cq = 0;
		if ((strcmp(t[0].s, "commander") == 0 ||
		    strcmp(t[0].s, "brigade") == 0 || strcmp(t[0].s, "wing") == 0) &&
		    n >= 4 && !t[n - 2].quoted && strcmp(t[n - 2].s, "quality") == 0) {
			if (scn_want_int(&p, t, n, n - 1, "command quality", 1, 5,
			    &cq) != 0)
				goto out;
			n -= 2;
		}
		ncmd = p.b->ncommanders;
		if (strcmp(t[0].s, "scenario") == 0)
			n = do_scenario(&p, t, n);
		else if (strcmp(t[0].s, "ruleset") == 0)
			n = do_ruleset(&p, t, n);
		else if (strcmp(t[0].s, "table") == 0)
			n = do_table(&p, t, n);
		else if (strcmp(t[0].s, "turns") == 0)
			n = do_turns(&p, t, n);
		else if (strcmp(t[0].s, "sequence") == 0)
			n = do_sequence(&p, t, n);
		else if (strcmp(t[0].s, "set") == 0)
			n = do_set(&p, t, n);
		else if (strcmp(t[0].s, "terrain") == 0)
			n = do_terrain(&p, t, n);
		else if (strcmp(t[0].s, "side") == 0)
			n = scn_do_side(&p, t, n);
		else if (strcmp(t[0].s, "commander") == 0)
			n = scn_do_commander(&p, t, n);
		else if (strcmp(t[0].s, "brigade") == 0)
			n = scn_do_brigade(&p, t, n);
		else if (strcmp(t[0].s, "unit") == 0)
			n = scn_do_unit(&p, t, n);
		else if (strcmp(t[0].s, "stand") == 0)
			n = scn_do_stand(&p, t, n);
		else if (strcmp(t[0].s, "victory") == 0)
			n = do_victory(&p, t, n);
		else if (strcmp(t[0].s, "wing") == 0)
			n = scn_do_wing(&p, t, n);
		else if (strcmp(t[0].s, "objective") == 0)
			n = do_objective(&p, t, n);
		else if (strcmp(t[0].s, "alias") == 0)
			n = do_alias(&p, t, n);
		else if (strcmp(t[0].s, "deploy") == 0)
			n = do_deploy(&p, t, n);
		else
			n = own_words(&p, t, n);
		if (n < 0)
			goto out;
		/* What the line declared, for an alias after it. */
		if (strcmp(t[0].s, "unit") == 0) {
			p.named_of = ALIAS_UNIT;
			p.named_idx = p.cur_unit;
		} else if (strcmp(t[0].s, "brigade") == 0) {
			p.named_of = ALIAS_BRIGADE;
			p.named_idx = p.cur_brigade;
		} else if (strcmp(t[0].s, "commander") == 0 ||
		    strcmp(t[0].s, "wing") == 0) {
			p.named_of = ALIAS_COMMANDER;
			p.named_idx = p.b->ncommanders - 1;
		} else if (strcmp(t[0].s, "stand") != 0 &&
		    strcmp(t[0].s, "alias") != 0) {
			p.named_of = -1;
		}
		if (cq > 0 && p.b->ncommanders > ncmd)
			p.b->commanders[p.b->ncommanders - 1].quality = cq;
		if (arr > 0 && p.b->ncommanders > ncmd) {
			struct commander *k = &p.b->commanders[p.b->ncommanders - 1];

			k->arrives = arr;
			k->out_until = BATTLE_STEP_AWAY;
			k->out_removed = 1;
		}
	}
	if (finish(&p) != 0)
		goto out;
	if (p.rs->prepare != NULL && p.rs->prepare(p.b, e) != 0) {
		char msg[ERR_MSG_MAX];

		/* The ruleset's own checks speak of the whole file. */
		snprintf(msg, sizeof(msg), "%s", e->msg);
		err_set(e, ERR_USER, "%s: %s", fname, msg);
		goto out;
	}
	*out = p.b;
	p.b = NULL;
	rc = 0;
out:
	free(line);
	battle_free(p.b);
	return rc;
}

int
scenario_read_file(const char *path, size_t max, char **text, size_t *len,
    struct err *e)
{
	FILE *f = NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;

	*text = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (f == NULL)
		return err_set(e, ERR_USER, "%s: cannot open: %s", path,
		    strerror(errno));
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			if (cap > max + 1)
				cap = max + 1;
			if (n == cap) {
				err_set(e, ERR_USER, "%s: the file is larger than "
				    "%zu bytes", path, max);
				goto out;
			}
			nb = realloc(buf, cap + 1);
			if (nb == NULL) {
				err_set(e, ERR_INTERNAL, "out of memory");
				goto out;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err_set(e, ERR_USER, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (n > max) {
		err_set(e, ERR_USER, "%s: the file is larger than %zu bytes",
		    path, max);
		goto out;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto out;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	if (f != NULL)
		fclose(f);
	return rc;
}

