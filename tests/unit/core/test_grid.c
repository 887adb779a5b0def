/*
 * test_grid.c - the uniform grid (core/grid.h) finds exactly the filed
 * boxes that meet a query box, in ascending order, as a walk of every
 * item would: after filing, moving (within a cell and across cells),
 * taking out, off the table and on a table too big for its cells.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/grid.h"

static uint64_t rng_state = 24;

static int
rnd(int lo, int hi)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (int)((rng_state >> 33) % (uint64_t)(hi - lo + 1));
}

struct model {
	int filed[GRID_MAX_ITEMS];
	fx box[GRID_MAX_ITEMS][4];
};

static void
random_box(fx w, fx d, fx b[4])
{
	/* Some boxes lie partly or wholly off the table. */
	b[0] = rnd(-2000, w + 2000);
	b[1] = rnd(-2000, d + 2000);
	b[2] = b[0] + rnd(0, 1500);
	b[3] = b[1] + rnd(0, 1500);
}

/* The grid's answer is the walk of every item's. */
static void
check_query(const struct grid *g, const struct model *m, int n,
    const fx q[4])
{
	int got[GRID_MAX_ITEMS], want[GRID_MAX_ITEMS];
	int i, k, nw = 0;

	for (i = 0; i < n; i++)
		if (m->filed[i] && m->box[i][0] <= q[2] && m->box[i][2] >= q[0] &&
		    m->box[i][1] <= q[3] && m->box[i][3] >= q[1])
			want[nw++] = i;
	k = grid_query(g, q, got);
	assert_int_equal(k, nw);
	for (i = 0; i < k; i++)
		assert_int_equal(got[i], want[i]);
}

static void
play(fx w, fx d, fx cell, int n, int rounds)
{
	static struct grid g;
	static struct model m;
	int i, r;

	assert_int_equal(grid_init(&g, w, d, cell, n), 0);
	for (i = 0; i < n; i++) {
		m.filed[i] = 0;
		assert_int_equal(grid_get(&g, i, NULL), 0);
	}
	for (r = 0; r < rounds; r++) {
		int it = rnd(0, n - 1), what = rnd(0, 9);
		fx q[4];

		if (what == 0) {
			grid_remove(&g, it);
			m.filed[it] = 0;
		} else if (what < 4 && m.filed[it]) {
			/* A small move, as a quarter-inch step is. */
			int dx = rnd(-25, 25), dy = rnd(-25, 25), j;

			for (j = 0; j < 4; j++)
				m.box[it][j] += j % 2 == 0 ? dx : dy;
			grid_put(&g, it, m.box[it]);
		} else {
			random_box(w, d, m.box[it]);
			grid_put(&g, it, m.box[it]);
			m.filed[it] = 1;
		}
		if (m.filed[it]) {
			fx b[4];

			assert_int_equal(grid_get(&g, it, b), 1);
			assert_memory_equal(b, m.box[it], sizeof(b));
		} else
			assert_int_equal(grid_get(&g, it, NULL), 0);
		random_box(w, d, q);
		check_query(&g, &m, n, q);
	}
	/* The whole table and beyond finds every filed item. */
	{
		fx all[4] = { -100000, -100000, w + 100000, d + 100000 };

		check_query(&g, &m, n, all);
	}
}

static void
test_grid_finds_what_a_walk_finds(void **state)
{
	(void)state;
	play(30000, 20000, 800, 300, 20000);
}

static void
test_grid_on_a_table_too_big_for_its_cells(void **state)
{
	(void)state;
	/* 64 cells of 8" cover 512": the cells grow to cover the table. */
	play(200000, 3000, 800, GRID_MAX_ITEMS, 10000);
}

static void
test_grid_of_one_cell(void **state)
{
	(void)state;
	play(500, 500, 800, 20, 2000);
}

static void
test_grid_refuses_what_it_cannot_hold(void **state)
{
	static struct grid g;

	(void)state;
	assert_int_equal(grid_init(&g, 1000, 1000, 800, GRID_MAX_ITEMS + 1), -1);
	assert_int_equal(grid_init(&g, 1000, 1000, 0, 10), -1);
	assert_int_equal(grid_init(&g, 1000, 1000, 800, -1), -1);
	assert_int_equal(grid_init(&g, 1000, 1000, 800, 0), 0);
}

static void
test_grid_edges_touching_meet(void **state)
{
	static struct grid g;
	fx a[4] = { 100, 100, 900, 200 }, q[4] = { 900, 200, 1000, 300 };
	fx q2[4] = { 901, 200, 1000, 300 };
	int out[GRID_MAX_ITEMS];

	(void)state;
	assert_int_equal(grid_init(&g, 5000, 5000, 800, 4), 0);
	grid_put(&g, 2, a);
	assert_int_equal(grid_query(&g, q, out), 1);
	assert_int_equal(out[0], 2);
	assert_int_equal(grid_query(&g, q2, out), 0);
	/* Out of range items are ignored, not filed. */
	grid_put(&g, 4, a);
	grid_put(&g, -1, a);
	grid_remove(&g, 7);
	assert_int_equal(grid_query(&g, q, out), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_finds_what_a_walk_finds),
		cmocka_unit_test(test_grid_on_a_table_too_big_for_its_cells),
		cmocka_unit_test(test_grid_of_one_cell),
		cmocka_unit_test(test_grid_refuses_what_it_cannot_hold),
		cmocka_unit_test(test_grid_edges_touching_meet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
