/*
 * preview_util.h - what the rulesets' order previews (their `preview`
 * and `crib` hooks, struct ruleset) share: appending whole pieces of text
 * to a bounded reply, and a warning wrapped to the reply's width.
 */
#ifndef DESPATCH_CORE_PREVIEW_UTIL_H
#define DESPATCH_CORE_PREVIEW_UTIL_H

#include <stddef.h>

/* The column a wrapped warning stays under. */
#define PREVIEW_WIDTH 79

/* Appends the formatted text to out (size bytes, k of them used, out
 * NUL-terminated at k) and returns the new length.  A piece that does
 * not fit is not written: once, "  (more not shown)\n" is, when it fits,
 * and the length returned is size, so every later call appends nothing.
 * Text is never cut inside a piece, so never inside a character. */
size_t preview_say(char *out, size_t size, size_t k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends "  line N: " and the formatted text, wrapped at spaces so that
 * no line is longer than PREVIEW_WIDTH columns (a word longer than a
 * line is left whole), its further lines indented four spaces, ended by
 * a newline; as preview_say otherwise.  The text may hold at most 2 KiB. */
size_t preview_warn(char *out, size_t size, size_t k, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
