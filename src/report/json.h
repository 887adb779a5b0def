/*
 * json.h - jw, a small JSON writer: the CLI's --json output and the JSON
 * report a player may have attached to each turn's mail.  Its names are
 * its own (jw_), apart from jansson's json_ ones: despatch links both,
 * and a json_null of ours once stood in for libjansson's.
 *
 * Writes to a FILE with commas managed for the caller; strings are
 * escaped per RFC 8259.  Numbers in inches are written from fixed point
 * with up to two decimals, never through floating point.
 */
#ifndef DESPATCH_REPORT_JSON_H
#define DESPATCH_REPORT_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "core/geom.h"

#define JW_DEPTH 32

struct jw {
	FILE *f;
	int depth;
	int first[JW_DEPTH];
	int indent;
};

void jw_init(struct jw *j, FILE *f);
void jw_obj(struct jw *j, const char *key);   /* key NULL in arrays */
void jw_arr(struct jw *j, const char *key);
void jw_end_obj(struct jw *j);
void jw_end_arr(struct jw *j);
void jw_str(struct jw *j, const char *key, const char *v);  /* NULL -> null */
void jw_int(struct jw *j, const char *key, int64_t v);
void jw_bool(struct jw *j, const char *key, int v);
void jw_fx(struct jw *j, const char *key, fx v);
void jw_null(struct jw *j, const char *key);
void jw_done(struct jw *j);

#endif
