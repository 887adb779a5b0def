/*
 * narrative.c - the sentences players read, from the templates in
 * templates/ (see narrative.h and templates/vnb-wing.txt).
 *
 * A ruleset's rules core writes each event as a message of its catalogue
 * (an id and typed values, core/events.h); the templates pair each id
 * with the sentence a player reads, which may reorder the values and
 * name the ground.  Keying on the id, not the wording, lets a template
 * be reworded without touching a signed hash; a message without a
 * template is found by tests/report/patterns.py, and a template for an
 * id the catalogue lacks, or with a placeholder its message cannot fill,
 * is refused when the templates load, so no player ever reads a blank.
 *
 * Workload: a few dozen templates a ruleset, loaded once; a lookup (a
 * binary search on the id) and an expansion a reported event.
 */
#include "report/narrative.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/geom.h"
#include "core/ruleset.h"

struct narr_entry {
	char *msg;
	char *says;
};

struct narrative {
	struct narr_entry *v;
	int n;
};

void
narrative_free(struct narrative *n)
{
	int i;

	if (n == NULL)
		return;
	for (i = 0; i < n->n; i++) {
		free(n->v[i].msg);
		free(n->v[i].says);
	}
	free(n->v);
	free(n);
}

/* The catalogue's entry for id, or NULL. */
static const struct event_msg *
msg_find(const struct event_msg *msgs, const char *id)
{
	for (; msgs != NULL && msgs->id != NULL; msgs++)
		if (strcmp(msgs->id, id) == 0)
			return msgs;
	return NULL;
}

/* Checks the placeholders of says against a message of nv values. */
static int
check_says(const char *says, int nv, const char *origin, int line,
    struct err *e)
{
	const char *p = says, *end;

	while ((p = strpbrk(p, "{}")) != NULL) {
		char word[32];
		size_t len;
		int k;

		if (*p == '}')
			return err_set(e, ERR_USER, "%s:%d: a '}' without its '{'",
			    origin, line);
		end = strchr(p, '}');
		len = end != NULL ? (size_t)(end - p - 1) : 0;
		if (end == NULL || len == 0 || len >= sizeof(word))
			return err_set(e, ERR_USER, "%s:%d: a '{' that does not close "
			    "on a placeholder: write {1} to {%d}, {place}, "
			    "{target_place} or {text}", origin, line, nv);
		memcpy(word, p + 1, len);
		word[len] = '\0';
		if (strcmp(word, "place") != 0 && strcmp(word, "target_place") !=
		    0 && strcmp(word, "text") != 0) {
			k = isdigit((unsigned char)word[0]) ? atoi(word) : 0;
			if (k < 1 || k > nv || strspn(word, "0123456789") != len)
				return err_set(e, ERR_USER, "%s:%d: unknown placeholder "
				    "{%s}: this message gives %d value%s ({1} to {%d}); "
				    "the others are {place}, {target_place} and {text}",
				    origin, line, word, nv, nv == 1 ? "" : "s", nv);
		}
		p = end + 1;
	}
	return 0;
}

static int
by_msg(const void *a, const void *b)
{
	return strcmp(((const struct narr_entry *)a)->msg,
	    ((const struct narr_entry *)b)->msg);
}

/* The next line of text[*pos..len) without its end (CR LF or LF), into a
 * malloc'd string; NULL at the end. */
static char *
next_line(const char *text, size_t len, size_t *pos)
{
	size_t a = *pos, b;
	char *s = NULL;

	if (a >= len)
		return NULL;
	for (b = a; b < len && text[b] != '\n'; b++)
		;
	*pos = b < len ? b + 1 : b;
	if (b > a && text[b - 1] == '\r')
		b--;
	if ((s = malloc(b - a + 1)) == NULL)
		return NULL;
	memcpy(s, text + a, b - a);
	s[b - a] = '\0';
	return s;
}

struct narrative *
narrative_parse(const char *text, size_t len, const char *origin,
    const struct event_msg *msgs, struct err *e)
{
	struct narrative *n = calloc(1, sizeof(*n));
	size_t pos = 0;
	char *l = NULL, *msg = NULL;
	int line = 0, msg_line = 0, cap = 0, nv = 0, i;

	if (n == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		return NULL;
	}
	while ((l = next_line(text, len, &pos)) != NULL) {
		line++;
		if (l[0] == '\0' || l[0] == '#') {
			free(l);
			continue;
		}
		if (strncmp(l, "core: ", 6) == 0) {
			/* The keys of despatch 0.4 and before. */
			err_set(e, ERR_USER, "%s:%d: templates are keyed by message "
			    "id now (a \"msg: ID\" line), not by the rules core's "
			    "sentence: copy the entries of the ruleset's file in "
			    "templates/ and reword them", origin, line);
			goto fail;
		}
		if (strncmp(l, "msg: ", 5) == 0) {
			const struct event_msg *m = NULL;

			if (msg != NULL) {
				err_set(e, ERR_USER, "%s:%d: the message of line %d has "
				    "no \"says:\" line after it", origin, line, msg_line);
				goto fail;
			}
			if (l[5] == '\0' || strlen(l + 5) >= EVENT_MSG_MAX ||
			    strspn(l + 5, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
			    strlen(l + 5)) {
				err_set(e, ERR_USER, "%s:%d: \"%s\" is not a message id "
				    "(lower-case letters, digits and '-')", origin, line,
				    l + 5);
				goto fail;
			}
			if (msgs != NULL && (m = msg_find(msgs, l + 5)) == NULL) {
				err_set(e, ERR_USER, "%s:%d: the rules core writes no "
				    "message \"%s\" (its messages are the ids of "
				    "templates/ for this ruleset)", origin, line, l + 5);
				goto fail;
			}
			nv = m != NULL ? (int)strlen(m->types) : EVENT_ARGS_MAX;
			msg = strdup(l + 5);
			msg_line = line;
			free(l);
			l = NULL;
			if (msg == NULL)
				goto oom;
			continue;
		}
		if (strncmp(l, "says: ", 6) != 0 || msg == NULL) {
			err_set(e, ERR_USER, "%s:%d: expected %s, a line starting "
			    "\"%s\"", origin, line, msg == NULL ? "a message id" :
			    "its sentence", msg == NULL ? "msg: " : "says: ");
			goto fail;
		}
		if (check_says(l + 6, nv, origin, line, e) != 0)
			goto fail;
		if (n->n == cap) {
			struct narr_entry *nvec = NULL;

			cap = cap ? cap * 2 : 64;
			if ((nvec = realloc(n->v, (size_t)cap * sizeof(*nvec))) == NULL)
				goto oom;
			n->v = nvec;
		}
		n->v[n->n].msg = msg;
		n->v[n->n].says = strdup(l + 6);
		msg = NULL;
		if (n->v[n->n++].says == NULL)
			goto oom;
		free(l);
		l = NULL;
	}
	if (msg != NULL) {
		err_set(e, ERR_USER, "%s:%d: the message has no \"says:\" line "
		    "after it", origin, msg_line);
		goto fail;
	}
	if (n->n > 0)
		qsort(n->v, (size_t)n->n, sizeof(n->v[0]), by_msg);
	for (i = 1; i < n->n; i++)
		if (strcmp(n->v[i - 1].msg, n->v[i].msg) == 0) {
			err_set(e, ERR_USER, "%s: the message \"%s\" has two "
			    "templates", origin, n->v[i].msg);
			goto fail;
		}
	return n;
oom:
	err_set(e, ERR_INTERNAL, "out of memory reading %s", origin);
fail:
	free(l);
	free(msg);
	narrative_free(n);
	return NULL;
}

int
narrative_count(const struct narrative *n)
{
	return n != NULL ? n->n : 0;
}

void
narrative_place(const struct battle *b, int u, char *out, size_t size)
{
	struct pt c;
	int i;

	out[0] = '\0';
	if (u < 0 || u >= b->nunits || !battle_unit_centre(b, u, &c))
		return;
	/* Areas first (the ground a unit stands in), in scenario order;
	 * then a named road or stream it stands on. */
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		const char *prep;

		if (t->kind >= T_FIRST_LINE || t->name[0] == '\0' ||
		    !geom_in_poly(c, &b->points[t->first_pt], t->npts))
			continue;
		prep = t->kind == T_HILL ? "on" : "in";
		snprintf(out, size, ", %s %s", prep, t->name);
		return;
	}
	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];
		int k;

		if (t->kind < T_FIRST_LINE || t->name[0] == '\0')
			continue;
		for (k = 0; k + 1 < t->npts; k++)
			if (geom_seg_dist(c, b->points[t->first_pt + k],
			    b->points[t->first_pt + k + 1]) <= FX(1)) {
				snprintf(out, size, ", %s %s", t->kind == T_ROAD ||
				    t->kind == T_SUNKEN_ROAD ? "on" : "by", t->name);
				return;
			}
	}
}

/* Appends s[0..n) to out[*k..size), stopping short rather than cutting
 * a UTF-8 sequence. */
static void
put_n(char *out, size_t size, size_t *k, const char *s, size_t n)
{
	if (*k + n + 1 > size) {
		n = size - 1 - *k;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(out + *k, s, n);
	*k += n;
	out[*k] = '\0';
}

static void
put(char *out, size_t size, size_t *k, const char *s)
{
	put_n(out, size, k, s, strlen(s));
}

/* A unit's name that ends in s is a plural ("Delaware Continentals",
 * "Light Infantry Companies"): a body of troops, where a commander's
 * or a regiment's own name ("Hayes", "Thomas's Regiment") is not one a
 * unit carries alone.  A name ending in ss ("Cross") is not a plural. */
static int
plural_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 2 && s[n - 1] == 's' && s[n - 2] != 's' &&
	    s[n - 2] != '\'';
}

int
narrative_say(const struct narrative *n, const struct battle *b,
    const struct event *x, char *out, size_t size)
{
	struct narr_entry key, *hit = NULL;
	const char *p;
	size_t k = 0;

	out[0] = '\0';
	if (size == 0)
		return 0;
	if (n == NULL || x->msg[0] == '\0' || n->n == 0) {
		snprintf(out, size, "%s", x->text);
		return 0;
	}
	key.msg = (char *)x->msg;
	hit = bsearch(&key, n->v, (size_t)n->n, sizeof(n->v[0]), by_msg);
	if (hit == NULL) {
		snprintf(out, size, "%s", x->text);
		return 0;
	}
	for (p = hit->says; *p != '\0'; ) {
		const char *open = strchr(p, '{'), *close = NULL;
		char piece[EVENT_TEXT_MAX], word[32];
		size_t lit = open != NULL ? (size_t)(open - p) : strlen(p);

		if (lit > 0)
			put_n(out, size, &k, p, lit);
		if (open == NULL)
			break;
		close = strchr(open, '}');   /* checked when loaded */
		snprintf(word, sizeof(word), "%.*s", (int)(close - open - 1),
		    open + 1);
		if (strcmp(word, "place") == 0)
			narrative_place(b, x->unit, piece, sizeof(piece));
		else if (strcmp(word, "target_place") == 0)
			narrative_place(b, x->target, piece, sizeof(piece));
		else if (strcmp(word, "text") == 0)
			snprintf(piece, sizeof(piece), "%s", x->text);
		else
			snprintf(piece, sizeof(piece), "%s", events_arg(x,
			    atoi(word) - 1));
		put(out, size, &k, piece);
		p = close + 1;
		/* The possessive of a unit's plural name is an apostrophe
		 * alone: "Delaware Continentals' charge". */
		if (p[0] == '\'' && p[1] == 's' && !isalpha((unsigned char)p[2]) &&
		    isdigit((unsigned char)word[0]) && atoi(word) >= 1 &&
		    atoi(word) <= x->nargs && x->types[atoi(word) - 1] == 'u' &&
		    plural_name(piece)) {
			put(out, size, &k, "'");
			p += 2;
		}
	}
	return 1;
}

void
narrative_time(int minutes, char *out, size_t size)
{
	static const char *const hours[12] = { "twelve", "one", "two", "three",
		"four", "five", "six", "seven", "eight", "nine", "ten", "eleven" };
	static const char *const mins[] = { "", "five", "ten", "a quarter",
		"twenty", "twenty-five", "half" };
	int h = (minutes / 60) % 24, m = minutes % 60, next = (h + 1) % 24;
	const char *part;

	if (minutes < 0) {
		snprintf(out, size, "?");
		return;
	}
	part = h < 12 ? "in the morning" : h < 18 ? "in the afternoon" :
	    "in the evening";
	if (m == 0 && h == 12)
		snprintf(out, size, "noon");
	else if (m == 0)
		snprintf(out, size, "%s o'clock %s", hours[h % 12], part);
	else if (m % 5 == 0 && m <= 30)
		snprintf(out, size, "%s past %s %s", mins[m / 5], hours[h % 12],
		    part);
	else if (m % 5 == 0)
		snprintf(out, size, "%s to %s %s", mins[(60 - m) / 5],
		    hours[next % 12], next < 12 ? "in the morning" : next < 18 ?
		    "in the afternoon" : "in the evening");
	else
		snprintf(out, size, "%d minutes past %s %s", m, hours[h % 12],
		    part);
}

struct narrative *
narrative_load_ruleset(const struct ruleset *rs, const char *dir,
    struct err *e)
{
	struct narrative *own, *base;
	struct narr_entry *v;
	int i, j, n;

	own = narrative_load(rs->name, rs->words != NULL ? rs->words->messages :
	    NULL, dir, e);
	if (own == NULL || rs->base == NULL)
		return own;
	if ((base = narrative_load_ruleset(rs->base, dir, e)) == NULL) {
		narrative_free(own);
		return NULL;
	}
	if ((v = realloc(own->v, (size_t)(own->n + base->n + 1) *
	    sizeof(*v))) == NULL) {
		narrative_free(own);
		narrative_free(base);
		err_set(e, ERR_INTERNAL, "out of memory");
		return NULL;
	}
	own->v = v;
	/* Both are sorted by id: the base's entries its own lacks move
	 * over, then the whole is sorted again. */
	n = own->n;
	for (i = j = 0; i < base->n; i++) {
		while (j < n && strcmp(own->v[j].msg, base->v[i].msg) < 0)
			j++;
		if (j < n && strcmp(own->v[j].msg, base->v[i].msg) == 0)
			continue;
		own->v[own->n++] = base->v[i];
		base->v[i].msg = base->v[i].says = NULL;
	}
	qsort(own->v, (size_t)own->n, sizeof(own->v[0]), by_msg);
	narrative_free(base);
	return own;
}

struct narrative *
narrative_load(const char *ruleset, const struct event_msg *msgs,
    const char *dir, struct err *e)
{
	int i;

	if (dir != NULL && dir[0] != '\0') {
		char path[4200];
		FILE *f = NULL;

		snprintf(path, sizeof(path), "%s/%s.txt", dir, ruleset);
		if ((f = fopen(path, "rb")) != NULL) {
			char *buf = NULL;
			size_t cap = 0, len = 0, got;
			struct narrative *n = NULL;

			do {
				char *nb = NULL;

				if (len + 4096 > cap) {
					cap = cap ? cap * 2 : 65536;
					if (cap > (4u << 20) ||
					    (nb = realloc(buf, cap)) == NULL) {
						free(buf);
						fclose(f);
						err_set(e, ERR_USER, "%s: too large, or out of "
						    "memory reading it", path);
						return NULL;
					}
					buf = nb;
				}
				got = fread(buf + len, 1, cap - len, f);
				len += got;
			} while (got > 0);
			fclose(f);
			n = narrative_parse(buf, len, path, msgs, e);
			free(buf);
			return n;
		}
	}
	for (i = 0; i < narrative_builtin_count; i++)
		if (strcmp(narrative_builtin[i].ruleset, ruleset) == 0)
			return narrative_parse(narrative_builtin[i].text,
			    strlen(narrative_builtin[i].text),
			    narrative_builtin[i].ruleset, msgs, e);
	err_set(e, ERR_USER, "there are no narrative templates for the ruleset "
	    "%s (templates/%s.txt)", ruleset, ruleset);
	return NULL;
}
