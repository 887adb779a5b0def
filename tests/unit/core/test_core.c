/*
 * test_core.c - integer geometry, the scripted dice source, and the keyed
 * dice stream of the ledger.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"
#include "core/battle.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "ledger/record.h"

static void
distances_round_to_the_nearest_hundredth(void **state)
{
	(void)state;
	assert_int_equal(geom_dist((struct pt){ 0, 0 }, (struct pt){ 300, 400 }), 500);
	/* sqrt(2) = 1.41421 -> 141 */
	assert_int_equal(geom_dist((struct pt){ 0, 0 }, (struct pt){ 100, 100 }), 141);
	/* sqrt(8) inches = 2.8284 -> 283 */
	assert_int_equal(geom_dist((struct pt){ 0, 0 }, (struct pt){ 200, 200 }), 283);
	assert_int_equal(geom_div_round(5, 2), 3);
	assert_int_equal(geom_div_round(-5, 2), -3);
	assert_int_equal(geom_isqrt(99), 9);
}

static void
bearings_are_clockwise_from_north(void **state)
{
	struct pt o = { 1000, 1000 };

	(void)state;
	assert_int_equal(geom_bearing(o, (struct pt){ 1000, 2000 }), 0);
	assert_int_equal(geom_bearing(o, (struct pt){ 2000, 1000 }), 90);
	assert_int_equal(geom_bearing(o, (struct pt){ 1000, 0 }), 180);
	assert_int_equal(geom_bearing(o, (struct pt){ 0, 1000 }), 270);
	assert_int_equal(geom_bearing(o, (struct pt){ 2000, 2000 }), 45);
	assert_int_equal(geom_turn(350, 10), 20);
	assert_int_equal(geom_turn(10, 350), -20);
	assert_int_equal(geom_norm(-90), 270);
}

static void
offsets_and_rotations_follow_the_facing(void **state)
{
	struct pt p = geom_offset((struct pt){ 0, 0 }, 90, 1000);
	struct pt r = geom_rotate((struct pt){ 100, 0 }, (struct pt){ 0, 0 }, 90);

	(void)state;
	assert_int_equal(p.x, 1000);
	assert_int_equal(p.y, 0);
	/* A point east of the centre turned 90 clockwise ends south. */
	assert_int_equal(r.x, 0);
	assert_int_equal(r.y, -100);
}

static void
rectangles_measure_edge_to_edge(void **state)
{
	struct pt a[4], b[4], c[4];

	(void)state;
	/* Two 3 x 1.5 stands facing each other, centres 3" apart: 1.5" gap. */
	geom_rect((struct pt){ 2000, 1000 }, 0, 300, 150, a);
	geom_rect((struct pt){ 2000, 1300 }, 180, 300, 150, b);
	assert_int_equal(geom_rect_dist(a, b), 150);
	/* Side by side, touching. */
	geom_rect((struct pt){ 2300, 1000 }, 0, 300, 150, c);
	assert_int_equal(geom_rect_dist(a, c), 0);
	/* The front-left corner of a stand facing north. */
	assert_int_equal(a[0].x, 1850);
	assert_int_equal(a[0].y, 1075);
}

static void
polygons_and_crossings(void **state)
{
	static const struct pt sq[4] = { { 0, 0 }, { 100, 0 }, { 100, 100 }, { 0, 100 } };

	(void)state;
	assert_true(geom_in_poly((struct pt){ 50, 50 }, sq, 4));
	assert_true(geom_in_poly((struct pt){ 100, 50 }, sq, 4));
	assert_false(geom_in_poly((struct pt){ 150, 50 }, sq, 4));
	assert_true(geom_seg_cross((struct pt){ 0, 0 }, (struct pt){ 10, 10 },
	    (struct pt){ 0, 10 }, (struct pt){ 10, 0 }));
	assert_false(geom_seg_cross((struct pt){ 0, 0 }, (struct pt){ 10, 0 },
	    (struct pt){ 0, 5 }, (struct pt){ 10, 5 }));
}

static void
inch_values_parse_and_print(void **state)
{
	fx v;
	char buf[32];

	(void)state;
	assert_int_equal(geom_parse_fx("12", &v), 0);
	assert_int_equal(v, 1200);
	assert_int_equal(geom_parse_fx("3.5", &v), 0);
	assert_int_equal(v, 350);
	assert_int_equal(geom_parse_fx("0.25", &v), 0);
	assert_int_equal(v, 25);
	assert_int_equal(geom_parse_fx("1.234", &v), -1);
	assert_int_equal(geom_parse_fx("1.", &v), -1);
	assert_int_equal(geom_parse_fx("x", &v), -1);
	assert_int_equal(geom_parse_fx("", &v), -1);
	assert_string_equal(geom_fmt_fx(1250, buf, sizeof(buf)), "12.5");
	assert_string_equal(geom_fmt_fx(25, buf, sizeof(buf)), "0.25");
	assert_string_equal(geom_fmt_fx(-300, buf, sizeof(buf)), "-3");
}

static void
scripted_dice_check_each_value_and_the_count(void **state)
{
	int *v = NULL, n = 0, out;
	struct dice_script s;
	struct err e;

	(void)state;
	assert_int_equal(dice_script_parse("4 6\n# comment\n1, 9", "f", &v, &n, &e), 0);
	assert_int_equal(n, 4);
	s.v = v;
	s.n = n;
	s.pos = 0;
	assert_int_equal(dice_script_next(&s, 6, &out, &e), 0);
	assert_int_equal(out, 4);
	assert_int_equal(dice_script_done(&s, &e), -1);
	assert_non_null(strstr(e.msg, "3 scripted dice were left unused"));
	assert_int_equal(dice_script_next(&s, 6, &out, &e), 0);
	assert_int_equal(dice_script_next(&s, 6, &out, &e), 0);
	assert_int_equal(dice_script_next(&s, 6, &out, &e), -1);
	assert_non_null(strstr(e.msg, "is 9, which a d6 cannot roll"));
	s.pos = 4;
	assert_int_equal(dice_script_next(&s, 6, &out, &e), -1);
	assert_non_null(strstr(e.msg, "ran out"));
	free(v);
	assert_int_equal(dice_script_parse("4 five", "f", &v, &n, &e), -1);
	assert_non_null(strstr(e.msg, "f:1:"));
}

static void
dice_failure_is_sticky(void **state)
{
	static const int vals[] = { 3 };
	struct dice_script s = { vals, 1, 0 };
	struct events ev;
	struct dice d;

	(void)state;
	events_init(&ev);
	dice_init(&d, dice_script_next, &s, &ev);
	assert_int_equal(dice_roll(&d, 6, -1, "first", "", "first"), 3);
	assert_int_equal(d.failed, 0);
	assert_int_equal(dice_roll(&d, 6, -1, "second", "", "second"), 1);
	assert_int_equal(d.failed, 1);
	assert_int_equal(dice_roll(&d, 6, -1, "third", "", "third"), 1);
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.v[0].value, 3);
	assert_int_equal(ev.v[0].sides, 6);
	assert_non_null(strstr(ev.v[0].text, "first"));
	events_free(&ev);
}

static void
keyed_stream_is_fixed_by_its_seed(void **state)
{
	unsigned char secret[32], s1[32], s2[32];
	struct ledger_dice a, b;
	struct err e;
	int i, va, vb, counts[7] = { 0 }, differ = 0;

	(void)state;
	memset(secret, 0x42, sizeof(secret));
	/* Two links of a seed chain: two step seeds. */
	ledger_chain_prev(secret, s1);
	ledger_chain_prev(s1, s2);
	assert_memory_not_equal(s1, s2, 32);
	ledger_dice_init(&a, s1);
	ledger_dice_init(&b, s1);
	for (i = 0; i < 6000; i++) {
		assert_int_equal(ledger_dice_next(&a, 6, &va, &e), 0);
		assert_int_equal(ledger_dice_next(&b, 6, &vb, &e), 0);
		assert_int_equal(va, vb);
		assert_in_range(va, 1, 6);
		counts[va]++;
	}
	/* Every face turns up about a sixth of the time. */
	for (i = 1; i <= 6; i++)
		assert_in_range(counts[i], 850, 1150);
	ledger_dice_init(&b, s2);
	ledger_dice_init(&a, s1);
	for (i = 0; i < 20; i++) {
		ledger_dice_next(&a, 6, &va, &e);
		ledger_dice_next(&b, 6, &vb, &e);
		differ += va != vb;
	}
	assert_true(differ > 0);
}

static void
keyed_stream_known_answer(void **state)
{
	/* RFC 8439 section 2.4.2's key: the first keystream bytes of block 0
	 * with a zero nonce, read through the d256 "die" (b + 1). */
	static const char key_hex[] =
	    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
	unsigned char key[32];
	struct ledger_dice d;
	struct err e;
	int v, first[4], i;

	(void)state;
	assert_int_equal(ledger_unhex(key_hex, key, 32), 0);
	ledger_dice_init(&d, key);
	for (i = 0; i < 4; i++) {
		assert_int_equal(ledger_dice_next(&d, 256, &v, &e), 0);
		first[i] = v - 1;
	}
	/* ChaCha20 block 0, key 00..1f, nonce 0: keystream starts 39 fd 2b 7d
	 * (computed with libsodium; pins that the stream never changes). */
	assert_int_equal(first[0], 0x39);
	assert_int_equal(first[1], 0xfd);
	assert_int_equal(first[2], 0x2b);
	assert_int_equal(first[3], 0x7d);
}

/* A ruleset built on another looks a number up in its own table, then
 * in the base's; a battle's setting stands before both. */
static void
a_modules_numbers_stand_before_its_bases(void **state)
{
	static const struct rule_param base_p[] = {
		{ .name = "a", .value = 1 }, { .name = "b", .value = 2 },
	};
	static const struct rule_param mod_p[] = { { .name = "b", .value = 20 } };
	static const struct ruleset base = { .name = "base", .params = base_p,
	    .nparams = 2 };
	static const struct ruleset mod = { .name = "mod", .base = &base,
	    .params = mod_p, .nparams = 1 };
	static struct battle b;

	(void)state;
	assert_int_equal(ruleset_param(&mod, NULL, "a"), 1);
	assert_int_equal(ruleset_param(&mod, NULL, "b"), 20);
	assert_int_equal(ruleset_param(&base, NULL, "b"), 2);
	assert_true(ruleset_has_param(&mod, "a"));
	assert_false(ruleset_has_param(&base, "c"));
	b.nsettings = 1;
	snprintf(b.settings[0].name, sizeof(b.settings[0].name), "b");
	b.settings[0].value = 7;
	assert_int_equal(ruleset_param(&mod, &b, "b"), 7);
}

/* Every event kind has a name that reads back as it, the last added
 * ("attack") too, and no two share one. */
static void
event_kinds_read_back_by_name(void **state)
{
	int k, j;

	(void)state;
	for (k = 0; k < EV_KIND_COUNT; k++) {
		assert_int_equal(events_kind_parse(events_kind_name(
		    (enum event_kind)k)), k);
		for (j = 0; j < k; j++)
			assert_string_not_equal(events_kind_name((enum event_kind)j),
			    events_kind_name((enum event_kind)k));
	}
	assert_int_equal(events_kind_parse("attack"), EV_ATTACK);
	assert_int_equal(events_kind_parse("no-such-kind"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_modules_numbers_stand_before_its_bases),
		cmocka_unit_test(event_kinds_read_back_by_name),
		cmocka_unit_test(distances_round_to_the_nearest_hundredth),
		cmocka_unit_test(bearings_are_clockwise_from_north),
		cmocka_unit_test(offsets_and_rotations_follow_the_facing),
		cmocka_unit_test(rectangles_measure_edge_to_edge),
		cmocka_unit_test(polygons_and_crossings),
		cmocka_unit_test(inch_values_parse_and_print),
		cmocka_unit_test(scripted_dice_check_each_value_and_the_count),
		cmocka_unit_test(dice_failure_is_sticky),
		cmocka_unit_test(keyed_stream_is_fixed_by_its_seed),
		cmocka_unit_test(keyed_stream_known_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
