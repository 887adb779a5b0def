/*
 * names.c - resolving the names players write to units, commanders and
 * brigades, and suggesting the nearest names when one does not match.
 *
 * One rule for every name (docs/orders.md, "How names are read"):
 *
 * 1. Both the name written and every name of the battle are normalised:
 *    Unicode NFKC, case folded, every Unicode space and dash as its ASCII
 *    kind and other punctuation as a space (utf8proc; a name of plain
 *    ASCII, nearly every one, skips it), apostrophes dropped, one space
 *    between words, abbreviations written out (a table below).
 * 2. Exact matches first: the name whole, its start, the start of a later
 *    word, or the start of each word in order, the best of these levels
 *    winning; several at the best level are refused, each listed.  A name
 *    written exactly as the battle gives it always resolves to it, so the
 *    canonical orders stored and replayed by the verifier read the same.
 * 3. Else the nearest: the edit distance from the name to a run of words
 *    of a candidate's name from a word start, or word by word to the
 *    starts of its words.  The one nearest within the limit (1 for a name
 *    of up to 6 letters, 2 beyond) is taken and the answer says what it
 *    was read as; several as near are refused, each listed; names within
 *    twice the limit are suggested.
 *
 * A candidate may have several names: a brigade is also "<name> brigade"
 * and its commander's name with "brigade" or a possessive after it, and a
 * scenario's `alias` lines add more.
 *
 * Every name of a battle is normalised once and kept while the parser
 * reads mails against the same battle; a name resolved exactly is
 * remembered as it was typed.
 *
 * The edit distances and the nearest names of step 3 are nearest.c's.
 */
#include <utf8proc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orders/internal.h"

/* --- normalising ------------------------------------------------------ */

/* Abbreviations players write for the words of unit and commander names,
 * with the states' (docs/orders.md lists them).  Both the names on the
 * table and the names in a mail are read through this table, so "1st Bn"
 * and "First Battalion" meet.  Sorted by abbr (a binary search reads it).
 * "Lt." before a name is a lieutenant, and is read as "light" like any
 * "Lt": so the rank written out is read the same way.  State names
 * written with points ("N.C.") are read as the letters together. */
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
	A("mil", "militia"), A("mtd", "mounted"), A("nc", "north carolina"),
	A("nh", "new hampshire"), A("ninth", "9th"), A("nj", "new jersey"),
	A("ny", "new york"), A("pa", "pennsylvania"), A("pdr", "pounder"),
	A("penn", "pennsylvania"), A("penna", "pennsylvania"),
	A("regt", "regiment"), A("rgt", "regiment"), A("ri", "rhode island"),
	A("sc", "south carolina"), A("second", "2nd"), A("seventh", "7th"),
	A("sixth", "6th"), A("tenth", "10th"), A("third", "3rd"),
	A("va", "virginia"), A("vt", "vermont"),
};
#undef A
#define NABBREVS (sizeof(abbrevs) / sizeof(abbrevs[0]))

/* Where the abbreviations of each first letter begin in the table (the
 * next letter's entry is where they end): a..z, then the end.
 * orders_abbrevs_sorted() checks it against the table. */
static const unsigned char abbr_first[27] = {
	0, 3, 9, 17, 21, 22, 26, 30, 31, 32, 32, 32, 37, 42, 47, 47, 51, 51,
	54, 58, 60, 60, 62, 62, 62, 62, 62
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

/* The abbreviation w[0..n) (lower case), or NULL. */
static const struct abbrev *
abbrev_of(const char *w, size_t n)
{
	size_t j, end;

	if (n < 2 || n > 10 || (unsigned)(w[0] - 'a') >= 26u)
		return NULL;
	end = abbr_first[w[0] - 'a' + 1];
	for (j = abbr_first[w[0] - 'a']; j < end; j++)
		if (abbrevs[j].alen == n && memcmp(abbrevs[j].abbr, w, n) == 0)
			return &abbrevs[j];
	return NULL;
}

/* isalnum() of the C locale, without a call per character (bytes past
 * 0x7f are taken apart by the callers). */
static int
ascii_alnum(unsigned char ch)
{
	return (unsigned)(ch - 'a') < 26u || (unsigned)(ch - 'A') < 26u ||
	    (unsigned)(ch - '0') < 10u;
}

#define UNI_MAX  700   /* code points of a name being normalised */
#define UNI_OPTS (UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | \
    UTF8PROC_CASEFOLD | UTF8PROC_LUMP | UTF8PROC_IGNORE | UTF8PROC_STRIPCC)

/* in, which has a byte past 0x7f, as NFKC and case folded, its spaces
 * and dashes (and curly apostrophes) lumped into their ASCII kinds, what
 * is not a letter, mark or digit (quotes, brackets, symbols, other
 * punctuation) a space, and the invisible (soft hyphen, zero-width
 * space) and control characters dropped: into out, cut at a character
 * if it is longer.  -1 if in is not UTF-8 or too long to fold. */
static int
unicode_fold(const char *in, char *out, size_t size)
{
	utf8proc_int32_t cp[UNI_MAX + 1];
	utf8proc_ssize_t n, i;

	n = utf8proc_decompose((const utf8proc_uint8_t *)in,
	    (utf8proc_ssize_t)strlen(in), cp, UNI_MAX, UNI_OPTS);
	if (n < 0 || n > UNI_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		utf8proc_category_t cat;

		if (cp[i] < 0x80)
			continue;
		cat = utf8proc_category(cp[i]);
		if ((cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO) ||
		    (cat >= UTF8PROC_CATEGORY_SM && cat <= UTF8PROC_CATEGORY_CO))
			cp[i] = ' ';
	}
	n = utf8proc_reencode(cp, n, UNI_OPTS);
	if (n < 0)
		return -1;
	orders_copy_text(out, size, (const char *)cp);
	return 0;
}

int
orders_has_unicode_spaces(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n;
		utf8proc_category_t cat;

		if (i + 8 <= len) {
			uint64_t x;

			memcpy(&x, u + i, 8);
			if ((x & 0x8080808080808080ull) == 0) {
				i += 8;
				continue;
			}
		}
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		/* Curly quotes, the commonest (U+2018 to U+201D, neither a
		 * space nor a format character), without a look-up. */
		if (u[i] == 0xe2 && i + 2 < len && u[i + 1] == 0x80 &&
		    u[i + 2] >= 0x98 && u[i + 2] <= 0x9d) {
			i += 3;
			continue;
		}
		n = utf8proc_iterate(u + i, (utf8proc_ssize_t)(len - i), &cp);
		if (n < 1) {
			i++;
			continue;
		}
		cat = utf8proc_category(cp);
		if (cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_CF)
			return 1;
		i += (size_t)n;
	}
	return 0;
}

int
orders_fold_spaces(char *s)
{
	size_t len = strlen(s), i = 0;
	unsigned char *r, *w;
	int changed = 0;

	/* Eight bytes a step to the first past ASCII: most lines have
	 * none. */
	for (; i + 8 <= len; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (x & 0x8080808080808080ull)
			break;
	}
	while (i < len && (unsigned char)s[i] < 0x80)
		i++;
	for (r = w = (unsigned char *)s + i; *r != '\0';) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n;

		if (r[0] == 0xe2 && r[1] == 0x80 && r[2] >= 0x98 && r[2] <= 0x9d) {
			n = 3;   /* curly quotes, the commonest: as they are */
		} else {
			n = *r < 0x80 ? 1 : utf8proc_iterate(r, 4, &cp);
			if (n > 1 && utf8proc_category(cp) == UTF8PROC_CATEGORY_ZS) {
				*w++ = ' ';
				r += n;
				changed = 1;
				continue;
			}
			if (n > 1 && utf8proc_category(cp) == UTF8PROC_CATEGORY_CF) {
				r += n;
				changed = 1;
				continue;
			}
		}
		if (n <= 1) {
			*w++ = *r++;   /* ASCII, or a byte that is not UTF-8 */
			continue;
		}
		if (w != r)
			memmove(w, r, (size_t)n);
		w += n;
		r += n;
	}
	*w = '\0';
	return changed;
}

/* Single letters in a row whose letters together are an abbreviation
 * ("N.C." or "N C", read "n c") are read as it: "north carolina". */
static size_t
join_letters(char *s, size_t len, size_t size)
{
	char tmp[NORM_MAX];
	size_t i = 0, k = 0;

	while (i < len) {
		size_t e = i, run = 0;

		/* A run of one-letter words from i: its letters. */
		char letters[4];

		while (run < 3 && e < len && (unsigned)(s[e] - 'a') < 26u &&
		    (e + 1 == len || s[e + 1] == ' ') && (e == 0 || s[e - 1] == ' ')) {
			letters[run++] = s[e];
			e += 2;
		}
		for (; run >= 2; run--) {
			const struct abbrev *a = abbrev_of(letters, run);

			if (a != NULL && k + a->wlen + 2 < sizeof(tmp)) {
				memcpy(tmp + k, a->word, a->wlen);
				k += a->wlen;
				i += 2 * run;   /* past the run and its space */
				break;
			}
		}
		if (run >= 2) {
			if (i < len)
				tmp[k++] = ' ';
			continue;
		}
		/* Not a run: the word as it is. */
		e = i;
		while (e < len && s[e] != ' ')
			e++;
		if (k + (e - i) + 2 >= sizeof(tmp))
			break;
		memcpy(tmp + k, s + i, e - i);
		k += e - i;
		i = e + 1;
		if (i < len)
			tmp[k++] = ' ';
	}
	if (k >= size)
		k = size - 1;
	while (k > 0 && tmp[k - 1] == ' ')
		k--;
	memcpy(s, tmp, k);
	s[k] = '\0';
	return k;
}

/* Writes name as lower-case words separated by one space, punctuation
 * dropped, apostrophes left out and abbreviations written out; returns
 * its length.  Every name of a battle and every name in a mail passes
 * here: a name of ASCII alone is read as it is, with no Unicode work,
 * straight into out, and a word is looked up among the abbreviations of
 * its first letter only. */
static size_t
norm_name(const char *in, char *out, size_t size)
{
	char uni[ORDERS_TEXT_MAX + 100];
	const unsigned char *u = (const unsigned char *)in;
	size_t k = 0;
	int single = 0, pair = 0;

	/* ASCII, and the curly apostrophes of every mail client (read
	 * below as utf8proc reads them: an apostrophe, left out), need no
	 * Unicode work. */
	while (*u != '\0' && (*u < 0x80 || (u[0] == 0xe2 && u[1] == 0x80 &&
	    (u[2] == 0x98 || u[2] == 0x99))))
		u += *u < 0x80 ? 1 : 3;
	if (*u != '\0' && unicode_fold(in, uni, sizeof(uni)) == 0)
		u = (const unsigned char *)uni;
	else
		u = (const unsigned char *)in;
	out[0] = '\0';
	for (;;) {
		const struct abbrev *a;
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

			if ((unsigned)(ch - 'a') < 26u || (unsigned)(ch - '0') < 10u) {
				/* as it is */
			} else if ((unsigned)(ch - 'A') < 26u) {
				ch = (unsigned char)(ch - 'A' + 'a');
			} else if (ch == '\'') {
				continue;   /* "Hayes's" is "hayess" */
			} else if (ch == 0xe2 && u[1] == 0x80 &&
			    (u[2] == 0x98 || u[2] == 0x99)) {
				u += 2;     /* a curly one, as utf8proc lumps it */
				continue;
			} else if (ch < 0x80) {
				break;
			}
			/* A word is kept to 63 bytes, as the table is. */
			if (k - w0 < 63 && k + 1 < size)
				out[k++] = (char)ch;
		}
		n = k - w0;
		if ((a = abbrev_of(out + w0, n)) != NULL &&
		    w0 + a->wlen + 1 <= size) {
			memcpy(out + w0, a->word, a->wlen);
			k = w0 + a->wlen;
		}
		if (n == 0 && k > 0)
			k--;   /* a cut word leaves no space behind */
		if (n == 1 && (unsigned)(out[w0] - 'a') < 26u)
			pair |= single, single = 1;
		else if (n > 0)
			single = 0;
		out[k] = '\0';
	}
	out[k] = '\0';
	if (pair)
		k = join_letters(out, k, size);
	return k;
}

size_t
orders_name_norm(const char *name, char *out, size_t size)
{
	return norm_name(name, out, size);
}

/* --- the battle's names ----------------------------------------------- */

/* Every name of a battle, normalised once and kept while the parser reads
 * mails against the same battle (while its names, compared each mail,
 * are the same). */
#define MEMO_N   16384  /* entries of the memo, a power of two */
#define MEMO_FILL 12288 /* ... of which this many are filled before it is
                         * cleared and filled again */
#define MEMO_KEY 47     /* names typed longer are not kept (an entry,
                         * its tag with it, is then 64 bytes) */
#define MISS_N   1024   /* names that resolve to none or several, kept */
#define MISS_WHAT 48    /* what was asked for ("enemy unit"), kept */
#define NAMES_MAX (BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS + \
    BATTLE_MAX_BRIGADES)
#define BRIGADE_FORMS 5  /* "Line brigade", "Howard's brigade", ... */
#define NAMES_XFORMS (BATTLE_MAX_BRIGADES * BRIGADE_FORMS + \
    BATTLE_MAX_ALIASES)

struct names {
	const struct battle *of;   /* the battle the name pointers are in */
	int n;
	struct cand c[NAMES_MAX];
	int nxf;
	struct form xf[NAMES_XFORMS];   /* the candidates' other names */
	int naliases;                   /* the battle's aliases they were */
	struct alias aliases[BATTLE_MAX_ALIASES];  /* made from */
	/* For each bit of char_bit, the candidates with a word starting
	 * with that character, in order: by[at[bit] .. at[bit + 1]). */
	int at[65];
	unsigned short by[NAMES_MAX * 64];
	/* Names as players typed them that resolved to one candidate (and
	 * whether as the nearest), by a hash of what was typed: a player
	 * writes a unit's name the same way turn after turn, misspelt or
	 * not, and adjudication reads the canonical names back, so most
	 * names are found here without being normalised and compared
	 * again.  An open-addressed table (linear probing): an entry's tag
	 * holds its hash and the generation it was filled in; an entry of an
	 * older generation is empty, so the table is cleared, whenever the
	 * names change or it has MEMO_FILL entries, by counting one up,
	 * without a write to it.  The tag is kept in its entry: a look-up
	 * in a megabyte of memo then reads one place in memory, not two. */
	uint32_t gen;        /* the generation being filled (never 0) */
	int nmemo;           /* its entries */
	struct memo {
		uint64_t tag;
		int side;
		unsigned short cand;
		unsigned char len, which;
		unsigned char near;   /* taken as the nearest, not exactly */
		char key[MEMO_KEY];
	} memo[MEMO_N];
	/* Names typed that resolved to none or to several, with the answer
	 * written for them: a player's misspelling comes again in the next
	 * mail (and in the mail sent again to correct another line), and
	 * each costs a measure against every candidate.  One place each, by
	 * the memo's hash, valid in the memo's generation.  The answer is
	 * written for what was asked for and the room it had, so those are
	 * kept with it. */
	struct miss {
		uint64_t tag;
		int side, rr;
		unsigned char len, which;
		size_t msize;           /* 0: the count alone is known */
		char key[MEMO_KEY];
		char what[MISS_WHAT];
		char msg[ORDERS_TEXT_MAX];
	} miss[MISS_N];
	/* The last name measured for the nearest (normalised), and what
	 * it found: the parser asks for the answer, then, when it fails,
	 * for the message, with the same name. */
	struct {
		char t[NORM_MAX];
		unsigned which;
		int side, lim, n;
		unsigned short list[NAMES_MAX];
		unsigned char dist[NAMES_MAX];
	} last;
};

/* A memo entry is one cache line's worth (MEMO_KEY is chosen so). */
_Static_assert(sizeof(struct memo) == 64, "struct memo is 64 bytes");

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

/* Are the names nm holds those of b, in the same order and sides, with
 * the same aliases? */
static int
names_same(const struct names *nm, const struct battle *b)
{
	int i, side;

	if (nm->n != b->nunits + b->ncommanders + b->nbrigades ||
	    nm->naliases != b->naliases)
		return 0;
	for (i = 0; i < nm->n; i++) {
		const struct cand *c = &nm->c[i];

		if (strcmp(c->raw, battle_name(b, c->kind, c->idx, &side)) != 0 ||
		    side != c->side)
			return 0;
	}
	for (i = 0; i < b->naliases; i++)
		if (nm->aliases[i].of != b->aliases[i].of ||
		    nm->aliases[i].idx != b->aliases[i].idx ||
		    strcmp(nm->aliases[i].name, b->aliases[i].name) != 0)
			return 0;
	return 1;
}

static void
form_set(struct form *f, const char *text)
{
	f->nlen = (int)norm_name(text, f->norm, sizeof(f->norm));
	f->nw = split_words(f->norm, (size_t)f->nlen, f->wpos, f->wlen,
	    CAND_WORDS);
	f->near_from = f->nw >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << f->nw) - 1;
	f->near_words = 1;
}

/* Are f's words, all of them, a run of g's words?  Then g is no further
 * from any name word by word than f is. */
static int
words_within(const struct form *f, const struct form *g)
{
	int v;

	if (f->nw == 0 || f->nw > g->nw)
		return 0;
	for (v = 0; v + f->nw <= g->nw; v++) {
		size_t len = (size_t)(f->nlen);

		if ((size_t)(g->nlen - g->wpos[v]) >= len &&
		    memcmp(g->norm + g->wpos[v], f->norm, len) == 0 &&
		    (g->wpos[v] + len == (size_t)g->nlen ||
		    g->norm[g->wpos[v] + len] == ' '))
			return 1;
	}
	return 0;
}

/* Leaves out of f's near_from the words from which f reads as another
 * name g of the same candidate does from one of its words (a brigade's
 * "howards brigade" and "colonel john eager howards brigade"): measuring
 * them again gives nothing new. */
static void
form_shared_rest(struct form *f, const struct form *g)
{
	int w, v;

	for (w = 0; w < f->nw; w++) {
		const char *r = f->norm + f->wpos[w];
		size_t rl = (size_t)(f->nlen - f->wpos[w]);

		for (v = 0; v < g->nw; v++)
			if ((size_t)(g->nlen - g->wpos[v]) == rl &&
			    memcmp(g->norm + g->wpos[v], r, rl) == 0) {
				f->near_from &= ~((uint32_t)1 << w);
				break;
			}
	}
}

static uint64_t
form_starts(const struct form *f)
{
	uint64_t s = 0;
	int j;

	for (j = 0; j < f->nw; j++)
		s |= (uint64_t)1 << char_idx((unsigned char)f->norm[f->wpos[j]]);
	return s;
}

/* Adds text as another name of c, unless c has it already; with
 * exact_only set, a name only matched exactly (one a letter from
 * another of c's, which the nearest measures instead). */
static void
cand_add_form(struct names *nm, struct cand *c, const char *text,
    int exact_only)
{
	struct form *f;
	int i;

	if (nm->nxf == NAMES_XFORMS)
		return;
	f = &nm->xf[nm->nxf];
	form_set(f, text);
	if (f->nlen == 0 || (f->nlen == c->f.nlen &&
	    memcmp(f->norm, c->f.norm, (size_t)f->nlen) == 0))
		return;
	for (i = c->xf; i < c->xf + c->nxf; i++)
		if (nm->xf[i].nlen == f->nlen &&
		    memcmp(nm->xf[i].norm, f->norm, (size_t)f->nlen) == 0)
			return;
	if (exact_only) {
		f->near_from = 0;
		f->near_words = 0;
	}
	form_shared_rest(f, &c->f);
	for (i = c->xf; i < c->xf + c->nxf; i++)
		form_shared_rest(f, &nm->xf[i]);
	if (f->near_words && words_within(&c->f, f))
		c->f.near_words = 0;
	for (i = c->xf; i < c->xf + c->nxf; i++) {
		if (nm->xf[i].near_words && words_within(f, &nm->xf[i]))
			f->near_words = 0;
		if (f->near_words && words_within(&nm->xf[i], f))
			nm->xf[i].near_words = 0;
	}
	nm->nxf++;
	c->nxf++;
	c->starts |= form_starts(f);
}

/* A brigade's other names: "Line brigade", and its commander's "Howard's
 * brigade", "Howard brigade", "Col. John Eager Howard's brigade", ...
 * ("bde" is read as "brigade", and an apostrophe is dropped, so these
 * are also "Howards' bde"). */
static void
brigade_forms(struct names *nm, struct cand *c, const struct battle *b)
{
	const struct brigade *br = &b->brigades[c->idx];
	char text[NORM_MAX + 16], cmd[NORM_MAX];
	const char *surname;
	size_t n;

	snprintf(text, sizeof(text), "%s brigade", br->name);
	cand_add_form(nm, c, text, 0);
	if (br->commander < 0 || br->commander >= b->ncommanders)
		return;
	n = norm_name(b->commanders[br->commander].name, cmd, sizeof(cmd));
	if (n == 0)
		return;
	surname = strrchr(cmd, ' ');
	surname = surname != NULL ? surname + 1 : cmd;
	snprintf(text, sizeof(text), "%ss brigade", cmd);
	cand_add_form(nm, c, text, 0);
	snprintf(text, sizeof(text), "%ss brigade", surname);
	cand_add_form(nm, c, text, 0);
	snprintf(text, sizeof(text), "%s brigade", cmd);
	cand_add_form(nm, c, text, 1);
	snprintf(text, sizeof(text), "%s brigade", surname);
	cand_add_form(nm, c, text, 1);
}

static void
cand_set(struct names *nm, struct cand *c, const struct battle *b,
    enum cand_kind kind, int i)
{
	static const enum alias_of of[] = { ALIAS_UNIT, ALIAS_COMMANDER,
		ALIAS_BRIGADE };
	int k;

	c->kind = kind;
	c->idx = i;
	c->name = battle_name(b, kind, i, &c->side);
	snprintf(c->raw, sizeof(c->raw), "%s", c->name);
	/* Which requests it answers: from its own side, and from another. */
	c->own = kind == C_UNIT ? WHO_OWN_UNIT | WHO_FRIEND_UNIT :
	    kind == C_CMD ? WHO_OWN_CMD : WHO_BRIGADE;
	c->other = kind == C_UNIT ? WHO_ENEMY_UNIT : kind == C_CMD ?
	    WHO_ENEMY_CMD : 0;
	form_set(&c->f, c->name);
	c->starts = form_starts(&c->f);
	c->xf = nm->nxf;
	c->nxf = 0;
	for (k = 0; k < b->naliases; k++)
		if (b->aliases[k].of == of[kind] && b->aliases[k].idx == i)
			cand_add_form(nm, c, b->aliases[k].name, 0);
	if (kind == C_BRIGADE)
		brigade_forms(nm, c, b);
}

/* Empties the memo. */
static void
memo_clear(struct names *nm)
{
	int i;

	nm->nmemo = 0;
	if (++nm->gen == 0) {
		/* Once in four thousand million clearings: the tags of every
		 * generation are made old at once. */
		for (i = 0; i < MEMO_N; i++)
			nm->memo[i].tag = 0;
		nm->gen = 1;
	}
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
		/* calloc: every memo tag of generation 0, so empty (a large
		 * block comes zeroed from the system, and pages never used are
		 * never touched). */
		nm = calloc(1, sizeof(*nm));
		if (nm == NULL)
			return NULL;
		p->names = nm;
	}
	nm->of = b;
	nm->n = 0;
	nm->nxf = 0;
	nm->naliases = b->naliases;
	memcpy(nm->aliases, b->aliases, (size_t)b->naliases * sizeof(b->aliases[0]));
	memo_clear(nm);
	nm->last.which = 0;
	for (i = 0; i < b->nunits; i++)
		cand_set(nm, &nm->c[nm->n++], b, C_UNIT, i);
	for (i = 0; i < b->ncommanders; i++)
		cand_set(nm, &nm->c[nm->n++], b, C_CMD, i);
	for (i = 0; i < b->nbrigades; i++)
		cand_set(nm, &nm->c[nm->n++], b, C_BRIGADE, i);
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

/* --- matching --------------------------------------------------------- */

/* Does form f match the typed name at level: 0 the same, 1 a prefix, 2 at
 * the start of one of its later words, 3 each typed word the start of one
 * of its words, in order. */
static int
form_matches(int level, const struct form *f, const struct typed *ty)
{
	int i, j;

	switch (level) {
	case 0:
		return (size_t)f->nlen == ty->tl && memcmp(f->norm, ty->t, ty->tl) == 0;
	case 1:
		return (size_t)f->nlen >= ty->tl && memcmp(f->norm, ty->t, ty->tl) == 0;
	case 2:
		for (i = 1; i < f->nw; i++)
			if ((size_t)(f->nlen - f->wpos[i]) >= ty->tl &&
			    memcmp(f->norm + f->wpos[i], ty->t, ty->tl) == 0)
				return 1;
		return 0;
	default:
		for (i = 0, j = 0; i < ty->nw; i++) {
			for (; j < f->nw; j++)
				if (f->wlen[j] >= ty->wlen[i] &&
				    memcmp(f->norm + f->wpos[j], ty->t + ty->wpos[i],
				    ty->wlen[i]) == 0)
					break;
			if (j == f->nw)
				return 0;
			j++;
		}
		return 1;
	}
}

/* The level form f matches the typed name at (as form_matches; 4 for
 * none), trying levels up to top. */
static int
form_level(const struct form *f, const struct typed *ty, int top)
{
	int lv;

	if (form_matches(1, f, ty))
		return (size_t)f->nlen == ty->tl ? 0 : 1;
	for (lv = 2; lv <= top && lv < 4; lv++)
		if (form_matches(lv, f, ty))
			return lv;
	return 4;
}

/* The best level any name of candidate c matches the typed name at.  A
 * commander's surname written alone ("Morgan" for "Col. Daniel Morgan")
 * counts as a prefix: his rank and given names are not what players
 * write, so it stands level with a unit whose name begins so ("Morgan's
 * Riflemen") and the answer asks which was meant rather than guessing. */
static int
cand_level(const struct names *nm, const struct cand *c,
    const struct typed *ty, int top)
{
	const struct form *f = &c->f;
	int lv, i;

	if (c->kind == C_CMD && f->nw > 1 &&
	    (size_t)f->wlen[f->nw - 1] == ty->tl &&
	    (size_t)f->wpos[f->nw - 1] + ty->tl == (size_t)f->nlen &&
	    memcmp(f->norm + f->wpos[f->nw - 1], ty->t, ty->tl) == 0)
		lv = 1;
	else
		lv = form_level(f, ty, top);
	for (i = 0; i < c->nxf && lv > 0; i++) {
		int l2 = form_level(&nm->xf[c->xf + i], ty, lv < top ? lv : top);

		if (l2 < lv)
			lv = l2;
	}
	return lv;
}

/* Does any name of c match at exactly this level or better? */
static int
cand_matches(const struct names *nm, const struct cand *c, int level,
    const struct typed *ty)
{
	int i;

	if (form_matches(level, &c->f, ty))
		return 1;
	for (i = 0; i < c->nxf; i++)
		if (form_matches(level, &nm->xf[c->xf + i], ty))
			return 1;
	return 0;
}

/* The candidates `which` the typed name matches exactly at the best level
 * (into *level; 4 when none): how many, and the one in *hit.  Among those
 * equal to it, the one whose name is exactly what was typed is the one:
 * so a canonical line reads as it was written whatever else normalises
 * alike. */
static int
exact_scan(const struct names *nm, int side, unsigned which,
    const struct typed *ty, const char *name, int *level, int *hit)
{
	int e, top = 4, hits = 0, same = -1, nsame = 0;
	int tbit = char_idx((unsigned char)ty->t[0]);

	/* Every level needs the name's first letter at the start of one of
	 * the candidate's words: only those are looked at. */
	for (e = nm->at[tbit]; e < nm->at[tbit + 1]; e++) {
		int i = nm->by[e], lv;
		const struct cand *c = &nm->c[i];

		if (!orders_cand_wanted(c, side, which))
			continue;
		lv = cand_level(nm, c, ty, top);
		if (lv > top || lv == 4)
			continue;   /* no match as good as the best so far */
		if (lv < top) {
			top = lv;
			hits = 0;
			nsame = 0;
		}
		if (hits++ == 0)
			*hit = i;
		if (lv == 0 && strcmp(c->name, name) == 0) {
			same = i;
			nsame++;
		}
	}
	*level = top;
	if (hits > 1 && top == 0 && nsame == 1) {
		*hit = same;
		return 1;
	}
	return hits;
}

/* Appends to msg (at *k of msize) the names of the candidates in list,
 * quoted and joined ("A", "B" or "C" for conj " or"), as many as there is
 * room for, then how many more there were. */
static void
list_names(const struct names *nm, const int *list, int n, const char *conj,
    char *msg, size_t msize, size_t *k)
{
	int i;

	for (i = 0; i < n && *k < msize; i++) {
		const char *sep = i == 0 ? "" : i == n - 1 ? conj : ",";
		size_t need = strlen(nm->c[list[i]].name) + strlen(sep) + 4;

		if (*k + need + 20 > msize) {
			*k += (size_t)snprintf(msg + *k, msize - *k, " and %d more",
			    n - i);
			return;
		}
		*k += (size_t)snprintf(msg + *k, msize - *k, "%s \"%s\"", sep,
		    nm->c[list[i]].name);
	}
}

/* --- resolving -------------------------------------------------------- */

/* Resolves name among the candidates `which` for side (as
 * orders_resolve); *near is set when the one taken is the nearest, not
 * an exact match. */
static int
resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what, int *near)
{
	struct names *nm = p->bound == b ? p->names : names_for(p, b);
	unsigned stage[2], all;
	struct typed ty;
	int i, e, s, nstage, level = 4, hits = 0, hit = -1, tbit;
	size_t k;

	*near = 0;
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
	/* Exactly: a line's units and commanders before its brigades. */
	if (which & WHO_LINE) {
		stage[0] = WHO_OWN_UNIT | WHO_OWN_CMD;
		stage[1] = WHO_BRIGADE;
		nstage = 2;
		all = WHO_OWN_UNIT | WHO_OWN_CMD | WHO_BRIGADE;
	} else {
		all = stage[0] = which & ~(unsigned)(WHO_EXACT | WHO_LINE);
		nstage = 1;
	}
	for (s = 0; s < nstage; s++) {
		hits = exact_scan(nm, side, stage[s], &ty, name, &level, &hit);
		if (hits > 0)
			break;
	}
	if (hits == 1) {
		*out = &nm->c[hit];
		return 1;
	}
	if (hits > 1) {
		int list[NAMES_MAX], n = 0;

		/* Without room for a message the caller only asks whether the
		 * name resolves: the same answer, without the text. */
		if (msize == 0)
			return hits;
		for (i = 0; i < nm->n; i++)
			if (orders_cand_wanted(&nm->c[i], side, stage[s]) &&
			    cand_level(nm, &nm->c[i], &ty, level) == level)
				list[n++] = i;
		k = (size_t)snprintf(msg, msize, "\"%s\" could be more than "
		    "one %s:", name, what);
		list_names(nm, list, n, " or", msg, msize, &k);
		if (k < msize)
			snprintf(msg + k, msize - k, "; write more of the name");
		return hits;
	}
	/* The name may belong to the other camp: say so plainly. */
	tbit = char_idx((unsigned char)ty.t[0]);
	for (level = 0; level < 4; level++) {
		int other = -1, cnt = 0;

		for (e = nm->at[tbit]; e < nm->at[tbit + 1]; e++) {
			const struct cand *c = &nm->c[nm->by[e]];

			if (c->kind == C_UNIT && !orders_cand_wanted(c, side, all) &&
			    cand_matches(nm, c, level, &ty)) {
				other = nm->by[e];
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
	if (which & WHO_EXACT) {
		snprintf(msg, msize, "no %s is called \"%s\"", what, name);
		return 0;
	}
	/* The nearest names. */
	{
		int list[NAMES_MAX], dist[NAMES_MAX], n, at0 = 0, lim;

		if (nm->last.which == all && nm->last.side == side &&
		    strcmp(nm->last.t, ty.t) == 0) {
			lim = nm->last.lim;
			n = nm->last.n;
			for (i = 0; i < n; i++) {
				list[i] = nm->last.list[i];
				dist[i] = nm->last.dist[i];
			}
		} else {
			n = orders_nearest(nm->c, nm->n, nm->xf, side, all, &ty, &lim,
			    list, dist);
			memcpy(nm->last.t, ty.t, ty.tl + 1);
			nm->last.which = all;
			nm->last.side = side;
			nm->last.lim = lim;
			nm->last.n = n;
			for (i = 0; i < n; i++) {
				nm->last.list[i] = (unsigned short)list[i];
				nm->last.dist[i] = (unsigned char)dist[i];
			}
		}
		while (at0 < n && dist[at0] == dist[0])
			at0++;
		/* A brigade as near as its own commander: the commander is
		 * meant, as when the name is exact. */
		for (i = 0; i < at0 && at0 > 1; i++) {
			const struct cand *c = &nm->c[list[i]];
			int j;

			if (c->kind != C_BRIGADE)
				continue;
			for (j = 0; j < at0; j++)
				if (nm->c[list[j]].kind == C_CMD &&
				    nm->c[list[j]].idx == b->brigades[c->idx].commander)
					break;
			if (j < at0) {
				memmove(&list[i], &list[i + 1],
				    (size_t)(n - i - 1) * sizeof(list[0]));
				memmove(&dist[i], &dist[i + 1],
				    (size_t)(n - i - 1) * sizeof(dist[0]));
				n--;
				at0--;
				i--;
			}
		}
		if (n > 0 && dist[0] <= lim && at0 == 1) {
			*out = &nm->c[list[0]];
			*near = 1;
			return 1;
		}
		if (n > 0 && dist[0] <= lim) {
			k = (size_t)snprintf(msg, msize, "\"%s\" could be more than "
			    "one %s, each %s off:", name, what, dist[0] == 1 ?
			    "a letter" : "two letters");
			list_names(nm, list, at0, " or", msg, msize, &k);
			if (k < msize)
				snprintf(msg + k, msize - k, "; write more of the name");
			return at0;
		}
		k = (size_t)snprintf(msg, msize, "no %s is called \"%s\"", what,
		    name);
		if (n > 0 && k < msize) {
			/* Every one nearest, and the next nearest up to three. */
			k += (size_t)snprintf(msg + k, msize - k, "; did you mean");
			list_names(nm, list, at0 > 3 ? at0 : n < 3 ? n : 3, " or",
			    msg, msize, &k);
			if (k < msize)
				snprintf(msg + k, msize - k, "?");
		} else if (k < msize) {
			snprintf(msg + k, msize - k, "; the names are in your welcome "
			    "mail and in each report");
		}
	}
	return 0;
}

/* Notes that name was read as the nearest, c (once: a brigade's order
 * reads its target for each of its units). */
static void
note_near(struct orders_parser *p, const char *name, const struct cand *c)
{
	char one[2 * BATTLE_NAME_MAX + 16], typed[BATTLE_NAME_MAX];
	size_t k, n;

	if (p->near == 0)
		p->near_note[0] = '\0';
	p->near++;
	orders_copy_text(typed, sizeof(typed), name);
	/* "\"typed\" as \"name\"", pieces appended as snprintf would. */
	n = orders_cat(one, sizeof(one), 0, "\"");
	n = orders_cat(one, sizeof(one), n, typed);
	n = orders_cat(one, sizeof(one), n, "\" as \"");
	n = orders_cat(one, sizeof(one), n, c->name);
	n = orders_cat(one, sizeof(one), n, "\"");
	if (strstr(p->near_note, one) != NULL)
		return;
	k = strlen(p->near_note);
	if (k + n + 2 < sizeof(p->near_note))
		(void)orders_cat(p->near_note, sizeof(p->near_note),
		    orders_cat(p->near_note, sizeof(p->near_note), k,
		    k > 0 ? ", " : ""), one);
}

/* The memo's hash of a name typed (len bytes, len < MEMO_KEY) asked for
 * as which by side: FNV-1a over eight bytes at a time. */
static uint32_t
memo_hash(const char *name, size_t len, unsigned which, int side)
{
	uint64_t h = 14695981039346656037ull, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, name + i, 8);
		h = (h ^ w) * 1099511628211ull;
	}
	if (i < len) {
		/* The last bytes, as memcpy into a zeroed word would place
		 * them on a little-endian machine, without a call of memcpy
		 * for a length not known when compiled. */
		size_t k;

		w = 0;
		for (k = 0; i + k < len; k++)
			w |= (uint64_t)(unsigned char)name[i + k] << (8 * k);
		h = (h ^ w) * 1099511628211ull;
	}
	h = (h ^ len ^ (uint64_t)which << 8 ^ (uint64_t)(uint32_t)side << 16) *
	    1099511628211ull;
	return (uint32_t)(h ^ h >> 32);
}

/* The memo's entry for the name, or NULL; *slot is where it would go (-1:
 * the memo is full). */
static struct memo *
memo_find(struct names *nm, uint32_t h, const char *name, size_t len,
    unsigned which, int side, int *slot)
{
	uint64_t tag = (uint64_t)nm->gen << 32 | h;
	size_t i = h & (MEMO_N - 1);

	for (;; i = (i + 1) & (MEMO_N - 1)) {
		struct memo *m = &nm->memo[i];

		if ((uint32_t)(m->tag >> 32) != nm->gen) {
			*slot = nm->nmemo < MEMO_FILL ? (int)i : -1;
			return NULL;
		}
		if (m->tag == tag && m->len == len && m->which == which &&
		    m->side == side && memcmp(m->key, name, len) == 0)
			return m;
	}
}

/* The failure kept for the name, or NULL. */
static struct miss *
miss_find(struct names *nm, uint32_t h, const char *name, size_t len,
    unsigned which, int side)
{
	struct miss *x = &nm->miss[h & (MISS_N - 1)];

	if (x->tag == ((uint64_t)nm->gen << 32 | h) && x->len == len &&
	    x->which == which && x->side == side &&
	    memcmp(x->key, name, len) == 0)
		return x;
	return NULL;
}

int
orders_resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what)
{
	struct names *nm = p->bound == b ? p->names : names_for(p, b);
	uint32_t h = 0;
	size_t len = 0;
	int rr, near = 0, memo = 0, slot;
	struct miss *x = NULL;

	/* The memo holds only names that resolved, and a name that
	 * resolves writes no message: so it answers whatever msize is. */
	if (nm != NULL && which < 256) {
		struct memo *m;

		len = strnlen(name, MEMO_KEY);
		if (len < MEMO_KEY) {
			memo = 1;
			h = memo_hash(name, len, which, side);
			m = memo_find(nm, h, name, len, which, side, &slot);
			if (m != NULL) {
				*out = &nm->c[m->cand];
				if (m->near)
					note_near(p, name, *out);
				return 1;
			}
			x = miss_find(nm, h, name, len, which, side);
			/* The count depends on nothing else; the answer's text
			 * on what was asked for and its room. */
			if (x != NULL && msize == 0)
				return x->rr;
			if (x != NULL && x->msize == msize &&
			    strcmp(x->what, what) == 0) {
				memcpy(msg, x->msg, strlen(x->msg) + 1);
				return x->rr;
			}
		}
	}
	rr = resolve(p, b, side, which, name, out, msg, msize, what, &near);
	if (rr == 1 && near)
		note_near(p, name, *out);
	if (rr != 1 && memo && (nm = p->names) != NULL &&
	    msize <= sizeof(x->msg) && strlen(what) < sizeof(x->what)) {
		x = &nm->miss[h & (MISS_N - 1)];
		x->tag = (uint64_t)nm->gen << 32 | h;
		x->side = side;
		x->rr = rr;
		x->len = (unsigned char)len;
		x->which = (unsigned char)which;
		memcpy(x->key, name, len);
		memcpy(x->what, what, strlen(what) + 1);
		x->msize = msize;
		if (msize > 0)
			memcpy(x->msg, msg, strlen(msg) + 1);
		else
			x->msg[0] = '\0';
	}
	if (rr == 1 && memo && (nm = p->names) != NULL) {
		struct memo *m;

		/* Looked up again: resolve may have made the names anew. */
		m = memo_find(nm, h, name, len, which, side, &slot);
		if (m == NULL && slot < 0) {
			memo_clear(nm);
			m = memo_find(nm, h, name, len, which, side, &slot);
		}
		if (m == NULL) {
			m = &nm->memo[slot];
			m->tag = (uint64_t)nm->gen << 32 | h;
			nm->nmemo++;
			m->len = (unsigned char)len;
			m->which = (unsigned char)which;
			m->near = (unsigned char)near;
			m->side = side;
			m->cand = (unsigned short)(*out - nm->c);
			memcpy(m->key, name, len);
		}
	}
	return rr;
}
