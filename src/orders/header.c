/*
 * header.c - finding the header of an order mail: GAME (or CAMPAIGN),
 * SIDE, TURN and PASSWORD in any order and layout, in the body or the
 * Subject, never in quoted text (docs/orders.md); and the lines a player
 * wrote after it, for orders in another language than the battle's.
 */
#include <sodium.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "orders/internal.h"

/* --- the header ------------------------------------------------------- */

enum hkey { HK_NONE = -1, HK_GAME = 0, HK_SIDE, HK_TURN, HK_SECRET };

static enum hkey
header_key(const char *w, size_t n)
{
	static const struct { const char *w; enum hkey k; } keys[] = {
		{ "game", HK_GAME }, { "campaign", HK_GAME }, { "side", HK_SIDE },
		{ "turn", HK_TURN },
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
	static const char *const cardinal[] = { "one", "two", "three", "four",
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
			/* 0: the deployment, read as the open phase */
			return n >= 0 && n < 100000 ? (int)n : -1;
		return -1;
	}
	for (i = 0; i < 20; i++)
		if (strcasecmp(v, cardinal[i]) == 0 || strcasecmp(v, ord[i]) == 0)
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

/* val into the name field f of size bytes when it fits whole, else an
 * empty name. */
static void
set_name(char *f, size_t size, const char *val)
{
	size_t n = strlen(val);

	if (n < size)
		memcpy(f, val, n + 1);
	else
		f[0] = '\0';
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
		set_name(h->game, sizeof(h->game), val);
		break;
	case HK_SIDE:
		set_name(h->side, sizeof(h->side), val);
		break;
	case HK_TURN:
		snprintf(h->turn_text, sizeof(h->turn_text), "%.*s",
		    (int)sizeof(h->turn_text) - 1, val);
		utf8_trim_tail(h->turn_text);
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
		if (hw.key[i] == HK_GAME) {
			game = 1;
			/* CAMPAIGN names a campaign where GAME names a game. */
			t.campaign = hw.len[i] == 8 &&
			    strncasecmp(hw.w[i], "campaign", 8) == 0;
		}
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

/* The block of header lines the scan is in, and what it keeps. */
struct hscan {
	struct orders_header cur, best, part;
	unsigned have, best_have, part_have;
};

/* A block of header lines has ended: keep it if it names a game (the
 * first that says more than GAME ends the search: 1), or, the first
 * block without GAME that says two things, as a part the Subject's GAME
 * may complete. */
static int
block_ends(struct hscan *sc)
{
	unsigned rest = sc->have & ~(1u << HK_GAME);
	int done = 0;

	if (sc->have & (1u << HK_GAME)) {
		sc->best = sc->cur;
		sc->best_have = sc->have;
		done = rest != 0;
	} else if (sc->part_have == 0 && (rest & (rest - 1)) != 0) {
		sc->part = sc->cur;
		sc->part_have = sc->have;
	}
	memset(&sc->cur, 0, sizeof(sc->cur));
	sc->have = 0;
	return done;
}

/* Fills what h lacks (have says what it has) from the Subject's sh. */
static void
fill_from(struct orders_header *h, unsigned have, const struct orders_header *sh,
    unsigned sh_have)
{
	if (!(have & (1u << HK_GAME)) && (sh_have & (1u << HK_GAME))) {
		memcpy(h->game, sh->game, sizeof(h->game));
		h->campaign = sh->campaign;
	}
	if (!(have & (1u << HK_SIDE)) && (sh_have & (1u << HK_SIDE)))
		memcpy(h->side, sh->side, sizeof(h->side));
	if (!(have & (1u << HK_TURN)) && (sh_have & (1u << HK_TURN))) {
		h->turn = sh->turn;
		memcpy(h->turn_text, sh->turn_text, sizeof(h->turn_text));
	}
	if (!(have & (1u << HK_SECRET)) && (sh_have & (1u << HK_SECRET)))
		memcpy(h->secret, sh->secret, sizeof(h->secret));
}

int
orders_find_header(struct orders_parser *p, const char *subject,
    const char *body, struct orders_header *h)
{
	const char *s = body;
	struct hscan sc;
	struct orders_header sh;
	unsigned sh_have = 0;
	enum hkey pending = HK_NONE;
	int line = 0, in_block = 0, fwd = 0, subj = 0;

	memset(h, 0, sizeof(*h));
	memset(&sc, 0, sizeof(sc));
	memset(&sh, 0, sizeof(sh));
	while (s != NULL && *s && line < HEADER_SCAN_LINES) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX];
		const char *rest = nl ? nl + 1 : NULL;

		line++;
		if (orders_is_signature(s, n))
			break;
		if (orders_take_line(s, n, buf, sizeof(buf)) != 0)
			buf[0] = 'x', buf[1] = '\0';
		/* A client's no-break or other Unicode space between the
		 * header's words is a space ("GAME\u00a0cw"). */
		orders_fold_spaces(buf);
		s = rest;
		if (buf[0] == '\0')
			continue;
		if (buf[0] == '>' || buf[0] == '|')
			continue;
		{
			enum quote_kind q = orders_quote_start(p, buf, strlen(buf), rest,
			    &fwd);

			if (q == Q_SKIP)
				continue;
			if (q == Q_END)
				break;
		}
		if (header_line(buf, &sc.cur, &sc.have, &pending)) {
			if (!in_block)
				sc.cur.first_line = line;
			sc.cur.line = line;
			in_block = 1;
			continue;
		}
		pending = HK_NONE;
		if (in_block) {
			in_block = 0;
			if (block_ends(&sc))
				break;
		}
		if (looks_like_order(p->rs, buf))
			break;
	}
	if (in_block)
		block_ends(&sc);
	if (subject != NULL) {
		enum hkey sp = HK_NONE;
		char *sub = strdup(subject);

		if (sub != NULL)
			orders_fold_spaces(sub);
		subj = header_line(sub != NULL ? sub : subject, &sh, &sh_have,
		    &sp) && (sh_have & (1u << HK_GAME));
		free(sub);
	}
	/* Which header: the body's when it names the game and more; the
	 * Subject's when the body names only a game ("Game on!") or none;
	 * a body block without GAME takes the Subject's. */
	if ((sc.best_have & (1u << HK_GAME)) && (!subj ||
	    (sc.best_have & ~(1u << HK_GAME)) ||
	    strcasecmp(sc.best.game, sh.game) == 0)) {
		*h = sc.best;
		h->found = 1;
		if (subj && strcasecmp(sh.game, h->game) == 0)
			fill_from(h, sc.best_have, &sh, sh_have);
	} else if (subj && sc.part_have != 0) {
		*h = sc.part;
		h->found = 1;
		fill_from(h, sc.part_have, &sh, sh_have);
	} else if (subj) {
		*h = sh;
		h->found = 1;
		h->line = h->first_line = 0;
	}
	sodium_memzero(&sh, sizeof(sh));
	sodium_memzero(&sc, sizeof(sc));
	return 0;
}

/* --- the lines after it ----------------------------------------------- */

void
orders_body_lines(struct orders_parser *p, const char *body,
    int header_line, void (*each)(void *arg, int line, const char *text),
    void *arg)
{
	const char *s = body;
	int line = 0, fwd = 0;

	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		const char *rest = nl ? nl + 1 : NULL;
		char buf[ORDERS_TEXT_MAX];

		line++;
		if (orders_is_signature(s, n))
			break;
		/* A line too long to keep is passed on cut, for the reader
		 * to refuse as too long rather than pass over. */
		if (orders_take_line(s, n, buf, sizeof(buf)) != 0) {
			memcpy(buf, s, sizeof(buf) - 1);
			buf[sizeof(buf) - 1] = '\0';
			utf8_trim_tail(buf);
		}
		s = rest;
		if (line <= header_line || buf[0] == '\0' || buf[0] == '>' ||
		    buf[0] == '|')
			continue;
		{
			enum quote_kind q = orders_quote_start(p, buf, strlen(buf),
			    rest, &fwd);

			if (q == Q_SKIP)
				continue;
			if (q == Q_END)
				break;
		}
		each(arg, line, buf);
	}
}
