/*
 * names.c - resolving the names players write (any unique part, word
 * starts, abbreviations, curly quotes) to units, commanders and brigades,
 * and suggesting the nearest names when one does not match.
 *
 * Every name of a battle is normalised once and kept while the parser
 * reads mails against the same battle.
 */
#include <sodium.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "orders/internal.h"

/* --- names ------------------------------------------------------------ */

/* The edit distance by the table, row by row: the reference, and what
 * a pattern past 64 bytes is measured with.  Case ignored. */
int
orders_lev_dp(const char *a, size_t la, const char *b, size_t lb)
{
	int row[LEV_MAX + 1];
	size_t i, j;

	if (la > LEV_MAX)
		la = LEV_MAX;
	if (lb > LEV_MAX)
		lb = LEV_MAX;
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
	return row[lb];
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
 * column with a dozen word operations instead of m cell updates.  It
 * reads every name against every candidate when a name has no match, so
 * its cost is the cost of a bad line's suggestions. */
int
orders_lev_run(const struct lev_pat *lp, const char *t, size_t n, int max)
{
	uint64_t pv = ~(uint64_t)0, mv = 0, last;
	int score = lp->m;
	size_t j;

	if (n > LEV_MAX)
		n = LEV_MAX;
	if (lp->m > 64) {
		int d = orders_lev_dp(lp->s, (size_t)lp->m, t, n);

		return d > max ? max + 1 : d;
	}
	if (lp->m == 0)
		return (int)n > max ? max + 1 : (int)n;
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
		/* Each byte left can lower the distance by one at most. */
		if (score - (int)(n - j - 1) > max)
			return max + 1;
	}
	return score > max ? max + 1 : score;
}

int
orders_lev(const char *a, const char *b)
{
	struct lev_pat lp;

	orders_lev_prep(&lp, a, strlen(a));
	return orders_lev_run(&lp, b, strlen(b), 1 << 20);
}

/* Folds what mail clients change in names: curly quotes become straight
 * ones, so "Hayes’s" matches "Hayes's".  Writes at most size-1 bytes. */
static void
fold_name(const char *in, char *out, size_t size)
{
	size_t k = 0;

	while (*in && k + 1 < size) {
		const unsigned char *u = (const unsigned char *)in;

		if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x98 || u[2] == 0x99)) {
			out[k++] = '\'';
			in += 3;
		} else if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x9c || u[2] == 0x9d)) {
			out[k++] = '"';
			in += 3;
		} else {
			out[k++] = *in++;
		}
	}
	out[k] = '\0';
}

/* Abbreviations players write for the words of unit and commander names.
 * Both the names on the table and the names in a mail are read through
 * this table, so "1st Bn" and "First Battalion" meet. */
/* Sorted by abbr (a binary search reads it).  "Lt." before a name is a
 * lieutenant, and is read as "light" like any "Lt": so the rank written
 * out is read the same way. */
#define A(abbr, word) { abbr, word, sizeof(abbr) - 1, sizeof(word) - 1 }
static const struct abbrev {
	const char *abbr, *word;
	unsigned char alen, wlen;
} abbrevs[] = {
	A("art", "artillery"), A("artl", "artillery"), A("arty", "artillery"),
	A("batt", "battalion"), A("bde", "brigade"), A("bn", "battalion"),
	A("brig", "brigadier"), A("btn", "battalion"), A("bttn", "battalion"),
	A("capt", "captain"), A("cav", "cavalry"), A("col", "colonel"),
	A("conn", "connecticut"), A("cont", "continental"),
	A("conts", "continentals"), A("cpt", "captain"),
	A("ct", "connecticut"), A("del", "delaware"), A("dgns", "dragoons"),
	A("drag", "dragoons"), A("drgns", "dragoons"), A("eighth", "8th"),
	A("fifth", "5th"), A("first", "1st"), A("fourth", "4th"),
	A("fus", "fusiliers"), A("ga", "georgia"), A("gen", "general"),
	A("gren", "grenadiers"), A("grens", "grenadiers"),
	A("hldrs", "highlanders"), A("inf", "infantry"),
	A("ld", "light dragoons"), A("lds", "light dragoons"),
	A("lieut", "light"), A("lieutenant", "light"), A("lt", "light"),
	A("maj", "major"), A("mass", "massachusetts"), A("md", "maryland"),
	A("mil", "militia"), A("nc", "north carolina"),
	A("nh", "new hampshire"), A("ninth", "9th"), A("nj", "new jersey"),
	A("ny", "new york"), A("pa", "pennsylvania"), A("pdr", "pounder"),
	A("regt", "regiment"), A("rgt", "regiment"), A("ri", "rhode island"),
	A("sc", "south carolina"), A("second", "2nd"), A("seventh", "7th"),
	A("sixth", "6th"), A("tenth", "10th"), A("third", "3rd"),
	A("va", "virginia"),
};
#undef A
#define NABBREVS (sizeof(abbrevs) / sizeof(abbrevs[0]))

/* Where the abbreviations of each first letter begin in the table (the
 * next letter's entry is where they end): a..z, then the end.
 * orders_abbrevs_sorted() checks it against the table. */
static const unsigned char abbr_first[27] = {
	0, 3, 9, 17, 21, 22, 26, 30, 31, 32, 32, 32, 37, 41, 46, 46, 48, 48,
	51, 55, 57, 57, 58, 58, 58, 58, 58
};

int
orders_abbrevs_sorted(void)
{
	size_t i;
	int ch;

	for (i = 1; i < NABBREVS; i++)
		if (strcmp(abbrevs[i - 1].abbr, abbrevs[i].abbr) >= 0)
			return 0;
	for (ch = 0, i = 0; ch < 26; ch++) {
		while (i < NABBREVS && abbrevs[i].abbr[0] < 'a' + ch)
			i++;
		if (abbr_first[ch] != i)
			return 0;
	}
	return abbr_first[26] == NABBREVS;
}

/* isalnum() of the C locale, without a call per character (bytes past
 * 0x7f are taken apart by the callers). */
static int
ascii_alnum(unsigned char ch)
{
	return (unsigned)(ch - 'a') < 26u || (unsigned)(ch - 'A') < 26u ||
	    (unsigned)(ch - '0') < 10u;
}

/* Writes name as lower-case words separated by one space, curly quotes
 * folded, punctuation dropped and abbreviations written out; returns its
 * length.  Every name of a battle and every name in a mail passes here,
 * so it writes straight into out and looks a word up among the
 * abbreviations of its first letter only. */
static size_t
norm_name(const char *in, char *out, size_t size)
{
	const unsigned char *u = (const unsigned char *)in;
	size_t k = 0;

	out[0] = '\0';
	for (;;) {
		size_t w0, n;

		/* Skip to a word: letters, digits, apostrophes, non-ASCII. */
		while (*u && !(ascii_alnum(*u) || *u >= 0x80 || *u == '\''))
			u++;
		if (*u == '\0')
			break;
		if (k > 0) {
			if (k + 2 > size)
				break;
			out[k++] = ' ';
		}
		w0 = k;
		for (;; u++) {
			unsigned char ch = *u;

			if ((unsigned)(ch - 'a') < 26u ||
			    (unsigned)(ch - '0') < 10u || ch == '\'') {
				/* as it is */
			} else if ((unsigned)(ch - 'A') < 26u) {
				ch = (unsigned char)(ch - 'A' + 'a');
			} else if (ch == 0xe2 && u[1] == 0x80 &&
			    (u[2] == 0x98 || u[2] == 0x99)) {
				ch = '\'';
				u += 2;
			} else if (ch < 0x80) {
				break;
			}
			/* A word is kept to 63 bytes, as the table is. */
			if (k - w0 < 63 && k + 1 < size)
				out[k++] = (char)ch;
		}
		n = k - w0;
		if (n >= 2 && n <= 10 && (unsigned)(out[w0] - 'a') < 26u) {
			size_t j, end = abbr_first[out[w0] - 'a' + 1];

			for (j = abbr_first[out[w0] - 'a']; j < end; j++)
				if (abbrevs[j].alen == n &&
				    memcmp(abbrevs[j].abbr, out + w0, n) == 0) {
					if (w0 + abbrevs[j].wlen + 1 > size)
						break;
					memcpy(out + w0, abbrevs[j].word,
					    abbrevs[j].wlen);
					k = w0 + abbrevs[j].wlen;
					break;
				}
		}
		if (n == 0 && k > 0)
			k--;   /* a cut word leaves no space behind */
		out[k] = '\0';
	}
	out[k] = '\0';
	return k;
}

/* Every name of a battle, normalised once and kept while the parser reads
 * mails against the same battle (while its names, compared each mail,
 * are the same). */
#define MEMO_N   2048   /* a power of two */
#define MEMO_KEY 52     /* names typed longer are not kept */
#define NAMES_MAX (BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS + \
    BATTLE_MAX_BRIGADES)

struct names {
	const struct battle *of;   /* the battle the name pointers are in */
	int n;
	struct cand c[NAMES_MAX];
	/* For each bit of char_bit, the candidates with a word starting
	 * with that character, in order: by[at[bit] .. at[bit + 1]). */
	int at[65];
	unsigned short by[NAMES_MAX * CAND_WORDS];
	/* Names as players typed them that resolved to one candidate
	 * exactly (not as the nearest), by a hash of what was typed: a
	 * player writes a unit's name the same way turn after turn, and
	 * adjudication reads the canonical names back, so most names are
	 * found here without being normalised and compared again.  Cleared
	 * whenever the names change. */
	struct memo {
		uint32_t h;
		unsigned short cand;
		unsigned char len, which;
		int side;
		char key[MEMO_KEY];
	} memo[MEMO_N];
};

void
orders_names_free(struct names *n)
{
	free(n);
}

/* The bit (0..63) of a normalised name's character. */
static int
char_idx(unsigned char ch)
{
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a';
	if (ch >= '0' && ch <= '9')
		return 26 + ch - '0';
	return 36 + (ch & 15);
}

/* A normalised name's words: where each starts, how long. */
static int
split_words(const char *s, size_t len, unsigned char *pos, unsigned char *wlen,
    int max)
{
	size_t i = 0;
	int n = 0;

	while (i < len && n < max) {
		size_t e = i;

		while (e < len && s[e] != ' ')
			e++;
		pos[n] = (unsigned char)i;
		wlen[n] = (unsigned char)(e - i);
		n++;
		i = e + 1;
	}
	return n;
}

static const char *
battle_name(const struct battle *b, enum cand_kind kind, int i, int *side)
{
	switch (kind) {
	case C_UNIT:
		*side = b->units[i].side;
		return b->units[i].name;
	case C_CMD:
		*side = b->commanders[i].side;
		return b->commanders[i].name;
	default:
		*side = b->brigades[i].side;
		return b->brigades[i].name;
	}
}

/* Are the names nm holds those of b, in the same order and sides? */
static int
names_same(const struct names *nm, const struct battle *b)
{
	int i, side;

	if (nm->n != b->nunits + b->ncommanders + b->nbrigades)
		return 0;
	for (i = 0; i < nm->n; i++) {
		const struct cand *c = &nm->c[i];

		if (strcmp(c->raw, battle_name(b, c->kind, c->idx, &side)) != 0 ||
		    side != c->side)
			return 0;
	}
	return 1;
}

static void
cand_set(struct cand *c, const struct battle *b, enum cand_kind kind, int i)
{
	size_t j;

	c->kind = kind;
	c->idx = i;
	c->name = battle_name(b, kind, i, &c->side);
	snprintf(c->raw, sizeof(c->raw), "%s", c->name);
	/* Which requests it answers: from its own side, and from another. */
	c->own = kind == C_UNIT ? WHO_OWN_UNIT | WHO_FRIEND_UNIT :
	    kind == C_CMD ? WHO_OWN_CMD : WHO_BRIGADE;
	c->other = kind == C_UNIT ? WHO_ENEMY_UNIT : kind == C_CMD ?
	    WHO_ENEMY_CMD : 0;
	c->nlen = (int)norm_name(c->name, c->norm, sizeof(c->norm));
	c->nw = split_words(c->norm, (size_t)c->nlen, c->wpos, c->wlen,
	    CAND_WORDS);
	c->starts = 0;
	for (j = 0; j < (size_t)c->nw; j++)
		c->starts |= (uint64_t)1 << char_idx((unsigned char)c->norm[c->wpos[j]]);
	fold_name(c->name, c->fold, sizeof(c->fold));
	c->flen = (int)strlen(c->fold);
}

static struct names *
names_for(struct orders_parser *p, const struct battle *b)
{
	struct names *nm = p->names;
	int i;

	if (nm != NULL && names_same(nm, b)) {
		/* The same names, maybe in another battle: point at its. */
		if (nm->of != b) {
			for (i = 0; i < nm->n; i++) {
				struct cand *c = &nm->c[i];
				int side;

				c->name = battle_name(b, c->kind, c->idx, &side);
			}
			nm->of = b;
		}
		return nm;
	}
	if (nm == NULL) {
		nm = malloc(sizeof(*nm));
		if (nm == NULL)
			return NULL;
		p->names = nm;
	}
	nm->of = b;
	nm->n = 0;
	memset(nm->memo, 0, sizeof(nm->memo));
	for (i = 0; i < b->nunits; i++)
		cand_set(&nm->c[nm->n++], b, C_UNIT, i);
	for (i = 0; i < b->ncommanders; i++)
		cand_set(&nm->c[nm->n++], b, C_CMD, i);
	for (i = 0; i < b->nbrigades; i++)
		cand_set(&nm->c[nm->n++], b, C_BRIGADE, i);
	{
		int bit, k = 0;

		for (bit = 0; bit < 64; bit++) {
			nm->at[bit] = k;
			for (i = 0; i < nm->n; i++)
				if (nm->c[i].starts >> bit & 1u)
					nm->by[k++] = (unsigned short)i;
		}
		nm->at[64] = k;
	}
	return nm;
}

int
orders_names_bind(struct orders_parser *p, const struct battle *b)
{
	p->bound = NULL;
	if (names_for(p, b) == NULL)
		return -1;
	p->bound = b;
	return 0;
}

/* A typed name, normalised, with its words. */
struct typed {
	char t[NORM_MAX];
	size_t tl;
	unsigned char wpos[CAND_WORDS], wlen[CAND_WORDS];
	int nw;
};

/* Does candidate c match the typed name at level: 0 the same, 1 a
 * prefix, 2 at the start of one of its later words, 3 each typed word
 * the start of one of its words, in order. */
static int
cand_matches(int level, const struct cand *c, const struct typed *ty)
{
	int i, j;

	switch (level) {
	case 0:
		return (size_t)c->nlen == ty->tl && memcmp(c->norm, ty->t, ty->tl) == 0;
	case 1:
		return (size_t)c->nlen >= ty->tl && memcmp(c->norm, ty->t, ty->tl) == 0;
	case 2:
		for (i = 1; i < c->nw; i++)
			if ((size_t)(c->nlen - c->wpos[i]) >= ty->tl &&
			    memcmp(c->norm + c->wpos[i], ty->t, ty->tl) == 0)
				return 1;
		return 0;
	default:
		for (i = 0, j = 0; i < ty->nw; i++) {
			for (; j < c->nw; j++)
				if (c->wlen[j] >= ty->wlen[i] &&
				    memcmp(c->norm + c->wpos[j], ty->t + ty->wpos[i],
				    ty->wlen[i]) == 0)
					break;
			if (j == c->nw)
				return 0;
			j++;
		}
		return 1;
	}
}

/* The level candidate c matches the typed name at (as cand_matches;
 * 4 for none), trying levels up to top.  A commander's surname written
 * alone ("Morgan" for "Col. Daniel Morgan") counts as a prefix: his rank
 * and given names are not what players write, so it stands level with a
 * unit whose name begins so ("Morgan's Riflemen") and the answer asks
 * which was meant rather than guessing. */
static int
cand_level(const struct cand *c, const struct typed *ty, int top)
{
	int lv;

	if (cand_matches(1, c, ty))
		return (size_t)c->nlen == ty->tl ? 0 : 1;
	if (c->kind == C_CMD && c->nw > 1 &&
	    (size_t)c->wlen[c->nw - 1] == ty->tl &&
	    (size_t)c->wpos[c->nw - 1] + ty->tl == (size_t)c->nlen &&
	    memcmp(c->norm + c->wpos[c->nw - 1], ty->t, ty->tl) == 0)
		return 1;
	for (lv = 2; lv <= top && lv < 4; lv++)
		if (cand_matches(lv, c, ty))
			return lv;
	return 4;
}

static int
wanted(const struct cand *c, int side, unsigned which)
{
	return ((c->side == side ? c->own : c->other) & which) != 0;
}

static int resolve(struct orders_parser *p, const struct battle *b,
    int side, unsigned which, const char *name, const struct cand **out,
    char *msg, size_t msize, const char *what);

int
orders_resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what)
{
	struct names *nm = p->bound == b ? p->names : names_for(p, b);
	struct memo *m;
	uint32_t h = 2166136261u;
	size_t len;
	int rr, near;

	if (nm == NULL || msize != 0)
		return resolve(p, b, side, which, name, out, msg, msize, what);
	for (len = 0; name[len] != '\0' && len < MEMO_KEY; len++) {
		h ^= (unsigned char)name[len];
		h *= 16777619u;
	}
	if (len == MEMO_KEY)
		return resolve(p, b, side, which, name, out, msg, msize, what);
	h = (h ^ which ^ ((uint32_t)side << 8)) * 16777619u;
	if (h == 0)
		h = 1;   /* 0 marks an empty entry */
	m = &nm->memo[h & (MEMO_N - 1)];
	if (m->h == h && m->len == len && m->which == which && m->side == side &&
	    memcmp(m->key, name, len) == 0) {
		*out = &nm->c[m->cand];
		return 1;
	}
	near = p->near;
	p->near = 0;
	rr = resolve(p, b, side, which, name, out, msg, msize, what);
	if (rr == 1 && !p->near && which < 256) {
		m->h = h;
		m->len = (unsigned char)len;
		m->which = (unsigned char)which;
		m->side = side;
		m->cand = (unsigned short)(*out - nm->c);
		memcpy(m->key, name, len);
	}
	p->near |= near;
	return rr;
}

/* Resolves name among the candidates `which` for side; returns the number
 * of matches at the best level (1 = resolved into *out), or 0/2+ with a
 * message in msg. */
static int
resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what)
{
	struct names *nm = p->bound == b ? p->names : names_for(p, b);
	struct typed ty;
	int i, e, level, hits = 0, hit = -1, top = 4, tbit;

	if (nm == NULL) {
		snprintf(msg, msize, "out of memory");
		return 0;
	}
	ty.tl = norm_name(name, ty.t, sizeof(ty.t));
	if (ty.tl == 0) {
		snprintf(msg, msize, "a %s's name is needed before the colon",
		    what);
		return 0;
	}
	ty.nw = split_words(ty.t, ty.tl, ty.wpos, ty.wlen, CAND_WORDS);
	/* One pass: the best level any candidate matches at, and how many
	 * match there. */
	/* Every level needs the name's first letter at the start of one of
	 * the candidate's words: only those are looked at. */
	tbit = char_idx((unsigned char)ty.t[0]);
	for (e = nm->at[tbit]; e < nm->at[tbit + 1]; e++) {
		const struct cand *c = &nm->c[nm->by[e]];
		int lv;

		i = nm->by[e];
		if (!wanted(c, side, which))
			continue;
		lv = cand_level(c, &ty, top);
		if (lv > top || lv == 4)
			continue;   /* no match as good as the best so far */
		if (lv < top) {
			top = lv;
			hits = 1;
			hit = i;
		} else {
			hits++;
		}
	}
	level = top;
	if (hits == 1) {
		*out = &nm->c[hit];
		return 1;
	}
	/* Without room for a message (msize 0) the caller only asks whether
	 * the name resolves: the same answer, without the text. */
	if (hits > 1 && msize == 0)
		return hits;
	if (hits > 1) {
		size_t k;
		int shown = 0;

		k = (size_t)snprintf(msg, msize, "\"%s\" could be more than "
		    "one %s:", name, what);
		for (i = 0; i < nm->n && shown < 4 && k < msize; i++)
			if (wanted(&nm->c[i], side, which) &&
			    cand_level(&nm->c[i], &ty, level) == level) {
				k += (size_t)snprintf(msg + k, msize - k,
				    "%s \"%s\"", shown ? "," : "",
				    nm->c[i].name);
				shown++;
			}
		if (k < msize)
			snprintf(msg + k, msize - k, "; write more of the name");
		return hits;
	}
	/* The name may belong to the other camp: say so plainly. */
	for (level = 0; level < 4; level++) {
		int other = -1, cnt = 0;

		for (e = nm->at[tbit]; e < nm->at[tbit + 1]; e++) {
			const struct cand *c = &nm->c[nm->by[e]];

			i = nm->by[e];
			if (c->kind == C_UNIT && !wanted(c, side, which) &&
			    cand_matches(level, c, &ty)) {
				other = i;
				cnt++;
			}
		}
		if (cnt == 1) {
			snprintf(msg, msize, "\"%s\" is %s", nm->c[other].name,
			    nm->c[other].side == side ? "one of your own units, "
			    "not an enemy unit" : "an enemy unit: orders go to "
			    "your own units");
			return 0;
		}
	}
	/* No match: suggest the nearest names, comparing the name with the
	 * whole of each candidate and with each of its words onwards. */
	{
		int best[3] = { -1, -1, -1 }, bd[3] = { 1 << 30, 1 << 30, 1 << 30 };
		char fname[ORDERS_TEXT_MAX];
		struct lev_pat lp;
		size_t k, l;

		/* Without a message to write, only whether one name is a slip
		 * of a letter away matters: distances past 2 need not be told
		 * apart (the test below compares bd[1] with bd[0] + 1 <= 2),
		 * and a name under 5 letters is never taken so. */
		int cheap = msize == 0, lim;

		fold_name(name, fname, sizeof(fname));
		l = strlen(fname);
		if (cheap && l < 5)
			return 0;
		lim = cheap ? 2 : (int)(l / 3) + 1;
		orders_lev_prep(&lp, fname, l);
		for (i = 0; i < nm->n; i++) {
			const struct cand *c = &nm->c[i];
			int d, j, w;

			if (!wanted(c, side, which))
				continue;
			/* The whole name, then each part of it as long as the
			 * typed name from a word on; a whole name whose length
			 * differs by more than the limit cannot be near. */
			d = abs(c->flen - (int)l) > lim ? lim + 1 :
			    orders_lev_run(&lp, c->fold, (size_t)c->flen, lim);
			for (w = 0; w + (int)l <= c->flen && d > 0; w++) {
				int dp;

				if (w > 0 && ascii_alnum((unsigned char)c->fold[w - 1]))
					continue;
				dp = orders_lev_run(&lp, c->fold + w, l,
				    d - 1 < lim ? d - 1 : lim);
				if (dp < d)
					d = dp;
			}
			if (d > lim)
				d = lim + 1;
			for (j = 0; j < 3; j++)
				if (d < bd[j]) {
					memmove(&bd[j + 1], &bd[j], (size_t)(2 - j) * sizeof(int));
					memmove(&best[j + 1], &best[j], (size_t)(2 - j) * sizeof(int));
					bd[j] = d;
					best[j] = i;
					break;
				}
		}
		/* One name clearly nearest, a slip of a letter or two: take
		 * it (the answer echoes the full name, so the player sees). */
		if (best[0] >= 0 && bd[0] <= 1 && l >= 5 &&
		    (best[1] < 0 || bd[1] > bd[0] + 1)) {
			*out = &nm->c[best[0]];
			p->near = 1;
			return 1;
		}
		if (cheap)
			return 0;
		k = (size_t)snprintf(msg, msize, "no %s is called \"%s\"", what, name);
		/* Suggest only names that are near (a third of the letters
		 * wrong at most), the nearest first. */
		if (best[0] >= 0 && bd[0] <= (int)(l / 3) + 1 && k < msize) {
			k += (size_t)snprintf(msg + k, msize - k, "; did you mean \"%s\"",
			    nm->c[best[0]].name);
			for (i = 1; i < 3 && best[i] >= 0 && bd[i] <= bd[0] &&
			    k < msize; i++)
				k += (size_t)snprintf(msg + k, msize - k, " or \"%s\"",
				    nm->c[best[i]].name);
			if (k < msize)
				snprintf(msg + k, msize - k, "?");
		} else if (k < msize) {
			snprintf(msg + k, msize - k, "; the names are in your welcome "
			    "mail and in each report");
		}
	}
	return 0;
}
