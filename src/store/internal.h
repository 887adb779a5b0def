/*
 * internal.h - what the store's files share: the prepared-statement cache
 * and a column reader.  Not for use outside src/store/.
 */
#ifndef DESPATCH_STORE_INTERNAL_H
#define DESPATCH_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store/store.h"

/* A cached statement for sql, its parameters bound from the types string
 * and the arguments that follow (as store_exec); 0, or -1 with e set. */
int store_prepare(struct store *s, struct err *e, sqlite3_stmt **st,
    const char *sql, const char *types, ...);
/* A statement back to the cache (reset) or finalized. */
void store_stmt_release(struct store *s, sqlite3_stmt *st);
/* How many rows the last statement changed. */
int store_changes(struct store *s);
/* Column col as text into out (empty when NULL), cut to size. */
void store_col_text(sqlite3_stmt *st, int col, char *out, size_t size);

/* The battle's cards (cards.c): saved with the rest of its state; loaded
 * into a battle fresh from its scenario, 1 if they fit it, 0 if not (the
 * state is damaged), -1 with e set. */
int store_cards_save(struct store *s, int64_t game, const struct battle *b,
    struct err *e);
int store_cards_load(struct store *s, int64_t game, struct battle *b,
    struct err *e);

#endif
