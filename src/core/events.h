/*
 * events.h - what happened in a step, in the order it happened.
 *
 * The rules core appends an event for everything a player may want to
 * read or check: each die rolled with its purpose, each move, each loss.
 *
 * An event is a message of its ruleset's catalogue (a stable id such as
 * "move") and the typed values it was given: the units, stands,
 * commanders, distances, dice and counts it concerns, each with a letter
 * saying what kind of value it is (events_type_name).  That, with the
 * kind and the indexes below (and without its wording, EVENT_TYPES), is
 * what the ledger signs from engine 5 on and what an archive carries.  The sentences players read are made from
 * it in report/, by the templates keyed by the id (templates/RULESET.txt),
 * so rewording one changes no hash.
 *
 * The event also keeps the catalogue's own sentence with the values put
 * in (text): what engines up to 4 signed, and so frozen with them, and
 * what a reader without the templates is shown.
 *
 * A catalogue entry is spelled as one macro giving the id, the letters and
 * the sentence, e.g.
 *
 *   #define VW_M_HALTS "halts", "u", "%s halts."
 *
 * and passed whole to events_say (or a ruleset's wrapper of it), so gcc
 * checks the values against the sentence.
 */
#ifndef DESPATCH_CORE_EVENTS_H
#define DESPATCH_CORE_EVENTS_H

#include <stdarg.h>

#include "core/err.h"

#define EVENT_TEXT_MAX 256
#define EVENT_MSG_MAX  48
#define EVENT_ARGS_MAX 12
#define EVENTS_MAX     200000

/* The kinds of value an event carries, one letter each (see
 * events_type_name for their names).  The last, x, is wording: a word
 * the sentence needs that the message's other values decide (the plural
 * of a count), kept with the event for its sentence but neither signed
 * nor archived. */
#define EVENT_TYPES "ukbpsnrdatcwx"

enum event_kind {
	EV_ROLL = 0, EV_PHASE, EV_OUT_OF_COMMAND, EV_MOVE, EV_ORDER_REFUSED,
	EV_FACING, EV_DISORDER, EV_REFORM, EV_STATIONARY, EV_RALLY,
	EV_MORALE_PASS, EV_MORALE_FAIL, EV_ROUT, EV_BREAKTHROUGH, EV_FIRE,
	EV_HIT, EV_SAVE, EV_LOSS, EV_MELEE_WON, EV_MELEE_LOST, EV_RETREAT,
	EV_ELIMINATED, EV_EXHAUSTED, EV_COLLAPSE, EV_COMMANDER, EV_CARD,
	/* An act against a unit that is neither fire nor melee dice but
	 * may force its test (a ratings module's quality attack), and who
	 * strikes first in a melee. */
	EV_ATTACK,
	EV_KIND_COUNT
};

struct event {
	enum event_kind kind;
	int side;      /* side concerned, or -1 */
	int unit;      /* unit concerned, or -1 */
	int target;    /* other unit concerned, or -1 */
	int value;     /* die value, hits, SP ... by kind */
	int sides;     /* die sides for EV_ROLL, else 0 */
	/* The catalogue's sentence with the values put in. */
	char text[EVENT_TEXT_MAX];
	/* The message id ("" for an event without one: an archive of an
	 * engine before 5), the letter of each value, and the values, each
	 * NUL-terminated, one after the other in args (numbers in decimal,
	 * unpadded). */
	char msg[EVENT_MSG_MAX];
	char types[EVENT_ARGS_MAX + 1];
	int nargs;
	char args[EVENT_TEXT_MAX];
};

/* A catalogue's entry, as its macro gives it; a ruleset's catalogue is
 * an array of them ending in one of NULLs (struct ruleset_words). */
struct event_msg {
	const char *id;
	const char *types;
	const char *fmt;
};

/* A catalogue's row from its macro: EVENT_MSG(VW_M_HALTS). */
#define EVENT_MSG(m) EVENT_MSG_(m)
#define EVENT_MSG_(i, t, f) { .id = (i), .types = (t), .fmt = (f) }

struct events {
	struct event *v;
	int n, cap;
	int overflow;  /* set when EVENTS_MAX was reached */
};

void events_init(struct events *ev);
void events_free(struct events *ev);
/* Appends the message msg of a catalogue: types gives a letter of
 * EVENT_TYPES for each conversion of fmt (%s or %d; %% is none), and the
 * values follow.  A catalogue entry that does not match (another
 * conversion, a letter too many or too few) is a programming error
 * (assert; tests/report/patterns.py finds it before).  On allocation
 * failure or past EVENTS_MAX the event is dropped and ev->overflow set
 * (the adjudicator turns that into an error). */
void events_say(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *msg, const char *types,
    const char *fmt, ...) __attribute__((format(printf, 9, 10)));
void events_vsay(struct events *ev, enum event_kind kind, int side,
    int unit, int target, int value, const char *msg, const char *types,
    const char *fmt, va_list ap) __attribute__((format(printf, 9, 0)));

/* The one message every ruleset writes: a phase begins, at minute of the
 * day (its id "phase"; the clock a value "07:05"). */
#define EVENT_M_PHASE "phase", "nscs", "Turn %d, the %s phase (%s): %s."
void events_phase(struct events *ev, int side, int turn, const char *side_id,
    int minute, const char *side_name);

/* Puts copies of src's events into ev before its event at (ev->n or
 * past it: after the last), in src's order.  0, or -1 (ev->overflow set,
 * ev as it was but perhaps longer) when they do not fit. */
int events_insert(struct events *ev, int at, const struct events *src);

/* Appends an event of no message: its sentence only, printf-formatted
 * (what an archive of an engine before 5 gives). */
void events_add(struct events *ev, enum event_kind kind, int side, int unit,
    int target, int value, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Gives the last event of ev (as events_add left it) the message msg and
 * the values in args[0..len) (each NUL-terminated, one after the other,
 * one for each letter of types), read back from a store or an archive.
 * -1, changing nothing, when msg is too long, a letter is not one of
 * EVENT_TYPES, a number is not one in decimal, or the values are not one
 * a letter or do not fit. */
int events_set_message(struct events *ev, const char *msg, const char *types,
    const char *args, size_t len);

/* How many bytes of x->args its values take, their NULs counted. */
size_t events_args_len(const struct event *x);
/* The i-th value of x (0-based), or "" past the last. */
const char *events_arg(const struct event *x, int i);
/* The name of a value's letter ("unit", "count" ...), NULL for none. */
const char *events_type_name(char t);
/* The letter of a value's name, 0 for none. */
char events_type_parse(const char *name);
/* 1 when a value of letter t is a number (written as JSON's). */
int events_type_number(char t);
/* 1 when a value of letter t is signed and archived (all but wording). */
int events_type_signed(char t);

const char *events_kind_name(enum event_kind k);
int events_kind_parse(const char *name);

#endif
