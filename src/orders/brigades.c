/*
 * brigades.c - an order to a brigade ("Main Line: ADVANCE 6"), given to
 * each of its units once the whole mail is read, so that a unit's own
 * line, before or after it, wins; and the answer that says which units
 * it moved, which have their own orders, and which hold and why
 * (docs/orders.md, "Brigades").
 *
 * Workload: a few brigade lines a mail at most, each read again for each
 * of its units (a few dozen).
 */
#include "orders/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What became of a brigade line for one of its units. */
enum bl_fate { BL_FOR = 0, BL_OWN, BL_BADLINE, BL_CANNOT };

struct bl_unit {
	int unit;
	enum bl_fate fate;
	int line;                   /* BL_OWN, BL_BADLINE: its own line */
	char why[ORDERS_TEXT_MAX];  /* BL_CANNOT: why it cannot */
};

/* The report of a brigade line that some of its units cannot take: after
 * head ("Main Line (brigade): FORM SKIRMISH, for ..."), each unit that
 * holds and why, units that cannot for the same reason together, and
 * each unit with an order of its own.  With short set, each reason is
 * cut at its first colon (so that it fits).  Into out (size bytes);
 * returns the length it needed. */
static size_t
brigade_report(const struct battle *b, const char *head,
    const struct bl_unit *us, int n, int brief, char *out, size_t size)
{
	size_t k = (size_t)snprintf(out, size, "%s", head);
	int i, j;

	for (i = 0; i < n; i++) {
		const struct bl_unit *x = &us[i];
		const char *colon;
		int same = 0, many;

		if (x->fate == BL_FOR)
			continue;
		if (x->fate == BL_OWN) {
			k += (size_t)snprintf(out + k, k < size ? size - k : 0,
			    "; %s has its own order (line %d)",
			    b->units[x->unit].name, x->line);
			continue;
		}
		if (x->fate == BL_BADLINE) {
			k += (size_t)snprintf(out + k, k < size ? size - k : 0,
			    "; %s holds: its own line %d could not be read",
			    b->units[x->unit].name, x->line);
			continue;
		}
		/* Said already with an earlier unit of the same reason? */
		for (j = 0; j < i; j++)
			if (us[j].fate == BL_CANNOT && strcmp(us[j].why, x->why) == 0)
				break;
		if (j < i)
			continue;
		for (j = i; j < n; j++)
			if (us[j].fate == BL_CANNOT && strcmp(us[j].why, x->why) == 0)
				same++;
		many = same > 1;
		k += (size_t)snprintf(out + k, k < size ? size - k : 0, "; %s",
		    b->units[x->unit].name);
		for (j = i + 1; j < n; j++)
			if (us[j].fate == BL_CANNOT && strcmp(us[j].why, x->why) == 0)
				k += (size_t)snprintf(out + k, k < size ? size - k : 0,
				    "%s %s", --same > 1 ? "," : " and",
				    b->units[us[j].unit].name);
		colon = brief ? strchr(x->why, ':') : NULL;
		k += (size_t)snprintf(out + k, k < size ? size - k : 0, " %s: %.*s",
		    many ? "hold" : "holds", colon != NULL ?
		    (int)(colon - x->why) : (int)strlen(x->why), x->why);
	}
	return k;
}

void
orders_expand_brigades(struct orders_parser *p, const struct battle *b, int side,
    const struct bline *bl, int nbl, const int *seen_units,
    const int *standing_units, struct orders_result *out)
{
	struct bl_unit *us = NULL;
	int k, u;

	for (k = 0; k < nbl; k++) {
		struct order_set *set = bl[k].standing ? &out->standing : &out->set;
		const int *seen_unit = bl[k].standing ? standing_units : seen_units;
		struct orders_line *l = bl[k].li >= 0 ? &out->lines[bl[k].li] : NULL;
		char echo[ORDERS_TEXT_MAX], rep[4 * ORDERS_TEXT_MAX];
		size_t e;
		int count = 0, cut = 0, nus = 0, cannot = 0, badline = 0;

		if (bl[k].line <= 0)
			continue;   /* replaced by a later line for its brigade */
		if (us == NULL)
			us = calloc(BATTLE_MAX_UNITS, sizeof(*us));
		if (us == NULL) {
			if (l != NULL) {
				snprintf(l->text, sizeof(l->text), "out of memory");
				l->status = ORDERS_ERROR;
				out->nerrors++;
			}
			continue;
		}
		/* The brigade's name, if it was read as the nearest, and the
		 * names in its order are noted together. */
		snprintf(p->near_note, sizeof(p->near_note), "%s", bl[k].read_as);
		p->near = bl[k].read_as[0] != '\0';

		e = (size_t)snprintf(echo, sizeof(echo), "%s (brigade): %s, for",
		    b->brigades[bl[k].brigade].name, bl[k].what);
		for (u = 0; u < b->nunits; u++) {
			struct bl_unit *x = &us[nus];
			struct order o;
			char msg[ORDERS_TEXT_MAX];

			/* (a unit still to come on takes its brigade's order
			 * for when it is on) */
			if (b->units[u].brigade != bl[k].brigade ||
			    b->units[u].side != side || (battle_unit_alive(b, u) == 0 &&
			    !battle_unit_away(b, u)))
				continue;
			x->unit = u;
			x->fate = BL_FOR;
			nus++;
			if (seen_unit[u] != 0) {
				x->fate = seen_unit[u] < 0 ? BL_BADLINE : BL_OWN;
				x->line = seen_unit[u] < 0 ? -seen_unit[u] : seen_unit[u];
				badline |= seen_unit[u] < 0;
				continue;
			}
			memset(&o, 0, sizeof(o));
			o.who = u;
			o.line = bl[k].line;
			p->cut = 0;
			p->line_standing = bl[k].standing;
			if (strncasecmp(bl[k].what, "DEPLOY", 6) == 0 &&
			    (bl[k].what[6] == '\0' || orders_sp((unsigned char)
			    bl[k].what[6]))) {
				/* a brigade's units at one point would stand on
				 * one another */
				snprintf(msg, sizeof(msg), "DEPLOY is given unit by "
				    "unit: write a line for each unit of the brigade");
				x->fate = BL_CANNOT;
				snprintf(x->why, sizeof(x->why), "%s", msg);
				cannot = 1;
				continue;
			}
			if (orders_parse_chain(p, b, side, 0, u, bl[k].what, &o, msg,
			    sizeof(msg)) != 0) {
				size_t nl = strlen(b->units[u].name);

				/* "7th Foot cannot ...": the name is said once. */
				x->fate = BL_CANNOT;
				snprintf(x->why, sizeof(x->why), "%s",
				    strncmp(msg, b->units[u].name, nl) == 0 &&
				    msg[nl] == ' ' ? msg + nl + 1 : msg);
				cannot = 1;
				continue;
			}
			/* In line order with the rest of the set. */
			if (set->n < ORDER_SET_MAX) {
				int at = set->n;

				while (at > 0 && set->orders[at - 1].line > o.line)
					at--;
				memmove(&set->orders[at + 1], &set->orders[at],
				    (size_t)(set->n - at) * sizeof(o));
				set->orders[at] = o;
				set->n++;
			}
			if (e < sizeof(echo))
				e += (size_t)snprintf(echo + e, sizeof(echo) - e, "%s %s",
				    count ? "," : "", b->units[u].name);
			count++;
			cut |= p->cut;
		}
		p->cut = 0;
		if (count == 0 && e < sizeof(echo))
			e += (size_t)snprintf(echo + e, sizeof(echo) - e, " no unit");
		if (cut && e < sizeof(echo))
			e += (size_t)snprintf(echo + e, sizeof(echo) - e, "   (only "
			    "the first %d parts are kept: what follows was left out)",
			    ORDER_MAX_STEPS);
		if (p->near && e < sizeof(echo))
			e += (size_t)snprintf(echo + e, sizeof(echo) - e,
			    "   (read %s)", p->near_note);
		p->near = 0;
		if (l == NULL)
			continue;
		if (cannot || badline) {
			/* Some unit holds that the player may think moves: each
			 * unit of the brigade is told, and why. */
			if (brigade_report(b, echo, us, nus, 0, rep, sizeof(rep)) >=
			    sizeof(l->text) &&
			    brigade_report(b, echo, us, nus, 1, rep, sizeof(rep)) >=
			    sizeof(l->text))
			{
				size_t at = sizeof(l->text) - 40;

				while (at > 0 && ((unsigned char)rep[at] & 0xc0) == 0x80)
					at--;
				snprintf(rep + at, sizeof(rep) - at, " [cut: the rest "
				    "is too long]");
			}
			orders_copy_text(l->text, sizeof(l->text), rep);
			if (count == 0 && cannot) {
				l->status = ORDERS_ERROR;
				out->nerrors++;
			}
		} else if (count == 0) {
			char w[200];

			orders_copy_text(w, sizeof(w), bl[k].what);
			snprintf(l->text, sizeof(l->text), "%s (brigade): %s, for "
			    "no unit: each has an order of its own or is off the table",
			    b->brigades[bl[k].brigade].name, w);
		} else {
			orders_copy_text(l->text, sizeof(l->text), echo);
		}
		utf8_trim_tail(l->text);
	}
	free(us);
}

