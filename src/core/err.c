/*
 * err.c - filling the error record (see err.h).
 */
#include "core/err.h"

#include <stdarg.h>
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
	return -1;
}

void
err_clear(struct err *e)
{
	if (e == NULL)
		return;
	e->kind = ERR_NONE;
	e->msg[0] = '\0';
}
