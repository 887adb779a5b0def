/*
 * carry.c - what a battle's final state carries back to its columns,
 * and what a campaign day does to them besides marching.
 *
 * Everything is read from the battle as a verified archive leaves it
 * (struct battle at the end, and its result), through the battle
 * model's shared strength measure (battle_unit_sp: SP in vnb-wing,
 * figures in bb7), so it holds for every ruleset; the percentages are
 * the ruleset's campaign table (carry.*) and the campaign's (rest.*,
 * supply.*, march.forced.straggle).  Integer arithmetic throughout:
 * a share of n at p percent is n * p / 100 rounded down, except where
 * a comment says otherwise.  Pure.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "campaign/campaign.h"
#include "core/result.h"

int
campaign_find_unit(const struct campaign *c, const char *name)
{
	int i;

	for (i = 0; i < c->nunits; i++)
		if (strcmp(c->units[i].name, name) == 0)
			return i;
	return -1;
}

/* Puts n of the unit's strength back on its stands, first stands first,
 * none above its full strength. */
static void
spread(struct cp_unit *u, int n)
{
	int i;

	for (i = 0; i < u->nstands; i++) {
		int take = n < u->full[i] ? n : u->full[i];

		u->sp[i] = take;
		n -= take;
	}
}

/* Takes n off the unit's full strength, last stands first. */
static void
lose_for_good(struct cp_unit *u, int n)
{
	int i;

	for (i = u->nstands - 1; i >= 0 && n > 0; i--) {
		int take = n < u->full[i] ? n : u->full[i];

		u->full[i] -= take;
		if (u->sp[i] > u->full[i])
			u->sp[i] = u->full[i];
		n -= take;
	}
	if (campaign_unit_full(u) == 0)
		u->gone = 1;
}

/* The name of who takes over a command with no one named: "Acting CO
 * of" the brigade or column (a name nobody else has). */
void
campaign_acting_name(char *out, size_t size, const char *of)
{
	char tmp[BATTLE_NAME_MAX];

	snprintf(tmp, sizeof(tmp), "Acting CO of %.80s", of);
	snprintf(out, size, "%s", tmp);
}

static void
copy_name(char *out, size_t size, const char *from)
{
	char tmp[BATTLE_NAME_MAX];

	snprintf(tmp, sizeof(tmp), "%s", from);
	snprintf(out, size, "%s", tmp);
}

static int
in_contact(const struct cp_contact *k, int column)
{
	int i;

	for (i = 0; i < k->narrivals; i++)
		if (k->arrivals[i].column == column)
			return 1;
	return 0;
}

static int
routed(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int i, any = 0;

	for (i = 0; i < un->nstands; i++) {
		const struct stand *s = &b->stands[un->first_stand + i];

		if (s->flags & ST_GONE)
			continue;
		if ((s->flags & ST_ROUTED) != ST_ROUTED)
			return 0;
		any = 1;
	}
	return any;
}

/* The road a beaten column leaves the place by: back the way it came,
 * else the one whose direction is furthest from where the winner came
 * from (ties: the road written first). */
static int
retreat_road(const struct campaign *c, const struct cp_contact *k, int i,
    int winner)
{
	int r, best = -1, bestd = -1, wdir = -1, j;

	if (k->arrivals[i].road >= 0)
		return k->arrivals[i].road;
	for (j = 0; j < k->narrivals && wdir < 0; j++)
		if (c->columns[k->arrivals[j].column].side == winner &&
		    k->arrivals[j].road >= 0)
			wdir = campaign_road_dir(c, k->place, k->arrivals[j].road);
	for (r = 0; r < c->nroads; r++) {
		int d, dd;

		if (c->roads[r].a != k->place && c->roads[r].b != k->place)
			continue;
		if (k->arrivals[i].road < 0 && wdir >= 0 && r == k->arrivals[0].road)
			continue;
		d = campaign_road_dir(c, k->place, r);
		dd = wdir < 0 ? 0 : (d - wdir + DIR_COUNT) % DIR_COUNT;
		if (dd > DIR_COUNT / 2)
			dd = DIR_COUNT - dd;
		if (dd > bestd) {
			bestd = dd;
			best = r;
		}
	}
	return best;
}

int
campaign_carry(struct campaign *c, const struct cp_contact *k,
    const struct battle *b, int played, int ended, struct cp_carry *out,
    struct err *e)
{
	struct battle_result r;
	const char *ret_name, *lost_name;
	int u, i, winner = -1;

	memset(out, 0, sizeof(*out));
	battle_result(b, played, &r);
	if (ended != CARRY_BY_RESULT)
		r.winner = ended;      /* a concession, or a draw agreed */
	if (r.winner >= b->nsides)
		return err_set(e, ERR_DATA, "the battle's winner is side %d of %d",
		    r.winner, b->nsides);
	if (r.winner >= 0) {
		winner = campaign_find_side(c, b->sides[r.winner].id);
		if (winner < 0)
			return err_set(e, ERR_DATA, "the battle's winner '%s' is no "
			    "side of the campaign", b->sides[r.winner].id);
	}
	out->winner = winner;
	out->place = k->place;
	/* Every unit of the battle is a unit of a column in the contact. */
	for (u = 0; u < b->nunits; u++) {
		int cu = campaign_find_unit(c, b->units[u].name);

		if (cu < 0 || !in_contact(k,
		    c->brigades[c->units[cu].brigade].column))
			return err_set(e, ERR_DATA, "the battle's unit \"%s\" is in "
			    "no column of the battle at %s", b->units[u].name,
			    c->places[k->place].name);
	}
	for (u = 0; u < b->nunits; u++) {
		int cu = campaign_find_unit(c, b->units[u].name);
		struct cp_unit *un = &c->units[cu];
		struct cp_carry_unit *cr = &out->units[out->nunits];
		int side = c->columns[c->brigades[un->brigade].column].side;
		int lose = winner >= 0 && side != winner;
		int lost, ret, perm, now;

		cr->unit = cu;
		cr->before = campaign_unit_sp(un);
		cr->after = now = battle_unit_sp(b, u);
		lost = cr->before - now;
		if (lost < 0)
			lost = 0;
		ret_name = winner < 0 ? "carry.return.draw" : lose ?
		    "carry.return.loser" : "carry.return.winner";
		lost_name = winner < 0 ? "carry.lost.draw" : lose ?
		    "carry.lost.loser" : "carry.lost.winner";
		ret = lost * campaign_param(c, ret_name) / 100;
		/* the dead: rounded half up, so one SP of two is lost */
		perm = (lost * campaign_param(c, lost_name) + 50) / 100;
		if (ret + perm > lost)
			perm = lost - ret;
		cr->returned = ret;
		cr->lost = perm;
		if (lose && b->units[u].kind == KIND_ARTILLERY &&
		    campaign_param(c, "carry.guns") && (now == 0 ||
		    routed(b, u))) {
			/* guns abandoned or routed are taken */
			cr->captured = 1;
			cr->lost = campaign_unit_full(un);
			un->gone = 1;
		} else if (now == 0 && lose) {
			/* destroyed on the beaten side: gone for good */
			cr->destroyed = 1;
			cr->lost = campaign_unit_full(un);
			un->gone = 1;
		} else if (now + ret == 0) {
			cr->destroyed = 1;
			cr->lost = campaign_unit_full(un);
			un->gone = 1;
		} else {
			spread(un, now + ret);
			lose_for_good(un, perm);
			if (lose && routed(b, u)) {
				int extra = campaign_unit_sp(un) *
				    campaign_param(c, "carry.routed") / 100;

				cr->routed = extra;
				spread(un, campaign_unit_sp(un) - extra);
				lose_for_good(un, extra);
			}
		}
		cr->now = campaign_unit_sp(un);
		cr->full = campaign_unit_full(un);
		out->nunits++;
	}
	/* Brigades exhausted at the end stay so until they have rested
	 * (the battle model's flag: set by a ruleset that has exhaustion,
	 * or brought in exhausted). */
	for (i = 0; campaign_exhaustion(c) &&
	    campaign_param(c, "carry.exhausted") && i < b->nbrigades; i++) {
		int cb;

		if (!(b->brigades[i].flags & BR_EXHAUSTED))
			continue;
		for (cb = 0; cb < c->nbrigades; cb++)
			if (strcmp(c->brigades[cb].name, b->brigades[i].name) == 0)
				break;
		if (cb == c->nbrigades)
			continue;
		if (campaign_brigade_sp(c, cb) == 0) {
			c->brigades[cb].spent = 0;   /* nothing left to be tired */
			continue;
		}
		if (c->brigades[cb].spent < campaign_param(c, "rest.exhausted"))
			c->brigades[cb].spent = campaign_param(c, "rest.exhausted");
		out->exhausted[out->nexhausted++] = cb;
	}
	/* Commanders who fell (killed, taken, or out at the end): the
	 * next in the chain takes over. */
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *cm = &b->commanders[i];
		int j, col = -1, br = -1;

		/* (one who never came on, his column too late, did not
		 * fall) */
		if (!cm->gone && (cm->out_until <= played ||
		    cm->out_until == BATTLE_STEP_AWAY))
			continue;
		for (j = 0; j < c->ncolumns; j++)
			if (strcmp(c->columns[j].commander, cm->name) == 0)
				col = j;
		for (j = 0; j < c->nbrigades; j++)
			if (strcmp(c->brigades[j].commander, cm->name) == 0)
				br = j;
		if (out->nfell == CAMPAIGN_MAX_COLUMNS + CAMPAIGN_MAX_BRIGADES)
			break;
		if (col >= 0) {
			/* the column's first brigade commander still standing */
			for (j = 0; j < c->nbrigades; j++)
				if (c->brigades[j].column == col &&
				    strncmp(c->brigades[j].commander, "Acting ", 7) != 0 &&
				    battle_find_commander(b, c->brigades[j].commander) >=
				    0 && !b->commanders[battle_find_commander(b,
				    c->brigades[j].commander)].gone)
					break;
			snprintf(out->fell[out->nfell].was,
			    sizeof(out->fell[0].was), "%s", cm->name);
			out->fell[out->nfell].column = col;
			out->fell[out->nfell].brigade = -1;
			if (j < c->nbrigades) {
				copy_name(c->columns[col].commander,
				    sizeof(c->columns[col].commander),
				    c->brigades[j].commander);
				campaign_acting_name(c->brigades[j].commander,
				    sizeof(c->brigades[j].commander),
				    c->brigades[j].name);
			} else {
				campaign_acting_name(c->columns[col].commander,
				    sizeof(c->columns[col].commander),
				    c->columns[col].name);
			}
			snprintf(out->fell[out->nfell].now, sizeof(out->fell[0].now),
			    "%s", c->columns[col].commander);
			out->nfell++;
		} else if (br >= 0) {
			snprintf(out->fell[out->nfell].was, sizeof(out->fell[0].was),
			    "%s", cm->name);
			campaign_acting_name(c->brigades[br].commander,
			    sizeof(c->brigades[br].commander), c->brigades[br].name);
			snprintf(out->fell[out->nfell].now, sizeof(out->fell[0].now),
			    "%s", c->brigades[br].commander);
			out->fell[out->nfell].column = -1;
			out->fell[out->nfell].brigade = br;
			out->nfell++;
		}
	}
	/* A column left with nothing is gone; every column of the battle
	 * waits for new orders (a march it was on ended here). */
	for (i = 0; i < k->narrivals; i++) {
		int col = k->arrivals[i].column;

		if (campaign_column_sp(c, col) == 0)
			c->columns[col].gone = 1;
		c->columns[col].standing_kind = CO_HOLD;
		c->columns[col].standing_dest = c->columns[col].standing_by = -1;
	}
	/* The beaten side falls back along a road away from the winner;
	 * after a draw the side that came on does.  The winner holds. */
	for (i = 0; i < k->narrivals; i++) {
		int col = k->arrivals[i].column, rd, side;
		struct cp_column *cl = &c->columns[col];

		side = cl->side;
		if (cl->gone)
			continue;
		if (winner >= 0 ? side == winner : k->arrivals[i].road < 0)
			continue;
		rd = retreat_road(c, k, i, winner >= 0 ? winner :
		    c->columns[k->arrivals[0].column].side);
		if (rd < 0)
			continue;
		out->retreats[out->nretreats].column = col;
		out->retreats[out->nretreats].road = rd;
		out->retreats[out->nretreats].to = c->roads[rd].a == k->place ?
		    c->roads[rd].b : c->roads[rd].a;
		cl->place = out->retreats[out->nretreats].to;
		cl->road = cl->from = -1;
		cl->came_by = rd;
		out->nretreats++;
	}
	return 0;
}

/* ---- the day besides the march ---------------------------------------- */

int
campaign_depot_open(const struct campaign *c, int depot, int day)
{
	const struct cp_depot *d = &c->depots[depot];

	return (d->from_day == 0 || day >= d->from_day) &&
	    (d->to_day == 0 || day <= d->to_day);
}

/* Road miles (hundredths) from a column to the nearest depot of its
 * side that no enemy column stands at; -1 if none is reachable. */
static int
depot_distance(const struct campaign *c, int col, int *depot)
{
	const struct cp_column *cl = &c->columns[col];
	int i, best = -1, nx, today = c->start_day + c->turn / c->halves;

	*depot = -1;
	for (i = 0; i < c->ndepots; i++) {
		int d, j, taken = 0;

		if (c->depots[i].side != cl->side ||
		    !campaign_depot_open(c, i, today))
			continue;
		for (j = 0; j < c->ncolumns; j++)
			taken |= !c->columns[j].gone && c->columns[j].side !=
			    cl->side && c->columns[j].road < 0 &&
			    c->columns[j].place == c->depots[i].place;
		if (taken)
			continue;
		if (cl->road < 0) {
			d = campaign_route(c, cl->place, c->depots[i].place, -1, &nx);
		} else {
			const struct cp_road *r = &c->roads[cl->road];
			int to = cl->from == r->a ? r->b : r->a;
			int d1 = campaign_route(c, cl->from, c->depots[i].place, -1,
			    &nx);
			int d2 = campaign_route(c, to, c->depots[i].place, -1, &nx);

			d1 = d1 < 0 ? -1 : d1 + cl->along100;
			d2 = d2 < 0 ? -1 : d2 + r->miles100 - cl->along100;
			d = d1 < 0 ? d2 : d2 < 0 || d1 <= d2 ? d1 : d2;
		}
		if (d >= 0 && (best < 0 || d < best)) {
			best = d;
			*depot = i;
		}
	}
	return best;
}

int
campaign_in_supply(const struct campaign *c, int col)
{
	int depot, d = depot_distance(c, col, &depot);

	return d >= 0 && d <= campaign_param(c, "supply.range") * 100;
}

/* A column's brigades' exhaustion at the day's end: a forced march
 * march.forced.exhaust days running exhausts them; a day's rest in
 * supply, not fighting, takes one day off what each still needs. */
static void
day_exhaustion(struct campaign *c, int k, const struct cp_order *o,
    int supplied, int fought, struct cp_column_day *cd)
{
	struct cp_column *col = &c->columns[k];
	int b, need = campaign_param(c, "rest.exhausted");
	int limit = campaign_param(c, "march.forced.exhaust");

	col->forced = o != NULL && o->kind == CO_FORCED ? col->forced + 1 : 0;
	for (b = 0; b < c->nbrigades; b++) {
		struct cp_brigade *br = &c->brigades[b];

		if (br->column != k)
			continue;
		if (campaign_brigade_sp(c, b) == 0) {
			br->spent = 0;
			continue;
		}
		if (limit > 0 && col->forced >= limit && br->spent < need) {
			br->spent = need;
			cd->spent++;
		} else if (br->spent > 0 && supplied && !fought && o != NULL &&
		    o->kind == CO_REST && --br->spent == 0) {
			cd->refreshed++;
		}
	}
}

int
campaign_day_end(struct campaign *c, const struct cp_order *orders,
    int norders, const unsigned char *fought, struct cp_upkeep *out)
{
	int k, u, i;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < c->ncolumns; k++) {
		const struct cp_order *o = NULL;
		struct cp_column_day *cd = &out->columns[k];
		int supplied, depot, at_depot;

		for (i = 0; i < norders; i++)
			if (orders[i].column == k)
				o = &orders[i];
		cd->column = k;
		if (c->columns[k].gone)
			continue;
		supplied = campaign_in_supply(c, k);
		cd->supplied = supplied;
		if (campaign_exhaustion(c))
			day_exhaustion(c, k, o, supplied, fought != NULL &&
			    fought[k], cd);
		at_depot = depot_distance(c, k, &depot) == 0;
		for (u = 0; u < c->nunits; u++) {
			struct cp_unit *un = &c->units[u];
			int sp = campaign_unit_sp(un), n;

			if (un->gone || c->brigades[un->brigade].column != k)
				continue;
			if (o != NULL && o->kind == CO_FORCED) {
				n = sp * campaign_param(c, "march.forced.straggle") / 100;
				spread(un, sp - n);
				cd->straggled += n;
				sp -= n;
			}
			if (!supplied) {
				n = sp * campaign_param(c, "supply.attrition") / 100;
				spread(un, sp - n);
				lose_for_good(un, n);
				cd->starved += n;
			} else if (o != NULL && o->kind == CO_REST) {
				int missing = campaign_unit_full(un) - sp;

				/* a quarter of what is missing, rounded up */
				n = (missing * campaign_param(c, "rest.recover") + 99) /
				    100;
				spread(un, sp + n);
				cd->recovered += n;
			}
		}
		/* Replacements: at a depot, resting, for the unit furthest
		 * below its full strength (the first of equals). */
		if (supplied && at_depot && o != NULL && o->kind == CO_REST) {
			int best = -1, bestm = 0, n = campaign_param(c,
			    "supply.replacements");

			for (u = 0; u < c->nunits; u++) {
				const struct cp_unit *un = &c->units[u];
				int m = campaign_unit_full(un) - campaign_unit_sp(un);

				if (!un->gone && c->brigades[un->brigade].column == k &&
				    m > bestm) {
					best = u;
					bestm = m;
				}
			}
			if (best >= 0 && n > 0) {
				if (n > bestm)
					n = bestm;
				spread(&c->units[best], campaign_unit_sp(&c->units[best]) +
				    n);
				cd->replaced += n;
			}
		}
	}
	out->ncolumns = c->ncolumns;
	return 0;
}

/* ---- who sees whom ----------------------------------------------------- */

/* A column's position in hundredths of a mile. */
static void
column_pos(const struct campaign *c, int col, int *x, int *y)
{
	const struct cp_column *cl = &c->columns[col];

	if (cl->road < 0) {
		*x = c->places[cl->place].x100;
		*y = c->places[cl->place].y100;
	} else {
		const struct cp_road *r = &c->roads[cl->road];
		const struct cp_place *a = &c->places[cl->from];
		const struct cp_place *b = &c->places[cl->from == r->a ? r->b :
		    r->a];

		*x = a->x100 + (int)((long long)(b->x100 - a->x100) *
		    cl->along100 / r->miles100);
		*y = a->y100 + (int)((long long)(b->y100 - a->y100) *
		    cl->along100 / r->miles100);
	}
}

static int
within(const struct campaign *c, int a, int b, int miles)
{
	int ax, ay, bx, by;
	long long dx, dy, lim = (long long)miles * 100;

	column_pos(c, a, &ax, &ay);
	column_pos(c, b, &bx, &by);
	dx = ax - bx;
	dy = ay - by;
	return dx * dx + dy * dy <= lim * lim;
}

static int
has_horse(const struct campaign *c, int col)
{
	int u;

	for (u = 0; u < c->nunits; u++)
		if (!c->units[u].gone && c->units[u].kind == KIND_MOUNTED &&
		    c->brigades[c->units[u].brigade].column == col &&
		    campaign_unit_sp(&c->units[u]) > 0)
			return 1;
	return 0;
}

void
campaign_sees(const struct campaign *c, int side, const struct cp_order *orders,
    int norders, const struct cp_contact *k, int nk, unsigned char *seen)
{
	int a, b, i, j;

	for (b = 0; b < c->ncolumns; b++) {
		seen[b] = c->columns[b].side == side && !c->columns[b].gone;
		if (seen[b] || c->columns[b].gone)
			continue;
		for (a = 0; a < c->ncolumns && !seen[b]; a++) {
			int scout = 0;

			if (c->columns[a].side != side || c->columns[a].gone)
				continue;
			for (i = 0; i < norders; i++)
				if (orders[i].column == a && orders[i].kind == CO_SCOUT)
					scout = has_horse(c, a);
			if (within(c, a, b, campaign_param(c, scout ? "scout.radius" :
			    "sight.radius")))
				seen[b] = 1;
		}
		/* in a battle with one of ours */
		for (i = 0; i < nk && !seen[b]; i++) {
			int ours = 0, theirs = 0;

			for (j = 0; j < k[i].narrivals; j++) {
				ours |= c->columns[k[i].arrivals[j].column].side == side;
				theirs |= k[i].arrivals[j].column == b;
			}
			seen[b] = ours && theirs;
		}
	}
}

void
campaign_mark_seen(struct campaign *c, const struct cp_turn *t)
{
	unsigned char seen[CAMPAIGN_MAX_COLUMNS];
	int s, k;

	if (c->engine < 2)
		return;
	for (s = 0; s < c->nsides; s++) {
		campaign_sees(c, s, t->orders, t->norders, t->contacts,
		    t->ncontacts, seen);
		for (k = 0; k < c->ncolumns; k++) {
			struct cp_sighting *ls = &c->last_seen[s][k];
			const struct cp_column *col = &c->columns[k];

			if (col->side == s || col->gone || !seen[k])
				continue;
			ls->turn = t->turn;
			ls->place = col->place;
			ls->road = col->road;
			ls->from = col->from;
			ls->along100 = col->along100;
		}
	}
}

/* ---- the campaign's score ------------------------------------------------ */

int
campaign_column_broken(const struct campaign *c, int col)
{
	int u, sp = 0, full = 0;

	if (c->columns[col].gone)
		return 1;
	for (u = 0; u < c->nunits; u++)
		if (c->brigades[c->units[u].brigade].column == col) {
			sp += campaign_unit_sp(&c->units[u]);
			/* what it was at the start: a unit gone still counts */
			full += c->units[u].start;
		}
	return sp * 2 < full;
}

int
campaign_holder(const struct campaign *c, int place)
{
	int k, holder = -1;

	for (k = 0; k < c->ncolumns; k++) {
		const struct cp_column *cl = &c->columns[k];

		if (cl->gone || cl->road >= 0 || cl->place != place)
			continue;
		if (holder >= 0 && holder != cl->side)
			return -1;
		holder = cl->side;
	}
	return holder;
}

void
campaign_mark_goals(struct campaign *c, int day)
{
	int g;

	for (g = 0; g < c->ngoals; g++)
		if (c->goals[g].kind == GOAL_HOLD && c->goals[g].day == day)
			c->held[g] = campaign_holder(c, c->goals[g].place) ==
			    c->goals[g].side;
}

void
campaign_score(const struct campaign *c, int *points)
{
	int g, k;

	for (k = 0; k < c->nsides; k++)
		points[k] = 0;
	for (g = 0; g < c->ngoals; g++) {
		const struct cp_goal *gl = &c->goals[g];

		if (gl->kind == GOAL_HOLD) {
			if (c->held[g])
				points[gl->side] += gl->points;
		} else {
			for (k = 0; k < c->ncolumns; k++)
				if (c->columns[k].side != gl->side &&
				    campaign_column_broken(c, k))
					points[gl->side] += gl->points;
		}
	}
}
