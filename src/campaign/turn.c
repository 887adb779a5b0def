/*
 * turn.c - a campaign turn, the one path the referee plays and verify
 * replays: the orders that stand, the dawn's detachments and junctions,
 * the march and its contacts, the battles' scenarios; then, once the
 * battles are over, what they carry back, the day's upkeep, the goals
 * and the end.  Pure.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"

void
campaign_turn_free(struct cp_turn *t)
{
	int i;

	for (i = 0; i < t->ncontacts; i++) {
		free(t->battles[i].scenario);
		t->battles[i].scenario = NULL;
	}
}

void
campaign_settle_free(struct cp_settle *s)
{
	free(s->carries);
	s->carries = NULL;
}

static int
marching(int kind)
{
	return kind == CO_MARCH || kind == CO_FORCED || kind == CO_RETREAT;
}

int
campaign_turn_orders(const struct campaign *c, const struct cp_order *given,
    int ngiven, struct cp_turn *t, struct err *e)
{
	int k, i;

	memset(t, 0, sizeof(*t));
	t->turn = c->turn + 1;
	t->day = c->start_day + (t->turn - 1) / c->halves;
	for (i = 0; i < ngiven; i++) {
		const struct cp_order *o = &given[i];

		if (o->column < 0 || o->column >= c->ncolumns ||
		    c->columns[o->column].gone)
			return err_set(e, ERR_DATA, "an order for column %d, which "
			    "is not in the field", o->column);
		for (k = 0; k < i; k++)
			if (given[k].column == o->column)
				return err_set(e, ERR_DATA, "two orders for column "
				    "\"%s\"", c->columns[o->column].name);
		if (marching(o->kind) && (o->dest < 0 || o->dest >= c->nplaces))
			return err_set(e, ERR_DATA, "a march of \"%s\" to no place",
			    c->columns[o->column].name);
	}
	for (k = 0; k < c->ncolumns; k++) {
		struct cp_order *o;

		if (c->columns[k].gone)
			continue;
		o = &t->orders[t->norders++];
		for (i = 0; i < ngiven; i++)
			if (given[i].column == k)
				break;
		if (i < ngiven) {
			*o = given[i];
			continue;
		}
		/* none: the standing order, a march until it gets there */
		memset(o, 0, sizeof(*o));
		o->column = k;
		o->kind = CO_HOLD;
		o->dest = o->by = o->target = -1;
		if (marching(c->columns[k].standing_kind) &&
		    !(c->columns[k].road < 0 && c->columns[k].place ==
		    c->columns[k].standing_dest)) {
			o->kind = c->columns[k].standing_kind;
			o->dest = c->columns[k].standing_dest;
			o->by = -1;
		}
	}
	return 0;
}

static int
brigade_in(const struct cp_order *o, int b)
{
	return (o->brigades[b / 8] >> (b % 8)) & 1;
}

/* At dawn: a DETACH makes a new column of the brigades named (its
 * commander the first one's, whose brigade an acting commander takes);
 * a JOIN hands the column's brigades to the other at the same place. */
static int
dawn(struct campaign *c, struct cp_turn *t, struct err *e)
{
	int i, b;

	for (i = 0; i < t->norders; i++) {
		struct cp_order *o = &t->orders[i];
		struct cp_column *col = &c->columns[o->column];

		if (o->kind == CO_DETACH) {
			struct cp_column *nc;
			int first = -1, left = 0;

			if (c->ncolumns == CAMPAIGN_MAX_COLUMNS)
				return err_set(e, ERR_DATA, "too many columns to detach "
				    "\"%s\"", o->name);
			if (campaign_find_column(c, o->name) >= 0 ||
			    o->name[0] == '\0')
				return err_set(e, ERR_DATA, "a column \"%s\" is in the "
				    "field already", o->name);
			for (b = 0; b < c->nbrigades; b++) {
				if (c->brigades[b].column != o->column)
					continue;
				if (brigade_in(o, b)) {
					if (first < 0)
						first = b;
				} else {
					left++;
				}
			}
			if (first < 0 || left == 0)
				return err_set(e, ERR_DATA, "\"%s\" cannot detach those "
				    "brigades", col->name);
			nc = &c->columns[c->ncolumns];
			memset(nc, 0, sizeof(*nc));
			memcpy(nc->name, o->name, sizeof(nc->name));
			memcpy(nc->commander, c->brigades[first].commander,
			    sizeof(nc->commander));
			campaign_acting_name(c->brigades[first].commander,
			    sizeof(c->brigades[first].commander),
			    c->brigades[first].name);
			nc->side = col->side;
			nc->place = col->place;
			nc->road = col->road;
			nc->from = col->from;
			nc->along100 = col->along100;
			nc->came_by = col->came_by;
			nc->forced = col->forced;
			nc->standing_kind = CO_HOLD;
			nc->standing_dest = nc->standing_by = -1;
			for (b = 0; b < c->nbrigades; b++)
				if (c->brigades[b].column == o->column && brigade_in(o, b))
					c->brigades[b].column = c->ncolumns;
			c->ncolumns++;
		} else if (o->kind == CO_JOIN) {
			struct cp_column *to;

			if (o->target < 0 || o->target >= c->ncolumns ||
			    o->target == o->column)
				return err_set(e, ERR_DATA, "\"%s\" joins no column",
				    col->name);
			to = &c->columns[o->target];
			if (to->gone || to->side != col->side || to->road >= 0 ||
			    col->road >= 0 || to->place != col->place)
				return err_set(e, ERR_DATA, "\"%s\" can join \"%s\" only "
				    "at the same place", col->name, to->name);
			for (b = 0; b < c->nbrigades; b++)
				if (c->brigades[b].column == o->column)
					c->brigades[b].column = o->target;
			if (to->forced < col->forced)
				to->forced = col->forced;
			col->gone = 1;
		}
	}
	return 0;
}

/* The weather of day: the file's, else the die (fair on the low faces,
 * rain on the next weather.rain, storm on the top weather.storm); fair
 * with no dice, or no chance of anything else. */
static enum cp_weather
day_weather(const struct campaign *c, int day, struct dice *d)
{
	char date[16];
	int i, v, rain, storm;

	for (i = 0; i < c->nweather; i++)
		if (day >= c->weather_fix[i].from && day <= c->weather_fix[i].to)
			return c->weather_fix[i].kind;
	storm = campaign_param(c, "weather.storm");
	rain = campaign_param(c, "weather.rain");
	/* no chance of bad weather: no die */
	if (d == NULL || rain + storm == 0)
		return WEATHER_FAIR;
	campaign_date_fmt(day, date, sizeof(date));
	v = dice_roll(d, 6, -1, CP_R_WEATHER, date);
	if (v > 6 - storm)
		return WEATHER_STORM;
	if (v > 6 - storm - rain)
		return WEATHER_RAIN;
	return WEATHER_FAIR;
}

int
campaign_turn_march(struct campaign *c, struct cp_turn *t, struct dice *d,
    struct err *e)
{
	int i;

	if (c->over)
		return err_set(e, ERR_DATA, "the campaign is over");
	/* The day's weather, once a day: the afternoon of a half-day
	 * campaign keeps the morning's. */
	if (c->engine >= 2 && (c->halves == 1 || t->turn % 2 == 1))
		c->weather = day_weather(c, t->day, d);
	if (dawn(c, t, e) != 0)
		return -1;
	/* What each column goes on doing when no order comes. */
	for (i = 0; i < t->norders; i++) {
		const struct cp_order *o = &t->orders[i];
		struct cp_column *col = &c->columns[o->column];

		if (marching(o->kind)) {
			col->standing_kind = o->kind;
			col->standing_dest = o->dest;
			col->standing_by = o->by;
		} else if (o->kind == CO_HOLD || o->kind == CO_REST) {
			col->standing_kind = CO_HOLD;
			col->standing_dest = col->standing_by = -1;
		}
	}
	t->ncontacts = campaign_march(c, t->orders, t->norders, t->contacts,
	    CAMPAIGN_MAX_COLUMNS);
	for (i = 0; i < t->ncontacts; i++) {
		t->battles[i].contact = i;
		if (campaign_battle_scenario(c, &t->contacts[i], t->turn - 1, d,
		    &t->battles[i].scenario, &t->battles[i].len, e) != 0) {
			int k;

			for (k = 0; k < i; k++) {
				free(t->battles[k].scenario);
				t->battles[k].scenario = NULL;
			}
			return -1;
		}
	}
	return 0;
}

int
campaign_turn_settle(struct campaign *c, const struct cp_turn *t,
    struct battle *const *battles, const int *played, const int *ended,
    struct cp_settle *s, struct err *e)
{
	int i, alive[BATTLE_MAX_SIDES] = { 0 }, left = 0, best = -1, k;
	unsigned char fought[CAMPAIGN_MAX_COLUMNS] = { 0 };

	memset(s, 0, sizeof(*s));
	if (t->ncontacts > 0) {
		s->carries = calloc((size_t)t->ncontacts, sizeof(*s->carries));
		if (s->carries == NULL)
			return err_set(e, ERR_INTERNAL, "out of memory");
	}
	for (i = 0; i < t->ncontacts; i++) {
		if (campaign_carry(c, &t->contacts[i], battles[i], played[i],
		    ended != NULL ? ended[i] : CARRY_BY_RESULT, &s->carries[i],
		    e) != 0) {
			campaign_settle_free(s);
			return -1;
		}
		s->ncarries++;
		for (k = 0; k < t->contacts[i].narrivals; k++)
			fought[t->contacts[i].arrivals[k].column] = 1;
	}
	campaign_day_end(c, t->orders, t->norders, fought, &s->upkeep);
	campaign_mark_seen(c, t);
	campaign_mark_goals(c, t->day);
	c->turn = t->turn;
	campaign_score(c, s->points);
	/* The end: the last turn of the calendar, or one side left. */
	for (i = 0; i < c->ncolumns; i++)
		if (!c->columns[i].gone && campaign_column_sp(c, i) > 0)
			alive[c->columns[i].side] = 1;
	for (k = 0; k < c->nsides; k++)
		left += alive[k];
	if (left <= 1) {
		c->over = 1;
		c->winner = -1;
		for (k = 0; k < c->nsides; k++)
			if (alive[k])
				c->winner = k;
	} else if (t->day >= c->end_day && (t->turn % c->halves) == 0) {
		c->over = 1;
		c->winner = -1;
		for (k = 0; k < c->nsides; k++)
			if (best < 0 || s->points[k] > s->points[best])
				best = k;
		c->winner = best;
		for (k = 0; k < c->nsides; k++)
			if (k != best && s->points[best] - s->points[k] <
			    c->goal_margin)
				c->winner = -1;
	}
	return 0;
}
