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
	"collapse", "commander"
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
