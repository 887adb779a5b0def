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

#include <stdint.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/order.h"
#include "core/ruleset.h"

#define ORDERS_TEXT_MAX   600
#define ORDERS_MAX_LINES  400

struct orders_header {
	int found;            /* a GAME word with its value was found */
	int line;             /* its last line in the body (0: the Subject);
	                       * order lines start after it */
	int first_line;       /* its first line (0: the Subject) */
	char game[64];        /* the game named, or the campaign */
	int campaign;         /* game[] came after CAMPAIGN, not GAME */
	char side[BATTLE_ID_MAX];
	int turn;             /* 0 if absent or TURN 0 (a battle's
	                       * deployment: the open phase is read), -1 if
	                       * not a number */
	char turn_text[16];   /* the TURN value as written */
	char secret[128];     /* as typed; "" if absent */
};

/* OK: an order understood; ERROR: a line that should have been one;
 * PROSE: a greeting or sign-off line around the orders, ignored without
 * complaint; COMMAND: a mail command (in cmds); REPLACED: an order a later
 * line for the same unit replaced (players correct themselves lower
 * down). */
enum orders_status { ORDERS_OK = 0, ORDERS_ERROR, ORDERS_PROSE,
	ORDERS_COMMAND, ORDERS_REPLACED };

enum orders_cmd_kind {
	CMD_HELP = 0, CMD_STATUS, CMD_ORDERS, CMD_RESEND, CMD_PRESS, CMD_WAIT,
	CMD_READY, CMD_CONCEDE, CMD_COMMIT, CMD_REVEAL, CMD_SET, CMD_CLEAR,
	CMD_QUESTION, CMD_UMPIRE, CMD_LIST, CMD_JOIN, CMD_DRAW, CMD_SECRET,
	CMD_ABSENT, CMD_HISTORY, CMD_COUNT
};

#define ORDERS_MAX_CMDS   8
#define ORDERS_PRESS_MAX  2000

struct orders_cmd {
	enum orders_cmd_kind kind;
	int line;
	char arg[64];                  /* PRESS: the addressee; CONCEDE: the
	                                * code, "" if none; SET: "mail" or
	                                * "password";
	                                * LIST: the game, "" for all;
	                                * JOIN: the game (text: the side);
	                                * DRAW: "withdraw", or "";
	                                * SECRET: the game, "" if none;
	                                * ABSENT: "cancel", or "";
	                                * HISTORY: "all", "turn" or
	                                * "range" */
	char text[ORDERS_PRESS_MAX];   /* PRESS: the message; COMMIT: the
	                                * hash (64 hex digits); REVEAL: the
	                                * nonce; SET MAIL: "text", "html" or
	                                * "full"; ABSENT: "YYYY-MM-DD
	                                * YYYY-MM-DD", from and to;
	                                * HISTORY: "" (all), "N" (TURN N)
	                                * or "N-M" */
};

struct orders_line {
	int line;             /* 1-based line in the body */
	enum orders_status status;
	int standing;         /* a standing order (set: standing) */
	int command;          /* a mail command's line (ORDERS_ERROR: one
	                       * written wrong), not an order */
	char text[ORDERS_TEXT_MAX];  /* canonical order, or the error */
	char raw[ORDERS_TEXT_MAX];   /* the line as written (trimmed) */
};

struct orders_result {
	struct orders_line lines[ORDERS_MAX_LINES];
	int nlines;
	int nerrors;
	int nprose;           /* greeting and sign-off lines ignored */
	int too_many;         /* more than ORDERS_MAX_LINES order lines */
	struct order_set set; /* the orders understood, in line order */
	struct order_set standing;  /* STANDING: orders, kept from phase to
	                             * phase and played when the player sends
	                             * none */
	int standing_lines;   /* lines given as standing orders (0: the mail
	                       * leaves the standing orders as they are) */
	int standing_clear;   /* "STANDING: NONE" */
	struct orders_cmd cmds[ORDERS_MAX_CMDS];
	int ncmds;
	int cmds_dropped;     /* commands past ORDERS_MAX_CMDS */
	size_t read_end;      /* bytes of the body read: up to the signature
	                       * or quoted mail that ended the orders */
};

struct orders_parser;

/* Compiles the ruleset's verbs; NULL with e set on failure.
 * orders_parser_free(NULL) is a no-op. */
struct orders_parser *orders_parser_new(const struct ruleset *rs,
    struct err *e);
void orders_parser_free(struct orders_parser *p);

/* Finds the header (GAME x SIDE y TURN n PASSWORD s: the words in any
 * order, with or without ':' '=' ',' between them, on one line or on
 * several lines in a row, a value wrapped onto the next line) in the
 * body, before the first order line; lines quoted with '>', attribution
 * lines and everything after a signature separator or an unmarked quoted
 * mail are never a header.  Prose before the header is skipped.  The
 * Subject fills what the body's header leaves out when it names the same
 * game, and is the header when the body has none.  Returns 0 (h->found
 * says whether one was found). */
int orders_find_header(struct orders_parser *p, const char *subject,
    const char *body, struct orders_header *h);

/* With on set, the parser reads orders stored earlier, to play them: a
 * line in the ruleset's own words is taken whatever the table needs of
 * it now (a piece played that the side no longer holds, say, since two
 * players of a side may each have played its one copy), and the
 * adjudicator says what came of it.  Off (the default), a mail is
 * checked against the table as it is. */
void orders_parser_replay(struct orders_parser *p, int on);

/* With on set, the parser reads order sets for a battle's deployment
 * step (core/deploy.h): "Unit: DEPLOY AT x,y [FACING n]" lines only,
 * each checked against the side's zones; off (the default), DEPLOY is
 * refused and the ruleset's orders are read.  Standing orders are the
 * ruleset's either way: they are kept for the turns after. */
void orders_parser_deploying(struct orders_parser *p, int on);

/* Limits what the parser's next mails may order to the brigades in mask
 * (bit i: brigade i) and, with army set, the army commander: a side with
 * several players.  mask 0 and army 0 lift the limit. */
void orders_parser_limit(struct orders_parser *p, uint64_t mask, int army);

/* Parses the order lines of body (those after header_line; pass 0 to read
 * every line) for `side`.  Fills *out (which the caller allocates: it is
 * large).  Returns 0; per-line problems are in out->lines. */
int orders_parse(struct orders_parser *p, const struct battle *b, int side,
    const char *body, int header_line, struct orders_result *out);

/* The lines of body after header_line that a player wrote for this
 * mail, as orders_parse reads them: each with text, trimmed, with its line
 * number (1: the body's first), to each(arg, line, text); never the lines
 * quoted with '>' or '|', a forwarded mail's header block, an
 * attribution line, nor anything after a signature separator or an
 * unmarked quoted mail.  For orders in a language other than the
 * battle's (a campaign's). */
void orders_body_lines(struct orders_parser *p, const char *body,
    int header_line, void (*each)(void *arg, int line, const char *text),
    void *arg);

/* If the body's first line with text (quoted lines aside) is a mail
 * command on its own (HELP, LIST), returns its kind, and the command in
 * *out when out is not NULL; else -1.  A command written wrong is its
 * kind too, with out->line -1 and what is wrong in out->text.  For mails
 * with no header. */
int orders_bare_command(struct orders_parser *p, const char *body,
    struct orders_cmd *out);

/* The command's word ("HELP"). */
const char *orders_cmd_word(enum orders_cmd_kind k);

/* The line of the mail behind an order (its raw text), "" if none. */
const char *orders_line_raw(const struct orders_result *r, int line);

/* Writes the canonical text of o ("Name: VERB ARGS [THEN ...]"). */
void orders_canonical(const struct battle *b, const struct order *o,
    char *buf, size_t size);

/* Blanks every occurrence of secret in buf (len bytes) with '*';
 * returns how many were blanked. */
int orders_blank_secret(char *buf, size_t len, const char *secret);

#endif
