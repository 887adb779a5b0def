/*
 * orders.c - parsing order mails (docs/orders.md) with PCRE2.
 *
 * Workload: a mail of a few dozen lines, parsed when it arrives and again
 * (as canonical text) when the step is adjudicated.  Mail text is hostile:
 * line counts and lengths are capped, and every pattern is anchored so no
 * input makes the matcher work hard.
 */
#include "orders/orders.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct orders_parser {
	const struct ruleset *rs;
	pcre2_code *header;
	pcre2_code *line;
	pcre2_code *then;
	pcre2_code *quote;   /* where a quoted earlier mail begins */
	pcre2_code *verb[V_COUNT * 2];
	pcre2_code *dist, *point, *turn, *bearing;
	pcre2_match_data *md;
};

static pcre2_code *
compile(const char *pat, struct err *e)
{
	int code = 0;
	PCRE2_SIZE off = 0;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_CASELESS | PCRE2_UTF | PCRE2_NO_UTF_CHECK * 0, &code, &off, NULL);

	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		err_set(e, ERR_INTERNAL, "pattern %s: %s at %zu", pat,
		    (const char *)msg, (size_t)off);
	}
	return re;
}

struct orders_parser *
orders_parser_new(const struct ruleset *rs, struct err *e)
{
	struct orders_parser *p = calloc(1, sizeof(*p));
	int i;

	if (p == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		return NULL;
	}
	p->rs = rs;
	if ((p->header = compile("\\b(GAME|SIDE|TURN|PASSWORD|SECRET)\\s*[:=]?\\s*"
	    "([^\\s]+)", e)) == NULL ||
	    (p->line = compile("^\\s*(.+?)\\s*:\\s*(.*?)\\s*$", e)) == NULL ||
	    (p->then = compile("\\s+THEN\\s+", e)) == NULL ||
	    (p->quote = compile("^(?:-{3,}[^-].*[^-]-{3,}"
	    "|-{2,}\\s*(?:Original|Forwarded) Message\\s*-{2,}"
	    "|_{10,}|On\\s.*\\swrote:|Le\\s.*\\sa\\s+\\S+crit\\s*:|Am\\s.*\\s"
	    "schrieb.*:|From:\\s.*|Sent from my\\s.*|Begin forwarded message:)$", e)) == NULL ||
	    (p->dist = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*(?:\"|in|inch|inches)?$",
	    e)) == NULL ||
	    (p->point = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*,\\s*"
	    "(\\d{1,4}(?:\\.\\d{1,2})?)$", e)) == NULL ||
	    (p->turn = compile("^(LEFT|RIGHT)\\s+(\\d{1,3})(?:\\s*(?:deg|degrees))?$",
	    e)) == NULL ||
	    (p->bearing = compile("^(\\d{1,3})(?:\\s*(?:deg|degrees))?$", e)) == NULL)
		goto fail;
	if (rs->nverbs > V_COUNT * 2) {
		err_set(e, ERR_INTERNAL, "too many verbs");
		goto fail;
	}
	for (i = 0; i < rs->nverbs; i++) {
		char pat[128], word[64];
		const char *w = rs->verbs[i].word;
		size_t k = 0;

		for (; *w && k + 4 < sizeof(word); w++) {
			if (*w == ' ') {
				memcpy(word + k, "\\s+", 3);
				k += 3;
			} else {
				word[k++] = *w;
			}
		}
		word[k] = '\0';
		snprintf(pat, sizeof(pat), "^%s(?:\\s+(.+))?$", word);
		if ((p->verb[i] = compile(pat, e)) == NULL)
			goto fail;
	}
	p->md = pcre2_match_data_create(16, NULL);
	if (p->md == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto fail;
	}
	return p;
fail:
	orders_parser_free(p);
	return NULL;
}

void
orders_parser_free(struct orders_parser *p)
{
	int i;

	if (p == NULL)
		return;
	pcre2_code_free(p->header);
	pcre2_code_free(p->line);
	pcre2_code_free(p->then);
	pcre2_code_free(p->quote);
	pcre2_code_free(p->dist);
	pcre2_code_free(p->point);
	pcre2_code_free(p->turn);
	pcre2_code_free(p->bearing);
	for (i = 0; i < V_COUNT * 2; i++)
		pcre2_code_free(p->verb[i]);
	pcre2_match_data_free(p->md);
	free(p);
}

/* Matches re against s; on a match copies group g into out. */
static int
match(struct orders_parser *p, pcre2_code *re, const char *s, size_t len,
    size_t start)
{
	return pcre2_match(re, (PCRE2_SPTR)s, len, start, 0, p->md, NULL) > 0;
}

static void
group(struct orders_parser *p, const char *s, int g, char *out, size_t size)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
	size_t a = ov[2 * g], z = ov[2 * g + 1], n;

	if (a == PCRE2_UNSET) {
		out[0] = '\0';
		return;
	}
	n = z - a;
	if (n >= size)
		n = size - 1;
	memcpy(out, s + a, n);
	out[n] = '\0';
}

static void
trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	if (i > 0)
		memmove(s, s + i, n - i + 1);
}

static int
header_from_line(struct orders_parser *p, const char *s,
    struct orders_header *h)
{
	size_t len = strlen(s), start = 0;
	int got_game = 0;

	while (start < len && match(p, p->header, s, len, start)) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);
		char key[16], val[128];

		group(p, s, 1, key, sizeof(key));
		group(p, s, 2, val, sizeof(val));
		/* A value longer than its field cannot name anything: keep
		 * it out rather than match a truncated name. */
		if (strcasecmp(key, "GAME") == 0) {
			if (strlen(val) < sizeof(h->game))
				memcpy(h->game, val, strlen(val) + 1);
			got_game = 1;
		} else if (strcasecmp(key, "SIDE") == 0) {
			if (strlen(val) < sizeof(h->side))
				memcpy(h->side, val, strlen(val) + 1);
		} else if (strcasecmp(key, "TURN") == 0) {
			h->turn = atoi(val) > 0 && atoi(val) < 100000 ? atoi(val) : -1;
		} else {
			snprintf(h->secret, sizeof(h->secret), "%s", val);
		}
		start = ov[1] > start ? ov[1] : start + 1;
	}
	return got_game;
}

int
orders_find_header(struct orders_parser *p, const char *subject,
    const char *body, struct orders_header *h)
{
	const char *s = body;
	int line = 0, texts = 0;

	memset(h, 0, sizeof(*h));
	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX];

		line++;
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, s, n);
		buf[n] = '\0';
		trim(buf);
		/* The GAME line may follow a greeting: look at the first
		 * few lines that have text, up to the first order line. */
		if (buf[0] != '\0') {
			if (header_from_line(p, buf, h)) {
				h->found = 1;
				h->line = line;
				return 0;
			}
			if (++texts == 8 || (buf[0] != '>' && match(p, p->line,
			    buf, strlen(buf), 0) && strchr(buf, ':')[1] != '\0'))
				break;
		}
		s = nl ? nl + 1 : NULL;
	}
	memset(h, 0, sizeof(*h));
	if (subject != NULL && header_from_line(p, subject, h)) {
		h->found = 1;
		h->line = 0;
	}
	return 0;
}

/* --- names ------------------------------------------------------------ */

static int
lev(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[128];

	if (la > 120)
		la = 120;
	if (lb > 120)
		lb = 120;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], tmp;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);

			tmp = row[j];
			row[j] = row[j] + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Folds what mail clients change in names: curly quotes become straight
 * ones, so "Hayes’s" matches "Hayes's".  Writes at most size-1 bytes. */
static void
fold_name(const char *in, char *out, size_t size)
{
	size_t k = 0;

	while (*in && k + 1 < size) {
		const unsigned char *u = (const unsigned char *)in;

		if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x98 || u[2] == 0x99)) {
			out[k++] = '\'';
			in += 3;
		} else if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x9c || u[2] == 0x9d)) {
			out[k++] = '"';
			in += 3;
		} else {
			out[k++] = *in++;
		}
	}
	out[k] = '\0';
}

static int
has_prefix_ci(const char *s, const char *pre)
{
	return strncasecmp(s, pre, strlen(pre)) == 0;
}

/* sub at the start of some word of s ("Legion Cav" in "British Legion
 * Cavalry"), so that "to" does not find "Washington". */
static int
has_word_ci(const char *s, const char *sub)
{
	size_t n = strlen(sub);
	const char *p;

	for (p = s; *p; p++)
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    strncasecmp(p, sub, n) == 0)
			return 1;
	return 0;
}

static int
name_matches(int level, const char *cand, const char *name)
{
	char a[BATTLE_NAME_MAX * 2], b[ORDERS_TEXT_MAX];

	fold_name(cand, a, sizeof(a));
	fold_name(name, b, sizeof(b));
	return level == 0 ? strcasecmp(a, b) == 0 : level == 1 ?
	    has_prefix_ci(a, b) : has_word_ci(a, b);
}

enum who { WHO_OWN_UNIT = 1, WHO_OWN_CMD = 2, WHO_ENEMY_UNIT = 4,
	WHO_FRIEND_UNIT = 8 };

struct cand {
	const char *name;
	int is_cmd;
	int idx;
};

/* Resolves name among the candidates `which` for side; returns the number
 * of matches at the best level (1 = resolved into *out), or 0/2+ with a
 * message in msg. */
static int
resolve(const struct battle *b, int side, unsigned which, const char *name,
    struct cand *out, char *msg, size_t msize, const char *what)
{
	struct cand c[BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS];
	int n = 0, i, level, hits = 0, hit = -1;

	for (i = 0; i < b->nunits; i++) {
		int own = b->units[i].side == side;

		if ((own && (which & (WHO_OWN_UNIT | WHO_FRIEND_UNIT))) ||
		    (!own && (which & WHO_ENEMY_UNIT))) {
			c[n].name = b->units[i].name;
			c[n].is_cmd = 0;
			c[n].idx = i;
			n++;
		}
	}
	for (i = 0; i < b->ncommanders && (which & WHO_OWN_CMD); i++)
		if (b->commanders[i].side == side) {
			c[n].name = b->commanders[i].name;
			c[n].is_cmd = 1;
			c[n].idx = i;
			n++;
		}
	for (level = 0; level < 3; level++) {
		hits = 0;
		for (i = 0; i < n; i++) {
			int ok = name_matches(level, c[i].name, name);

			if (ok) {
				if (hits == 0)
					hit = i;
				hits++;
			}
		}
		if (hits == 1) {
			*out = c[hit];
			return 1;
		}
		if (hits > 1) {
			size_t k;
			int shown = 0;

			k = (size_t)snprintf(msg, msize, "\"%s\" could be more than "
			    "one %s:", name, what);
			for (i = 0; i < n && shown < 4 && k < msize; i++) {
				int ok = name_matches(level, c[i].name, name);

				if (ok) {
					k += (size_t)snprintf(msg + k, msize - k,
					    "%s \"%s\"", shown ? "," : "", c[i].name);
					shown++;
				}
			}
			if (k < msize)
				snprintf(msg + k, msize - k, "; write more of the name");
			return hits;
		}
	}
	/* The name may belong to the other camp: say so plainly. */
	for (level = 0; level < 3; level++) {
		int other = -1, cnt = 0;

		for (i = 0; i < b->nunits; i++) {
			int own = b->units[i].side == side;
			int wanted = own ? (which & (WHO_OWN_UNIT | WHO_FRIEND_UNIT)) != 0 :
			    (which & WHO_ENEMY_UNIT) != 0;

			if (!wanted && name_matches(level, b->units[i].name, name)) {
				other = i;
				cnt++;
			}
		}
		if (cnt == 1) {
			snprintf(msg, msize, "\"%s\" is %s", b->units[other].name,
			    b->units[other].side == side ? "one of your own units, "
			    "not an enemy unit" : "an enemy unit: orders go to "
			    "your own units");
			return 0;
		}
	}
	/* No match: suggest the nearest names, comparing the name with the
	 * whole of each candidate and with each of its words onwards. */
	{
		int best[3] = { -1, -1, -1 }, bd[3] = { 1 << 30, 1 << 30, 1 << 30 };
		char fname[ORDERS_TEXT_MAX];
		size_t k, l;

		fold_name(name, fname, sizeof(fname));
		l = strlen(fname);
		for (i = 0; i < n; i++) {
			char cand[BATTLE_NAME_MAX * 2];
			const char *w;
			int d, j;

			fold_name(c[i].name, cand, sizeof(cand));
			d = lev(cand, fname);
			for (w = cand; *w; w++) {
				char pre[128];

				if (w != cand && isalnum((unsigned char)w[-1]))
					continue;
				if (l < sizeof(pre) && strlen(w) >= l) {
					memcpy(pre, w, l);
					pre[l] = '\0';
					if (lev(pre, fname) < d)
						d = lev(pre, fname);
				}
			}
			for (j = 0; j < 3; j++)
				if (d < bd[j]) {
					memmove(&bd[j + 1], &bd[j], (size_t)(2 - j) * sizeof(int));
					memmove(&best[j + 1], &best[j], (size_t)(2 - j) * sizeof(int));
					bd[j] = d;
					best[j] = i;
					break;
				}
		}
		k = (size_t)snprintf(msg, msize, "no %s is called \"%s\"", what, name);
		/* Suggest only names that are near (a third of the letters
		 * wrong at most), the nearest first. */
		if (best[0] >= 0 && bd[0] <= (int)(l / 3) + 1 && k < msize) {
			k += (size_t)snprintf(msg + k, msize - k, "; did you mean \"%s\"",
			    c[best[0]].name);
			for (i = 1; i < 3 && best[i] >= 0 && bd[i] <= bd[0] &&
			    k < msize; i++)
				k += (size_t)snprintf(msg + k, msize - k, " or \"%s\"",
				    c[best[i]].name);
			if (k < msize)
				snprintf(msg + k, msize - k, "?");
		} else if (k < msize) {
			snprintf(msg + k, msize - k, "; the names are in your welcome "
			    "mail and in each report");
		}
	}
	return 0;
}

/* --- order lines ------------------------------------------------------ */

/* Copies at most max bytes of in to out (which holds max + 1), cutting at
 * a character boundary so a message quoting it stays valid UTF-8. */
static const char *
cut(const char *in, size_t max, char *out)
{
	size_t n = strlen(in);

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)in[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(out, in, n);
	out[n] = '\0';
	return out;
}

static int
parse_step(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *text, struct order_step *st, char *msg,
    size_t msize)
{
	const struct ruleset *rs = p->rs;
	int i;

	for (i = 0; i < rs->nverbs; i++) {
		const struct verb_def *v = &rs->verbs[i];
		char arg[ORDERS_TEXT_MAX], a1[64], a2[64], short_arg[96];
		size_t alen;

		if (!match(p, p->verb[i], text, strlen(text), 0))
			continue;
		/* "FACE" must not swallow "FACE..." words of other verbs;
		 * the pattern requires a space or the end after the word. */
		group(p, text, 1, arg, sizeof(arg));
		trim(arg);
		alen = strlen(arg);
		if (is_cmd && !v->for_commanders) {
			snprintf(msg, msize, "%s is an order for units, not "
			    "commanders (commanders take MOVE TO, JOIN and HOLD)",
			    v->word);
			return -1;
		}
		if (!is_cmd && !v->for_units) {
			snprintf(msg, msize, "%s is an order for commanders",
			    v->word);
			return -1;
		}
		memset(st, 0, sizeof(*st));
		st->verb = v->verb;
		st->target = -1;
		switch (v->arg) {
		case ARG_NONE:
			if (alen > 0) {
				snprintf(msg, msize, "%s takes nothing after it, "
				    "but \"%s\" follows", v->word, cut(arg, 80, short_arg));
				return -1;
			}
			return 0;
		case ARG_DIST:
			if (!match(p, p->dist, arg, alen, 0)) {
				snprintf(msg, msize, "%s needs a distance in inches, "
				    "for example \"%s 8\"", v->word, v->word);
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			if (geom_parse_fx(a1, &st->dist) != 0 || st->dist <= 0 ||
			    st->dist > FX(200)) {
				snprintf(msg, msize, "%s needs a distance from 0.01 "
				    "to 200 inches", v->word);
				return -1;
			}
			return 0;
		case ARG_POINT:
			if (!match(p, p->point, arg, alen, 0)) {
				snprintf(msg, msize, "%s needs a point x,y in inches, "
				    "for example \"%s 36,20\"", v->word, v->word);
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			group(p, arg, 2, a2, sizeof(a2));
			if (geom_parse_fx(a1, &st->pt.x) != 0 ||
			    geom_parse_fx(a2, &st->pt.y) != 0 ||
			    st->pt.x > b->width || st->pt.y > b->depth) {
				char w[24], d[24];

				snprintf(msg, msize, "%s is off the table (0,0 to "
				    "%s,%s)", cut(arg, 40, short_arg),
				    geom_fmt_fx(b->width, w, sizeof(w)),
				    geom_fmt_fx(b->depth, d, sizeof(d)));
				return -1;
			}
			return 0;
		case ARG_TURN:
			if (!match(p, p->turn, arg, alen, 0)) {
				snprintf(msg, msize, "WHEEL needs LEFT or RIGHT and "
				    "degrees, for example \"WHEEL LEFT 45\"");
				return -1;
			}
			group(p, arg, 1, a1, sizeof(a1));
			group(p, arg, 2, a2, sizeof(a2));
			st->angle = atoi(a2);
			if (st->angle < 1 || st->angle > 180) {
				snprintf(msg, msize, "a wheel is 1 to 180 degrees");
				return -1;
			}
			if (strcasecmp(a1, "LEFT") == 0)
				st->angle = -st->angle;
			return 0;
		case ARG_BEARING:
			if (!match(p, p->bearing, arg, alen, 0) || atoi(arg) > 359) {
				snprintf(msg, msize, "FACE needs a bearing from 0 to "
				    "359 (0 north, 90 east, 180 south, 270 west)");
				return -1;
			}
			st->angle = atoi(arg);
			return 0;
		case ARG_FORMATION:
			if (battle_form_parse(arg, &st->form) != 0) {
				snprintf(msg, msize, "FORM takes LINE, SKIRMISH, "
				    "ROAD, MOUNTED or DISMOUNTED, not \"%s\"",
				    cut(arg, 40, short_arg));
				return -1;
			}
			{
				const struct unit *u = &b->units[who];
				int mounted = u->kind == KIND_MOUNTED;

				if (strcasecmp(arg, "MOUNTED") == 0 && !mounted) {
					snprintf(msg, msize, "%s has no horses: FORM "
					    "MOUNTED is for cavalry (infantry forms LINE)",
					    u->name);
					return -1;
				}
				if (strcasecmp(arg, "LINE") == 0 && mounted) {
					snprintf(msg, msize, "%s is cavalry: it forms "
					    "MOUNTED, SKIRMISH or ROAD", u->name);
					return -1;
				}
				if (st->form == FORM_DISMOUNTED) {
					snprintf(msg, msize, "%s cannot dismount: no "
					    "troop type in this ruleset fights on foot "
					    "as well as mounted", u->name);
					return -1;
				}
				if (st->form == FORM_SKIRMISH &&
				    u->kind != KIND_DETACHMENT && !mounted) {
					snprintf(msg, msize, "%s cannot take skirmish "
					    "order: only detachments and mounted stands "
					    "can", u->name);
					return -1;
				}
			}
			return 0;
		case ARG_ENEMY:
		case ARG_FRIEND: {
			struct cand c;

			if (alen == 0) {
				snprintf(msg, msize, "%s needs a unit's name",
				    v->word);
				return -1;
			}
			if (resolve(b, side, v->arg == ARG_ENEMY ? WHO_ENEMY_UNIT :
			    WHO_FRIEND_UNIT, arg, &c, msg, msize, v->arg ==
			    ARG_ENEMY ? "enemy unit" : "unit of yours") != 1)
				return -1;
			st->target = c.idx;
			return 0;
		}
		}
	}
	{
		char short_text[96];
		size_t k = (size_t)snprintf(msg, msize, "\"%s\" is not an order I "
		    "know; orders are", cut(text, 80, short_text));

		for (i = 0; i < rs->nverbs && k < msize; i++)
			k += (size_t)snprintf(msg + k, msize - k, "%s %s",
			    i ? "," : "", rs->verbs[i].word);
	}
	return -1;
}

static void
add_line(struct orders_result *out, int line, enum orders_status st,
    const char *raw, const char *text)
{
	struct orders_line *l;

	if (out->nlines == ORDERS_MAX_LINES) {
		out->too_many = 1;
		out->nerrors++;
		return;
	}
	l = &out->lines[out->nlines++];
	l->line = line;
	l->status = st;
	snprintf(l->raw, sizeof(l->raw), "%s", raw);
	snprintf(l->text, sizeof(l->text), "%s", text);
	utf8_trim_tail(l->raw);
	utf8_trim_tail(l->text);
	if (st == ORDERS_ERROR)
		out->nerrors++;
}

int
orders_parse(struct orders_parser *p, const struct battle *b, int side,
    const char *body, int header_line, struct orders_result *out)
{
	const char *s = body;
	int line = 0, i;
	int seen_unit[BATTLE_MAX_UNITS], seen_cmd[BATTLE_MAX_COMMANDERS];

	memset(out, 0, sizeof(*out));
	out->set.side = side;
	for (i = 0; i < BATTLE_MAX_UNITS; i++)
		seen_unit[i] = 0;
	for (i = 0; i < BATTLE_MAX_COMMANDERS; i++)
		seen_cmd[i] = 0;
	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX], who[ORDERS_TEXT_MAX], what[ORDERS_TEXT_MAX];
		char msg[ORDERS_TEXT_MAX];
		struct order o;
		struct cand c;

		const char *ls = s;

		line++;
		s = nl ? nl + 1 : NULL;
		if (line <= header_line)
			continue;
		if (n > 0 && ls[n - 1] == '\r')
			n--;
		if ((n == 2 || n == 3) && strncmp(ls, "-- ", n) == 0)
			break;  /* a signature follows */
		if (n >= sizeof(buf)) {
			add_line(out, line, ORDERS_ERROR, "(a very long line)",
			    "the line is too long (at most 500 characters)");
			continue;
		}
		memcpy(buf, ls, n);
		buf[n] = '\0';
		trim(buf);
		if (buf[0] == '\0' || buf[0] == '#' || buf[0] == '>')
			continue;
		/* A comment after an order: "7th: ADVANCE 8  # to the fence". */
		{
			char *hash = strstr(buf, " #");

			if (hash != NULL) {
				*hash = '\0';
				trim(buf);
			}
		}
		/* A quoted earlier mail (Outlook's "Original Message", "On ...
		 * wrote:") ends the orders even when its lines are not marked
		 * with '>': the report or welcome it quotes is not orders. */
		if (match(p, p->quote, buf, strlen(buf), 0))
			break;
		if (!match(p, p->line, buf, strlen(buf), 0)) {
			add_line(out, line, ORDERS_ERROR, buf, "expected \"UNIT: "
			    "ORDER\", for example \"7th Foot: ADVANCE 8\"");
			continue;
		}
		group(p, buf, 1, who, sizeof(who));
		group(p, buf, 2, what, sizeof(what));
		/* The name runs to the last colon. */
		{
			char *colon = strrchr(buf, ':');

			*colon = '\0';
			snprintf(who, sizeof(who), "%s", buf);
			trim(who);
			snprintf(what, sizeof(what), "%s", colon + 1);
			trim(what);
			*colon = ':';
		}
		if (resolve(b, side, WHO_OWN_UNIT | WHO_OWN_CMD, who, &c, msg,
		    sizeof(msg), "unit or commander of yours") != 1) {
			add_line(out, line, ORDERS_ERROR, buf, msg);
			continue;
		}
		if ((c.is_cmd ? seen_cmd[c.idx] : seen_unit[c.idx]) != 0) {
			snprintf(msg, sizeof(msg), "%s already has orders on line "
			    "%d; give a unit one line, joining orders with THEN",
			    c.name, c.is_cmd ? seen_cmd[c.idx] : seen_unit[c.idx]);
			add_line(out, line, ORDERS_ERROR, buf, msg);
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.is_commander = c.is_cmd;
		o.who = c.idx;
		o.line = line;
		{
			size_t start = 0, wl = strlen(what);
			int bad = 0;

			if (wl == 0) {
				add_line(out, line, ORDERS_ERROR, buf, "the order "
				    "is missing after the colon");
				continue;
			}
			while (!bad) {
				char part[ORDERS_TEXT_MAX];
				size_t end = wl, next = wl;

				if (match(p, p->then, what, wl, start)) {
					PCRE2_SIZE *ov = pcre2_get_ovector_pointer(p->md);

					end = ov[0];
					next = ov[1];
				}
				memcpy(part, what + start, end - start);
				part[end - start] = '\0';
				trim(part);
				if (o.nsteps == ORDER_MAX_STEPS) {
					snprintf(msg, sizeof(msg), "at most %d orders "
					    "can be joined with THEN", ORDER_MAX_STEPS);
					bad = 1;
					break;
				}
				if (parse_step(p, b, side, c.is_cmd, c.idx, part,
				    &o.steps[o.nsteps], msg, sizeof(msg)) != 0) {
					bad = 1;
					break;
				}
				o.nsteps++;
				if (next >= wl)
					break;
				start = next;
			}
			if (bad) {
				add_line(out, line, ORDERS_ERROR, buf, msg);
				continue;
			}
		}
		if (c.is_cmd)
			seen_cmd[c.idx] = line;
		else
			seen_unit[c.idx] = line;
		if (out->set.n < ORDER_SET_MAX)
			out->set.orders[out->set.n++] = o;
		orders_canonical(b, &o, msg, sizeof(msg));
		add_line(out, line, ORDERS_OK, buf, msg);
	}
	return 0;
}

static const char *
verb_word(enum verb v)
{
	static const char *const w[V_COUNT] = {
		"ADVANCE", "MOVE TO", "WHEEL", "FACE", "FORM", "FIRE AT",
		"CHARGE", "HOLD", "REFORM", "JOIN"
	};

	return (unsigned)v < V_COUNT ? w[v] : "?";
}

void
orders_canonical(const struct battle *b, const struct order *o, char *buf,
    size_t size)
{
	size_t k;
	int i;

	k = (size_t)snprintf(buf, size, "%s:", o->is_commander ?
	    b->commanders[o->who].name : b->units[o->who].name);
	for (i = 0; i < o->nsteps && k < size; i++) {
		const struct order_step *st = &o->steps[i];
		char x[24], y[24];

		k += (size_t)snprintf(buf + k, size - k, "%s %s", i ? " THEN" : "",
		    verb_word(st->verb));
		if (k >= size)
			break;
		switch (st->verb) {
		case V_ADVANCE:
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    geom_fmt_fx(st->dist, x, sizeof(x)));
			break;
		case V_MOVE_TO:
			k += (size_t)snprintf(buf + k, size - k, " %s,%s",
			    geom_fmt_fx(st->pt.x, x, sizeof(x)),
			    geom_fmt_fx(st->pt.y, y, sizeof(y)));
			break;
		case V_WHEEL:
			k += (size_t)snprintf(buf + k, size - k, " %s %d",
			    st->angle < 0 ? "LEFT" : "RIGHT", abs(st->angle));
			break;
		case V_FACE:
			k += (size_t)snprintf(buf + k, size - k, " %d", st->angle);
			break;
		case V_FORM: {
			char f[16];
			const char *n = battle_form_name(st->form);
			size_t j;

			for (j = 0; n[j] && j + 1 < sizeof(f); j++)
				f[j] = (char)toupper((unsigned char)n[j]);
			f[j] = '\0';
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    st->form != FORM_LINE ? f : !o->is_commander &&
			    b->units[o->who].kind == KIND_MOUNTED ? "MOUNTED" :
			    "LINE");
			break;
		}
		case V_FIRE_AT:
		case V_CHARGE:
		case V_JOIN:
			k += (size_t)snprintf(buf + k, size - k, " %s",
			    b->units[st->target].name);
			break;
		default:
			break;
		}
	}
}

int
orders_blank_secret(char *buf, size_t len, const char *secret)
{
	size_t n = strlen(secret), i;
	int count = 0;

	if (n == 0 || n > len)
		return 0;
	for (i = 0; i + n <= len; i++)
		if (memcmp(buf + i, secret, n) == 0) {
			memset(buf + i, '*', n);
			count++;
			i += n - 1;
		}
	return count;
}
