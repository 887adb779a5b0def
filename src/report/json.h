/*
 * json.h - a small JSON writer: the CLI's --json output and the JSON
 * report a player may have attached to each turn's mail.
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

#define JSON_DEPTH 32

struct json {
	FILE *f;
	int depth;
	int first[JSON_DEPTH];
	int indent;
};

void json_init(struct json *j, FILE *f);
void json_obj(struct json *j, const char *key);   /* key NULL in arrays */
void json_arr(struct json *j, const char *key);
void json_end_obj(struct json *j);
void json_end_arr(struct json *j);
void json_str(struct json *j, const char *key, const char *v);  /* NULL -> null */
void json_int(struct json *j, const char *key, int64_t v);
void json_bool(struct json *j, const char *key, int v);
void json_fx(struct json *j, const char *key, fx v);
void json_null(struct json *j, const char *key);
void json_done(struct json *j);

#endif
