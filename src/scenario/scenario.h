/*
 * scenario.h - reading a scenario file into a battle state.
 *
 * The format is documented in docs/scenario.md.  Every error names the
 * file and line ("cowpens.scenario:12: ...") and says what would be right.
 * Nothing is returned from a file with an error.
 */
#ifndef DESPATCH_SCENARIO_H
#define DESPATCH_SCENARIO_H

#include <stddef.h>

#include "core/battle.h"
#include "core/err.h"

#define SCENARIO_MAX_BYTES (1024u * 1024u)
#define SCENARIO_LINE_MAX  4096

/* Parses text (len bytes) into a new battle.  fname names the file in
 * messages; line numbers are reported as line + line_offset.  On success
 * returns 0 and *out owns the battle (free with battle_free); the
 * ruleset's prepare() has been run.  On error returns -1, *out is NULL
 * and e holds "fname:line: message". */
int scenario_parse(const char *text, size_t len, const char *fname,
    int line_offset, struct battle **out, struct err *e);

/* Reads and parses a file (at most SCENARIO_MAX_BYTES), with the one
 * it includes, if any (`include "FILE"`, src/scenario/include.c):
 * *text is then the expanded text, which stands alone.  An error names
 * the file and line it is in. */
int scenario_load_file(const char *path, char **text, size_t *len,
    struct battle **out, struct err *e);

/* Reads a scenario file with the one it includes, if any, into one text
 * that stands alone (as scenario_load_file, without parsing it).  -1
 * with e set on error. */
int scenario_expand_file(const char *path, char **text, size_t *len,
    struct err *e);

/* Reads a whole file into a malloc'd NUL-terminated buffer, refusing one
 * larger than max.  -1 with e set on error. */
int scenario_read_file(const char *path, size_t max, char **text, size_t *len,
    struct err *e);

#endif
