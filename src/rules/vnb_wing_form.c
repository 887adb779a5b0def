/*
 * vnb_wing_form.c - formations for the vnb-wing adjudicator: changing a
 * unit's formation, the slots an infantry unit able to skirmish breaks
 * into, breaking and forming up again, and laying a unit's stands out
 * side by side (docs/rules-vnb-wing.md, Movement: Formations and
 * Detachments).  Pure, as the rest of it.
 */
#include "rules/vnb_wing_int.h"

#include <stdlib.h>

/* --- detachments ----------------------------------------------------- */

/* An infantry unit able to skirmish has, after its own stands, a slot for
 * each detachment they may break into: one a starting SP (ST_DETACH; a
 * default, docs/rules-vnb-wing.md, Formations).  The slots of the form the
 * unit is not in are spare (ST_GONE | ST_SPARE). */

int
vw_can_detach(const struct unit *un)
{
	return un->base_kind == KIND_INFANTRY && (un->abil & ABIL_SK) != 0;
}

/* How many detachments a stand of sp SP breaks into. */
int
vw_detachments_of(const struct battle *b, int sp)
{
	int per = ruleset_param(&ruleset_vnb_wing, b, "detachment.sp");

	return (sp + per - 1) / per;
}

/* The first detachment slot of formed stand p of unit u. */
int
vw_first_detachment(const struct battle *b, int u, int p)
{
	int s, k = b->units[u].first_stand;

	FOR_STANDS(b, u, s)
		if (!(b->stands[s].flags & ST_DETACH))
			k++;
	for (s = b->units[u].first_stand; s < p; s++)
		k += vw_detachments_of(b, b->stands[s].sp0);
	return k;
}

/* Lays unit u's stands on the table out side by side, touching, across
 * `facing`, centred on c. */
void
vw_lay_out_line(struct battle *b, int u, struct pt c, int facing)
{
	fx total = 0, at, w, d;
	int s;

	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			b->stands[s].facing = facing;
			battle_stand_size(b, s, &w, &d);
			total += w;
		}
	at = -total / 2;
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			battle_stand_size(b, s, &w, &d);
			b->stands[s].pos = geom_offset(c, facing + 90, at + w / 2);
			at += w;
		}
	battle_unit_moved(b, u);
}

/* 1 if unit u's stands are all on the table and clear of other units'. */
int
vw_unit_has_room(const struct battle *b, int u)
{
	struct pt r[4];
	int s, k, i;

	FOR_STANDS(b, u, s) {
		if (!alive(b, s))
			continue;
		battle_stand_rect(b, s, r);
		for (i = 0; i < 4; i++)
			if (r[i].x < 0 || r[i].y < 0 || r[i].x > b->width ||
			    r[i].y > b->depth)
				return 0;
		for (k = 0; k < b->nstands; k++)
			if (b->stands[k].unit != u && vw_stands_overlap(b, s, k))
				return 0;
	}
	return 1;
}

/* Whether unit u may change the stands it is made of: it has stands, none
 * of them routed; its centre and facing into *c and *facing.  0, or -1
 * with *why. */
static int
form_ready(const struct battle *b, int u, struct pt *c, int *facing,
    const char **why)
{
	int s;

	*facing = 0;
	if (!battle_unit_centre(b, u, c)) {
		*why = "it has no stands";
		return -1;
	}
	FOR_STANDS(b, u, s)
		if (alive(b, s)) {
			if (routed(b, s)) {
				*why = b->units[u].kind == KIND_DETACHMENT ?
				    "its routed detachments must rally first" :
				    "its routed stands must rally first";
				return -1;
			}
			*facing = b->stands[s].facing;
		}
	return 0;
}

/* The stands unit u is made of now laid out side by side on c, facing;
 * if they would not have room there, the unit as it was (from save).  0,
 * or -1 with *why. */
static int
form_settle(struct battle *b, int u, struct pt c, int facing,
    const struct stand *save, const char **why)
{
	int broken = b->units[u].kind == KIND_DETACHMENT;

	battle_sync_kinds(b);
	vw_lay_out_line(b, u, c, facing);
	if (!vw_unit_has_room(b, u)) {
		unit_restore(b, u, save);
		*why = broken ? "its stands would not have room there" :
		    "its detachments would not have room there";
		return -1;
	}
	return 0;
}

/* Breaks unit u's stands into detachments in `form` (line or skirmish),
 * laid out on the unit's centre.  Returns 0, or -1 with *why when it may
 * not (the unit is then as it was). */
int
vw_break_unit(struct battle *b, int u, enum formation form, struct stand *save,
    const char **why)
{
	struct pt c;
	int s, k, per, facing;

	if (form_ready(b, u, &c, &facing, why) != 0)
		return -1;
	unit_save(b, u, save);
	FOR_STANDS(b, u, s) {
		struct stand *p = &b->stands[s];
		int first;

		if ((p->flags & ST_DETACH) || !alive(b, s))
			continue;
		first = vw_first_detachment(b, u, s);
		per = ruleset_param(&ruleset_vnb_wing, b, "detachment.sp");
		for (k = 0; k * per < p->sp; k++) {
			struct stand *t = &b->stands[first + k];

			t->sp = p->sp - k * per < per ? p->sp - k * per : per;
			t->facing = p->facing;
			t->form = form;
			t->flags = ST_DETACH | (p->flags & (ST_DISORDERED |
			    ST_PERMANENT | ST_MARSH_ROLLED | ST_MARSH_X2 |
			    ST_MARSH_X4));
		}
		p->flags |= ST_GONE | ST_SPARE;
		p->flags &= ~ST_STATIONARY;
	}
	return form_settle(b, u, c, facing, save, why);
}

/* Forms unit u's detachments up into its infantry stands again, each from
 * the detachments it broke into, which must touch one another.  Returns 0,
 * or -1 with *why (the unit as it was). */
int
vw_reform_unit(struct battle *b, int u, fx contact, struct stand *save,
    const char **why)
{
	struct pt c;
	int s, k, j, facing;

	if (form_ready(b, u, &c, &facing, why) != 0)
		return -1;
	/* Each stand's detachments must be joined, touching in a chain. */
	FOR_STANDS(b, u, s) {
		int first, m, reached[64], changed, nalive = 0, nreached = 0;

		if (b->stands[s].flags & ST_DETACH)
			continue;
		first = vw_first_detachment(b, u, s);
		m = vw_detachments_of(b, b->stands[s].sp0);
		m = m < 64 ? m : 64;
		for (k = 0; k < m; k++) {
			reached[k] = 0;
			if (alive(b, first + k)) {
				nalive++;
				if (nreached == 0)
					reached[k] = nreached = 1;
			}
		}
		do {
			changed = 0;
			for (k = 0; k < m; k++)
				for (j = 0; j < m && !reached[k] && alive(b, first + k); j++)
					if (reached[j] && stand_gap(b, first + k,
					    first + j) <= contact) {
						reached[k] = 1;
						nreached++;
						changed = 1;
					}
		} while (changed);
		if (nreached < nalive) {
			*why = "the detachments of each of its stands must touch "
			    "one another to form up";
			return -1;
		}
	}
	unit_save(b, u, save);
	FOR_STANDS(b, u, s) {
		struct stand *p = &b->stands[s];
		int first, sp = 0;
		unsigned fl = 0;

		if (p->flags & ST_DETACH)
			continue;
		first = vw_first_detachment(b, u, s);
		for (k = 0; k < vw_detachments_of(b, p->sp0); k++) {
			struct stand *t = &b->stands[first + k];

			if (!(t->flags & ST_GONE)) {
				sp += t->sp;
				fl |= t->flags & (ST_DISORDERED | ST_PERMANENT |
				    ST_MARSH_ROLLED | ST_MARSH_X2 | ST_MARSH_X4);
			}
			t->flags = ST_DETACH | ST_GONE | ST_SPARE;
		}
		p->sp = sp;
		p->form = FORM_LINE;
		/* A stand none of whose detachments is left is lost. */
		p->flags = sp > 0 ? fl : ST_GONE;
	}
	return form_settle(b, u, c, facing, save, why);
}

/* Gives every infantry unit able to skirmish its detachment slots, and
 * breaks those the scenario put in skirmish order or detachments. */
int
vw_prepare_detachments(struct battle *b, struct err *e)
{
	struct stand *nw = NULL, *save = NULL;
	int u, s, k, n = 0;

	nw = calloc(BATTLE_MAX_STANDS, sizeof(*nw));
	save = calloc(BATTLE_MAX_STANDS, sizeof(*save));
	if (nw == NULL || save == NULL) {
		free(nw);
		free(save);
		return err_set(e, ERR_INTERNAL, "out of memory");
	}
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];
		int first = n;

		FOR_STANDS(b, u, s) {
			if (n >= BATTLE_MAX_STANDS) {
				free(nw);
				free(save);
				return err_set(e, ERR_USER, "too many stands with "
				    "their detachments (at most %d)",
				    BATTLE_MAX_STANDS);
			}
			nw[n++] = b->stands[s];
		}
		if (vw_can_detach(un))
			FOR_STANDS(b, u, s)
				for (k = 0; k < vw_detachments_of(b,
				    b->stands[s].sp0); k++) {
					if (n >= BATTLE_MAX_STANDS) {
						free(nw);
						free(save);
						return err_set(e, ERR_USER, "too many "
						    "stands with their detachments (at "
						    "most %d)", BATTLE_MAX_STANDS);
					}
					nw[n] = b->stands[s];
					nw[n].sp = nw[n].sp0 = ruleset_param(
					    &ruleset_vnb_wing, b, "detachment.sp");
					nw[n].form = FORM_LINE;
					nw[n].flags = ST_DETACH | ST_GONE | ST_SPARE;
					n++;
				}
		un->first_stand = first;
		un->nstands = n - first;
	}
	memcpy(b->stands, nw, (size_t)n * sizeof(*nw));
	b->nstands = n;
	free(nw);
	for (u = 0; u < b->nunits; u++) {
		enum formation f = FORM_LINE;
		const char *why = NULL;
		int away;

		if (!vw_can_detach(&b->units[u]))
			continue;
		FOR_STANDS(b, u, s)
			if (b->stands[s].form == FORM_SKIRMISH ||
			    b->stands[s].form == FORM_DETACHMENTS) {
				if (b->stands[s].form == FORM_SKIRMISH)
					f = FORM_SKIRMISH;
				b->stands[s].form = FORM_LINE;
				why = "";
			}
		if (why == NULL)
			continue;
		/* A reinforcement breaks as it will come on, and its
		 * detachments wait off the table as its stands did. */
		away = battle_unit_away(b, u);
		FOR_STANDS(b, u, s)
			if (b->stands[s].flags & ST_AWAY)
				b->stands[s].flags &= ~(ST_GONE | ST_AWAY);
		if (vw_break_unit(b, u, f, save, &why) != 0) {
			free(save);
			return err_set(e, ERR_USER, "\"%s\" cannot start in %s: %s",
			    b->units[u].name, f == FORM_SKIRMISH ? "skirmish order" :
			    "detachments", why);
		}
		FOR_STANDS(b, u, s)
			if (away && !(b->stands[s].flags & ST_GONE))
				b->stands[s].flags |= ST_GONE | ST_AWAY;
	}
	free(save);
	return 0;
}

/* --- formations ------------------------------------------------------ */

/* Refuses unit u's change of formation, for the movement it has left:
 * -1, as vw_change_formation returns. */
static long
refuse_no_room(struct ctx *c, int u)
{
	vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_NO_MOVEMENT_TO_FORM,
	    c->b->units[u].name);
	return -1;
}

/* Changes unit u's formation to `want` within `room` (COST units): what
 * it cost, or -1 (with an event) if it could not. */
static long change_formation(struct ctx *c, int u, enum formation want,
    long room);

long
vw_change_formation(struct ctx *c, int u, enum formation want, long room)
{
	long r = change_formation(c, u, want, room);

	/* The stands' sizes may change without their being laid out again
	 * (b->near keeps each unit's reach). */
	battle_unit_moved(c->b, u);
	return r;
}

static long
change_formation(struct ctx *c, int u, enum formation want, long room)
{
	struct battle *b = c->b;
	const struct unit *un = &b->units[u];
	enum formation cur = (enum formation)unit_form(b, u);
	int detached = un->kind == KIND_DETACHMENT && vw_can_detach(un);
	int breaking = 0, forming = 0, relay = 0, s;
	long half = COST(unit_rate(b, u) / 2), cost = 0;
	const char *why = NULL;
	struct pt cen;
	fx w0, w1, d;

	/* Mounted infantry dismount, and mount again, for half the move:
	 * on foot they are detachments. */
	if (want == FORM_DISMOUNTED || cur == FORM_DISMOUNTED) {
		if (!(un->abil & ABIL_MI) || un->base_kind != KIND_MOUNTED) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_NO_DISMOUNTED_FORM, un->name);
			return -1;
		}
		if (want == cur)
			return 0;
		if (want != FORM_DISMOUNTED && want != FORM_LINE) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_MUST_MOUNT_BEFORE, un->name);
			return -1;
		}
		if (cur == FORM_ROAD || cur == FORM_SKIRMISH) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_MUST_FORM_BEFORE, un->name);
			return -1;
		}
		if (half > room)
			return refuse_no_room(c, u);
		if (!unit_active_centre(b, u, &cen))
			return -1;
		unit_save(b, u, c->saved);
		FOR_STANDS(b, u, s)
			if (alive(b, s)) {
				b->stands[s].form = want;
				b->stands[s].flags &= ~(ST_STATIONARY | ST_RETIRES);
			}
		battle_sync_kinds(b);
		vw_lay_out_line(b, u, cen, unit_facing(b, u));
		if (!vw_unit_has_room(b, u)) {
			unit_restore(b, u, c->saved);
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_CANNOT_CHANGE_FORMATION,
			    un->name);
			return -1;
		}
		c->moved[u] = 1;
		if (want == FORM_DISMOUNTED)
			vw_ev(c, EV_MOVE, u, -1, 0, VW_M_DISMOUNTS_HALF_MOVE,
			    un->name);
		else
			vw_ev(c, EV_MOVE, u, -1, 0, VW_M_MOUNTS_HALF_MOVE,
			    un->name);
		return half;
	}
	if (want == FORM_DETACHMENTS && !vw_can_detach(un) &&
	    un->kind != KIND_DETACHMENT) {
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_CANNOT_BREAK_INTO,
		    un->name);
		return -1;
	}
	if (want == FORM_SKIRMISH && un->kind != KIND_DETACHMENT &&
	    un->kind != KIND_MOUNTED && !vw_can_detach(un)) {
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_CANNOT_TAKE_SKIRMISH,
		    un->name);
		return -1;
	}
	if (un->kind == KIND_INFANTRY && vw_can_detach(un) &&
	    (want == FORM_SKIRMISH || want == FORM_DETACHMENTS)) {
		breaking = 1;
		if (want == FORM_DETACHMENTS)
			want = FORM_LINE;
	} else if (detached && want == FORM_LINE) {
		forming = 1;
	} else if (want == FORM_DETACHMENTS) {
		/* Formed detachments are the detachments' line. */
		want = FORM_LINE;
		if (want == cur)
			return 0;
	} else if (want == cur) {
		return 0;
	}
	if (cur == FORM_ROAD && vw_unit_in_enemy_contact(c, u)) {
		vw_ev(c, EV_ORDER_REFUSED, u, -1, 0, VW_M_CANNOT_LEAVE_ROAD,
		    un->name);
		return -1;
	}
	/* Half the move to leave road march or skirmish order, and half to
	 * form detachments up into stands. */
	if (cur == FORM_ROAD || (cur == FORM_SKIRMISH && want != FORM_SKIRMISH))
		cost += half;
	if (forming)
		cost += half;
	if (cost > room)
		return refuse_no_room(c, u);
	if (!unit_active_centre(b, u, &cen))
		return -1;
	if (breaking) {
		if (vw_break_unit(b, u, want, c->saved, &why) != 0) {
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_CANNOT_BREAK_UP, un->name, why);
			return -1;
		}
	} else if (forming) {
		/* Out of skirmish order or road march first: the detachments
		 * side by side on their centre. */
		unit_save(b, u, c->saved);
		FOR_STANDS(b, u, s)
			if (alive(b, s))
				b->stands[s].form = FORM_LINE;
		if (cur != FORM_LINE)
			vw_lay_out_line(b, u, cen, unit_facing(b, u));
		if (vw_reform_unit(b, u, P(c, "contact"), c->saved + un->nstands,
		    &why) != 0) {
			unit_restore(b, u, c->saved);
			vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
			    VW_M_CANNOT_FORM_UP, un->name, why);
			return -1;
		}
	} else {
		battle_kind_size(un->kind, cur, &w0, &d);
		battle_kind_size(un->kind, want, &w1, &d);
		relay = w0 != w1;
		unit_save(b, u, c->saved);
		FOR_STANDS(b, u, s)
			if (alive(b, s))
				b->stands[s].form = want;
		/* Stands that change width are laid out side by side again. */
		if (relay) {
			vw_lay_out_line(b, u, cen, unit_facing(b, u));
			if (!vw_unit_has_room(b, u)) {
				unit_restore(b, u, c->saved);
				vw_ev(c, EV_ORDER_REFUSED, u, -1, 0,
				    VW_M_CANNOT_CHANGE_FORMATION, un->name);
				return -1;
			}
		}
	}
	/* Detachments are in command as the stand they broke from was, and
	 * a stand formed up again as any of its detachments was. */
	if (breaking || forming)
		FOR_STANDS(b, u, s) {
			int k, first;

			if (b->stands[s].flags & ST_DETACH)
				continue;
			first = vw_first_detachment(b, u, s);
			for (k = 0; k < vw_detachments_of(b, b->stands[s].sp0); k++)
				if (breaking)
					c->in_cmd[first + k] = c->in_cmd[s];
				else if (c->in_cmd[first + k])
					c->in_cmd[s] = 1;
		}
	FOR_STANDS(b, u, s)
		b->stands[s].flags &= ~ST_STATIONARY;
	c->moved[u] = 1;
	if (cur == FORM_ROAD)
		c->free_turn[u] = 1;
	if (breaking)
		vw_ev(c, EV_MOVE, u, -1, battle_unit_alive(b, u),
		    VW_M_BREAKS_INTO_DETACHMENTS, un->name, battle_unit_alive(b,
		    u),
		    want == FORM_SKIRMISH ? " in skirmish order" : "",
		    cost ? " (half its move)" : "");
	else if (forming)
		vw_ev(c, EV_MOVE, u, -1, battle_unit_alive(b, u),
		    VW_M_FORMS_UP_DETACHMENTS, un->name,
		    battle_unit_alive(b, u), battle_unit_alive(b, u) == 1 ?
		    "stand" : "stands", cost > half ? "all" : "half");
	else
		vw_ev(c, EV_MOVE, u, -1, 0, VW_M_FORMS, un->name,
		    want == FORM_LINE && un->kind == KIND_MOUNTED ? "mounted" :
		    want == FORM_LINE && un->kind == KIND_DETACHMENT ?
		    "detachments" : want == FORM_ROAD ? "road march" :
		    battle_form_name(want), cost ? " (half its move)" : "");
	return cost;
}
