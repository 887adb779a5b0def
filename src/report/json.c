/*
 * json.c - the JSON writer (see json.h).
 */
#include "report/json.h"

#include <string.h>

void
jw_init(struct jw *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = 1;
}

static void
newline(struct jw *j)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void
escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
key(struct jw *j, const char *k)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = 0;
		newline(j);
	}
	if (k != NULL) {
		escape(j->f, k);
		fputs(": ", j->f);
	}
}

static void
open_(struct jw *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth + 1 < JW_DEPTH)
		j->depth++;
	j->first[j->depth] = 1;
}

static void
close_(struct jw *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->f);
}

void
jw_obj(struct jw *j, const char *k)
{
	open_(j, k, '{');
}

void
jw_arr(struct jw *j, const char *k)
{
	open_(j, k, '[');
}

void
jw_end_obj(struct jw *j)
{
	close_(j, '}');
}

void
jw_end_arr(struct jw *j)
{
	close_(j, ']');
}

void
jw_str(struct jw *j, const char *k, const char *v)
{
	key(j, k);
	if (v == NULL)
		fputs("null", j->f);
	else
		escape(j->f, v);
}

void
jw_int(struct jw *j, const char *k, int64_t v)
{
	key(j, k);
	fprintf(j->f, "%lld", (long long)v);
}

void
jw_bool(struct jw *j, const char *k, int v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void
jw_fx(struct jw *j, const char *k, fx v)
{
	char buf[32];

	key(j, k);
	fputs(geom_fmt_fx(v, buf, sizeof(buf)), j->f);
}

void
jw_null(struct jw *j, const char *k)
{
	key(j, k);
	fputs("null", j->f);
}

void
jw_done(struct jw *j)
{
	fputc('\n', j->f);
}
