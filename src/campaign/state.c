/*
 * state.c - a campaign's state as canonical text.
 *
 * The campaign file gives the map, the sides and the columns as they
 * start; what a turn changes is written here, one line a column, brigade
 * and unit, numbers in decimal, names in double quotes with \" and \\
 * escaped, every line in the file's order, nothing else.  The same state
 * writes the same bytes (what the ledger hashes), and the text read
 * back onto the campaign parsed from its file gives that state again.
 *
 *   despatch-campaign-state V
 *   turn T over O winner W
 *   weather K                                   (version 2)
 *   column I side S "Name" "Commander" place P road R from F along A
 *       came C gone G standing K D B [forced N]     (one line)
 *   brigade I column C [spent N] "Commander"
 *   unit I gone G sp A,B,... full A,B,...
 *   held H H ...
 *   seen S K turn T place P road R from F along A   (version 2: where
 *       side S last saw column K, on turn T; one a side and column seen)
 *
 * V is the campaign engine the campaign is played by: version 1 (engine
 * 1) has no weather line, forced or spent; version 2 has the weather
 * line, and forced and spent on every column and brigade line; version 3
 * (engine 3, whose battles open with a deployment step) is laid out as
 * version 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"

static void
put_q(struct text *t, const char *s)
{
	text_add(t, " \"");
	for (; *s; s++)
		text_add(t, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
	text_add(t, "\"");
}

void
campaign_state_write(const struct campaign *c, struct text *t)
{
	int i, k;

	int v2 = c->engine >= 2;

	text_add(t, "despatch-campaign-state %d\n", c->engine >= 1 &&
	    c->engine <= CAMPAIGN_ENGINE ? c->engine : 1);
	text_add(t, "turn %d over %d winner %d\n", c->turn, c->over, c->winner);
	if (v2)
		text_add(t, "weather %d\n", (int)c->weather);
	for (i = 0; i < c->ncolumns; i++) {
		const struct cp_column *col = &c->columns[i];

		text_add(t, "column %d side %d", i, col->side);
		put_q(t, col->name);
		put_q(t, col->commander);
		text_add(t, " place %d road %d from %d along %d came %d gone %d "
		    "standing %d %d %d", col->place, col->road, col->from,
		    col->along100, col->came_by, col->gone, col->standing_kind,
		    col->standing_dest, col->standing_by);
		if (v2)
			text_add(t, " forced %d", col->forced);
		text_add(t, "\n");
	}
	for (i = 0; i < c->nbrigades; i++) {
		text_add(t, "brigade %d column %d", i, c->brigades[i].column);
		if (v2)
			text_add(t, " spent %d", c->brigades[i].spent);
		put_q(t, c->brigades[i].commander);
		text_add(t, "\n");
	}
	for (i = 0; i < c->nunits; i++) {
		const struct cp_unit *u = &c->units[i];

		text_add(t, "unit %d gone %d sp", i, u->gone);
		for (k = 0; k < u->nstands; k++)
			text_add(t, "%s%d", k ? "," : " ", u->sp[k]);
		text_add(t, " full");
		for (k = 0; k < u->nstands; k++)
			text_add(t, "%s%d", k ? "," : " ", u->full[k]);
		text_add(t, "\n");
	}
	text_add(t, "held");
	for (i = 0; i < c->ngoals; i++)
		text_add(t, " %d", c->held[i]);
	text_add(t, "\n");
	/* where each side last saw each enemy column, side by side */
	for (i = 0; v2 && i < c->nsides; i++)
		for (k = 0; k < c->ncolumns; k++) {
			const struct cp_sighting *ls = &c->last_seen[i][k];

			if (ls->turn > 0)
				text_add(t, "seen %d %d turn %d place %d road %d from %d "
				    "along %d\n", i, k, ls->turn, ls->place, ls->road,
				    ls->from, ls->along100);
		}
}

/* A quoted name at *p into out; advances *p past it.  -1 if none. */
static int
get_q(const char **p, char *out, size_t size)
{
	const char *s = *p;
	size_t o = 0;

	while (*s == ' ')
		s++;
	if (*s++ != '"')
		return -1;
	while (*s && *s != '"') {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		if (o + 1 >= size)
			return -1;
		out[o++] = *s++;
	}
	if (*s != '"')
		return -1;
	out[o] = '\0';
	*p = s + 1;
	return 0;
}

static int
get_list(const char *s, int *v, int max)
{
	int n = 0;
	char *end;

	for (;;) {
		long x = strtol(s, &end, 10);

		if (end == s || n == max || x < 0 || x > 1000)
			return -1;
		v[n++] = (int)x;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return n;
}

int
campaign_state_read(struct campaign *c, const char *text, size_t len,
    struct err *e)
{
	const char *s = text, *end = text + len;
	int line = 0, ncol = 0, v2 = 0;
	char buf[1024];

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *p = buf;
		int i, n = 0;

		line++;
		if (l >= sizeof(buf))
			return err_set(e, ERR_DATA, "campaign state line %d is too "
			    "long", line);
		memcpy(buf, s, l);
		buf[l] = '\0';
		s += l + (nl ? 1 : 0);
		if (line == 1) {
			int v = 0;
			char tail;

			if (sscanf(buf, "despatch-campaign-state %d%c", &v,
			    &tail) == 1 && v >= 1 && v <= CAMPAIGN_ENGINE)
				c->engine = v;
			else
				return err_set(e, ERR_DATA, "not a campaign state this "
				    "build reads (its first line is \"%.40s\")", buf);
			v2 = c->engine >= 2;
			continue;
		}
		if (sscanf(buf, "turn %d over %d winner %d%n", &c->turn, &c->over,
		    &c->winner, &n) == 3 && buf[n] == '\0')
			continue;
		if (v2 && sscanf(buf, "weather %d%n", &i, &n) == 1 &&
		    buf[n] == '\0') {
			if (i < 0 || i >= WEATHER_COUNT)
				goto bad;
			c->weather = (enum cp_weather)i;
			continue;
		}
		if (sscanf(buf, "column %d side %d%n", &i, &ncol, &n) == 2) {
			struct cp_column *col;
			int side = ncol;

			if (i < 0 || i >= CAMPAIGN_MAX_COLUMNS || i > c->ncolumns ||
			    side < 0 || side >= c->nsides)
				goto bad;
			col = &c->columns[i];
			if (i == c->ncolumns) {     /* made by DETACH */
				memset(col, 0, sizeof(*col));
				c->ncolumns++;
			}
			col->side = side;
			p = buf + n;
			if (get_q(&p, col->name, sizeof(col->name)) != 0 ||
			    get_q(&p, col->commander, sizeof(col->commander)) != 0)
				goto bad;
			if (sscanf(p, " place %d road %d from %d along %d came %d "
			    "gone %d standing %d %d %d%n", &col->place, &col->road,
			    &col->from, &col->along100, &col->came_by, &col->gone,
			    &col->standing_kind, &col->standing_dest,
			    &col->standing_by, &n) != 9)
				goto bad;
			p += n;
			n = 0;
			if (v2 && (sscanf(p, " forced %d%n", &col->forced, &n) != 1 ||
			    col->forced < 0))
				goto bad;
			if (p[n] != '\0' ||
			    col->place < -1 || col->place >= c->nplaces ||
			    col->road < -1 || col->road >= c->nroads ||
			    (col->road < 0 && col->place < 0) ||
			    (col->road >= 0 && (col->from < 0 ||
			    col->along100 < 0 || col->along100 >
			    c->roads[col->road].miles100)))
				goto bad;
			continue;
		}
		if (sscanf(buf, "brigade %d column %d%n", &i, &ncol, &n) == 2) {
			if (i < 0 || i >= c->nbrigades || ncol < 0 ||
			    ncol >= CAMPAIGN_MAX_COLUMNS)
				goto bad;
			c->brigades[i].column = ncol;
			p = buf + n;
			if (v2) {
				if (sscanf(p, " spent %d%n", &c->brigades[i].spent,
				    &n) != 1 || c->brigades[i].spent < 0)
					goto bad;
				p += n;
			}
			if (get_q(&p, c->brigades[i].commander,
			    sizeof(c->brigades[i].commander)) != 0 || *p != '\0')
				goto bad;
			continue;
		}
		if (sscanf(buf, "unit %d gone %d sp %n", &i, &ncol, &n) == 2) {
			struct cp_unit *u;
			const char *f;
			int k, m;

			if (i < 0 || i >= c->nunits)
				goto bad;
			u = &c->units[i];
			u->gone = ncol != 0;
			f = strstr(buf + n, " full ");
			if (f == NULL)
				goto bad;
			k = get_list(buf + n, u->sp, CAMPAIGN_MAX_STANDS);
			m = get_list(f + 6, u->full, CAMPAIGN_MAX_STANDS);
			if (k != u->nstands || m != u->nstands)
				goto bad;
			for (k = 0; k < u->nstands; k++)
				if (u->sp[k] > u->full[k])
					goto bad;
			continue;
		}
		if (v2 && strncmp(buf, "seen ", 5) == 0) {
			struct cp_sighting ls;
			int k;

			if (sscanf(buf, "seen %d %d turn %d place %d road %d from %d "
			    "along %d%n", &i, &k, &ls.turn, &ls.place, &ls.road,
			    &ls.from, &ls.along100, &n) != 7 || buf[n] != '\0' ||
			    i < 0 || i >= c->nsides || k < 0 ||
			    k >= c->ncolumns || ls.turn <= 0 ||
			    ls.place < -1 || ls.place >= c->nplaces ||
			    ls.road < -1 || ls.road >= c->nroads ||
			    (ls.road < 0 && ls.place < 0) ||
			    (ls.road >= 0 && (ls.from < 0 || ls.from >= c->nplaces ||
			    ls.along100 < 0 ||
			    ls.along100 > c->roads[ls.road].miles100)))
				goto bad;
			c->last_seen[i][k] = ls;
			continue;
		}
		if (strncmp(buf, "held", 4) == 0) {
			int v;

			p = buf + 4;
			for (i = 0; i < c->ngoals; i++) {
				if (sscanf(p, " %d%n", &v, &n) != 1 || (v != 0 && v != 1))
					goto bad;
				c->held[i] = (unsigned char)v;
				p += n;
			}
			if (*p != '\0')
				goto bad;
			continue;
		}
bad:
		return err_set(e, ERR_DATA, "campaign state line %d is not one of "
		    "this campaign's: \"%.60s\"", line, buf);
	}
	for (ncol = 0; ncol < c->nbrigades; ncol++)
		if (c->brigades[ncol].column >= c->ncolumns)
			return err_set(e, ERR_DATA, "campaign state: brigade %d is in "
			    "column %d of %d", ncol, c->brigades[ncol].column,
			    c->ncolumns);
	return 0;
}

/* ---- a turn marched, its battles not yet over ------------------------- */

void
campaign_turn_write(const struct cp_turn *t, struct text *out)
{
	int i, j;

	text_add(out, "despatch-campaign-turn 1\nturn %d day %d\n", t->turn,
	    t->day);
	for (i = 0; i < t->norders; i++) {
		const struct cp_order *o = &t->orders[i];

		text_add(out, "order %d %d %d %d %d ", o->column, (int)o->kind,
		    o->dest, o->by, o->target);
		for (j = 0; j < (int)sizeof(o->brigades); j++)
			text_add(out, "%02x", o->brigades[j]);
		put_q(out, o->name);
		text_add(out, "\n");
	}
	for (i = 0; i < t->ncontacts; i++) {
		const struct cp_contact *k = &t->contacts[i];

		text_add(out, "contact %d %d", k->place, k->tick);
		for (j = 0; j < k->narrivals; j++)
			text_add(out, " %d:%d:%d", k->arrivals[j].column,
			    k->arrivals[j].tick, k->arrivals[j].road);
		text_add(out, "\n");
	}
}

int
campaign_turn_read(const char *text, size_t len, struct cp_turn *t,
    struct err *e)
{
	const char *s = text, *end = text + len;
	char buf[2048];
	int line = 0;

	memset(t, 0, sizeof(*t));
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		int n = 0;

		line++;
		if (l >= sizeof(buf))
			goto bad;
		memcpy(buf, s, l);
		buf[l] = '\0';
		s += l + (nl ? 1 : 0);
		if (line == 1) {
			if (strcmp(buf, "despatch-campaign-turn 1") != 0)
				goto bad;
		} else if (sscanf(buf, "turn %d day %d%n", &t->turn, &t->day,
		    &n) == 2 && buf[n] == '\0') {
			continue;
		} else if (strncmp(buf, "order ", 6) == 0) {
			struct cp_order *o;
			const char *p;
			int kind, j;

			if (t->norders == CAMPAIGN_MAX_COLUMNS)
				goto bad;
			o = &t->orders[t->norders];
			memset(o, 0, sizeof(*o));
			if (sscanf(buf, "order %d %d %d %d %d %n", &o->column, &kind,
			    &o->dest, &o->by, &o->target, &n) != 5 || kind < 0 ||
			    kind > CO_JOIN)
				goto bad;
			o->kind = (enum cp_order_kind)kind;
			p = buf + n;
			for (j = 0; j < (int)sizeof(o->brigades); j++) {
				unsigned v;

				if (sscanf(p, "%2x", &v) != 1)
					goto bad;
				o->brigades[j] = (unsigned char)v;
				p += 2;
			}
			if (get_q(&p, o->name, sizeof(o->name)) != 0 || *p != '\0')
				goto bad;
			t->norders++;
		} else if (strncmp(buf, "contact ", 8) == 0) {
			struct cp_contact *k;
			const char *p;

			if (t->ncontacts == CAMPAIGN_MAX_COLUMNS)
				goto bad;
			k = &t->contacts[t->ncontacts];
			memset(k, 0, sizeof(*k));
			if (sscanf(buf, "contact %d %d%n", &k->place, &k->tick, &n) != 2)
				goto bad;
			p = buf + n;
			while (*p == ' ') {
				struct cp_arrival *a;

				if (k->narrivals == CAMPAIGN_MAX_COLUMNS)
					goto bad;
				a = &k->arrivals[k->narrivals];
				if (sscanf(p, " %d:%d:%d%n", &a->column, &a->tick, &a->road,
				    &n) != 3)
					goto bad;
				k->narrivals++;
				p += n;
			}
			if (*p != '\0')
				goto bad;
			t->ncontacts++;
		} else {
			goto bad;
		}
		continue;
bad:
		return err_set(e, ERR_DATA, "the campaign's marched turn, line %d, "
		    "is damaged", line);
	}
	return 0;
}
