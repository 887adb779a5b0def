/*
 * bpw_preview.c - what a bpw player is told before the turn is played:
 * the crib (vnb-wing's numbers, then bpw's checks) and the order
 * reply's warnings (vnb-wing's, then bpw's: REFORM is a rally check, a
 * routed unit waits for its rally, who strikes first in a charge).
 * Pure: nothing here rolls or changes the battle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/geom.h"
#include "rules/bpw.h"
#include "rules/vnb_wing_int.h"

static size_t
say(char *out, size_t size, size_t k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t
say(char *out, size_t size, size_t k, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (k >= size)
		return k;
	va_start(ap, fmt);
	n = vsnprintf(out + k, size - k, fmt, ap);
	va_end(ap);
	if (n < 0)
		return k;
	return k + (size_t)n >= size ? size - 1 : k + (size_t)n;
}

static int
BP(const struct battle *b, const char *name)
{
	return ruleset_param(&ruleset_bpw, b, name);
}

void
bp_crib(const struct battle *b, int side, char *out, size_t size)
{
	size_t k;
	int u;

	vnb_crib(b, side, out, size);
	k = strlen(out);
	k = say(out, size, k, "  bpw's checks (Black Powder Wars ratings; "
	    "'despatch rules bpw' lists them):\n"
	    "    A unit that fires or melees makes a quality attack: a d6 less "
	    "its\n    quality (Guards %d, Regulars %d, Militia %d). 0 or more "
	    "forces a morale\n    check on the target, that much worse; "
	    "attacks add up, a later 0 counts %d.\n"
	    "    Morale check: a d6 less the hits taken and the attacks, +%d "
	    "cover,\n    +%d in command, -%d bloodied; its grade (Veteran %d, "
	    "Seasoned %d, Green %d)\n    passes. Short by 1-%d: disordered "
	    "(disordered already: routs); by more:\n    routs (disordered "
	    "already, conscript or bloodied: shatters).\n"
	    "    Rally (routed units in the rally step, disordered ones by "
	    "REFORM): the\n    check with %d to spare rallies, %d to spare "
	    "also acts as ordered.\n",
	    BP(b, "quality.guards"), BP(b, "quality.regulars"),
	    BP(b, "quality.militia"), BP(b, "quality.later-zero"),
	    BP(b, "check.cover"), BP(b, "check.leadership"),
	    BP(b, "bloodied.penalty"), BP(b, "grade.veteran"),
	    BP(b, "grade.seasoned"), BP(b, "grade.green"),
	    BP(b, "check.disorder-by"), BP(b, "rally.by"), BP(b, "rally.elan-by"));
	k = say(out, size, k, "  Your units' ratings:\n");
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];

		if (un->side != side)
			continue;
		k = say(out, size, k, "    %-28s  %s %s%s%s%s%s\n", un->name,
		    bp_grade_name(b, un->rules[BP_GRADE]),
		    bp_quality_name(b, un->rules[BP_QUALITY]),
		    bp_trait(b, u, BP_T_ELITE) ? ", elite" : "",
		    bp_trait(b, u, BP_T_CONSCRIPT) ? ", conscript" : "",
		    bp_trait(b, u, BP_T_HEAVY) ? ", heavy cavalry" :
		    bp_trait(b, u, BP_T_LANCERS) ? ", lancers" : "",
		    bp_bloodied(b, u) ? ", bloodied" : "");
	}
}

static int
stands_flagged(const struct battle *b, int u, unsigned flags, int all)
{
	const struct unit *un = &b->units[u];
	int s, any = 0;

	for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
		unsigned f = b->stands[s].flags;

		if ((f & ST_GONE) || (f & ST_AWAY))
			continue;
		if ((f & flags) == flags)
			any = 1;
		else if (all)
			return 0;
	}
	return any;
}

int
bp_preview(const struct battle *b, int open, int step,
    const struct order_set *set, char *out, size_t size)
{
	int warnings = vnb_preview_rules(b, open, step, set, out, size, 1), i, st;
	size_t k = strlen(out);
	char w1[24], w2[24];

	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];
		const struct unit *un;
		int reform = 0, charges;

		if (o->special != 0 || o->is_commander ||
		    battle_unit_alive(b, o->who) == 0)
			continue;
		un = &b->units[o->who];
		for (st = 0, charges = 0; st < o->nsteps; st++) {
			reform |= o->steps[st].verb == V_REFORM;
			charges += o->steps[st].verb == V_CHARGE;
		}
		if (charges > 1) {
			k = say(out, size, k, "  line %d: only %s's first CHARGE is "
			    "played: bpw has no breakthrough charges.\n", o->line,
			    un->name);
			warnings++;
		}
		if (stands_flagged(b, o->who, ST_ROUTED, 1)) {
			k = say(out, size, k, "  line %d: %s is routed: it makes a "
			    "rally check in the rally step,\n    after the moves; "
			    "these orders are not carried out this phase.\n",
			    o->line, un->name);
			warnings++;
			continue;
		}
		if (reform && !stands_flagged(b, o->who, ST_DISORDERED, 0)) {
			k = say(out, size, k, stands_flagged(b, o->who,
			    ST_PERMANENT, 0) ? "  line %d: %s's disorder is "
			    "permanent: REFORM cannot take it away.\n" :
			    "  line %d: %s is in good order: REFORM has nothing "
			    "to rally.\n", o->line, un->name);
			warnings++;
		} else if (reform) {
			k = say(out, size, k, "  line %d: %s's REFORM is a rally "
			    "check (%d+ with %d to spare): unless it\n    has %d "
			    "to spare, the rest of its orders wait and it does not "
			    "fire.\n", o->line, un->name, un->rules[BP_GRADE],
			    BP(b, "rally.by"), BP(b, "rally.elan-by"));
			warnings++;
		}
		for (st = 0; st < o->nsteps; st++) {
			int t = o->steps[st].target;
			fx gap;

			if (o->steps[st].verb != V_CHARGE || t < 0 ||
			    battle_unit_alive(b, t) == 0)
				continue;
			if (!(b->units[t].state[BP_STATE] & BP_S_MOVED))
				k = say(out, size, k, "  line %d: %s did not move in "
				    "its last phase: it strikes first if\n    %s "
				    "reaches it.\n", o->line, b->units[t].name,
				    un->name);
			else if ((gap = battle_unit_gap(b, o->who, t)) >
			    unit_rate(b, o->who) / 2)
				k = say(out, size, k, "  line %d: %s is %s\" from %s, "
				    "more than half its move (%s\"):\n    %s strikes "
				    "first if the charge reaches it.\n", o->line,
				    un->name, geom_fmt_fx(gap, w1, sizeof(w1)),
				    b->units[t].name, geom_fmt_fx(unit_rate(b, o->who) /
				    2, w2, sizeof(w2)), b->units[t].name);
			else
				continue;
			warnings++;
		}
	}
	(void)k;
	return warnings;
}
