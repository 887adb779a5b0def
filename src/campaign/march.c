/*
 * march.c - routes on the operational map, a day's march, and contact.
 *
 * A day's march is CAMPAIGN_TICKS steps.  At its road rate r (miles a
 * day) a column goes r hundredths of a mile a step, so that a whole day
 * is r miles; a forced march adds march.forced percent, and a river on
 * a road costs march.river miles before the column sets out along it.
 * After every step each pair of hostile columns is compared: at one
 * place, or on one road with their order along it changed (they passed
 * each other), they meet.  Every column in a contact stops for the day;
 * a column that comes to a place where a battle is met joins it, with
 * the step it came (a later turn of the battle) and the road it came by.
 * Every loop runs in the file's order, so two runs give the same day.
 */
#include <string.h>

#include "campaign/campaign.h"
#include "core/geom.h"

/* Dijkstra over the places by road miles; ties to the lower index, so
 * the answer never depends on anything but the file. */
int
campaign_route(const struct campaign *c, int a, int b, int first, int *next)
{
	int dist[CAMPAIGN_MAX_PLACES], via[CAMPAIGN_MAX_PLACES];
	int done[CAMPAIGN_MAX_PLACES];
	int i, r;

	*next = -1;
	if (a < 0 || a >= c->nplaces || b < 0 || b >= c->nplaces)
		return -1;
	if (a == b)
		return first < 0 ? 0 : -1;
	for (i = 0; i < c->nplaces; i++) {
		dist[i] = -1;
		via[i] = -1;
		done[i] = 0;
	}
	dist[a] = 0;
	for (;;) {
		int u = -1;

		for (i = 0; i < c->nplaces; i++)
			if (!done[i] && dist[i] >= 0 && (u < 0 || dist[i] < dist[u]))
				u = i;
		if (u < 0)
			break;
		done[u] = 1;
		if (u == b)
			break;
		for (r = 0; r < c->nroads; r++) {
			const struct cp_road *rd = &c->roads[r];
			int v;

			if (rd->a != u && rd->b != u)
				continue;
			if (u == a && first >= 0 && r != first)
				continue;
			v = rd->a == u ? rd->b : rd->a;
			if (done[v])
				continue;
			{
				/* the first road out of a on the way to v */
				int nv = u == a ? r : via[u], nd = dist[u] + rd->miles100;

				/* Every place nearer than v is done before v is, so
				 * each way of the same length to v is weighed here:
				 * a tie goes to the first road written. */
				if (dist[v] < 0 || nd < dist[v] || (nd == dist[v] &&
				    nv < via[v])) {
					dist[v] = nd;
					via[v] = nv;
				}
			}
		}
	}
	if (dist[b] < 0)
		return -1;
	*next = via[b];
	return dist[b];
}

int
campaign_rate(const struct campaign *c, int column, enum cp_road_kind kind)
{
	static const char *const names[3][2] = {
		{ "march.infantry.road", "march.infantry.track" },
		{ "march.mounted.road", "march.mounted.track" },
		{ "march.artillery.road", "march.artillery.track" },
	};
	int u, rate = -1;

	for (u = 0; u < c->nunits; u++) {
		const struct cp_unit *un = &c->units[u];
		int arm, r;

		if (un->gone || c->brigades[un->brigade].column != column ||
		    campaign_unit_sp(un) == 0)
			continue;
		arm = un->kind == KIND_MOUNTED ? 1 : un->kind == KIND_ARTILLERY ?
		    2 : 0;
		r = campaign_param(c, names[arm][kind == ROAD_TRACK]);
		if (rate < 0 || r < rate)
			rate = r;
	}
	return rate < 0 ? campaign_param(c, names[0][kind == ROAD_TRACK]) :
	    rate;
}

/* The share of a day's march the weather leaves on a kind of road,
 * percent. */
static int
weather_pct(const struct campaign *c, enum cp_road_kind kind)
{
	static const char *const names[WEATHER_COUNT][2] = {
		{ NULL, NULL },
		{ "weather.rain.road", "weather.rain.track" },
		{ "weather.storm.road", "weather.storm.track" },
	};

	if (c->weather <= WEATHER_FAIR || c->weather >= WEATHER_COUNT)
		return 100;
	return campaign_param(c, names[c->weather][kind == ROAD_TRACK]);
}

/* How many times march.river a crossing costs in the weather. */
static int
weather_river(const struct campaign *c)
{
	if (c->weather == WEATHER_RAIN)
		return campaign_param(c, "weather.rain.river");
	if (c->weather == WEATHER_STORM)
		return campaign_param(c, "weather.storm.river");
	return 1;
}

enum cp_dir
campaign_road_dir(const struct campaign *c, int at, int r)
{
	const struct cp_road *rd = &c->roads[r];
	int other = rd->a == at ? rd->b : rd->a;
	struct pt p = { c->places[at].x100, c->places[at].y100 };
	struct pt q = { c->places[other].x100, c->places[other].y100 };
	int deg = geom_bearing(p, q);

	return (enum cp_dir)(((deg + 22) / 45) % DIR_COUNT);
}

/* What a column does this day, and how it stands within it. */
struct mover {
	const struct cp_order *o;
	int stopped;          /* met, or arrived and holding */
	int debt;             /* a river's hundredths of a mile still to go
	                         before the road is gone along */
	int carry;            /* hundredths of a step's march left over */
	int contact;          /* index of its contact, or -1 */
	int arrived;          /* the step it came to its place (0: dawn) */
};

/* Its position along road r measured from the road's end a. */
static int
pos_on(const struct campaign *c, const struct cp_column *col, int r)
{
	const struct cp_road *rd = &c->roads[r];

	return col->from == rd->a ? col->along100 :
	    rd->miles100 - col->along100;
}

/* Which road a column on the march takes next from a place, toward its
 * destination; -1 to stop. */
static int
next_road(const struct campaign *c, int place, const struct cp_order *o,
    int first_step)
{
	int nx = -1;

	if (o == NULL || (o->kind != CO_MARCH && o->kind != CO_FORCED &&
	    o->kind != CO_RETREAT) || place == o->dest)
		return -1;
	if (campaign_route(c, place, o->dest, first_step ? o->by : -1,
	    &nx) < 0 && (!first_step || o->by < 0 ||
	    campaign_route(c, place, o->dest, -1, &nx) < 0))
		return -1;
	return nx;
}

static int
add_contact(struct cp_contact *out, int *n, int max, int place, int tick)
{
	int i;

	for (i = 0; i < *n; i++)
		if (out[i].place == place)
			return i;
	if (*n == max)
		return -1;
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].place = place;
	out[*n].tick = tick;
	return (*n)++;
}

static void
join(struct cp_contact *k, int column, int tick, int road)
{
	int i;

	for (i = 0; i < k->narrivals; i++)
		if (k->arrivals[i].column == column)
			return;
	if (k->narrivals == CAMPAIGN_MAX_COLUMNS)
		return;
	k->arrivals[k->narrivals].column = column;
	k->arrivals[k->narrivals].tick = tick;
	k->arrivals[k->narrivals].road = road;
	k->narrivals++;
}

/* The column ends where it is: on a road it is put at the nearer end
 * (the place the battle is fought at). */
static int
battle_place(const struct campaign *c, const struct cp_column *col)
{
	const struct cp_road *rd;
	int to;

	if (col->road < 0)
		return col->place;
	rd = &c->roads[col->road];
	to = col->from == rd->a ? rd->b : rd->a;
	return col->along100 * 2 <= rd->miles100 ? col->from : to;
}

static void
put_at(struct cp_column *col, int place, int came_by)
{
	if (col->road >= 0)
		col->came_by = col->road;
	else if (came_by >= 0)
		col->came_by = came_by;
	col->place = place;
	col->road = col->from = -1;
	col->along100 = 0;
}

/* Where column k is for a contact at place: on a road it is brought to
 * the place, by that road; at the place, by the road it came in on
 * today, or by none (-1) if it was there at dawn. */
static int
bring(struct campaign *c, struct mover *mv, int k, int place)
{
	struct cp_column *col = &c->columns[k];
	int road;

	if (col->road >= 0) {
		road = col->road;
		put_at(col, place, -1);
		col->came_by = road;
		return road;
	}
	if (col->place != place)     /* cannot be: a contact is where one is */
		put_at(col, place, -1);
	return mv[k].arrived > 0 ? col->came_by : -1;
}

/* Hostile columns k and j meet (or k comes to the battle j is in). */
static void
meet(struct campaign *c, struct mover *mv, int k, int j, int tick,
    struct cp_contact *out, int *n, int max)
{
	struct cp_column *a = &c->columns[k], *b = &c->columns[j];
	int place, ci, rk, rj, tk, tj;

	if (mv[j].contact >= 0)
		place = out[mv[j].contact].place;
	else if (a->road < 0)
		place = a->place;
	else if (b->road < 0)
		place = b->place;
	else
		place = battle_place(c, a);
	ci = add_contact(out, n, max, place, tick);
	if (ci < 0)
		return;
	/* when each got there: on a road, now */
	tj = b->road < 0 ? mv[j].arrived : tick;
	tk = a->road < 0 ? mv[k].arrived : tick;
	rj = bring(c, mv, j, place);
	rk = bring(c, mv, k, place);
	/* The one there first is listed first (it holds the place). */
	if (mv[j].contact < 0 && (tk < tj || (tk == tj && k < j))) {
		join(&out[ci], k, tk, rk);
		join(&out[ci], j, tj, rj);
	} else {
		join(&out[ci], j, tj, rj);
		join(&out[ci], k, tk, rk);
	}
	mv[k].arrived = tk;
	mv[j].arrived = tj;
	mv[k].stopped = mv[j].stopped = 1;
	mv[k].contact = mv[j].contact = ci;
}

int
campaign_march(struct campaign *c, const struct cp_order *orders,
    int norders, struct cp_contact *out, int max)
{
	struct mover mv[CAMPAIGN_MAX_COLUMNS];
	int prev[CAMPAIGN_MAX_COLUMNS];
	int n = 0, k, j, i, tick, ticks = CAMPAIGN_TICKS / c->halves;

	memset(mv, 0, sizeof(mv));
	for (k = 0; k < c->ncolumns; k++) {
		mv[k].contact = -1;
		for (i = 0; i < norders; i++)
			if (orders[i].column == k)
				mv[k].o = &orders[i];
		/* A column came into its place by the road it was last on;
		 * one that stays keeps that. */
	}
	/* At dawn: hostile columns already at one place meet there. */
	for (k = 0; k < c->ncolumns; k++)
		for (j = 0; j < k; j++)
			if (!c->columns[k].gone && !c->columns[j].gone &&
			    c->columns[k].side != c->columns[j].side &&
			    c->columns[k].road < 0 && c->columns[j].road < 0 &&
			    c->columns[k].place == c->columns[j].place)
				meet(c, mv, k, j, 0, out, &n, max);
	for (tick = 1; tick <= ticks; tick++) {
		for (k = 0; k < c->ncolumns; k++)
			prev[k] = c->columns[k].road >= 0 ?
			    pos_on(c, &c->columns[k], c->columns[k].road) : -1;
		for (k = 0; k < c->ncolumns; k++) {
			struct cp_column *col = &c->columns[k];
			int budget, rate;

			if (col->gone || mv[k].stopped || mv[k].o == NULL)
				continue;
			if (col->road < 0) {
				int r = next_road(c, col->place, mv[k].o, tick == 1);

				if (r < 0) {
					mv[k].stopped = 1;
					continue;
				}
				col->road = r;
				col->from = col->place;
				col->along100 = 0;
				/* a river on the road: its miles are marched (forded,
				 * or waited for at a ferry) before the road is */
				if (c->roads[r].nrivers > 0)
					mv[k].debt = campaign_param(c, "march.river") * 100 *
					    weather_river(c) * (c->engine >= 2 ?
					    c->roads[r].nrivers : 1);
			} else if (tick == 1) {
				/* Out on a road since yesterday: on toward its far
				 * end, or back, whichever is shorter to the goal. */
				const struct cp_road *rd = &c->roads[col->road];
				int far = col->from == rd->a ? rd->b : rd->a, nx;
				int dfar, dback;

				if (mv[k].o->kind == CO_HOLD || mv[k].o->kind == CO_REST ||
				    mv[k].o->kind == CO_SCOUT) {
					mv[k].stopped = 1;
					continue;
				}
				dfar = campaign_route(c, far, mv[k].o->dest, -1, &nx);
				dback = campaign_route(c, col->from, mv[k].o->dest, -1,
				    &nx);
				if (dfar >= 0 && dback >= 0 &&
				    dback + col->along100 < dfar + rd->miles100 -
				    col->along100) {
					col->along100 = rd->miles100 - col->along100;
					col->from = far;
				}
			}
			rate = campaign_rate(c, k, c->roads[col->road].kind);
			budget = rate * (mv[k].o->kind == CO_FORCED ? 100 +
			    campaign_param(c, "march.forced") : 100) *
			    weather_pct(c, c->roads[col->road].kind) / 100 +
			    mv[k].carry;
			mv[k].carry = budget % 100;
			{
				int go = budget / 100, pay = go < mv[k].debt ? go :
				    mv[k].debt;

				mv[k].debt -= pay;
				col->along100 += go - pay;
			}
			if (col->along100 >= c->roads[col->road].miles100) {
				const struct cp_road *rd = &c->roads[col->road];
				int to = col->from == rd->a ? rd->b : rd->a;

				/* What is left of the step is lost at the place:
				 * a column halts at every place it comes to. */
				put_at(col, to, -1);
				mv[k].arrived = tick;
				/* A battle already met here takes it in. */
				for (i = 0; i < n; i++)
					if (out[i].place == to) {
						join(&out[i], k, tick, col->came_by);
						mv[k].stopped = 1;
						mv[k].contact = i;
					}
			}
		}
		/* Who meets whom after this step. */
		for (k = 0; k < c->ncolumns; k++) {
			struct cp_column *a = &c->columns[k];

			if (a->gone)
				continue;
			for (j = 0; j < c->ncolumns; j++) {
				struct cp_column *b = &c->columns[j];

				if (j == k || b->gone || a->side == b->side ||
				    (mv[k].contact >= 0 && mv[k].contact ==
				    mv[j].contact))
					continue;
				if (a->road < 0 && b->road < 0 && a->place == b->place) {
					if (j < k || mv[j].contact >= 0)
						meet(c, mv, k, j, tick, out, &n, max);
				} else if (a->road >= 0 && a->road == b->road && j < k) {
					int pa = pos_on(c, a, a->road);
					int pb = pos_on(c, b, b->road);

					if (pa == pb || (prev[k] >= 0 && prev[j] >= 0 &&
					    (prev[k] < prev[j]) != (pa < pb)))
						meet(c, mv, k, j, tick, out, &n, max);
				}
			}
		}
	}
	return n;
}
