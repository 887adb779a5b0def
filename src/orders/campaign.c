/*
 * campaign.c - the campaign order language: a column's order for a
 * campaign turn, one a line ("Flying Army: MARCH TO Cowpens BY Green
 * River Road"), and the canonical line an order is written back as.
 * docs/campaign.md ("Campaign orders") is the language.
 *
 * Names (of columns, places, roads and brigades) are read by the battle
 * orders' rule (docs/orders.md, "How names are read"): normalised as
 * names.c normalises them (case, Unicode spaces, dashes and curly
 * apostrophes, apostrophes left out, abbreviations), exactly first (the
 * whole name, its start, a later word's start, each word's start), the
 * name written exactly as the file writes it winning a tie; then the
 * nearest by nearest.c's measure, taken only when one name is nearest
 * within the limit, else refused with the nearest suggested.
 *
 * Pure: no I/O, no clock, nothing kept between calls.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "orders/internal.h"

#define CO_LINE   1024                     /* a line, as read */
#define MAXPICK   (2 * CAMPAIGN_MAX_ROADS + 8)   /* a place's roads, twice */
#define NOTE_MAX  400

/* A name to choose among, and what it stands for (a place, a road, a
 * column, a brigade: an index).  A thing may have several names (a road
 * its own and the place it leads to); they stand together in a list. */
struct pick {
	const char *name;
	int id;
};

/* The names one name in a line is looked for among. */
struct look {
	int n;
	struct pick p[MAXPICK];
	struct form f[MAXPICK];     /* each name normalised */
	struct cand cand[MAXPICK];  /* for the nearest (nearest.c) */
};

/* Reading one line. */
struct rd {
	const struct campaign *c;
	int side;
	int column;
	struct look *lk;
	char *msg;
	size_t msize;
	char note[NOTE_MAX];        /* names read as the nearest */
	size_t nk;
};

/* --- text ------------------------------------------------------------- */

/* Appends to msg at *k, cut to fit, as snprintf would. */
__attribute__((format(printf, 4, 5)))
static void
say(char *msg, size_t msize, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (msize == 0 || *k >= msize - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg + *k, msize - *k, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*k += (size_t)n;
	if (*k > msize - 1)
		*k = msize - 1;
}

/* The length of a double quote at s (straight, or curly either way),
 * else 0. */
static size_t
quote_at(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] == '"')
		return 1;
	if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x9c || u[2] == 0x9d))
		return 3;
	return 0;
}

/* s without white space at either end, and without the double quotes
 * round it, in place. */
static void
unquote(char *s)
{
	size_t n, q, e;

	orders_trim(s);
	n = strlen(s);
	q = quote_at(s);
	if (q == 0 || n <= q)
		return;
	/* the closing quote: the last character */
	e = n >= 3 && quote_at(s + n - 3) == 3 ? 3 : s[n - 1] == '"' ? 1 : 0;
	if (e == 0 || n < q + e)
		return;
	s[n - e] = '\0';
	memmove(s, s + q, n - e - q + 1);
	orders_trim(s);
}

/* Does s begin with the word w (ASCII, case ignored), then a space or
 * the end?  *after: past it and the spaces after it. */
static int
word_is(const char *s, const char *w, const char **after)
{
	size_t n = strlen(w), i;

	for (i = 0; i < n; i++)
		if (orders_low((unsigned char)s[i]) != (unsigned char)w[i])
			return 0;
	if (s[n] != '\0' && !orders_sp((unsigned char)s[n]))
		return 0;
	s += n;
	while (orders_sp((unsigned char)*s))
		s++;
	*after = s;
	return 1;
}

/* Where the word w (lower case) stands in s as a word of its own outside
 * double quotes: their offsets into at (at most max), and how many. */
static int
words_at(const char *s, const char *w, size_t *at, int max)
{
	size_t i = 0;
	int inq = 0, n = 0;

	while (s[i] != '\0') {
		size_t q = quote_at(s + i);
		const char *after;

		if (q > 0) {
			inq = !inq;
			i += q;
			continue;
		}
		if (!inq && (i == 0 || orders_sp((unsigned char)s[i - 1])) &&
		    word_is(s + i, w, &after) && n < max)
			at[n++] = i;
		i++;
	}
	return n;
}

/* The first c outside double quotes in s, or NULL. */
static char *
outside_quotes(char *s, char ch, int after_space)
{
	size_t i = 0;
	int inq = 0;

	while (s[i] != '\0') {
		size_t q = quote_at(s + i);

		if (q > 0) {
			inq = !inq;
			i += q;
			continue;
		}
		if (!inq && s[i] == ch && (!after_space || (i > 0 &&
		    orders_sp((unsigned char)s[i - 1]))))
			return s + i;
		i++;
	}
	return NULL;
}

/* --- names ------------------------------------------------------------ */

static int
split_words(const char *s, size_t len, unsigned char *pos, unsigned char *wl,
    int max)
{
	size_t i = 0;
	int n = 0;

	while (i < len && n < max) {
		size_t e = i;

		while (e < len && s[e] != ' ')
			e++;
		pos[n] = (unsigned char)i;
		wl[n] = (unsigned char)(e - i);
		n++;
		i = e + 1;
	}
	return n;
}

static void
form_of(struct form *f, const char *name)
{
	f->nlen = (int)orders_name_norm(name, f->norm, sizeof(f->norm));
	f->nw = split_words(f->norm, (size_t)f->nlen, f->wpos, f->wlen,
	    CAND_WORDS);
	f->near_from = f->nw >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << f->nw) - 1;
	f->near_words = 1;
}

static void
typed_of(struct typed *ty, const char *raw)
{
	ty->tl = orders_name_norm(raw, ty->t, sizeof(ty->t));
	ty->nw = split_words(ty->t, ty->tl, ty->wpos, ty->wlen, CAND_WORDS);
}

/* The level form f matches the typed name at, as names.c's: 0 the same,
 * 1 its start, 2 the start of a later word of it, 3 each typed word the
 * start of one of its words, in order; 4 none. */
static int
form_level(const struct form *f, const struct typed *ty)
{
	int i, j;

	if (ty->tl == 0)
		return 4;
	if ((size_t)f->nlen >= ty->tl && memcmp(f->norm, ty->t, ty->tl) == 0)
		return (size_t)f->nlen == ty->tl ? 0 : 1;
	for (i = 1; i < f->nw; i++)
		if ((size_t)(f->nlen - f->wpos[i]) >= ty->tl &&
		    memcmp(f->norm + f->wpos[i], ty->t, ty->tl) == 0)
			return 2;
	for (i = 0, j = 0; i < ty->nw; i++) {
		for (; j < f->nw; j++)
			if (f->wlen[j] >= ty->wlen[i] &&
			    memcmp(f->norm + f->wpos[j], ty->t + ty->wpos[i],
			    ty->wlen[i]) == 0)
				break;
		if (j == f->nw)
			return 4;
		j++;
	}
	return 3;
}

static void
look_clear(struct look *lk)
{
	lk->n = 0;
}

static void
look_add(struct look *lk, const char *name, int id)
{
	if (name == NULL || name[0] == '\0' || lk->n == MAXPICK)
		return;
	lk->p[lk->n].name = name;
	lk->p[lk->n].id = id;
	form_of(&lk->f[lk->n], name);
	lk->n++;
}

/* The name id is known by first. */
static const char *
look_name(const struct look *lk, int id)
{
	int i;

	for (i = 0; i < lk->n; i++)
		if (lk->p[i].id == id)
			return lk->p[i].name;
	return "?";
}

/* The things the typed name matches exactly at the best level (into
 * *level, 4 for none), each once, in ids: how many.  Of several the
 * same once normalised, the one whose name is what was typed is the
 * one, so that a canonical line reads back as it was written. */
static int
look_exact(const struct look *lk, const struct typed *ty, const char *raw,
    int *ids, int *level)
{
	int i, best = 4, n = 0, same = -1, nsame = 0;

	for (i = 0; i < lk->n; i++) {
		int lv = form_level(&lk->f[i], ty), id = lk->p[i].id;

		if (lv == 4 || lv > best)
			continue;
		if (lv < best) {
			best = lv;
			n = 0;
			same = -1;
			nsame = 0;
		}
		if (n == 0 || ids[n - 1] != id)
			ids[n++] = id;
		if (lv == 0 && strcmp(lk->p[i].name, raw) == 0 && same != id) {
			same = id;
			nsame++;
		}
	}
	*level = best;
	if (n > 1 && best == 0 && nsame == 1) {
		ids[0] = same;
		return 1;
	}
	return n;
}

/* The things nearest the typed name within twice the limit (*lim), by
 * nearest.c's measure: how many, nearest first, in ids with their
 * distances in dist. */
static int
look_near(struct look *lk, const struct typed *ty, int *lim, int *ids,
    int *dist)
{
	int list[MAXPICK], i, nc = 0, n;

	for (i = 0; i < lk->n; i++) {
		struct cand *cd;

		if (nc > 0 && lk->cand[nc - 1].idx == lk->p[i].id) {
			lk->cand[nc - 1].nxf++;
			continue;
		}
		cd = &lk->cand[nc++];
		cd->name = lk->p[i].name;
		cd->raw[0] = '\0';
		cd->kind = C_UNIT;
		cd->idx = lk->p[i].id;
		cd->side = 0;
		cd->own = 1;
		cd->other = 0;
		cd->f = lk->f[i];
		cd->xf = i + 1;
		cd->nxf = 0;
		cd->starts = 0;
	}
	n = orders_nearest(lk->cand, nc, lk->f, 0, 1, ty, lim, list, dist);
	for (i = 0; i < n; i++)
		ids[i] = lk->cand[list[i]].idx;
	return n;
}

/* Appends the names of ids[0..n) quoted, joined by commas and conj
 * before the last, as many as there is room for. */
static void
list_ids(struct rd *r, size_t *k, const int *ids, int n, const char *conj)
{
	int i;

	for (i = 0; i < n; i++) {
		const char *name = look_name(r->lk, ids[i]);
		const char *sep = i == 0 ? "" : i == n - 1 ? conj : ", ";

		if (r->msize > 0 && *k + strlen(name) + strlen(sep) + 24 >
		    r->msize) {
			say(r->msg, r->msize, k, " and %d more", n - i);
			return;
		}
		say(r->msg, r->msize, k, "%s\"%s\"", sep, name);
	}
}

/* Every thing of the look, each once. */
static int
look_all(const struct look *lk, int *ids)
{
	int i, n = 0;

	for (i = 0; i < lk->n; i++)
		if (n == 0 || ids[n - 1] != lk->p[i].id)
			ids[n++] = lk->p[i].id;
	return n;
}

static void
note_near(struct rd *r, const char *raw, const char *name)
{
	say(r->note, sizeof(r->note), &r->nk, "%s\"%s\" as \"%s\"",
	    r->nk == 0 ? "read " : ", ", raw, name);
}

/* Exactly: 1 with *id; 0 when nothing matches; -1 when several do (msg
 * says which). */
static int
res_exact(struct rd *r, const char *raw, const char *what, int *id)
{
	struct typed ty;
	int ids[MAXPICK], n, level;
	size_t k = 0;

	typed_of(&ty, raw);
	n = look_exact(r->lk, &ty, raw, ids, &level);
	if (n == 1)
		*id = ids[0];
	if (n <= 1)
		return n;
	say(r->msg, r->msize, &k, "\"%s\" could be more than one %s: ", raw,
	    what);
	list_ids(r, &k, ids, n, " or ");
	say(r->msg, r->msize, &k, "; write more of the name");
	return -1;
}

/* The nearest: 1 with *id (noted); else 0 with msg: `no WHAT "raw"
 * WHERE`, the nearest suggested, or else every name (`(LABEL: ...)`). */
static int
res_near(struct rd *r, const char *raw, const char *what, const char *where,
    const char *label, int *id)
{
	struct typed ty;
	int ids[MAXPICK], dist[MAXPICK], n, lim, at0 = 0;
	size_t k = 0;

	typed_of(&ty, raw);
	n = look_near(r->lk, &ty, &lim, ids, dist);
	while (at0 < n && dist[at0] == dist[0])
		at0++;
	if (n > 0 && dist[0] <= lim && at0 == 1) {
		*id = ids[0];
		note_near(r, raw, look_name(r->lk, ids[0]));
		return 1;
	}
	if (n > 0 && dist[0] <= lim) {
		say(r->msg, r->msize, &k, "\"%s\" could be more than one %s, each "
		    "%s off: ", raw, what, dist[0] == 1 ? "a letter" :
		    "two letters");
		list_ids(r, &k, ids, at0, " or ");
		say(r->msg, r->msize, &k, "; write more of the name");
		return 0;
	}
	say(r->msg, r->msize, &k, "no %s \"%s\"%s", what, raw, where);
	if (n > 0) {
		say(r->msg, r->msize, &k, ": did you mean ");
		list_ids(r, &k, ids, at0 > 3 ? at0 : n < 3 ? n : 3, " or ");
		say(r->msg, r->msize, &k, "?");
	} else if (label != NULL) {
		n = look_all(r->lk, ids);
		say(r->msg, r->msize, &k, " (%s: ", label);
		/* yours as not_yours lists them */
		list_ids(r, &k, ids, n, strcmp(label, "yours") == 0 ? ", " :
		    " and ");
		say(r->msg, r->msize, &k, ")");
	}
	return 0;
}

/* Exactly, then the nearest. */
static int
resolve(struct rd *r, const char *raw, const char *what, const char *where,
    const char *label, int *id)
{
	int e = res_exact(r, raw, what, id);

	if (e != 0)
		return e == 1;
	return res_near(r, raw, what, where, label, id);
}

/* --- columns ---------------------------------------------------------- */

static void
look_columns(struct rd *r, int own, int with_gone)
{
	int i;

	look_clear(r->lk);
	for (i = 0; i < r->c->ncolumns; i++)
		if ((r->c->columns[i].side == r->side) == own &&
		    (with_gone || !r->c->columns[i].gone))
			look_add(r->lk, r->c->columns[i].name, i);
}

/* `"X" is not a column of yours (yours: "A", "B")`. */
static void
not_yours(struct rd *r, int k)
{
	int ids[CAMPAIGN_MAX_COLUMNS], n;
	size_t m = 0;

	say(r->msg, r->msize, &m, "\"%s\" is not a column of yours",
	    r->c->columns[k].name);
	look_columns(r, 1, 0);
	n = look_all(r->lk, ids);
	if (n == 0)
		return;
	say(r->msg, r->msize, &m, " (yours: ");
	list_ids(r, &m, ids, n, ", ");
	say(r->msg, r->msize, &m, ")");
}

/* A column of the side's by name: 1 with *k; 0 with msg.  Exactly, ours
 * (gone ones too, to say so) then another side's; then the nearest of
 * ours still marching, or, when none of ours is near, another side's. */
static int
find_column(struct rd *r, const char *raw, int *k)
{
	struct typed ty;
	int ids[CAMPAIGN_MAX_COLUMNS], dist[CAMPAIGN_MAX_COLUMNS], lim, n, e;

	if (raw[0] == '\0') {
		snprintf(r->msg, r->msize, "a column's name is needed");
		return 0;
	}
	look_columns(r, 1, 1);
	if ((e = res_exact(r, raw, "column of yours", k)) != 0)
		return e == 1;
	look_columns(r, 0, 1);
	if (res_exact(r, raw, "column", k) == 1) {
		not_yours(r, *k);
		return 0;
	}
	typed_of(&ty, raw);
	look_columns(r, 1, 0);
	n = look_near(r->lk, &ty, &lim, ids, dist);
	if (n == 0 || dist[0] > lim) {
		look_columns(r, 0, 0);
		n = look_near(r->lk, &ty, &lim, ids, dist);
		if (n > 0 && dist[0] <= lim && (n == 1 || dist[1] > dist[0])) {
			not_yours(r, ids[0]);
			return 0;
		}
		look_columns(r, 1, 0);
	}
	return res_near(r, raw, "column", "", "yours", k);
}

/* --- places and roads ------------------------------------------------- */

static void
look_places(struct rd *r)
{
	int i;

	look_clear(r->lk);
	for (i = 0; i < r->c->nplaces; i++)
		look_add(r->lk, r->c->places[i].name, i);
}

static int
find_place(struct rd *r, const char *raw, int *p)
{
	look_places(r);
	return resolve(r, raw, "place", "", "places", p);
}

/* Is raw a place's name exactly, whole? */
static int
is_place_exactly(struct rd *r, const char *raw)
{
	struct typed ty;
	int ids[MAXPICK], level;

	look_places(r);
	typed_of(&ty, raw);
	return look_exact(r->lk, &ty, raw, ids, &level) == 1 && level == 0;
}

static int
other_end(const struct campaign *c, int road, int place)
{
	return c->roads[road].a == place ? c->roads[road].b : c->roads[road].a;
}

/* The roads BY may name for column k: from its place, every road out
 * of it by its name and by the place it leads to; on a road, that road
 * by its name and either end. */
static void
look_roads(struct rd *r, const struct cp_column *col)
{
	const struct campaign *c = r->c;
	int i;

	look_clear(r->lk);
	if (col->road >= 0) {
		const struct cp_road *rd = &c->roads[col->road];

		look_add(r->lk, rd->name, col->road);
		look_add(r->lk, c->places[other_end(c, col->road, col->from)].name,
		    col->road);
		look_add(r->lk, c->places[col->from].name, col->road);
		return;
	}
	for (i = 0; i < c->nroads; i++)
		if (c->roads[i].a == col->place || c->roads[i].b == col->place) {
			look_add(r->lk, c->roads[i].name, i);
			look_add(r->lk, c->places[other_end(c, i, col->place)].name, i);
		}
}

/* The road named after BY, for column k: 1 with *road, else 0. */
static int
find_road(struct rd *r, int k, const char *raw, int *road)
{
	const struct campaign *c = r->c;
	const struct cp_column *col = &c->columns[k];
	char where[2 * BATTLE_NAME_MAX + 40];
	size_t m = 0;
	int e, x, i;

	look_roads(r, col);
	if ((e = res_exact(r, raw, "road", road)) != 0)
		return e == 1;
	/* A road, or a place, that is not where the column can go from. */
	look_clear(r->lk);
	for (i = 0; i < c->nroads; i++)
		look_add(r->lk, c->roads[i].name, i);
	x = -1;
	if (res_exact(r, raw, "road", &x) == 1) {
		if (col->road >= 0)
			say(r->msg, r->msize, &m, "\"%s\" is on the road from %s to "
			    "%s: BY can name only that road, not \"%s\"", col->name,
			    c->places[col->from].name,
			    c->places[other_end(c, col->road, col->from)].name,
			    c->roads[x].name);
		else
			say(r->msg, r->msize, &m, "\"%s\" does not leave %s, where "
			    "\"%s\" is", c->roads[x].name, c->places[col->place].name,
			    col->name);
		goto roads;
	}
	look_places(r);
	if (res_exact(r, raw, "place", &x) == 1) {
		if (col->road >= 0)
			say(r->msg, r->msize, &m, "\"%s\" is on the road from %s to "
			    "%s: BY can name only that road, not the road to %s",
			    col->name, c->places[col->from].name,
			    c->places[other_end(c, col->road, col->from)].name,
			    c->places[x].name);
		else if (x == col->place)
			say(r->msg, r->msize, &m, "\"%s\" is at %s: BY names a road "
			    "out of it", col->name, c->places[x].name);
		else
			say(r->msg, r->msize, &m, "no road from %s to %s",
			    c->places[col->place].name, c->places[x].name);
		goto roads;
	}
	look_roads(r, col);
	if (col->road >= 0)
		snprintf(where, sizeof(where), " here");
	else
		snprintf(where, sizeof(where), " out of %s",
		    c->places[col->place].name);
	return res_near(r, raw, "road", where, col->road >= 0 ? "the road" :
	    "roads", road);
roads:
	if (col->road < 0) {
		int ids[MAXPICK], n;

		look_roads(r, col);
		n = look_all(r->lk, ids);
		say(r->msg, r->msize, &m, " (the roads out of %s: ",
		    c->places[col->place].name);
		list_ids(r, &m, ids, n, " and ");
		say(r->msg, r->msize, &m, ")");
	}
	return 0;
}

/* --- the orders ------------------------------------------------------- */

static const struct cverb {
	const char *word;          /* as written back */
	const char *w[3];          /* its words, lower case */
	enum cp_order_kind kind;
} verbs[] = {
	{ "MARCH TO", { "march", "to", NULL }, CO_MARCH },
	{ "FORCED MARCH TO", { "forced", "march", "to" }, CO_FORCED },
	{ "RETREAT TO", { "retreat", "to", NULL }, CO_RETREAT },
	{ "HOLD", { "hold", NULL, NULL }, CO_HOLD },
	{ "REST", { "rest", NULL, NULL }, CO_REST },
	{ "SCOUT", { "scout", NULL, NULL }, CO_SCOUT },
	{ "DETACH", { "detach", NULL, NULL }, CO_DETACH },
	{ "JOIN", { "join", NULL, NULL }, CO_JOIN },
};
#define NVERBS ((int)(sizeof(verbs) / sizeof(verbs[0])))

/* Words from the battle orders and elsewhere that mean a campaign
 * order: suggested, never taken. */
static const char *const verb_aliases[][2] = {
	{ "move", "MARCH TO" }, { "go", "MARCH TO" }, { "advance", "MARCH TO" },
	{ "forced-march", "FORCED MARCH TO" }, { "withdraw", "RETREAT TO" },
	{ "fall", "RETREAT TO" }, { "halt", "HOLD" }, { "stay", "HOLD" },
	{ "camp", "REST" }, { "recon", "SCOUT" }, { "reconnoitre", "SCOUT" },
	{ "split", "DETACH" }, { "merge", "JOIN" },
};

static const char *
verb_word(enum cp_order_kind kind)
{
	int i;

	for (i = 0; i < NVERBS; i++)
		if (verbs[i].kind == kind)
			return verbs[i].word;
	return "HOLD";
}

/* text is no order: say so, with the nearest verb. */
static void
unknown_verb(struct rd *r, const char *text, int partial)
{
	char first[32], shown[80];
	size_t n = strcspn(text, " \t"), i, k = 0;
	int best = -1, bd = 1 << 20, v;

	orders_copy_text(shown, sizeof(shown), text);
	if (partial >= 0) {
		snprintf(r->msg, r->msize, "\"%s\" is not an order I know; did you "
		    "mean %s?", shown, verbs[partial].word);
		return;
	}
	if (n < sizeof(first)) {
		memcpy(first, text, n);
		first[n] = '\0';
		for (i = 0; i < n; i++)
			first[i] = (char)orders_low((unsigned char)first[i]);
		for (i = 0; i < sizeof(verb_aliases) / sizeof(verb_aliases[0]); i++)
			if (strcmp(first, verb_aliases[i][0]) == 0) {
				snprintf(r->msg, r->msize, "\"%s\" is not a campaign order; "
				    "did you mean %s?", shown, verb_aliases[i][1]);
				return;
			}
		for (v = 0; v < NVERBS; v++) {
			int d = orders_lev(first, verbs[v].w[0]);

			if (d < bd) {
				bd = d;
				best = v;
			}
		}
	}
	if (best >= 0 && n >= 3 && bd <= (n <= 4 ? 1 : 2)) {
		snprintf(r->msg, r->msize, "\"%s\" is not an order I know; did you "
		    "mean %s?", shown, verbs[best].word);
		return;
	}
	say(r->msg, r->msize, &k, "\"%s\" is not an order I know; the orders "
	    "are", shown);
	for (v = 0; v < NVERBS; v++)
		say(r->msg, r->msize, &k, "%s %s", v == 0 ? "" : v == NVERBS - 1 ?
		    " and" : ",", verbs[v].word);
}

/* Has column k a mounted unit with strength left? */
static int
has_cavalry(const struct campaign *c, int k)
{
	int u;

	for (u = 0; u < c->nunits; u++) {
		const struct cp_unit *un = &c->units[u];

		if (!un->gone && un->kind == KIND_MOUNTED &&
		    un->brigade >= 0 && un->brigade < c->nbrigades &&
		    c->brigades[un->brigade].column == k &&
		    campaign_unit_sp(un) > 0)
			return 1;
	}
	return 0;
}

/* MARCH TO, FORCED MARCH TO, RETREAT TO: "place [BY road]". */
static int
read_march(struct rd *r, const struct cverb *v, char *args,
    struct cp_order *o)
{
	const struct campaign *c = r->c;
	const struct cp_column *col = &c->columns[o->column];
	size_t at[16];
	char place[CO_LINE], road[CO_LINE];
	int n, i, cut = -1, d, nx;

	n = words_at(args, "by", at, 16);
	if (n > 0) {
		snprintf(place, sizeof(place), "%s", args);
		unquote(place);
		if (!is_place_exactly(r, place)) {
			/* The first BY with a place's whole name before it. */
			for (i = 0; i < n && cut < 0; i++) {
				snprintf(place, sizeof(place), "%.*s", (int)at[i], args);
				unquote(place);
				if (place[0] != '\0' && is_place_exactly(r, place))
					cut = i;
			}
			if (cut < 0)
				cut = 0;
		}
	}
	if (cut >= 0) {
		snprintf(place, sizeof(place), "%.*s", (int)at[cut], args);
		snprintf(road, sizeof(road), "%s", args + at[cut] + 2);
		unquote(road);
	} else {
		snprintf(place, sizeof(place), "%s", args);
		road[0] = '\0';
	}
	unquote(place);
	if (place[0] == '\0') {
		snprintf(r->msg, r->msize, "%s needs a place before BY", v->word);
		return -1;
	}
	if (cut >= 0 && road[0] == '\0') {
		snprintf(r->msg, r->msize, "BY needs a road, by its name or the "
		    "place it leads to");
		return -1;
	}
	if (!find_place(r, place, &o->dest))
		return -1;
	if (col->road < 0 && o->dest == col->place) {
		snprintf(r->msg, r->msize, "\"%s\" is at %s already: HOLD or REST "
		    "to stay there", col->name, c->places[col->place].name);
		return -1;
	}
	if (cut >= 0 && !find_road(r, o->column, road, &o->by))
		return -1;
	if (col->road >= 0) {
		const struct cp_road *rd = &c->roads[col->road];

		d = campaign_route(c, rd->a, o->dest, -1, &nx);
		if (d < 0)
			d = campaign_route(c, rd->b, o->dest, -1, &nx);
	} else
		d = campaign_route(c, col->place, o->dest, o->by, &nx);
	if (d < 0) {
		if (o->by >= 0 && col->road < 0) {
			const struct cp_road *rd = &c->roads[o->by];

			if (rd->name[0] != '\0')
				snprintf(r->msg, r->msize, "no way from %s to %s by "
				    "\"%s\": that road leads away from it", c->places[
				    col->place].name, c->places[o->dest].name, rd->name);
			else
				snprintf(r->msg, r->msize, "no way from %s to %s by the "
				    "road to %s: that road leads away from it",
				    c->places[col->place].name, c->places[o->dest].name,
				    c->places[other_end(c, o->by, col->place)].name);
		} else
			snprintf(r->msg, r->msize, "no road leads to %s from where "
			    "\"%s\" is", c->places[o->dest].name, col->name);
		return -1;
	}
	return 1;
}

/* DETACH brigade[, brigade ...] AS "New name". */
static int
read_detach(struct rd *r, char *args, struct cp_order *o)
{
	const struct campaign *c = r->c;
	const struct cp_column *col = &c->columns[o->column];
	char list[CO_LINE], name[CO_LINE], where[BATTLE_NAME_MAX + 16];
	size_t at[1];
	char *s, *comma;
	int i, nb = 0, nset = 0, b;

	if (words_at(args, "as", at, 1) == 0) {
		snprintf(r->msg, r->msize, "DETACH needs AS and the new column's "
		    "name: DETACH brigade, brigade AS \"New name\"");
		return -1;
	}
	snprintf(list, sizeof(list), "%.*s", (int)at[0], args);
	snprintf(name, sizeof(name), "%s", args + at[0] + 2);
	orders_trim(list);
	if (list[0] == '\0') {
		snprintf(r->msg, r->msize, "DETACH needs the brigades that leave, "
		    "before AS");
		return -1;
	}
	snprintf(where, sizeof(where), " in \"%s\"", col->name);
	for (s = list;; s = comma + 1) {
		char one[CO_LINE];

		comma = outside_quotes(s, ',', 0);
		if (comma != NULL)
			*comma = '\0';
		snprintf(one, sizeof(one), "%s", s);
		unquote(one);
		if (one[0] == '\0') {
			snprintf(r->msg, r->msize, "a brigade's name is missing in "
			    "the list after DETACH");
			return -1;
		}
		look_clear(r->lk);
		for (i = 0; i < c->nbrigades; i++)
			if (c->brigades[i].column == o->column)
				look_add(r->lk, c->brigades[i].name, i);
		if ((b = res_exact(r, one, "brigade", &i)) < 0)
			return -1;
		if (b == 0) {
			int x;

			/* Another column's brigade, named exactly. */
			look_clear(r->lk);
			for (x = 0; x < c->nbrigades; x++)
				if (c->brigades[x].column != o->column)
					look_add(r->lk, c->brigades[x].name, x);
			if (res_exact(r, one, "brigade", &x) == 1) {
				const struct cp_column *in = &c->columns[
				    c->brigades[x].column];

				if (in->side == r->side)
					snprintf(r->msg, r->msize, "\"%s\" is in \"%s\", not "
					    "in \"%s\": only a column's own brigades can be "
					    "detached from it", c->brigades[x].name, in->name,
					    col->name);
				else
					snprintf(r->msg, r->msize, "\"%s\" is not a brigade "
					    "of yours", c->brigades[x].name);
				return -1;
			}
			look_clear(r->lk);
			for (x = 0; x < c->nbrigades; x++)
				if (c->brigades[x].column == o->column)
					look_add(r->lk, c->brigades[x].name, x);
			if (!res_near(r, one, "brigade", where, "its brigades", &i))
				return -1;
		}
		o->brigades[i / 8] |= (unsigned char)(1u << (i % 8));
		if (comma == NULL)
			break;
	}
	for (i = 0; i < c->nbrigades; i++)
		if (c->brigades[i].column == o->column) {
			nb++;
			if (o->brigades[i / 8] >> (i % 8) & 1u)
				nset++;
		}
	if (nset == nb) {
		snprintf(r->msg, r->msize, "\"%s\" cannot detach every brigade it "
		    "has: at least one must stay with it", col->name);
		return -1;
	}
	unquote(name);
	if (name[0] == '\0') {
		snprintf(r->msg, r->msize, "AS needs the new column's name: AS "
		    "\"New name\"");
		return -1;
	}
	if (strchr(name, '"') != NULL || strchr(name, ':') != NULL ||
	    strstr(name, "\xe2\x80\x9c") != NULL ||
	    strstr(name, "\xe2\x80\x9d") != NULL) {
		snprintf(r->msg, r->msize, "a column's name cannot have a double "
		    "quote or a colon in it");
		return -1;
	}
	if (strlen(name) >= sizeof(o->name)) {
		snprintf(r->msg, r->msize, "the new column's name is too long: "
		    "at most %zu bytes", sizeof(o->name) - 1);
		return -1;
	}
	{
		struct form nf, cf;

		form_of(&nf, name);
		if (nf.nlen == 0) {
			snprintf(r->msg, r->msize, "the new column's name needs a "
			    "letter or a digit");
			return -1;
		}
		for (i = 0; i < c->ncolumns; i++) {
			form_of(&cf, c->columns[i].name);
			if (cf.nlen == nf.nlen &&
			    memcmp(cf.norm, nf.norm, (size_t)nf.nlen) == 0) {
				snprintf(r->msg, r->msize, "there is a column \"%s\" "
				    "already: the new column needs a name of its own",
				    c->columns[i].name);
				return -1;
			}
		}
	}
	memcpy(o->name, name, strlen(name) + 1);   /* it fits: checked */
	return 1;
}

/* JOIN column. */
static int
read_join(struct rd *r, char *args, struct cp_order *o)
{
	const struct campaign *c = r->c;
	int t;

	unquote(args);
	if (args[0] == '\0') {
		snprintf(r->msg, r->msize, "JOIN needs the column to join: JOIN "
		    "\"Column\"");
		return -1;
	}
	if (!find_column(r, args, &t))
		return -1;
	if (t == o->column) {
		snprintf(r->msg, r->msize, "\"%s\" cannot join itself",
		    c->columns[t].name);
		return -1;
	}
	if (c->columns[t].gone) {
		snprintf(r->msg, r->msize, "\"%s\" is gone (it joined another "
		    "column, or was destroyed): there is nothing to join",
		    c->columns[t].name);
		return -1;
	}
	o->target = t;
	return 1;
}

/* A line as an order is read from it, into buf (CO_LINE bytes; line
 * fits): spaces folded, trimmed, a comment after it cut ("Flying Army:
 * HOLD  # till Greene's up").  0 when nothing is left (blank, a comment
 * line). */
static int
order_text(const char *line, char *buf)
{
	char *hash;

	memcpy(buf, line, strlen(line) + 1);
	(void)orders_fold_spaces(buf);
	orders_trim(buf);
	if (buf[0] == '\0' || buf[0] == '#')
		return 0;
	if ((hash = outside_quotes(buf, '#', 1)) != NULL) {
		*hash = '\0';
		orders_trim(buf);
	}
	return 1;
}

int
campaign_order_line(const struct campaign *c, int side, const char *line,
    struct cp_order *o, char *msg, size_t msize)
{
	char buf[CO_LINE], who[CO_LINE], *colon, *rest;
	struct rd r;
	const char *a = NULL;
	int v, k, partial = -1, rr = -1;

	if (msize > 0)
		msg[0] = '\0';
	memset(o, 0, sizeof(*o));
	o->column = o->dest = o->by = o->target = -1;
	o->kind = CO_HOLD;
	if (strlen(line) >= sizeof(buf)) {
		snprintf(msg, msize, "the line is too long: at most %zu bytes",
		    sizeof(buf) - 1);
		return -1;
	}
	if (!order_text(line, buf))
		return 0;
	if (side < 0 || side >= c->nsides) {
		snprintf(msg, msize, "there is no side %d in the campaign", side);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.side = side;
	r.msg = msg;
	r.msize = msize;
	colon = outside_quotes(buf, ':', 0);
	if (colon == NULL) {
		for (k = 0; k < c->ncolumns; k++)
			if (c->columns[k].side == side && !c->columns[k].gone)
				break;
		snprintf(msg, msize, "an order is a column's name, a colon and "
		    "the order: \"%s: HOLD\"", k < c->ncolumns ?
		    c->columns[k].name : "Column");
		return -1;
	}
	*colon = '\0';
	snprintf(who, sizeof(who), "%s", buf);
	unquote(who);
	rest = colon + 1;
	orders_trim(rest);
	r.lk = malloc(sizeof(*r.lk));
	if (r.lk == NULL) {
		snprintf(msg, msize, "out of memory");
		return -1;
	}
	if (!find_column(&r, who, &k))
		goto out;
	o->column = k;
	r.column = k;
	if (c->columns[k].gone) {
		snprintf(msg, msize, "\"%s\" is gone (it joined another column, "
		    "or was destroyed): it takes no orders", c->columns[k].name);
		goto out;
	}
	if (rest[0] == '\0') {
		snprintf(msg, msize, "the order is missing after the colon");
		goto out;
	}
	for (v = 0; v < NVERBS; v++) {
		const char *s = rest;
		int w;

		for (w = 0; w < 3 && verbs[v].w[w] != NULL; w++)
			if (!word_is(s, verbs[v].w[w], &s))
				break;
		if (w == 3 || verbs[v].w[w] == NULL) {
			a = s;
			break;
		}
		if (w > 0 && partial < 0)
			partial = v;
	}
	if (v == NVERBS) {
		unknown_verb(&r, rest, partial);
		goto out;
	}
	o->kind = verbs[v].kind;
	switch (o->kind) {
	case CO_MARCH:
	case CO_FORCED:
	case CO_RETREAT:
		if (a[0] == '\0') {
			snprintf(msg, msize, "%s needs a place", verbs[v].word);
			break;
		}
		rr = read_march(&r, &verbs[v], rest + (a - rest), o);
		break;
	case CO_HOLD:
	case CO_REST:
	case CO_SCOUT:
		if (a[0] != '\0') {
			snprintf(msg, msize, "%s takes nothing after it, not \"%.60s\"",
			    verbs[v].word, a);
			break;
		}
		if (o->kind == CO_SCOUT && !has_cavalry(c, k)) {
			snprintf(msg, msize, "scouting needs cavalry: \"%s\" has no "
			    "mounted unit with strength left", c->columns[k].name);
			break;
		}
		rr = 1;
		break;
	case CO_DETACH:
		rr = read_detach(&r, rest + (a - rest), o);
		break;
	case CO_JOIN:
		rr = read_join(&r, rest + (a - rest), o);
		break;
	}
out:
	free(r.lk);
	if (rr == 1 && msize > 0)
		snprintf(msg, msize, "%s", r.note);
	if (rr != 1)
		rr = -1;
	return rr;
}

/* --- written back ----------------------------------------------------- */

/* Does a name need quotes to read back: a colon, comma or '#' in it, a
 * word BY or AS, or a quote at its start? */
static int
needs_quotes(const char *s)
{
	size_t at[1];

	return strpbrk(s, ":,#") != NULL || quote_at(s) > 0 ||
	    words_at(s, "by", at, 1) > 0 || words_at(s, "as", at, 1) > 0;
}

static void
put_name(char *out, size_t size, size_t *k, const char *name)
{
	say(out, size, k, needs_quotes(name) ? "\"%s\"" : "%s", name);
}

void
campaign_order_text(const struct campaign *c, const struct cp_order *o,
    char *out, size_t size)
{
	const struct cp_column *col;
	size_t k = 0;
	int i, first = 1;

	if (size == 0)
		return;
	out[0] = '\0';
	if (o->column < 0 || o->column >= c->ncolumns)
		return;
	col = &c->columns[o->column];
	put_name(out, size, &k, col->name);
	say(out, size, &k, ": %s", verb_word(o->kind));
	switch (o->kind) {
	case CO_MARCH:
	case CO_FORCED:
	case CO_RETREAT:
		if (o->dest < 0 || o->dest >= c->nplaces)
			break;
		say(out, size, &k, " ");
		put_name(out, size, &k, c->places[o->dest].name);
		if (o->by >= 0 && o->by < c->nroads) {
			const struct cp_road *rd = &c->roads[o->by];
			int from = col->road >= 0 ? col->from : col->place;

			say(out, size, &k, " BY ");
			put_name(out, size, &k, rd->name[0] != '\0' ? rd->name :
			    c->places[rd->a == from ? rd->b : rd->a].name);
		}
		break;
	case CO_DETACH:
		for (i = 0; i < c->nbrigades; i++)
			if (o->brigades[i / 8] >> (i % 8) & 1u) {
				say(out, size, &k, first ? " " : ", ");
				put_name(out, size, &k, c->brigades[i].name);
				first = 0;
			}
		say(out, size, &k, " AS \"%s\"", o->name);
		break;
	case CO_JOIN:
		if (o->target >= 0 && o->target < c->ncolumns) {
			say(out, size, &k, " ");
			put_name(out, size, &k, c->columns[o->target].name);
		}
		break;
	default:
		break;
	}
}

/* Does s start with one of the order words (the verbs and the words that
 * mean one), as a word? */
static int
starts_with_order(const char *s)
{
	const char *after;
	size_t i;
	int v;

	for (v = 0; v < NVERBS; v++)
		if (word_is(s, verbs[v].w[0], &after))
			return 1;
	for (i = 0; i < sizeof(verb_aliases) / sizeof(verb_aliases[0]); i++)
		if (word_is(s, verb_aliases[i][0], &after))
			return 1;
	return 0;
}

int
campaign_line_prose(const struct campaign *c, int side, const char *line)
{
	char buf[CO_LINE], *colon, *rest;
	struct rd r;
	struct typed ty;
	int ids[CAMPAIGN_MAX_COLUMNS], dist[CAMPAIGN_MAX_COLUMNS], lim, lv, n;
	size_t at[2];
	char msg[8];

	if (strlen(line) >= sizeof(buf) || !order_text(line, buf))
		return 0;
	colon = outside_quotes(buf, ':', 0);
	if (colon == NULL)
		/* "Morgan's column march to Cowpens": an order without its
		 * colon, not a remark. */
		return !starts_with_order(buf) && words_at(buf, "march", at,
		    2) == 0 && words_at(buf, "retreat", at, 2) == 0;
	rest = colon + 1;
	while (orders_sp((unsigned char)*rest))
		rest++;
	if (starts_with_order(rest))
		return 0;
	*colon = '\0';
	orders_trim(buf);
	unquote(buf);
	if (buf[0] == '\0')
		return 0;
	/* Before the colon no column's name, of either side, not even a
	 * near one: a heading or a remark ("Orders:", "P.S.: the roads are
	 * mud"). */
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.side = side;
	r.msg = msg;
	r.msize = sizeof(msg);
	r.lk = malloc(sizeof(*r.lk));
	if (r.lk == NULL)
		return 0;
	typed_of(&ty, buf);
	look_columns(&r, 0, 1);
	n = look_exact(r.lk, &ty, buf, ids, &lv);
	if (n == 0) {
		look_columns(&r, 1, 1);
		n = look_exact(r.lk, &ty, buf, ids, &lv);
	}
	if (n == 0) {
		look_columns(&r, 1, 1);
		n = look_near(r.lk, &ty, &lim, ids, dist);
		if (n == 0 || dist[0] > lim) {
			look_columns(&r, 0, 1);
			n = look_near(r.lk, &ty, &lim, ids, dist);
		}
		if (n > 0 && dist[0] > lim)
			n = 0;
	}
	free(r.lk);
	return n == 0;
}
