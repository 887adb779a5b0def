/*
 * bb3_preview.c - what the order reply can tell a bb3 player before the
 * dice (docs/rules-bb3.md, "What the order reply warns of"): the d10 each
 * moving unit must roll for its order, a charge the target is beyond
 * (or, for cavalry, the die it needs), fire that cannot be given as the
 * table stands, and points kept back to pick off an officer who is not
 * there.  Judged on the table as it stands, as the step begins.
 */
#include "rules/bb3_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void
say(char *out, size_t size, size_t *len, int *n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
say(char *out, size_t size, size_t *len, int *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	w = vsnprintf(out + *len, size - *len, fmt, ap);
	va_end(ap);
	if (w > 0)
		*len += (size_t)w < size - *len ? (size_t)w : size - *len - 1;
	(*n)++;
}

/* Responses sent for a phase after an enemy phase now open count only
 * from their own phase on (docs/rules-bb3.md, "The response"): what
 * meets a charge in the enemy's phase is what stands now. */
static void
responses_later(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size, size_t *len,
    int *n)
{
	int i, k, enemy, u, r, said = 0;

	if (open >= step || open < 1 || (enemy = battle_step_side(b, open)) < 0 ||
	    enemy == set->side)
		return;
	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];

		u = -1;
		r = 0;
		if (o->special == B3_SPECIAL_RESPONSE)
			r = o->special_arg;
		else if (o->special >= B3_SPECIAL_UNIT)
			u = o->who, r = o->special_arg;
		else if (o->special == 0 && !o->is_commander)
			for (k = 0; k < o->nsteps; k++)
				if (o->steps[k].verb >= B3_V_IF_STAND &&
				    o->steps[k].verb <= B3_V_IF_ABOUT_FACE)
					u = o->who, r = B3R_STAND + o->steps[k].verb -
					    B3_V_IF_STAND;
		if (r <= B3R_NONE || r >= B3R_COUNT)
			continue;
		if (!said++)
			say(out, size, len, n, "Your IF CHARGED lines count from "
			    "your phase on: in %s's phase, played before it, a charge "
			    "is met by what stands now:\n", b->sides[enemy].name);
		if (u < 0) {
			const struct bb3_state *st = bb3_cstate(b);
			int now = st->side_response[set->side];

			say(out, size, len, n, "  your side's IF CHARGED: %s: units "
			    "with no response of their own answer with %s until then\n",
			    b3_response_words[r], b3_response_words[now > B3R_NONE &&
			    now < B3R_COUNT ? now : B3R_STAND]);
		} else if (u < b->nunits)
			say(out, size, len, n, "  %s: %s until then (%s after)\n",
			    b->units[u].name, b3_response_words[b3_response_of(b, u)],
			    b3_response_words[r]);
	}
}

/* A side's IF CHARGED: EVADE answers for its skirmishers alone: the
 * units it would leave standing. */
static void
side_evade(const struct battle *b, const struct order_set *set, char *out,
    size_t size, size_t *len, int *n)
{
	const struct bb3_state *st = bb3_cstate(b);
	char names[512] = "";
	int i, u, more = 0, evade = 0;

	for (i = 0; i < set->n; i++)
		if (set->orders[i].special == B3_SPECIAL_RESPONSE)
			evade = set->orders[i].special_arg == B3R_EVADE;
	if (!evade)
		return;
	for (u = 0; u < b->nunits; u++) {
		int own = st->response[u];

		for (i = 0; i < set->n; i++)
			if (set->orders[i].special >= B3_SPECIAL_UNIT &&
			    set->orders[i].who == u)
				own = set->orders[i].special_arg;
		if (b->units[u].side != set->side || !on_table(b, u) ||
		    own != B3R_NONE || (cls(b, u) & B3C_SKIRMISH))
			continue;
		if (strlen(names) + strlen(b->units[u].name) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
			    "%s%s", names[0] ? ", " : "", b->units[u].name);
		else
			more++;
	}
	if (names[0] != '\0')
		say(out, size, len, n, "IF CHARGED: EVADE: only skirmishers evade; "
		    "these stand instead: %s%s\n", names, more ? " and more" : "");
}

int
bb3_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size)
{
	struct ctx *c = calloc(1, sizeof(*c));
	size_t len = 0;
	int i, k, n = 0;
	char why[160], g[16];

	out[0] = '\0';
	if (c == NULL)
		return 0;
	/* (read only: the checks the adjudicator makes, on the table as it
	 * stands) */
	c->b = (struct battle *)(uintptr_t)b;
	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];
		const char *name;
		int moves = 0, charges = 0, who, r;

		if (o->special || o->is_commander || o->who < 0)
			continue;
		name = b->units[o->who].name;
		for (k = 0; k < o->nsteps; k++) {
			const struct order_step *st = &o->steps[k];
			fx gap;

			moves |= b3_moving_verb(st->verb);
			if (st->verb == V_CHARGE && !charges) {
				struct pt a, z;
				int off = 0;

				charges = 1;
				gap = b3_point_gap(b, b3_front(b, o->who), st->target);
				if (battle_unit_centre(b, o->who, &a) &&
				    battle_unit_centre(b, st->target, &z))
					off = geom_turn(facing_of(b, o->who),
					    geom_bearing(a, z));
				if (off > P(c, "charge.wheel") ||
				    off < -P(c, "charge.wheel"))
					say(out, size, &len, &n, "%s: %s lies %d degrees off "
					    "its front, beyond the %d a charger may wheel: "
					    "the charge would be refused (FACE it first, in an "
					    "earlier turn)\n", name, b->units[st->target].name,
					    off < 0 ? -off : off, P(c, "charge.wheel"));
				else if (b->units[o->who].kind == KIND_MOUNTED) {
					int times = P(c, "charge.cavalry.times");
					int need = times > 0 ? (gap + FX(times) - 1) /
					    FX(times) : 7;

					if (need > 6)
						say(out, size, &len, &n, "%s: %s is %s\" away, "
						    "beyond any cavalry charge (%d x d6)\n", name,
						    b->units[st->target].name,
						    geom_fmt_fx(gap, g, 16), times);
					else if (need > 1)
						say(out, size, &len, &n, "%s: to reach %s it "
						    "needs a d6 of %d or more (%d x d6)\n", name,
						    b->units[st->target].name, need, times);
				} else if (gap > P(c, "charge.infantry"))
					say(out, size, &len, &n, "%s: %s is %s\" away, "
					    "beyond an infantry charge of 8\"\n", name,
					    b->units[st->target].name,
					    geom_fmt_fx(gap, g, 16));
			}
			if (st->verb == V_FIRE_AT &&
			    !b3_can_fire_at(c, o->who, st->target, why, sizeof(why)))
				say(out, size, &len, &n, "%s would not fire now: %s\n",
				    name, why);
			if (st->verb == B3_V_PICK_OFF) {
				int t = -1, j;

				for (j = 0; j < o->nsteps; j++)
					if (o->steps[j].verb == V_FIRE_AT)
						t = o->steps[j].target;
				if (t < 0)
					say(out, size, &len, &n, "%s: PICK OFF needs a FIRE AT "
					    "in the same line\n", name);
				else if (b3_officer_with(b, t) < 0)
					say(out, size, &len, &n, "%s: no officer is with %s "
					    "now; its points would all be fired\n", name,
					    b->units[t].name);
			}
		}
		if (moves && !charges && fleeing(b, o->who))
			say(out, size, &len, &n, "%s is fleeing: it must rally first "
			    "(2d6 at or under its morale of %d); if it does, it may "
			    "FACE or FORM at once, free, but moves no further this "
			    "turn\n", name, b->units[o->who].rules[B3_MORALE]);
		else if (moves && !charges) {
			if (cls(b, o->who) & B3C_NATIVE)
				say(out, size, &len, &n, "%s moves unless a d10 and its "
				    "stands lost make %d\n", name, P(c, "native.remove"));
			else if (r = bb3_order_rating(b, o->who, &who), who < 0)
				say(out, size, &len, &n, "%s has no commander to give it "
				    "the order: it will not move\n", name);
			else if (r <= 0)
				say(out, size, &len, &n, "%s cannot be ordered on: its "
				    "rating here is %d\n", name, r);
			else
				say(out, size, &len, &n, "%s moves only on a d10 of %d or "
				    "less\n", name, r);
		}
	}
	responses_later(b, open, step, set, out, size, &len, &n);
	side_evade(b, set, out, size, &len, &n);
	free(c);
	return n;
}
