/*
 * test_narrative.c - the narrative templates (src/report/narrative.c):
 * what a template file may say and what is refused when it loads, how
 * an event's sentence is rewritten with its values in a new order and
 * the ground named, the time of day in words, and that every built-in
 * ruleset has templates that load.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/events.h"
#include "core/ruleset.h"
#include "report/narrative.h"
#include "rules/bb7.h"
#include "report/report.h"
#include "scenario/scenario.h"

static const char scen[] =
    "scenario \"Mill\"\nruleset vnb-wing\ntable 48 x 36\nturns 2\n"
    "terrain wood \"Mill wood\" poly 30,2 46,2 46,14 30,14\n"
    "terrain hill \"Gallows hill\" level 1 poly 2,20 20,20 20,34 2,34\n"
    "terrain road \"Mill road\" line 0,17 48,17\n"
    "side crown \"Crown\"\n  commander \"Howe\" army at 24,4\n"
    "  brigade \"1st\" commander \"Grey\" at 12,8\n"
    "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 36,8 facing 0\n"
    "side continental \"Continental\"\n  commander \"Greene\" army at 24,32\n"
    "  brigade \"Va\" commander \"Weedon\" at 24,24\n"
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 2 sp 2 at 10,26 facing 180\n";

/* A small catalogue, as a ruleset's *_msgs.h spells its entries. */
#define T_M_FIRES "fires", "uuwnwnw", "%s fires at %s (%s range): %d %s, %d %s."
#define T_M_HALTS "halts", "u", "%s halts."
#define T_M_RESTS "rests", "u", "%s rests."
static const struct event_msg msgs[] = {
	EVENT_MSG(T_M_FIRES), EVENT_MSG(T_M_HALTS), EVENT_MSG(T_M_RESTS), { .id = NULL }
};

static struct narrative *
parse(const char *t, struct err *e)
{
	err_clear(e);
	return narrative_parse(t, strlen(t), "test.txt", msgs, e);
}

static void
refused(const char *t, const char *needle)
{
	struct err e;

	assert_null(parse(t, &e));
	assert_int_equal(e.kind, ERR_USER);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", e.msg, needle);
}

static void
a_template_file_with_a_mistake_is_refused_naming_the_line(void **state)
{
	(void)state;
	refused("msg: halts\nsays: {1} halted {2}.\n",
	    "test.txt:2: unknown placeholder {2}: this message gives 1 value");
	refused("# c\nmsg: halts\nsays: {1} halted {where}.\n",
	    "test.txt:3: unknown placeholder {where}");
	refused("msg: halts\nsays: {1} halted {0}.\n", "{0}");
	refused("msg: halts\nsays: {1 halted.\n", "does not close");
	refused("msg: halts\nsays: 1} halted.\n", "without its '{'");
	refused("msg: halts\nmsg: rests\nsays: {1}\n",
	    "test.txt:2: the message of line 1 has no \"says:\"");
	refused("says: {1} halted.\n", "test.txt:1: expected a message id");
	refused("msg: halts\n", "has no \"says:\" line");
	refused("msg: flees\nsays: x\n",
	    "test.txt:1: the rules core writes no message \"flees\"");
	refused("msg: Halts!\nsays: x\n", "is not a message id");
	refused("msg: halts\nsays: a\nmsg: halts\nsays: b\n",
	    "two templates");
	refused("hello\n", "expected a message id");
	/* A file of despatch 0.4's keys is told how to mend it. */
	refused("core: %s halts.\nsays: {1} halted.\n",
	    "test.txt:1: templates are keyed by message id now");
}

static void
an_event_is_told_with_its_values_reordered_and_the_ground_named(void **state)
{
	struct battle *b = NULL;
	struct narrative *n = NULL;
	struct events ev;
	struct err e;
	char out[512];

	(void)state;
	if (scenario_parse(scen, strlen(scen), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	n = parse("msg: fires\n"
	    "says: At {3} range {1} fired on {2}{target_place}{place}: {6} "
	    "{7} from {4} {5}.\n"
	    "msg: halts\nsays: {text} Indeed.\n", &e);
	assert_non_null(n);
	assert_int_equal(narrative_count(n), 2);
	events_init(&ev);
	events_say(&ev, EV_FIRE, 0, 0, 1, 1, T_M_FIRES, "23rd Foot",
	    "2nd Virginia", "long", 2, "dice", 1, "hit");
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "23rd Foot");
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_RESTS, "23rd Foot");
	assert_string_equal(ev.v[0].msg, "fires");
	assert_string_equal(ev.v[0].types, "uuwnwnw");
	assert_int_equal(ev.v[0].nargs, 7);
	assert_string_equal(events_arg(&ev.v[0], 3), "2");
	assert_string_equal(ev.v[0].text,
	    "23rd Foot fires at 2nd Virginia (long range): 2 dice, 1 hit.");
	assert_int_equal(narrative_say(n, b, &ev.v[0], out, sizeof(out)), 1);
	assert_string_equal(out, "At long range 23rd Foot fired on 2nd "
	    "Virginia, on Gallows hill, in Mill wood: 1 hit from 2 dice.");
	assert_int_equal(narrative_say(n, b, &ev.v[1], out, sizeof(out)), 1);
	assert_string_equal(out, "23rd Foot halts. Indeed.");
	/* A message without a template: the core's own sentence. */
	assert_int_equal(narrative_say(n, b, &ev.v[2], out, sizeof(out)), 0);
	assert_string_equal(out, "23rd Foot rests.");
	/* No templates at all: the same. */
	assert_int_equal(narrative_say(NULL, b, &ev.v[0], out, sizeof(out)), 0);
	assert_string_equal(out, ev.v[0].text);
	/* A small buffer is cut, never overrun. */
	narrative_say(n, b, &ev.v[0], out, 12);
	assert_int_equal(strlen(out), 11);
	/* On a road: within an inch of its line. */
	b->stands[0].pos.y = 1700;
	b->stands[1].pos.y = 1700;
	b->stands[0].pos.x = 2000;
	b->stands[1].pos.x = 2300;
	narrative_place(b, 0, out, sizeof(out));
	assert_string_equal(out, ", on Mill road");
	b->stands[0].pos.y = 1000;
	b->stands[1].pos.y = 1000;
	narrative_place(b, 0, out, sizeof(out));
	assert_string_equal(out, "");
	events_free(&ev);
	narrative_free(n);
	battle_free(b);
}

static void
the_time_of_day_in_words(void **state)
{
	char w[80];

	(void)state;
	narrative_time(7 * 60, w, sizeof(w));
	assert_string_equal(w, "seven o'clock in the morning");
	narrative_time(7 * 60 + 15, w, sizeof(w));
	assert_string_equal(w, "a quarter past seven in the morning");
	narrative_time(7 * 60 + 30, w, sizeof(w));
	assert_string_equal(w, "half past seven in the morning");
	narrative_time(7 * 60 + 45, w, sizeof(w));
	assert_string_equal(w, "a quarter to eight in the morning");
	narrative_time(11 * 60 + 40, w, sizeof(w));
	assert_string_equal(w, "twenty to twelve in the afternoon");
	narrative_time(12 * 60, w, sizeof(w));
	assert_string_equal(w, "noon");
	narrative_time(13 * 60 + 5, w, sizeof(w));
	assert_string_equal(w, "five past one in the afternoon");
	narrative_time(18 * 60 + 20, w, sizeof(w));
	assert_string_equal(w, "twenty past six in the evening");
	narrative_time(9 * 60 + 7, w, sizeof(w));
	assert_string_equal(w, "7 minutes past nine in the morning");
}

/* Every ruleset has its templates built in, and they load; a directory
 * with the ruleset's file wins, and one without it falls back. */
static void
every_ruleset_has_templates_and_a_directory_overrides(void **state)
{
	const struct ruleset *const *all = ruleset_all();
	char dir[] = "/tmp/despatch-tmpl-XXXXXX", path[128];
	const struct event_msg *vw = ruleset_find("vnb-wing")->words->messages;
	struct narrative *n = NULL;
	struct err e;
	FILE *f = NULL;
	int i;

	(void)state;
	for (i = 0; all[i] != NULL; i++) {
		err_clear(&e);
		n = narrative_load(all[i]->name, all[i]->words != NULL ?
		    all[i]->words->messages : NULL, NULL, &e);
		if (n == NULL)
			fail_msg("%s: %s", all[i]->name, e.msg);
		assert_true(narrative_count(n) > 20);
		narrative_free(n);
	}
	assert_non_null(mkdtemp(dir));
	n = narrative_load("vnb-wing", vw, dir, &e);
	assert_non_null(n);
	assert_true(narrative_count(n) > 20);
	narrative_free(n);
	snprintf(path, sizeof(path), "%s/vnb-wing.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("msg: stationary\nsays: {1} stood like a rock.\n", f);
	fclose(f);
	n = narrative_load("vnb-wing", vw, dir, &e);
	assert_non_null(n);
	assert_int_equal(narrative_count(n), 1);
	narrative_free(n);
	f = fopen(path, "w");
	fputs("msg: stationary\nsays: {2} stood.\n", f);
	fclose(f);
	err_clear(&e);
	assert_null(narrative_load("vnb-wing", vw, dir, &e));
	assert_non_null(strstr(e.msg, "vnb-wing.txt:2: unknown placeholder {2}"));
	unlink(path);
	rmdir(dir);
	err_clear(&e);
	assert_null(narrative_load("no-such-rules", NULL, NULL, &e));
}

/* A ruleset built on another (struct ruleset.base) reads its own file,
 * checked against its own catalogue, then the base's templates for what
 * its file does not reword: its own entry wins, the base's others are
 * there, and an id of the base's catalogue in its own file is refused
 * (each file answers to its own ruleset). */
static void
a_module_rulesets_templates_stand_before_its_bases(void **state)
{
	static const struct ruleset_words words = { .messages = msgs };
	const struct ruleset *vnb = ruleset_find("vnb-wing");
	struct ruleset mod = { .name = "test-module", .title = "t",
	    .base = vnb, .words = &words };
	char dir[] = "/tmp/despatch-tmpl-XXXXXX", path[128];
	struct narrative *n = NULL, *plain = NULL;
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	char out[512];
	FILE *f;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "t", 0, &b, &e), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/test-module.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("msg: halts\nsays: {1} halted, as modules say.\n", f);
	fclose(f);
	err_clear(&e);
	n = narrative_load_ruleset(&mod, dir, &e);
	if (n == NULL)
		fail_msg("%s", e.msg);
	plain = narrative_load("vnb-wing", vnb->words->messages, NULL, &e);
	assert_non_null(plain);
	assert_int_equal(narrative_count(n), narrative_count(plain) + 1);
	events_init(&ev);
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "23rd Foot");
	events_say(&ev, EV_STATIONARY, 0, 0, -1, 0, "stationary", "u",
	    "%s is stationary.", "23rd Foot");
	assert_int_equal(narrative_say(n, b, &ev.v[0], out, sizeof(out)), 1);
	assert_string_equal(out, "23rd Foot halted, as modules say.");
	/* vnb-wing's own sentence for its message, from its file. */
	assert_int_equal(narrative_say(n, b, &ev.v[1], out, sizeof(out)), 1);
	assert_int_equal(narrative_say(plain, b, &ev.v[1], out + 256, 256), 1);
	assert_string_equal(out, out + 256);
	events_free(&ev);
	narrative_free(n);
	/* Its own file may not carry the base's messages. */
	f = fopen(path, "w");
	fputs("msg: stationary\nsays: {1} stood.\n", f);
	fclose(f);
	err_clear(&e);
	assert_null(narrative_load_ruleset(&mod, dir, &e));
	assert_non_null(strstr(e.msg, "test-module.txt:1"));
	unlink(path);
	rmdir(dir);
	narrative_free(plain);
	battle_free(b);
}

/* A unit's state in words: a disordered stand is disordered, a stand
 * with the permanent marker alone permanently disordered, and only both
 * markers (ST_ROUTED) routed (mutation round, 38). */
static void
a_unit_is_routed_only_with_both_markers(void **state)
{
	static const struct { unsigned flags; const char *want, *not; } c[] = {
		{ ST_DISORDERED, "disordered", "routed" },
		{ ST_PERMANENT, "permanently disordered", "routed" },
		{ ST_ROUTED, "routed", "permanently" },
		{ 0, "in good order", "disordered" },
	};
	struct battle *b = NULL;
	struct err e;
	size_t i;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct text t;
		const char *at;
		int s;

		for (s = b->units[0].first_stand; s < b->units[0].first_stand +
		    b->units[0].nstands; s++)
			b->stands[s].flags = c[i].flags;
		text_init(&t, 1 << 16);
		report_forces(&t, b, 0);
		assert_non_null(t.s);
		at = strstr(t.s, "23rd Foot");
		assert_non_null(at);
		if (strstr(at, c[i].want) == NULL || strstr(at, c[i].not) != NULL)
			fail_msg("flags %#x: wanted \"%s\" and no \"%s\" in: %s",
			    c[i].flags, c[i].want, c[i].not, at);
		text_free(&t);
	}
	battle_free(b);
}

/* A ruleset's own markers come through its vocabulary table
 * (unit_marks): bb7's disruption points and quality are told in a unit's
 * line, and a unit of a ruleset that keeps none is told without them. */
static void
a_rulesets_own_markers_are_told_through_its_vocabulary(void **state)
{
	struct battle *b = NULL;
	struct text t;
	struct err e;
	const char *at;

	(void)state;
	assert_int_equal(scenario_parse(scen, strlen(scen), "test", 0, &b, &e), 0);
	b->units[0].state[B7_DISRUPTION] = 2;
	b->units[0].rules[B7_QUALITY] = 4;
	text_init(&t, 1 << 16);
	report_forces(&t, b, 0);
	at = strstr(t.s, "23rd Foot");
	assert_non_null(at);
	assert_null(strstr(at, "disruption"));
	assert_non_null(strstr(at, "in good order"));
	text_free(&t);
	/* The same table read as bb7's. */
	snprintf(b->ruleset, sizeof(b->ruleset), "bb7");
	text_init(&t, 1 << 16);
	report_forces(&t, b, 0);
	at = strstr(t.s, "23rd Foot");
	assert_non_null(at);
	if (strstr(at, ", quality 4,") == NULL ||
	    strstr(at, "2 disruption points") == NULL ||
	    strstr(at, "in good order") != NULL)
		fail_msg("bb7's markers are not told: %s", at);
	text_free(&t);
	battle_free(b);
}

/* "{1}'s": a unit's name that is a plural takes the apostrophe alone
 * ("Delaware Continentals' halt"), any other name 's. */
static void
a_plural_units_possessive_is_its_apostrophe(void **state)
{
	struct narrative *n;
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	char out[256];

	(void)state;
	if (scenario_parse(scen, strlen(scen), "t", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	n = parse("msg: halts\nsays: {1}'s halt is firm.\n", &e);
	assert_non_null(n);
	events_init(&ev);
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "Delaware Continentals");
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "23rd Foot");
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "Light Infantry Companies");
	events_say(&ev, EV_MOVE, 0, 0, -1, 0, T_M_HALTS, "Moss");
	narrative_say(n, b, &ev.v[0], out, sizeof(out));
	assert_string_equal(out, "Delaware Continentals' halt is firm.");
	narrative_say(n, b, &ev.v[1], out, sizeof(out));
	assert_string_equal(out, "23rd Foot's halt is firm.");
	narrative_say(n, b, &ev.v[2], out, sizeof(out));
	assert_string_equal(out, "Light Infantry Companies' halt is firm.");
	narrative_say(n, b, &ev.v[3], out, sizeof(out));
	assert_string_equal(out, "Moss's halt is firm.");
	events_free(&ev);
	narrative_free(n);
	battle_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_plural_units_possessive_is_its_apostrophe),
		cmocka_unit_test(a_template_file_with_a_mistake_is_refused_naming_the_line),
		cmocka_unit_test(an_event_is_told_with_its_values_reordered_and_the_ground_named),
		cmocka_unit_test(the_time_of_day_in_words),
		cmocka_unit_test(every_ruleset_has_templates_and_a_directory_overrides),
		cmocka_unit_test(a_module_rulesets_templates_stand_before_its_bases),
		cmocka_unit_test(a_unit_is_routed_only_with_both_markers),
		cmocka_unit_test(a_rulesets_own_markers_are_told_through_its_vocabulary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
