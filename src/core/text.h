/*
 * text.h - a growable text buffer with a cap, for what despatch writes
 * (reports, replies, listings).  Going over the cap sets `over`, stops
 * appending and counts the pieces left out in `dropped`, so the writer
 * can say what it left out.
 */
#ifndef DESPATCH_CORE_TEXT_H
#define DESPATCH_CORE_TEXT_H

#include <stddef.h>

struct text {
	char *s;
	size_t len, cap, max;
	int over;
	int dropped;
};

void text_init(struct text *t, size_t max);
void text_free(struct text *t);
void text_add(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
