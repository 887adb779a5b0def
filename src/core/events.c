/*
 * events.c - the event list (see events.h).
 */
#include "core/events.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[EV_KIND_COUNT] = {
	"roll", "phase", "out-of-command", "move", "order-refused", "facing",
	"disorder", "reform", "stationary", "rally", "morale-pass",
	"morale-fail", "rout", "breakthrough", "fire", "hit", "save", "loss",
	"melee-won", "melee-lost", "retreat", "eliminated", "exhausted",
	"collapse", "commander", "card"
};

void
events_init(struct events *ev)
{
	memset(ev, 0, sizeof(*ev));
}

void
events_free(struct events *ev)
{
	if (ev == NULL)
		return;
	free(ev->v);
	memset(ev, 0, sizeof(*ev));
}

void
events_add(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *fmt, ...)
{
	struct event *e;
	va_list ap;

	if (ev->n == ev->cap) {
		int cap = ev->cap ? ev->cap * 2 : 64;
		struct event *nv;

		if (ev->n >= EVENTS_MAX) {
			ev->overflow = 1;
			return;
		}
		nv = realloc(ev->v, (size_t)cap * sizeof(*nv));
		if (nv == NULL) {
			ev->overflow = 1;
			return;
		}
		ev->v = nv;
		ev->cap = cap;
	}
	e = &ev->v[ev->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->side = side;
	e->unit = unit;
	e->target = target;
	e->value = value;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	utf8_trim_tail(e->text);
	va_start(ap, fmt);
	events_capture(e, fmt, ap);
	va_end(ap);
}

void
events_capture(struct event *x, const char *fmt, va_list ap)
{
	const char *p;
	size_t k = 0;
	int n = 0;

	x->fmt = NULL;
	x->nargs = 0;
	for (p = fmt; *p != '\0'; p++) {
		char piece[EVENT_TEXT_MAX], spec[8];
		size_t sl = 0, len;

		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		spec[sl++] = '%';
		while (sl < 5 && (p[sl] == '0' || (p[sl] >= '1' && p[sl] <= '9'))) {
			spec[sl] = p[sl];
			sl++;
		}
		if (p[sl] != 's' && p[sl] != 'd')
			return;
		spec[sl] = p[sl];
		spec[sl + 1] = '\0';
		p += sl;
		if (spec[sl] == 's') {
			const char *v = va_arg(ap, const char *);

			snprintf(piece, sizeof(piece), "%s", v != NULL ? v : "");
		} else {
			int width = atoi(spec + 1), v = va_arg(ap, int);

			if (spec[1] == '0')
				snprintf(piece, sizeof(piece), "%0*d", width, v);
			else
				snprintf(piece, sizeof(piece), "%*d", width, v);
		}
		utf8_trim_tail(piece);
		len = strlen(piece);
		if (n == EVENT_ARGS_MAX || k + len + 1 > sizeof(x->args))
			return;
		memcpy(x->args + k, piece, len + 1);
		k += len + 1;
		n++;
	}
	x->fmt = fmt;
	x->nargs = n;
}

const char *
events_arg(const struct event *x, int i)
{
	const char *p = x->args;
	int k;

	if (i < 0 || i >= x->nargs)
		return "";
	for (k = 0; k < i; k++)
		p += strlen(p) + 1;
	return p;
}

const char *
events_kind_name(enum event_kind k)
{
	return (unsigned)k < EV_KIND_COUNT ? kind_names[k] : "unknown";
}

int
events_kind_parse(const char *name)
{
	int i;

	for (i = 0; i < EV_KIND_COUNT; i++)
		if (strcmp(kind_names[i], name) == 0)
			return i;
	return -1;
}
