/*
 * text.c - text helpers for the mail module (see text.h): a growing
 * buffer, UTF-8 (RFC 3629) checking and repair, HTML to plain text (the
 * small subset of HTML that mail clients write), and RFC 3676
 * format=flowed unwrapping.
 *
 * Workload: one call per incoming or outgoing mail, on text already
 * capped by mail.h (at most a few hundred KiB); all passes are linear.
 */
#include "mail/text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MTEXT_MIN_CAP 256u

void
mail_text_init(struct mtext *b)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->failed = 0;
}

/* Makes room for extra more bytes plus the NUL; -1 on failure. */
static int
mtext_reserve(struct mtext *b, size_t extra)
{
	size_t need;
	size_t cap;
	char *p = NULL;

	if (b->failed)
		return -1;
	if (extra > (size_t)-1 - b->len - 1)
		goto fail;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap < MTEXT_MIN_CAP ? MTEXT_MIN_CAP : b->cap;
	while (cap < need) {
		if (cap > (size_t)-1 / 2) {
			cap = need;
			break;
		}
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (p == NULL)
		goto fail;
	b->p = p;
	b->cap = cap;
	return 0;
fail:
	free(b->p);
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->failed = 1;
	return -1;
}

int
mail_text_put(struct mtext *b, const char *s, size_t n)
{
	if (mtext_reserve(b, n) != 0)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int
mail_text_putc(struct mtext *b, char c)
{
	return mail_text_put(b, &c, 1);
}

int
mail_text_puts(struct mtext *b, const char *s)
{
	return mail_text_put(b, s, strlen(s));
}

/* Writes the UTF-8 encoding of cp (U+FFFD for 0, surrogates and values
 * past U+10FFFF) into u; returns its length. */
static size_t
utf8_encode(unsigned long cp, char u[4])
{
	if (cp == 0 || cp > 0x10FFFFul || (cp >= 0xD800ul && cp <= 0xDFFFul))
		cp = 0xFFFDul;
	if (cp < 0x80ul) {
		u[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800ul) {
		u[0] = (char)(0xC0ul | (cp >> 6));
		u[1] = (char)(0x80ul | (cp & 0x3Ful));
		return 2;
	}
	if (cp < 0x10000ul) {
		u[0] = (char)(0xE0ul | (cp >> 12));
		u[1] = (char)(0x80ul | ((cp >> 6) & 0x3Ful));
		u[2] = (char)(0x80ul | (cp & 0x3Ful));
		return 3;
	}
	u[0] = (char)(0xF0ul | (cp >> 18));
	u[1] = (char)(0x80ul | ((cp >> 12) & 0x3Ful));
	u[2] = (char)(0x80ul | ((cp >> 6) & 0x3Ful));
	u[3] = (char)(0x80ul | (cp & 0x3Ful));
	return 4;
}

int
mail_text_put_cp(struct mtext *b, unsigned long cp)
{
	char u[4];
	size_t k;

	k = utf8_encode(cp, u);
	return mail_text_put(b, u, k);
}

char *
mail_text_finish(struct mtext *b, size_t *len)
{
	char *p = NULL;

	if (mtext_reserve(b, 0) != 0)
		return NULL;
	b->p[b->len] = '\0';
	p = b->p;
	if (len != NULL)
		*len = b->len;
	mail_text_init(b);
	return p;
}

void
mail_text_free(struct mtext *b)
{
	free(b->p);
	mail_text_init(b);
}

size_t
mail_text_utf8_seq(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t need;
	size_t i;
	unsigned char lo = 0x80, hi = 0xBF;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xC2 && u[0] <= 0xDF)
		need = 2;
	else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
		need = 3;
		if (u[0] == 0xE0)
			lo = 0xA0;          /* no overlongs */
		else if (u[0] == 0xED)
			hi = 0x9F;          /* no surrogates */
	} else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
		need = 4;
		if (u[0] == 0xF0)
			lo = 0x90;
		else if (u[0] == 0xF4)
			hi = 0x8F;          /* nothing above U+10FFFF */
	} else
		return 0;
	if (n < need)
		return 0;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (i = 2; i < need; i++)
		if (u[i] < 0x80 || u[i] > 0xBF)
			return 0;
	return need;
}

int
mail_text_utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if (s[i] == '\0')
			return 0;
		k = mail_text_utf8_seq(s + i, n - i);
		if (k == 0)
			return 0;
		i += k;
	}
	return 1;
}

int
mail_text_put_clean(struct mtext *b, const char *s, size_t n,
    enum mtext_ctl ctl)
{
	size_t i = 0, k;
	unsigned char c;

	while (i < n) {
		c = (unsigned char)s[i];
		if (c == 0) {
			mail_text_put_cp(b, 0xFFFDul);
			i++;
			continue;
		}
		if (ctl == MTEXT_CTL_SPACE && (c < 0x20 || c == 0x7F)) {
			mail_text_putc(b, ' ');
			i++;
			continue;
		}
		k = mail_text_utf8_seq(s + i, n - i);
		if (k == 0) {
			mail_text_put_cp(b, 0xFFFDul);
			i++;
			continue;
		}
		mail_text_put(b, s + i, k);
		i += k;
	}
	return b->failed ? -1 : 0;
}

int
mail_text_put_lf(struct mtext *b, const char *s, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\r')
			continue;
		mail_text_put(b, s + start, i - start);
		mail_text_putc(b, '\n');
		if (i + 1 < n && s[i + 1] == '\n')
			i++;
		start = i + 1;
	}
	mail_text_put(b, s + start, n - start);
	return b->failed ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* HTML */

struct html_out {
	struct mtext *b;
	int line_start;   /* nothing but the newline written on this line */
	int space;        /* white space seen and not yet written */
	int pre;          /* depth of <pre> */
	int quote;        /* depth of <blockquote>: its lines get "> " */
};

static void
html_text(struct html_out *o, const char *s, size_t n)
{
	if (o->line_start && o->quote > 0) {
		int q;

		/* Quoted mail, as a plain-text client would mark it. */
		for (q = 0; q < o->quote && q < 16; q++)
			mail_text_puts(o->b, "> ");
	}
	if (o->space && !o->line_start)
		mail_text_putc(o->b, ' ');
	o->space = 0;
	mail_text_put(o->b, s, n);
	o->line_start = 0;
}

/* A hard newline always ends the line; a soft one only if the line
 * has text on it, so that nested blocks do not pile up blank lines. */
static void
html_newline(struct html_out *o, int soft)
{
	if (soft && o->line_start)
		return;
	while (o->b->len > 0 && o->b->p[o->b->len - 1] == ' ')
		o->b->len--;
	mail_text_putc(o->b, '\n');
	o->line_start = 1;
	o->space = 0;
}

static int
html_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int
html_is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Position of the first case-insensitive match of pat in s[from..n),
 * or n. */
static size_t
html_find(const char *s, size_t n, size_t from, const char *pat)
{
	size_t m = strlen(pat);
	size_t i;

	if (m > n)
		return n;
	for (i = from; i + m <= n; i++)
		if (strncasecmp(s + i, pat, m) == 0)
			return i;
	return n;
}

/* Index of the '>' that ends the tag whose name ends at j (quoted
 * attribute values may hold '>'), or n. */
static size_t
html_tag_end(const char *s, size_t n, size_t j)
{
	char quote = 0;

	for (; j < n; j++) {
		if (quote) {
			if (s[j] == quote)
				quote = 0;
		} else if (s[j] == '"' || s[j] == '\'')
			quote = s[j];
		else if (s[j] == '>')
			return j;
	}
	return n;
}

static int
html_name_is(const char *name, size_t len, const char *const *set)
{
	size_t i;

	for (i = 0; set[i] != NULL; i++)
		if (strlen(set[i]) == len && strncasecmp(name, set[i], len) == 0)
			return 1;
	return 0;
}

/* Decodes the entity at s[i] == '&'; returns the bytes consumed, or 0
 * if it is not one we know (the '&' is then literal text). */
static size_t
html_entity(struct html_out *o, const char *s, size_t n, size_t i)
{
	static const struct {
		const char *name;
		const char *text;
	} named[] = {
		{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" },
		{ "apos", "'" }, { "nbsp", " " },
	};
	size_t semi, k, len;
	unsigned long cp = 0;
	int hex, digits = 0;
	char u[4];

	for (semi = i + 1; semi < n && semi < i + 12; semi++)
		if (s[semi] == ';')
			break;
	if (semi >= n || s[semi] != ';' || semi == i + 1)
		return 0;
	len = semi - i - 1;
	if (s[i + 1] != '#') {
		for (k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
			if (strlen(named[k].name) == len &&
			    strncmp(s + i + 1, named[k].name, len) == 0) {
				html_text(o, named[k].text, 1);
				return len + 2;
			}
		}
		return 0;
	}
	hex = (s[i + 2] == 'x' || s[i + 2] == 'X');
	for (k = i + 2 + (size_t)hex; k < semi; k++) {
		int d;
		char c = s[k];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (hex && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (hex && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return 0;
		if (cp <= 0x10FFFFul)
			cp = cp * (hex ? 16u : 10u) + (unsigned long)d;
		digits++;
	}
	if (digits == 0)
		return 0;
	if (cp == '\t' || cp == '\n' || cp == '\r' || cp == ' ') {
		o->space = 1;
		return len + 2;
	}
	html_text(o, u, utf8_encode(cp, u));
	return len + 2;
}

int
mail_text_html_to_text(struct mtext *b, const char *s, size_t n)
{
	static const char *const block[] = {
		"p", "div", "li", "tr", "table", "ul", "ol", "dl", "dt", "dd",
		"h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr",
		"section", "article", "header", "footer", "address", NULL
	};
	static const char *const hidden[] = {
		"script", "style", "head", "title", NULL
	};
	static const char *const cell[] = { "td", "th", NULL };
	struct html_out o;
	size_t i = 0, j, k, name, namelen, used;
	int closing;
	char c;

	o.b = b;
	o.line_start = 1;
	o.space = 0;
	o.pre = 0;
	o.quote = 0;
	while (i < n && !b->failed) {
		c = s[i];
		if (c == '&') {
			used = html_entity(&o, s, n, i);
			if (used == 0) {
				html_text(&o, "&", 1);
				used = 1;
			}
			i += used;
			continue;
		}
		if (c != '<') {
			if (html_is_space(c) && o.pre == 0) {
				o.space = 1;
			} else if (c == '\n') {
				mail_text_putc(b, '\n');
				o.line_start = 1;
				o.space = 0;
			} else if (html_is_space(c)) {
				mail_text_putc(b, c == '\t' ? '\t' : ' ');
				o.line_start = 0;
			} else
				html_text(&o, s + i, 1);
			i++;
			continue;
		}
		/* A comment, a declaration or a processing instruction. */
		if (i + 3 < n && strncmp(s + i, "<!--", 4) == 0) {
			k = html_find(s, n, i + 4, "-->");
			i = k >= n ? n : k + 3;
			continue;
		}
		if (i + 1 < n && (s[i + 1] == '!' || s[i + 1] == '?')) {
			k = html_tag_end(s, n, i + 1);
			i = k >= n ? n : k + 1;
			continue;
		}
		closing = (i + 1 < n && s[i + 1] == '/');
		name = i + 1 + (size_t)closing;
		for (j = name; j < n && html_is_alnum(s[j]); j++)
			;
		namelen = j - name;
		if (namelen == 0) {
			/* "a < b": not a tag at all. */
			html_text(&o, "<", 1);
			i++;
			continue;
		}
		k = html_tag_end(s, n, j);
		if (k >= n)
			break;          /* an unterminated tag ends the text */
		i = k + 1;
		if (namelen == 2 && strncasecmp(s + name, "br", 2) == 0) {
			html_newline(&o, 0);
		} else if (html_name_is(s + name, namelen, hidden)) {
			if (!closing) {
				char pat[16] = "</";

				memcpy(pat + 2, s + name, namelen);
				pat[2 + namelen] = '\0';
				k = html_find(s, n, i, pat);
				k = html_tag_end(s, n, k);
				i = k >= n ? n : k + 1;
			}
		} else if (namelen == 3 && strncasecmp(s + name, "pre", 3) == 0) {
			html_newline(&o, 1);
			if (closing && o.pre > 0)
				o.pre--;
			else if (!closing)
				o.pre++;
		} else if (html_name_is(s + name, namelen, block)) {
			html_newline(&o, 1);
			if (namelen == 10 && strncasecmp(s + name, "blockquote", 10) == 0) {
				if (closing && o.quote > 0)
					o.quote--;
				else if (!closing)
					o.quote++;
			}
		} else if (closing && html_name_is(s + name, namelen, cell)) {
			o.space = 1;
		}
	}
	if (!b->failed)
		while (b->len > 0 && b->p[b->len - 1] == ' ')
			b->p[--b->len] = '\0';
	return b->failed ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* format=flowed */

int
mail_text_unflow(struct mtext *b, const char *s, size_t n, int delsp)
{
	size_t pos = 0, depth, flow_depth = 0, d;
	const char *line = NULL, *nl = NULL, *end = NULL, *p = NULL;
	int in_flow = 0, has_nl, flowed;

	while (pos < n) {
		line = s + pos;
		nl = memchr(line, '\n', n - pos);
		has_nl = (nl != NULL);
		end = has_nl ? nl : s + n;
		pos = (size_t)(end - s) + (has_nl ? 1u : 0u);

		for (p = line; p < end && *p == '>'; p++)
			;
		depth = (size_t)(p - line);
		if (p < end && *p == ' ')
			p++;    /* space-stuffing */
		flowed = (end > p && end[-1] == ' ' &&
		    !(end - p == 3 && memcmp(p, "-- ", 3) == 0));
		if (in_flow && depth != flow_depth) {
			mail_text_putc(b, '\n');
			in_flow = 0;
		}
		if (!in_flow && depth > 0) {
			for (d = 0; d < depth; d++)
				mail_text_putc(b, '>');
			if (end > p)
				mail_text_putc(b, ' ');
		}
		if (flowed) {
			mail_text_put(b, p,
			    (size_t)(end - p) - (delsp ? 1u : 0u));
			in_flow = 1;
			flow_depth = depth;
		} else {
			mail_text_put(b, p, (size_t)(end - p));
			if (has_nl)
				mail_text_putc(b, '\n');
			in_flow = 0;
		}
	}
	if (in_flow && n > 0 && s[n - 1] == '\n')
		mail_text_putc(b, '\n');
	return b->failed ? -1 : 0;
}
