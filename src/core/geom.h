/*
 * geom.h - table geometry in integers.
 *
 * Conventions (DESIGN, "Geometry"): inches; x grows east, y grows north;
 * the origin is the south-west corner.  Facing is whole degrees clockwise
 * from north (0 faces up the map, 90 east).  Lengths are fixed point in
 * hundredths of an inch (type fx).  Trigonometry uses a table of sines
 * scaled by 10000, so every result is the same on every machine.
 *
 * The one rounding rule: a product or quotient that does not come out
 * whole is rounded to the nearest hundredth, halves away from zero
 * (geom_div_round).  Nothing here uses floating point.
 */
#ifndef DESPATCH_CORE_GEOM_H
#define DESPATCH_CORE_GEOM_H

#include <stdint.h>

typedef int32_t fx;            /* hundredths of an inch */
#define FX_ONE 100
#define FX(inches) ((fx)((inches) * FX_ONE))
#define TRIG_ONE 10000         /* scale of geom_sin / geom_cos */

struct pt {
	fx x, y;
};

/* n / d rounded to nearest, halves away from zero; d must not be 0. */
int64_t geom_div_round(int64_t n, int64_t d);

/* Normalises an angle to 0..359. */
int geom_norm(int deg);
/* Signed smallest turn from a to b, -179..180 (positive = clockwise). */
int geom_turn(int from, int to);

/* sin/cos of a bearing, scaled by TRIG_ONE. */
int geom_sin(int deg);
int geom_cos(int deg);

/* Floor of the square root. */
int64_t geom_isqrt(int64_t v);

/* Distance between points, rounded to the nearest hundredth. */
fx geom_dist(struct pt a, struct pt b);

/* Bearing from a to b in whole degrees (0..359), the nearest whole
 * degree; 0 when the points coincide. */
int geom_bearing(struct pt a, struct pt b);

/* The point d hundredths from p along bearing deg. */
struct pt geom_offset(struct pt p, int deg, fx d);

/* p rotated by deg clockwise about c. */
struct pt geom_rotate(struct pt p, struct pt c, int deg);

/* The four corners of a w x d rectangle centred on c facing deg, in the
 * order front-left, front-right, rear-right, rear-left. */
void geom_rect(struct pt c, int deg, fx w, fx d, struct pt out[4]);

/* Shortest distance between two convex quadrilaterals (0 if they overlap
 * or touch). */
fx geom_rect_dist(const struct pt a[4], const struct pt b[4]);

/* Distance from point p to segment ab. */
fx geom_seg_dist(struct pt p, struct pt a, struct pt b);

/* 1 if p is inside the polygon (even-odd rule; points on an edge count
 * as inside). */
int geom_in_poly(struct pt p, const struct pt *poly, int n);

/* 1 if segment ab and segment cd share a point. */
int geom_seg_cross(struct pt a, struct pt b, struct pt c, struct pt d);

/* How far along segment ab (at most 100" long) it first meets segment cd
 * after leaving a, rounded up to the next hundredth; -1 if it does not
 * (or runs along it). */
fx geom_seg_hit(struct pt a, struct pt b, struct pt c, struct pt d);

/* The test switch of the geometry that does not look far (issue 24):
 * with it on, the rules measure as they did before it, every stand
 * against every stand at every step, so a differential test can play a
 * battle both ways and compare.  Only tests set it; it is off unless
 * they do, and the results are the same either way. */
void geom_reference(int on);
int geom_reference_on(void);

/* Parses a decimal inch value ("12", "3.5", "-0.25") into fx; returns -1
 * on bad syntax or more than two decimals or out of +-100000 inches. */
int geom_parse_fx(const char *s, fx *out);

/* Writes v as inches with up to two decimals ("12", "3.5", "0.25"). */
char *geom_fmt_fx(fx v, char *buf, int size);

#endif
