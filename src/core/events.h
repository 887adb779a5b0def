/*
 * events.h - what happened in a step, in the order it happened.
 *
 * The rules core appends an event for everything a player may want to
 * read or check: each die rolled with its purpose, each move, each loss.
 * Events carry a sentence of plain English made by the rules core (so the
 * report and the JSON agree) and the indexes of what they concern.
 */
#ifndef DESPATCH_CORE_EVENTS_H
#define DESPATCH_CORE_EVENTS_H

#include <stdarg.h>

#include "core/err.h"

#define EVENT_TEXT_MAX 256
#define EVENTS_MAX     200000

enum event_kind {
	EV_ROLL = 0, EV_PHASE, EV_OUT_OF_COMMAND, EV_MOVE, EV_ORDER_REFUSED,
	EV_FACING, EV_DISORDER, EV_REFORM, EV_STATIONARY, EV_RALLY,
	EV_MORALE_PASS, EV_MORALE_FAIL, EV_ROUT, EV_BREAKTHROUGH, EV_FIRE,
	EV_HIT, EV_SAVE, EV_LOSS, EV_MELEE_WON, EV_MELEE_LOST, EV_RETREAT,
	EV_ELIMINATED, EV_EXHAUSTED, EV_COLLAPSE, EV_COMMANDER, EV_CARD,
	EV_KIND_COUNT
};

struct event {
	enum event_kind kind;
	int side;      /* side concerned, or -1 */
	int unit;      /* unit concerned, or -1 */
	int target;    /* other unit concerned, or -1 */
	int value;     /* die value, hits, SP ... by kind */
	int sides;     /* die sides for EV_ROLL, else 0 */
	char text[EVENT_TEXT_MAX];
	/* The rules core's sentence pattern (a printf format held by the
	 * ruleset, never stored) and the values it put in, each
	 * NUL-terminated, one after the other in args: what the narrative
	 * templates rewrite.  fmt NULL: none recorded. */
	const char *fmt;
	int nargs;
	char args[EVENT_TEXT_MAX];
};

#define EVENT_ARGS_MAX 12

struct events {
	struct event *v;
	int n, cap;
	int overflow;  /* set when EVENTS_MAX was reached */
};

void events_init(struct events *ev);
void events_free(struct events *ev);
/* Appends an event; the text is printf-formatted.  On allocation failure
 * or past EVENTS_MAX the event is dropped and ev->overflow set (the
 * adjudicator turns that into an error). */
void events_add(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Records in x the pattern fmt and the values ap gives it (%s, %d and
 * %0Nd conversions; any other leaves x->fmt NULL). */
void events_capture(struct event *x, const char *fmt, va_list ap);

/* The i-th recorded value of x (0-based), or "" past the last. */
const char *events_arg(const struct event *x, int i);

const char *events_kind_name(enum event_kind k);
int events_kind_parse(const char *name);

#endif
