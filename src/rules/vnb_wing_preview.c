/*
 * vnb_wing_preview.c - what a player can be told about orders before the
 * phase is played: the crib of the numbers that decide a turn, and
 * warnings for orders that would leave a unit out of command or fire at a
 * target out of range.
 *
 * Pure, as the adjudicator: no clock, no I/O, no dice.  The preview moves
 * a copy of the battle as far as each order asks, on open ground and
 * without dice, so it tells what the rules would do if every move went the
 * whole way; terrain and the dice can only make a move shorter.  Command
 * and ranges are measured as the adjudicator measures them
 * (docs/rules-vnb-wing.md): command centre to centre, fire from stand
 * edge to stand edge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/geom.h"
#include "core/order.h"
#include "core/preview_util.h"
#include "rules/vnb_wing.h"

#define ALIVE(b, s) (((b)->stands[s].flags & ST_GONE) == 0)

static int
chain_commander(const struct battle *b, int u, int k)
{
	const struct commander *c = &b->commanders[k];
	const struct unit *un = &b->units[u];

	/* A commander a card has put out commands nobody. */
	if (c->gone || c->out_until != 0 || c->side != un->side)
		return 0;
	return battle_in_chain(b, k, u) || un->kind == KIND_ARTILLERY;
}

/* How far the unit's nearest stand is from the commander of its chain
 * who comes nearest to reaching it (-1 if none), that commander in *who
 * if not NULL.  In command when the distance is within his reach
 * (vnb_command_reach). */
static fx
command_gap_of(const struct battle *b, int u, int *who)
{
	fx best = -1, short_by = 0;
	int s, k;

	if (who != NULL)
		*who = -1;

	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++) {
		if (!ALIVE(b, s))
			continue;
		for (k = 0; k < b->ncommanders; k++) {
			fx d;

			if (!chain_commander(b, u, k))
				continue;
			d = geom_dist(b->stands[s].pos, b->commanders[k].pos);
			if (best < 0 || d - vnb_command_reach(b, k) < short_by) {
				best = d;
				short_by = d - vnb_command_reach(b, k);
				if (who != NULL)
					*who = k;
			}
		}
	}
	return best;
}


static void
move_unit(struct battle *b, int u, fx dx, fx dy)
{
	int s;

	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++) {
		b->stands[s].pos.x += dx;
		b->stands[s].pos.y += dy;
	}
}

static void
turn_unit(struct battle *b, int u, int deg)
{
	struct pt c;
	int s;

	if (!battle_unit_centre(b, u, &c))
		return;
	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++) {
		b->stands[s].pos = geom_rotate(b->stands[s].pos, c, deg);
		b->stands[s].facing = geom_norm(b->stands[s].facing + deg);
	}
}

static int
unit_facing(const struct battle *b, int u)
{
	int s;

	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++)
		if (ALIVE(b, s))
			return b->stands[s].facing;
	return 0;
}

/* Moves the unit's centre up to *left towards `to`. */
static void
go_towards(struct battle *b, int u, struct pt to, fx want, fx *left)
{
	struct pt c, at;
	fx d;

	if (!battle_unit_centre(b, u, &c))
		return;
	d = geom_dist(c, to);
	if (want > d)
		want = d;
	if (want > *left)
		want = *left;
	if (want <= 0)
		return;
	at = geom_offset(c, geom_bearing(c, to), want);
	move_unit(b, u, at.x - c.x, at.y - c.y);
	*left -= want;
}

static void
play_unit(const struct ruleset *rs, struct battle *nb, const struct order *o)
{
	int u = o->who, i;
	fx left = nb->units[u].speed;
	int kw;
	fx gap = command_gap_of(nb, u, &kw);

	(void)rs;
	/* Out of command now: half the move. */
	if (gap < 0 || gap > vnb_command_reach(nb, kw))
		left /= 2;
	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		struct pt c;

		if (!battle_unit_centre(nb, u, &c))
			return;
		switch (st->verb) {
		case V_ADVANCE:
			go_towards(nb, u, geom_offset(c, unit_facing(nb, u), st->dist),
			    st->dist, &left);
			break;
		case V_MOVE_TO:
			go_towards(nb, u, st->pt, geom_dist(c, st->pt), &left);
			break;
		case V_WHEEL:
			turn_unit(nb, u, st->angle);
			break;
		case V_FACE:
			turn_unit(nb, u, geom_turn(unit_facing(nb, u), st->angle));
			break;
		default:
			break;
		}
	}
}

/* A commander's move, after the units have moved (JOIN goes to where
 * the unit ends). */
static void
play_commander(struct battle *nb, const struct order *o)
{
	struct commander *k = &nb->commanders[o->who];
	fx left = FX(24);
	int i;

	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		struct pt to;
		fx d;

		if (st->verb == V_MOVE_TO)
			to = st->pt;
		else if (st->verb == V_JOIN && battle_unit_centre(nb, st->target, &to))
			;
		else
			continue;
		d = geom_dist(k->pos, to);
		if (d > left)
			d = left;
		if (d > 0)
			k->pos = geom_offset(k->pos, geom_bearing(k->pos, to), d);
		left -= d;
	}
}

static int
moves(const struct order *o)
{
	int i;

	for (i = 0; i < o->nsteps; i++)
		if (o->steps[i].verb == V_ADVANCE || o->steps[i].verb == V_MOVE_TO)
			return 1;
	return 0;
}


/* Contract (vnb_wing.h): a copy of b with set's moves played as the
 * preview plays them. */
struct battle *
vnb_preview_battle(const struct battle *b, const struct order_set *set)
{
	const struct ruleset *rs = &ruleset_vnb_wing;
	struct battle *nb = malloc(sizeof(*nb));
	int i;

	if (nb == NULL)
		return NULL;
	memcpy(nb, b, sizeof(*nb));
	for (i = 0; i < set->n; i++)
		if (set->orders[i].special == 0 && !set->orders[i].is_commander &&
		    battle_unit_alive(b, set->orders[i].who))
			play_unit(rs, nb, &set->orders[i]);
	for (i = 0; i < set->n; i++)
		if (set->orders[i].special == 0 && set->orders[i].is_commander)
			play_commander(nb, &set->orders[i]);
	return nb;
}

int
vnb_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size)
{
	return vnb_preview_rules(b, open, step, set, out, size, 0);
}

int
vnb_preview_rules(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size,
    int reform_out_of_command)
{
	const struct ruleset *rs = &ruleset_vnb_wing;
	struct battle *nb = NULL;
	fx radius;
	size_t k = 0;
	int i, warnings = 0;

	(void)open;
	(void)step;
	out[0] = '\0';
	if ((nb = vnb_preview_battle(b, set)) == NULL)
		return 0;
	radius = ruleset_param(rs, b, "command.radius");
	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];
		const struct unit *un;
		char w1[24], w2[24];
		int st;

		/* A card that would not be played as the table stands. */
		if (o->special != 0 && !o->special_arg) {
			const char *why = vnb_card_unplayable(b, o->special - 1, set->side,
			    o);

			if (why != NULL) {
				k = preview_say(out, size, k, "  line %d: \"%s\" would not be "
				    "played as things stand: %s.\n    The card stays "
				    "in your hand if that is still so when the\n    "
				    "phase is played.\n", o->line,
				    vnb_cards[o->special - 1].name, why);
				warnings++;
			}
			continue;
		}
		if (o->special != 0 || o->is_commander ||
		    !battle_unit_alive(b, o->who))
			continue;
		un = &b->units[o->who];
		{
			int kn = -1, ka = -1, wants_charge = 0, wants_reform = 0;
			fx before = command_gap_of(b, o->who, &kn);
			fx after = command_gap_of(nb, o->who, &ka);
			fx asked = 0, rate = un->speed;
			/* Each commander's own reach: 6", a unit commander 3". */
			fx rb = kn >= 0 ? vnb_command_reach(b, kn) : radius;
			fx ra = ka >= 0 ? vnb_command_reach(nb, ka) : radius;

			for (st = 0; st < o->nsteps; st++) {
				wants_charge |= o->steps[st].verb == V_CHARGE;
				wants_reform |= o->steps[st].verb == V_REFORM &&
				    !reform_out_of_command;
				if (o->steps[st].verb == V_ADVANCE)
					asked += o->steps[st].dist;
			}
			/* Command is judged at the start of the phase, with the
			 * table as it stands. */
			if (before > rb || before < 0) {
				if (before > rb)
					k = preview_say(out, size, k,
					    "  line %d: %s is out of command "
					    "now: %s is the nearest commander\n    of its "
					    "chain, %s\" away (command reaches %s\").",
					    o->line, un->name, b->commanders[kn].name,
					    geom_fmt_fx(before, w1, sizeof(w1)),
					    geom_fmt_fx(rb, w2, sizeof(w2)));
				else
					k = preview_say(out, size, k,
					    "  line %d: %s has no commander "
					    "of its chain left.", o->line, un->name);
				k = preview_say(out, size, k, " Unless the phase finds it in "
				    "command, it moves\n    at half rate, is disordered "
				    "if it moves, may not move nearer a visible\n    "
				    "enemy%s.\n", wants_charge && wants_reform ? ", and "
				    "can neither CHARGE nor REFORM" : wants_charge ?
				    ", and cannot CHARGE" : wants_reform ? ", and cannot "
				    "REFORM" : "");
				rate /= 2;
				warnings++;
			} else if (moves(o) && after > ra) {
				k = preview_say(out, size, k,
				    "  line %d: if %s moves the whole "
				    "way, it ends about %s\" from the nearest\n"
				    "    commander of its chain (%s; command reaches %s\"): "
				    "it would start your\n    next phase out of command "
				    "(half its move, no nearer a visible enemy).\n",
				    o->line, un->name, geom_fmt_fx(after, w1, sizeof(w1)),
				    ka >= 0 ? nb->commanders[ka].name : "none left",
				    geom_fmt_fx(ra, w2, sizeof(w2)));
				warnings++;
			}
			if (asked > rate) {
				k = preview_say(out, size, k,
				    "  line %d: %s is asked to advance "
				    "%s\" but moves at most %s\" a phase\n    (open "
				    "ground, before any turn or ground costs).\n",
				    o->line, un->name, geom_fmt_fx(asked, w1, sizeof(w1)),
				    geom_fmt_fx(rate, w2, sizeof(w2)));
				warnings++;
			}
			if (wants_charge && (b->brigades[un->brigade].flags &
			    BR_EXHAUSTED)) {
				k = preview_say(out, size, k,
				    "  line %d: %s cannot CHARGE: its "
				    "brigade is exhausted.\n", o->line, un->name);
				warnings++;
			}
		}
		for (st = 0; st < o->nsteps; st++) {
			char pname[48];
			fx gap, range;

			if (o->steps[st].verb != V_FIRE_AT || o->steps[st].target < 0)
				continue;
			if (un->weapon == WEAPON_NONE) {
				k = preview_say(out, size, k,
				    "  line %d: %s has no fire weapon: "
				    "FIRE AT will do nothing.\n", o->line, un->name);
				warnings++;
				continue;
			}
			snprintf(pname, sizeof(pname), "range.%s.long",
			    battle_weapon_name(un->weapon));
			if (!ruleset_has_param(rs, pname))
				continue;
			range = ruleset_param(rs, b, pname);
			gap = battle_unit_gap(nb, o->who, o->steps[st].target);
			if (gap > range) {
				k = preview_say(out, size, k,
				    "  line %d: %s would be about %s\" "
				    "from %s, beyond its\n    longest range (%s\"): it "
				    "will not fire at it from there.\n", o->line,
				    un->name, geom_fmt_fx(gap, w1, sizeof(w1)),
				    b->units[o->steps[st].target].name,
				    geom_fmt_fx(range, w2, sizeof(w2)));
				warnings++;
			}
		}
	}
	free(nb);
	return warnings;
}

void
vnb_crib(const struct battle *b, int side, char *out, size_t size)
{
	const struct ruleset *rs = &ruleset_vnb_wing;
	char w1[24], w2[24];
	int seen_speed[8] = { 0 }, nspeed = 0, u, wpn;
	size_t k = 0;

	out[0] = '\0';
	k = preview_say(out, size, k,
	    "The numbers that decide your turn (vnb-wing; the "
	    "operator's 'despatch rules\nvnb-wing' lists every number):\n");
	k = preview_say(out, size, k,
	    "  Command: a stand is in command within %s\" "
	    "(centre to centre) of its brigade,\n    wing or army commander, or "
	    "%s\" of its own unit commander (guns: any\n    commander of the "
	    "side), or touching a stand of its unit that is, judged\n    at the "
	    "start of its phase. Out of command: half its move, disordered if\n"
	    "    it moves, never nearer a visible enemy. Commanders move 24\".\n",
	    geom_fmt_fx(ruleset_param(rs, b, "command.radius"), w1, sizeof(w1)),
	    geom_fmt_fx(ruleset_param(rs, b, "command.unit-radius"), w2,
	    sizeof(w2)));
	k = preview_say(out, size, k, "  Fire ranges, short / long (edge to edge, "
	    "within %d degrees of the front):\n", ruleset_param(rs, b, "arc"));
	for (wpn = WEAPON_MUSKET; wpn < WEAPON_COUNT; wpn++) {
		char ps[48], pl[48];
		int present = 0;

		for (u = 0; u < b->nunits; u++)
			present |= (int)b->units[u].weapon == wpn;
		snprintf(ps, sizeof(ps), "range.%s.short", battle_weapon_name(wpn));
		snprintf(pl, sizeof(pl), "range.%s.long", battle_weapon_name(wpn));
		if (!present || !ruleset_has_param(rs, ps) ||
		    !ruleset_has_param(rs, pl))
			continue;
		k = preview_say(out, size, k, "    %-10s %s\" / %s\"\n",
		    battle_weapon_name(wpn),
		    geom_fmt_fx(ruleset_param(rs, b, ps), w1, sizeof(w1)),
		    geom_fmt_fx(ruleset_param(rs, b, pl), w2, sizeof(w2)));
	}
	k = preview_say(out, size, k, "  Moves a phase (open ground; woods, hills, "
	    "streams and turns cost more):\n");
	for (u = 0; u < b->nunits; u++) {
		fx sp = b->units[u].speed;
		int j, have = 0;

		if (b->units[u].side != side)
			continue;
		for (j = 0; j < nspeed; j++)
			have |= seen_speed[j] == sp;
		if (have || nspeed == 8)
			continue;
		seen_speed[nspeed++] = sp;
		k = preview_say(out, size, k,
		    "    %s\":", geom_fmt_fx(sp, w1, sizeof(w1)));
		{
			/* The units of that rate, wrapped under the rate. */
			int first = 1, v, col = 9;

			for (v = 0; v < b->nunits; v++) {
				int n = (int)strlen(b->units[v].name) + 2;

				if (b->units[v].side != side || b->units[v].speed != sp)
					continue;
				if (!first && col + n > 76) {
					k = preview_say(out, size, k, ",\n        ");
					col = 8;
				} else if (!first) {
					k = preview_say(out, size, k, ",");
				}
				k = preview_say(out, size, k, " %s", b->units[v].name);
				col += n;
				first = 0;
			}
		}
		k = preview_say(out, size, k, "\n");
	}
	(void)k;
}

/* The eight points of the compass for a bearing. */
static const char *
compass(int deg)
{
	static const char *const pt[16] = { "N", "NNE", "NE", "ENE", "E",
		"ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW",
		"NNW" };

	return pt[((geom_norm(deg) * 2 + 22) / 45) % 16];
}

/*
 * Contract (vnb_wing.h): command as the preview judges it (the unit's
 * nearest stand to the nearest commander of its chain, centre to
 * centre); the nearest enemy unit with a stand the side sees, measured
 * edge to edge from u's stands to those seen stands (as fire is), its
 * bearing from u's centre to theirs; in range when the gap is within the
 * weapon's long range, and within its arc when the bearing is within the
 * arc of u's facing.  Ties go to the lower unit index, so the line is
 * the same on every run.
 */
static void
situation_lines(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size)
{
	const struct ruleset *rs = &ruleset_vnb_wing;
	const struct unit *un = &b->units[u];
	fx radius = ruleset_param(rs, b, "command.radius"), gap, best = -1;
	struct pt c, tc = { 0, 0 };
	int who = -1, v, s, near = -1;
	char w1[24], w2[24];
	size_t k = 0;

	out[0] = '\0';
	if (!battle_unit_centre(b, u, &c))
		return;
	gap = command_gap_of(b, u, &who);
	if (who >= 0)
		radius = vnb_command_reach(b, who);
	if (gap >= 0 && gap <= radius) {
		unsigned char in_cmd[BATTLE_MAX_STANDS];
		int cut = 0;

		k = preview_say(out, size, k, "      in command (%s, %s\" away)",
		    b->commanders[who].name, geom_fmt_fx(gap, w1, sizeof(w1)));
		vnb_command_stands(b, un->side, in_cmd);
		for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
			if (ALIVE(b, s) && (b->stands[s].flags & ST_ROUTED) !=
			    ST_ROUTED && !in_cmd[s])
				cut++;
		if (cut > 0)
			k = preview_say(out, size, k, ", but %d of its stands %s OUT OF "
			    "COMMAND:\n      not joined to a stand in command, %s "
			    "the unit to half a move", cut, cut == 1 ? "is" : "are",
			    cut == 1 ? "it holds" : "they hold");
		k = preview_say(out, size, k, "\n");
	}
	else if (gap >= 0)
		k = preview_say(out, size, k, "      OUT OF COMMAND: %s, the nearest "
		    "commander of its chain, is %s\" away\n      (command "
		    "reaches %s\")\n", b->commanders[who].name,
		    geom_fmt_fx(gap, w1, sizeof(w1)),
		    geom_fmt_fx(radius, w2, sizeof(w2)));
	else
		k = preview_say(out, size, k,
		    "      OUT OF COMMAND: no commander of its "
		    "chain is left\n");
	for (v = 0; v < b->nunits; v++) {
		fx d;

		if (b->units[v].side == un->side)
			continue;
		d = battle_unit_gap_seen(b, u, v, seen);
		if (d >= 0 && (best < 0 || d < best)) {
			best = d;
			near = v;
		}
	}
	if (near < 0) {
		k = preview_say(out, size, k, "      no enemy in sight\n");
		return;
	}
	{
		int brg, arc = (int)ruleset_param(rs, b, "arc");
		const struct unit *e = &b->units[near];
		char name[48];
		fx lng;

		battle_unit_centre_seen(b, near, seen, &tc);
		brg = geom_bearing(c, tc);
		k = preview_say(out, size, k, "      nearest enemy in sight: %s,\n"
		    "        %s\" to the %s (bearing %d)", e->name,
		    geom_fmt_fx(best, w1, sizeof(w1)), compass(brg), brg);
		snprintf(name, sizeof(name), "range.%s.long",
		    battle_weapon_name(un->weapon));
		if (un->weapon == WEAPON_NONE || !ruleset_has_param(rs, name)) {
			k = preview_say(out, size, k, "\n");
			return;
		}
		lng = ruleset_param(rs, b, name);
		if (best > lng)
			k = preview_say(out, size, k,
			    ", out of range (its %ss reach %s\")\n",
			    battle_weapon_name(un->weapon),
			    geom_fmt_fx(lng, w2, sizeof(w2)));
		else if (abs(geom_turn(unit_facing(b, u), brg)) > arc)
			k = preview_say(out, size, k, ", in range but outside its arc\n"
			    "        of fire (it faces %d)\n", unit_facing(b, u));
		else {
			fx sh;

			snprintf(name, sizeof(name), "range.%s.short",
			    battle_weapon_name(un->weapon));
			sh = ruleset_has_param(rs, name) ? ruleset_param(rs, b, name) :
			    lng;
			k = preview_say(out, size, k, ", in %s range of its %ss\n",
			    best <= sh ? "short" : "long",
			    battle_weapon_name(un->weapon));
		}
	}
}

/* The nearest enemy's line and the distance after it are one line where
 * they fit in a mail's 78 columns. */
void
vnb_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size)
{
	static const char brk[] = ",\n        ";
	char *p, *line, *end;
	size_t gap;

	situation_lines(b, u, seen, out, size);
	if ((p = strstr(out, "      nearest enemy in sight: ")) == NULL ||
	    (line = p, (p = strstr(p, brk)) == NULL))
		return;
	end = strchr(p + sizeof(brk) - 1, '\n');
	if (end == NULL)
		return;
	gap = sizeof(brk) - 1 - 2;      /* what goes: the LF and spaces */
	if ((size_t)(end - line) - gap > 78)
		return;
	p[1] = ' ';
	memmove(p + 2, p + sizeof(brk) - 1, strlen(p + sizeof(brk) - 1) + 1);
}

int
vnb_in_command(const struct battle *b, int u)
{
	unsigned char in_cmd[BATTLE_MAX_STANDS];
	int s;

	vnb_command_stands(b, b->units[u].side, in_cmd);
	for (s = b->units[u].first_stand; s < b->units[u].first_stand +
	    b->units[u].nstands; s++)
		if (ALIVE(b, s) && (b->stands[s].flags & ST_ROUTED) != ST_ROUTED &&
		    !in_cmd[s])
			return 0;
	return 1;
}

int
vnb_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f)
{
	const struct unit *un = &b->units[u];
	int s, lost = 0, n = 0;

	(void)seen;   /* its labels are on the stands for all to read */
	for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
		if (b->stands[s].flags & ST_GUNS_LOST)
			lost = 1;
	f[n++] = (struct unit_field){ "guns_abandoned", FIELD_BOOL, lost };
	f[n++] = (struct unit_field){ "poorly_trained", FIELD_BOOL,
	    (un->abil & ABIL_PT) != 0 };
	f[n++] = (struct unit_field){ "militia", FIELD_BOOL,
	    (un->abil & ABIL_MIL) != 0 };
	f[n++] = (struct unit_field){ "shock", FIELD_BOOL,
	    (un->abil & ABIL_SH) != 0 };
	f[n++] = (struct unit_field){ "sharpshooters", FIELD_BOOL,
	    (un->abil & ABIL_SS) != 0 };
	f[n++] = (struct unit_field){ "no_elites", FIELD_BOOL,
	    (un->abil & ABIL_NE) != 0 };
	return n;
}

/* FORM's word for unit u (what the order parser asks of the ruleset):
 * 0, or -1 with msg. */
int
vnb_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize)
{
	const struct unit *u = &b->units[who];
	int mounted = u->base_kind == KIND_MOUNTED;

	if (strcasecmp(word, "MOUNTED") == 0 && !mounted) {
		snprintf(msg, msize, "%s has no horses: FORM MOUNTED is for "
		    "cavalry (infantry forms LINE)", u->name);
		return -1;
	}
	if (strcasecmp(word, "LINE") == 0 && mounted) {
		snprintf(msg, msize, "%s is cavalry: it forms MOUNTED, SKIRMISH or "
		    "ROAD", u->name);
		return -1;
	}
	if (f == FORM_DISMOUNTED && !(u->abil & ABIL_MI)) {
		snprintf(msg, msize, "%s cannot dismount: only mounted infantry "
		    "(MI) fight on foot as well as mounted", u->name);
		return -1;
	}
	if (f == FORM_SKIRMISH && u->kind != KIND_DETACHMENT && !mounted &&
	    !(u->abil & ABIL_SK)) {
		snprintf(msg, msize, "%s cannot take skirmish order: only "
		    "detachments, mounted stands and infantry with the Skirmish "
		    "ability (which breaks into detachments) can", u->name);
		return -1;
	}
	if (f == FORM_DETACHMENTS && u->kind != KIND_DETACHMENT &&
	    !(u->abil & ABIL_SK)) {
		snprintf(msg, msize, "%s cannot break into detachments: only "
		    "infantry with the Skirmish ability can", u->name);
		return -1;
	}
	return 0;
}
