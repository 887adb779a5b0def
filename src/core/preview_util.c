/*
 * preview_util.c - helpers the rulesets' order previews share
 * (preview_util.h): a bounded appender and a wrapped warning.  Pure: no
 * clock, no I/O.
 */
#include "core/preview_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* preview_say with its arguments in ap. */
static size_t
vsay(char *out, size_t size, size_t k, const char *fmt, va_list ap)
{
	static const char more[] = "  (more not shown)\n";
	va_list aq;
	int n;

	if (k >= size)
		return k;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || k + (size_t)n + sizeof(more) > size) {
		if (k + sizeof(more) <= size)
			memcpy(out + k, more, sizeof(more));
		return size;
	}
	vsnprintf(out + k, size - k, fmt, ap);
	return k + (size_t)n;
}

/* Contract (preview_util.h). */
size_t
preview_say(char *out, size_t size, size_t k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	k = vsay(out, size, k, fmt, ap);
	va_end(ap);
	return k;
}

/* Contract (preview_util.h). */
size_t
preview_warn(char *out, size_t size, size_t k, int line, const char *fmt,
    ...)
{
	char text[2048], wrapped[2600];
	size_t w = 0, col, i = 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	n = snprintf(wrapped, sizeof(wrapped), "  line %d:", line);
	w = col = (size_t)n;
	while (text[i] != '\0') {
		size_t len;

		while (text[i] == ' ')
			i++;
		len = strcspn(text + i, " ");
		if (len == 0)
			break;
		/* The word, after a space, or on a new line indented 4. */
		if (col + 1 + len > PREVIEW_WIDTH && col > 4) {
			if (w + 5 >= sizeof(wrapped))
				break;
			memcpy(wrapped + w, "\n    ", 5);
			w += 5;
			col = 4;
		} else {
			if (w + 1 >= sizeof(wrapped))
				break;
			wrapped[w++] = ' ';
			col++;
		}
		if (w + len + 2 >= sizeof(wrapped))
			break;
		memcpy(wrapped + w, text + i, len);
		w += len;
		col += len;
		i += len;
	}
	wrapped[w++] = '\n';
	wrapped[w] = '\0';
	return preview_say(out, size, k, "%s", wrapped);
}
