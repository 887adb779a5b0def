/*
 * test_scenario.c - the scenario parser: good files load as documented,
 * and every error names its file and line and says what is wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ruleset.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"

static const char good[] =
    "scenario \"Two battalions\"\n"                                  /* 1 */
    "ruleset vnb-wing\n"                                             /* 2 */
    "table 48 x 48\n"                                                /* 3 */
    "turns 3 first 07:00 minutes 15\n"                               /* 4 */
    "sequence alternate crown continental\n"                         /* 5 */
    "terrain wood \"Copse\" poly 2,2 8,2 8,8 2,8\n"                  /* 6 */
    "terrain hill \"Rise\" level 1 poly 20,30 30,30 30,40 20,40\n"  /* 7 */
    "terrain stream \"Creek\" marshy line 0,20 48,20\n"              /* 8 */
    "side crown \"Crown\"\n"                                         /* 9 */
    "  commander \"Howe\" army at 24,4\n"                            /* 10 */
    "  brigade \"1st\" commander \"Grey\" at 24,8\n"                 /* 11 */
    "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n" /* 12 */
    "    unit \"Jaegers\" type jaegers morale 5 +SS\n"               /* 13 */
    "      stand sp 1 at 30,10 facing 45 skirmish\n"                 /* 14 */
    "side continental \"Continental\"\n"                             /* 15 */
    "  commander \"Greene\" army at 24,44\n"                         /* 16 */
    "  brigade \"Va\" commander \"Weedon\" at 24,40\n"               /* 17 */
    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 2 at 24,30 facing 180\n"; /* 18 */

static struct battle *
parse_ok(const char *text)
{
	struct battle *b = NULL;
	struct err e;

	err_clear(&e);
	if (scenario_parse(text, strlen(text), "t.scenario", 0, &b, &e) != 0)
		fail_msg("unexpected error: %s", e.msg);
	return b;
}

static void
good_file_loads_with_forces_laid_out(void **state)
{
	struct battle *b = parse_ok(good);
	int u;

	(void)state;
	assert_string_equal(b->title, "Two battalions");
	assert_string_equal(b->ruleset, "vnb-wing");
	assert_int_equal(b->width, 4800);
	assert_int_equal(b->turns, 3);
	assert_int_equal(b->first_minute, 7 * 60);
	assert_int_equal(b->nsides, 2);
	assert_int_equal(b->nterrain, 3);
	assert_int_equal(b->terrain[2].marshy, 1);
	assert_int_equal(b->terrain[1].level, 1);
	assert_int_equal(battle_level_at(b, (struct pt){ 2500, 3500 }), 1);
	u = battle_find_unit(b, "23rd Foot");
	assert_true(u >= 0);
	assert_int_equal(b->units[u].nstands, 2);
	/* Two 3" stands side by side across facing north, centred on 24,10. */
	assert_int_equal(b->stands[b->units[u].first_stand].pos.x, 2250);
	assert_int_equal(b->stands[b->units[u].first_stand + 1].pos.x, 2550);
	assert_int_equal(b->stands[b->units[u].first_stand].sp, 3);
	assert_int_equal(b->stands[b->units[u].first_stand + 1].sp, 2);
	u = battle_find_unit(b, "Jaegers");
	assert_int_equal(b->units[u].morale, 5);
	assert_true(b->units[u].abil & ABIL_SS);
	assert_int_equal(b->stands[b->units[u].first_stand].form, FORM_SKIRMISH);
	assert_int_equal(b->stands[b->units[u].first_stand].facing, 45);
	/* Exhaustion level: 23rd (5 SP at 50%) + Jaegers (1 at 50%) = 3.0 */
	assert_int_equal(b->brigades[0].level10, 30);
	battle_free(b);
}

/* Replaces line `n` (1-based) of the good file with `repl` (NULL deletes
 * it) and returns the new text. */
static char *
with_line(int n, const char *repl)
{
	char *out = calloc(1, sizeof(good) + 1024);
	const char *p = good;
	int line = 1;

	assert_non_null(out);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (line == n) {
			if (repl != NULL) {
				strcat(out, repl);
				strcat(out, "\n");
			}
		} else {
			strncat(out, p, len);
		}
		p += len;
		line++;
	}
	return out;
}

struct bad {
	int line;           /* line to replace */
	const char *repl;   /* its replacement (NULL: delete) */
	int err_line;       /* the line the error must name */
	const char *says;   /* a phrase the message must contain */
};

static const struct bad bads[] = {
	{ 1, "scenario Two", 1, "double quotes" },
	{ 2, "ruleset chess", 2, "unknown ruleset" },
	{ 3, "table 48 by 48", 3, "table WIDTH x DEPTH" },
	{ 4, "turns many", 4, "number of turns" },
	{ 4, "turns 3 first 25:00", 4, "time of day" },
	{ 5, "sequence alternate crown french", 5, "never declared" },
	{ 6, "terrain jungle \"X\" poly 1,1 2,2 3,1", 6, "unknown terrain kind" },
	{ 6, "terrain wood \"X\" poly 1,1 2,2", 6, "at least 3 points" },
	{ 6, "terrain wood \"X\" poly 1,1 2,2 99,1", 6, "off the table" },
	{ 6, "terrain wood \"X\" line 1,1 2,2", 6, "an area" },
	{ 7, "terrain hill \"Rise\" poly 20,30 30,30 30,40", 7, "level N" },
	{ 8, "terrain stream \"Creek\" line 0,20 48;20", 8, "not a point" },
	{ 8, "terrain wood \"Copse\" marshy poly 1,1 2,2 3,1", 8, "streams only" },
	{ 9, "side crown Crown", 9, "double quotes" },
	{ 10, "  commander \"Howe\" at 24,4", 10, "army" },
	{ 10, "  commander \"Howe\" army at 24,99", 10, "off the table" },
	{ 11, "  brigade \"1st\" at 24,8", 11, "commander" },
	{ 11, "  brigade \"1st\" commander \"Grey\" at 24,8 tired", 11,
	    "unexpected 'tired' after the position (a brigade line may end "
	    "with 'wing \"Name\"' and 'exhausted')" },
	{ 12, "    unit \"23rd Foot\" type hussars stands 2 sp 3 at 24,10 facing 0", 12,
	    "unknown troop type" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2,1 at 24,10 facing 0", 12,
	    "3 SP values" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 400", 12,
	    "facing" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0 wedge", 12,
	    "unexpected 'wedge'" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 at 24,10 facing 0", 12,
	    "sp N" },
	{ 12, "    unit \"Howe\" type british-line stands 1 sp 3 at 24,10 facing 0", 12,
	    "already used" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0 +XX", 12,
	    "unknown ability" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0 skirmish", 12,
	    "skirmish order" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 0,10 facing 0", 12,
	    "off the table" },
	{ 13, "    unit \"Jaegers\" type jaegers morale 12", 13, "morale" },
	{ 14, "      stand sp 1 at 30,10", 14, "facing" },
	{ 14, NULL, 13, "has no stands" },
	{ 14, "      stand at 30,10 facing 0", 14, "stand sp N" },
	{ 15, "sideways", 15, "unknown keyword" },
	{ 5, "sequence alternate crown crown", 5, "named twice" },
	{ 12, "    unit \"#1 Foot\" type british-line stands 2 sp 3 at 24,10 facing 0", 12,
	    "cannot be used in orders" },
	{ 11, "  brigade \"1st\" commander \"Grey: the elder\" at 24,8", 11,
	    "cannot be used in orders" },
	{ 16, NULL, 0, "no army commander" },
	{ 18, NULL, 0, "has no units" },
	{ 18, "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 2 at 24,10.5 facing 180", 18,
	    "overlaps a stand of \"23rd Foot\"" },
	{ 2, "ruleset vnb-wing\nset hit.nine 4", 3, "no number named" },
	{ 2, "ruleset vnb-wing\nset command.radius -5", 3, "inches from 0" },
	{ 2, "ruleset vnb-wing\nset hit.musket.short 9", 3, "from 1 to 7" },
	{ 2, "ruleset vnb-wing\nset range.musket.short 10", 0, "longer than" },
	{ 18, "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 2 at 24,47.5 facing 180", 18,
	    "hangs off the edge" },
	{ 6, "terrain wood \"Copse poly 2,2 8,2 8,8", 6, "closing quote" },
	/* Fog of War cards. */
	{ 2, "cards\nruleset vnb-wing", 2, "'ruleset' must come before" },
	/* The cards are vnb-wing's words: another ruleset has none. */
	{ 2, "ruleset bb7\ncards", 3, "a word of ruleset vnb-wing's, and this "
	    "scenario plays bb7" },
	{ 2, "ruleset vnb-wing\njokers", 3, "victory, cards, card, hand or "
	    "objective" },
	{ 2, "ruleset vnb-wing\ncards crown french", 3, "no side is called 'french'" },
	{ 2, "ruleset vnb-wing\ncards blue", 3, "cards crown SIDE" },
	{ 2, "ruleset vnb-wing\ncards\ncards", 4, "only once" },
	{ 2, "ruleset vnb-wing\ncards\ncard \"Panic!!!\" 2", 3, "as many of each" },
	{ 2, "ruleset vnb-wing\ncard \"Panic!!!\" 2", 3, "need a 'cards' line" },
	{ 2, "ruleset vnb-wing\nhand crown \"Panic!!!\"", 3, "need a 'cards' line" },
	{ 2, "ruleset vnb-wing\ncards\ncard \"Nonesuch\" 1", 4, "no card of vnb-wing" },
	{ 2, "ruleset vnb-wing\ncards\ncard \"Liberty or Death\" 1", 4,
	    "more than one card" },
	{ 2, "ruleset vnb-wing\ncards\ncard \"Panic!!!\" 13", 4, "0 to 12" },
	{ 2, "ruleset vnb-wing\ncards\nhand crown \"Local Knowledge!\" "
	    "\"Local Knowledge!\"", 4, "no more \"Local Knowledge!\"" },
	{ 2, "ruleset vnb-wing\ncards\nhand spain \"Panic!!!\"", 4,
	    "no side is called 'spain'" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0 origin prussian", 12,
	    "unknown origin" },
	/* alias: another name for what the line before declared. */
	{ 9, "alias \"The Copse\"\nside crown \"Crown\"", 9,
	    "'alias' must follow a unit, commander or brigade line" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"Howe\"", 13, "already the name of a commander here" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"2nd virginia\"", 13, "also the name of a unit here" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"Welch\"\n    alias \"WELCH\"", 14,
	    "already the name of another alias" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"Welch\" \"Fusiliers\"", 13, "one alias a line" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"\"", 13, "the other name may not be empty" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias Welch", 13, "the other name" },
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"Welch: the Royal\"", 13, "cannot be used in orders" },
	/* Another ruleset's own weapon (bb7's carbine) is not this one's. */
	{ 12, "    unit \"23rd Foot\" type british-line stands 2 sp 3 at 24,10 facing 0 weapon carbine", 12,
	    "expected a weapon: musket, rifle, native, light-gun" },
};

/* The deck: the basic one with the `card` counts, in the ruleset's card
 * order; `hand` cards taken from it; the crown's side found. */
static void
cards_make_the_deck_and_hands(void **state)
{
	char *text = with_line(2, "ruleset vnb-wing\ncards\ncard \"Good Going\" 4\n"
	    "card \"Sharpshooters\" 0\nhand continental \"Good Going\" "
	    "\"Liberty or Death!\"");
	struct battle *b = parse_ok(text);
	int i, total = 0, held = 0, gg = 0;

	(void)state;
	for (i = 0; i < VC_COUNT; i++)
		total += vnb_cards[i].count;
	assert_int_equal(total, 40);
	assert_int_equal(vnb_deck(b)->n, 40 + 2 - 2);
	assert_int_equal(vnb_deck(b)->crown, 0);
	for (i = 0; i < vnb_deck(b)->n; i++) {
		assert_true(i == 0 || vnb_deck(b)->kind[i] >= vnb_deck(b)->kind[i - 1]);
		assert_int_not_equal(vnb_deck(b)->kind[i], VC_SHARPSHOOTERS);
		gg += vnb_deck(b)->kind[i] == VC_GOOD_GOING;
		if (vnb_deck(b)->at[i] == 1)
			held++;
		else
			assert_int_equal(vnb_deck(b)->at[i], VNB_IN_DECK);
	}
	assert_int_equal(gg, 4);
	assert_int_equal(held, 2);
	battle_free(b);
	free(text);
	/* Without a 'cards' line there is no deck. */
	b = parse_ok(good);
	assert_int_equal(vnb_deck(b)->n, 0);
	battle_free(b);
}

/* A brigade line's 'exhausted': the brigade comes in exhausted (a
 * campaign's, not yet rested). */
static void
exhausted_brigade_starts_exhausted(void **state)
{
	char *text = with_line(11, "  brigade \"1st\" commander \"Grey\" at "
	    "24,8 exhausted");
	struct battle *b = parse_ok(text);

	(void)state;
	assert_true(b->brigades[battle_find_brigade(b, "1st")].flags &
	    BR_EXHAUSTED);
	assert_false(b->brigades[battle_find_brigade(b, "Va")].flags &
	    BR_EXHAUSTED);
	battle_free(b);
	free(text);
	b = parse_ok(good);
	assert_false(b->brigades[battle_find_brigade(b, "1st")].flags &
	    BR_EXHAUSTED);
	battle_free(b);
}

static void
each_error_names_its_line(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		char *text = with_line(bads[i].line, bads[i].repl);
		char where[64];
		struct battle *b = NULL;
		struct err e;

		err_clear(&e);
		if (scenario_parse(text, strlen(text), "t.scenario", 0, &b, &e) == 0)
			fail_msg("case %zu (line %d '%s') parsed without error", i,
			    bads[i].line, bads[i].repl ? bads[i].repl : "(deleted)");
		assert_null(b);
		assert_int_equal(e.kind, ERR_USER);
		if (bads[i].err_line > 0) {
			snprintf(where, sizeof(where), "t.scenario:%d: ", bads[i].err_line);
			if (strncmp(e.msg, where, strlen(where)) != 0)
				fail_msg("case %zu: expected '%s...', got '%s'", i, where,
				    e.msg);
		} else if (strncmp(e.msg, "t.scenario:", 11) != 0) {
			fail_msg("case %zu: no file name in '%s'", i, e.msg);
		}
		if (strstr(e.msg, bads[i].says) == NULL)
			fail_msg("case %zu: expected '%s' in '%s'", i, bads[i].says,
			    e.msg);
		free(text);
	}
}

static void
set_takes_inches_for_distances(void **state)
{
	char *text = with_line(2, "ruleset vnb-wing\nset command.radius 8.5\n"
	    "set hit.musket.long 5");
	struct battle *b = parse_ok(text);
	const struct ruleset *rs = ruleset_find("vnb-wing");

	(void)state;
	assert_int_equal(ruleset_param(rs, b, "command.radius"), 850);
	assert_int_equal(ruleset_param(rs, b, "hit.musket.long"), 5);
	assert_int_equal(ruleset_param(rs, b, "hit.musket.short"), 5);
	battle_free(b);
	free(text);
}

static void
truncated_file_fails_cleanly_at_every_length(void **state)
{
	size_t n;
	int ok = 0;

	(void)state;
	/* Cutting the file anywhere must give a clean error or a smaller
	 * valid battle, never a crash. */
	for (n = 0; n < sizeof(good) - 1; n++) {
		struct battle *b = NULL;
		struct err e;

		err_clear(&e);
		if (scenario_parse(good, n, "t.scenario", 0, &b, &e) == 0) {
			ok++;
			battle_free(b);
		} else {
			assert_null(b);
			assert_true(strncmp(e.msg, "t.scenario:", 11) == 0);
		}
	}
	/* Only cuts after the last unit's line (or inside its last field
	 * where what remains still parses) can be complete battles. */
	assert_true(ok < 40);
}

static void
nul_byte_is_refused(void **state)
{
	char text[sizeof(good)];
	struct battle *b = NULL;
	struct err e;

	(void)state;
	memcpy(text, good, sizeof(good));
	text[30] = '\0';
	assert_int_equal(scenario_parse(text, sizeof(good) - 1, "t.scenario", 0,
	    &b, &e), -1);
	assert_non_null(strstr(e.msg, "NUL"));
}

static void
line_offset_shifts_reported_lines(void **state)
{
	char *text = with_line(3, "table 48 by 48");
	struct battle *b = NULL;
	struct err e;

	(void)state;
	assert_int_equal(scenario_parse(text, strlen(text), "case.case", 10, &b,
	    &e), -1);
	assert_true(strncmp(e.msg, "case.case:13: ", 14) == 0);
	free(text);
}

static void
cowpens_scenario_loads(void **state)
{
	char *text = NULL;
	size_t len = 0;
	struct battle *b = NULL;
	struct err e;

	(void)state;
	if (scenario_load_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", &text, &len, &b, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(b->nsides, 2);
	assert_string_equal(b->sides[0].id, "crown");
	assert_string_equal(b->sides[1].id, "continental");
	assert_true(b->nunits >= 15);
	battle_free(b);
	free(text);
}

/* Writes text to dir/name. */
static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* An overlay (`include "FILE"`) takes in the other file's battle under
 * its own title and ruleset: the text a game stores stands alone (it
 * parses without the files, and is the same battle), a file without an
 * include is stored byte for byte, a mistake names the file and line it
 * is in, and an include inside an included file, a second include and
 * a missing file are refused. */
static void
an_overlay_includes_a_battle_and_stands_alone(void **state)
{
	char dir[] = "/tmp/despatch-include-XXXXXX", path[256];
	char *text = NULL, *plain = NULL;
	size_t len = 0, plen = 0;
	struct battle *b = NULL, *b2 = NULL;
	struct err e;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "base.scenario", good);
	write_file(dir, "over.scenario", "scenario \"Overlay\"\nruleset vnb-wing\n"
	    "include \"base.scenario\"   # the battle\n"
	    "set command.radius 7\n");
	snprintf(path, sizeof(path), "%s/over.scenario", dir);
	if (scenario_load_file(path, &text, &len, &b, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(b->title, "Overlay");
	assert_string_equal(b->ruleset, "vnb-wing");
	assert_null(strstr(text, "include \""));
	assert_non_null(strstr(text, "# (the including file's own) ruleset"));
	assert_int_equal(b->nsettings, 1);
	assert_int_equal(b->settings[0].value, 700);
	assert_int_equal(scenario_parse(text, len, "stored", 0, &b2, &e), 0);
	assert_int_equal(b2->nunits, b->nunits);
	battle_free(b2);
	battle_free(b);
	free(text);
	/* A campaign reads its battlefields the same way. */
	snprintf(path, sizeof(path), "%s/over.scenario", dir);
	assert_int_equal(scenario_expand_file(path, &text, &len, &e), 0);
	assert_non_null(strstr(text, "# --- included: base.scenario ---"));
	assert_non_null(strstr(text, "unit \"23rd Foot\""));
	free(text);
	/* No include: the file's own bytes. */
	snprintf(path, sizeof(path), "%s/base.scenario", dir);
	assert_int_equal(scenario_load_file(path, &plain, &plen, &b, &e), 0);
	assert_int_equal(plen, strlen(good));
	assert_memory_equal(plain, good, plen);
	battle_free(b);
	free(plain);
	/* A mistake after the include names the overlay's own line ... */
	write_file(dir, "over.scenario", "scenario \"Overlay\"\nruleset vnb-wing\n"
	    "include \"base.scenario\"\nset no-such-number 1\n");
	snprintf(path, sizeof(path), "%s/over.scenario", dir);
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	if (strstr(e.msg, "over.scenario:4: the vnb-wing ruleset has no number") ==
	    NULL)
		fail_msg("%s", e.msg);
	/* ... and one in the included file, that file's line. */
	write_file(dir, "base2.scenario", "scenario \"B\"\nruleset vnb-wing\n"
	    "table 48 x 36\nnonsense here\n");
	write_file(dir, "over.scenario", "scenario \"Overlay\"\nruleset vnb-wing\n"
	    "include \"base2.scenario\"\n");
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	if (strstr(e.msg, "base2.scenario:4:") == NULL)
		fail_msg("%s", e.msg);
	write_file(dir, "base3.scenario", "include \"base.scenario\"\n");
	write_file(dir, "over.scenario", "scenario \"O\"\nruleset vnb-wing\n"
	    "include \"base3.scenario\"\n");
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	assert_non_null(strstr(e.msg, "may not include another"));
	write_file(dir, "over.scenario", "scenario \"O\"\nruleset vnb-wing\n"
	    "include \"base.scenario\"\ninclude \"base.scenario\"\n");
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	assert_non_null(strstr(e.msg, "over.scenario:4: a scenario includes one"));
	write_file(dir, "over.scenario", "scenario \"O\"\nruleset vnb-wing\n"
	    "include \"gone.scenario\"\n");
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	assert_non_null(strstr(e.msg, "over.scenario:3: cannot include"));
	write_file(dir, "over.scenario", "include base.scenario\n");
	assert_int_equal(scenario_load_file(path, &text, &len, &b, &e), -1);
	assert_non_null(strstr(e.msg, "expected 'include \"FILE\"'"));
	{
		const char *names[] = { "base.scenario", "base2.scenario",
		    "base3.scenario", "over.scenario" };
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
	}
	rmdir(dir);
}

/* alias lines give the unit, commander or brigade declared above them
 * (stand lines between aside) other names, and change nothing else. */
static void
aliases_name_what_the_line_above_declared(void **state)
{
	char *text = with_line(12,
	    "    unit \"23rd Foot\" type british-line stands 2 sp 3,2 at 24,10 facing 0\n"
	    "    alias \"Royal Welch Fusiliers\"\n    alias \"RWF\"");
	char *t2 = NULL;
	struct battle *b = parse_ok(text), *plain = parse_ok(good);
	int i;

	(void)state;
	assert_int_equal(b->naliases, 2);
	assert_string_equal(b->aliases[0].name, "Royal Welch Fusiliers");
	assert_int_equal(b->aliases[0].of, ALIAS_UNIT);
	assert_string_equal(b->units[b->aliases[0].idx].name, "23rd Foot");
	assert_int_equal(b->aliases[1].idx, b->aliases[0].idx);
	assert_int_equal(b->nunits, plain->nunits);
	assert_int_equal(plain->naliases, 0);
	for (i = 0; i < b->nunits; i++)
		assert_string_equal(b->units[i].name, plain->units[i].name);
	battle_free(b);
	free(text);
	/* After a stand line (its unit), a brigade line and a commander's. */
	text = with_line(14, "      stand sp 1 at 30,10 facing 45 skirmish\n"
	    "      alias \"Hessian Jaegers\"");
	t2 = calloc(1, strlen(text) + 200);
	assert_non_null(t2);
	{
		const char *at = strstr(text, "  brigade \"Va\"");
		const char *nl = strchr(at, '\n');

		memcpy(t2, text, (size_t)(nl + 1 - text));
		strcat(t2, "  alias \"Virginia Brigade\"\n");
		strcat(t2, nl + 1);
		strcat(t2, "    commander \"Buford\" unit at 24,28\n"
		    "    alias \"Col. Buford\"\n");
	}
	b = parse_ok(t2);
	assert_int_equal(b->naliases, 3);
	assert_int_equal(b->aliases[0].of, ALIAS_UNIT);
	assert_string_equal(b->units[b->aliases[0].idx].name, "Jaegers");
	assert_int_equal(b->aliases[1].of, ALIAS_BRIGADE);
	assert_string_equal(b->brigades[b->aliases[1].idx].name, "Va");
	assert_int_equal(b->aliases[2].of, ALIAS_COMMANDER);
	assert_string_equal(b->commanders[b->aliases[2].idx].name, "Buford");
	battle_free(b);
	battle_free(plain);
	free(text);
	free(t2);
}

/* Detachment slots count against the stand limit, for the units that
 * come after them too: a clear refusal, never a write past the table.
 * (Two units of 48 stands and their 1,920 slots fit BATTLE_MAX_STANDS,
 * 2,048; the militia's 33 stands after them are one too many.) */
/* 'full' (a campaign's carried strength): the stands start below their
 * full strength, and the missing SP count as the brigade's losses
 * already, toward its exhaustion. */
static void
full_strength_counts_missing_sp_as_lost(void **state)
{
	static const char *const from = "stands 2 sp 3,2 at 24,10";
	char buf[4096];
	const char *at = strstr(good, from);
	struct battle *b, *plain;
	struct err e;
	int u, s, br;

	(void)state;
	assert_non_null(at);
	snprintf(buf, sizeof(buf), "%.*sstands 2 sp 3,2 full 4,4 at 24,10%s",
	    (int)(at - good), good, at + strlen(from));
	b = parse_ok(buf);
	plain = parse_ok(good);
	u = battle_find_unit(b, "23rd Foot");
	s = b->units[u].first_stand;
	assert_int_equal(b->stands[s].sp, 3);
	assert_int_equal(b->stands[s].sp0, 4);
	assert_int_equal(b->stands[s + 1].sp, 2);
	assert_int_equal(b->stands[s + 1].sp0, 4);
	br = b->units[u].brigade;
	/* the brigade's start strength is its full strength: 3 more SP */
	assert_int_equal(b->brigades[br].sp0, plain->brigades[br].sp0 + 3);
	battle_free(plain);
	battle_free(b);
	/* fewer 'full' values than stands, or less than 'sp', is refused */
	snprintf(buf, sizeof(buf), "%.*sstands 2 sp 3,2 full 2,4 at 24,10%s",
	    (int)(at - good), good, at + strlen(from));
	err_clear(&e);
	b = NULL;
	assert_int_equal(scenario_parse(buf, strlen(buf), "t.scenario", 0, &b,
	    &e), -1);
	assert_non_null(strstr(e.msg, "t.scenario:12: stand 1 has 3 SP but only "
	    "2 at full strength"));
	snprintf(buf, sizeof(buf), "%.*sstands 2 sp 3,2 full 4,4,4 at 24,10%s",
	    (int)(at - good), good, at + strlen(from));
	assert_int_equal(scenario_parse(buf, strlen(buf), "t.scenario", 0, &b,
	    &e), -1);
	assert_non_null(strstr(e.msg, "t.scenario:12: 'stands 2' but 3 'full' values"));
}

_Static_assert(BATTLE_MAX_STANDS == 2 * (48 + 48 * 20) + 33 - 1,
    "the crowded scenario is one stand over the limit");
static void
too_many_stands_with_detachments_is_refused(void **state)
{
	static const char sc[] =
	    "scenario \"Crowded\"\nruleset vnb-wing\ntable 300 x 96\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 48,2\n"
	    "    unit \"Light Bobs\" type british-line +SK stands 48 sp 20 at "
	    "75,10 facing 0\n"
	    "    unit \"Heavy Bobs\" type british-line +SK stands 48 sp 20 at "
	    "225,10 facing 0\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at "
	    "90,94\n  brigade \"Va\" commander \"Weedon\" at 48,60\n"
	    "    unit \"Militia\" type raw-militia stands 33 sp 1 at 150,50 "
	    "facing 180\n";
	struct battle *b = NULL;
	struct err e;

	(void)state;
	assert_int_not_equal(scenario_parse(sc, strlen(sc), "crowded", 0, &b,
	    &e), 0);
	assert_non_null(strstr(e.msg, "too many stands"));
	assert_null(b);
}

static void
corpus_files_never_crash(void **state)
{
	const char *dir = DESPATCH_SOURCE_DIR "/tests/fuzz/corpus/scenario";
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char path[1024], *text = NULL;
		size_t len = 0;
		struct battle *b = NULL;
		struct err e;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (scenario_read_file(path, SCENARIO_MAX_BYTES, &text, &len, &e) != 0)
			fail_msg("%s", e.msg);
		/* Parse without the terminating NUL the reader adds. */
		{
			char *copy = malloc(len ? len : 1);

			assert_non_null(copy);
			memcpy(copy, text, len);
			if (scenario_parse(copy, len, "corpus", 0, &b, &e) != 0)
				assert_true(strncmp(e.msg, "corpus", 6) == 0);
			free(copy);
		}
		battle_free(b);
		free(text);
		n++;
	}
	closedir(d);
	assert_true(n >= 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_file_loads_with_forces_laid_out),
		cmocka_unit_test(each_error_names_its_line),
		cmocka_unit_test(exhausted_brigade_starts_exhausted),
		cmocka_unit_test(cards_make_the_deck_and_hands),
		cmocka_unit_test(set_takes_inches_for_distances),
		cmocka_unit_test(truncated_file_fails_cleanly_at_every_length),
		cmocka_unit_test(nul_byte_is_refused),
		cmocka_unit_test(line_offset_shifts_reported_lines),
		cmocka_unit_test(cowpens_scenario_loads),
		cmocka_unit_test(aliases_name_what_the_line_above_declared),
		cmocka_unit_test(corpus_files_never_crash),
		cmocka_unit_test(too_many_stands_with_detachments_is_refused),
		cmocka_unit_test(full_strength_counts_missing_sp_as_lost),
		cmocka_unit_test(an_overlay_includes_a_battle_and_stands_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
