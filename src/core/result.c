/*
 * result.c - how a battle ends and who won it (see result.h).
 */
#include <stdio.h>

#include "core/geom.h"
#include "core/result.h"

void
result_defaults(struct victory *v)
{
	v->exhausted = 1;
	v->collapsed = 2;
	v->margin = 1;
	v->army_break = 1;
}

/* Distance from p to stand s's base (0 inside it). */
static fx
gap_to_stand(const struct battle *b, int s, struct pt p)
{
	struct pt r[4];
	fx best = -1;
	int i;

	battle_stand_rect(b, s, r);
	if (geom_in_poly(p, r, 4))
		return 0;
	for (i = 0; i < 4; i++) {
		fx d = geom_seg_dist(p, r[i], r[(i + 1) % 4]);

		if (best < 0 || d < best)
			best = d;
	}
	return best;
}

/* Side holding objective o now: the only side with a stand on the table,
 * not routed, within its radius; -1 if none or contested. */
static int
holder(const struct battle *b, const struct objective *o)
{
	int s, side = -1;

	for (s = 0; s < b->nstands; s++) {
		const struct stand *t = &b->stands[s];
		int sd = b->units[t->unit].side;

		if ((t->flags & ST_GONE) || (t->flags & ST_ROUTED) == ST_ROUTED)
			continue;
		if (gap_to_stand(b, s, o->at) > o->radius)
			continue;
		if (side >= 0 && side != sd)
			return -1;
		side = sd;
	}
	return side;
}

static void
broken_sides(const struct battle *b, int *broken)
{
	int s, br;

	for (s = 0; s < b->nsides; s++) {
		int n = 0, down = 0;

		for (br = 0; br < b->nbrigades; br++)
			if (b->brigades[br].side == s) {
				n++;
				down += (b->brigades[br].flags &
				    (BR_EXHAUSTED | BR_COLLAPSED)) != 0;
			}
		broken[s] = b->victory.army_break && n > 0 && down == n;
	}
}

int
battle_over(const struct battle *b, int played)
{
	int broken[BATTLE_MAX_SIDES], s;

	if (played >= battle_steps(b))
		return 1;
	broken_sides(b, broken);
	for (s = 0; s < b->nsides; s++)
		if (broken[s])
			return 1;
	return 0;
}

void
battle_result(const struct battle *b, int played, struct battle_result *r)
{
	int s, br, i, standing = 0, best = -1, second = -1;
	int margin = b->victory.margin < 1 ? 1 : b->victory.margin;

	for (s = 0; s < BATTLE_MAX_SIDES; s++)
		r->points[s] = 0;
	r->kind = RESULT_NONE;
	r->winner = -1;
	broken_sides(b, r->broken);
	for (i = 0; i < b->nobjectives; i++) {
		r->holder[i] = holder(b, &b->objectives[i]);
		if (r->holder[i] >= 0)
			r->points[r->holder[i]] += b->objectives[i].points;
	}
	for (br = 0; br < b->nbrigades; br++) {
		const struct brigade *g = &b->brigades[br];
		int pts = (g->flags & BR_COLLAPSED) ? b->victory.collapsed :
		    (g->flags & BR_EXHAUSTED) ? b->victory.exhausted : 0;

		for (s = 0; s < b->nsides; s++)
			if (s != g->side)
				r->points[s] += pts;
	}
	r->over = battle_over(b, played);
	if (!r->over)
		return;
	for (s = 0; s < b->nsides; s++)
		if (!r->broken[s]) {
			standing++;
			r->winner = s;
		}
	if (standing < b->nsides) {
		/* An army broke: the one left standing wins outright; if
		 * every army broke, nobody does; if several stand, points
		 * decide among them. */
		if (standing == 1) {
			r->kind = RESULT_BROKEN;
			return;
		}
		if (standing == 0) {
			r->kind = RESULT_DRAW;
			r->winner = -1;
			return;
		}
	}
	for (s = 0; s < b->nsides; s++) {
		if (r->broken[s] && standing > 0 && standing < b->nsides)
			continue;
		if (best < 0 || r->points[s] > r->points[best]) {
			second = best;
			best = s;
		} else if (second < 0 || r->points[s] > r->points[second]) {
			second = s;
		}
	}
	if (best >= 0 && second >= 0 &&
	    r->points[best] - r->points[second] >= margin) {
		r->kind = RESULT_VICTORY;
		r->winner = best;
	} else {
		r->kind = RESULT_DRAW;
		r->winner = -1;
	}
}

const char *
result_kind_name(enum result_kind k)
{
	switch (k) {
	case RESULT_DRAW:
		return "draw";
	case RESULT_VICTORY:
		return "victory";
	case RESULT_BROKEN:
		return "broken";
	case RESULT_NONE:
	default:
		return "none";
	}
}

void
result_text(const struct battle *b, const struct battle_result *r,
    char *out, size_t size)
{
	int k = 0, s;

	if (r->kind == RESULT_BROKEN)
		k = snprintf(out, size, "victory for %s (%s): every other army "
		    "has broken; points", b->sides[r->winner].id,
		    b->sides[r->winner].name);
	else if (r->kind == RESULT_VICTORY)
		k = snprintf(out, size, "victory on points for %s (%s), a lead "
		    "of %d or more wins;", b->sides[r->winner].id,
		    b->sides[r->winner].name, b->victory.margin);
	else if (r->kind == RESULT_DRAW)
		k = snprintf(out, size, "a draw (a lead of %d or more wins, or "
		    "every army broke);", b->victory.margin);
	else
		k = snprintf(out, size, "the battle goes on; points");
	for (s = 0; s < b->nsides && k > 0 && (size_t)k < size; s++)
		k += snprintf(out + k, size - (size_t)k, "%s %s %d", s == 0 ?
		    "" : ",", b->sides[s].id, r->points[s]);
}
