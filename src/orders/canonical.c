/*
 * canonical.c - the canonical text of an order: what the reply to a mail
 * repeats and what the store keeps, written so that parsing it again
 * gives the same order (tests/unit/orders: canonical_text_parses_...).
 */
#include "orders/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/ruleset.h"

/* Verb v's row in ruleset rs's verb table: its word and what it takes
 * after it; NULL when the ruleset has no such verb. */
static const struct verb_def *
verb_def(const struct ruleset *rs, int v)
{
	int i;

	for (i = 0; rs != NULL && i < rs->nverbs; i++)
		if (rs->verbs[i].verb == v)
			return &rs->verbs[i];
	return NULL;
}

/* A bounded appender for canonical text: it is written for every order
 * line of every mail, so it avoids printf. */
struct canon {
	char *buf;
	size_t size, k;
};

/* Appends s[0..n), cut to the room left (c->k < c->size always).  The
 * text's end is written once, by canon_end: what the buffer holds is the
 * same as when each piece was ended. */
static inline void
canon_putn(struct canon *c, const char *s, size_t n)
{
	size_t room = c->size - 1 - c->k, i;

	if (n > room)
		n = room;
	if (n <= 8) {
		/* The short words and numbers between the names. */
		for (i = 0; i < n; i++)
			c->buf[c->k + i] = s[i];
	} else {
		memcpy(c->buf + c->k, s, n);
	}
	c->k += n;
}

static void
canon_end(struct canon *c)
{
	c->buf[c->k] = '\0';
}

static void
canon_put(struct canon *c, const char *s)
{
	canon_putn(c, s, strlen(s));
}

/* A string literal, its length known when it is compiled. */
#define CANON_LIT(c, lit) canon_putn((c), (lit), sizeof(lit) - 1)

/* A non-negative whole number. */
static void
canon_int(struct canon *c, long long v)
{
	char d[24];
	int n = (int)sizeof(d) - 1;

	/* Most are a digit or two: a distance, a bearing, a count. */
	if (v >= 0 && v < 100) {
		d[0] = (char)('0' + v / 10);
		d[1] = (char)('0' + v % 10);
		if (v < 10)
			canon_putn(c, d + 1, 1);
		else
			canon_putn(c, d, 2);
		return;
	}
	d[n] = '\0';
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && n > 0);
	canon_putn(c, d + n, sizeof(d) - 1 - (size_t)n);
}

/* Inches from hundredths, without trailing zeros (as geom_fmt_fx). */
static void
canon_fx(struct canon *c, fx v)
{
	long long a = v < 0 ? -(long long)v : v;
	char frac[4];

	if (v < 0)
		CANON_LIT(c, "-");
	canon_int(c, a / 100);
	if (a % 100 == 0)
		return;
	frac[0] = '.';
	frac[1] = (char)('0' + a % 100 / 10);
	frac[2] = (char)(a % 10 ? '0' + a % 10 : 0);
	frac[3] = '\0';
	canon_putn(c, frac, a % 10 ? 3 : 2);
}

/* FORM's word by the formation's name: LINE (MOUNTED for cavalry),
 * SKIRMISH, ROAD ... (a ruleset without its own words). */
static void
canon_form(struct canon *c, const struct battle *b, const struct order *o,
    enum formation form)
{
	const char *n = battle_form_name(form);
	char f[16];
	size_t j;

	for (j = 0; n[j] && j + 1 < sizeof(f); j++)
		f[j] = (char)toupper((unsigned char)n[j]);
	f[j] = '\0';
	canon_put(c, form != FORM_LINE ? f : !o->is_commander &&
	    b->units[o->who].base_kind == KIND_MOUNTED ? "MOUNTED" : "LINE");
}

size_t
orders_canonical_n(const struct ruleset *rs, const struct battle *b,
    const struct order *o, char *buf, size_t size)
{
	struct canon c = { buf, size, 0 };
	int i;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (o->special != 0) {
		if (rs != NULL && rs->order_text != NULL)
			rs->order_text(b, o, buf, size);
		return strlen(buf);
	}
	canon_put(&c, o->is_commander ? b->commanders[o->who].name :
	    b->units[o->who].name);
	CANON_LIT(&c, ":");
	for (i = 0; i < o->nsteps; i++) {
		const struct order_step *st = &o->steps[i];
		const struct verb_def *vd = verb_def(rs, st->verb);

		if (i)
			CANON_LIT(&c, " THEN ");
		else
			CANON_LIT(&c, " ");
		if (st->verb == V_DEPLOY) {
			/* every ruleset's, in no ruleset's table */
			CANON_LIT(&c, "DEPLOY AT ");
			canon_fx(&c, st->pt.x);
			CANON_LIT(&c, ",");
			canon_fx(&c, st->pt.y);
			if (st->angle >= 0) {
				CANON_LIT(&c, " FACING ");
				canon_int(&c, st->angle);
			}
			continue;
		}
		canon_put(&c, vd != NULL ? vd->word : "?");
		/* What follows the word is what the verb's table entry says
		 * it takes, for a ruleset's own verbs as for the shared
		 * ones (a ruleset's "FALL BACK 2" must keep its 2). */
		switch (vd != NULL ? vd->arg : ARG_NONE) {
		case ARG_COUNT:
			CANON_LIT(&c, " ");
			canon_int(&c, st->angle);
			break;
		case ARG_DIST:
			CANON_LIT(&c, " ");
			canon_fx(&c, st->dist);
			break;
		case ARG_POINT:
			CANON_LIT(&c, " ");
			canon_fx(&c, st->pt.x);
			CANON_LIT(&c, ",");
			canon_fx(&c, st->pt.y);
			break;
		case ARG_TURN:
			if (st->angle < 0)
				CANON_LIT(&c, " LEFT ");
			else
				CANON_LIT(&c, " RIGHT ");
			canon_int(&c, abs(st->angle));
			break;
		case ARG_BEARING:
			CANON_LIT(&c, " ");
			canon_int(&c, st->angle);
			break;
		case ARG_FORMATION:
			CANON_LIT(&c, " ");
			if (rs != NULL && rs->form_word != NULL && !o->is_commander)
				canon_put(&c, rs->form_word(b, o->who, st->form));
			else
				canon_form(&c, b, o, st->form);
			break;
		case ARG_ENEMY:
		case ARG_FRIEND:
			CANON_LIT(&c, " ");
			canon_put(&c, b->units[st->target].name);
			break;
		case ARG_NONE:
			break;
		}
	}
	canon_end(&c);
	return c.k;
}

void
orders_canonical_rs(const struct ruleset *rs, const struct battle *b,
    const struct order *o, char *buf, size_t size)
{
	(void)orders_canonical_n(rs, b, o, buf, size);
}

void
orders_canonical(const struct battle *b, const struct order *o, char *buf,
    size_t size)
{
	orders_canonical_rs(ruleset_find(b->ruleset), b, o, buf, size);
}
