/*
 * test_geom_reference.c - the fast geometry of issue 24 gives the same
 * integers as the code it replaced.  The old geom_rect_dist (32 rounded
 * corner-to-edge distances, each with its own square root) and the old
 * geom_bearing (a search of all 360 degrees) are frozen here, and only
 * here, and compared with the library's on edge cases, on every point of
 * a grid and on many random ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "core/geom.h"

/* --- the old functions, as they were ----------------------------------- */

static fx
old_seg_dist(struct pt p, struct pt a, struct pt b)
{
	int64_t abx = (int64_t)b.x - a.x, aby = (int64_t)b.y - a.y;
	int64_t apx = (int64_t)p.x - a.x, apy = (int64_t)p.y - a.y;
	int64_t len2 = abx * abx + aby * aby;
	int64_t t;
	struct pt q;

	if (len2 == 0)
		return geom_dist(p, a);
	t = apx * abx + apy * aby;
	if (t <= 0)
		return geom_dist(p, a);
	if (t >= len2)
		return geom_dist(p, b);
	q.x = a.x + (fx)geom_div_round(abx * t, len2);
	q.y = a.y + (fx)geom_div_round(aby * t, len2);
	return geom_dist(p, q);
}

static fx
old_rect_dist(const struct pt a[4], const struct pt b[4])
{
	fx best = INT32_MAX;
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if (geom_seg_cross(a[i], a[(i + 1) % 4], b[j], b[(j + 1) % 4]))
				return 0;
	if (geom_in_poly(a[0], b, 4) || geom_in_poly(b[0], a, 4))
		return 0;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			fx d1 = old_seg_dist(a[i], b[j], b[(j + 1) % 4]);
			fx d2 = old_seg_dist(b[i], a[j], a[(j + 1) % 4]);

			if (d1 < best)
				best = d1;
			if (d2 < best)
				best = d2;
		}
	return best;
}

static int
old_bearing(struct pt a, struct pt b)
{
	int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
	int64_t best = INT64_MIN;
	int deg, best_deg = 0;

	if (dx == 0 && dy == 0)
		return 0;
	for (deg = 0; deg < 360; deg++) {
		int64_t dot = dx * geom_sin(deg) + dy * geom_cos(deg);

		if (dot > best) {
			best = dot;
			best_deg = deg;
		}
	}
	return best_deg;
}

/* --- a reproducible generator (not the library's dice) ----------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static int
between(int lo, int hi)
{
	return lo + (int)(next() % (uint32_t)(hi - lo + 1));
}

static void
check_rects(struct pt c1, int f1, fx w1, fx d1, struct pt c2, int f2,
    fx w2, fx d2)
{
	struct pt a[4], b[4];

	geom_rect(c1, f1, w1, d1, a);
	geom_rect(c2, f2, w2, d2, b);
	if (geom_rect_dist(a, b) != old_rect_dist(a, b) ||
	    geom_rect_dist(b, a) != old_rect_dist(b, a))
		fail_msg("rect_dist (%d,%d f%d %dx%d) (%d,%d f%d %dx%d): new %d "
		    "old %d", c1.x, c1.y, f1, w1, d1, c2.x, c2.y, f2, w2, d2,
		    geom_rect_dist(a, b), old_rect_dist(a, b));
}

static void
rect_distances_are_the_old_ones_at_the_edges(void **state)
{
	static const fx sizes[][2] = {
		{ 400, 200 }, { 200, 400 }, { 150, 450 }, { 100, 100 },
		{ 0, 0 }, { 0, 300 }, { 300, 0 }, { 1, 1 }, { 3, 2 },
	};
	int i, j, f, dx, dy;

	(void)state;
	/* Touching, overlapping, nested, corner to corner, degenerate
	 * bases, every facing in steps of 5 degrees. */
	for (i = 0; i < 9; i++)
		for (j = 0; j < 9; j++)
			for (f = 0; f < 360; f += 5)
				for (dx = -600; dx <= 600; dx += 150)
					for (dy = -600; dy <= 600; dy += 200)
						check_rects((struct pt){ 1000, 1000 }, 0,
						    sizes[i][0], sizes[i][1],
						    (struct pt){ 1000 + dx, 1000 + dy }, f,
						    sizes[j][0], sizes[j][1]);
	/* Exactly touching along an edge and at a corner. */
	check_rects((struct pt){ 0, 0 }, 0, 400, 200, (struct pt){ 400, 0 }, 0,
	    400, 200);
	check_rects((struct pt){ 0, 0 }, 0, 400, 200, (struct pt){ 400, 200 },
	    0, 400, 200);
	check_rects((struct pt){ 0, 0 }, 0, 400, 200, (struct pt){ 401, 201 },
	    0, 400, 200);
	/* Far apart, and at the table's far corners. */
	check_rects((struct pt){ 0, 0 }, 45, 400, 200,
	    (struct pt){ 1000000, -1000000 }, 135, 400, 200);
	check_rects((struct pt){ 10000000, 10000000 }, 17, 400, 200,
	    (struct pt){ -10000000, -10000000 }, 233, 400, 200);
}

static void
rect_distances_are_the_old_ones_at_random(void **state)
{
	int n;

	(void)state;
	for (n = 0; n < 300000; n++) {
		int spread = n % 3 == 0 ? 300 : n % 3 == 1 ? 1500 : 20000;
		struct pt c1 = { between(-spread, spread), between(-spread, spread) };
		struct pt c2 = { between(-spread, spread), between(-spread, spread) };

		check_rects(c1, between(0, 359), between(0, 800), between(0, 800),
		    c2, between(0, 359), between(0, 800), between(0, 800));
	}
}

static void
check_bearing(struct pt a, struct pt b)
{
	if (geom_bearing(a, b) != old_bearing(a, b))
		fail_msg("bearing (%d,%d)->(%d,%d): new %d old %d", a.x, a.y,
		    b.x, b.y, geom_bearing(a, b), old_bearing(a, b));
}

static void
bearings_are_the_old_ones_on_a_grid(void **state)
{
	struct pt o = { 0, 0 };
	int x, y;

	(void)state;
	/* Every offset within 3 inches of a point, to the hundredth. */
	for (x = -300; x <= 300; x++)
		for (y = -300; y <= 300; y++)
			check_bearing(o, (struct pt){ x, y });
	/* The axes and diagonals far out, where ties are closest. */
	for (x = 1; x < 2000000000 / 3; x = x * 3 + 1) {
		check_bearing(o, (struct pt){ x, 0 });
		check_bearing(o, (struct pt){ 0, -x });
		check_bearing(o, (struct pt){ x, x });
		check_bearing(o, (struct pt){ -x, x + 1 });
		check_bearing((struct pt){ x, x }, o);
	}
}

static void
bearings_are_the_old_ones_at_random(void **state)
{
	int n;

	(void)state;
	for (n = 0; n < 50000; n++) {
		int spread = n % 2 ? 30000 : 1000000000;
		struct pt a = { between(-spread, spread), between(-spread, spread) };
		struct pt b = { between(-spread, spread), between(-spread, spread) };

		check_bearing(a, b);
	}
	/* Every whole degree's own direction, scaled up, and a hair off. */
	for (n = 0; n < 360; n++) {
		int k;

		for (k = 1; k <= 100000; k *= 10) {
			struct pt p = { geom_sin(n) * k, geom_cos(n) * k };

			check_bearing((struct pt){ 0, 0 }, p);
			check_bearing((struct pt){ 0, 0 }, (struct pt){ p.x + 1, p.y });
			check_bearing((struct pt){ 0, 0 }, (struct pt){ p.x, p.y - 1 });
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rect_distances_are_the_old_ones_at_the_edges),
		cmocka_unit_test(rect_distances_are_the_old_ones_at_random),
		cmocka_unit_test(bearings_are_the_old_ones_on_a_grid),
		cmocka_unit_test(bearings_are_the_old_ones_at_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
