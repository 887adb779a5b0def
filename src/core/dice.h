/*
 * dice.h - the one way the rules core gets a random number.
 *
 * A dice source is a function that yields the next value for a die of a
 * given number of sides.  Two sources exist: the keyed ChaCha20 stream of
 * a step's seed (ledger/) and the scripted list of a sandbox game or a
 * rules case (here).  dice_roll records every roll as an event with its
 * purpose, so a report can show each die and verify can replay it.
 *
 * Failure is sticky: when the source fails (scripted dice ran out, or a
 * value does not fit the die) dice_roll returns 1, sets d->failed and
 * keeps the first message; the adjudicator checks d->failed once at the
 * end and throws the whole step away.  That keeps the rules code free of
 * error plumbing on every roll without ever letting a bad roll stand.
 */
#ifndef DESPATCH_CORE_DICE_H
#define DESPATCH_CORE_DICE_H

#include <stdarg.h>

#include "core/err.h"
#include "core/events.h"

struct dice {
	/* Returns 0 and the value 1..sides in *out, or -1 with e set. */
	int (*next)(void *ctx, int sides, int *out, struct err *e);
	void *ctx;
	struct events *log;  /* rolls are appended here (may be NULL) */
	int side;            /* side recorded on roll events, -1 for none */
	int failed;
	struct err err;
	long rolls;
};

void dice_init(struct dice *d, int (*next)(void *, int, int *, struct err *),
    void *ctx, struct events *log);

/* Rolls one die of `sides` for the purpose given by a message of a
 * catalogue (msg, types and fmt, as events_say takes them): the roll's
 * event carries that message, and its sentence is "d6 = 4: " and the
 * purpose.  Always returns a value in 1..sides; on source failure returns
 * 1 and sets d->failed (see above). */
int dice_roll(struct dice *d, int sides, int unit, const char *msg,
    const char *types, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int dice_vroll(struct dice *d, int sides, int unit, const char *msg,
    const char *types, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

/* A scripted source over a list of values. */
struct dice_script {
	const int *v;
	int n;
	int pos;
};

int dice_script_next(void *ctx, int sides, int *out, struct err *e);
/* 0 if every value was used, else -1 with e saying how many are left. */
int dice_script_done(const struct dice_script *s, struct err *e);

/* Parses whitespace-separated integers (and # comments) into a malloc'd
 * array; -1 with e set on anything else.  `what` names the source in
 * messages ("dice file x.txt"). */
int dice_script_parse(const char *text, const char *what, int **out, int *n,
    struct err *e);

#endif
