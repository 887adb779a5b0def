/*
 * story.c - the "What happened" list of a report: the step's events the
 * reader may know, in the order they happened, each told by its
 * template, with runs of sentences that say the same thing told once.
 *
 * Two kinds of run are folded, both only between neighbours, so the
 * order of what happened is never changed:
 *
 *  - the same sentence of different units ("Hayes's Regiment stood fast,
 *    on Militia ridge." then "Brandon's Regiment stood fast, on Militia
 *    ridge.") becomes one with every name ("Hayes's Regiment and
 *    Brandon's Regiment stood fast, on Militia ridge."), the verb made
 *    plural; a sentence that says "it" or "its" of its unit is left
 *    alone, since a plural would need its pronouns rewritten too, and
 *    so is one with a number in it, which would read as the units'
 *    together;
 *  - sentences of one subject, a unit or a stand of one ("Georgia
 *    Riflemen (stand 1) wavered ...", "... broke and fled", "... lost
 *    1 SP"), become one sentence of clauses joined by semicolons, at
 *    most RUN_MAX of them and RUN_LEN bytes.
 *
 * The subject is read from the sentence's start: the name of the event's
 * unit, with "(stand N)" after it where the template put one.  A template
 * that names its unit elsewhere simply is not folded.
 *
 * Workload: once per report, one pass over the step's events, each told
 * at most twice (the lookahead).  Pure: no I/O, no clock.
 */
#include "report/report.h"
#include "report/narrative.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define RUN_MAX 6       /* clauses a folded sentence holds */
#define RUN_LEN 320     /* bytes a folded sentence may reach */
#define SAID_MAX (2 * EVENT_TEXT_MAX)

struct said {
	char line[SAID_MAX];
	size_t name;    /* length of the unit's name at the start, 0 if none */
	size_t subj;    /* with " (stand N)" where there is one */
};

static void
tell(const struct narrative *nar, const struct battle *b,
    const struct event *e, struct said *s)
{
	size_t n, len;
	const char *p;

	narrative_say(nar, b, e, s->line, sizeof(s->line));
	s->name = s->subj = 0;
	if (e->unit < 0 || e->unit >= b->nunits)
		return;
	n = strlen(b->units[e->unit].name);
	if (strncmp(s->line, b->units[e->unit].name, n) != 0 ||
	    s->line[n] != ' ')
		return;
	s->name = s->subj = n;
	if (strncmp(s->line + n, " (stand ", 8) == 0 &&
	    (p = strchr(s->line + n + 8, ')')) != NULL && p[1] == ' ')
		s->subj = (size_t)(p + 1 - s->line);
	/* A subject with nothing after it is no subject. */
	len = strlen(s->line);
	if (s->subj + 1 >= len)
		s->name = s->subj = 0;
}

/* What the sentence says of its subject: after the subject and a space. */
static const char *
rest(const struct said *s)
{
	return s->line + s->subj + 1;
}

/* 1 if the text names its subject again as "it" or "its". */
static int
pronoun(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "it")) != NULL; p += 2) {
		size_t w = p[2] == 's' ? 3 : 2;

		if ((p == s || !isalpha((unsigned char)p[-1])) &&
		    !isalpha((unsigned char)p[w]))
			return 1;
	}
	return 0;
}

/* 1 if the text has a number in it. */
static int
numbered(const char *s)
{
	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			return 1;
	return 0;
}

/* Sentences a and b say the same of two different units.  Not where
 * the sentence counts something ("opened fire: 1 die, 0 hits"): told of
 * two units at once, the count would read as theirs together. */
static int
same_saying(const struct said *a, const struct said *b)
{
	return a->name > 0 && a->subj == a->name && b->name > 0 &&
	    b->subj == b->name && strcmp(rest(a), rest(b)) == 0 &&
	    (a->name != b->name || strncmp(a->line, b->line, a->name) != 0) &&
	    !pronoun(rest(a)) && !numbered(rest(a));
}

/* Sentences a and b have one subject. */
static int
same_subject(const struct said *a, const struct said *b)
{
	return a->subj > 0 && a->subj == b->subj &&
	    strncmp(a->line, b->line, a->subj) == 0;
}

/* The plural of a sentence's first word where it is a verb that has one. */
static const char *
plural(const char *r, size_t *skip)
{
	static const struct {
		const char *one, *many;
	} verbs[] = { { "was ", "were " }, { "is ", "are " }, { "has ", "have " } };
	size_t k;

	for (k = 0; k < sizeof(verbs) / sizeof(verbs[0]); k++)
		if (strncmp(r, verbs[k].one, strlen(verbs[k].one)) == 0) {
			*skip = strlen(verbs[k].one);
			return verbs[k].many;
		}
	*skip = 0;
	return "";
}

/* The clause of s without its closing full stop, into t. */
static void
clause(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '.')
		n--;
	text_add(t, "%.*s", (int)n, s);
}

/* The shown events' indexes: every event a reader is told of (known:
 * NULL for all), counting in *hidden those kept from them. */
static int *
shown_events(const struct battle *b, const struct events *ev, int side,
    const unsigned char *known, int *n, int *hidden)
{
	int *v = malloc(((size_t)ev->n + 1) * sizeof(*v)), i;

	*n = 0;
	*hidden = 0;
	if (v == NULL)
		return NULL;
	for (i = 0; i < ev->n; i++) {
		/* The dice are the appendix's; a step's heading (its phase,
		 * the deployment, or one stored before events were typed,
		 * with no message) is the report's own.  Any other line of
		 * the turn's (a ruleset's initiative roll) is told to every
		 * side. */
		if (ev->v[i].kind == EV_ROLL || (ev->v[i].kind == EV_PHASE &&
		    (ev->v[i].msg[0] == '\0' ||
		    strcmp(ev->v[i].msg, "phase") == 0 ||
		    strcmp(ev->v[i].msg, "deployment") == 0)))
			continue;
		if (known != NULL && !report_event_known(b, side, known,
		    &ev->v[i])) {
			(*hidden)++;
			continue;
		}
		v[(*n)++] = i;
	}
	return v;
}

int
report_story(struct text *t, const struct narrative *nar,
    const struct battle *b, const struct events *ev, int side,
    const unsigned char *known, int *hidden)
{
	struct said *cur, *next;
	int *v, n, i, j, told = 0;

	v = shown_events(b, ev, side, known, &n, hidden);
	cur = malloc(sizeof(*cur));
	next = malloc(sizeof(*next));
	if (v == NULL || cur == NULL || next == NULL) {
		free(v);
		free(cur);
		free(next);
		return -1;
	}
	for (i = 0; i < n; i = j) {
		tell(nar, b, &ev->v[v[i]], cur);
		j = i + 1;
		if (j < n)
			tell(nar, b, &ev->v[v[j]], next);
		if (j < n && same_saying(cur, next)) {
			/* The names, then what they did, once. */
			struct said *first = cur;
			int k, m = 1;
			size_t skip;
			const char *verb;

			while (j + m < n) {
				struct said probe;

				tell(nar, b, &ev->v[v[j + m]], &probe);
				if (!same_saying(first, &probe))
					break;
				m++;
			}
			text_add(t, "- %.*s", (int)cur->name, cur->line);
			for (k = 1; k <= m; k++) {
				tell(nar, b, &ev->v[v[i + k]], next);
				text_add(t, "%s%.*s", k == m ? " and " : ", ",
				    (int)next->name, next->line);
			}
			verb = plural(rest(first), &skip);
			text_add(t, " %s%s\n", verb, rest(first) + skip);
			j = i + m + 1;
		} else if (j < n && same_subject(cur, next) &&
		    strlen(cur->line) + strlen(rest(next)) + 2 <= RUN_LEN) {
			/* One subject: its clauses in one sentence. */
			size_t len = strlen(cur->line);
			int m = 1;

			text_add(t, "- ");
			clause(t, cur->line);
			while (j < n && m < RUN_MAX && same_subject(cur, next) &&
			    len + strlen(rest(next)) + 2 <= RUN_LEN) {
				text_add(t, "; ");
				clause(t, rest(next));
				len += strlen(rest(next)) + 2;
				m++;
				if (++j < n)
					tell(nar, b, &ev->v[v[j]], next);
			}
			text_add(t, ".\n");
		} else {
			text_add(t, "- %s\n", cur->line);
		}
		told++;
	}
	free(v);
	free(cur);
	free(next);
	return told;
}
