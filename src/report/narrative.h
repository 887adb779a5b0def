/*
 * narrative.h - the sentences players read: each event's rules-core
 * sentence rewritten by the ruleset's templates (templates/RULESET.txt),
 * with the ground named and the time of day in words.
 */
#ifndef DESPATCH_REPORT_NARRATIVE_H
#define DESPATCH_REPORT_NARRATIVE_H

#include <stddef.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/events.h"

struct narrative;
struct ruleset;

/* Reads a template file's text (origin names it in errors) against the
 * ruleset's message catalogue msgs (NULL: any id, and {1} to {12}).
 * Every entry is a "msg: ID" line and a "says: SENTENCE" line; "#" lines
 * and blank lines are skipped.  ERR_USER, naming the file and line, for
 * a line of neither kind, an id the catalogue lacks, an id without its
 * sentence, an id given twice, or a placeholder the message cannot fill.
 * NULL with e set on failure. */
struct narrative *narrative_parse(const char *text, size_t len,
    const char *origin, const struct event_msg *msgs, struct err *e);
void narrative_free(struct narrative *n);
int narrative_count(const struct narrative *n);

/* The templates of ruleset: DIR/RULESET.txt when dir is set and holds
 * that file, else those built from templates/ into the program.  NULL
 * with e set when they do not load, or (ERR_USER) when there are none
 * for the ruleset. */
struct narrative *narrative_load(const char *ruleset,
    const struct event_msg *msgs, const char *dir, struct err *e);

/* The templates of rs: its own (narrative_load, against its own
 * catalogue), then, for a ruleset built on another (struct
 * ruleset.base), the base's for every message its own file does not
 * reword, each file checked against its own ruleset's catalogue.  NULL
 * with e set as narrative_load. */
struct narrative *narrative_load_ruleset(const struct ruleset *rs,
    const char *dir, struct err *e);

/* The sentence a player reads for x, into out: its template filled in
 * (returns 1), or the catalogue's own sentence when x has no message or
 * the message no template (returns 0).  b is the battle after the
 * phase, for {place}. */
int narrative_say(const struct narrative *n, const struct battle *b,
    const struct event *x, char *out, size_t size);

/* ", in the West woods", ", on Morgan's hill", ", on Green River Road":
 * the named ground unit u's centre is on ("" if none). */
void narrative_place(const struct battle *b, int u, char *out, size_t size);

/* A time of day in words: "a quarter past seven in the morning". */
void narrative_time(int minutes, char *out, size_t size);

/* The template files built into the program (cmake/embed_templates.cmake). */
struct narrative_src {
	const char *ruleset;
	const char *text;
};
extern const struct narrative_src narrative_builtin[];
extern const int narrative_builtin_count;

#endif
