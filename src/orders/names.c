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

int
orders_lev(const char *a, const char *b)
{
	return orders_lev_max(a, b, 1 << 20);
}

int
orders_lev_max(const char *a, const char *b, int max)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[128];

	if (la > 120)
		la = 120;
	if (lb > 120)
		lb = 120;
	if (la - lb > max || lb - la > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], tmp, low;

		row[0] = i;
		low = row[0];
		for (j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);

			tmp = row[j];
			row[j] = row[j] + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
			if (row[j] < low)
				low = row[j];
		}
		/* Every path from here costs at least the row's least. */
		if (low > max)
			return max + 1;
	}
	return row[lb] > max ? max + 1 : row[lb];
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
static const struct abbrev { const char *abbr, *word; } abbrevs[] = {
	{ "art", "artillery" }, { "artl", "artillery" }, { "arty", "artillery" },
	{ "batt", "battalion" }, { "bde", "brigade" }, { "bn", "battalion" },
	{ "brig", "brigadier" }, { "btn", "battalion" }, { "bttn", "battalion" },
	{ "capt", "captain" }, { "cav", "cavalry" }, { "col", "colonel" },
	{ "cont", "continental" }, { "conts", "continentals" },
	{ "cpt", "captain" }, { "del", "delaware" }, { "dgns", "dragoons" },
	{ "drag", "dragoons" }, { "drgns", "dragoons" }, { "eighth", "8th" },
	{ "fifth", "5th" }, { "first", "1st" }, { "fourth", "4th" },
	{ "fus", "fusiliers" }, { "ga", "georgia" }, { "gen", "general" },
	{ "gren", "grenadiers" }, { "grens", "grenadiers" },
	{ "hldrs", "highlanders" }, { "inf", "infantry" },
	{ "ld", "light dragoons" }, { "lds", "light dragoons" },
	{ "lieut", "light" }, { "lieutenant", "light" }, { "lt", "light" },
	{ "maj", "major" }, { "md", "maryland" }, { "mil", "militia" },
	{ "nc", "north carolina" }, { "ninth", "9th" }, { "nj", "new jersey" },
	{ "ny", "new york" }, { "pa", "pennsylvania" }, { "pdr", "pounder" },
	{ "regt", "regiment" }, { "rgt", "regiment" }, { "sc", "south carolina" },
	{ "second", "2nd" }, { "seventh", "7th" }, { "sixth", "6th" },
	{ "tenth", "10th" }, { "third", "3rd" }, { "va", "virginia" },
};



int
orders_abbrevs_sorted(void)
{
	size_t i;

	for (i = 1; i < sizeof(abbrevs) / sizeof(abbrevs[0]); i++)
		if (strcmp(abbrevs[i - 1].abbr, abbrevs[i].abbr) >= 0)
			return 0;
	return 1;
}

/* isalnum() of the C locale, without a call per character (bytes past
 * 0x7f are taken apart by the callers). */
static int
ascii_alnum(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9');
}

/* Writes name as lower-case words separated by one space, curly quotes
 * folded, punctuation dropped and abbreviations written out. */
static void
norm_name(const char *in, char *out, size_t size)
{
	size_t k = 0;

	out[0] = '\0';
	while (*in) {
		char w[64];
		size_t n = 0, j;
		const char *rep;

		/* Skip to a word: letters, digits, apostrophes, non-ASCII. */
		while (*in) {
			const unsigned char *u = (const unsigned char *)in;

			if (ascii_alnum(u[0]) || u[0] >= 0x80 || u[0] == '\'')
				break;
			in++;
		}
		if (*in == '\0')
			break;
		while (*in) {
			const unsigned char *u = (const unsigned char *)in;

			if (u[0] == 0xe2 && u[1] == 0x80 &&
			    (u[2] == 0x98 || u[2] == 0x99)) {
				if (n + 1 < sizeof(w))
					w[n++] = '\'';
				in += 3;
				continue;
			}
			if (!(ascii_alnum(u[0]) || u[0] >= 0x80 || u[0] == '\''))
				break;
			if (n + 1 < sizeof(w))
				w[n++] = (char)(u[0] >= 'A' && u[0] <= 'Z' ?
				    u[0] - 'A' + 'a' : u[0]);
			in++;
		}
		w[n] = '\0';
		rep = w;
		if (n <= 10) {
			size_t lo = 0, hi = sizeof(abbrevs) / sizeof(abbrevs[0]);

			while (lo < hi) {
				int c;

				j = (lo + hi) / 2;
				/* The first letters decide most comparisons. */
				c = (unsigned char)w[0] -
				    (unsigned char)abbrevs[j].abbr[0];
				if (c == 0)
					c = strcmp(w + 1, abbrevs[j].abbr + 1);
				if (c == 0) {
					rep = abbrevs[j].word;
					break;
				}
				if (c < 0)
					hi = j;
				else
					lo = j + 1;
			}
		}
		n = strlen(rep);
		if (k + n + 2 > size)
			break;
		if (k > 0)
			out[k++] = ' ';
		memcpy(out + k, rep, n);
		k += n;
		out[k] = '\0';
	}
}


/* Every name of a battle, normalised once and kept while the parser reads
 * mails against the same battle (a checksum of the names says when). */
struct names {
	uint64_t sum;
	const struct battle *of;   /* the battle the name pointers are in */
	int n;
	struct cand c[BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS +
	    BATTLE_MAX_BRIGADES];
};

void
orders_names_free(struct names *n)
{
	free(n);
}

static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h ^ 0xff;
}

static uint64_t
names_sum(const struct battle *b)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)b->nunits ^
	    ((uint64_t)b->ncommanders << 16) ^ ((uint64_t)b->nbrigades << 32);
	int i;

	for (i = 0; i < b->nunits; i++)
		h = fnv(h, b->units[i].name) + (uint64_t)b->units[i].side;
	for (i = 0; i < b->ncommanders; i++)
		h = fnv(h, b->commanders[i].name) + (uint64_t)b->commanders[i].side;
	for (i = 0; i < b->nbrigades; i++)
		h = fnv(h, b->brigades[i].name) + (uint64_t)b->brigades[i].side;
	return h;
}

/* The bit of a normalised name's character. */
static uint64_t
char_bit(unsigned char ch)
{
	if (ch >= 'a' && ch <= 'z')
		return (uint64_t)1 << (ch - 'a');
	if (ch >= '0' && ch <= '9')
		return (uint64_t)1 << (26 + ch - '0');
	return (uint64_t)1 << (36 + (ch & 15));
}

static uint64_t
word_starts(const char *s)
{
	uint64_t m = 0;
	const char *p;

	for (p = s; *p; p++)
		if (p == s || p[-1] == ' ')
			m |= char_bit((unsigned char)*p);
	return m;
}

static struct names *
names_for(struct orders_parser *p, const struct battle *b)
{
	uint64_t sum = names_sum(b);
	struct names *nm = p->names;
	int i;

	if (nm != NULL && nm->sum == sum) {
		/* The same names, maybe in another battle: point at its. */
		if (nm->of != b) {
			for (i = 0; i < nm->n; i++) {
				struct cand *c = &nm->c[i];

				c->name = c->kind == C_UNIT ? b->units[c->idx].name :
				    c->kind == C_CMD ? b->commanders[c->idx].name :
				    b->brigades[c->idx].name;
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
	nm->sum = sum;
	nm->of = b;
	nm->n = 0;
	for (i = 0; i < b->nunits; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->units[i].name;
		c->kind = C_UNIT;
		c->idx = i;
		c->side = b->units[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
		c->starts = word_starts(c->norm);
	}
	for (i = 0; i < b->ncommanders; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->commanders[i].name;
		c->kind = C_CMD;
		c->idx = i;
		c->side = b->commanders[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
		c->starts = word_starts(c->norm);
	}
	for (i = 0; i < b->nbrigades; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->brigades[i].name;
		c->kind = C_BRIGADE;
		c->idx = i;
		c->side = b->brigades[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
		c->starts = word_starts(c->norm);
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

/* Does candidate name c (normalised) match the typed name t at level:
 * 0 the same, 1 a prefix, 2 at the start of one of its words, 3 each
 * typed word the start of one of its words, in order. */
static int
norm_matches(int level, const char *c, const char *t, size_t tl)
{
	const char *p;

	switch (level) {
	case 0:
		return strcmp(c, t) == 0;
	case 1:
		return strncmp(c, t, tl) == 0;
	case 2:
		for (p = strchr(c, ' '); p != NULL; p = strchr(p + 1, ' '))
			if (strncmp(p + 1, t, tl) == 0)
				return 1;
		return 0;
	default:
		p = c;
		while (*t) {
			size_t wl = strcspn(t, " ");
			int found = 0;

			while (*p) {
				size_t cl = strcspn(p, " ");

				if (cl >= wl && strncmp(p, t, wl) == 0)
					found = 1;
				p += cl;
				while (*p == ' ')
					p++;
				if (found)
					break;
			}
			if (!found)
				return 0;
			t += wl;
			while (*t == ' ')
				t++;
		}
		return 1;
	}
}

static int
wanted(const struct cand *c, int side, unsigned which)
{
	switch (c->kind) {
	case C_UNIT:
		return c->side == side ? (which & (WHO_OWN_UNIT | WHO_FRIEND_UNIT))
		    != 0 : (which & WHO_ENEMY_UNIT) != 0;
	case C_CMD:
		return c->side == side && (which & WHO_OWN_CMD) != 0;
	default:
		return c->side == side && (which & WHO_BRIGADE) != 0;
	}
}

/* Resolves name among the candidates `which` for side; returns the number
 * of matches at the best level (1 = resolved into *out), or 0/2+ with a
 * message in msg. */
int
orders_resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what)
{
	struct names *nm = p->bound == b ? p->names : names_for(p, b);
	char t[NORM_MAX];
	size_t tl;
	int i, level, hits = 0, hit = -1, top = 4;
	uint64_t tbit;

	if (nm == NULL) {
		snprintf(msg, msize, "out of memory");
		return 0;
	}
	norm_name(name, t, sizeof(t));
	tl = strlen(t);
	if (tl == 0) {
		snprintf(msg, msize, "a %s's name is needed before the colon",
		    what);
		return 0;
	}
	/* One pass: the best level any candidate matches at, and how many
	 * match there. */
	tbit = char_bit((unsigned char)t[0]);
	for (i = 0; i < nm->n; i++) {
		const struct cand *c = &nm->c[i];
		int lv;

		/* Every level needs the name's first letter at the start of
		 * one of the candidate's words. */
		if (!(c->starts & tbit) || !wanted(c, side, which))
			continue;
		/* Levels 0 (the same) and 1 (a prefix) in one comparison. */
		if (strncmp(c->norm, t, tl) == 0)
			lv = c->norm[tl] == '\0' ? 0 : 1;
		else
			for (lv = 2; lv <= top && lv < 4; lv++)
				if (norm_matches(lv, c->norm, t, tl))
					break;
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
			    norm_matches(level, nm->c[i].norm, t, tl)) {
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

		for (i = 0; i < nm->n; i++) {
			const struct cand *c = &nm->c[i];

			if (c->kind == C_UNIT && !wanted(c, side, which) &&
			    norm_matches(level, c->norm, t, tl)) {
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
		for (i = 0; i < nm->n; i++) {
			char cand[BATTLE_NAME_MAX * 2];
			const char *w;
			int d, j;

			if (!wanted(&nm->c[i], side, which))
				continue;
			fold_name(nm->c[i].name, cand, sizeof(cand));
			/* Only names within the suggestion limit matter, and a
			 * whole name whose length differs by more cannot be. */
			d = 1 << 30;
			d = orders_lev_max(cand, fname, lim);
			for (w = cand; *w; w++) {
				char pre[128];
				int dp;

				if (w != cand && isalnum((unsigned char)w[-1]))
					continue;
				if (l < sizeof(pre) && strlen(w) >= l) {
					memcpy(pre, w, l);
					pre[l] = '\0';
					dp = orders_lev_max(pre, fname, lim);
					if (dp < d)
						d = dp;
				}
			}
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
