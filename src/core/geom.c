/*
 * geom.c - integer geometry for the table (see geom.h for conventions).
 *
 * Workload: called in the inner loops of movement (a step every quarter
 * inch) and line of sight, a few thousand calls a phase; everything is
 * a handful of integer operations.
 */
#include "core/geom.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int16_t sin_table[91] = {
	0, 175, 349, 523, 698, 872, 1045, 1219, 1392, 1564, 1736, 1908, 2079,
	2250, 2419, 2588, 2756, 2924, 3090, 3256, 3420, 3584, 3746, 3907, 4067,
	4226, 4384, 4540, 4695, 4848, 5000, 5150, 5299, 5446, 5592, 5736, 5878,
	6018, 6157, 6293, 6428, 6561, 6691, 6820, 6947, 7071, 7193, 7314, 7431,
	7547, 7660, 7771, 7880, 7986, 8090, 8192, 8290, 8387, 8480, 8572, 8660,
	8746, 8829, 8910, 8988, 9063, 9135, 9205, 9272, 9336, 9397, 9455, 9511,
	9563, 9613, 9659, 9703, 9744, 9781, 9816, 9848, 9877, 9903, 9925, 9945,
	9962, 9976, 9986, 9994, 9998, 10000
};

static int reference;

void
geom_reference(int on)
{
	reference = on != 0;
}

int
geom_reference_on(void)
{
	return reference;
}

int64_t
geom_div_round(int64_t n, int64_t d)
{
	int neg = (n < 0) != (d < 0);
	int64_t an = n < 0 ? -n : n, ad = d < 0 ? -d : d;
	int64_t q;

	assert(d != 0);
	q = (an + ad / 2) / ad;

	return neg ? -q : q;
}

int
geom_norm(int deg)
{
	deg %= 360;
	return deg < 0 ? deg + 360 : deg;
}

int
geom_turn(int from, int to)
{
	int t = geom_norm(to - from);

	return t > 180 ? t - 360 : t;
}

int
geom_sin(int deg)
{
	deg = geom_norm(deg);
	if (deg <= 90)
		return sin_table[deg];
	if (deg <= 180)
		return sin_table[180 - deg];
	if (deg <= 270)
		return -sin_table[deg - 180];
	return -sin_table[360 - deg];
}

int
geom_cos(int deg)
{
	return geom_sin(deg + 90);
}

int64_t
geom_isqrt(int64_t v)
{
	int64_t r, x;
	int bits = 0;

	if (v <= 0)
		return 0;
	/* Newton's method converges from above to the floor of the root
	 * from any start at or over it: 2^ceil(bits/2) is over it and close,
	 * so it takes a handful of steps rather than one per bit. */
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

fx
geom_dist(struct pt a, struct pt b)
{
	int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
	int64_t sq = dx * dx + dy * dy;
	int64_t r = geom_isqrt(sq);

	/* Round to nearest: r or r+1, whichever square is closer. */
	if ((r + 1) * (r + 1) - sq <= sq - r * r)
		r++;
	return (fx)r;
}

/* The largest k in 0..45 with num/den >= tan k by the table (den > 0,
 * 0 <= num <= den): the angle of (num, den) from den's axis lies within
 * a degree of k. */
static int
octant_angle(int64_t num, int64_t den)
{
	int lo = 0, hi = 45;

	while (lo < hi) {
		int m = (lo + hi + 1) / 2;

		if (den * sin_table[m] <= num * sin_table[90 - m])
			lo = m;
		else
			hi = m - 1;
	}
	return lo;
}

/*
 * The bearing is defined as it always was: of the 360 whole degrees, the
 * one whose table unit vector has the largest dot product with (dx, dy),
 * the lowest on a tie.  The table's sines are off by at most half a unit
 * in 10000, so a degree 1.5 or more from the true bearing scores below
 * the nearest degree (cos 0.5 - cos 1.5 is 3 units, the error at most
 * 0.71), and the winner lies within 1.5 of the true bearing.  The octant
 * search finds the true bearing to within a degree, so the seven degrees
 * about it hold the winner.  tests/unit/core/test_geom_reference.c
 * checks it against the 360-step search.
 */
int
geom_bearing(struct pt a, struct pt b)
{
	int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
	int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	int64_t best = INT64_MIN;
	int q, i, best_deg = 0;

	if (dx == 0 && dy == 0)
		return 0;
	q = ax <= ay ? octant_angle(ax, ay) : 90 - octant_angle(ay, ax);
	if (dy < 0)
		q = 180 - q;
	if (dx < 0)
		q = 360 - q;
	for (i = -3; i <= 3; i++) {
		int deg = geom_norm(q + i);
		int64_t dot = dx * geom_sin(deg) + dy * geom_cos(deg);

		if (dot > best || (dot == best && deg < best_deg)) {
			best = dot;
			best_deg = deg;
		}
	}
	return best_deg;
}

struct pt
geom_offset(struct pt p, int deg, fx d)
{
	struct pt r;

	r.x = p.x + (fx)geom_div_round((int64_t)d * geom_sin(deg), TRIG_ONE);
	r.y = p.y + (fx)geom_div_round((int64_t)d * geom_cos(deg), TRIG_ONE);
	return r;
}

struct pt
geom_rotate(struct pt p, struct pt c, int deg)
{
	int64_t dx = (int64_t)p.x - c.x, dy = (int64_t)p.y - c.y;
	int s = geom_sin(deg), co = geom_cos(deg);
	struct pt r;

	/* Clockwise rotation in a y-up frame. */
	r.x = c.x + (fx)geom_div_round(dx * co + dy * s, TRIG_ONE);
	r.y = c.y + (fx)geom_div_round(dy * co - dx * s, TRIG_ONE);
	return r;
}

void
geom_rect(struct pt c, int deg, fx w, fx d, struct pt out[4])
{
	/* Unrotated (facing north): front edge at +d/2. */
	struct pt fl = { c.x - w / 2, c.y + d / 2 };
	struct pt fr = { c.x + (w - w / 2), c.y + d / 2 };
	struct pt rr = { c.x + (w - w / 2), c.y - (d - d / 2) };
	struct pt rl = { c.x - w / 2, c.y - (d - d / 2) };

	out[0] = geom_rotate(fl, c, deg);
	out[1] = geom_rotate(fr, c, deg);
	out[2] = geom_rotate(rr, c, deg);
	out[3] = geom_rotate(rl, c, deg);
}

fx
geom_seg_dist(struct pt p, struct pt a, struct pt b)
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

static int64_t
cross3(struct pt o, struct pt a, struct pt b)
{
	return ((int64_t)a.x - o.x) * ((int64_t)b.y - o.y) -
	    ((int64_t)a.y - o.y) * ((int64_t)b.x - o.x);
}

static int
on_seg(struct pt a, struct pt b, struct pt p)
{
	return p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x > b.x ? a.x : b.x) &&
	    p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y > b.y ? a.y : b.y);
}

static int
sgn(int64_t v)
{
	return (v > 0) - (v < 0);
}

int
geom_seg_cross(struct pt a, struct pt b, struct pt c, struct pt d)
{
	int d1 = sgn(cross3(c, d, a)), d2 = sgn(cross3(c, d, b));
	int d3 = sgn(cross3(a, b, c)), d4 = sgn(cross3(a, b, d));

	if (d1 * d2 < 0 && d3 * d4 < 0)
		return 1;
	if (d1 == 0 && on_seg(c, d, a))
		return 1;
	if (d2 == 0 && on_seg(c, d, b))
		return 1;
	if (d3 == 0 && on_seg(a, b, c))
		return 1;
	if (d4 == 0 && on_seg(a, b, d))
		return 1;
	return 0;
}

fx
geom_seg_hit(struct pt a, struct pt b, struct pt c, struct pt d)
{
	struct pt o = { 0, 0 }, r = { b.x - a.x, b.y - a.y };
	struct pt sv = { d.x - c.x, d.y - c.y }, ca = { c.x - a.x, c.y - a.y };
	int64_t den = cross3(o, r, sv), tn = cross3(o, ca, sv);
	int64_t un = cross3(o, ca, r);
	fx len;

	/* The length, a square root, only for segments that meet: the
	 * tests are those of before, in another order. */
	if (den == 0)
		return -1;
	if (den < 0) {
		den = -den;
		tn = -tn;
		un = -un;
	}
	if (tn <= 0 || tn > den || un < 0 || un > den)
		return -1;
	len = geom_dist(a, b);
	if (len > FX(100))
		return -1;
	/* Rounded up: the point returned is on or just past the line. */
	return (fx)(((int64_t)len * tn + den - 1) / den);
}

int
geom_in_poly(struct pt p, const struct pt *poly, int n)
{
	int i, j, in = 0;

	for (i = 0, j = n - 1; i < n; j = i++) {
		struct pt a = poly[i], b = poly[j];

		/* The box test first: it is cheaper and nearly always false. */
		if (on_seg(a, b, p) && cross3(a, b, p) == 0)
			return 1;
		if ((a.y > p.y) != (b.y > p.y)) {
			/* x of the edge at height p.y, compared without division. */
			int64_t lhs = ((int64_t)p.x - a.x) * ((int64_t)b.y - a.y);
			int64_t rhs = ((int64_t)b.x - a.x) * ((int64_t)p.y - a.y);

			if ((b.y - a.y > 0) ? lhs < rhs : lhs > rhs)
				in = !in;
		}
	}
	return in;
}

/* The square of the distance geom_seg_dist measures, before its square
 * root: from p to the nearest point of ab, that point rounded to the
 * hundredth as geom_seg_dist rounds it. */
static int64_t
seg_dist_sq(struct pt p, struct pt a, struct pt b)
{
	int64_t abx = (int64_t)b.x - a.x, aby = (int64_t)b.y - a.y;
	int64_t apx = (int64_t)p.x - a.x, apy = (int64_t)p.y - a.y;
	int64_t len2 = abx * abx + aby * aby;
	int64_t t, dx, dy;

	if (len2 == 0 || (t = apx * abx + apy * aby) <= 0)
		return apx * apx + apy * apy;
	if (t >= len2) {
		dx = (int64_t)p.x - b.x;
		dy = (int64_t)p.y - b.y;
		return dx * dx + dy * dy;
	}
	dx = (int64_t)p.x - (a.x + (fx)geom_div_round(abx * t, len2));
	dy = (int64_t)p.y - (a.y + (fx)geom_div_round(aby * t, len2));
	return dx * dx + dy * dy;
}

/* geom_dist's rounding of a square root: the r whose square is nearest
 * sq, the larger on a tie. */
static fx
round_root(int64_t sq)
{
	int64_t r = geom_isqrt(sq);

	if ((r + 1) * (r + 1) - sq <= sq - r * r)
		r++;
	return (fx)r;
}

struct box {
	fx x0, y0, x1, y1;
};

static struct box
quad_box(const struct pt q[4])
{
	struct box bx = { q[0].x, q[0].y, q[0].x, q[0].y };
	int i;

	for (i = 1; i < 4; i++) {
		if (q[i].x < bx.x0)
			bx.x0 = q[i].x;
		if (q[i].x > bx.x1)
			bx.x1 = q[i].x;
		if (q[i].y < bx.y0)
			bx.y0 = q[i].y;
		if (q[i].y > bx.y1)
			bx.y1 = q[i].y;
	}
	return bx;
}

/* The larger of how far p lies outside segment ab's box along x and
 * along y: never more than the true distance from p to ab. */
static int64_t
seg_box_gap(struct pt p, struct pt a, struct pt b)
{
	int64_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
	int64_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
	int64_t gx = p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0;
	int64_t gy = p.y < y0 ? y0 - p.y : p.y > y1 ? p.y - y1 : 0;

	return gx > gy ? gx : gy;
}

/*
 * The value is what it always was: the least of the 32 corner-to-edge
 * distances geom_seg_dist gives, each the rounded root of a square
 * (seg_dist_sq).  That rounding (round_root) never decreases as the
 * square grows, so the least of the rounded roots is the rounded root of
 * the least square, and one root is taken at the end.
 *
 * Two shortcuts leave it unchanged.  Quadrilaterals whose boxes are
 * apart share no point and neither holds a corner of the other (every
 * edge and corner lies in its own box; the crossing count of
 * geom_in_poly is even for a point beside a closed polygon's box), so
 * the tests for overlap are skipped.  And a corner-to-edge pair is
 * skipped when its box gap m says its square cannot be the least: the
 * rounded foot of the perpendicular is within 0.71 of the true one, so
 * the measured distance exceeds m - 1, and (m - 1)^2 over the least
 * square so far means it cannot be smaller.  tests/unit/core/
 * test_geom_reference.c compares this with the old function.
 */
fx
geom_rect_dist(const struct pt a[4], const struct pt b[4])
{
	struct box ba = quad_box(a), bb = quad_box(b);
	int64_t best = INT64_MAX;
	int i, j;

	if (!(ba.x1 < bb.x0 || bb.x1 < ba.x0 || ba.y1 < bb.y0 ||
	    bb.y1 < ba.y0)) {
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				if (geom_seg_cross(a[i], a[(i + 1) % 4], b[j],
				    b[(j + 1) % 4]))
					return 0;
		if (geom_in_poly(a[0], b, 4) || geom_in_poly(b[0], a, 4))
			return 0;
	}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			const struct pt *p[2] = { &a[i], &b[i] };
			int k;

			/* a's corner i to b's edge j, then b's corner i to a's. */
			for (k = 0; k < 2; k++) {
				const struct pt *q = k == 0 ? b : a;
				int64_t m = seg_box_gap(*p[k], q[j], q[(j + 1) % 4]), sq;

				if (m > 1 && best != INT64_MAX &&
				    (m - 1) * (m - 1) > best)
					continue;
				sq = seg_dist_sq(*p[k], q[j], q[(j + 1) % 4]);
				if (sq < best)
					best = sq;
			}
		}
	return round_root(best);
}

int
geom_parse_fx(const char *s, fx *out)
{
	int neg = 0, digits = 0, frac = 0, fdig = 0;
	int64_t whole = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	while (*s >= '0' && *s <= '9') {
		whole = whole * 10 + (*s++ - '0');
		if (whole > 100000)
			return -1;
		digits++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (fdig == 2)
				return -1;
			frac = frac * 10 + (*s++ - '0');
			fdig++;
		}
		if (fdig == 0)
			return -1;
		if (fdig == 1)
			frac *= 10;
	}
	if (*s != '\0' || (digits == 0 && fdig == 0))
		return -1;
	*out = (fx)((whole * 100 + frac) * (neg ? -1 : 1));
	return 0;
}

char *
geom_fmt_fx(fx v, char *buf, int size)
{
	int64_t a = v < 0 ? -(int64_t)v : v;
	const char *sign = v < 0 ? "-" : "";

	if (a % 100 == 0)
		snprintf(buf, (size_t)size, "%s%lld", sign, (long long)(a / 100));
	else if (a % 10 == 0)
		snprintf(buf, (size_t)size, "%s%lld.%lld", sign, (long long)(a / 100),
		    (long long)(a % 100 / 10));
	else
		snprintf(buf, (size_t)size, "%s%lld.%02lld", sign, (long long)(a / 100),
		    (long long)(a % 100));
	return buf;
}
