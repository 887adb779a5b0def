/*
 * nearest.c - how far a name written is from the battle's names: edit
 * distances, and the nearest names that "did you mean" offers and that a
 * name a letter or two off is taken as (step 3 of docs/orders.md's "How
 * names are read"; names.c holds the names and the exact steps).
 *
 * Workload: none for a name written right (names.c finds it exactly, or
 * remembers it).  A name that matches nothing exactly is measured against
 * every candidate the request allows, a few dozen, each by its word starts
 * and word by word; a byte filter (may_be_near) passes over most word
 * starts unmeasured, and Myers' bit-parallel distance measures the rest.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "orders/internal.h"

/* --- edit distance ---------------------------------------------------- */

/* The last row of the edit distance table of a against b (row[j]: a
 * against b[0..j)), row by row.  Case ignored. */
static void
lev_rows(const char *a, size_t la, const char *b, size_t lb, int *row)
{
	size_t i, j;

	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], tmp;

		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			int cost = orders_low((unsigned char)a[i - 1]) !=
			    orders_low((unsigned char)b[j - 1]);

			tmp = row[j];
			row[j] = row[j] + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
		}
	}
}

/* The edit distance by the table: the reference, and what a pattern past
 * 64 bytes is measured with. */
int
orders_lev_dp(const char *a, size_t la, const char *b, size_t lb)
{
	int row[LEV_MAX + 1];

	if (la > LEV_MAX)
		la = LEV_MAX;
	if (lb > LEV_MAX)
		lb = LEV_MAX;
	lev_rows(a, la, b, lb, row);
	return row[lb];
}

int
orders_lev_prefix_dp(const char *a, size_t la, const char *t, size_t n)
{
	int row[LEV_MAX + 1], best;
	size_t j;

	if (la > LEV_MAX)
		la = LEV_MAX;
	if (n > LEV_MAX)
		n = LEV_MAX;
	lev_rows(a, la, t, n, row);
	for (best = row[0], j = 1; j <= n; j++)
		if (row[j] < best)
			best = row[j];
	return best;
}

void
orders_lev_prep(struct lev_pat *lp, const char *a, size_t la)
{
	size_t i;

	if (la > LEV_MAX)
		la = LEV_MAX;
	lp->m = (int)la;
	for (i = 0; i < la; i++)
		lp->s[i] = (char)orders_low((unsigned char)a[i]);
	lp->s[la] = '\0';
	memset(lp->peq, 0, sizeof(lp->peq));
	if (la <= 64)
		for (i = 0; i < la; i++)
			lp->peq[(unsigned char)lp->s[i]] |= (uint64_t)1 << i;
}

/* Myers' bit-parallel edit distance (1999), as Hyyro writes it for the
 * distance between two whole strings: one column of the table is two bit
 * vectors (where it steps up, where down), and a byte of t advances the
 * column with a dozen word operations instead of m cell updates.  The
 * score after j bytes is the distance from the pattern to t[0..j), so
 * the same loop measures a name against each prefix of another.  It runs
 * only when a name has no exact match, so its cost is the cost of a bad
 * line's answer. */
static int
lev_scan(const struct lev_pat *lp, const char *t, size_t n, int prefix,
    int max)
{
	uint64_t pv = ~(uint64_t)0, mv = 0, last;
	int score = lp->m, best = lp->m;
	size_t j;

	/* A prefix longer than the pattern by more than max is further
	 * than max from it. */
	if (prefix && max >= 0 && n > (size_t)lp->m + (size_t)max)
		n = (size_t)lp->m + (size_t)max;
	if (n > LEV_MAX)
		n = LEV_MAX;
	if (lp->m > 64) {
		int d = prefix ? orders_lev_prefix_dp(lp->s, (size_t)lp->m, t, n) :
		    orders_lev_dp(lp->s, (size_t)lp->m, t, n);

		return d > max ? max + 1 : d;
	}
	if (lp->m == 0)
		return prefix ? 0 : (int)n > max ? max + 1 : (int)n;
	last = (uint64_t)1 << (lp->m - 1);
	for (j = 0; j < n; j++) {
		uint64_t eq = lp->peq[orders_low((unsigned char)t[j])];
		uint64_t xv = eq | mv;
		uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
		uint64_t ph = mv | ~(xh | pv);
		uint64_t mh = pv & xh;

		if (ph & last)
			score++;
		else if (mh & last)
			score--;
		ph = ph << 1 | 1;   /* the top row counts up: D[0][j] = j */
		mh <<= 1;
		pv = mh | ~(xv | ph);
		mv = ph & xv;
		if (score < best)
			best = score;
		/* Each byte left can lower the distance by one at most: past
		 * the most allowed (or, for a prefix, the best so far), it is
		 * known. */
		if (!prefix && score - (int)(n - j - 1) > max)
			return max + 1;
		if (prefix && (best == 0 || score - (int)(n - j - 1) >= best ||
		    score - (int)(n - j - 1) > max))
			break;
	}
	if (!prefix)
		best = score;
	return best > max ? max + 1 : best;
}

int
orders_lev_run(const struct lev_pat *lp, const char *t, size_t n, int max)
{
	return lev_scan(lp, t, n, 0, max);
}

int
orders_lev_prefix(const struct lev_pat *lp, const char *t, size_t n,
    int max)
{
	return lev_scan(lp, t, n, 1, max);
}

int
orders_lev(const char *a, const char *b)
{
	struct lev_pat lp;

	orders_lev_prep(&lp, a, strlen(a));
	return orders_lev_run(&lp, b, strlen(b), 1 << 20);
}

/* --- the nearest names ------------------------------------------------ */

#define NEAR_WORDS 8    /* words of a name measured one by one */
#define NEAR_FAR   (1 << 20)

/* A typed name prepared for measuring: whole, and word by word. */
struct near_pat {
	struct lev_pat whole;
	struct lev_pat word[NEAR_WORDS];
	int wlim[NEAR_WORDS];   /* how far each word may be from a word's
	                         * start */
	int nw;                 /* 0 when not measured word by word */
	int lim;                /* how far the name may be and be taken */
	uint64_t first[4];      /* the name's first bytes (may_be_near) */
	uint64_t wfirst[NEAR_WORDS][4];   /* each word's */
};

/* Can a pattern be within d edits of a prefix of b?  Only if one of its
 * first d + 1 bytes is one of b's first d + 1: the first byte of the
 * pattern left as it is comes after at most d edits, in both (the
 * pattern being longer than d).  set holds the pattern's first bytes, as
 * many as the largest d asked; most word starts fail this, and are not
 * measured. */
static int
may_be_near(const uint64_t *set, const char *b, size_t lb, int d)
{
	size_t j;

	for (j = 0; j <= (size_t)d && j < lb; j++) {
		unsigned char ch = (unsigned char)b[j];

		if (set[ch >> 6] >> (ch & 63) & 1u)
			return 1;
	}
	return 0;
}

/* The set of the first n bytes of s[0..len). */
static void
first_bytes(uint64_t *set, const char *s, size_t len, int n)
{
	size_t i;

	memset(set, 0, 4 * sizeof(set[0]));
	for (i = 0; i < len && i <= (size_t)n; i++) {
		unsigned char ch = (unsigned char)s[i];

		set[ch >> 6] |= (uint64_t)1 << (ch & 63);
	}
}

/* Letters and digits of a normalised text (a character past ASCII is
 * one). */
static int
letters(const char *s, size_t n)
{
	size_t i;
	int k = 0;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && ((unsigned char)s[i] & 0xc0) != 0x80)
			k++;
	return k;
}

/* The edit distance a name of this many letters may be from a name and
 * still be taken for it (docs/orders.md): none for one or two letters
 * (a letter wrong of two is no name at all), 1 up to six, 2 beyond. */
static int
near_limit(int nletters)
{
	return nletters <= 2 ? 0 : nletters <= 6 ? 1 : 2;
}

static void
near_prep(struct near_pat *np, const struct typed *ty)
{
	int i;

	orders_lev_prep(&np->whole, ty->t, ty->tl);
	np->lim = near_limit(letters(ty->t, ty->tl));
	first_bytes(np->first, ty->t, ty->tl, 2 * np->lim);
	np->nw = ty->nw >= 2 && ty->nw <= NEAR_WORDS ? ty->nw : 0;
	for (i = 0; i < np->nw; i++) {
		int nl = letters(ty->t + ty->wpos[i], ty->wlen[i]);

		orders_lev_prep(&np->word[i], ty->t + ty->wpos[i], ty->wlen[i]);
		np->wlim[i] = near_limit(nl);
		first_bytes(np->wfirst[i], ty->t + ty->wpos[i], ty->wlen[i],
		    np->wlim[i]);
	}
}

/* How far the typed name is from form f (cap + 1 when further than cap):
 * the least edit distance to the start of f from one of its word starts
 * ("Virgina Militia" to "Virginia Militia (Triplett and Tate)"), or,
 * word by word, the sum of each typed word's distance to the start of a
 * word of f, in order, each within its own limit ("Thomas Spartans" to
 * "Thomas's Spartan Regiment"): the exact levels, each a letter or two
 * off. */
static int
form_dist(const struct near_pat *np, const struct form *f, int cap)
{
	int best = cap + 1, w;

	for (w = 0; w < f->nw && best > 0; w++) {
		const char *at = f->norm + f->wpos[w];
		size_t n = (size_t)(f->nlen - f->wpos[w]);
		int d;

		if (!(f->near_from >> w & 1u) ||
		    !may_be_near(np->first, at, n, best - 1))
			continue;
		d = orders_lev_prefix(&np->whole, at, n, best - 1);
		if (d < best)
			best = d;
	}
	if (np->nw >= 2 && np->nw <= f->nw && best > 0 && f->near_words) {
		int row[CAND_WORDS], nrow[CAND_WORDS], i, k;

		/* row[k]: the least sum for the typed words so far, the last
		 * of them at f's word k. */
		for (i = 0; i < np->nw; i++) {
			int run = NEAR_FAR;   /* least row[k'] for k' < k */

			for (k = 0; k < f->nw; k++) {
				int base = i == 0 ? 0 : run;

				nrow[k] = NEAR_FAR;
				if (base < best) {
					int room = best - 1 - base, d;

					if (room > np->wlim[i])
						room = np->wlim[i];
					if (may_be_near(np->wfirst[i], f->norm + f->wpos[k],
					    f->wlen[k], room)) {
						d = orders_lev_prefix(&np->word[i],
						    f->norm + f->wpos[k], f->wlen[k], room);
						if (d <= room)
							nrow[k] = base + d;
					}
				}
				if (i > 0 && row[k] < run)
					run = row[k];
			}
			memcpy(row, nrow, (size_t)f->nw * sizeof(row[0]));
			for (k = 0; k < f->nw && row[k] >= best; k++)
				;
			if (k == f->nw)
				break;   /* this word is near none: no match */
		}
		for (k = 0; k < f->nw; k++)
			if (row[k] < best)
				best = row[k];
	}
	return best;
}

static int
cand_dist(const struct form *xf, const struct near_pat *np,
    const struct cand *c, int cap)
{
	int d = form_dist(np, &c->f, cap), i;

	for (i = 0; i < c->nxf && d > 0; i++) {
		int d2 = form_dist(np, &xf[c->xf + i], d - 1);

		if (d2 < d)
			d = d2;
	}
	return d;
}

/* The candidates `which` nearest the typed name, within twice the limit:
 * their count, in list (nearest first, then in the battle's order) with
 * their distances in dist. */
static int
near_scan(const struct cand *cs, int ncand, const struct form *xf, int side,
    unsigned which, const struct near_pat *np, int *list, int *dist)
{
	int i, n = 0, cap = 2 * np->lim;

	for (i = 0; i < ncand; i++) {
		const struct cand *c = &cs[i];
		int d, j;

		if (!orders_cand_wanted(c, side, which))
			continue;
		d = cand_dist(xf, np, c, cap);
		if (d > cap)
			continue;
		for (j = n; j > 0 && dist[j - 1] > d; j--) {
			list[j] = list[j - 1];
			dist[j] = dist[j - 1];
		}
		list[j] = i;
		dist[j] = d;
		n++;
	}
	return n;
}

int
orders_nearest(const struct cand *c, int n, const struct form *xf, int side,
    unsigned which, const struct typed *ty, int *lim, int *list, int *dist)
{
	struct near_pat np;

	near_prep(&np, ty);
	*lim = np.lim;
	return np.lim > 0 ? near_scan(c, n, xf, side, which, &np, list, dist) : 0;
}
