/*
 * events_json.h - a step's events as an archive line gives them
 * (docs/ledger.md, "The archive"): written by export, read by verify.
 *
 * Each event is an object of its kind, side, unit, target, value and
 * die (sides), then, as its engine signed it (struct ledger_engine,
 * typed_events): its message id and typed values (from engine 5), or
 * its sentence (before).
 */
#ifndef DESPATCH_LEDGER_EVENTS_JSON_H
#define DESPATCH_LEDGER_EVENTS_JSON_H

#include <jansson.h>

#include "core/events.h"

/* Does object o have exactly these keys (NULL-terminated), in this
 * order?  The order too, because an archive is what despatch writes
 * byte for byte, and a line with its keys moved reads back the same. */
int ledger_json_keys_exact(json_t *o, const char *const *keys);

/* The events of ev whose step (steps[i]) is step, as an array; typed:
 * with their messages, else their sentences.  NULL when out of memory. */
json_t *ledger_events_to_json(const struct events *ev, const int *steps,
    int step, int typed);

/* The events of an archive line into ev (initialised by the caller):
 * -1 when arr is not an array of such objects, exactly, with every
 * number a whole one in int's range. */
int ledger_events_from_json(json_t *arr, int typed, struct events *ev);

/* 1 when a and b are the same events (their messages and signed values
 * when both have them, their sentences when both have them: an archive
 * of engine 5 gives no sentence and no wording, one of engine 4 no
 * message); else 0, with *at the first that differs. */
int ledger_events_same(const struct events *a, const struct events *b,
    int *at);

#endif
