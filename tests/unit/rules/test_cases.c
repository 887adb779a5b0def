/*
 * test_cases.c - runs the worked rules cases in tests/rules/RULESET/ as
 * data (format: tests/rules/README.md), one cmocka test per case file.
 *
 * Each case is parsed, its scenario loaded, its steps adjudicated with its
 * scripted dice, and every expectation checked; a failure names the case
 * file and line, what was expected and what the engine produced, followed
 * by the events of the case so the difference can be read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/dice.h"
#include "core/ruleset.h"
#include "orders/orders.h"
#include "rules/vnb_wing.h"
#include "scenario/scenario.h"

#define MAX_CASES 2048
#define MAX_BLOCK 16

struct block {
	char side[64];
	int turn;
	int line;
	char *text;
};

struct kase {
	char path[1024];
	char name[256];
	char title[256];
	char rule[512];
	int steps;
	char seat_side[4][64];   /* `seats SIDE N`: players on a side */
	int seat_n[4], nseats;
	char *scenario;
	int scenario_line;
	struct block orders[MAX_BLOCK];
	int norders;
	int *dice;
	int ndice;
	int have_dice;
	char **expect;
	int *expect_line;
	int nexpect;
	char **given;       /* "unit "U" [stand K] MARKER": set before step 1 */
	int *given_line;
	int ngiven;
};

static char *
read_all(const char *path)
{
	char *t = NULL;
	size_t len = 0;
	struct err e;

	if (scenario_read_file(path, 1 << 20, &t, &len, &e) != 0)
		return NULL;
	return t;
}

static void
append(char **buf, const char *line)
{
	size_t a = *buf ? strlen(*buf) : 0, b = strlen(line);
	char *n = realloc(*buf, a + b + 2);

	assert_non_null(n);
	memcpy(n + a, line, b);
	n[a + b] = '\n';
	n[a + b + 1] = '\0';
	*buf = n;
}

static const char *
quoted(const char *s, char *out, size_t size)
{
	const char *q = strchr(s, '"'), *z;

	if (q == NULL)
		return NULL;
	z = strchr(q + 1, '"');
	if (z == NULL || (size_t)(z - q - 1) >= size)
		return NULL;
	memcpy(out, q + 1, (size_t)(z - q - 1));
	out[z - q - 1] = '\0';
	return z + 1;
}

static void
trimr(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
	    s[n - 1] == '\t'))
		s[--n] = '\0';
}

static int
parse_case(const char *path, struct kase *k, char *why, size_t wsize)
{
	char *text = read_all(path), *line, *save = NULL;
	int ln = 0, in = 0;   /* 1 scenario, 2 orders */
	struct block *cur = NULL;

	memset(k, 0, sizeof(*k));
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->steps = 1;
	if (text == NULL) {
		snprintf(why, wsize, "%s: cannot read", path);
		return -1;
	}
	/* strtok_r skips empty lines, so count them by hand. */
	line = text;
	while (line != NULL) {
		char *nl = strchr(line, '\n');
		char *s = line;

		if (nl)
			*nl = '\0';
		ln++;
		trimr(s);
		while (*s == ' ' || *s == '\t')
			s++;
		if (in == 1) {
			if (strcmp(s, "end") == 0)
				in = 0;
			else
				append(&k->scenario, line);
		} else if (in == 2) {
			if (strcmp(s, "end") == 0)
				in = 0;
			else
				append(&cur->text, s);
		} else if (*s == '\0' || *s == '#') {
			/* comment */
		} else if (strncmp(s, "case ", 5) == 0) {
			quoted(s, k->title, sizeof(k->title));
		} else if (strncmp(s, "rule ", 5) == 0) {
			quoted(s, k->rule, sizeof(k->rule));
		} else if (strcmp(s, "scenario") == 0) {
			in = 1;
			k->scenario_line = ln;
		} else if (strncmp(s, "steps ", 6) == 0) {
			k->steps = atoi(s + 6);
		} else if (strncmp(s, "seats ", 6) == 0) {
			if (k->nseats == 4 || sscanf(s + 6, "%63s %d",
			    k->seat_side[k->nseats], &k->seat_n[k->nseats]) != 2) {
				snprintf(why, wsize, "%s:%d: expected 'seats SIDE N'",
				    path, ln);
				goto fail;
			}
			k->nseats++;
		} else if (strncmp(s, "orders ", 7) == 0) {
			if (k->norders == MAX_BLOCK) {
				snprintf(why, wsize, "%s:%d: too many orders blocks", path, ln);
				goto fail;
			}
			cur = &k->orders[k->norders++];
			if (sscanf(s + 7, "%63s %d", cur->side, &cur->turn) != 2) {
				snprintf(why, wsize, "%s:%d: expected 'orders SIDE TURN'",
				    path, ln);
				goto fail;
			}
			cur->line = ln;
			cur->text = calloc(1, 1);
			in = 2;
		} else if (strncmp(s, "dice", 4) == 0 && (s[4] == ' ' || s[4] == '\0')) {
			char *p = s + 4, *end;

			k->have_dice = 1;
			for (;;) {
				long v;

				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '\0' || *p == '#')
					break;
				v = strtol(p, &end, 10);
				if (end == p) {
					snprintf(why, wsize, "%s:%d: bad die '%s'", path, ln, p);
					goto fail;
				}
				k->dice = realloc(k->dice, (size_t)(k->ndice + 1) * sizeof(int));
				k->dice[k->ndice++] = (int)v;
				p = end;
			}
		} else if (strncmp(s, "given ", 6) == 0) {
			k->given = realloc(k->given, (size_t)(k->ngiven + 1) *
			    sizeof(char *));
			k->given_line = realloc(k->given_line, (size_t)(k->ngiven + 1) *
			    sizeof(int));
			k->given[k->ngiven] = strdup(s + 6);
			k->given_line[k->ngiven++] = ln;
		} else if (strncmp(s, "expect ", 7) == 0) {
			k->expect = realloc(k->expect, (size_t)(k->nexpect + 1) *
			    sizeof(char *));
			k->expect_line = realloc(k->expect_line, (size_t)(k->nexpect + 1) *
			    sizeof(int));
			k->expect[k->nexpect] = strdup(s + 7);
			k->expect_line[k->nexpect++] = ln;
		} else {
			snprintf(why, wsize, "%s:%d: unknown line '%s'", path, ln, s);
			goto fail;
		}
		line = nl ? nl + 1 : NULL;
	}
	(void)save;
	free(text);
	if (k->scenario == NULL) {
		snprintf(why, wsize, "%s: no scenario block", path);
		return -1;
	}
	if (k->nexpect == 0) {
		snprintf(why, wsize, "%s: a case needs at least one expect line", path);
		return -1;
	}
	return 0;
fail:
	free(text);
	return -1;
}

static void
free_case(struct kase *k)
{
	int i;

	free(k->scenario);
	for (i = 0; i < k->norders; i++)
		free(k->orders[i].text);
	for (i = 0; i < k->nexpect; i++)
		free(k->expect[i]);
	free(k->expect);
	free(k->expect_line);
	for (i = 0; i < k->ngiven; i++)
		free(k->given[i]);
	free(k->given);
	free(k->given_line);
	free(k->dice);
}

/* Applies one `given` line: markers a scenario cannot state (a stand
 * routed or disordered at the start).  NULL, or what is wrong. */
static const char *
apply_given(struct battle *b, const char *g)
{
	static const struct { const char *w; unsigned f; } m[] = {
		{ "disordered", ST_DISORDERED }, { "permanent", ST_PERMANENT },
		{ "routed", ST_ROUTED }, { "stationary", ST_STATIONARY },
	};
	char name[256], word[64];
	const char *rest;
	int u, s, k = 0, lo, hi;
	size_t i;

	if (strncmp(g, "unit ", 5) != 0 || quoted(g, name, sizeof(name)) == NULL)
		return "expected 'given unit \"U\" [stand K] MARKER'";
	if ((u = battle_find_unit(b, name)) < 0)
		return "no such unit";
	rest = strchr(strchr(g, '"') + 1, '"') + 1;
	if (sscanf(rest, " stand %d %63s", &k, word) != 2 &&
	    (k = 0, sscanf(rest, " %63s", word) != 1))
		return "expected a marker";
	lo = b->units[u].first_stand;
	hi = lo + b->units[u].nstands;
	if (k > 0) {
		if (k > b->units[u].nstands)
			return "no such stand";
		lo += k - 1;
		hi = lo + 1;
	}
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strcmp(word, m[i].w) == 0) {
			for (s = lo; s < hi; s++)
				if (!(b->stands[s].flags & ST_GONE))
					b->stands[s].flags |= m[i].f;
			return NULL;
		}
	return "unknown marker (disordered, permanent, routed, stationary)";
}

static int
fx_near(fx a, fx b)
{
	return a - b <= 5 && b - a <= 5;
}

/* The card expectations: `hand SIDE "A" "B" ...` (exactly those cards, in
 * any order; `hand SIDE none`), `deck N` (cards left to draw), and
 * `event-text "words"` / `no-event-text "words"` (an event's sentence
 * holds the words, or none does). */
static const char *
check_cards(const struct battle *b, const struct events *ev, const char *x,
    char *msg, size_t msize)
{
	char name[256], side_id[64];
	int i, n;

	if (strncmp(x, "deck ", 5) == 0) {
		for (i = n = 0; i < vnb_deck(b)->n; i++)
			n += vnb_deck(b)->at[i] == VNB_IN_DECK;
		if (n != atoi(x + 5)) {
			snprintf(msg, msize, "the deck holds %d", n);
			return msg;
		}
		return NULL;
	}
	if (strncmp(x, "hand ", 5) == 0) {
		int side, want[256] = { 0 }, have[256] = { 0 }, k;
		const char *r;

		if (sscanf(x + 5, "%63s", side_id) != 1 ||
		    (side = battle_side(b, side_id)) < 0) {
			snprintf(msg, msize, "unknown side");
			return msg;
		}
		r = x + 5 + strlen(side_id);
		while ((r = quoted(r, name, sizeof(name))) != NULL) {
			k = vnb_card_find(name, NULL);
			if (k < 0) {
				snprintf(msg, msize, "no card \"%s\"", name);
				return msg;
			}
			want[k]++;
		}
		for (i = 0; i < vnb_deck(b)->n; i++)
			if (vnb_deck(b)->at[i] == side)
				have[vnb_deck(b)->kind[i]]++;
		for (k = 0; k < VC_COUNT; k++)
			if (want[k] != have[k]) {
				size_t l = 0;

				l += (size_t)snprintf(msg + l, msize - l, "the hand is:");
				for (i = 0; i < vnb_deck(b)->n && l < msize; i++)
					if (vnb_deck(b)->at[i] == side)
						l += (size_t)snprintf(msg + l, msize - l,
						    " \"%s\"", vnb_cards[vnb_deck(b)->kind[i]].name);
				return msg;
			}
		return NULL;
	}
	{
		int want = x[0] == 'e', found = 0;

		if (quoted(x, name, sizeof(name)) == NULL) {
			snprintf(msg, msize, "event-text needs quoted words");
			return msg;
		}
		for (i = 0; i < ev->n; i++)
			if (ev->v[i].kind != EV_ROLL && strstr(ev->v[i].text, name))
				found = 1;
		if (found != want) {
			snprintf(msg, msize, "%s event says \"%s\"", found ?
			    "an" : "no", name);
			return msg;
		}
		return NULL;
	}
}

/* Checks one expectation; returns NULL if it holds, else a message. */
static const char *
check(const struct battle *b, const struct events *ev, const char *x,
    char *msg, size_t msize)
{
	char name[256], word[64];
	const char *rest;

	if (strncmp(x, "hand ", 5) == 0 || strncmp(x, "deck ", 5) == 0 ||
	    strncmp(x, "event-text ", 11) == 0 ||
	    strncmp(x, "no-event-text ", 14) == 0)
		return check_cards(b, ev, x, msg, msize);
	if (strncmp(x, "unit ", 5) == 0 || strncmp(x, "commander ", 10) == 0 ||
	    strncmp(x, "brigade ", 8) == 0) {
		int is_unit = x[0] == 'u', is_cmd = x[0] == 'c';

		rest = quoted(x, name, sizeof(name));
		if (rest == NULL) {
			snprintf(msg, msize, "expectation without a quoted name");
			return msg;
		}
		while (*rest == ' ')
			rest++;
		if (is_cmd) {
			int c = battle_find_commander(b, name);
			char xs[32], ys[32];
			fx ex, ey;

			if (c >= 0 && (strcmp(rest, "out") == 0 ||
			    strcmp(rest, "not-out") == 0 ||
			    strcmp(rest, "out-of-play") == 0)) {
				const struct commander *k = &b->commanders[c];
				int want = strcmp(rest, "not-out") != 0, is = k->out_until != 0;

				if (strcmp(rest, "out-of-play") == 0)
					is = is && k->out_removed;
				if (want != is) {
					snprintf(msg, msize, "he is %s", k->out_until == 0 ?
					    "not out" : k->out_removed ? "out of play" :
					    "out (unhorsed)");
					return msg;
				}
				return NULL;
			}
			if (c < 0 || sscanf(rest, "at %31[^,],%31s", xs, ys) != 2 ||
			    geom_parse_fx(xs, &ex) || geom_parse_fx(ys, &ey)) {
				snprintf(msg, msize, "bad commander expectation");
				return msg;
			}
			if (!fx_near(b->commanders[c].pos.x, ex) ||
			    !fx_near(b->commanders[c].pos.y, ey)) {
				snprintf(msg, msize, "commander is at %.2f,%.2f",
				    b->commanders[c].pos.x / 100.0,
				    b->commanders[c].pos.y / 100.0);
				return msg;
			}
			return NULL;
		}
		if (!is_unit) {
			int g = battle_find_brigade(b, name), n;

			if (g < 0) {
				snprintf(msg, msize, "no brigade \"%s\"", name);
				return msg;
			}
			if (strcmp(rest, "exhausted") == 0 ||
			    strcmp(rest, "not-exhausted") == 0) {
				int is = (b->brigades[g].flags & BR_EXHAUSTED) != 0;

				if (is != (rest[0] == 'e')) {
					snprintf(msg, msize, "brigade is %sexhausted (lost %d, "
					    "level %d tenths)", is ? "" : "not ",
					    b->brigades[g].lost, b->brigades[g].level10);
					return msg;
				}
				return NULL;
			}
			if (strcmp(rest, "collapsed") == 0 ||
			    strcmp(rest, "not-collapsed") == 0) {
				int is = (b->brigades[g].flags & BR_COLLAPSED) != 0;

				if (is != (rest[0] == 'c')) {
					snprintf(msg, msize, "brigade is %scollapsed",
					    is ? "" : "not ");
					return msg;
				}
				return NULL;
			}
			if (sscanf(rest, "lost %d", &n) == 1) {
				if (b->brigades[g].lost != n) {
					snprintf(msg, msize, "brigade lost %d",
					    b->brigades[g].lost);
					return msg;
				}
				return NULL;
			}
			snprintf(msg, msize, "unknown brigade expectation");
			return msg;
		}
		{
			int u = battle_find_unit(b, name), s, n, k;
			const struct unit *un;
			struct pt c;

			if (u < 0) {
				snprintf(msg, msize, "no unit \"%s\"", name);
				return msg;
			}
			un = &b->units[u];
			if (strncmp(rest, "at ", 3) == 0) {
				char xs[32], ys[32];
				fx ex, ey;

				if (sscanf(rest, "at %31[^,],%31s", xs, ys) != 2 ||
				    geom_parse_fx(xs, &ex) || geom_parse_fx(ys, &ey)) {
					snprintf(msg, msize, "bad position");
					return msg;
				}
				if (!battle_unit_centre(b, u, &c)) {
					snprintf(msg, msize, "the unit has no stands left");
					return msg;
				}
				if (!fx_near(c.x, ex) || !fx_near(c.y, ey)) {
					snprintf(msg, msize, "unit centre is at %.2f,%.2f",
					    c.x / 100.0, c.y / 100.0);
					return msg;
				}
				return NULL;
			}
			if (sscanf(rest, "facing %d", &n) == 1) {
				for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
					if (!(b->stands[s].flags & ST_GONE) &&
					    b->stands[s].facing != n) {
						snprintf(msg, msize, "stand %d faces %d",
						    s - un->first_stand + 1, b->stands[s].facing);
						return msg;
					}
				return NULL;
			}
			if (sscanf(rest, "formation %63s", word) == 1) {
				for (s = un->first_stand; s < un->first_stand + un->nstands; s++)
					if (!(b->stands[s].flags & ST_GONE) &&
					    strcmp(battle_form_name(b->stands[s].form),
					    word) != 0) {
						snprintf(msg, msize, "stand %d is in %s",
						    s - un->first_stand + 1,
						    battle_form_name(b->stands[s].form));
						return msg;
					}
				return NULL;
			}
			if (sscanf(rest, "stand %d sp %d", &k, &n) == 2) {
				if (k < 1 || k > un->nstands) {
					snprintf(msg, msize, "no stand %d", k);
					return msg;
				}
				s = un->first_stand + k - 1;
				if ((b->stands[s].flags & ST_GONE ? 0 : b->stands[s].sp) != n) {
					snprintf(msg, msize, "stand %d has %d SP%s", k,
					    b->stands[s].sp, b->stands[s].flags & ST_GONE ?
					    " and is removed" : "");
					return msg;
				}
				return NULL;
			}
			if (sscanf(rest, "field %63s %d", word, &n) == 2) {
				/* A value of the unit's ruleset's own, as the JSON
				 * shows it (struct ruleset_words.unit_fields). */
				const struct ruleset *frs = ruleset_find(b->ruleset);
				struct unit_field f[RULESET_MAX_FIELDS];
				int nf = frs != NULL && frs->words->unit_fields != NULL ?
				    frs->words->unit_fields(b, u, NULL, f) : 0, j;

				for (j = 0; j < nf; j++)
					if (strcmp(f[j].key, word) == 0) {
						if (f[j].value != n) {
							snprintf(msg, msize, "its %s is %d", word,
							    f[j].value);
							return msg;
						}
						return NULL;
					}
				snprintf(msg, msize, "the ruleset gives a unit no field "
				    "\"%s\"", word);
				return msg;
			}
			if (sscanf(rest, "sp %d", &n) == 1) {
				if (battle_unit_sp(b, u) != n) {
					snprintf(msg, msize, "unit has %d SP",
					    battle_unit_sp(b, u));
					return msg;
				}
				return NULL;
			}
			if (sscanf(rest, "stands %d", &n) == 1) {
				if (battle_unit_alive(b, u) != n) {
					snprintf(msg, msize, "unit has %d stands",
					    battle_unit_alive(b, u));
					return msg;
				}
				return NULL;
			}
			/* "stand K WORD" checks one stand's markers, the
			 * plain "WORD" every stand of the unit. */
			k = 0;
			if (sscanf(rest, "stand %d %63s", &k, word) == 2 ||
			    (k = 0, sscanf(rest, "%63s", word) == 1)) {
				int any_dis = 0, any_rout = 0, all_perm = 1, any_stat = 0,
				    alive = 0;

				if (k < 0 || k > un->nstands) {
					snprintf(msg, msize, "no stand %d", k);
					return msg;
				}
				for (s = un->first_stand; s < un->first_stand + un->nstands; s++) {
					unsigned f = b->stands[s].flags;

					if (f & ST_GONE)
						continue;
					if (k > 0 && s != un->first_stand + k - 1)
						continue;
					alive++;
					if (f & (ST_DISORDERED | ST_PERMANENT))
						any_dis = 1;
					if ((f & ST_ROUTED) == ST_ROUTED)
						any_rout = 1;
					if (!(f & ST_PERMANENT))
						all_perm = 0;
					if (f & ST_STATIONARY)
						any_stat = 1;
				}
				if (strcmp(word, "disordered") == 0 && !any_dis)
					return "the unit is not disordered";
				if (strcmp(word, "not-disordered") == 0 && any_dis)
					return "the unit is disordered";
				if (strcmp(word, "routed") == 0 && !any_rout)
					return "the unit is not routed";
				if (strcmp(word, "not-routed") == 0 && any_rout)
					return "the unit is routed";
				if (strcmp(word, "permanent") == 0 && (!all_perm || !alive))
					return "not every stand has the permanent marker";
				if (strcmp(word, "stationary") == 0 && !any_stat)
					return "the unit is not stationary";
				if (strcmp(word, "not-stationary") == 0 && any_stat)
					return "the unit is stationary";
				if (strcmp(word, "eliminated") == 0 && alive)
					return "the unit still has stands on the table";
				if (strcmp(word, "disordered") && strcmp(word, "not-disordered") &&
				    strcmp(word, "routed") && strcmp(word, "not-routed") &&
				    strcmp(word, "permanent") && strcmp(word, "stationary") &&
				    strcmp(word, "not-stationary") && strcmp(word, "eliminated")) {
					snprintf(msg, msize, "unknown unit expectation '%s'", word);
					return msg;
				}
				return NULL;
			}
		}
	}
	if (strncmp(x, "turn ", 5) == 0) {
		/* `turn T first SIDE`: which side plays turn T's first step,
		 * as the battle decided it (struct ruleset's turn_order). */
		int t, st;

		if (sscanf(x + 5, "%d first %63s", &t, word) != 2 || t < 1 ||
		    t > b->turns) {
			snprintf(msg, msize, "expected 'turn T first SIDE'");
			return msg;
		}
		st = battle_deploy_steps(b) + (t - 1) * b->nsides + 1;
		if (b->sequence != SEQ_ALTERNATE || battle_step_side(b, st) < 0 ||
		    strcasecmp(b->sides[battle_step_side(b, st)].id, word) != 0) {
			snprintf(msg, msize, "turn %d is led by %s", t,
			    battle_step_side(b, st) >= 0 ?
			    b->sides[battle_step_side(b, st)].id : "every side at once");
			return msg;
		}
		return NULL;
	}
	if (strncmp(x, "event ", 6) == 0 || strncmp(x, "no-event ", 9) == 0) {
		int want = x[0] == 'e', kind, u, i, found = 0;

		if (sscanf(x + (want ? 6 : 9), "%63s", word) != 1 ||
		    (kind = events_kind_parse(word)) < 0) {
			snprintf(msg, msize, "unknown event kind");
			return msg;
		}
		if (quoted(x, name, sizeof(name)) == NULL ||
		    (u = battle_find_unit(b, name)) < 0) {
			snprintf(msg, msize, "event expectation needs a known unit");
			return msg;
		}
		for (i = 0; i < ev->n; i++)
			if ((int)ev->v[i].kind == kind && (ev->v[i].unit == u))
				found = 1;
		if (found != want) {
			snprintf(msg, msize, "%s %s event for %s", found ? "there is a" :
			    "there is no", word, name);
			return msg;
		}
		return NULL;
	}
	snprintf(msg, msize, "unknown expectation");
	return msg;
}

/* Plays the case at path, its scenario with the line `extra` added
 * (NULL: none), saying why where verbose: 0 if every expectation holds,
 * 1 if one does not (or a step fails), -1 if the case cannot be read. */
static int
play_case(const char *path, const char *extra, int verbose)
{
	struct kase k;
	char why[2048], title[300];
	struct battle *b = NULL;
	struct events ev;
	struct dice_script script;
	struct orders_parser *op = NULL;
	struct orders_result *res = calloc(1, sizeof(*res));
	struct order_set *sets = calloc(4, sizeof(*sets));
	struct err e;
	char *scen = NULL;
	int step, i, failed = 0;
	const struct ruleset *rs;

	if (res == NULL || sets == NULL) {
		free(res);
		free(sets);
		return -1;
	}
	events_init(&ev);
	err_clear(&e);
	if (parse_case(path, &k, why, sizeof(why)) != 0) {
		print_message("%s\n", why);
		free(res);
		free(sets);
		return -1;
	}
	snprintf(title, sizeof(title), "scenario \"%s\"", k.title[0] ? k.title : "case");
	scen = malloc(strlen(title) + strlen(k.scenario) + 2 +
	    (extra != NULL ? strlen(extra) + 1 : 0));
	if (scen == NULL)
		goto bad;
	/* (an extra line goes after the ruleset's, the scenario's first) */
	sprintf(scen, "%s\n%s", title, k.scenario);
	if (extra != NULL) {
		char *nl = strchr(scen + strlen(title) + 1, '\n');

		if (nl == NULL)
			goto bad;
		memmove(nl + 1 + strlen(extra) + 1, nl + 1, strlen(nl + 1) + 1);
		memcpy(nl + 1, extra, strlen(extra));
		nl[1 + strlen(extra)] = '\n';
	}
	if (scenario_parse(scen, strlen(scen), path, k.scenario_line - 1, &b, &e) != 0) {
		if (verbose)
			print_message("%s\n", e.msg);
		goto bad;
	}
	rs = ruleset_find(b->ruleset);
	if (rs == NULL)
		goto bad;
	for (i = 0; i < k.ngiven; i++) {
		const char *bad = apply_given(b, k.given[i]);

		if (bad != NULL) {
			print_message("%s:%d: given %s: %s\n", path, k.given_line[i],
			    k.given[i], bad);
			goto bad;
		}
	}
	for (i = 0; i < k.nseats; i++) {
		int sd = battle_side(b, k.seat_side[i]);

		if (sd < 0) {
			print_message("%s: seats: no side '%s'\n", path,
			    k.seat_side[i]);
			goto bad;
		}
		b->seats[sd] = k.seat_n[i];
	}
	op = orders_parser_new(rs, &e);
	if (op == NULL)
		goto bad;
	script.v = k.dice;
	script.n = k.ndice;
	script.pos = 0;
	for (step = 1; step <= k.steps; step++) {
		int turn = battle_step_turn(b, step), side = battle_step_side(b, step);
		int nsets = 0;
		struct dice d;

		for (i = 0; i < k.norders; i++) {
			if (k.orders[i].turn != turn || strcasecmp(k.orders[i].side,
			    b->sides[side].id) != 0)
				continue;
			orders_parse(op, b, side, k.orders[i].text, 0, res);
			if (res->nerrors > 0) {
				int j;

				for (j = 0; j < res->nlines; j++)
					if (res->lines[j].status == ORDERS_ERROR && verbose)
						print_message("ERROR: %s:%d: order not understood: "
						    "%s: %s\n", path, k.orders[i].line +
						    res->lines[j].line, res->lines[j].raw,
						    res->lines[j].text);
				failed = 1;
			}
			sets[nsets++] = res->set;
		}
		dice_init(&d, dice_script_next, &script, &ev);
		if (failed)
			break;
		if (rs->adjudicate(b, step, sets, nsets, &d, &ev, &e) != 0) {
			if (verbose)
				print_message("%s: step %d failed: %s\n", path, step,
				    e.msg);
			failed = 1;
			break;
		}
	}
	if (!failed && dice_script_done(&script, &e) != 0) {
		if (verbose)
			print_message("%s: %s\n", path, e.msg);
		failed = 1;
	}
	for (i = 0; !failed && i < k.nexpect; i++) {
		char msg[512];
		const char *bad = check(b, &ev, k.expect[i], msg, sizeof(msg));

		if (bad != NULL) {
			if (verbose)
				print_message("%s:%d: expect %s\n    but %s\n", path,
				    k.expect_line[i], k.expect[i], bad);
			failed = 1;
		}
	}
	if (failed && verbose) {
		print_message("  case: %s\n  rule: %s\n  events:\n", k.title, k.rule);
		for (i = 0; i < ev.n; i++)
			print_message("    %s %s\n", events_kind_name(ev.v[i].kind),
			    ev.v[i].text);
	}
	orders_parser_free(op);
	battle_free(b);
	events_free(&ev);
	free(scen);
	free(res);
	free(sets);
	free_case(&k);
	return failed;
bad:
	battle_free(b);
	events_free(&ev);
	free(scen);
	free(res);
	free(sets);
	free_case(&k);
	return -1;
}

static void
run_case(void **state)
{
	if (play_case(*state, NULL, 1) != 0)
		fail();
}

#ifndef CASES_NO_DEFAULTS_SWEEP
/* The rulesets whose every default must be pinned: for each number the
 * data table marks `default`, some case of the ruleset's plays
 * differently when its scenario sets the number to another value
 * (issue 27: a default no case depends on is a default nothing checks). */
static const char *const pinned_defaults[] = { "bb3", NULL };

/* "set NAME V" for the k'th other value tried for p: a step up, a step
 * down, its least and its most. */
static int
other_value(const struct rule_param *p, int k, char *line, size_t size)
{
	int step = p->unit == PARAM_INCHES ? 200 : 1, v;

	switch (k) {
	case 0: v = p->value + step; break;
	case 1: v = p->value - step; break;
	case 2: v = p->min; break;
	case 3: v = p->max; break;
	default: return -1;
	}
	if (v < p->min || v > p->max || v == p->value)
		return 0;
	if (p->unit == PARAM_INCHES)
		snprintf(line, size, "set %s %d.%02d", p->name, v / 100, v % 100);
	else
		snprintf(line, size, "set %s %d", p->name, v);
	return 1;
}

static void
each_default_changes_a_case(void **state)
{
	char **paths = *state, line[128], bad[8192] = "";
	int r, i, k, c, found, missing = 0;
	static signed char passes[MAX_CASES];   /* each case as written */

	for (c = 0; paths[c] != NULL; c++)
		passes[c] = (signed char)(play_case(paths[c], NULL, 0) == 0);

	for (r = 0; pinned_defaults[r] != NULL; r++) {
		const struct ruleset *rs = ruleset_find(pinned_defaults[r]);
		char dir[64];

		assert_non_null(rs);
		snprintf(dir, sizeof(dir), "/%s/", rs->name);
		for (i = 0; i < rs->nparams; i++) {
			const struct rule_param *p = &rs->params[i];

			if (strcmp(p->source, "default") != 0 &&
			    strcmp(p->source, "source") != 0)
				continue;
			found = 0;
			for (k = 0; !found && k < 4; k++) {
				int o = other_value(p, k, line, sizeof(line));

				if (o < 0)
					break;
				if (o == 0)
					continue;
				for (c = 0; !found && paths[c] != NULL; c++)
					if (passes[c] && strstr(paths[c], dir) != NULL &&
					    play_case(paths[c], line, 0) != 0)
						found = 1;
			}
			if (!found) {
				missing++;
				snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				    " %s", p->name);
			}
		}
	}
	if (missing > 0)
		fail_msg("%d defaults change no case when a scenario sets them:%s",
		    missing, bad);
}
#endif

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
main(void)
{
	static char *paths[MAX_CASES + 1];
	static struct CMUnitTest tests[MAX_CASES + 1];
	/* CASES_DIR: another tree of RULESET/NNNN-name.case files (cases
	 * being written, before they join the suite). */
	const char *base = getenv("CASES_DIR") != NULL ? getenv("CASES_DIR") :
	    DESPATCH_SOURCE_DIR "/tests/rules";
	const char *only = getenv("CASE");
	DIR *top = opendir(base);
	struct dirent *de;
	int n = 0, i;

	if (top == NULL) {
		fprintf(stderr, "cannot open %s\n", base);
		return 1;
	}
	while ((de = readdir(top)) != NULL) {
		char dir[1024];
		DIR *d;
		struct dirent *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		d = opendir(dir);
		if (d == NULL)
			continue;
		while ((f = readdir(d)) != NULL) {
			size_t l = strlen(f->d_name);
			char p[2048];

			if (l < 6 || strcmp(f->d_name + l - 5, ".case") != 0)
				continue;
			if (only && strstr(f->d_name, only) == NULL)
				continue;
			snprintf(p, sizeof(p), "%s/%s", dir, f->d_name);
			if (n == MAX_CASES) {
				/* never a case left out unseen */
				fprintf(stderr, "more than %d rules cases: raise "
				    "MAX_CASES\n", MAX_CASES);
				return 1;
			}
			paths[n++] = strdup(p);
		}
		closedir(d);
	}
	closedir(top);
	qsort(paths, (size_t)n, sizeof(paths[0]), cmp_str);
	if (n == 0) {
		fprintf(stderr, "no rules cases found under %s\n", base);
		return 1;
	}
	for (i = 0; i < n; i++) {
		tests[i].name = strrchr(paths[i], '/') + 1;
		tests[i].test_func = run_case;
		tests[i].initial_state = paths[i];
	}
	/* Every default of the rulesets that pin them changes a case
	 * (only over the whole suite: not for one CASE or another tree). */
#ifndef CASES_NO_DEFAULTS_SWEEP
	if (only == NULL && getenv("CASES_DIR") == NULL) {
		tests[n].name = "each_default_changes_a_case";
		tests[n].test_func = each_default_changes_a_case;
		tests[n].initial_state = paths;
		n++;
	}
#endif
	return _cmocka_run_group_tests("rules_cases", tests, (size_t)n, NULL, NULL);
}
