/*
 * err.h - the error record every module hands back to its caller.
 *
 * A function that can fail returns -1 (or an error enum) and fills a
 * struct err with one sentence for the user: where (file:line when there
 * is one), what is wrong, and what would be right.  Library code never
 * prints; the CLI and daemon decide where the message goes.
 */
#ifndef DESPATCH_CORE_ERR_H
#define DESPATCH_CORE_ERR_H

#include <stddef.h>

#define ERR_MSG_MAX 1024

/* Kinds of failure the caller may need to tell apart (the pipe contract
 * in DESIGN maps ERR_TEMP to exit 75 so that an MTA retries). */
enum err_kind {
	ERR_NONE = 0,
	ERR_USER,     /* bad input: a scenario, an order, a mail, an argument */
	ERR_DATA,     /* stored data is missing or inconsistent */
	ERR_TEMP,     /* passing trouble: database locked, disk full */
	ERR_INTERNAL, /* a bug or an allocation failure */
	ERR_CONFLICT  /* a row with that unique key is there already */
};

struct err {
	enum err_kind kind;
	char msg[ERR_MSG_MAX];
};

/* Sets kind and a printf-style message; returns -1 so callers can write
 * `return err_set(e, ERR_USER, "...")`.  A NULL err is allowed. */
int err_set(struct err *e, enum err_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clears e (a NULL err is allowed). */
void err_clear(struct err *e);

/* The length of the valid UTF-8 prefix of s[0..n): n when all of it is
 * (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF). */
size_t utf8_valid_prefix(const char *s, size_t n);

/* Removes a UTF-8 sequence cut short at the end of s (what snprintf into
 * a fixed buffer can leave), so s stays valid UTF-8 if it was before. */
void utf8_trim_tail(char *s);

#endif
