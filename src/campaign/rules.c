/*
 * rules.c - the campaign's numbers: march rates, scouting, supply and
 * rest.  None of the rules texts is a campaign game, so every number
 * here is a default, with its reason; a campaign file's `set` line
 * changes one for that campaign.  What a battle's losses carry back is
 * in the ruleset's own table (struct ruleset.campaign_params), which
 * stands before these.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"

#define DEF "default"

const struct rule_param campaign_defaults[] = {
	/* Miles a day (a day's march of about ten hours) by the slowest arm
	 * in the column and the kind of road.  The southern campaign of 1781
	 * saw infantry make 15 to 20 miles a day on the roads, light horse
	 * twice that, and the guns and wagons less (docs/campaign.md). */
	{ .name = "march.infantry.road", .value = 15, .source = DEF, .why = "a day's march for foot on a road: 15 miles, what Greene's and Cornwallis's infantry made day after day in 1781", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "march.infantry.track", .value = 10, .source = DEF, .why = "on a track or country lane foot march a third less", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "march.mounted.road", .value = 30, .source = DEF, .why = "light horse on a road cover twice the infantry's distance (Tarleton's and Lee's legions)", .unit = PARAM_COUNT, .min = 1, .max = 80 },
	{ .name = "march.mounted.track", .value = 20, .source = DEF, .why = "on a track horse lose a third", .unit = PARAM_COUNT, .min = 1, .max = 80 },
	{ .name = "march.artillery.road", .value = 12, .source = DEF, .why = "guns and their teams on a road, slower than foot", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "march.artillery.track", .value = 8, .source = DEF, .why = "guns on a track, slowest of all", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "march.forced", .value = 50, .source = DEF, .why = "a forced march goes half as far again (Morgan after Cowpens, Cornwallis after burning his baggage)", .unit = PARAM_PERCENT, .min = 0, .max = 200 },
	{ .name = "march.forced.straggle", .value = 5, .source = DEF, .why = "each forced-march day costs every unit a twentieth of its strength in stragglers (rounded down), who come back with rest", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "march.forced.exhaust", .value = 2, .source = DEF, .why = "a column that force-marches two days running has its brigades exhausted until they rest (one hard day is borne, a second is not); 0: forced marching never exhausts", .unit = PARAM_COUNT, .min = 0, .max = 30 },
	{ .name = "march.river", .value = 3, .source = DEF, .why = "crossing a river on the way costs three miles of the day's march (fording, or waiting on a ferry)", .unit = PARAM_COUNT, .min = 0, .max = 60 },
	{ .name = "march.hours", .value = 10, .source = DEF, .why = "a day's march is ten hours, from the first hour on", .unit = PARAM_COUNT, .min = 1, .max = 16 },
	{ .name = "march.first-hour", .value = 7, .source = DEF, .why = "columns march from seven in the morning (winter daylight)", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	/* The weather.  A campaign file fixes the weather of the days it
	 * knows (`weather` lines: the rains of late January 1781 that
	 * raised the Catawba and the Yadkin); any other day is fair, or, if
	 * the file sets chances, a d6 of the turn's dice: fair on the low
	 * faces, rain on the next weather.rain, storm on the top
	 * weather.storm.  Bad weather slows the march and swells the
	 * rivers. */
	{ .name = "weather.rain", .value = 0, .source = DEF, .why = "faces of the day's d6 that bring rain; none of the rules texts has weather, so a day the file does not fix is fair unless the campaign sets a chance (2 gives a wet winter, a rainy day in three)", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "weather.storm", .value = 0, .source = DEF, .why = "faces of the day's d6 that bring a storm (heavy rain all day); none unless the campaign sets it", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "weather.rain.road", .value = 100, .source = DEF, .why = "rain hardly slows a column on a made road", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "weather.rain.track", .value = 67, .source = DEF, .why = "in rain a track turns to mud: two thirds of the day's march", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "weather.storm.road", .value = 67, .source = DEF, .why = "in a storm even the roads are mud: two thirds of the day's march", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "weather.storm.track", .value = 50, .source = DEF, .why = "in a storm a track is half a day's march", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "weather.rain.river", .value = 2, .source = DEF, .why = "rain raises the rivers: a crossing costs twice march.river", .unit = PARAM_COUNT, .min = 1, .max = 10 },
	{ .name = "weather.storm.river", .value = 3, .source = DEF, .why = "a storm floods them: a crossing costs three times march.river", .unit = PARAM_COUNT, .min = 1, .max = 10 },
	/* Who sees whom. */
	{ .name = "scout.radius", .value = 20, .source = DEF, .why = "cavalry sent to scout report every enemy column within 20 miles of them (a day's ride out and back)", .unit = PARAM_COUNT, .min = 0, .max = 200 },
	{ .name = "sight.radius", .value = 5, .source = DEF, .why = "any column learns of an enemy column within 5 miles (patrols, pickets and the country people)", .unit = PARAM_COUNT, .min = 0, .max = 100 },
	/* Supply and rest. */
	{ .name = "supply.range", .value = 60, .source = DEF, .why = "a column is supplied within 60 road miles of one of its side's depots (three or four days of wagons)", .unit = PARAM_COUNT, .min = 0, .max = 1000 },
	{ .name = "supply.attrition", .value = 2, .source = DEF, .why = "a column out of supply loses a fiftieth of each unit's strength a day (rounded down) to hunger, sickness and desertion", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "supply.replacements", .value = 1, .source = DEF, .why = "a column resting at one of its depots gets one SP (or figure) a day back for its weakest unit below full strength, from convalescents and drafts", .unit = PARAM_COUNT, .min = 0, .max = 20 },
	{ .name = "rest.recover", .value = 25, .source = DEF, .why = "a day of rest brings back a quarter (rounded up) of each unit's losses not yet made good, when in supply", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "rest.exhausted", .value = 1, .source = DEF, .why = "an exhausted brigade is in order again after one day of rest in supply (a night's sleep, a hot meal, the files closed up)", .unit = PARAM_COUNT, .min = 1, .max = 10 },
	/* Battles. */
	{ .name = "battle.hold-points", .value = 3, .source = DEF, .why = "a generated battlefield's place, held at the end, is worth 3 points (a battlefield of its own scores as its scenario says)", .unit = PARAM_COUNT, .min = 0, .max = 100 },
	{ .name = "battle.turns", .value = 8, .source = DEF, .why = "a battle on a generated field lasts 8 turns (two hours of daylight at the wing scale)", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "battle.last-hour", .value = 15, .source = DEF, .why = "a contact made later than three in the afternoon is fought from that hour (winter dusk)", .unit = PARAM_COUNT, .min = 8, .max = 20 },
};
const int campaign_ndefaults = (int)(sizeof(campaign_defaults) /
    sizeof(campaign_defaults[0]));

const struct rule_param *
campaign_param_row(const struct campaign *c, const char *name)
{
	int i;

	if (c->rs != NULL)
		for (i = 0; i < c->rs->ncampaign_params; i++)
			if (strcmp(c->rs->campaign_params[i].name, name) == 0)
				return &c->rs->campaign_params[i];
	for (i = 0; i < campaign_ndefaults; i++)
		if (strcmp(campaign_defaults[i].name, name) == 0)
			return &campaign_defaults[i];
	return NULL;
}

int
campaign_exhaustion(const struct campaign *c)
{
	return c->engine >= 2 && campaign_param_row(c, "carry.exhausted") !=
	    NULL;
}

static int engine_test;

int
campaign_engine_now(void)
{
	return engine_test > 0 ? engine_test : CAMPAIGN_ENGINE;
}

void
campaign_engine_test(const char *n)
{
	int v = n != NULL ? atoi(n) : 0;

	engine_test = v >= 1 && v < CAMPAIGN_ENGINE ? v : 0;
}

int
campaign_param(const struct campaign *c, const char *name)
{
	const struct rule_param *r;
	int i;

	for (i = 0; i < c->nsettings; i++)
		if (strcmp(c->settings[i].name, name) == 0)
			return c->settings[i].value;
	r = campaign_param_row(c, name);
	assert(r != NULL && "unknown campaign number");
	return r != NULL ? r->value : 0;
}

int
campaign_unit_sp(const struct cp_unit *u)
{
	int i, n = 0;

	for (i = 0; i < u->nstands && !u->gone; i++)
		n += u->sp[i];
	return n;
}

int
campaign_unit_full(const struct cp_unit *u)
{
	int i, n = 0;

	for (i = 0; i < u->nstands && !u->gone; i++)
		n += u->full[i];
	return n;
}

int
campaign_brigade_sp(const struct campaign *c, int brigade)
{
	int u, n = 0;

	for (u = 0; u < c->nunits; u++)
		if (c->units[u].brigade == brigade)
			n += campaign_unit_sp(&c->units[u]);
	return n;
}

int
campaign_column_sp(const struct campaign *c, int column)
{
	int u, n = 0;

	for (u = 0; u < c->nunits; u++)
		if (c->brigades[c->units[u].brigade].column == column)
			n += campaign_unit_sp(&c->units[u]);
	return n;
}

void
campaign_weather_summary(const struct campaign *c, char *out, size_t size)
{
	int i, days[WEATHER_COUNT] = { 0 }, fixed = 0;
	int rain = campaign_param(c, "weather.rain");
	int storm = campaign_param(c, "weather.storm");
	char rest[96];

	for (i = 0; i < c->nweather; i++) {
		int n = c->weather_fix[i].to - c->weather_fix[i].from + 1;

		days[c->weather_fix[i].kind] += n;
		fixed += n;
	}
	if (rain + storm == 0)
		snprintf(rest, sizeof(rest), "fair");
	else
		snprintf(rest, sizeof(rest), "a d6: rain on %d face%s, storm on "
		    "%d", rain, rain == 1 ? "" : "s", storm);
	if (fixed == 0)
		snprintf(out, size, "every day %s", rest);
	else
		snprintf(out, size, "%d day%s fixed by the file (%d fair, %d rain, "
		    "%d storm); every other day %s", fixed, fixed == 1 ? "" : "s",
		    days[WEATHER_FAIR], days[WEATHER_RAIN], days[WEATHER_STORM],
		    rest);
}
