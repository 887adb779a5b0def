/*
 * events.c - the event list (see events.h).
 */
#include "core/events.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[EV_KIND_COUNT] = {
	"roll", "phase", "out-of-command", "move", "order-refused", "facing",
	"disorder", "reform", "stationary", "rally", "morale-pass",
	"morale-fail", "rout", "breakthrough", "fire", "hit", "save", "loss",
	"melee-won", "melee-lost", "retreat", "eliminated", "exhausted",
	"collapse", "commander", "card", "attack"
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

/* A new event at the end of ev, zeroed, or NULL (ev->overflow set). */
static struct event *
event_new(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value)
{
	struct event *e;

	if (ev->n == ev->cap) {
		int cap = ev->cap ? ev->cap * 2 : 64;
		struct event *nv;

		if (ev->n >= EVENTS_MAX) {
			ev->overflow = 1;
			return NULL;
		}
		nv = realloc(ev->v, (size_t)cap * sizeof(*nv));
		if (nv == NULL) {
			ev->overflow = 1;
			return NULL;
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
	return e;
}

void
events_add(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *fmt, ...)
{
	struct event *e = event_new(ev, kind, side, unit, target, value);
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	utf8_trim_tail(e->text);
}

/* Appends the value piece to x (assert: it fits; a catalogue's values
 * are names and numbers, far short of EVENT_TEXT_MAX together). */
static void
put_arg(struct event *x, size_t *k, const char *piece)
{
	size_t len = strlen(piece);

	assert(x->nargs < EVENT_ARGS_MAX);
	/* Past the end (never yet: a catalogue's values are short), each
	 * value left is "", so the letters still match. */
	if (*k >= sizeof(x->args) - 1) {
		*k = sizeof(x->args) - 1;
		x->args[*k] = '\0';
		x->nargs++;
		return;
	}
	if (*k + len + 1 > sizeof(x->args))
		len = sizeof(x->args) - 1 - *k;
	memcpy(x->args + *k, piece, len);
	x->args[*k + len] = '\0';
	utf8_trim_tail(x->args + *k);
	*k += strlen(x->args + *k) + 1;
	x->nargs++;
}

void
events_vsay(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *msg, const char *types,
    const char *fmt, va_list ap)
{
	struct event *x = event_new(ev, kind, side, unit, target, value);
	const char *p;
	size_t k = 0, ntypes;
	va_list aq;

	if (x == NULL)
		return;
	assert(strlen(msg) < sizeof(x->msg) &&
	    strlen(types) < sizeof(x->types));
	snprintf(x->msg, sizeof(x->msg), "%s", msg);
	snprintf(x->types, sizeof(x->types), "%s", types);
	va_copy(aq, ap);
	vsnprintf(x->text, sizeof(x->text), fmt, aq);
	va_end(aq);
	utf8_trim_tail(x->text);
	ntypes = strlen(types);
	for (p = fmt; *p != '\0' && x->nargs < EVENT_ARGS_MAX; p++) {
		char piece[EVENT_TEXT_MAX];
		char t = (size_t)x->nargs < ntypes ? types[x->nargs] : '\0';

		(void)t;   /* for the asserts only */
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		/* Only %s, %d and a width for %d: the catalogue's sentences
		 * need no more. */
		while (p[1] >= '0' && p[1] <= '9')
			p++;
		assert(t != '\0' && strchr(EVENT_TYPES, t) != NULL);
		if (p[1] == 's') {
			const char *v = va_arg(ap, const char *);

			assert(!events_type_number(t));
			snprintf(piece, sizeof(piece), "%s", v != NULL ? v : "");
		} else {
			assert(p[1] == 'd' && events_type_number(t));
			snprintf(piece, sizeof(piece), "%d", va_arg(ap, int));
		}
		p++;
		put_arg(x, &k, piece);
	}
	assert((size_t)x->nargs == ntypes);
}

void
events_say(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *msg, const char *types,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	events_vsay(ev, kind, side, unit, target, value, msg, types, fmt, ap);
	va_end(ap);
}

int
events_insert(struct events *ev, int at, const struct events *src)
{
	int i;

	if (src->n == 0)
		return 0;
	if (at < 0 || at > ev->n)
		at = ev->n;
	for (i = 0; i < src->n; i++)
		if (event_new(ev, src->v[i].kind, -1, -1, -1, 0) == NULL)
			return -1;
	/* the new slots at the end are moved up to at */
	memmove(&ev->v[at + src->n], &ev->v[at],
	    (size_t)(ev->n - src->n - at) * sizeof(ev->v[0]));
	memcpy(&ev->v[at], src->v, (size_t)src->n * sizeof(ev->v[0]));
	return 0;
}

void
events_phase(struct events *ev, int side, int turn, const char *side_id,
    int minute, const char *side_name)
{
	char clock[16];

	snprintf(clock, sizeof(clock), "%02d:%02d", minute / 60 % 24,
	    minute % 60);
	events_say(ev, EV_PHASE, side, -1, -1, turn, EVENT_M_PHASE, turn,
	    side_id, clock, side_name);
}

int
events_set_message(struct events *ev, const char *msg, const char *types,
    const char *args, size_t len)
{
	struct event *x = ev->n > 0 ? &ev->v[ev->n - 1] : NULL;
	size_t ntypes = strlen(types), i, at = 0;

	if (x == NULL || strlen(msg) >= sizeof(x->msg) ||
	    ntypes > EVENT_ARGS_MAX || len > sizeof(x->args) ||
	    (len == 0) != (ntypes == 0))
		return -1;
	for (i = 0; i < ntypes; i++) {
		const char *v = args + at, *end;

		if (at >= len || strchr(EVENT_TYPES, types[i]) == NULL ||
		    (end = memchr(v, '\0', len - at)) == NULL)
			return -1;
		if (events_type_number(types[i])) {
			char canon[16];
			char *stop = NULL;
			long n = strtol(v, &stop, 10);

			snprintf(canon, sizeof(canon), "%ld", n);
			if (*v == '\0' || *stop != '\0' || n < -2147483647 ||
			    n > 2147483647 || strcmp(canon, v) != 0)
				return -1;
		}
		at = (size_t)(end - args) + 1;
	}
	if (at != len)
		return -1;
	snprintf(x->msg, sizeof(x->msg), "%s", msg);
	memcpy(x->types, types, ntypes + 1);
	if (len > 0)
		memcpy(x->args, args, len);
	x->nargs = (int)ntypes;
	return 0;
}

size_t
events_args_len(const struct event *x)
{
	size_t k = 0;
	int i;

	for (i = 0; i < x->nargs; i++)
		k += strlen(x->args + k) + 1;
	return k;
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

/* The kinds of value, in the order of EVENT_TYPES. */
static const char *const type_names[] = {
	"unit", "commander", "brigade", "stand", "side", "count", "die", "distance",
	"bearing", "ground", "clock", "word", "wording"
};

const char *
events_type_name(char t)
{
	const char *at = t != '\0' ? strchr(EVENT_TYPES, t) : NULL;

	return at != NULL ? type_names[at - EVENT_TYPES] : NULL;
}

char
events_type_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strcmp(type_names[i], name) == 0)
			return EVENT_TYPES[i];
	return 0;
}

int
events_type_signed(char t)
{
	return t != 'x';
}

int
events_type_number(char t)
{
	return t != '\0' && strchr("pnra", t) != NULL;
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
