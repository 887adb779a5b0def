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
 * Workload: one call per report mail, on at most REPORT_MAX bytes; one
 * pass over the lines.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

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

/* Lines a, a+1, ... b-1 as a paragraph, list or preformatted block. */
static void
block(struct text *t, const struct line *v, int a, int b)
{
	int i, pre = 0, list = 1;

	if (a >= b)
		return;
	for (i = a; i < b; i++) {
		if (is_columns(&v[i]) && !(i > a && is_item(&v[a])))
			pre = 1;
		if (!is_item(&v[i]) && !(i > a && v[i].n > 0 && v[i].s[0] ==
		    ' '))
			list = 0;
	}
	if (list) {
		text_add(t, "<ul>\n");
		for (i = a; i < b; i++) {
			if (is_item(&v[i])) {
				if (i > a)
					text_add(t, "</li>\n");
				text_add(t, "<li>");
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
		text_add(t, "<pre>");
		for (i = a; i < b; i++) {
			esc(t, v[i].s, v[i].n);
			text_add(t, "\n");
		}
		text_add(t, "</pre>\n");
		return;
	}
	text_add(t, "<p>");
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
	int n = 0, cap = 0, i, start, shown_img = 0, skip = 0;

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
	text_add(&t, "</title>\n<style>\nbody { font-family: Georgia, serif; "
	    "max-width: 1240px; }\nh2 { font-size: 1.1em; border-bottom: 1px "
	    "solid #999; }\npre { font-size: 0.9em; }\nimg { max-width: 100%%; "
	    "height: auto; }\n</style></head>\n<body>\n");
	start = 0;
	for (i = 0; i <= n; i++) {
		int head = i + 1 < n && v[i].n > 0 && is_rule(&v[i + 1]);

		if (i < n && v[i].n > 0 && !head)
			continue;
		if (!skip)
			block(&t, v, start, i);
		if (img_cid != NULL && !shown_img && (head || i == n)) {
			/* The map under the opening lines. */
			text_add(&t, "<p><img src=\"cid:");
			esc(&t, img_cid, strlen(img_cid));
			text_add(&t, "\" alt=\"");
			esc(&t, img_alt, strlen(img_alt));
			text_add(&t, "\" width=\"1200\"></p>\n");
			shown_img = 1;
		}
		if (head) {
			skip = img_cid != NULL && v[i].n == 9 &&
			    memcmp(v[i].s, "The field", 9) == 0;
			if (!skip) {
				text_add(&t, "<h2>");
				esc(&t, v[i].s, v[i].n);
				text_add(&t, "</h2>\n");
			}
			i++;
		}
		start = i + 1;
	}
	text_add(&t, "</body></html>\n");
	free(v);
	if (t.over || t.s == NULL) {
		text_free(&t);
		return NULL;
	}
	return t.s;
}
