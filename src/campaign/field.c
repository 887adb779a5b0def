/*
 * field.c - the scenario of a battle a contact opens.
 *
 * The battle is an ordinary despatch game made from a scenario text this
 * file writes, so everything a battle has (its ledger, verify, reports)
 * holds unchanged: the ground is the place's battlefield file without
 * its forces, or one made from the place's ground with dice from the
 * campaign's committed seed; the forces are the columns present, each
 * deployed in the zone of the direction it came from (a column that was
 * there holds the side facing the first to come); the first to move is
 * the side that came on.  Pure: the same campaign, contact and dice give
 * the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "core/ruleset.h"
#include "core/text.h"
#include "scenario/scenario.h"

#define FIELD_W 72
#define FIELD_D 48

/* The direction an arrival deploys from. */
static enum cp_dir
arrival_dir(const struct campaign *c, const struct cp_contact *k, int i)
{
	int j;

	if (k->arrivals[i].road >= 0)
		return campaign_road_dir(c, k->place, k->arrivals[i].road);
	/* There before: facing the first hostile column that came. */
	for (j = 0; j < k->narrivals; j++)
		if (k->arrivals[j].road >= 0 &&
		    c->columns[k->arrivals[j].column].side !=
		    c->columns[k->arrivals[i].column].side)
			return (enum cp_dir)((campaign_road_dir(c, k->place,
			    k->arrivals[j].road) + 4) % DIR_COUNT);
	/* Both were there (met at dawn): the earlier side north. */
	return c->columns[k->arrivals[i].column].side ==
	    c->columns[k->arrivals[0].column].side ? DIR_N : DIR_S;
}

/* A generated field's zone: a strip along the edge (or corner) the
 * direction names, 12 inches deep. */
static struct cp_zone
edge_zone(enum cp_dir d, fx w, fx dp)
{
	struct cp_zone z = { 1, 0, 0, w, dp };
	fx e = FX(12);

	switch (d) {
	case DIR_N: z.y0 = dp - e; break;
	case DIR_S: z.y1 = e; break;
	case DIR_E: z.x0 = w - e; break;
	case DIR_W: z.x1 = e; break;
	case DIR_NE: z.x0 = w / 2; z.y0 = dp - e; break;
	case DIR_NW: z.x1 = w / 2; z.y0 = dp - e; break;
	case DIR_SE: z.x0 = w / 2; z.y1 = e; break;
	case DIR_SW: z.x1 = w / 2; z.y1 = e; break;
	default: break;
	}
	return z;
}

/* The zone of a battlefield file for d: its own, else the nearest
 * direction that has one (clockwise first on a tie). */
static struct cp_zone
file_zone(const struct cp_place *pl, enum cp_dir d)
{
	int k;

	for (k = 0; k <= DIR_COUNT / 2; k++) {
		if (pl->zone[(d + k) % DIR_COUNT].set)
			return pl->zone[(d + k) % DIR_COUNT];
		if (pl->zone[(d + DIR_COUNT - k) % DIR_COUNT].set)
			return pl->zone[(d + DIR_COUNT - k) % DIR_COUNT];
	}
	return pl->zone[0];
}

static void
put_name(struct text *t, const char *s)
{
	text_add(t, "\"");
	for (; *s; s++)
		text_add(t, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
	text_add(t, "\"");
}

static void
put_fx(struct text *t, fx v)
{
	char b[24];

	text_add(t, "%s", geom_fmt_fx(v, b, sizeof(b)));
}

static fx
unit_frontage(const struct cp_unit *u)
{
	const char *f = strstr(u->opts, "frontage ");
	fx w = 0;

	if (f != NULL) {
		char buf[16];

		sscanf(f + 9, "%15s", buf);
		if (geom_parse_fx(buf, &w) != 0)
			w = 0;
	}
	return w;
}

static int
alive_stands(const struct cp_unit *u)
{
	int i, n = 0;

	for (i = 0; i < u->nstands && !u->gone; i++)
		n += u->sp[i] > 0;
	return n;
}

/* The width of a brigade's block (rows of at most 12 inches) and its
 * depth. */
static fx
block_size(const struct campaign *c, int b, fx *depth)
{
	fx bw = 0, rowx = 0, rd = 0, bd = 0, w, d;
	int u;

	for (u = 0; u < c->nunits; u++) {
		const struct cp_unit *un = &c->units[u];
		enum formation f = FORM_LINE;
		fx uw;

		if (un->brigade != b || alive_stands(un) == 0)
			continue;
		if (un->form[0] != '\0')
			battle_form_parse(un->form, &f);
		battle_kind_size(un->kind, f, &w, &d);
		if (unit_frontage(un) > 0)
			w = unit_frontage(un);
		uw = w * alive_stands(un) + FX(0.5);
		if (rowx > 0 && rowx + uw > FX(12)) {
			bd += rd + FX(0.5);
			rowx = rd = 0;
		}
		rowx += uw;
		if (rowx > bw)
			bw = rowx;
		if (d > rd)
			rd = d;
	}
	*depth = bd + rd;
	return bw;
}

/* A column's brigades side by side, with a gap of an inch. */
static fx
column_width(const struct campaign *c, int col)
{
	fx total = 0, d;
	int b;

	for (b = 0; b < c->nbrigades; b++)
		if (c->brigades[b].column == col && block_size(c, b, &d) > 0)
			total += block_size(c, b, &d) + FX(1);
	return total > 0 ? total - FX(1) : 0;
}

/* Lays out one side's columns of the contact (those of side s) in zone
 * z facing the table's middle, and writes their lines. */
static void
deploy(const struct campaign *c, const struct cp_contact *k, int s,
    const enum cp_dir *dirs, const struct cp_zone *zones, fx tw, fx td,
    const int *arrives, struct text *t)
{
	int i, first = 1, used[CAMPAIGN_MAX_COLUMNS] = { 0 };
	fx zcur[CAMPAIGN_MAX_COLUMNS], zdepth[CAMPAIGN_MAX_COLUMNS];

	for (i = 0; i < k->narrivals; i++) {
		const struct cp_column *col = &c->columns[k->arrivals[i].column];
		const struct cp_zone *z = &zones[i];
		/* along x when the zone is wider than deep; the front is the
		 * zone's edge nearer the middle */
		int horiz = z->x1 - z->x0 >= z->y1 - z->y0;
		fx zmid_x = (z->x0 + z->x1) / 2, zmid_y = (z->y0 + z->y1) / 2;
		int toward = horiz ? (zmid_y * 2 < td ? 1 : -1) :
		    (zmid_x * 2 < tw ? 1 : -1);
		int facing = horiz ? (toward > 0 ? 0 : 180) :
		    (toward > 0 ? 90 : 270);
		fx front = horiz ? (toward > 0 ? z->y1 : z->y0) :
		    (toward > 0 ? z->x1 : z->x0);
		fx lo = horiz ? z->x0 : z->y0, hi = horiz ? z->x1 : z->y1;
		fx cur = lo + FX(1), depth = FX(0.5), rowdepth = 0;
		int b, u;

		int key = i, j;

		if (col->side != s)
			continue;
		(void)dirs;
		/* A second column in the same zone (from the same direction,
		 * or one whose zone is the same ground) goes on where the first
		 * left off; the first is centred in its zone. */
		for (j = 0; j < i; j++)
			if (used[j] && memcmp(&zones[j], z, sizeof(*z)) == 0) {
				key = j;
				break;
			}
		if (used[key]) {
			cur = zcur[key];
			depth = zdepth[key];
		} else {
			fx total = column_width(c, k->arrivals[i].column);

			if (total < hi - lo - FX(2))
				cur = lo + (hi - lo - total) / 2;
		}
		if (first) {
			text_add(t, "  commander ");
			put_name(t, col->commander);
			text_add(t, " army at ");
		} else {
			text_add(t, "  wing ");
			put_name(t, col->name);
			text_add(t, " commander ");
			put_name(t, col->commander);
			text_add(t, " at ");
		}
		/* behind the middle of the zone */
		if (horiz) {
			put_fx(t, zmid_x);
			text_add(t, ",");
			put_fx(t, front - toward * (FX(9)));
		} else {
			put_fx(t, front - toward * (FX(9)));
			text_add(t, ",");
			put_fx(t, zmid_y);
		}
		if (!first && arrives[i] > 0)
			text_add(t, " arrives %d", arrives[i]);
		text_add(t, "\n");
		for (b = 0; b < c->nbrigades; b++) {
			fx bw, bx, rowx = 0, rd = 0, bd, w, d;

			if (c->brigades[b].column != k->arrivals[i].column)
				continue;
			bw = block_size(c, b, &bd);
			if (bw == 0)
				continue;
			if (cur + bw > hi && cur > lo + FX(1)) {
				cur = lo + FX(1);
				depth += rowdepth + FX(1);
				rowdepth = 0;
			}
			bx = cur;
			cur += bw + FX(1);
			if (bd > rowdepth)
				rowdepth = bd;
			/* the brigade commander behind his block's middle */
			text_add(t, "  brigade ");
			put_name(t, c->brigades[b].name);
			text_add(t, " commander ");
			put_name(t, c->brigades[b].commander);
			text_add(t, " at ");
			if (horiz) {
				put_fx(t, bx + bw / 2);
				text_add(t, ",");
				put_fx(t, front - toward * (depth + bd + FX(1)));
			} else {
				put_fx(t, front - toward * (depth + bd + FX(1)));
				text_add(t, ",");
				put_fx(t, bx + bw / 2);
			}
			if (!first) {
				text_add(t, " wing ");
				put_name(t, col->name);
			}
			if (campaign_exhaustion(c) && c->brigades[b].spent > 0)
				text_add(t, " exhausted");
			if (arrives[i] > 0)
				text_add(t, " arrives %d", arrives[i]);
			text_add(t, "\n");
			/* and its units, row by row */
			rowx = rd = 0;
			{
				fx off = 0;

				for (u = 0; u < c->nunits; u++) {
					const struct cp_unit *un = &c->units[u];
					enum formation f = FORM_LINE;
					fx uw, cx, cy;
					int m, nal = 0;

					if (un->brigade != b || alive_stands(un) == 0)
						continue;
					if (un->form[0] != '\0')
						battle_form_parse(un->form, &f);
					battle_kind_size(un->kind, f, &w, &d);
					if (unit_frontage(un) > 0)
						w = unit_frontage(un);
					uw = w * alive_stands(un) + FX(0.5);
					if (rowx > 0 && rowx + uw > FX(12)) {
						off += rd + FX(0.5);
						rowx = rd = 0;
					}
					cx = bx + rowx + uw / 2;
					cy = front - toward * (depth + off + d / 2);
					rowx += uw;
					if (d > rd)
						rd = d;
					text_add(t, "    unit ");
					put_name(t, un->name);
					text_add(t, " %s stands %d sp ", un->opts,
					    alive_stands(un));
					for (m = 0; m < un->nstands; m++)
						if (un->sp[m] > 0)
							text_add(t, "%s%d", nal++ ? "," : "",
							    un->sp[m]);
					text_add(t, " full ");
					for (m = 0, nal = 0; m < un->nstands; m++)
						if (un->sp[m] > 0)
							text_add(t, "%s%d", nal++ ? "," : "",
							    un->full[m]);
					text_add(t, " at ");
					if (horiz) {
						put_fx(t, cx);
						text_add(t, ",");
						put_fx(t, cy);
					} else {
						put_fx(t, cy);
						text_add(t, ",");
						put_fx(t, cx);
					}
					text_add(t, " facing %d%s%s", facing,
					    un->form[0] ? " " : "", un->form);
					/* a column due later in the day */
					if (arrives[i] > 0)
						text_add(t, " arrives %d", arrives[i]);
					text_add(t, "\n");
				}
			}
		}
		used[key] = 1;
		zcur[key] = cur;
		zdepth[key] = depth;
		first = 0;
	}
}

/* A rectangle of generated ground, given as if the sides came from the
 * north and south (u across the approach, 0..72; v along it, 0..48), and
 * written turned a quarter for sides that come from east and west (x =
 * v * 3/2, y = u * 2/3), so that the road runs between the sides, the
 * river lies across the way between them, and the woods and rises stand
 * on the flanks, never on the place itself. */
static void
put_rect(struct text *t, int ew, const char *kind, const char *name,
    const char *extra, int u0, int v0, int u1, int v1)
{
	int x0 = ew ? v0 * 3 / 2 : u0, y0 = ew ? u0 * 2 / 3 : v0;
	int x1 = ew ? v1 * 3 / 2 : u1, y1 = ew ? u1 * 2 / 3 : v1;

	text_add(t, "terrain %s ", kind);
	put_name(t, name);
	text_add(t, "%s poly %d,%d %d,%d %d,%d %d,%d\n", extra, x0, y0, x1, y0,
	    x1, y1, x0, y1);
}

/* Ground made from the place's kind, with dice: a road along the way
 * the sides came; woods on the flanks (one for open ground, four for
 * wooded, one for hilly, two by a river, one about a town); rises on
 * either side of the road (one for open ground, two for hilly); a river
 * across the middle with a ford on the road for a riverbank; a town about
 * the middle for a town.  ew: the sides came from east and west. */
static int
generate(const struct cp_place *pl, int ew, struct dice *d, struct text *t)
{
	int nwood = 0, nhill = 0, i, v;
	char name[BATTLE_NAME_MAX + 16];

	switch (pl->ground) {
	case GROUND_OPEN: nwood = 1; nhill = 1; break;
	case GROUND_WOODED: nwood = 4; nhill = 0; break;
	case GROUND_HILLY: nwood = 1; nhill = 2; break;
	case GROUND_RIVERBANK: nwood = 2; nhill = 0; break;
	case GROUND_TOWN: nwood = 1; nhill = 0; break;
	default: break;
	}
	snprintf(name, sizeof(name), "The road through %.80s", pl->name);
	text_add(t, "terrain road ");
	put_name(t, name);
	text_add(t, ew ? " line 0,24 72,24\n" : " line 36,0 36,48\n");
	for (i = 0; i < nwood; i++) {
		int u0, v0, w, h;

		v = dice_roll(d, 6, -1, CP_R_FIELD, i + 1, pl->name);
		/* the flanks, left and right in turn: u 2..22 or 50..70 */
		w = 10 + 2 * (v % 3);
		u0 = (i % 2 == 0 ? 2 : 50) + 2 * ((v + i) % 4);
		if (u0 + w > (i % 2 == 0 ? 22 : 70))
			u0 = (i % 2 == 0 ? 22 : 70) - w;
		h = 6 + v % 3;
		v0 = 10 + 3 * ((v + i / 2) % 5) + (i / 2) * 2;
		if (v0 + h > 42)
			v0 = 42 - h;
		snprintf(name, sizeof(name), "%.80s wood %d", pl->name, i + 1);
		put_rect(t, ew, "wood", name, "", u0, v0, u0 + w, v0 + h);
	}
	for (i = 0; i < nhill; i++) {
		int u0, v0;

		v = dice_roll(d, 6, -1, CP_R_FIELD, nwood + i + 1, pl->name);
		/* beside the road, clear of it and of the place: u 22..32 or
		 * 40..50 */
		u0 = i == 0 ? 40 + (v % 3) : 21 + (v % 3);
		v0 = 8 + 4 * (v % 2) + (i == 0 ? 20 : 0);
		snprintf(name, sizeof(name), "%.80s rise %d", pl->name, i + 1);
		put_rect(t, ew, "hill", name, " level 1", u0, v0, u0 + 10, v0 + 8);
	}
	if (pl->ground == GROUND_RIVERBANK) {
		snprintf(name, sizeof(name), "The river at %.80s", pl->name);
		text_add(t, "terrain river ");
		put_name(t, name);
		text_add(t, ew ? " line 36,0 36,48\n" : " line 0,24 72,24\n");
		put_rect(t, ew, "ford", pl->name, "", 34, 22, 38, 26);
	}
	if (pl->ground == GROUND_TOWN)
		put_rect(t, ew, "town", pl->name, "", 30, 20, 42, 28);
	return d->failed ? -1 : 0;
}

/* The battlefield file's own lines, less its forces and its clock. */
static void
copy_ground(const struct cp_place *pl, struct text *t, int *turns,
    int *first, int *minutes, fx *w, fx *dp)
{
	static const char *const skip[] = { "side", "commander", "wing",
		"brigade", "unit", "stand", "alias", "sequence", "turns", "ruleset",
		"scenario", NULL };
	const char *s = pl->field_text, *end = s + pl->field_len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char word[16] = "";
		const char *p = s;
		int k, hh, mm;

		while (p < s + l && (*p == ' ' || *p == '\t'))
			p++;
		sscanf(p, "%15s", word);
		for (k = 0; skip[k] != NULL; k++)
			if (strcmp(word, skip[k]) == 0)
				break;
		if (strcmp(word, "turns") == 0) {
			const char *f = strstr(p, "first "), *m = strstr(p, "minutes ");

			sscanf(p, "turns %d", turns);
			if (f != NULL && sscanf(f, "first %d:%d", &hh, &mm) == 2)
				*first = hh * 60 + mm;
			if (m != NULL)
				sscanf(m, "minutes %d", minutes);
		} else if (strcmp(word, "table") == 0) {
			char a[16], b[16];

			if (sscanf(p, "table %15s x %15s", a, b) == 2) {
				geom_parse_fx(a, w);
				geom_parse_fx(b, dp);
			}
		}
		if (skip[k] == NULL && word[0] != '#' && word[0] != '\0')
			text_add(t, "%.*s\n", (int)l, s);
		s += l + (nl ? 1 : 0);
	}
}

/* The `deploy` lines of side s (campaign engine 3 on): each zone its
 * columns came to, once, on the table, so the battle opens with its
 * deployment step there. */
static void
deploy_zones(const struct campaign *c, const struct cp_contact *k, int s,
    const struct cp_zone *zones, fx tw, fx td, struct text *t)
{
	int i, j;

	for (i = 0; i < k->narrivals; i++) {
		struct cp_zone z = zones[i];
		int dup = 0;

		if (c->columns[k->arrivals[i].column].side != s || !z.set)
			continue;
		for (j = 0; j < i; j++)
			dup |= c->columns[k->arrivals[j].column].side == s &&
			    memcmp(&zones[j], &zones[i], sizeof(zones[i])) == 0;
		z.x0 = z.x0 < 0 ? 0 : z.x0;
		z.y0 = z.y0 < 0 ? 0 : z.y0;
		z.x1 = z.x1 > tw ? tw : z.x1;
		z.y1 = z.y1 > td ? td : z.y1;
		if (dup || z.x0 >= z.x1 || z.y0 >= z.y1)
			continue;
		text_add(t, "deploy %s ", c->sides[s].id);
		put_fx(t, z.x0);
		text_add(t, ",");
		put_fx(t, z.y0);
		text_add(t, " ");
		put_fx(t, z.x1);
		text_add(t, ",");
		put_fx(t, z.y1);
		text_add(t, "\n");
	}
}

/* The minute of the day a march's step `tick` of campaign turn `day`
 * ends: the day's march began at the first hour (an afternoon's six
 * hours later). */
static int
day_minute(const struct campaign *c, int day, int tick)
{
	int m = campaign_param(c, "march.first-hour") * 60 + tick *
	    campaign_param(c, "march.hours") * 60 / CAMPAIGN_TICKS / c->halves;

	if (c->halves == 2 && (day & 1))
		m += 6 * 60;
	return m;
}

int
campaign_battle_scenario(const struct campaign *c, const struct cp_contact *k,
    int day, struct dice *d, char **out, size_t *outlen, struct err *e)
{
	int arrives[CAMPAIGN_MAX_COLUMNS];
	const struct cp_place *pl = &c->places[k->place];
	enum cp_dir dirs[CAMPAIGN_MAX_COLUMNS];
	struct cp_zone zones[CAMPAIGN_MAX_COLUMNS];
	struct text t, ground;
	int turns = campaign_param(c, "battle.turns"), first, minutes = 0;
	int hour, i, s, attacker = -1, holder = -1;
	fx w = FX(FIELD_W), dp = FX(FIELD_D);
	char date[64];

	*out = NULL;
	if (k->narrivals < 2)
		return err_set(e, ERR_INTERNAL, "a battle at %s with %d column",
		    pl->name, k->narrivals);
	/* The hour: the day's march began at the first hour. */
	hour = day_minute(c, day, k->tick);
	/* on the next quarter hour: a battle never starts before the
	 * columns meet */
	hour += (15 - hour % 15) % 15;
	if (hour > campaign_param(c, "battle.last-hour") * 60)
		hour = campaign_param(c, "battle.last-hour") * 60;
	first = hour;
	text_init(&ground, 256u * 1024);
	text_init(&t, 1024u * 1024);
	if (pl->field_text != NULL) {
		int ffirst = 0;

		copy_ground(pl, &ground, &turns, &ffirst, &minutes, &w, &dp);
		/* a dawn meeting is fought from the field's own hour */
		first = k->tick == 0 && ffirst > 0 ? ffirst : first > ffirst ?
		    first : ffirst;
	} else {
		if (d == NULL) {
			text_free(&ground);
			text_free(&t);
			return err_set(e, ERR_INTERNAL, "a generated field needs dice");
		}
		enum cp_dir first_dir = DIR_S;
		int j;

		for (j = 0; j < k->narrivals; j++)
			if (k->arrivals[j].road >= 0) {
				first_dir = campaign_road_dir(c, k->place,
				    k->arrivals[j].road);
				break;
			}
		if (generate(pl, first_dir == DIR_E || first_dir == DIR_W, d,
		    &ground) != 0) {
			text_free(&ground);
			text_free(&t);
			return err_set(e, ERR_DATA, "the dice for the field at %s "
			    "failed", pl->name);
		}
		text_add(&ground, "objective ");
		put_name(&ground, pl->name);
		text_add(&ground, " at 36,24 radius 6 points %d\n",
		    campaign_param(c, "battle.hold-points"));
	}
	for (i = 0; i < k->narrivals; i++) {
		int step, best = -1;

		dirs[i] = arrival_dir(c, k, i);
		/* Never on ground an enemy deployed on before it: a column
		 * coming from where the enemy stands takes the nearest
		 * direction whose zone is clear of every enemy's. */
		for (step = 0; step < DIR_COUNT && best < 0; step++) {
			int dd = (int)dirs[i] + (step % 2 ? (step + 1) / 2 :
			    -(step / 2));
			enum cp_dir d2 = (enum cp_dir)((dd % DIR_COUNT + DIR_COUNT) %
			    DIR_COUNT);
			struct cp_zone z = pl->field_text != NULL ?
			    file_zone(pl, d2) : edge_zone(d2, w, dp);
			int j, clear = 1;

			for (j = 0; j < i; j++)
				if (c->columns[k->arrivals[j].column].side !=
				    c->columns[k->arrivals[i].column].side &&
				    z.x0 < zones[j].x1 && zones[j].x0 < z.x1 &&
				    z.y0 < zones[j].y1 && zones[j].y0 < z.y1)
					clear = 0;
			if (clear) {
				best = (int)d2;
				zones[i] = z;
			}
		}
		if (best < 0)
			zones[i] = pl->field_text != NULL ? file_zone(pl, dirs[i]) :
			    edge_zone(dirs[i], w, dp);
		else
			dirs[i] = (enum cp_dir)best;
		if (k->arrivals[i].road < 0 && holder < 0)
			holder = c->columns[k->arrivals[i].column].side;
	}
	/* A column that reached the place after the battle began (engine 3
	 * on) comes on at its road's edge, in its zone, at the turn whose
	 * span holds the hour it arrived; after the last turn, never. */
	{
		const struct ruleset *rs = ruleset_find(c->ruleset);
		int per = minutes > 0 ? minutes : rs != NULL &&
		    rs->turn_minutes > 0 ? rs->turn_minutes : 15;

		for (i = 0; i < k->narrivals; i++) {
			int at = day_minute(c, day, k->arrivals[i].tick);

			arrives[i] = 0;
			if (c->engine >= 3 && k->arrivals[i].road >= 0 &&
			    k->arrivals[i].tick > k->tick && at > first)
				arrives[i] = 1 + (at - first) / per;
			if (arrives[i] == 1)
				arrives[i] = 0;
		}
	}
	/* Who moves first: the side that came on (the first of it to come). */
	for (i = 0; i < k->narrivals && attacker < 0; i++)
		if (c->columns[k->arrivals[i].column].side != holder &&
		    k->arrivals[i].road >= 0)
			attacker = c->columns[k->arrivals[i].column].side;
	if (attacker < 0)
		attacker = c->columns[k->arrivals[k->narrivals - 1].column].side;
	campaign_date_long(c->start_day + day / c->halves, date, sizeof(date));
	text_add(&t, "scenario ");
	{
		char title[BATTLE_NAME_MAX * 2];

		snprintf(title, sizeof(title), "%s, %s", pl->name, date);
		put_name(&t, title);
	}
	text_add(&t, "\nruleset %s\n", c->ruleset);
	if (pl->field_text == NULL) {
		text_add(&t, "table %d x %d\n", FIELD_W, FIELD_D);
	}
	text_add(&t, "turns %d first %02d:%02d", turns, first / 60, first % 60);
	if (minutes > 0)
		text_add(&t, " minutes %d", minutes);
	text_add(&t, "\nsequence alternate %s", c->sides[attacker].id);
	for (s = 0; s < c->nsides; s++) {
		int present = 0;

		for (i = 0; i < k->narrivals; i++)
			present |= c->columns[k->arrivals[i].column].side == s;
		if (present && s != attacker)
			text_add(&t, " %s", c->sides[s].id);
	}
	text_add(&t, "\n%s", ground.s != NULL ? ground.s : "");
	for (s = 0; s < c->nsides; s++) {
		int present = 0;

		for (i = 0; i < k->narrivals; i++)
			present |= c->columns[k->arrivals[i].column].side == s;
		if (!present)
			continue;
		text_add(&t, "side %s ", c->sides[s].id);
		put_name(&t, c->sides[s].name);
		text_add(&t, "%s%s\n", c->sides[s].tail[0] ? " " : "",
		    c->sides[s].tail);
		if (c->engine >= 3)
			deploy_zones(c, k, s, zones, w, dp, &t);
		deploy(c, k, s, dirs, zones, w, dp, arrives, &t);
	}
	text_free(&ground);
	if (t.over) {
		text_free(&t);
		return err_set(e, ERR_DATA, "the battle at %s is too large to "
		    "write", pl->name);
	}
	*out = t.s;
	*outlen = t.len;
	return 0;
}

enum cp_dir
campaign_arrival_dir(const struct campaign *c, const struct cp_contact *k,
    int i)
{
	return arrival_dir(c, k, i);
}
