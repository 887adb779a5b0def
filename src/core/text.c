/*
 * text.c - a growable text buffer with a cap (see text.h).
 */
#include "core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
text_init(struct text *t, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max;
}

void
text_free(struct text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

void
text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over) {
		t->dropped++;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || t->len + (size_t)n + 1 > t->max) {
		t->over = 1;
		t->dropped++;
		return;
	}
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		char *ns;

		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		ns = realloc(t->s, cap);
		if (ns == NULL) {
			t->over = 1;
			return;
		}
		t->s = ns;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}
