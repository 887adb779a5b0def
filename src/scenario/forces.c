/*
 * forces.c - the scenario's sides and forces: side, commander, wing,
 * brigade, unit and stand lines, and the check that no two stands
 * overlap (format: docs/scenario.md).  Split from scenario.c, which reads
 * the file, the table, the terrain and the rest, along the parser's own
 * seam: what a line of forces declares nests under the side, brigade and
 * unit that came last (struct parser).
 */
#include "scenario/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ruleset.h"

int
scn_do_side(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	const char *c;
	int s, k;

	if (n < 3)
		return scn_perr(p, "expected 'side ID \"Name\"', for example "
		    "'side crown \"Tarleton's column\"'");
	for (c = t[1].s; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			return scn_perr(p, "side id '%s' may hold only letters, "
			    "digits and '-'", t[1].s);
	if (strlen(t[1].s) >= BATTLE_ID_MAX || t[1].quoted)
		return scn_perr(p, "side id '%s' must be a plain word under %d "
		    "characters", t[1].s, BATTLE_ID_MAX);
	s = battle_side(b, t[1].s);
	if (s >= 0 && b->sides[s].name[0] != '\0')
		return scn_perr(p, "side '%s' is declared twice", t[1].s);
	if (s < 0) {
		if (b->nsides == BATTLE_MAX_SIDES)
			return scn_perr(p, "too many sides (at most %d)",
			    BATTLE_MAX_SIDES);
		s = b->nsides++;
		snprintf(b->sides[s].id, sizeof(b->sides[s].id), "%s", t[1].s);
	}
	if (scn_want_name(p, t, n, 2, "a side name", b->sides[s].name,
	    sizeof(b->sides[s].name)) != 0)
		return -1;
	for (k = 3; k < n; k += 2) {
		/* 'nation N' and 'colour C': how the map draws the side. */
		if (strcmp(t[k].s, "nation") == 0 && k + 1 < n) {
			if ((b->sides[s].nation = battle_nation_find(t[k + 1].s)) ==
			    NATION_NONE)
				return scn_perr(p, "unknown nation '%s'; write one of "
				    "british, crown, continental, rebel, hessian, "
				    "french, loyalist or native", t[k + 1].s);
		} else if ((strcmp(t[k].s, "colour") == 0 ||
		    strcmp(t[k].s, "color") == 0) && k + 1 < n) {
			if (battle_colour_find(t[k + 1].s, b->sides[s].colour) != 0)
				return scn_perr(p, "unknown colour '%s'; write a name "
				    "(red, blue, dark-blue, white, green, brown, buff, "
				    "...) or \"#rrggbb\" in quotes", t[k + 1].s);
			b->sides[s].has_colour = 1;
		} else if ((strcmp(t[k].s, "nation") == 0 ||
		    strcmp(t[k].s, "colour") == 0 || strcmp(t[k].s, "color") ==
		    0) && k + 1 == n)
			return scn_perr(p, "'%s' wants a word after it, for example "
			    "'nation british' or 'colour \"#c81e1e\"' (in quotes: "
			    "a bare # starts a comment)", t[k].s);
		else
			return scn_perr(p, "unexpected '%s' after the side's name; "
			    "what may follow it is 'nation NATION' and 'colour "
			    "COLOUR'", t[k].s);
	}
	p->cur_side = s;
	p->cur_brigade = -1;
	p->cur_unit = -1;
	return 0;
}

/* Unit and commander names are what players write in order lines, so
 * they may not hold what the order language reads as structure. */
int
scn_orderable_name(struct parser *p, const char *name)
{
	if (name[0] == '#' || name[0] == '>' || name[0] == '-' ||
	    strchr(name, ':') != NULL)
		return scn_perr(p, "\"%s\" cannot be used in orders: a unit or "
		    "commander name may not start with '#', '>' or '-', nor hold "
		    "a ':'", name);
	return 0;
}

static int
add_commander(struct parser *p, const char *name, enum command_rank rank,
    int brigade, int unit, struct pt pos)
{
	struct battle *b = p->b;
	struct commander *c;

	if (scn_orderable_name(p, name) != 0)
		return -1;
	if (battle_find_commander(b, name) >= 0 || battle_find_unit(b, name) >= 0)
		return scn_perr(p, "the name \"%s\" is already used: every unit and "
		    "commander needs a name of its own", name);
	if (b->ncommanders == BATTLE_MAX_COMMANDERS)
		return scn_perr(p, "too many commanders (at most %d)",
		    BATTLE_MAX_COMMANDERS);
	c = &b->commanders[b->ncommanders];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->side = p->cur_side;
	c->brigade = brigade;
	c->rank = rank;
	c->unit = unit;
	c->attached = -1;
	c->pos = pos;
	c->facing = 0;
	return b->ncommanders++;
}

int
scn_do_commander(struct parser *p, struct tok *t, int n)
{
	char name[BATTLE_NAME_MAX];
	struct pt pos;
	int i;

	if (p->cur_side < 0)
		return scn_perr(p, "'commander' must follow a 'side' line");
	if (scn_want_name(p, t, n, 1, "the commander's name", name,
	    sizeof(name)) != 0)
		return -1;
	if (n >= 3 && strcmp(t[2].s, "unit") == 0) {
		/* The unit commander of the unit declared last. */
		if (p->cur_unit < 0)
			return scn_perr(p, "a unit commander ('commander \"Name\" "
			    "unit at x,y') must follow the line of its unit");
		if (scn_want_at(p, t, n, 3, "the unit commander", &pos) != 0)
			return -1;
		if (n > 5)
			return scn_perr(p, "unexpected '%s' after the position",
			    t[5].s);
		return add_commander(p, name, RANK_UNIT,
		    p->b->units[p->cur_unit].brigade, p->cur_unit, pos) < 0 ?
		    -1 : 0;
	}
	if (n < 3 || strcmp(t[2].s, "army") != 0)
		return scn_perr(p, "expected 'commander \"Name\" army at x,y' (the "
		    "side's army commander) or 'commander \"Name\" unit at "
		    "x,y' after a unit (its unit commander); brigade and wing "
		    "commanders go on the brigade and wing lines");
	for (i = 0; i < p->b->ncommanders; i++)
		if (p->b->commanders[i].side == p->cur_side &&
		    p->b->commanders[i].rank == RANK_ARMY)
			return scn_perr(p, "side '%s' already has an army commander "
			    "(\"%s\")", p->b->sides[p->cur_side].id,
			    p->b->commanders[i].name);
	if (scn_want_at(p, t, n, 3, "the commander", &pos) != 0)
		return -1;
	if (n > 5)
		return scn_perr(p, "unexpected '%s' after the position", t[5].s);
	return add_commander(p, name, RANK_ARMY, -1, -1, pos) < 0 ? -1 : 0;
}

/* wing "Name" commander "Name" at x,y */
int
scn_do_wing(struct parser *p, struct tok *t, int n)
{
	char wname[BATTLE_NAME_MAX], cname[BATTLE_NAME_MAX];
	struct pt pos;
	int i, c;

	if (p->cur_side < 0)
		return scn_perr(p, "'wing' must follow a 'side' line");
	if (scn_want_name(p, t, n, 1, "the wing's name", wname, sizeof(wname)) != 0)
		return -1;
	for (i = 0; i < p->nwings; i++)
		if (strcmp(p->wing_name[i], wname) == 0)
			return scn_perr(p, "wing \"%s\" is declared twice", wname);
	if (p->nwings == BATTLE_MAX_BRIGADES)
		return scn_perr(p, "too many wings (at most %d)", BATTLE_MAX_BRIGADES);
	if (n < 3 || strcmp(t[2].s, "commander") != 0)
		return scn_perr(p, "expected 'wing \"Name\" commander \"Name\" at "
		    "x,y'");
	if (scn_want_name(p, t, n, 3, "the wing commander's name", cname,
	    sizeof(cname)) != 0)
		return -1;
	if (scn_want_at(p, t, n, 4, "the wing commander", &pos) != 0)
		return -1;
	if (n > 6)
		return scn_perr(p, "unexpected '%s' after the position", t[6].s);
	c = add_commander(p, cname, RANK_WING, -1, -1, pos);
	if (c < 0)
		return -1;
	memcpy(p->wing_name[p->nwings], wname, sizeof(wname));
	p->wing_side[p->nwings] = p->cur_side;
	p->wing_cmd[p->nwings++] = c;
	return 0;
}

int
scn_do_brigade(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	struct brigade *br;
	char cname[BATTLE_NAME_MAX];
	struct pt pos;
	int c;

	if (p->cur_side < 0)
		return scn_perr(p, "'brigade' must follow a 'side' line");
	if (b->nbrigades == BATTLE_MAX_BRIGADES)
		return scn_perr(p, "too many brigades (at most %d)",
		    BATTLE_MAX_BRIGADES);
	br = &b->brigades[b->nbrigades];
	memset(br, 0, sizeof(*br));
	if (scn_want_name(p, t, n, 1, "the brigade's name", br->name,
	    sizeof(br->name)) != 0)
		return -1;
	if (battle_find_brigade(b, br->name) >= 0)
		return scn_perr(p, "brigade \"%s\" is declared twice", br->name);
	if (n < 3 || strcmp(t[2].s, "commander") != 0)
		return scn_perr(p, "expected 'brigade \"Name\" commander \"Name\" "
		    "at x,y'");
	if (scn_want_name(p, t, n, 3, "the brigade commander's name", cname,
	    sizeof(cname)) != 0)
		return -1;
	if (scn_want_at(p, t, n, 4, "the brigade commander", &pos) != 0)
		return -1;
	/* A brigade that comes to the battle exhausted (a campaign's,
	 * carried from an earlier one): the ruleset's exhaustion holds from
	 * the start; a ruleset without it pays it no heed. */
	if (n > 6 && !t[n - 1].quoted && strcmp(t[n - 1].s, "exhausted") == 0) {
		br->flags |= BR_EXHAUSTED;
		n--;
	}
	br->wing = -1;
	if (n > 6 && strcmp(t[6].s, "wing") == 0) {
		char wname[BATTLE_NAME_MAX];
		int i;

		if (scn_want_name(p, t, n, 7, "the wing's name", wname,
		    sizeof(wname)) != 0)
			return -1;
		for (i = 0; i < p->nwings; i++)
			if (strcmp(p->wing_name[i], wname) == 0 &&
			    p->wing_side[i] == p->cur_side)
				br->wing = p->wing_cmd[i];
		if (br->wing < 0)
			return scn_perr(p, "no wing \"%s\" on this side: declare it "
			    "first with 'wing \"%s\" commander \"Name\" at "
			    "x,y'", wname, wname);
		if (n > 8)
			return scn_perr(p, "unexpected '%s' after the wing", t[8].s);
	} else if (n > 6) {
		return scn_perr(p, "unexpected '%s' after the position (a brigade "
		    "line may end with 'wing \"Name\"' and 'exhausted')",
		    t[6].s);
	}
	br->side = p->cur_side;
	p->brigade_line[b->nbrigades] = p->line;
	c = add_commander(p, cname, RANK_BRIGADE, b->nbrigades, -1, pos);
	if (c < 0)
		return -1;
	br->commander = c;
	p->cur_brigade = b->nbrigades++;
	p->cur_unit = -1;
	return 0;
}

static int
parse_sp_list(struct parser *p, const char *s, int *sp, int max, int *count)
{
	char buf[256];
	char *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return scn_perr(p, "the SP list is too long");
	memcpy(buf, s, strlen(s) + 1);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		char *end = NULL;
		long v = strtol(tok, &end, 10);

		if (end == tok || *end || v < 1 || v > 20)
			return scn_perr(p, "'%s' is not a strength: each stand has "
			    "1 to 20 SP, written like 'sp 3' or 'sp 3,2'", s);
		if (n == max)
			return scn_perr(p, "more SP values than stands");
		sp[n++] = (int)v;
	}
	*count = n;
	return 0;
}

static int
add_stand(struct parser *p, int unit, int sp, struct pt pos, int facing,
    enum formation form)
{
	struct battle *b = p->b;
	struct stand *s;

	if (b->nstands == BATTLE_MAX_STANDS)
		return scn_perr(p, "too many stands (at most %d)", BATTLE_MAX_STANDS);
	s = &b->stands[b->nstands++];
	memset(s, 0, sizeof(*s));
	s->unit = unit;
	s->sp = s->sp0 = sp;
	s->pos = pos;
	s->facing = facing;
	s->form = form;
	if (b->units[unit].abil & ABIL_MIL)
		s->flags |= ST_PERMANENT;
	b->units[unit].nstands++;
	return 0;
}

/* The whole base of stand s must lie on the table. */
static int
check_base_on_table(struct parser *p, int s)
{
	struct pt r[4];
	int i;

	battle_stand_rect(p->b, s, r);
	for (i = 0; i < 4; i++)
		if (r[i].x < 0 || r[i].y < 0 || r[i].x > p->b->width ||
		    r[i].y > p->b->depth)
			return scn_perr(p, "a stand of \"%s\" hangs off the edge of the "
			    "table: move it in so its whole base is on the table",
			    p->b->units[p->b->stands[s].unit].name);
	return 0;
}

static int
want_formation(struct parser *p, struct unit *u, const char *w,
    enum formation *f)
{
	if (battle_form_parse(w, f) != 0)
		return scn_perr(p, "unknown formation '%s': expected line, "
		    "skirmish, detachments, road, mounted or dismounted", w);
	if (*f == FORM_DETACHMENTS && !(u->kind == KIND_INFANTRY &&
	    (u->abil & ABIL_SK)))
		return scn_perr(p, "\"%s\" cannot start broken into detachments: "
		    "only infantry with the SK ability can (a unit that is "
		    "detachments throughout takes the 'detachments' option on "
		    "its unit line)", u->name);
	if (*f == FORM_DISMOUNTED && (u->kind != KIND_MOUNTED ||
	    !(u->abil & ABIL_MI)))
		return scn_perr(p, "only mounted infantry (the MI ability, for "
		    "example type mounted-infantry) can be dismounted");
	if (*f == FORM_SKIRMISH && u->kind != KIND_DETACHMENT &&
	    u->kind != KIND_MOUNTED && !(u->abil & ABIL_SK))
		return scn_perr(p, "\"%s\" cannot be in skirmish order: only "
		    "detachments, mounted stands and units with the SK ability "
		    "can", u->name);
	return 0;
}

static int
want_facing(struct parser *p, struct tok *t, int n, int i, int *out)
{
	if (i + 1 >= n || strcmp(t[i].s, "facing") != 0)
		return scn_perr(p, "expected 'facing DEGREES' (0 north, 90 east, "
		    "180 south, 270 west)");
	return scn_want_int(p, t, n, i + 1, "facing in degrees", 0, 359, out);
}

/* The index of w among rs's own unit numbers, or -1. */
static int
own_number(const struct ruleset *rs, const char *w)
{
	int k;

	for (k = 0; k < rs->nunit_numbers; k++)
		if (strcmp(rs->unit_numbers[k].word, w) == 0)
			return k;
	return -1;
}

int
scn_do_unit(struct parser *p, struct tok *t, int n)
{
	struct battle *b = p->b;
	const struct troop_type *tt;
	struct unit *u;
	int i, ui, nk, nst = 0, sp[64], nsp = 0, facing = 0, have_at = 0;
	int full[64], nfull = 0;
	struct pt at = { 0, 0 };
	enum formation form = FORM_LINE;

	if (p->cur_brigade < 0)
		return scn_perr(p, "'unit' must follow a 'brigade' line (every "
		    "unit belongs to a brigade)");
	if (p->rs == NULL)
		return scn_perr(p, "'ruleset' must come before the first unit");
	if (b->nunits == BATTLE_MAX_UNITS)
		return scn_perr(p, "too many units (at most %d)", BATTLE_MAX_UNITS);
	ui = b->nunits;
	u = &b->units[ui];
	memset(u, 0, sizeof(*u));
	if (scn_want_name(p, t, n, 1, "the unit's name", u->name,
	    sizeof(u->name)) != 0)
		return -1;
	if (battle_find_unit(b, u->name) >= 0 ||
	    battle_find_commander(b, u->name) >= 0)
		return scn_perr(p, "the name \"%s\" is already used: every unit and "
		    "commander needs a name of its own", u->name);
	if (scn_orderable_name(p, u->name) != 0)
		return -1;
	if (n < 4 || strcmp(t[2].s, "type") != 0)
		return scn_perr(p, "expected 'type TYPE' after the unit's name (see "
		    "'despatch rules %s' for the troop types)", p->rs->name);
	tt = ruleset_type(p->rs, t[3].s);
	if (tt == NULL)
		return scn_perr(p, "unknown troop type '%s' for %s (see 'despatch "
		    "rules %s' for the list)", t[3].s, p->rs->name, p->rs->name);
	snprintf(u->type, sizeof(u->type), "%s", tt->id);
	u->side = p->cur_side;
	u->brigade = p->cur_brigade;
	u->kind = tt->kind;
	u->speed = FX(tt->speed);
	u->morale = tt->morale;
	u->weapon = tt->weapon;
	u->abil = tt->abil;
	u->first_stand = b->nstands;
	for (i = 4; i < n; i++) {
		const char *w = t[i].s;

		if (strcmp(w, "morale") == 0) {
			if (scn_want_int(p, t, n, ++i, "morale", 1, 9, &u->morale))
				return -1;
		} else if (strcmp(w, "speed") == 0) {
			int sp_in;

			if (scn_want_int(p, t, n, ++i, "speed in inches", 1, 48,
			    &sp_in))
				return -1;
			u->speed = FX(sp_in);
		} else if (strcmp(w, "weapon") == 0) {
			if (++i >= n || ruleset_weapon_parse(p->rs, t[i].s,
			    &u->weapon)) {
				char also[128] = "";
				int k;

				for (k = 0; p->rs->weapons != NULL &&
				    p->rs->weapons[k] != NULL; k++)
					snprintf(also + strlen(also), sizeof(also) -
					    strlen(also), "%s, ", p->rs->weapons[k]);
				return scn_perr(p, "expected a weapon: musket, rifle, "
				    "%snative, light-gun, field-gun, howitzer, "
				    "heavy-gun or none", also);
			}
		} else if (strcmp(w, "detachments") == 0) {
			if (u->kind != KIND_INFANTRY && u->kind != KIND_DETACHMENT)
				return scn_perr(p, "only infantry can be detachments");
			u->kind = KIND_DETACHMENT;
		} else if ((w[0] == '+' || w[0] == '-') && w[1]) {
			static const struct { const char *n; unsigned f; } ab[] = {
				{ "SS", ABIL_SS }, { "R", ABIL_R }, { "SK", ABIL_SK },
				{ "Sh", ABIL_SH }, { "NE", ABIL_NE }, { "MC", ABIL_MC },
				{ "PT", ABIL_PT }, { "MIL", ABIL_MIL }, { "MI", ABIL_MI },
				{ "NA", ABIL_NA },
			};
			size_t k;

			for (k = 0; k < sizeof(ab) / sizeof(ab[0]); k++)
				if (strcmp(ab[k].n, w + 1) == 0)
					break;
			if (k == sizeof(ab) / sizeof(ab[0]))
				return scn_perr(p, "unknown ability '%s': expected "
				    "+ or - and one of SS, R, SK, Sh, NE, MC, PT, "
				    "MIL, MI, NA", w);
			if (w[0] == '+')
				u->abil |= ab[k].f;
			else
				u->abil &= ~ab[k].f;
		} else if (strcmp(w, "stands") == 0) {
			if (scn_want_int(p, t, n, ++i, "number of stands", 1, 64, &nst))
				return -1;
		} else if (strcmp(w, "sp") == 0) {
			if (++i >= n)
				return scn_perr(p, "'sp' needs the stands' strength");
			if (parse_sp_list(p, t[i].s, sp, 64, &nsp) != 0)
				return -1;
		} else if (strcmp(w, "full") == 0) {
			if (++i >= n)
				return scn_perr(p, "'full' needs the stands' strength at "
				    "full establishment, like 'full 3,3'");
			if (parse_sp_list(p, t[i].s, full, 64, &nfull) != 0)
				return -1;
		} else if (strcmp(w, "at") == 0) {
			if (scn_want_at(p, t, n, i, "the unit", &at) != 0)
				return -1;
			have_at = 1;
			i++;
		} else if (strcmp(w, "facing") == 0) {
			if (want_facing(p, t, n, i, &facing) != 0)
				return -1;
			i++;
		} else if ((nk = own_number(p->rs, w)) >= 0) {
			const struct unit_number *un = &p->rs->unit_numbers[nk];
			int v;

			if (scn_want_int(p, t, n, ++i, un->what, un->lo, un->hi, &v))
				return -1;
			p->rs->unit_number_set(b, ui, nk, v);
		} else if (strcmp(w, "arrives") == 0) {
			/* a reinforcement: off the table until that turn */
			if (scn_want_int(p, t, n, ++i, "the turn it comes on", 1,
			    999, &u->arrives))
				return -1;
		} else if (strcmp(w, "frontage") == 0) {
			if (++i >= n || geom_parse_fx(t[i].s, &u->base_w) != 0 ||
			    u->base_w < FX(0.5) || u->base_w > FX(12))
				return scn_perr(p, "'frontage' needs the width of the "
				    "unit's bases in inches, 0.5 to 12 (for example "
				    "'frontage 2.4' for 60 mm)");
		} else if (strcmp(w, "origin") == 0) {
			size_t k;

			if (++i >= n || t[i].quoted || t[i].s[0] == '\0' ||
			    strlen(t[i].s) >= sizeof(u->origin))
				return scn_perr(p, "'origin' needs a word: british, "
				    "highlander, german, loyalist, american, maryland, "
				    "delaware, french or native");
			static const char *const origins[] = { "british",
				"highlander", "german", "loyalist", "american",
				"maryland", "delaware", "french", "native" };

			for (k = 0; t[i].s[k]; k++)
				u->origin[k] = (char)tolower((unsigned char)t[i].s[k]);
			u->origin[k] = '\0';
			for (k = 0; k < sizeof(origins) / sizeof(origins[0]); k++)
				if (strcmp(origins[k], u->origin) == 0)
					break;
			if (k == sizeof(origins) / sizeof(origins[0]))
				return scn_perr(p, "unknown origin '%s': expected "
				    "british, highlander, german, loyalist, american, "
				    "maryland, delaware, french or native", t[i].s);
		} else if (!t[i].quoted && battle_form_parse(w, &form) == 0) {
			if (want_formation(p, u, w, &form) != 0)
				return -1;
		} else {
			char own[200] = "";
			size_t o = 0;

			for (nk = 0; nk < p->rs->nunit_numbers && o < sizeof(own);
			    nk++)
				o += (size_t)snprintf(own + o, sizeof(own) - o, "%s, ",
				    p->rs->unit_numbers[nk].word);
			return scn_perr(p, "unexpected '%s' in the unit line (expected "
			    "morale, %sfrontage, speed, weapon, +ABIL, -ABIL, "
			    "detachments, origin, arrives, stands, sp, full, at, "
			    "facing or a formation)", w, own);
		}
	}
	if (u->abil & ABIL_MIL)
		u->abil |= ABIL_PT;
	/* The Rifles ability is what the weapon says. */
	if ((u->abil & ABIL_R) && u->weapon == WEAPON_MUSKET)
		u->weapon = WEAPON_RIFLE;
	if (u->weapon == WEAPON_RIFLE)
		u->abil |= ABIL_R;
	u->base_kind = u->kind;
	p->unit_line[b->nunits] = p->line;
	b->nunits++;
	p->cur_unit = ui;
	/* The ruleset's frontage for its stands, where the line gives none. */
	if (u->base_w == 0 && p->rs->stand_width > 0)
		u->base_w = p->rs->stand_width;
	if (!have_at && nst == 0 && nsp == 0) {
		p->unit_by_stand = 1;
		return 0;
	}
	p->unit_by_stand = 0;
	if (!have_at)
		return scn_perr(p, "the unit needs 'at x,y' (its centre), or no "
		    "placement at all and 'stand' lines below it");
	if (nst == 0)
		nst = nsp > 0 ? nsp : 1;
	if (nsp == 0)
		return scn_perr(p, "the unit needs 'sp N' (strength of each stand)");
	if (nsp != 1 && nsp != nst)
		return scn_perr(p, "'stands %d' but %d SP values: give one value "
		    "for all stands or one per stand", nst, nsp);
	if (nfull != 0 && nfull != 1 && nfull != nst)
		return scn_perr(p, "'stands %d' but %d 'full' values: give one "
		    "value for all stands or one per stand", nst, nfull);
	for (i = 0; i < nst && nfull > 0; i++)
		if ((nsp == 1 ? sp[0] : sp[i]) > (nfull == 1 ? full[0] : full[i]))
			return scn_perr(p, "stand %d has %d SP but only %d at full "
			    "strength: 'full' may not be less than 'sp'", i + 1,
			    nsp == 1 ? sp[0] : sp[i], nfull == 1 ? full[0] : full[i]);
	for (i = 0; i < nst; i++) {
		fx w, d, off;
		struct pt pos;

		battle_kind_size(u->kind, form, &w, &d);
		if (u->base_w > 0)
			w = u->base_w;
		/* Side by side across the facing, stand 1 on the left. */
		off = (fx)(((2 * i) - (nst - 1)) * (int64_t)w / 2);
		pos = geom_offset(at, facing + 90, off);
		if (scn_check_on_table(p, pos, "a stand of the unit") != 0)
			return -1;
		if (add_stand(p, ui, nsp == 1 ? sp[0] : sp[i], pos, facing,
		    form) != 0 || check_base_on_table(p, b->nstands - 1) != 0)
			return -1;
		/* Losses not yet made good count as lost already (a
		 * campaign's carried strength): the stand's strength at the
		 * start is its full strength. */
		if (nfull > 0)
			b->stands[b->nstands - 1].sp0 = nfull == 1 ? full[0] :
			    full[i];
		if (u->arrives > 0)
			b->stands[b->nstands - 1].flags |= ST_GONE | ST_AWAY;
	}
	return 0;
}

int
scn_do_stand(struct parser *p, struct tok *t, int n)
{
	struct unit *u;
	struct pt pos;
	int sp = 0, facing = 0, i;
	enum formation form = FORM_LINE;

	if (p->cur_unit < 0 || !p->unit_by_stand)
		return scn_perr(p, "'stand' must follow a 'unit' line that has no "
		    "'stands'/'at' of its own");
	u = &p->b->units[p->cur_unit];
	if (p->cur_unit != p->b->nunits - 1)
		return scn_perr(p, "'stand' must follow its unit directly");
	if (scn_want_int(p, t, n, 2, "SP", 1, 20, &sp) != 0 ||
	    strcmp(t[1].s, "sp") != 0)
		return scn_perr(p, "expected 'stand sp N at x,y facing F'");
	if (scn_want_at(p, t, n, 3, "the stand", &pos) != 0)
		return -1;
	if (want_facing(p, t, n, 5, &facing) != 0)
		return -1;
	for (i = 7; i < n; i++)
		if (want_formation(p, u, t[i].s, &form) != 0)
			return -1;
	if (add_stand(p, p->cur_unit, sp, pos, facing, form) != 0)
		return -1;
	if (u->arrives > 0)
		p->b->stands[p->b->nstands - 1].flags |= ST_GONE | ST_AWAY;
	return check_base_on_table(p, p->b->nstands - 1);
}

/* Stands of different units may touch but not overlap (a 0.05" margin
 * allows for stands laid edge to edge). */
int
scn_check_overlaps(struct parser *p)
{
	struct battle *b = p->b;
	int i, j;

	for (i = 0; i < b->nstands; i++) {
		struct pt ri[4];

		battle_stand_rect_inset(b, i, 5, ri);
		for (j = i + 1; j < b->nstands; j++) {
			struct pt rj[4];
			int ui = b->stands[i].unit, uj = b->stands[j].unit;

			/* (a reinforcement is not on the table yet) */
			if (ui == uj || ((b->stands[i].flags |
			    b->stands[j].flags) & ST_AWAY))
				continue;
			/* Far apart: no need for the exact test. */
			if (abs(b->stands[i].pos.x - b->stands[j].pos.x) > 1200 ||
			    abs(b->stands[i].pos.y - b->stands[j].pos.y) > 1200)
				continue;
			battle_stand_rect_inset(b, j, 5, rj);
			if (geom_rect_dist(ri, rj) == 0) {
				p->line = p->unit_line[uj];
				return scn_perr(p, "a stand of \"%s\" overlaps a stand of "
				    "\"%s\": stands may touch but not stand on each "
				    "other", b->units[uj].name, b->units[ui].name);
			}
		}
	}
	return 0;
}
