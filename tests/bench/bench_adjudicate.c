/*
 * bench_adjudicate.c - how long the rules core takes to play a phase of
 * a big battle, beside one all-pairs sweep of stand gaps (issue 24).
 *
 * A benchmark run by hand, not a test: it prints figures and exits 0
 * unless it could not run.
 *
 *   bench_adjudicate [--rules vnb-wing|bb7] [--sizes 100,200,...]
 *                    [--phases N] [--seed S] [--scenario]
 *                    [--phase P [--repeat R]]
 *
 * For each ruleset (both by default) and each size (100, 200, 400, 800
 * and 1,600 stands by default) it generates a battle (gen_battle.h: two
 * armies in rows of brigades, the fronts 10" apart, mixed arms, woods,
 * hills and a stream, the table growing with the stands), then plays N
 * phases (default 12), each with orders for every unit of the phasing
 * side, and times the ruleset's adjudicate alone (thread CPU time; the
 * orders are made and read outside the clock).  Beside it, in the same
 * run, it times one sweep over every pair of stands of opposing sides
 * measuring their gap with a frozen copy of geom_rect_dist as it was
 * when this benchmark was written (yard_rect_dist below): the yardstick
 * does not get faster when the engine's geometry does.
 *
 * It prints ms a phase (the mean), the median and the slowest phase
 * with its events, the ratio of a phase to the sweep, each phase's time,
 * events and stand-inches walked (the work of its moves, see
 * stand_inches), and for each ruleset the growth exponent of ms a phase
 * from 200 to 1,600 stands (log of the ratio over log 8; between the
 * smallest and largest sizes run when those two are not both there).
 * --scenario prints the generated scenario text of the first ruleset and
 * size asked for, and plays nothing.
 * Issue 24's targets: a phase at 400 stands under 10 ms and under 0.25x
 * the sweep, growth at most n^1.3, no phase over 3x the median, or the
 * event counts show why: a phase over it is set beside its work, its ms
 * a stand-inch walked against the median phase's.
 * --phase P [--repeat R] plays phase P R more times (100 unless told)
 * before it is timed, each from the table as it stood, for a profiler,
 * and prints the least and the median time of those plays.
 */
#include <sodium.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/battle.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/ruleset.h"
#include "ledger/ledger.h"
#include "orders/orders.h"
#include "bench_util.h"
#include "gen_battle.h"

/* The thread's CPU time in ms. */
#define cpu_ms() (bench_clock_s(CLOCK_THREAD_CPUTIME_ID) * 1e3)

#define MAX_SIZES  16
#define MAX_PHASES 200
#define MAX_REPEAT 10000

/* --- the yardstick: src/core/geom.c's geom_rect_dist as of issue 24, --
 * --- frozen (do not make it faster: it is what the engine is held to) - */

static int64_t
yard_div_round(int64_t n, int64_t d)
{
	int neg = (n < 0) != (d < 0);
	int64_t an = n < 0 ? -n : n, ad = d < 0 ? -d : d;
	int64_t q = (an + ad / 2) / ad;

	return neg ? -q : q;
}

static int64_t
yard_isqrt(int64_t v)
{
	int64_t r, x;
	int bits = 0;

	if (v <= 0)
		return 0;
	for (r = v; r > 0; r >>= 1)
		bits++;
	x = (int64_t)1 << ((bits + 1) / 2);
	r = (x + v / x) / 2;
	while (r < x) {
		x = r;
		r = (x + v / x) / 2;
	}
	return x;
}

static fx
yard_dist(struct pt a, struct pt b)
{
	int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
	int64_t sq = dx * dx + dy * dy;
	int64_t r = yard_isqrt(sq);

	if ((r + 1) * (r + 1) - sq <= sq - r * r)
		r++;
	return (fx)r;
}

static fx
yard_seg_dist(struct pt p, struct pt a, struct pt b)
{
	int64_t abx = (int64_t)b.x - a.x, aby = (int64_t)b.y - a.y;
	int64_t apx = (int64_t)p.x - a.x, apy = (int64_t)p.y - a.y;
	int64_t len2 = abx * abx + aby * aby;
	int64_t t;
	struct pt q;

	if (len2 == 0)
		return yard_dist(p, a);
	t = apx * abx + apy * aby;
	if (t <= 0)
		return yard_dist(p, a);
	if (t >= len2)
		return yard_dist(p, b);
	q.x = a.x + (fx)yard_div_round(abx * t, len2);
	q.y = a.y + (fx)yard_div_round(aby * t, len2);
	return yard_dist(p, q);
}

static int64_t
yard_cross3(struct pt o, struct pt a, struct pt b)
{
	return ((int64_t)a.x - o.x) * ((int64_t)b.y - o.y) -
	    ((int64_t)a.y - o.y) * ((int64_t)b.x - o.x);
}

static int
yard_on_seg(struct pt a, struct pt b, struct pt p)
{
	return p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x > b.x ? a.x : b.x) &&
	    p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y > b.y ? a.y : b.y);
}

static int
yard_sgn(int64_t v)
{
	return (v > 0) - (v < 0);
}

static int
yard_seg_cross(struct pt a, struct pt b, struct pt c, struct pt d)
{
	int d1 = yard_sgn(yard_cross3(c, d, a)), d2 = yard_sgn(yard_cross3(c, d, b));
	int d3 = yard_sgn(yard_cross3(a, b, c)), d4 = yard_sgn(yard_cross3(a, b, d));

	if (d1 * d2 < 0 && d3 * d4 < 0)
		return 1;
	if (d1 == 0 && yard_on_seg(c, d, a))
		return 1;
	if (d2 == 0 && yard_on_seg(c, d, b))
		return 1;
	if (d3 == 0 && yard_on_seg(a, b, c))
		return 1;
	if (d4 == 0 && yard_on_seg(a, b, d))
		return 1;
	return 0;
}

static int
yard_in_poly(struct pt p, const struct pt *poly, int n)
{
	int i, j, in = 0;

	for (i = 0, j = n - 1; i < n; j = i++) {
		struct pt a = poly[i], b = poly[j];

		if (yard_cross3(a, b, p) == 0 && yard_on_seg(a, b, p))
			return 1;
		if ((a.y > p.y) != (b.y > p.y)) {
			int64_t lhs = ((int64_t)p.x - a.x) * ((int64_t)b.y - a.y);
			int64_t rhs = ((int64_t)b.x - a.x) * ((int64_t)p.y - a.y);

			if ((b.y - a.y > 0) ? lhs < rhs : lhs > rhs)
				in = !in;
		}
	}
	return in;
}

static fx
yard_rect_dist(const struct pt a[4], const struct pt b[4])
{
	fx best = INT32_MAX;
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if (yard_seg_cross(a[i], a[(i + 1) % 4], b[j], b[(j + 1) % 4]))
				return 0;
	if (yard_in_poly(a[0], b, 4) || yard_in_poly(b[0], a, 4))
		return 0;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			fx d1 = yard_seg_dist(a[i], b[j], b[(j + 1) % 4]);
			fx d2 = yard_seg_dist(b[i], a[j], a[(j + 1) % 4]);

			if (d1 < best)
				best = d1;
			if (d2 < best)
				best = d2;
		}
	return best;
}

/* --- timing -------------------------------------------------------------- */

/* One sweep: every pair of stands of opposing sides on the table, their
 * gap by the yardstick; ms, and the pairs and the least gap. */
static double
sweep(const struct battle *b, long *pairs, fx *least)
{
	struct pt (*r)[4] = malloc((size_t)(b->nstands > 0 ? b->nstands : 1) *
	    sizeof(*r));
	double t0, t1;
	long n = 0;
	fx lo = INT32_MAX;
	int s, t;

	if (r == NULL)
		return -1;
	for (s = 0; s < b->nstands; s++)
		battle_stand_rect(b, s, r[s]);
	t0 = cpu_ms();
	for (s = 0; s < b->nstands; s++) {
		int ss = b->units[b->stands[s].unit].side;

		if (b->stands[s].flags & ST_GONE)
			continue;
		for (t = s + 1; t < b->nstands; t++) {
			fx d;

			if ((b->stands[t].flags & ST_GONE) ||
			    b->units[b->stands[t].unit].side == ss)
				continue;
			d = yard_rect_dist(r[s], r[t]);
			if (d < lo)
				lo = d;
			n++;
		}
	}
	t1 = cpu_ms();
	free(r);
	*pairs = n;
	*least = lo;
	return t1 - t0;
}

/* --- the work a phase did ------------------------------------------------ */

/*
 * The events a phase writes are no measure of its work: a phase in which
 * every unit walks its full move writes one event a unit, as does one in
 * which it steps a quarter inch to contact, yet the rules judge the
 * ground, the gaps to the enemy and to friends at every quarter inch of
 * the way, for every stand.  So each phase also counts the stand-inches
 * walked: over every stand on the table both before and after it, how
 * far its centre is from where it was.  It is read from the table before
 * and after the phase, outside the clock; nothing in the rules counts it.
 */
static void
stand_positions(const struct battle *b, struct pt *at, unsigned char *on)
{
	int s;

	for (s = 0; s < b->nstands; s++) {
		at[s] = b->stands[s].pos;
		on[s] = !(b->stands[s].flags & ST_GONE);
	}
}

static double
stand_inches(const struct battle *b, const struct pt *at,
    const unsigned char *on)
{
	double sum = 0;
	int s;

	for (s = 0; s < b->nstands; s++)
		if (on[s] && !(b->stands[s].flags & ST_GONE))
			sum += hypot((double)b->stands[s].pos.x - at[s].x,
			    (double)b->stands[s].pos.y - at[s].y) / 100.0;
	return sum;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct size_result {
	int stands, ran;
	double mean;
};

/* Plays one size; prints its lines; 0, or -1 if it could not run. */
/* --phase P --repeat R: phase P is played R times more after the run,
 * each time from the table as it stood before it, so a profiler sees
 * that phase alone; 0: none. */
static int only_phase, only_repeat = 100;

static int
run_size(const char *rules, int stands, int phases, uint64_t seed,
    struct size_result *out)
{
	struct gen_spec g = { rules, stands, seed, phases / 2 + 1 };
	const struct ruleset *rs = ruleset_find(rules);
	struct orders_parser *op = NULL;
	struct battle *b = NULL, *keep = NULL;
	struct order_set *sets = NULL;
	struct err e;
	double ms[MAX_PHASES], sorted[MAX_PHASES], total = 0, sw, med;
	double walked[MAX_PHASES], wmed, rep[MAX_REPEAT];
	struct pt at[BATTLE_MAX_STANDS];
	unsigned char on[BATTLE_MAX_STANDS];
	int evn[MAX_PHASES], step, played = 0, nsets, bad = 0, slow = 0;
	int rc = -1, s, alive = 0;
	long pairs = 0, rolls = 0;
	fx least = 0;

	memset(out, 0, sizeof(*out));
	out->stands = stands;
	if (rs == NULL) {
		fprintf(stderr, "bench_adjudicate: no ruleset %s\n", rules);
		return -1;
	}
	if (gen_battle_new(&g, &b, &e) != 0) {
		fprintf(stderr, "bench_adjudicate: %s, %d stands: %s\n", rules,
		    stands, e.msg);
		return -1;
	}
	op = orders_parser_new(rs, &e);
	sets = calloc((size_t)b->nsides, sizeof(*sets));
	if (op == NULL || sets == NULL) {
		fprintf(stderr, "bench_adjudicate: %s\n", op == NULL ? e.msg :
		    "out of memory");
		goto out;
	}
	sw = sweep(b, &pairs, &least);
	for (step = 1; step <= phases && step <= battle_steps(b); step++) {
		struct ledger_dice ld;
		struct dice d;
		struct events ev;
		double t0, t1;
		int bad1 = 0;

		if (gen_battle_order_sets(&g, op, b, step, sets, &nsets, &bad1,
		    &e) != 0) {
			fprintf(stderr, "bench_adjudicate: step %d: %s\n", step, e.msg);
			goto out;
		}
		bad += bad1;
		if (step == only_phase) {
			int k;

			if ((keep = battle_new()) == NULL)
				goto out;
			memcpy(keep, b, sizeof(*b));
			for (k = 0; k < only_repeat; k++) {
				events_init(&ev);
				gen_battle_dice(&g, step, &ld);
				dice_init(&d, ledger_dice_next, &ld, &ev);
				t0 = cpu_ms();
				if (rs->adjudicate(b, step, sets, nsets, &d, &ev,
				    &e) != 0) {
					events_free(&ev);
					goto out;
				}
				t1 = cpu_ms();
				rep[k < MAX_REPEAT ? k : MAX_REPEAT - 1] = t1 - t0;
				events_free(&ev);
				memcpy(b, keep, sizeof(*b));
			}
			/* The least of the plays is the phase with the least
			 * of other programs' noise on the machine. */
			k = only_repeat < MAX_REPEAT ? only_repeat : MAX_REPEAT;
			qsort(rep, (size_t)k, sizeof(rep[0]), cmp_double);
			printf("%6d phase %d played %d times more: least %.2f ms, "
			    "median %.2f ms\n", stands, step, only_repeat, rep[0],
			    rep[k / 2]);
		}
		events_init(&ev);
		gen_battle_dice(&g, step, &ld);
		dice_init(&d, ledger_dice_next, &ld, &ev);
		stand_positions(b, at, on);
		t0 = cpu_ms();
		if (rs->adjudicate(b, step, sets, nsets, &d, &ev, &e) != 0) {
			events_free(&ev);
			fprintf(stderr, "bench_adjudicate: %s, %d stands, step %d: "
			    "%s\n", rules, stands, step, e.msg);
			goto out;
		}
		t1 = cpu_ms();
		ms[played] = t1 - t0;
		evn[played] = ev.n;
		walked[played] = stand_inches(b, at, on);
		rolls += d.rolls;
		total += ms[played];
		played++;
		events_free(&ev);
	}
	if (played == 0)
		goto out;
	memcpy(sorted, ms, (size_t)played * sizeof(ms[0]));
	qsort(sorted, (size_t)played, sizeof(sorted[0]), cmp_double);
	med = played % 2 ? sorted[played / 2] :
	    (sorted[played / 2 - 1] + sorted[played / 2]) / 2;
	for (step = 0; step < played; step++)
		if (ms[step] > ms[slow])
			slow = step;
	for (s = 0; s < b->nstands; s++)
		alive += !(b->stands[s].flags & ST_GONE);
	printf("%6d %5d %10.2f %9.2f %9.2f %4d %7d %10.2f %8.2fx\n", stands,
	    b->nunits, total / played, med, ms[slow], slow + 1, evn[slow], sw,
	    sw > 0 ? (total / played) / sw : 0.0);
	printf("       phases (ms/events/stand-inches walked):");
	for (step = 0; step < played; step++)
		printf(" %d:%.1f/%d/%.0f", step + 1, ms[step], evn[step],
		    walked[step]);
	printf("\n       %ld opposing pairs, least gap %.2f\"; %ld dice; %d of "
	    "%d stands left\n", pairs, least / 100.0, rolls, alive, b->nstands);
	if (bad)
		printf("       (%d generated order lines did not read)\n", bad);
	if (ms[slow] > 3 * med) {
		/* Set beside the work: the slowest phase's ms a stand-inch
		 * walked against the median phase's (median ms over median
		 * stand-inches), so that a phase which is slow because its
		 * stands walked further says so. */
		memcpy(sorted, walked, (size_t)played * sizeof(walked[0]));
		qsort(sorted, (size_t)played, sizeof(sorted[0]), cmp_double);
		wmed = played % 2 ? sorted[played / 2] :
		    (sorted[played / 2 - 1] + sorted[played / 2]) / 2;
		printf("       phase %d is over 3x the median (%.2f ms, median "
		    "%.2f)", slow + 1, ms[slow], med);
		if (walked[slow] >= 1 && wmed >= 1) {
			double per = ms[slow] / walked[slow], mper = med / wmed;

			printf(";\n       it walked %.0f stand-inches (median %.0f): "
			    "%.4f ms a stand-inch, %.2fx the median's %.4f%s\n",
			    walked[slow], wmed, per, per / mper, mper,
			    per > 3 * mper ? ", over 3x too" : "");
		} else
			printf(" and walked %.0f stand-inches (median %.0f)\n",
			    walked[slow], wmed);
	}
	fflush(stdout);
	out->ran = 1;
	out->mean = total / played;
	rc = 0;
out:
	free(sets);
	orders_parser_free(op);
	battle_free(keep);
	battle_free(b);
	return rc;
}

static void
growth(const char *rules, const struct size_result *r, int n)
{
	const struct size_result *lo = NULL, *hi = NULL;
	int i;

	for (i = 0; i < n; i++) {
		if (!r[i].ran || r[i].mean <= 0)
			continue;
		if (r[i].stands == 200)
			lo = &r[i];
		if (r[i].stands == 1600)
			hi = &r[i];
	}
	if (lo == NULL || hi == NULL) {
		lo = hi = NULL;
		for (i = 0; i < n; i++) {
			if (!r[i].ran || r[i].mean <= 0)
				continue;
			if (lo == NULL || r[i].stands < lo->stands)
				lo = &r[i];
			if (hi == NULL || r[i].stands > hi->stands)
				hi = &r[i];
		}
	}
	if (lo == NULL || hi == NULL || lo == hi || lo->stands == hi->stands) {
		printf("%s: growth needs two sizes\n\n", rules);
		return;
	}
	printf("%s: ms/phase grows as n^%.2f from %d to %d stands "
	    "(target: at most n^1.3)\n\n", rules,
	    log(hi->mean / lo->mean) / log((double)hi->stands / lo->stands),
	    lo->stands, hi->stands);
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench_adjudicate [--rules vnb-wing|bb7] "
	    "[--sizes 100,200,...] [--phases N] [--seed S] [--scenario]\n"
	    "                        [--phase P [--repeat R]]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	static const char *const all_rules[] = { "vnb-wing", "bb7" };
	int sizes[MAX_SIZES] = { 100, 200, 400, 800, 1600 }, nsizes = 5;
	int phases = 12, i, r, failed = 0, show = 0;
	const char *only = NULL;
	uint64_t seed = 24;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
			char *p = argv[++i], *end;

			nsizes = 0;
			while (*p && nsizes < MAX_SIZES) {
				long v = strtol(p, &end, 10);

				if (end == p || v < 20 || v > BATTLE_MAX_STANDS || v % 2)
					usage();
				sizes[nsizes++] = (int)v;
				p = *end == ',' ? end + 1 : end;
				if (*end != ',' && *end != '\0')
					usage();
			}
		} else if (strcmp(argv[i], "--phases") == 0 && i + 1 < argc) {
			phases = atoi(argv[++i]);
			if (phases < 1 || phases > MAX_PHASES)
				usage();
		} else if (strcmp(argv[i], "--phase") == 0 && i + 1 < argc) {
			only_phase = atoi(argv[++i]);
			if (only_phase < 1 || only_phase > MAX_PHASES)
				usage();
		} else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
			only_repeat = atoi(argv[++i]);
			if (only_repeat < 1 || only_repeat > MAX_REPEAT)
				usage();
		} else if (strcmp(argv[i], "--scenario") == 0) {
			show = 1;
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 10);
		} else {
			usage();
		}
	}
	if (only != NULL && ruleset_find(only) == NULL) {
		fprintf(stderr, "bench_adjudicate: no ruleset %s\n", only);
		return 2;
	}
	if (show) {
		struct gen_spec g = { only != NULL ? only : all_rules[0], sizes[0],
		    seed, phases / 2 + 1 };
		char *text = NULL;
		size_t len = 0;
		struct err e;

		if (gen_battle_scenario(&g, &text, &len, &e) != 0) {
			fprintf(stderr, "bench_adjudicate: %s\n", e.msg);
			return 1;
		}
		fwrite(text, 1, len, stdout);
		free(text);
		return 0;
	}
	if (sodium_init() < 0)
		return 1;
	for (r = 0; r < 2; r++) {
		struct size_result res[MAX_SIZES];

		if (only != NULL && strcmp(only, all_rules[r]) != 0)
			continue;
		printf("bench_adjudicate: %s, %d phases a size, seed %llu "
		    "(adjudicate alone, thread CPU time)\n", all_rules[r], phases,
		    (unsigned long long)seed);
		printf("stands units  ms/phase    median   slowest (phase events)"
		    "  sweep ms  phase/sweep\n");
		for (i = 0; i < nsizes; i++)
			if (run_size(all_rules[r], sizes[i], phases, seed, &res[i]) != 0)
				failed = 1;
		growth(all_rules[r], res, nsizes);
	}
	return failed;
}
