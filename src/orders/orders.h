/*
 * orders.h - the order language: mail text to typed orders.
 *
 * docs/orders.md is the player's description.  A parser is made for one
 * ruleset (it compiles that ruleset's verb table into PCRE2 patterns) and
 * reads a mail body against one battle: names are resolved against the
 * units and commanders on the table, with the nearest names suggested
 * when one does not match.
 *
 * Every meaningful line of the body gets a result: the canonical text of
 * what was understood (what the reply echoes, what the store keeps, and
 * what adjudication parses again), or a message saying what is wrong.
 */
#ifndef DESPATCH_ORDERS_H
#define DESPATCH_ORDERS_H

#include "core/battle.h"
#include "core/err.h"
#include "core/order.h"
#include "core/ruleset.h"

#define ORDERS_TEXT_MAX   600
#define ORDERS_MAX_LINES  400

struct orders_header {
	int found;            /* a GAME ... line was found */
	int line;             /* its line in the body (0: the Subject) */
	char game[64];
	char side[BATTLE_ID_MAX];
	int turn;             /* 0 if absent */
	char secret[128];     /* as typed; "" if absent */
};

enum orders_status { ORDERS_OK = 0, ORDERS_ERROR };

struct orders_line {
	int line;             /* 1-based line in the body */
	enum orders_status status;
	char text[ORDERS_TEXT_MAX];  /* canonical order, or the error */
	char raw[ORDERS_TEXT_MAX];   /* the line as written (trimmed) */
};

struct orders_result {
	struct orders_line lines[ORDERS_MAX_LINES];
	int nlines;
	int nerrors;
	int too_many;         /* more than ORDERS_MAX_LINES order lines */
	struct order_set set; /* the orders understood, in line order */
};

struct orders_parser;

/* Compiles the ruleset's verbs; NULL with e set on failure.
 * orders_parser_free(NULL) is a no-op. */
struct orders_parser *orders_parser_new(const struct ruleset *rs,
    struct err *e);
void orders_parser_free(struct orders_parser *p);

/* Finds the header line (GAME x SIDE y TURN n PASSWORD s) in the body's
 * first non-blank line, or else in the subject.  Returns 0 (h->found says
 * whether one was found). */
int orders_find_header(struct orders_parser *p, const char *subject,
    const char *body, struct orders_header *h);

/* Parses the order lines of body (those after header_line; pass 0 to read
 * every line) for `side`.  Fills *out (which the caller allocates: it is
 * large).  Returns 0; per-line problems are in out->lines. */
int orders_parse(struct orders_parser *p, const struct battle *b, int side,
    const char *body, int header_line, struct orders_result *out);

/* Writes the canonical text of o ("Name: VERB ARGS [THEN ...]"). */
void orders_canonical(const struct battle *b, const struct order *o,
    char *buf, size_t size);

/* Blanks every occurrence of secret in buf (len bytes) with '*';
 * returns how many were blanked. */
int orders_blank_secret(char *buf, size_t len, const char *secret);

#endif
