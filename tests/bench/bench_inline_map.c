/*
 * bench_inline_map.c - what a report mail's maps cost to draw and weigh
 * (issue 25, 2 and 4): for each side of Cowpens, in the open and in fog,
 * the maps a mail drew before (the whole field in full colour, as SVG,
 * and as the palette inline map, whatever the player's format), beside
 * what an HTML mail draws now (the cropped inline map alone) and what a
 * FULL one does (that, and the whole field in colour and as SVG).
 *
 * A benchmark run by hand, not a test: it prints figures and exits 0
 * unless it could not run.
 *
 *   bench_inline_map [RUNS] [DIR]
 *
 * RUNS (default 20) draws of each, timed on the thread's CPU clock; the
 * median is printed.  With DIR, each side's cropped and whole inline
 * maps are written there as PNG files, to look at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "map/map.h"
#include "scenario/scenario.h"
#include "bench_util.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

enum { BEFORE, HTML, FULL, NKINDS };
static const char *kind_name[NKINDS] = {
	"before (any format)", "now, HTML", "now, FULL",
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Draws b as o asks (svg or PNG); its bytes into *n; the bytes kept in
 * *keep (to free) when keep is not NULL. */
static void
draw(const struct battle *b, const struct map_opts *o, int svg, size_t *n,
    unsigned char **keep)
{
	unsigned char *p = NULL;
	struct err e;

	if (map_render(b, o, svg, &p, n, &e) != 0)
		bench_die("bench_inline_map", "%s", e.msg);
	if (keep != NULL)
		*keep = p;
	else
		free(p);
}

static void
save(const char *dir, const char *name, const unsigned char *p, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(p, 1, n, f) != n ||
	    fclose(f) != 0)
		bench_die("bench_inline_map", "cannot write %s", path);
}

int
main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 20;
	const char *dir = argc > 2 ? argv[2] : NULL;
	struct battle *b = NULL;
	char *text = NULL;
	size_t tlen = 0;
	struct err e;
	double *t;
	int fog, side, k, i;

	if (runs < 1)
		runs = 1;
	if ((t = calloc((size_t)runs, sizeof(*t))) == NULL)
		bench_die("bench_inline_map", "out of memory");
	if (scenario_load_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", &text, &tlen, &b, &e) != 0)
		bench_die("bench_inline_map", "%s", e.msg);
	printf("%-10s %-5s %-20s %9s %9s %9s %9s\n", "view", "side", "mail",
	    "ms", "inline B", "png B", "svg B");
	for (fog = 0; fog < 2; fog++)
		for (side = 0; side < b->nsides; side++) {
			unsigned char *seen = fog ? map_seen(b, side) : NULL;
			struct map_opts o;

			memset(&o, 0, sizeof(o));
			o.title = "Cowpens, 17 January 1781 (game cowpens)";
			o.subtitle = "Before turn 1 (07:00): as this side sees it";
			o.seen = seen;
			o.side = side;
			for (k = 0; k < NKINDS; k++) {
				size_t inl = 0, png = 0, svg = 0;

				for (i = 0; i < runs; i++) {
					double t0 = bench_clock_s(
					    CLOCK_THREAD_CPUTIME_ID);

					o.compact = 1;
					o.crop = k != BEFORE;
					draw(b, &o, 0, &inl, NULL);
					o.compact = 0;
					o.crop = 0;
					if (k != HTML) {
						draw(b, &o, 0, &png, NULL);
						draw(b, &o, 1, &svg, NULL);
					}
					t[i] = (bench_clock_s(
					    CLOCK_THREAD_CPUTIME_ID) - t0) * 1e3;
				}
				qsort(t, (size_t)runs, sizeof(*t), cmp_double);
				printf("%-10s %-5s %-20s %9.1f %9zu %9zu %9zu\n",
				    fog ? "fog" : "open", b->sides[side].id,
				    kind_name[k], t[runs / 2], inl, png, svg);
			}
			for (k = 1; dir != NULL && k >= 0; k--) {
				unsigned char *p = NULL;
				size_t n = 0;
				char name[128];

				o.compact = 1;
				o.crop = k;
				draw(b, &o, 0, &n, &p);
				snprintf(name, sizeof(name), "%s-%s-%s.png",
				    fog ? "fog" : "open", b->sides[side].id,
				    k ? "crop" : "whole");
				save(dir, name, p, n);
				free(p);
			}
			free(seen);
		}
	free(t);
	free(text);
	battle_free(b);
	return 0;
}
