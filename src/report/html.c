/*
 * html.c - the HTML part of a report mail, made from its text.
 *
 * The text report is the one source: what a plain-text reader gets is
 * exactly what the HTML shows, laid out for a mail program.  The text's
 * own conventions are read back: a line underlined with dashes is a
 * heading, a block of "- " lines is a list, an indented block or one with
 * columns is kept as preformatted text, other lines flow as paragraphs
 * (a line that starts in lower case continues the sentence above it).
 * The map image goes under the opening lines; the text map ("The field")
 * is left out of the HTML when there is an image to show instead.
 *
 * The layout is in style="" attributes, which every mail program keeps;
 * the one <style> block only darkens it under prefers-color-scheme, and
 * a program that drops it loses nothing else.  The page is at most 640px
 * wide and nothing in it is wider than the screen: preformatted blocks
 * scroll inside their own box.  In a forces section the unit lines (two
 * spaces, the unit's name, state tags in brackets; its further lines six
 * spaces in) are an order-of-battle table with the states as coloured
 * badges; a heading that starts with "Appendix" opens a <details> that
 * holds everything after it.
 *
 * Workload: one call per report mail, on at most REPORT_MAX bytes; one
 * pass over the lines.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A line of the text: start and length, without the LF. */
struct line {
	const char *s;
	size_t n;
};

static void
esc(struct text *t, const char *s, size_t n)
{
	size_t i, from = 0;

	for (i = 0; i < n; i++) {
		const char *r = NULL;

		switch (s[i]) {
		case '&': r = "&amp;"; break;
		case '<': r = "&lt;"; break;
		case '>': r = "&gt;"; break;
		case '"': r = "&quot;"; break;
		default: continue;
		}
		text_add(t, "%.*s%s", (int)(i - from), s + from, r);
		from = i + 1;
	}
	text_add(t, "%.*s", (int)(n - from), s + from);
}

static int
is_rule(const struct line *l)
{
	size_t i;

	if (l->n < 3)
		return 0;
	for (i = 0; i < l->n; i++)
		if (l->s[i] != '-')
			return 0;
	return 1;
}

/* A line laid out in columns: indented, or two spaces inside it. */
static int
is_columns(const struct line *l)
{
	size_t i;

	if (l->n > 0 && l->s[0] == ' ')
		return 1;
	for (i = 0; i + 1 < l->n; i++)
		if (l->s[i] == ' ' && l->s[i + 1] == ' ')
			return 1;
	return 0;
}

static int
is_item(const struct line *l)
{
	return l->n >= 2 && l->s[0] == '-' && l->s[1] == ' ';
}


/* A unit's states and their badge colours (background, text). */
static const struct state {
	const char *word, *bg, *fg;
} states[] = {
	{ "in good order", "#d7f0d8", "#1b5e20" },
	{ "out of command", "#fff0c2", "#7a5200" },
	{ "OUT OF COMMAND", "#fff0c2", "#7a5200" },
	{ "in command", "#d7f0d8", "#1b5e20" },
	{ "disordered", "#ffe0c2", "#8a3b00" },
	{ "routed", "#fdd5d5", "#a11212" },
	{ "fleeing", "#fdd5d5", "#a11212" },
	{ "stationary", "#e4e4e4", "#444444" },
	{ "gone", "#e4e4e4", "#444444" },
	{ "exhausted", "#eadcf5", "#5b2a86" },
	{ "EXHAUSTED", "#eadcf5", "#5b2a86" },
	{ "collapsed", "#f3d0d0", "#7f1d1d" },
	{ "COLLAPSED", "#f3d0d0", "#7f1d1d" },
};

/* The bit of a state in a set of them: the capitals and the small
 * letters of one state are one. */
static unsigned
state_bit(int k)
{
	return 1u << (states[k].word[0] == 'O' ? 1 : states[k].word[0] == 'E' ?
	    8 : states[k].word[0] == 'C' ? 10 : k);
}

static int
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The state whose word is at s[i] (as a whole word, or in brackets when
 * brackets): its index, and its length with the brackets in *len. */
static int
state_at(const char *s, size_t n, size_t i, int brackets, size_t *len)
{
	size_t k, w, o = brackets ? 1 : 0;

	if (brackets && s[i] != '[')
		return -1;
	if (!brackets && i > 0 && is_letter(s[i - 1]))
		return -1;
	for (k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
		w = strlen(states[k].word);
		if (i + o + w + o > n || memcmp(s + i + o, states[k].word, w) != 0)
			continue;
		if (brackets ? s[i + 1 + w] != ']' :
		    (i + w < n && is_letter(s[i + w])))
			continue;
		/* "gone" only as a tag, or "gone from the table". */
		if (!brackets && k == 7 && (i + w + 15 > n ||
		    memcmp(s + i + w, " from the table", 15) != 0))
			continue;
		/* "exhausted at 5.9" is the brigade's limit, not its state. */
		if (!brackets && (k == 8 || k == 9) && i + w + 4 <= n &&
		    memcmp(s + i + w, " at ", 4) == 0)
			continue;
		*len = w + 2 * o;
		return (int)k;
	}
	return -1;
}

static void
badge(struct text *t, int k)
{
	text_add(t, "<span class=\"badge\" style=\"display:inline-block;"
	    "padding:1px 7px;margin:1px 4px 1px 0;border-radius:9px;"
	    "font-size:12px;line-height:18px;white-space:nowrap;"
	    "font-weight:600;background:%s;color:%s\">%s</span>",
	    states[k].bg, states[k].fg, states[k].word[0] == 'O' ?
	    "out of command" : states[k].word[0] == 'E' ? "exhausted" :
	    states[k].word[0] == 'C' ? "collapsed" : states[k].word);
}

/*
 * s[0..n): escaped, the state words in it as badges when mark; or, when
 * only, nothing but the badges of the states in it.
 */
static void
badged(struct text *t, const char *s, size_t n, unsigned *only)
{
	size_t i, from = 0, len = 0;
	int k;

	for (i = 0; i < n; i++) {
		if ((k = state_at(s, n, i, 1, &len)) < 0 &&
		    (k = state_at(s, n, i, 0, &len)) < 0)
			continue;
		if (!only)
			esc(t, s + from, i - from);
		/* Only mode: each state once, however many stands have it. */
		if (!only || !(*only & state_bit(k)))
			badge(t, k);
		if (only)
			*only |= state_bit(k);
		i += len - 1;
		from = i + 1;
	}
	if (!only)
		esc(t, s + from, n - from);
}

/* How many spaces a line starts with. */
static size_t
indent(const struct line *l)
{
	size_t i = 0;

	while (i < l->n && l->s[i] == ' ')
		i++;
	return i;
}

/*
 * A block of a forces section with unit lines in it: its brigade lines
 * as paragraphs, each run of unit lines as an order-of-battle table.
 */
static int
forces_block(struct text *t, const struct line *v, int a, int b)
{
	int i, units = 0, row = 0, table = 0, more = 0;

	for (i = a; i < b; i++) {
		size_t d = indent(&v[i]);

		if (d >= 6 || (d == 2 && memchr(v[i].s, '[', v[i].n) != NULL))
			more = 1;
		if (d == 2 && d < v[i].n)
			units++;
		else if (d != 0 && d < 6)
			return 0;
		else if (d == 0 && is_item(&v[i]))
			return 0;
	}
	/* A unit has further lines or tags; a "  Side: ..." list has not. */
	if (units == 0 || !more)
		return 0;
	for (i = a; i < b; i++) {
		size_t d = indent(&v[i]), e, k;
		const struct line *l = &v[i];

		if (d == 0) {
			if (table) {
				text_add(t, "%s</table>\n", row ? "</td></tr>\n" : "");
				table = row = 0;
			}
			text_add(t, "<p style=\"margin:14px 0 6px;"
			    "font-weight:600\">");
			badged(t, l->s, l->n, NULL);
			text_add(t, "</p>\n");
			continue;
		}
		if (!table) {
			text_add(t, "<table class=\"oob\" role=\"table\" "
			    "cellpadding=\"0\" cellspacing=\"0\" style=\""
			    "width:100%%;border-collapse:collapse;"
			    "margin:0 0 12px;font-size:14px;line-height:1.4\">\n");
			table = 1;
		}
		if (d == 2) {
			int j;
			unsigned seen = 0;

			if (row)
				text_add(t, "</td></tr>\n");
			/* The name ends at the first tag or two spaces. */
			for (e = d; e < l->n; e++)
				if (l->s[e] == '[' || (e + 1 < l->n &&
				    l->s[e] == ' ' && l->s[e + 1] == ' '))
					break;
			k = e;
			while (k > d && l->s[k - 1] == ' ')
				k--;
			/* The name with its badges on one line, the details
			 * under it: a phone's 360 px has no room for a column
			 * of names beside them. */
			text_add(t, "<tr><td style=\"padding:6px 0;"
			    "border-top:1px solid #ddd;vertical-align:top;"
			    "word-break:break-word\"><div><span class=\"unit\" "
			    "style=\"font-weight:600;margin-right:6px\">");
			esc(t, l->s + d, k - d);
			text_add(t, "</span>");
			/* The states: the tags, or those the lines name. */
			badged(t, l->s + e, l->n - e, &seen);
			for (j = i + 1; j < b && indent(&v[j]) >= 6; j++)
				badged(t, v[j].s, v[j].n, &seen);
			text_add(t, "</div>");
			/* The rest of the line, without its tags. */
			while (e < l->n) {
				size_t len;

				if (state_at(l->s, l->n, e, 1, &len) >= 0) {
					e += len;
					continue;
				}
				if (l->s[e] == ' ' || l->s[e] == ',' ||
				    l->s[e] == ';') {
					e++;
					continue;
				}
				break;
			}
			if (e < l->n) {
				text_add(t, "<div style=\"color:#555\" "
				    "class=\"more\">");
				esc(t, l->s + e, l->n - e);
				text_add(t, "</div>");
			}
			row = 1;
			continue;
		}
		if (!row) {
			text_add(t, "<tr><td>");
			row = 1;
		}
		text_add(t, "<div style=\"color:#555;font-size:13px%s\" "
		    "class=\"more\">", d > 6 ? ";padding-left:12px" : "");
		esc(t, l->s + d, l->n - d);
		text_add(t, "</div>");
	}
	if (table)
		text_add(t, "%s</table>\n", row ? "</td></tr>\n" : "");
	return 1;
}

/* Lines a, a+1, ... b-1 as a paragraph, list or preformatted block. */
static void
block(struct text *t, const struct line *v, int a, int b, int forces)
{
	int i, pre = 0, list = 1;

	if (a >= b)
		return;
	if (forces && forces_block(t, v, a, b))
		return;
	/* A line or two that lead into a list ("Seven o'clock ...", then the
	 * events): a paragraph, then the list. */
	for (i = a; i < b && !is_item(&v[i]); i++)
		;
	if (i > a && i < b) {
		int k;

		for (k = i; k < b; k++)
			if (!is_item(&v[k]) && !(v[k].n > 0 && v[k].s[0] == ' '))
				break;
		if (k == b) {
			block(t, v, a, i, 0);
			block(t, v, i, b, 0);
			return;
		}
	}
	for (i = a; i < b; i++) {
		if (is_columns(&v[i]) && !(i > a && is_item(&v[a])))
			pre = 1;
		if (!is_item(&v[i]) && !(i > a && v[i].n > 0 && v[i].s[0] ==
		    ' '))
			list = 0;
	}
	if (list) {
		text_add(t, "<ul style=\"margin:0 0 12px;padding-left:22px\">\n");
		for (i = a; i < b; i++) {
			if (is_item(&v[i])) {
				if (i > a)
					text_add(t, "</li>\n");
				text_add(t, "<li style=\"margin:0 0 4px\">");
				esc(t, v[i].s + 2, v[i].n - 2);
			} else {
				text_add(t, " ");
				esc(t, v[i].s, v[i].n);
			}
		}
		text_add(t, "</li>\n</ul>\n");
		return;
	}
	if (pre) {
		text_add(t, "<pre style=\"margin:0 0 12px;padding:10px;background:#f4f4f0;border:1px solid #e0e0d8;border-radius:4px;overflow-x:auto;white-space:pre;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:12px;line-height:1.35\">");
		for (i = a; i < b; i++) {
			esc(t, v[i].s, v[i].n);
			text_add(t, "\n");
		}
		text_add(t, "</pre>\n");
		return;
	}
	text_add(t, "<p style=\"margin:0 0 12px\">");
	for (i = a; i < b; i++) {
		if (i > a)
			text_add(t, v[i].n > 0 && v[i].s[0] >= 'a' && v[i].s[0] <= 'z' ?
			    " " : "<br>\n");
		esc(t, v[i].s, v[i].n);
	}
	text_add(t, "</p>\n");
}

char *
report_html(const char *body, const char *title, const char *img_cid,
    const char *img_alt)
{
	struct text t;
	struct line *v = NULL;
	const char *p = body, *nl = NULL;
	int n = 0, cap = 0, i, start, shown_img = 0, skip = 0, forces = 0;
	int appendix = 0;

	while (*p != '\0') {
		if (n == cap) {
			struct line *nv = NULL;

			cap = cap ? cap * 2 : 256;
			if ((nv = realloc(v, (size_t)cap * sizeof(*v))) == NULL) {
				free(v);
				return NULL;
			}
			v = nv;
		}
		nl = strchr(p, '\n');
		v[n].s = p;
		v[n].n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		n++;
		p = nl != NULL ? nl + 1 : p + strlen(p);
	}
	text_init(&t, REPORT_MAX * 2);
	text_add(&t, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	    "<title>");
	esc(&t, title, strlen(title));
	text_add(&t, "</title>\n<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n"
	    "<style>\n@media (prefers-color-scheme: dark) {\n"
	    "body, .page { background: #1c1d1f !important; color: #e2e2e2 !important; }\n"
	    "h2, summary { color: #f0f0f0 !important; border-color: #555 !important; }\n"
	    "pre { background: #26282b !important; border-color: #3a3c40 !important; "
	    "color: #e2e2e2 !important; }\n"
	    "td { border-color: #3a3c40 !important; }\n"
	    ".more { color: #aaa !important; }\n"
	    ".badge { filter: brightness(0.85); }\n"
	    "}\n</style></head>\n"
	    "<body style=\"margin:0;padding:0;background:#eeebe4;color:#222\">\n"
	    "<div class=\"page\" style=\"max-width:640px;margin:0 auto;"
	    "padding:16px;background:#ffffff;box-sizing:border-box;"
	    "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
	    "font-size:15px;line-height:1.55;color:#222;overflow-wrap:break-word\">\n");
	start = 0;
	for (i = 0; i <= n; i++) {
		int head = i + 1 < n && v[i].n > 0 && is_rule(&v[i + 1]);

		if (i < n && v[i].n > 0 && !head)
			continue;
		if (!skip)
			block(&t, v, start, i, forces);
		if (img_cid != NULL && !shown_img && (head || i == n)) {
			/* The map under the opening lines. */
			text_add(&t, "<p><img src=\"cid:");
			esc(&t, img_cid, strlen(img_cid));
			text_add(&t, "\" alt=\"");
			esc(&t, img_alt, strlen(img_alt));
			text_add(&t, "\" width=\"608\" style=\"display:block;max-width:100%%;height:auto;border:0\"></p>\n");
			shown_img = 1;
		}
		if (head) {
			skip = img_cid != NULL && v[i].n == 9 &&
			    memcmp(v[i].s, "The field", 9) == 0;
			forces = 0;
			for (size_t k = 0; k + 5 <= v[i].n; k++)
				if ((k + 6 <= v[i].n &&
				    strncasecmp(v[i].s + k, "forces", 6) == 0) ||
				    strncasecmp(v[i].s + k, "enemy", 5) == 0)
					forces = 1;
			if (!skip && !appendix && v[i].n >= 8 &&
			    memcmp(v[i].s, "Appendix", 8) == 0) {
				text_add(&t, "<details style=\"margin:16px 0 0\">"
				    "<summary style=\"cursor:pointer;font-size:17px;"
				    "font-weight:700;padding:6px 0;border-bottom:1px "
				    "solid #ccc\">");
				esc(&t, v[i].s, v[i].n);
				text_add(&t, "</summary>\n");
				appendix = 1;
			} else if (!skip) {
				text_add(&t, "<h2 style=\"font-size:17px;"
				    "line-height:1.3;margin:22px 0 8px;padding:0 0 4px;"
				    "border-bottom:1px solid #ccc;color:#1a1a1a\">");
				esc(&t, v[i].s, v[i].n);
				text_add(&t, "</h2>\n");
			}
			i++;
		}
		start = i + 1;
	}
	text_add(&t, "%s</div>\n</body></html>\n", appendix ? "</details>\n" : "");
	free(v);
	if (t.over || t.s == NULL) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}
