/*
 * args.c - the arguments of an order (a distance, a point, a wheel, a
 * bearing) read by hand, each exactly as its PCRE2 pattern in
 * orders_parser_new reads it.
 *
 * Workload: one or two of these on nearly every order line.  The JIT's
 * way in and out cost more than reading the six or so bytes an argument
 * has, so these scanners answer what the patterns (compiled with
 * PCRE2_CASELESS | PCRE2_UTF, no UCP) would: \d is 0-9, \s is ASCII
 * white space (as orders_sp), $ is the end or before a newline that ends
 * the text, and caseless matching takes U+017F (long s, "\xc5\xbf") for
 * an s, the only letter of these words with a fold beyond ASCII.  The
 * patterns stay the definition: test_orders matches each scanner against
 * its pattern over many texts.
 */
#include "orders/internal.h"

#include <stddef.h>
#include <string.h>

static int
is_digit(unsigned char ch)
{
	return ch >= '0' && ch <= '9';
}

/* $: the end, or a newline that is the last byte. */
static int
at_end(const char *s, size_t i, size_t len)
{
	return i == len || (i + 1 == len && s[i] == '\n');
}

/* \d{1,maxd}, then (frac) (?:\.\d{1,2})?, from i: its end, or (size_t)-1.
 * No pattern lets a digit or a '.' follow a number, so the longest run
 * is the only one that can match: a fifth digit or a third decimal
 * fails the whole pattern, as does a '.' with no digit after it. */
static size_t
number(const char *s, size_t i, size_t len, size_t maxd, int frac)
{
	size_t j = i;

	while (j < len && is_digit((unsigned char)s[j]))
		j++;
	if (j == i || j - i > maxd)
		return (size_t)-1;
	if (frac && j < len && s[j] == '.') {
		size_t k = j + 1;

		while (k < len && is_digit((unsigned char)s[k]))
			k++;
		if (k == j + 1 || k - j - 1 > 2)
			return (size_t)-1;
		j = k;
	}
	return j;
}

static size_t
skip_sp(const char *s, size_t i, size_t len)
{
	while (i < len && orders_sp((unsigned char)s[i]))
		i++;
	return i;
}

/* Does s[i..) begin with word (lower case ASCII), caseless, an 's' also
 * as U+017F?  The end of what matched in *end. */
static int
word_at(const char *s, size_t i, size_t len, const char *word, size_t *end)
{
	for (; *word; word++) {
		if (i < len && orders_low((unsigned char)s[i]) ==
		    (unsigned char)*word)
			i++;
		else if (*word == 's' && i + 1 < len &&
		    (unsigned char)s[i] == 0xc5 && (unsigned char)s[i + 1] == 0xbf)
			i += 2;
		else
			return 0;
	}
	*end = i;
	return 1;
}

/* The words in list (NULL-ended) one of which, alone, must end s[i..). */
static int
one_of(const char *s, size_t i, size_t len, const char *const *list)
{
	size_t e;

	for (; *list != NULL; list++)
		if (word_at(s, i, len, *list, &e) && at_end(s, e, len))
			return 1;
	return 0;
}

static const char *const deg_words[] = { "deg", "degrees", NULL };

/* (?:\.0+)?(?:\s*(?:deg|degrees))?$ from i. */
static int
degrees_tail(const char *s, size_t i, size_t len)
{
	if (i < len && s[i] == '.') {
		size_t k = i + 1;

		while (k < len && s[k] == '0')
			k++;
		if (k == i + 1)
			return 0;
		i = k;
	}
	if (at_end(s, i, len))
		return 1;
	return one_of(s, skip_sp(s, i, len), len, deg_words);
}

int
orders_scan_dist(const char *s, size_t len, size_t g[2])
{
	static const char *const units[] = { "\"", "in", "inch", "inches",
	    NULL };
	size_t j = number(s, 0, len, 4, 1), k;

	if (j == (size_t)-1)
		return 0;
	k = skip_sp(s, j, len);
	if (!at_end(s, k, len) && !one_of(s, k, len, units))
		return 0;
	g[0] = 0;
	g[1] = j;
	return 1;
}

int
orders_scan_point(const char *s, size_t len, size_t g[4])
{
	size_t j = number(s, 0, len, 4, 1), k, z;

	if (j == (size_t)-1)
		return 0;
	k = skip_sp(s, j, len);
	if (k >= len || s[k] != ',')
		return 0;
	k = skip_sp(s, k + 1, len);
	z = number(s, k, len, 4, 1);
	if (z == (size_t)-1 || !at_end(s, z, len))
		return 0;
	g[0] = 0;
	g[1] = j;
	g[2] = k;
	g[3] = z;
	return 1;
}

int
orders_scan_turn(const char *s, size_t len, size_t g[4])
{
	size_t w, k, j;

	if (!word_at(s, 0, len, "left", &w) && !word_at(s, 0, len, "right", &w))
		return 0;
	k = skip_sp(s, w, len);
	if (k == w)
		return 0;
	j = number(s, k, len, 3, 0);
	if (j == (size_t)-1 || !degrees_tail(s, j, len))
		return 0;
	g[0] = 0;
	g[1] = w;
	g[2] = k;
	g[3] = j;
	return 1;
}

int
orders_scan_bearing(const char *s, size_t len)
{
	size_t j = number(s, 0, len, 3, 0);

	return j != (size_t)-1 && degrees_tail(s, j, len);
}
