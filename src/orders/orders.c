/*
 * orders.c - parsing order mails (docs/orders.md) with PCRE2.
 *
 * Workload: a mail of a few dozen lines, parsed when it arrives and again
 * (as canonical text) when the step is adjudicated.  Mail text is hostile:
 * line counts and lengths are capped, and every pattern is anchored so no
 * input makes the matcher work hard.
 */
#include "orders/orders.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <sodium.h>

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct orders_parser {
	const struct ruleset *rs;
	pcre2_code *then;
	pcre2_code *quote;   /* where a quoted earlier mail begins */
	pcre2_code *fwd;     /* where a forwarded mail begins */
	pcre2_code *fwdhdr;  /* a header line of the forwarded mail */
	pcre2_code *cmd;     /* a mail command on a line of its own */
	pcre2_code *dist, *point, *turn, *bearing;
	pcre2_match_data *md;
	struct names *names; /* the battle's names, normalised (cache) */
	uint64_t limit;      /* brigades the player commands (0: all) */
	int limit_army;      /* ... and the army commander */
};

void
orders_parser_limit(struct orders_parser *p, uint64_t mask, int army)
{
	p->limit = mask;
	p->limit_army = army;
}

static pcre2_code *
compile(const char *pat, struct err *e)
{
	int code = 0;
	PCRE2_SIZE off = 0;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_CASELESS | PCRE2_UTF, &code, &off, NULL);

	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		err_set(e, ERR_INTERNAL, "pattern %s: %s at %zu", pat,
		    (const char *)msg, (size_t)off);
	} else {
		/* Mail is hostile input: a JIT-compiled pattern is faster,
		 * and every pattern here is anchored and linear anyway. */
		(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	}
	return re;
}

static void names_free(struct names *n);

struct orders_parser *
orders_parser_new(const struct ruleset *rs, struct err *e)
{
	struct orders_parser *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		return NULL;
	}
	p->rs = rs;
	if ((p->then = compile("\\s+THEN\\s+", e)) == NULL ||
	    (p->quote = compile("^(?:-{3,}[^-].*[^-]-{3,}"
	    "|-{2,}\\s*Original Message\\s*-{2,}"
	    "|_{10,}|On\\s.*\\swrote:|Le\\s.*\\sa\\s+\\S+crit\\s*:|Am\\s.*\\s"
	    "schrieb.*:|From:\\s.*|Sent from my\\s.*|Begin forwarded message:"
	    "|\\S.*\\s(?:wrote|writes):)$", e)) == NULL ||
	    (p->fwd = compile("^(?:-{2,}\\s*Forwarded message\\s*-{2,}"
	    "|Begin forwarded message:)$", e)) == NULL ||
	    (p->fwdhdr = compile("^(?:Subject|Date|From|To|Cc|Sent|Reply-To):",
	    e)) == NULL ||
	    (p->cmd = compile("^(HELP|STATUS|ORDERS|RESEND|PRESS|WAIT|READY|"
	    "CONCEDE)(?:\\s+(.*?))?\\s*[.!]?$", e)) == NULL ||
	    (p->dist = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*(?:\"|in|inch|inches)?$",
	    e)) == NULL ||
	    (p->point = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*,\\s*"
	    "(\\d{1,4}(?:\\.\\d{1,2})?)$", e)) == NULL ||
	    (p->turn = compile("^(LEFT|RIGHT)\\s+(\\d{1,3})(?:\\.0+)?(?:\\s*(?:deg|degrees))?$",
	    e)) == NULL ||
	    (p->bearing = compile("^(\\d{1,3})(?:\\.0+)?(?:\\s*(?:deg|degrees))?$", e)) == NULL)
		goto fail;
	p->md = pcre2_match_data_create(16, NULL);
	if (p->md == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto fail;
	}
	return p;
fail:
	orders_parser_free(p);
	return NULL;
}

void
orders_parser_free(struct orders_parser *p)
{
	if (p == NULL)
		return;
	pcre2_code_free(p->then);
	pcre2_code_free(p->quote);
	pcre2_code_free(p->fwd);
	pcre2_code_free(p->fwdhdr);
	pcre2_code_free(p->cmd);
	pcre2_code_free(p->dist);
	pcre2_code_free(p->point);
	pcre2_code_free(p->turn);
	pcre2_code_free(p->bearing);
	pcre2_match_data_free(p->md);
	names_free(p->names);
	free(p);
}

/* Matches re against s. */
static int
match(struct orders_parser *p, pcre2_code *re, const char *s, size_t len,
    size_t start)
{
	return pcre2_match(re, (PCRE2_SPTR)s, len, start, 0, p->md, NULL) > 0;
}

/* After a match: copies group g into out. */
static void
group(struct orders_parser *p, const char *s, int g, char *out, size_t size)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
	size_t a = ov[2 * g], z = ov[2 * g + 1], n;

	if (a == PCRE2_UNSET) {
		out[0] = '\0';
		return;
	}
	n = z - a;
	if (n >= size)
		n = size - 1;
	memcpy(out, s + a, n);
	out[n] = '\0';
}

static void
trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	if (i > 0)
		memmove(s, s + i, n - i + 1);
}

/* --- lines of a mail -------------------------------------------------- */

/* Copies line number `line` starting at s (n bytes, no newline) into buf
 * (size bytes), without a trailing CR, trimmed.  Returns 0, or -1 when the
 * line does not fit. */
static int
take_line(const char *s, size_t n, char *buf, size_t size)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n >= size)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	trim(buf);
	return 0;
}

static int
is_signature(const char *s, size_t n)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	return (n == 2 || n == 3) && strncmp(s, "-- ", n) == 0;
}

/* The first character that can start a quote-start line: a cheap test
 * before the pattern. */
static int
may_start_quote(const char *buf)
{
	return buf[0] != '\0' && strchr("-_OoLlAaFfSsBb", buf[0]) != NULL;
}

/* A line that begins a quoted earlier mail: "On ... wrote:", Outlook's
 * separators.  When the quoted lines that follow are marked with '>', the
 * reply may go on below them (bottom-posting): the attribution line alone
 * is skipped.  Otherwise everything after it is the quoted mail. */
enum quote_kind { Q_NONE = 0, Q_SKIP, Q_END };

/* A mail forwarded inline is the player's to send on: its separator and
 * its header block are skipped and what it forwards is read.  *fwd says
 * that the forwarded header block has begun. */
static enum quote_kind
quote_start(struct orders_parser *p, const char *buf, const char *rest,
    int *fwd)
{
	if (*fwd) {
		if (match(p, p->fwdhdr, buf, strlen(buf), 0))
			return Q_SKIP;
		*fwd = 0;
	}
	if (!may_start_quote(buf))
		return Q_NONE;
	if (match(p, p->fwd, buf, strlen(buf), 0)) {
		*fwd = 1;
		return Q_SKIP;
	}
	if (!match(p, p->quote, buf, strlen(buf), 0))
		return Q_NONE;
	/* Look at the next line with text. */
	while (rest != NULL && *rest) {
		const char *nl = strchr(rest, '\n');
		size_t n = nl ? (size_t)(nl - rest) : strlen(rest), i = 0;

		while (i < n && isspace((unsigned char)rest[i]))
			i++;
		if (i < n)
			return rest[i] == '>' ? Q_SKIP : Q_END;
		rest = nl ? nl + 1 : NULL;
	}
	return Q_END;
}

/* --- the header ------------------------------------------------------- */

enum hkey { HK_NONE = -1, HK_GAME = 0, HK_SIDE, HK_TURN, HK_SECRET };

static enum hkey
header_key(const char *w, size_t n)
{
	static const struct { const char *w; enum hkey k; } keys[] = {
		{ "game", HK_GAME }, { "side", HK_SIDE }, { "turn", HK_TURN },
		{ "password", HK_SECRET }, { "secret", HK_SECRET },
		{ "passwd", HK_SECRET }, { "pw", HK_SECRET },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].w) == n && strncasecmp(w, keys[i].w, n) == 0)
			return keys[i].k;
	return HK_NONE;
}

/* A turn written as a word or an ordinal: "one", "2nd", "third". */
static int
turn_value(const char *v)
{
	static const char *const card[] = { "one", "two", "three", "four",
		"five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
		"thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
		"eighteen", "nineteen", "twenty" };
	static const char *const ord[] = { "first", "second", "third",
		"fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
		"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
		"sixteenth", "seventeenth", "eighteenth", "nineteenth",
		"twentieth" };
	char *end;
	long n;
	int i;

	if (*v == '#')
		v++;
	if (isdigit((unsigned char)*v)) {
		n = strtol(v, &end, 10);
		if (*end == '\0' || strcasecmp(end, "st") == 0 ||
		    strcasecmp(end, "nd") == 0 || strcasecmp(end, "rd") == 0 ||
		    strcasecmp(end, "th") == 0)
			return n > 0 && n < 100000 ? (int)n : -1;
		return -1;
	}
	for (i = 0; i < 20; i++)
		if (strcasecmp(v, card[i]) == 0 || strcasecmp(v, ord[i]) == 0)
			return i + 1;
	return -1;
}

/* The words of one line, split at white space, ',' and ';', and a ':' or
 * '=' that ends a header word ("GAME:cw", "Side=crown"). */
#define HWORDS_MAX 48

struct hwords {
	int n;
	const char *w[HWORDS_MAX];
	size_t len[HWORDS_MAX];
	enum hkey key[HWORDS_MAX];
};

static void
split_words(const char *s, struct hwords *hw)
{
	hw->n = 0;
	while (*s && hw->n < HWORDS_MAX) {
		size_t n = 0;

		while (*s && (isspace((unsigned char)*s) || *s == ',' || *s == ';'))
			s++;
		if (*s == '\0')
			break;
		while (s[n] && !isspace((unsigned char)s[n]) && s[n] != ',' &&
		    s[n] != ';')
			n++;
		/* "GAME:cw" and "GAME:" are the key and its value. */
		{
			size_t k = 0;

			while (k < n && isalpha((unsigned char)s[k]))
				k++;
			if (k > 0 && k < n && (s[k] == ':' || s[k] == '=') &&
			    header_key(s, k) != HK_NONE) {
				hw->w[hw->n] = s;
				hw->len[hw->n] = k;
				hw->key[hw->n] = header_key(s, k);
				hw->n++;
				s += k + 1;
				continue;
			}
		}
		/* A lone ':' or '=' between a key and its value. */
		if (n == 1 && (*s == ':' || *s == '=')) {
			s++;
			continue;
		}
		hw->w[hw->n] = s;
		hw->len[hw->n] = n;
		hw->key[hw->n] = header_key(s, n);
		hw->n++;
		s += n;
	}
}

static void
set_value(struct orders_header *h, enum hkey k, const char *v, size_t n,
    unsigned *have)
{
	char val[128];

	/* A value longer than its field cannot name anything: keep it out
	 * rather than match a truncated name. */
	if (n >= sizeof(val))
		n = sizeof(val) - 1;
	memcpy(val, v, n);
	val[n] = '\0';
	if (k != HK_SECRET) {
		/* "cw." at the end of a sentence: the full stop is not part
		 * of the name. */
		while (n > 0 && strchr(".!?)", val[n - 1]))
			val[--n] = '\0';
	}
	switch (k) {
	case HK_GAME:
		if (strlen(val) < sizeof(h->game))
			memcpy(h->game, val, strlen(val) + 1);
		else
			h->game[0] = '\0';
		break;
	case HK_SIDE:
		if (strlen(val) < sizeof(h->side))
			memcpy(h->side, val, strlen(val) + 1);
		else
			h->side[0] = '\0';
		break;
	case HK_TURN:
		snprintf(h->turn_text, sizeof(h->turn_text), "%s", val);
		h->turn = turn_value(val);
		break;
	case HK_SECRET:
		snprintf(h->secret, sizeof(h->secret), "%s", val);
		break;
	default:
		return;
	}
	*have |= 1u << k;
}

/* Reads the header words of one line into h.  *pending is a key whose
 * value is wrapped onto this line (HK_NONE if none); on return, the key
 * that ends this line without a value.  Returns 1 when the line is a
 * header line: it is wholly header words and their values, or it holds
 * GAME and two more header words. */
static int
header_line(const char *s, struct orders_header *h, unsigned *have,
    enum hkey *pending)
{
	struct hwords hw;
	struct orders_header t = *h;
	unsigned th = *have;
	int i = 0, keys = 0, other = 0, game = 0;
	enum hkey pend = *pending;

	split_words(s, &hw);
	if (hw.n == 0)
		return 0;
	if (pend != HK_NONE) {
		set_value(&t, pend, hw.w[0], hw.len[0], &th);
		i = 1;
		keys++;
	}
	pend = HK_NONE;
	for (; i < hw.n; i++) {
		if (hw.key[i] == HK_NONE) {
			other++;
			continue;
		}
		/* "the game: GAME cw": a key followed by a key is no pair. */
		if (i + 1 < hw.n && hw.key[i + 1] != HK_NONE &&
		    !(hw.key[i] == HK_SECRET && hw.key[i + 1] == HK_SECRET)) {
			other++;
			continue;
		}
		if (hw.key[i] == HK_GAME)
			game = 1;
		keys++;
		if (i + 1 == hw.n) {
			pend = hw.key[i];
			break;
		}
		set_value(&t, hw.key[i], hw.w[i + 1], hw.len[i + 1], &th);
		i++;
	}
	if (!(keys > 0 && other == 0) && !(game && keys >= 3))
		return 0;
	*h = t;
	*have = th;
	*pending = pend;
	return 1;
}

/* Is this line an order ("NAME: VERB ...")?  Only its shape is looked at:
 * the word after the last colon is one of the ruleset's verbs. */
static int
looks_like_order(const struct ruleset *rs, const char *buf)
{
	const char *colon = strrchr(buf, ':');
	int i;

	if (colon == NULL || colon == buf)
		return 0;
	colon++;
	while (isspace((unsigned char)*colon))
		colon++;
	for (i = 0; i < rs->nverbs; i++) {
		const char *w = rs->verbs[i].word;
		size_t n = strcspn(w, " ");

		if (strncasecmp(colon, w, n) == 0 && !isalpha((unsigned char)colon[n]))
			return 1;
	}
	return 0;
}

#define HEADER_SCAN_LINES 200

int
orders_find_header(struct orders_parser *p, const char *subject,
    const char *body, struct orders_header *h)
{
	const char *s = body;
	struct orders_header cur, best;
	unsigned have = 0, best_have = 0;
	enum hkey pending = HK_NONE;
	int line = 0, in_block = 0, fwd = 0;

	memset(h, 0, sizeof(*h));
	memset(&cur, 0, sizeof(cur));
	memset(&best, 0, sizeof(best));
	while (s != NULL && *s && line < HEADER_SCAN_LINES) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX];
		const char *rest = nl ? nl + 1 : NULL;

		line++;
		if (is_signature(s, n))
			break;
		if (take_line(s, n, buf, sizeof(buf)) != 0)
			buf[0] = 'x', buf[1] = '\0';
		s = rest;
		if (buf[0] == '\0')
			continue;
		if (buf[0] == '>' || buf[0] == '|')
			continue;
		{
			enum quote_kind q = quote_start(p, buf, rest, &fwd);

			if (q == Q_SKIP)
				continue;
			if (q == Q_END)
				break;
		}
		if (header_line(buf, &cur, &have, &pending)) {
			if (!in_block)
				cur.first_line = line;
			cur.line = line;
			in_block = 1;
			continue;
		}
		pending = HK_NONE;
		if (in_block) {
			/* A block ends.  Keep it if it names a game; stop once
			 * one says more than GAME ("Game on!" is no header). */
			if (have & (1u << HK_GAME)) {
				best = cur;
				best_have = have;
				if (have & ~(1u << HK_GAME))
					break;
			}
			memset(&cur, 0, sizeof(cur));
			have = 0;
			in_block = 0;
		}
		if (looks_like_order(p->rs, buf))
			break;
	}
	if (in_block && (have & (1u << HK_GAME))) {
		best = cur;
		best_have = have;
	}
	if (best_have & (1u << HK_GAME)) {
		*h = best;
		h->found = 1;
	}
	/* The Subject: the header when the body has none, else it fills in
	 * what the body left out, if it names the same game. */
	if (subject != NULL) {
		struct orders_header sh;
		unsigned sh_have = 0;
		enum hkey sp = HK_NONE;

		memset(&sh, 0, sizeof(sh));
		if (header_line(subject, &sh, &sh_have, &sp) &&
		    (sh_have & (1u << HK_GAME))) {
			if (!h->found) {
				*h = sh;
				h->found = 1;
				h->line = h->first_line = 0;
			} else if (strcasecmp(sh.game, h->game) == 0) {
				if (!(best_have & (1u << HK_SIDE)))
					memcpy(h->side, sh.side, sizeof(h->side));
				if (!(best_have & (1u << HK_TURN))) {
					h->turn = sh.turn;
					memcpy(h->turn_text, sh.turn_text,
					    sizeof(h->turn_text));
				}
				if (!(best_have & (1u << HK_SECRET)))
					memcpy(h->secret, sh.secret, sizeof(h->secret));
			}
		}
		sodium_memzero(&sh, sizeof(sh));
	}
	sodium_memzero(&cur, sizeof(cur));
	sodium_memzero(&best, sizeof(best));
	return 0;
}

/* --- names ------------------------------------------------------------ */

static int
lev(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[128];

	if (la > 120)
		la = 120;
	if (lb > 120)
		lb = 120;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], tmp;

		row[0] = i;
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
		}
	}
	return row[lb];
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
static const struct { const char *abbr, *word; } abbrevs[] = {
	{ "bn", "battalion" }, { "btn", "battalion" }, { "batt", "battalion" },
	{ "bttn", "battalion" }, { "regt", "regiment" }, { "rgt", "regiment" },
	{ "inf", "infantry" }, { "cav", "cavalry" }, { "lt", "light" },
	{ "ld", "light dragoons" }, { "lds", "light dragoons" },
	{ "drag", "dragoons" }, { "drgns", "dragoons" }, { "dgns", "dragoons" },
	{ "art", "artillery" }, { "arty", "artillery" }, { "artl", "artillery" },
	{ "mil", "militia" }, { "va", "virginia" }, { "md", "maryland" },
	{ "nc", "north carolina" }, { "sc", "south carolina" },
	{ "ga", "georgia" }, { "del", "delaware" }, { "pa", "pennsylvania" },
	{ "nj", "new jersey" }, { "ny", "new york" }, { "gen", "general" },
	{ "col", "colonel" }, { "maj", "major" }, { "capt", "captain" },
	{ "cpt", "captain" }, { "hldrs", "highlanders" },
	{ "gren", "grenadiers" }, { "grens", "grenadiers" },
	{ "fus", "fusiliers" }, { "first", "1st" }, { "second", "2nd" },
	{ "third", "3rd" }, { "fourth", "4th" }, { "fifth", "5th" },
	{ "sixth", "6th" }, { "seventh", "7th" }, { "eighth", "8th" },
	{ "ninth", "9th" }, { "tenth", "10th" }, { "bde", "brigade" },
	{ "brig", "brigadier" }, { "cont", "continental" },
	{ "conts", "continentals" }, { "pdr", "pounder" },
};

#define NORM_MAX 256

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

			if (isalnum(u[0]) || u[0] >= 0x80 || u[0] == '\'')
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
			if (!(isalnum(u[0]) || u[0] >= 0x80 || u[0] == '\''))
				break;
			if (n + 1 < sizeof(w))
				w[n++] = (char)tolower(u[0]);
			in++;
		}
		w[n] = '\0';
		rep = w;
		for (j = 0; j < sizeof(abbrevs) / sizeof(abbrevs[0]); j++)
			if (strcmp(w, abbrevs[j].abbr) == 0) {
				rep = abbrevs[j].word;
				break;
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

enum who { WHO_OWN_UNIT = 1, WHO_OWN_CMD = 2, WHO_ENEMY_UNIT = 4,
	WHO_FRIEND_UNIT = 8, WHO_BRIGADE = 16 };

enum cand_kind { C_UNIT = 0, C_CMD, C_BRIGADE };

struct cand {
	const char *name;
	enum cand_kind kind;
	int idx;
	int side;
	char norm[NORM_MAX];
};

/* Every name of a battle, normalised once and kept while the parser reads
 * mails against the same battle (a checksum of the names says when). */
struct names {
	uint64_t sum;
	int n;
	struct cand c[BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS +
	    BATTLE_MAX_BRIGADES];
};

static void
names_free(struct names *n)
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

static struct names *
names_for(struct orders_parser *p, const struct battle *b)
{
	uint64_t sum = names_sum(b);
	struct names *nm = p->names;
	int i;

	if (nm != NULL && nm->sum == sum)
		return nm;
	if (nm == NULL) {
		nm = malloc(sizeof(*nm));
		if (nm == NULL)
			return NULL;
		p->names = nm;
	}
	nm->sum = sum;
	nm->n = 0;
	for (i = 0; i < b->nunits; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->units[i].name;
		c->kind = C_UNIT;
		c->idx = i;
		c->side = b->units[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
	}
	for (i = 0; i < b->ncommanders; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->commanders[i].name;
		c->kind = C_CMD;
		c->idx = i;
		c->side = b->commanders[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
	}
	for (i = 0; i < b->nbrigades; i++) {
		struct cand *c = &nm->c[nm->n++];

		c->name = b->brigades[i].name;
		c->kind = C_BRIGADE;
		c->idx = i;
		c->side = b->brigades[i].side;
		norm_name(c->name, c->norm, sizeof(c->norm));
	}
	return nm;
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
static int
resolve(struct orders_parser *p, const struct battle *b, int side,
    unsigned which, const char *name, const struct cand **out, char *msg,
    size_t msize, const char *what)
{
	struct names *nm = names_for(p, b);
	char t[NORM_MAX];
	size_t tl;
	int i, level, hits = 0, hit = -1;

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
	for (level = 0; level < 4; level++) {
		hits = 0;
		for (i = 0; i < nm->n; i++)
			if (wanted(&nm->c[i], side, which) &&
			    norm_matches(level, nm->c[i].norm, t, tl)) {
				if (hits == 0)
					hit = i;
				hits++;
			}
		if (hits == 1) {
			*out = &nm->c[hit];
			return 1;
		}
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

		fold_name(name, fname, sizeof(fname));
		l = strlen(fname);
		for (i = 0; i < nm->n; i++) {
			char cand[BATTLE_NAME_MAX * 2];
			const char *w;
			int d, j;

			if (!wanted(&nm->c[i], side, which))
				continue;
			fold_name(nm->c[i].name, cand, sizeof(cand));
			d = lev(cand, fname);
			for (w = cand; *w; w++) {
				char pre[128];

				if (w != cand && isalnum((unsigned char)w[-1]))
					continue;
				if (l < sizeof(pre) && strlen(w) >= l) {
					memcpy(pre, w, l);
					pre[l] = '\0';
					if (lev(pre, fname) < d)
						d = lev(pre, fname);
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

/* --- order lines ------------------------------------------------------ */

/* Copies at most max bytes of in to out (which holds max + 1), cutting at
 * a character boundary so a message quoting it stays valid UTF-8. */
static const char *
cut(const char *in, size_t max, char *out)
{
	size_t n = strlen(in);

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)in[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(out, in, n);
	out[n] = '\0';
	return out;
}

/* If text starts with the verb word (its words separated by any white
 * space, case ignored, then a space or the end), returns 1 and the offset
 * of what follows. */
static int
verb_at(const char *text, const char *word, size_t *rest)
{
	const char *t = text;

	for (; *word; word++) {
		if (*word == ' ') {
			if (!isspace((unsigned char)*t))
				return 0;
			while (isspace((unsigned char)*t))
				t++;
			continue;
		}
		if (tolower((unsigned char)*t) != tolower((unsigned char)*word))
			return 0;
		t++;
	}
	if (*t != '\0' && !isspace((unsigned char)*t))
		return 0;
	*rest = (size_t)(t - text);
	return 1;
}

static int
parse_step(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *text, struct order_step *st, char *msg,
    size_t msize)
{
	const struct ruleset *rs = p->rs;
	int i;

	for (i = 0; i < rs->nverbs; i++) {
		const struct verb_def *v = &rs->verbs[i];
		char arg[ORDERS_TEXT_MAX], a1[64], a2[64], short_arg[96];
		size_t alen, off;

		if (!verb_at(text, v->word, &off))
			continue;
		snprintf(arg, sizeof(arg), "%s", text + off);
		trim(arg);
		alen = strlen(arg);
		if (is_cmd && !v->for_commanders) {
			snprintf(msg, msize, "%s is an order for units, not "
			    "commanders (commanders take MOVE TO, JOIN and HOLD)",
			    v->word);
			return -1;
		}
		if (!is_cmd && !v->for_units) {
			snprintf(msg, msize, "%s is an order for commanders",
			    v->word);
			return -1;
		}
		memset(st, 0, sizeof(*st));
		st->verb = v->verb;
		st->target = -1;
		switch (v->arg) {
		case ARG_NONE:
			if (alen > 0) {
				snprintf(msg, msize, "%s takes nothing after it, "
				    "but \"%s\" follows", v->word, cut(arg, 80, short_arg));
				return -1;
			}
			return 0;
		case ARG_DIST:
			if (!match(p, p->dist, arg, alen, 0)) {
				snprintf(msg, msize, "%s needs a distance in inches, "
				    "for example \"%s 8\"", v->word, v->word);
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			if (geom_parse_fx(a1, &st->dist) != 0 || st->dist <= 0 ||
			    st->dist > FX(200)) {
				snprintf(msg, msize, "%s needs a distance from 0.01 "
				    "to 200 inches", v->word);
				return -1;
			}
			return 0;
		case ARG_POINT:
			if (!match(p, p->point, arg, alen, 0)) {
				snprintf(msg, msize, "%s needs a point x,y in inches, "
				    "for example \"%s 36,20\"", v->word, v->word);
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			group(p, arg, 2, a2, sizeof(a2));
			if (geom_parse_fx(a1, &st->pt.x) != 0 ||
			    geom_parse_fx(a2, &st->pt.y) != 0 ||
			    st->pt.x > b->width || st->pt.y > b->depth) {
				char w[24], d[24];

				snprintf(msg, msize, "%s is off the table (0,0 to "
				    "%s,%s)", cut(arg, 40, short_arg),
				    geom_fmt_fx(b->width, w, sizeof(w)),
				    geom_fmt_fx(b->depth, d, sizeof(d)));
				return -1;
			}
			return 0;
		case ARG_TURN:
			if (!match(p, p->turn, arg, alen, 0)) {
				snprintf(msg, msize, "WHEEL needs LEFT or RIGHT and "
				    "degrees, for example \"WHEEL LEFT 45\"");
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			group(p, arg, 2, a2, sizeof(a2));
			st->angle = atoi(a2);
			if (st->angle < 1 || st->angle > 180) {
				snprintf(msg, msize, "a wheel is 1 to 180 degrees");
				return -1;
			}
			if (strcasecmp(a1, "LEFT") == 0)
				st->angle = -st->angle;
			return 0;
		case ARG_BEARING:
			if (!match(p, p->bearing, arg, alen, 0) || atoi(arg) > 359) {
				snprintf(msg, msize, "FACE needs a bearing from 0 to "
				    "359 (0 north, 90 east, 180 south, 270 west)");
				return -1;
			}
			st->angle = atoi(arg);
			return 0;
		case ARG_FORMATION:
			if (battle_form_parse(arg, &st->form) != 0) {
				snprintf(msg, msize, "FORM takes LINE, SKIRMISH, "
				    "ROAD, MOUNTED or DISMOUNTED, not \"%s\"",
				    cut(arg, 40, short_arg));
				return -1;
			}
			{
				const struct unit *u = &b->units[who];
				int mounted = u->kind == KIND_MOUNTED;

				if (strcasecmp(arg, "MOUNTED") == 0 && !mounted) {
					snprintf(msg, msize, "%s has no horses: FORM "
					    "MOUNTED is for cavalry (infantry forms LINE)",
					    u->name);
					return -1;
				}
				if (strcasecmp(arg, "LINE") == 0 && mounted) {
					snprintf(msg, msize, "%s is cavalry: it forms "
					    "MOUNTED, SKIRMISH or ROAD", u->name);
					return -1;
				}
				if (st->form == FORM_DISMOUNTED) {
					snprintf(msg, msize, "%s cannot dismount: no "
					    "troop type in this ruleset fights on foot "
					    "as well as mounted", u->name);
					return -1;
				}
				if (st->form == FORM_SKIRMISH &&
				    u->kind != KIND_DETACHMENT && !mounted) {
					snprintf(msg, msize, "%s cannot take skirmish "
					    "order: only detachments and mounted stands "
					    "can", u->name);
					return -1;
				}
			}
			return 0;
		case ARG_ENEMY:
		case ARG_FRIEND: {
			const struct cand *c;

			if (alen == 0) {
				snprintf(msg, msize, "%s needs a unit's name",
				    v->word);
				return -1;
			}
			if (resolve(p, b, side, v->arg == ARG_ENEMY ?
			    WHO_ENEMY_UNIT : WHO_FRIEND_UNIT, arg, &c, msg, msize,
			    v->arg == ARG_ENEMY ? "enemy unit" : "unit of yours") != 1)
				return -1;
			st->target = c->idx;
			return 0;
		}
		}
	}
	{
		char short_text[96], first[32];
		size_t k, n = strcspn(text, " \t");
		int best = -1, bd = 1 << 30;

		/* A misspelt verb: the nearest verb by its first word. */
		if (n >= 3 && n < sizeof(first)) {
			memcpy(first, text, n);
			first[n] = '\0';
			for (i = 0; i < rs->nverbs; i++) {
				char vw[32];
				size_t vn = strcspn(rs->verbs[i].word, " ");
				int d;

				if (vn >= sizeof(vw))
					continue;
				memcpy(vw, rs->verbs[i].word, vn);
				vw[vn] = '\0';
				d = lev(first, vw);
				if (d < bd) {
					bd = d;
					best = i;
				}
			}
		}
		if (best >= 0 && bd <= (n <= 4 ? 1 : 2)) {
			snprintf(msg, msize, "\"%s\" is not an order I know; did "
			    "you mean %s?", cut(text, 80, short_text),
			    rs->verbs[best].word);
			return -1;
		}
		k = (size_t)snprintf(msg, msize, "\"%s\" is not an order I "
		    "know; orders are", cut(text, 80, short_text));
		for (i = 0; i < rs->nverbs && k < msize; i++)
			k += (size_t)snprintf(msg + k, msize - k, "%s %s",
			    i ? "," : "", rs->verbs[i].word);
	}
	return -1;
}

static void
add_line(struct orders_result *out, int line, enum orders_status st,
    const char *raw, const char *text)
{
	struct orders_line *l;

	if (out->nlines == ORDERS_MAX_LINES) {
		out->too_many = 1;
		if (st == ORDERS_ERROR)
			out->nerrors++;
		return;
	}
	l = &out->lines[out->nlines++];
	l->line = line;
	l->status = st;
	snprintf(l->raw, sizeof(l->raw), "%s", raw);
	snprintf(l->text, sizeof(l->text), "%s", text);
	utf8_trim_tail(l->raw);
	utf8_trim_tail(l->text);
	if (st == ORDERS_ERROR)
		out->nerrors++;
	else if (st == ORDERS_PROSE)
		out->nprose++;
}

/* Does the line hold one of the ruleset's verbs as a word? */
static int
has_verb_word(const struct ruleset *rs, const char *buf)
{
	const char *w;
	int i;

	for (w = buf; *w; w++) {
		if (w != buf && isalnum((unsigned char)w[-1]))
			continue;
		if (!isalpha((unsigned char)*w))
			continue;
		for (i = 0; i < rs->nverbs; i++) {
			size_t off;

			if (verb_at(w, rs->verbs[i].word, &off))
				return 1;
		}
	}
	return 0;
}

const char *
orders_cmd_word(enum orders_cmd_kind k)
{
	static const char *const w[CMD_COUNT] = { "HELP", "STATUS", "ORDERS",
		"RESEND", "PRESS", "WAIT", "READY", "CONCEDE" };

	return (unsigned)k < CMD_COUNT ? w[k] : "?";
}

/* A mail command on a line of its own.  Returns 1 and fills *c, 0 if the
 * line is not one, -1 (with msg) if it is one written wrongly. */
static int
parse_command(struct orders_parser *p, const char *buf, struct orders_cmd *c,
    char *msg, size_t msize)
{
	char word[16], arg[ORDERS_TEXT_MAX];
	int k;

	if (!match(p, p->cmd, buf, strlen(buf), 0))
		return 0;
	group(p, buf, 1, word, sizeof(word));
	group(p, buf, 2, arg, sizeof(arg));
	memset(c, 0, sizeof(*c));
	for (k = 0; k < CMD_COUNT; k++)
		if (strcasecmp(word, orders_cmd_word(k)) == 0)
			break;
	c->kind = (enum orders_cmd_kind)k;
	switch (c->kind) {
	case CMD_PRESS: {
		/* PRESS TO <side|all> "text" (or the text without quotes,
		 * after a colon or not). */
		char *t = arg, *q;
		size_t n;

		if (strncasecmp(t, "TO", 2) != 0 || !isspace((unsigned char)t[2])) {
			snprintf(msg, msize, "PRESS needs an addressee: PRESS TO "
			    "<side or all> \"your message\"");
			return -1;
		}
		t += 3;
		while (isspace((unsigned char)*t))
			t++;
		n = strcspn(t, " \t:\"");
		if (n == 0 || n >= sizeof(c->arg)) {
			snprintf(msg, msize, "PRESS needs an addressee: PRESS TO "
			    "<side or all> \"your message\"");
			return -1;
		}
		memcpy(c->arg, t, n);
		c->arg[n] = '\0';
		t += n;
		while (isspace((unsigned char)*t) || *t == ':')
			t++;
		/* Straight or curly quotes around the text. */
		if (*t == '"') {
			t++;
		} else if ((unsigned char)t[0] == 0xe2 &&
		    (unsigned char)t[1] == 0x80 && (unsigned char)t[2] == 0x9c) {
			t += 3;
		}
		n = strlen(t);
		q = t + n;
		if (n > 0 && q[-1] == '"')
			q[-1] = '\0';
		else if (n >= 3 && (unsigned char)q[-3] == 0xe2 &&
		    (unsigned char)q[-2] == 0x80 && (unsigned char)q[-1] == 0x9d)
			q[-3] = '\0';
		snprintf(c->text, sizeof(c->text), "%s", t);
		trim(c->text);
		return 1;
	}
	case CMD_CONCEDE:
		if (strlen(arg) >= sizeof(c->arg) || strchr(arg, ' ') != NULL) {
			snprintf(msg, msize, "CONCEDE takes nothing after it, or the "
			    "code from the reply to your first CONCEDE");
			return -1;
		}
		snprintf(c->arg, sizeof(c->arg), "%s", arg);
		return 1;
	default:
		/* "Help me with the map" is prose, not the command. */
		return arg[0] == '\0' ? 1 : 0;
	}
}

int
orders_bare_command(struct orders_parser *p, const char *body)
{
	const char *s = body;

	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX], msg[64];
		struct orders_cmd *c;
		int rc;

		s = nl ? nl + 1 : NULL;
		if (take_line(s ? s - n - 1 : body + strlen(body) - n, n, buf,
		    sizeof(buf)) != 0)
			return -1;
		if (buf[0] == '\0' || buf[0] == '>')
			continue;
		c = malloc(sizeof(*c));
		if (c == NULL)
			return -1;
		rc = parse_command(p, buf, c, msg, sizeof(msg));
		rc = rc == 1 ? (int)c->kind : -1;
		free(c);
		return rc;
	}
	return -1;
}

const char *
orders_line_raw(const struct orders_result *r, int line)
{
	int i;

	for (i = 0; i < r->nlines; i++)
		if (r->lines[i].line == line)
			return r->lines[i].raw;
	return "";
}

/* Reads "VERB ARGS [THEN VERB ARGS]..." for one unit or commander into o.
 * Returns 0, or -1 with msg. */
static int
parse_chain(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *what, struct order *o, char *msg,
    size_t msize)
{
	size_t start = 0, wl = strlen(what);

	if (wl == 0) {
		snprintf(msg, msize, "the order is missing after the colon");
		return -1;
	}
	for (;;) {
		char part[ORDERS_TEXT_MAX];
		size_t end = wl, next = wl;

		if (match(p, p->then, what, wl, start)) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);

			end = ov[0];
			next = ov[1];
		}
		memcpy(part, what + start, end - start);
		part[end - start] = '\0';
		trim(part);
		if (o->nsteps == ORDER_MAX_STEPS) {
			snprintf(msg, msize, "at most %d orders can be joined with "
			    "THEN", ORDER_MAX_STEPS);
			return -1;
		}
		if (parse_step(p, b, side, is_cmd, who, part, &o->steps[o->nsteps],
		    msg, msize) != 0)
			return -1;
		o->nsteps++;
		if (next >= wl)
			return 0;
		start = next;
	}
}

/* "Howard's brigade", "Main Line brigade", "the Reserve": the name of a
 * brigade, or of its commander with "brigade" after it.  Returns the
 * brigade, or -1 with msg. */
static int
resolve_brigade(struct orders_parser *p, const struct battle *b, int side,
    const char *who, char *msg, size_t msize)
{
	char name[ORDERS_TEXT_MAX];
	const struct cand *c;
	size_t n;
	int said_brigade = 0;

	snprintf(name, sizeof(name), "%s", who);
	n = strlen(name);
	if (n > 8 && strcasecmp(name + n - 8, " brigade") == 0) {
		name[n - 8] = '\0';
		said_brigade = 1;
	} else if (n > 4 && strcasecmp(name + n - 4, " bde") == 0) {
		name[n - 4] = '\0';
		said_brigade = 1;
	}
	trim(name);
	n = strlen(name);
	/* The possessive: "Howard's", "Howard’s". */
	if (n > 2 && strcasecmp(name + n - 2, "'s") == 0)
		name[n - 2] = '\0';
	else if (n > 4 && strcmp(name + n - 4, "\xe2\x80\x99s") == 0)
		name[n - 4] = '\0';
	if (resolve(p, b, side, WHO_BRIGADE, name, &c, msg, msize,
	    "brigade of yours") == 1)
		return c->idx;
	if (said_brigade) {
		char m2[ORDERS_TEXT_MAX];

		if (resolve(p, b, side, WHO_OWN_CMD, name, &c, m2, sizeof(m2),
		    "commander of yours") == 1 && c->kind == C_CMD &&
		    b->commanders[c->idx].brigade >= 0)
			return b->commanders[c->idx].brigade;
	}
	return -1;
}

/* With a limit: may the player order brigade br (-1: the army
 * commander)?  If not, msg says whose it is. */
static int
allowed(const struct orders_parser *p, const struct battle *b, int br,
    const char *name, char *msg, size_t msize)
{
	size_t k;
	int i, n = 0;

	if (p->limit == 0 || (br < 0 && p->limit_army) ||
	    (br >= 0 && br < 64 && (p->limit >> br & 1u)))
		return 1;
	if (br < 0)
		k = (size_t)snprintf(msg, msize, "%s is the army commander, whom "
		    "another player of your side orders; yours are", name);
	else
		k = (size_t)snprintf(msg, msize, "%s is in the %s brigade, which "
		    "another player of your side commands; yours are", name,
		    b->brigades[br].name);
	for (i = 0; i < b->nbrigades && i < 64 && k < msize; i++)
		if (p->limit >> i & 1u)
			k += (size_t)snprintf(msg + k, msize - k, "%s %s", n++ ? "," :
			    "", b->brigades[i].name);
	if (p->limit_army && k < msize)
		snprintf(msg + k, msize - k, "%s the army commander", n ? " and" : "");
	return 0;
}

/* One brigade line, expanded to the brigade's units when the mail is read
 * to its end (a unit's own line, before or after, wins). */
struct bline {
	int line;          /* in the mail */
	int standing;      /* a STANDING: line */
	int li;            /* its entry in out->lines */
	int brigade;
	char what[ORDERS_TEXT_MAX];
};

#define BLINES_MAX 32

static void
expand_brigades(struct orders_parser *p, const struct battle *b, int side,
    const struct bline *bl, int nbl, const int *seen_units,
    const int *standing_units, struct orders_result *out)
{
	int k, u;

	for (k = 0; k < nbl; k++) {
		struct order_set *set = bl[k].standing ? &out->standing : &out->set;
		const int *seen_unit = bl[k].standing ? standing_units : seen_units;
		struct orders_line *l = bl[k].li >= 0 ? &out->lines[bl[k].li] : NULL;
		char echo[ORDERS_TEXT_MAX], bad[ORDERS_TEXT_MAX] = "";
		size_t e;
		int count = 0;

		e = (size_t)snprintf(echo, sizeof(echo), "%s (brigade): %s, for",
		    b->brigades[bl[k].brigade].name, bl[k].what);
		for (u = 0; u < b->nunits; u++) {
			struct order o;
			char msg[ORDERS_TEXT_MAX];

			if (b->units[u].brigade != bl[k].brigade ||
			    b->units[u].side != side || seen_unit[u] != 0 ||
			    battle_unit_alive(b, u) == 0)
				continue;
			memset(&o, 0, sizeof(o));
			o.who = u;
			o.line = bl[k].line;
			if (parse_chain(p, b, side, 0, u, bl[k].what, &o, msg,
			    sizeof(msg)) != 0) {
				if (bad[0] == '\0') {
					size_t bk = (size_t)snprintf(bad, sizeof(bad),
					    "; not for %s: ", b->units[u].name);

					if (bk < sizeof(bad))
						snprintf(bad + bk, sizeof(bad) - bk, "%.*s",
						    (int)(sizeof(bad) - bk - 1), msg);
				}
				continue;
			}
			/* In line order with the rest of the set. */
			if (set->n < ORDER_SET_MAX) {
				int at = set->n;

				while (at > 0 && set->orders[at - 1].line > o.line)
					at--;
				memmove(&set->orders[at + 1], &set->orders[at],
				    (size_t)(set->n - at) * sizeof(o));
				set->orders[at] = o;
				set->n++;
			}
			if (e < sizeof(echo))
				e += (size_t)snprintf(echo + e, sizeof(echo) - e, "%s %s",
				    count ? "," : "", b->units[u].name);
			count++;
		}
		if (l == NULL)
			continue;
		if (count == 0) {
			snprintf(l->text, sizeof(l->text), "%s", bad[0] ? bad + 2 :
			    "every unit of the brigade has its own order or is "
			    "off the table");
			l->status = ORDERS_ERROR;
			out->nerrors++;
		} else {
			snprintf(l->text, sizeof(l->text), "%s%s", echo, bad);
			utf8_trim_tail(l->text);
		}
	}
}

int
orders_parse(struct orders_parser *p, const struct battle *b, int side,
    const char *body, int header_line, struct orders_result *out)
{
	const char *s = body;
	int line = 0, nbl = 0, block = 0, mark = 0, marking = 0, i, fwd = 0;
	int seen[2][BATTLE_MAX_UNITS], seen_c[2][BATTLE_MAX_COMMANDERS];
	struct bline *bl = NULL;

	memset(out, 0, offsetof(struct orders_result, set));
	out->set.side = side;
	out->set.n = 0;
	out->standing.side = side;
	out->standing.n = 0;
	out->standing_lines = 0;
	out->standing_clear = 0;
	out->ncmds = 0;
	out->cmds_dropped = 0;
	memset(seen, 0, sizeof(seen));
	memset(seen_c, 0, sizeof(seen_c));
	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX], who[ORDERS_TEXT_MAX], what[ORDERS_TEXT_MAX];
		char msg[ORDERS_TEXT_MAX];
		const char *ls = s;
		const struct cand *c;
		struct order o;
		char *colon;
		int standing = 0, *seen_unit, *seen_cmd;
		struct order_set *set;

		/* The lines the last line added are standing ones if it was. */
		for (i = mark; i < out->nlines; i++)
			out->lines[i].standing = marking;
		mark = out->nlines;
		marking = 0;
		line++;
		s = nl ? nl + 1 : NULL;
		if (line <= header_line)
			continue;
		if (is_signature(ls, n))
			break;  /* a signature follows */
		if (take_line(ls, n, buf, sizeof(buf)) != 0) {
			add_line(out, line, ORDERS_ERROR, "(a very long line)",
			    "the line is too long (at most 500 characters)");
			continue;
		}
		if (buf[0] == '\0') {
			block = 0;   /* a blank line ends a STANDING: block */
			continue;
		}
		if (buf[0] == '#' || buf[0] == '>')
			continue;
		/* A comment after an order: "7th: ADVANCE 8  # to the fence". */
		{
			char *hash = strstr(buf, " #");

			if (hash != NULL) {
				*hash = '\0';
				trim(buf);
			}
		}
		/* A quoted earlier mail (Outlook's "Original Message", "On ...
		 * wrote:") ends the orders when its lines are not marked with
		 * '>': the report or welcome it quotes is not orders. */
		{
			enum quote_kind q = quote_start(p, buf, s, &fwd);

			if (q == Q_SKIP)
				continue;
			if (q == Q_END)
				break;
		}
		/* A mail command on its own line. */
		{
			struct orders_cmd *cmd = out->ncmds < ORDERS_MAX_CMDS ?
			    &out->cmds[out->ncmds] : NULL;
			struct orders_cmd spare;
			int rc = parse_command(p, buf, cmd ? cmd : &spare, msg,
			    sizeof(msg));

			if (rc < 0) {
				add_line(out, line, ORDERS_ERROR, buf, msg);
				continue;
			}
			if (rc > 0) {
				if (cmd != NULL) {
					cmd->line = line;
					out->ncmds++;
				} else {
					out->cmds_dropped++;
				}
				add_line(out, line, ORDERS_COMMAND, buf,
				    orders_cmd_word((cmd ? cmd : &spare)->kind));
				continue;
			}
		}
		/* Standing orders: "STANDING: 7th: HOLD", or a "STANDING:"
		 * line and the order lines under it up to a blank line. */
		if (strncasecmp(buf, "standing", 8) == 0 &&
		    (buf[8] == ':' || buf[8] == ' ' || buf[8] == '\0')) {
			char *r = buf + 8;

			while (*r == ' ')
				r++;
			if (strncasecmp(r, "orders", 6) == 0 &&
			    (r[6] == ':' || r[6] == ' ' || r[6] == '\0'))
				r += 6;
			while (*r == ' ' || *r == ':')
				r++;
			if (*r == '\0') {
				block = 1;
				add_line(out, line, ORDERS_PROSE, buf, "");
				continue;
			}
			if (strcasecmp(r, "none") == 0) {
				out->standing_clear = 1;
				out->standing_lines++;
				add_line(out, line, ORDERS_OK, buf, "STANDING: NONE");
				marking = 1;
				continue;
			}
			memmove(buf, r, strlen(r) + 1);
			standing = 1;
		} else if (block) {
			standing = 1;
		}
		marking = standing;
		seen_unit = seen[standing];
		seen_cmd = seen_c[standing];
		set = standing ? &out->standing : &out->set;
		if (standing)
			out->standing_lines++;
		colon = strrchr(buf, ':');
		if (colon != NULL && colon[1] == '\0') {
			/* "7th Foot:" is an order with its verb missing;
			 * "Orders:" or "Dear Sir:" is a heading. */
			*colon = '\0';
			snprintf(who, sizeof(who), "%s", buf);
			*colon = ':';
			trim(who);
			if (resolve(p, b, side, WHO_OWN_UNIT | WHO_OWN_CMD, who, &c,
			    msg, sizeof(msg), "unit") == 1) {
				add_line(out, line, ORDERS_ERROR, buf, "the order is "
				    "missing after the colon");
				continue;
			}
		}
		if (colon == NULL || colon[1] == '\0') {
			/* Prose: a greeting, a heading ("Orders:"), a remark or
			 * a sign-off.  Ignored unless it reads like an order
			 * without its colon. */
			if (!has_verb_word(p->rs, buf)) {
				add_line(out, line, ORDERS_PROSE, buf, "");
				continue;
			}
			add_line(out, line, ORDERS_ERROR, buf, "expected \"UNIT: "
			    "ORDER\", for example \"7th Foot: ADVANCE 8\" (the "
			    "colon is missing)");
			continue;
		}
		/* The name runs to the last colon. */
		*colon = '\0';
		snprintf(who, sizeof(who), "%s", buf);
		trim(who);
		snprintf(what, sizeof(what), "%s", colon + 1);
		trim(what);
		*colon = ':';
		if (resolve(p, b, side, WHO_OWN_UNIT | WHO_OWN_CMD, who, &c, msg,
		    sizeof(msg), "unit or commander of yours") != 1) {
			char m2[ORDERS_TEXT_MAX];
			int br = strchr(msg, '"') != NULL && strstr(msg,
			    "could be more than one") != NULL ? -1 :
			    resolve_brigade(p, b, side, who, m2, sizeof(m2));

			if (br < 0) {
				add_line(out, line, ORDERS_ERROR, buf, msg);
				continue;
			}
			if (!allowed(p, b, br, b->brigades[br].name, msg,
			    sizeof(msg))) {
				add_line(out, line, ORDERS_ERROR, buf, msg);
				continue;
			}
			if (bl == NULL)
				bl = calloc(BLINES_MAX, sizeof(*bl));
			if (bl == NULL || nbl == BLINES_MAX) {
				add_line(out, line, ORDERS_ERROR, buf, "too many "
				    "brigade orders in one mail");
				continue;
			}
			bl[nbl].line = line;
			bl[nbl].standing = standing;
			bl[nbl].brigade = br;
			snprintf(bl[nbl].what, sizeof(bl[nbl].what), "%s", what);
			bl[nbl].li = out->nlines < ORDERS_MAX_LINES ? out->nlines : -1;
			nbl++;
			add_line(out, line, ORDERS_OK, buf, "");
			continue;
		}
		if (!allowed(p, b, c->kind == C_CMD ? b->commanders[c->idx].brigade :
		    b->units[c->idx].brigade, c->name, msg, sizeof(msg))) {
			add_line(out, line, ORDERS_ERROR, buf, msg);
			continue;
		}
		if (c->kind == C_CMD ? seen_cmd[c->idx] != 0 : seen_unit[c->idx] > 0) {
			snprintf(msg, sizeof(msg), "%s already has orders on line "
			    "%d; give a unit one line, joining orders with THEN",
			    c->name, c->kind == C_CMD ? seen_cmd[c->idx] :
			    seen_unit[c->idx]);
			add_line(out, line, ORDERS_ERROR, buf, msg);
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.is_commander = c->kind == C_CMD;
		o.who = c->idx;
		o.line = line;
		if (parse_chain(p, b, side, o.is_commander, c->idx, what, &o, msg,
		    sizeof(msg)) != 0) {
			add_line(out, line, ORDERS_ERROR, buf, msg);
			continue;
		}
		if (o.is_commander)
			seen_cmd[c->idx] = line;
		else
			seen_unit[c->idx] = line;
		if (set->n < ORDER_SET_MAX)
			set->orders[set->n++] = o;
		orders_canonical(b, &o, msg, sizeof(msg));
		add_line(out, line, ORDERS_OK, buf, msg);
	}
	for (i = mark; i < out->nlines; i++)
		out->lines[i].standing = marking;
	if (nbl > 0)
		expand_brigades(p, b, side, bl, nbl, seen[0], seen[1], out);
	free(bl);
	return 0;
}

static const char *
verb_word(enum verb v)
{
	static const char *const w[V_COUNT] = {
		"ADVANCE", "MOVE TO", "WHEEL", "FACE", "FORM", "FIRE AT",
		"CHARGE", "HOLD", "REFORM", "JOIN"
	};

	return (unsigned)v < V_COUNT ? w[v] : "?";
}

void
orders_canonical(const struct battle *b, const struct order *o, char *buf,
    size_t size)
{
	size_t k;
	int i;

	k = (size_t)snprintf(buf, size, "%s:", o->is_commander ?
	    b->commanders[o->who].name : b->units[o->who].name);
	for (i = 0; i < o->nsteps && k < size; i++) {
		const struct order_step *st = &o->steps[i];
		char x[24], y[24];

		k += (size_t)snprintf(buf + k, size - k, "%s %s", i ? " THEN" : "",
		    verb_word(st->verb));
		if (k >= size)
			break;
		switch (st->verb) {
		case V_ADVANCE:
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    geom_fmt_fx(st->dist, x, sizeof(x)));
			break;
		case V_MOVE_TO:
			k += (size_t)snprintf(buf + k, size - k, " %s,%s",
			    geom_fmt_fx(st->pt.x, x, sizeof(x)),
			    geom_fmt_fx(st->pt.y, y, sizeof(y)));
			break;
		case V_WHEEL:
			k += (size_t)snprintf(buf + k, size - k, " %s %d",
			    st->angle < 0 ? "LEFT" : "RIGHT", abs(st->angle));
			break;
		case V_FACE:
			k += (size_t)snprintf(buf + k, size - k, " %d", st->angle);
			break;
		case V_FORM: {
			char f[16];
			const char *n = battle_form_name(st->form);
			size_t j;

			for (j = 0; n[j] && j + 1 < sizeof(f); j++)
				f[j] = (char)toupper((unsigned char)n[j]);
			f[j] = '\0';
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    st->form != FORM_LINE ? f : !o->is_commander &&
			    b->units[o->who].kind == KIND_MOUNTED ? "MOUNTED" :
			    "LINE");
			break;
		}
		case V_FIRE_AT:
		case V_CHARGE:
		case V_JOIN:
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    b->units[st->target].name);
			break;
		default:
			break;
		}
	}
}

int
orders_blank_secret(char *buf, size_t len, const char *secret)
{
	size_t n = strlen(secret), i;
	int count = 0;

	if (n == 0 || n > len)
		return 0;
	for (i = 0; i + n <= len; i++)
		if (memcmp(buf + i, secret, n) == 0) {
			memset(buf + i, '*', n);
			count++;
			i += n - 1;
		}
	return count;
}
