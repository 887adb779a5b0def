/*
 * bpw_data.c - the bpw ruleset's table: its numbers (each marked text or
 * default), the ratings a troop type takes when the scenario gives none,
 * the scenario's `rating` lines, and what the reports call things.
 * vnb-wing's numbers, types and orders are vnb-wing's (struct
 * ruleset.base): bpw's table holds only its own.
 *
 * Source: "Black Powder Wars: Ratings and Numbers" (shared/seeds/001).
 * docs/rules-bpw.md says how it is read.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/deploy.h"
#include "rules/bpw.h"
#include "rules/bpw_msgs.h"
#include "rules/vnb_wing.h"

#define TEXT "text"
#define DEF "default"

static const struct rule_param bp_params[] = {
	{ .name = "grade.green", .value = 5, .source = TEXT, .why = "Green troops pass a morale check on 5+", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "grade.seasoned", .value = 4, .source = TEXT, .why = "Seasoned troops pass on 4+", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "grade.veteran", .value = 3, .source = TEXT, .why = "Veteran troops pass on 3+", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "quality.militia", .value = 5, .source = TEXT, .why = "Militia make a quality attack with a d6 less 5", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "quality.regulars", .value = 4, .source = TEXT, .why = "Regulars: a d6 less 4", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "quality.guards", .value = 3, .source = TEXT, .why = "Guards: a d6 less 3", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "check.disorder-by", .value = 2, .source = TEXT, .why = "a check failed by 1 or 2 disorders; by more, it routs", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "check.cover", .value = 1, .source = DEF, .why = "+1 to a check in cover (woods, buildings, works): the text names terrain modifiers and gives no number", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "check.leadership", .value = 1, .source = DEF, .why = "+1 to a check in command or with a superior commander touching (at most +1): the text names leadership modifiers and gives no number", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "rally.by", .value = 2, .source = TEXT, .why = "a rally check passed with 2 to spare rallies (routed to disordered) or reforms (disordered to good order)", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "rally.elan-by", .value = 3, .source = TEXT, .why = "with 3 to spare it also acts normally that phase", .unit = PARAM_COUNT, .min = 0, .max = 7 },
	{ .name = "bloodied.penalty", .value = 1, .source = TEXT, .why = "a bloodied unit is 1 worse on its morale and quality rolls", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "quality.later-zero", .value = 1, .source = TEXT, .why = "once a check is forced, a later quality attack of 0 counts against it as 1", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "heavy.bonus", .value = 1, .source = TEXT, .why = "heavy cavalry in good order: +1 to its quality roll attacking infantry", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "lancers.bonus", .value = 1, .source = TEXT, .why = "lancers in good order: +1 to the quality roll attacking cavalry that are not lancers", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "rout.sp-loss", .value = 0, .source = DEF, .why = "a rout takes no SP: the text adds none, and the hits have taken theirs (vnb-wing's routing stand loses 1)", .unit = PARAM_COUNT, .min = 0, .max = 20 },
};

/* bpw's message catalogue (bpw_msgs.h), for the templates' checks;
 * vnb-wing's messages are checked against vnb-wing's. */
static const struct event_msg bp_messages[] = {
	EVENT_MSG(BP_M_CHECK_HOLDS),
	EVENT_MSG(BP_M_CHECK_DISORDERED),
	EVENT_MSG(BP_M_CHECK_ROUTS),
	EVENT_MSG(BP_M_CHECK_SHATTERS),
	EVENT_MSG(BP_M_SHATTERED),
	EVENT_MSG(BP_M_QUALITY_FORCES),
	EVENT_MSG(BP_M_QUALITY_ADDS),
	EVENT_MSG(BP_M_QUALITY_FAILS),
	EVENT_MSG(BP_M_RALLIES),
	EVENT_MSG(BP_M_RALLIES_ELAN),
	EVENT_MSG(BP_M_RALLY_FAILS),
	EVENT_MSG(BP_M_RALLY_TURNS),
	EVENT_MSG(BP_M_BLOODIED),
	EVENT_MSG(BP_M_NOTHING_TO_REFORM),
	EVENT_MSG(BP_M_PERMANENT_DISORDER),
	EVENT_MSG(BP_M_ORDERS_DROPPED),
	EVENT_MSG(BP_M_HOLDS_FIRE_RALLY),
	EVENT_MSG(BP_M_SHOOTS_FIRST),
	EVENT_MSG(BP_M_CANNOT_STRIKE_BACK),
	EVENT_MSG(BP_M_STRIKES),
	EVENT_MSG(BP_M_GIVES_WAY),
	EVENT_MSG(BP_M_LOSES_MELEE),
	EVENT_MSG(BP_M_DRIVES_OFF),
	EVENT_MSG(BP_M_LOCKED),
	EVENT_MSG(BP_R_MORALE),
	EVENT_MSG(BP_R_QUALITY),
	EVENT_MSG(BP_R_RALLY),
	{ .id = NULL }
};

/* The ratings a type takes when the scenario gives none: all defaults,
 * for the text rates no troop types (docs/rules-bpw.md, The ratings). */
static const struct {
	const char *type;
	const char *grade, *quality;
	unsigned traits;
	const char *why;
} bp_type_ratings[] = {
	{ .type = "guards", .grade = "veteran", .quality = "guards", .traits = 0, .why = "picked men, the best of their armies" },
	{ .type = "grenadiers", .grade = "veteran", .quality = "guards", .traits = 0, .why = "picked men" },
	{ .type = "german-grenadiers", .grade = "veteran", .quality = "guards", .traits = 0, .why = "picked men" },
	{ .type = "french-grenadiers", .grade = "veteran", .quality = "guards", .traits = 0, .why = "picked men" },
	{ .type = "experienced-militia", .grade = "seasoned", .quality = "militia", .traits = 0, .why = "steady, but not drilled to fight in line" },
	{ .type = "native-americans", .grade = "seasoned", .quality = "militia", .traits = 0, .why = "steady, but not drilled to fight in line" },
	{ .type = "trained-militia", .grade = "green", .quality = "militia", .traits = 0, .why = "little drill, little experience" },
	{ .type = "loyalist-trained-militia", .grade = "green", .quality = "militia", .traits = 0, .why = "little drill, little experience" },
	{ .type = "state-cavalry", .grade = "green", .quality = "militia", .traits = 0, .why = "little drill, little experience" },
	{ .type = "raw-militia", .grade = "green", .quality = "militia", .traits = 0, .why = "little drill, little experience" },
	{ .type = "loyalist-raw-militia", .grade = "green", .quality = "militia", .traits = 0, .why = "little drill, little experience" },
	{ .type = "lancers", .grade = "seasoned", .quality = "regulars", .traits = BP_T_LANCERS, .why = "trained regulars, with the lance" },
};
#define BP_NTYPE_RATINGS \
	((int)(sizeof(bp_type_ratings) / sizeof(bp_type_ratings[0])))
static const char bp_other_why[] = "trained regulars, the line (every other type)";

static const char *const grade_names[] = { "green", "seasoned", "veteran" };
static const char *const quality_names[] = { "militia", "regulars", "guards" };

static int
grade_number(const struct battle *b, const char *word)
{
	char name[32];

	snprintf(name, sizeof(name), "grade.%s", word);
	return ruleset_param(&ruleset_bpw, b, name);
}

static int
quality_number(const struct battle *b, const char *word)
{
	char name[32];

	snprintf(name, sizeof(name), "quality.%s", word);
	return ruleset_param(&ruleset_bpw, b, name);
}

/* The name of the rating whose number (param[k]) is n. */
static const char *
rating_name(const struct battle *b, const char *const *param,
    const char *const *name, int n)
{
	int k;

	for (k = 0; k < 3; k++)
		if (ruleset_param(&ruleset_bpw, b, param[k]) == n)
			return name[k];
	return "Rated";
}

const char *
bp_grade_name(const struct battle *b, int n)
{
	static const char *const param[] = { "grade.green", "grade.seasoned",
		"grade.veteran" };
	static const char *const name[] = { "Green", "Seasoned", "Veteran" };

	return rating_name(b, param, name, n);
}

const char *
bp_quality_name(const struct battle *b, int n)
{
	static const char *const param[] = { "quality.militia",
		"quality.regulars", "quality.guards" };
	static const char *const name[] = { "Militia", "Regulars", "Guards" };

	return rating_name(b, param, name, n);
}

/* --- the scenario's rating lines --------------------------------------- */

static const char *const bp_scenario_words[] = { "rating", NULL };

/* What the rating lines gave (the scratch of struct ruleset.scenario_line):
 * a flag a unit, so that prepare leaves those alone. */
struct bp_setup {
	unsigned char rated[BATTLE_MAX_UNITS];   /* 1 grade, 2 quality,
	                                            4 lancers named */
	unsigned char grade[BATTLE_MAX_UNITS];   /* the word named, 0-2 */
	unsigned char quality[BATTLE_MAX_UNITS];
	int line[BATTLE_MAX_UNITS];
};
_Static_assert(sizeof(struct bp_setup) <= 8192, "fits the loader's scratch");

static int
word_in(const char *w, const char *const *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcasecmp(w, list[i]) == 0)
			return i;
	return -1;
}

static int
bp_scenario_line(struct battle *b, void *scratch,
    const struct scenario_line *l, char *msg, size_t msize)
{
	struct bp_setup *st = scratch;
	struct unit *un;
	int u, i, k;

	if (l->n < 3 || !l->quoted[1]) {
		snprintf(msg, msize, "expected 'rating \"UNIT\" [grade green|"
		    "seasoned|veteran] [quality militia|regulars|guards] "
		    "[elite|conscript] [heavy] [lancers] [bloodied]'");
		return -1;
	}
	if ((u = battle_find_unit(b, l->w[1])) < 0) {
		snprintf(msg, msize, "no unit \"%s\" above this line: a rating "
		    "line comes after its unit's line", l->w[1]);
		return -1;
	}
	if (st->line[u] > 0) {
		snprintf(msg, msize, "\"%s\" is rated already (line %d): give "
		    "all its ratings on one line", l->w[1], st->line[u]);
		return -1;
	}
	st->line[u] = l->line;
	un = &b->units[u];
	for (i = 2; i < l->n; i++) {
		static const char *const words[] = { "grade", "quality", "elite",
			"conscript", "heavy", "lancers", "bloodied" };
		const char *w = l->w[i];
		int j, seen;

		for (j = 0; j < 7 && strcmp(w, words[j]) != 0; j++)
			;
		for (seen = 0, k = 2; k < i; k++)
			if (j < 7 && strcmp(l->w[k], w) == 0 &&
			    (k == 2 || (strcmp(l->w[k - 1], "grade") != 0 &&
			    strcmp(l->w[k - 1], "quality") != 0)))
				seen = 1;
		if (seen) {
			snprintf(msg, msize, "'%s' is given twice in this rating "
			    "line: give it once", w);
			return -1;
		}

		if (strcmp(w, "grade") == 0 || strcmp(w, "quality") == 0) {
			int g = w[0] == 'g';

			if (i + 1 >= l->n || (k = word_in(l->w[i + 1], g ?
			    grade_names : quality_names, 3)) < 0) {
				snprintf(msg, msize, "'%s' takes %s", w, g ?
				    "green, seasoned or veteran" :
				    "militia, regulars or guards");
				return -1;
			}
			i++;
			/* The number is the scenario's, once all its `set`
			 * lines are read (bp_scenario_end). */
			if (g) {
				st->grade[u] = (unsigned char)k;
				st->rated[u] |= 1;
			} else {
				st->quality[u] = (unsigned char)k;
				st->rated[u] |= 2;
			}
		} else if (strcmp(w, "elite") == 0 || strcmp(w, "conscript") == 0) {
			unsigned t = w[0] == 'e' ? BP_T_ELITE : BP_T_CONSCRIPT;

			if (un->rules[BP_TRAITS] & (BP_T_ELITE | BP_T_CONSCRIPT) &
			    ~t) {
				snprintf(msg, msize, "a unit is elite or conscript, "
				    "not both");
				return -1;
			}
			un->rules[BP_TRAITS] |= (int)t;
		} else if (strcmp(w, "heavy") == 0 || strcmp(w, "lancers") == 0) {
			if (un->base_kind != KIND_MOUNTED) {
				snprintf(msg, msize, "\"%s\" is not cavalry: '%s' "
				    "is for mounted units", un->name, w);
				return -1;
			}
			un->rules[BP_TRAITS] |= w[0] == 'h' ? BP_T_HEAVY :
			    BP_T_LANCERS;
			st->rated[u] |= w[0] == 'l' ? 4 : 0;
		} else if (strcmp(w, "bloodied") == 0) {
			un->state[BP_STATE] |= BP_S_BLOODIED;
		} else {
			snprintf(msg, msize, "'%s' is not a rating: expected grade, "
			    "quality, elite, conscript, heavy, lancers or bloodied",
			    w);
			return -1;
		}
	}
	return 0;
}

static int
bp_scenario_end(struct battle *b, void *scratch, int *line, char *msg,
    size_t msize)
{
	const struct bp_setup *st = scratch;
	int u, i;

	(void)line;
	(void)msg;
	(void)msize;
	/* What no rating line gave comes from the type. */
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];
		const char *g = "seasoned", *q = "regulars";
		unsigned traits = 0;

		for (i = 0; i < BP_NTYPE_RATINGS; i++)
			if (strcmp(un->type, bp_type_ratings[i].type) == 0) {
				g = bp_type_ratings[i].grade;
				q = bp_type_ratings[i].quality;
				traits = bp_type_ratings[i].traits;
			}
		if (st->rated[u] & 1)
			g = grade_names[st->grade[u]];
		if (st->rated[u] & 2)
			q = quality_names[st->quality[u]];
		un->rules[BP_GRADE] = grade_number(b, g);
		un->rules[BP_QUALITY] = quality_number(b, q);
		if (!(st->rated[u] & 4))
			un->rules[BP_TRAITS] |= (int)traits;
	}
	return 0;
}

static int
bp_prepare(struct battle *b, struct err *e)
{
	/* bpw keeps nothing in the battle's block: vnb-wing's card code,
	 * which bpw does not play, finds an empty deck there. */
	memset(b->rules, 0, sizeof(b->rules));
	return vnb_prepare(b, e);
}

/* --- the words ----------------------------------------------------------- */

static int
bp_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f)
{
	const struct unit *un = &b->units[u];
	int n = vnb_unit_fields(b, u, seen, f);

	f[n++] = (struct unit_field){ "grade", FIELD_INT, un->rules[BP_GRADE] };
	f[n++] = (struct unit_field){ "quality", FIELD_INT,
	    un->rules[BP_QUALITY] };
	f[n++] = (struct unit_field){ "elite", FIELD_BOOL,
	    bp_trait(b, u, BP_T_ELITE) };
	f[n++] = (struct unit_field){ "conscript", FIELD_BOOL,
	    bp_trait(b, u, BP_T_CONSCRIPT) };
	f[n++] = (struct unit_field){ "heavy", FIELD_BOOL,
	    bp_trait(b, u, BP_T_HEAVY) };
	f[n++] = (struct unit_field){ "lancers", FIELD_BOOL,
	    bp_trait(b, u, BP_T_LANCERS) };
	/* What an enemy seen in a fog game shows is its ratings, not what
	 * it has been through. */
	if (seen == NULL)
		f[n++] = (struct unit_field){ "bloodied", FIELD_BOOL,
		    bp_bloodied(b, u) };
	return n;
}
_Static_assert(6 + 7 <= RULESET_MAX_FIELDS, "vnb-wing's fields and bpw's fit");

static void
bp_unit_marks(const struct battle *b, int u, struct ruleset_marks *m)
{
	const struct unit *un = &b->units[u];

	snprintf(m->rated, sizeof(m->rated), "%s %s%s",
	    bp_grade_name(b, un->rules[BP_GRADE]),
	    bp_quality_name(b, un->rules[BP_QUALITY]),
	    bp_trait(b, u, BP_T_ELITE) ? ", elite" :
	    bp_trait(b, u, BP_T_CONSCRIPT) ? ", conscript" : "");
	/* On the map: "V/R" (Veteran Regulars), " e" elite or " c"
	 * conscript, ", bloodied". */
	snprintf(m->label, sizeof(m->label), "%.1s/%.1s%s%s",
	    bp_grade_name(b, un->rules[BP_GRADE]),
	    bp_quality_name(b, un->rules[BP_QUALITY]),
	    bp_trait(b, u, BP_T_ELITE) ? " e" :
	    bp_trait(b, u, BP_T_CONSCRIPT) ? " c" : "",
	    bp_bloodied(b, u) ? ", bloodied" : "");
	/* An enemy seen in fog shows its ratings, not what it has been
	 * through. */
	snprintf(m->seen_label, sizeof(m->seen_label), "%.1s/%.1s%s",
	    bp_grade_name(b, un->rules[BP_GRADE]),
	    bp_quality_name(b, un->rules[BP_QUALITY]),
	    bp_trait(b, u, BP_T_ELITE) ? " e" :
	    bp_trait(b, u, BP_T_CONSCRIPT) ? " c" : "");
	if (bp_bloodied(b, u))
		snprintf(m->state, sizeof(m->state), "bloodied");
	if (un->state[BP_STATE] & BP_S_SHATTERED)
		snprintf(m->gone, sizeof(m->gone), "shattered, its morale broken");
}

static void
bp_rules_note(struct text *t)
{
	int i;

	text_add(t, "\nRatings a unit takes from its type when its scenario "
	    "gives none\n(all default: the text rates no troop types; a "
	    "scenario's 'rating' line\ngives a unit its own):\n");
	for (i = 0; i < BP_NTYPE_RATINGS; i++)
		text_add(t, "  %-26s %-8s %-8s%s  default  %s\n",
		    bp_type_ratings[i].type, bp_type_ratings[i].grade,
		    bp_type_ratings[i].quality, bp_type_ratings[i].traits &
		    BP_T_LANCERS ? " lancers" : "        ",
		    bp_type_ratings[i].why);
	text_add(t, "  %-26s %-8s %-8s          default  %s\n", "(any other)",
	    "seasoned", "regulars", bp_other_why);
	text_add(t, "No type is elite, conscript or heavy cavalry unless "
	    "its scenario says so.\n");
}

/* vnb-wing's words for the map and the situation; bpw's own for the
 * ratings, the crib and the messages. */
static const struct ruleset_words bp_words = {
	VNB_WORDS_SHARED,
	.unit_fields = bp_unit_fields,
	.crib = bp_crib,
	.messages = bp_messages,
	.unit_marks = bp_unit_marks,
	.marks_key = "(V/R e, bloodied): grade Green, Seasoned or Veteran / "
	    "quality Militia, Regulars or Guards; e elite, c conscript; bloodied: "
	    "routed once and rallied",
	.scale_note = "SP are strength points (50 men or one gun each); each "
	    "unit is rated by a morale grade and a troop quality.",
	.rules_note = bp_rules_note,
};

static const struct verb_def bp_verbs[] = {
	VNB_VERBS("REFORM: (disordered) a rally check, which is the unit's "
	    "phase unless it passes with elan")
	{ .word = "RALLY", .verb = V_REFORM, .arg = ARG_NONE, .for_units = 1,
	    .for_commanders = 0, .help = "RALLY: the same as REFORM" },
};

const struct ruleset ruleset_bpw = {
	VNB_TABLE_SHARED,
	.name = "bpw",
	.title = "Black Powder Wars ratings on Volley & Bayonet wing scale (AWI)",
	.base = &ruleset_vnb_wing,
	/* Its own numbers; vnb-wing's are the base's. */
	.params = bp_params,
	.nparams = (int)(sizeof(bp_params) / sizeof(bp_params[0])),
	.verbs = bp_verbs,
	.nverbs = (int)(sizeof(bp_verbs) / sizeof(bp_verbs[0])),
	/* The rating lines; no cards, so no order lines of its own. */
	.scenario_words = bp_scenario_words,
	.scenario_line = bp_scenario_line, .scenario_end = bp_scenario_end,
	/* vnb-wing's phase with bpw's steps, and their words. */
	.prepare = bp_prepare, .adjudicate = bp_adjudicate,
	.preview = bp_preview, .words = &bp_words,
};
