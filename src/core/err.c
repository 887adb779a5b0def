/*
 * err.c - filling the error record (see err.h).
 */
#include "core/err.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int
err_set(struct err *e, enum err_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -1;
	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	utf8_trim_tail(e->msg);
	return -1;
}

void
utf8_trim_tail(char *s)
{
	size_t n = strlen(s), i, need;

	if (n == 0)
		return;
	/* Find the start of the last sequence (at most 4 bytes back). */
	i = n;
	while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0)
		return;
	i--;
	if (((unsigned char)s[i] & 0x80) == 0)
		return;
	need = ((unsigned char)s[i] & 0xe0) == 0xc0 ? 2 :
	    ((unsigned char)s[i] & 0xf0) == 0xe0 ? 3 :
	    ((unsigned char)s[i] & 0xf8) == 0xf0 ? 4 : 1;
	if (n - i < need)
		s[i] = '\0';
}

void
err_clear(struct err *e)
{
	if (e == NULL)
		return;
	e->kind = ERR_NONE;
	e->msg[0] = '\0';
}

size_t
utf8_valid_prefix(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = u[i];
		size_t need, k;
		unsigned cp, min;

		if (c < 0x80) {
			uint64_t w;

			/* Mail is mostly ASCII: eight bytes at a time. */
			while (n - i >= 8) {
				memcpy(&w, u + i, 8);
				if (w & 0x8080808080808080ull)
					break;
				i += 8;
			}
			if (i < n && u[i] < 0x80)
				i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			need = 1;
			cp = c & 0x1f;
			min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			need = 2;
			cp = c & 0x0f;
			min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			need = 3;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			return i;
		}
		if (n - i <= need)
			return i;
		for (k = 1; k <= need; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				return i;
			cp = (cp << 6) | (u[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += need + 1;
	}
	return n;
}
