/*
 * dice.c - rolling through a dice source; the scripted source.
 */
#include "core/dice.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
dice_init(struct dice *d, int (*next)(void *, int, int *, struct err *),
    void *ctx, struct events *log)
{
	memset(d, 0, sizeof(*d));
	d->next = next;
	d->ctx = ctx;
	d->log = log;
	d->side = -1;
}

int
dice_vroll(struct dice *d, int sides, int unit, const char *msg,
    const char *types, const char *fmt, va_list ap)
{
	int v = 1;

	if (d->failed)
		return 1;
	if (d->next(d->ctx, sides, &v, &d->err) != 0) {
		d->failed = 1;
		return 1;
	}
	d->rolls++;
	if (d->log != NULL) {
		char why[160];
		struct event *x;
		int before = d->log->n;
		va_list aq;

		va_copy(aq, ap);
		vsnprintf(why, sizeof(why), fmt, aq);
		va_end(aq);
		utf8_trim_tail(why);
		events_vsay(d->log, EV_ROLL, d->side, unit, -1, v, msg, types, fmt,
		    ap);
		if (d->log->n == before)
			return v;
		x = &d->log->v[d->log->n - 1];
		snprintf(x->text, sizeof(x->text), "d%d = %d: %s", sides, v, why);
		utf8_trim_tail(x->text);
		x->sides = sides;
	}
	return v;
}

int
dice_roll(struct dice *d, int sides, int unit, const char *msg,
    const char *types, const char *fmt, ...)
{
	va_list ap;
	int v;

	va_start(ap, fmt);
	v = dice_vroll(d, sides, unit, msg, types, fmt, ap);
	va_end(ap);
	return v;
}

int
dice_script_next(void *ctx, int sides, int *out, struct err *e)
{
	struct dice_script *s = ctx;

	if (s->pos >= s->n)
		return err_set(e, ERR_USER,
		    "the scripted dice ran out: %d were given and a d%d was "
		    "needed for roll %d", s->n, sides, s->pos + 1);
	if (s->v[s->pos] < 1 || s->v[s->pos] > sides)
		return err_set(e, ERR_USER,
		    "scripted die %d is %d, which a d%d cannot roll (1 to %d)",
		    s->pos + 1, s->v[s->pos], sides, sides);
	*out = s->v[s->pos++];
	return 0;
}

int
dice_script_done(const struct dice_script *s, struct err *e)
{
	if (s->pos < s->n)
		return err_set(e, ERR_USER,
		    "%d scripted dice were left unused (the step rolled %d of %d)",
		    s->n - s->pos, s->pos, s->n);
	return 0;
}

int
dice_script_parse(const char *text, const char *what, int **out, int *n,
    struct err *e)
{
	int *v = NULL, cap = 0, cnt = 0, line = 1;
	const char *p = text;

	*out = NULL;
	*n = 0;
	while (*p) {
		if (*p == '\n') {
			line++;
			p++;
		} else if (isspace((unsigned char)*p) || *p == ',') {
			p++;
		} else if (*p == '#') {
			while (*p && *p != '\n')
				p++;
		} else if (isdigit((unsigned char)*p) || *p == '-') {
			char *end = NULL;
			long val = strtol(p, &end, 10);

			if (end == p || (*end && !isspace((unsigned char)*end) &&
			    *end != ',' && *end != '#') || val < -1000 || val > 1000) {
				free(v);
				return err_set(e, ERR_USER,
				    "%s:%d: not a die value: each die is a whole "
				    "number such as 4", what, line);
			}
			if (cnt == cap) {
				int *nv;

				cap = cap ? cap * 2 : 64;
				if (cap > 1000000 || (nv = realloc(v,
				    (size_t)cap * sizeof(*v))) == NULL) {
					free(v);
					return err_set(e, ERR_USER,
					    "%s: too many dice", what);
				}
				v = nv;
			}
			v[cnt++] = (int)val;
			p = end;
		} else {
			free(v);
			return err_set(e, ERR_USER,
			    "%s:%d: unexpected '%c': a dice file holds whole "
			    "numbers separated by spaces or new lines", what,
			    line, *p);
		}
	}
	*out = v;
	*n = cnt;
	return 0;
}
