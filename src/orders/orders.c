/*
 * orders.c - parsing order mails (docs/orders.md) with PCRE2.
 *
 * Workload: a mail of a few dozen lines, parsed when it arrives and again
 * (as canonical text) when the step is adjudicated.  Mail text is hostile:
 * line counts and lengths are capped, and every pattern is anchored so no
 * input makes the matcher work hard.
 */
#include "orders/internal.h"

#include <sodium.h>

#include <assert.h>
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void
orders_parser_limit(struct orders_parser *p, uint64_t mask, int army)
{
	p->limit = mask;
	p->limit_army = army;
	p->limited = mask != 0 || army;
}

static pcre2_code *
compile(const char *pat, struct err *e)
{
	int code = 0;
	PCRE2_SIZE off = 0;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_CASELESS | PCRE2_UTF, &code, &off, NULL);

	if (re == NULL) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(code, msg, sizeof(msg));
		err_set(e, ERR_INTERNAL, "pattern %s: %s at %zu", pat,
		    (const char *)msg, (size_t)off);
	} else {
		/* Mail is hostile input: a JIT-compiled pattern is faster,
		 * and every pattern here is anchored and linear anyway. */
		(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	}
	return re;
}


/* The lists of verbs the answers give, written once: the ruleset's
 * orders for commanders (cut as it always was, at sizeof cmd_verbs), and
 * all its verbs (left "" when they do not fit, and each answer writes
 * them). */
static void
verb_lists(struct orders_parser *p)
{
	const struct ruleset *rs = p->rs;
	size_t k = 0;
	int j;

	p->cmd_verbs[0] = '\0';
	for (j = 0; j < rs->nverbs && k < sizeof(p->cmd_verbs); j++)
		if (rs->verbs[j].for_commanders)
			k += (size_t)snprintf(p->cmd_verbs + k, sizeof(p->cmd_verbs) - k,
			    "%s%s", k ? ", " : "", rs->verbs[j].word);
	p->verb_list[0] = '\0';
	for (j = 0, k = 0; j < rs->nverbs && k < sizeof(p->verb_list); j++)
		k += (size_t)snprintf(p->verb_list + k, sizeof(p->verb_list) - k,
		    "%s %s", j ? "," : "", rs->verbs[j].word);
	if (k >= sizeof(p->verb_list))
		p->verb_list[0] = '\0';
}

struct orders_parser *
orders_parser_new(const struct ruleset *rs, struct err *e)
{
	struct orders_parser *p = calloc(1, sizeof(*p));
	char cmdpat[256];

	if (p == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		return NULL;
	}
	p->rs = rs;
	p->cmd_initials = orders_cmd_initials();
	verb_lists(p);
	/* A step's verb is looked for only among those that begin with its
	 * first letter, in the ruleset's order: the masks hold 64. */
	if (rs->nverbs > 64) {
		err_set(e, ERR_INTERNAL, "ruleset %s has more than 64 verbs",
		    rs->name);
		goto fail;
	}
	{
		int j;

		for (j = 0; j < rs->nverbs; j++)
			p->verb_initial[orders_low((unsigned char)rs->verbs[j].word[0])] |=
			    (uint64_t)1 << j;
	}
	assert(orders_abbrevs_sorted());
	if ((p->quote = compile("^(?:-{2,}\\s*Original Message\\s*-{2,}"
	    "|On\\s.*\\swrote:|Le\\s.*\\sa\\s+\\S+crit\\s*:|Am\\s.*\\s"
	    "schrieb.*:|Sent from my\\s.*"
	    "|\\S.*\\s(?:wrote|writes):)$", e)) == NULL ||
	    (p->qsoft = compile("^(?:-{3,}[^-].*[^-]-{3,}|_{10,}|From:\\s.*)$",
	    e)) == NULL ||
	    (p->fwd = compile("^(?:-{2,}\\s*Forwarded message\\s*-{2,}"
	    "|Begin forwarded message:)$", e)) == NULL ||
	    (p->fwdhdr = compile("^(?:Subject|Date|From|To|Cc|Sent|Reply-To):",
	    e)) == NULL ||
	    (orders_cmd_pattern(cmdpat, sizeof(cmdpat)) != 0 &&
	    err_set(e, ERR_INTERNAL, "the mail commands' table has a gap") != 0) ||
	    (p->cmd = compile(cmdpat, e)) == NULL ||
	    /* The arguments' patterns: args.c reads each as it would, and
	     * test_orders holds the two to the same answers. */
	    (p->dist = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*(?:\"|in|inch|inches)?$",
	    e)) == NULL ||
	    (p->point = compile("^(\\d{1,4}(?:\\.\\d{1,2})?)\\s*,\\s*"
	    "(\\d{1,4}(?:\\.\\d{1,2})?)$", e)) == NULL ||
	    (p->turn = compile("^(LEFT|RIGHT)\\s+(\\d{1,3})(?:\\.0+)?(?:\\s*(?:deg|degrees))?$",
	    e)) == NULL ||
	    (p->bearing = compile("^(\\d{1,3})(?:\\.0+)?(?:\\s*(?:deg|degrees))?$", e)) == NULL)
		goto fail;
	p->md = pcre2_match_data_create(16, NULL);
	/* The JIT's stack as big as the one it uses when given none (32 KB
	 * on the machine stack), so that every match ends as it did. */
	p->mctx = pcre2_match_context_create(NULL);
	p->jstack = pcre2_jit_stack_create(32 * 1024, 32 * 1024, NULL);
	if (p->mctx != NULL && p->jstack != NULL)
		pcre2_jit_stack_assign(p->mctx, NULL, p->jstack);
	if (p->md == NULL || p->mctx == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory");
		goto fail;
	}
	return p;
fail:
	orders_parser_free(p);
	return NULL;
}

void
orders_parser_replay(struct orders_parser *p, int on)
{
	p->replay = on;
}

void
orders_parser_deploying(struct orders_parser *p, int on)
{
	p->deploying = on;
}

void
orders_parser_free(struct orders_parser *p)
{
	if (p == NULL)
		return;
	pcre2_code_free(p->quote);
	pcre2_code_free(p->qsoft);
	pcre2_code_free(p->fwd);
	pcre2_code_free(p->fwdhdr);
	pcre2_code_free(p->cmd);
	pcre2_code_free(p->dist);
	pcre2_code_free(p->point);
	pcre2_code_free(p->turn);
	pcre2_code_free(p->bearing);
	pcre2_match_data_free(p->md);
	pcre2_match_context_free(p->mctx);
	pcre2_jit_stack_free(p->jstack);
	orders_names_free(p->names);
	free(p);
}

/* Matches re against s.  While the mail is known to be valid UTF-8 (and
 * so pcre2_match would check nothing), a pattern the JIT compiled is run
 * by pcre2_jit_match straight away, on the parser's own JIT stack: most
 * of the cost of matching a short argument was pcre2_match's way in.  A
 * pattern the JIT could not compile answers PCRE2_ERROR_JIT_BADOPTION,
 * and is matched as before. */
int
orders_match(struct orders_parser *p, pcre2_code *re, const char *s, size_t len,
    size_t start)
{
	if (p->mopts & PCRE2_NO_UTF_CHECK) {
		int rc = pcre2_jit_match(re, (PCRE2_SPTR)s, len, start, p->mopts,
		    p->md, p->mctx);

		if (rc != PCRE2_ERROR_JIT_BADOPTION)
			return rc > 0;
	}
	return pcre2_match(re, (PCRE2_SPTR)s, len, start, p->mopts, p->md,
	    p->mctx) > 0;
}

/* Copies s[a..z) into out (size bytes), cut to fit: as orders_group
 * does a group. */
static void
take_span(const char *s, size_t a, size_t z, char *out, size_t size)
{
	size_t n = z - a;

	if (n >= size)
		n = size - 1;
	memcpy(out, s + a, n);
	out[n] = '\0';
}

/* After a match: copies group g into out. */
void
orders_group(struct orders_parser *p, const char *s, int g, char *out,
    size_t size)
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

void
orders_trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n > 0 && orders_sp((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (orders_sp((unsigned char)s[i]))
		i++;
	if (i > 0)
		memmove(s, s + i, n - i + 1);
}

/* Copies s[0..n) trimmed into buf (size bytes); its length, or -1 when
 * it does not fit. */
static int
take_trimmed(const char *s, size_t n, char *buf, size_t size)
{
	while (n > 0 && orders_sp((unsigned char)s[n - 1]))
		n--;
	while (n > 0 && orders_sp((unsigned char)*s)) {
		s++;
		n--;
	}
	if (n >= size)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return (int)n;
}

/* --- lines of a mail -------------------------------------------------- */

/* Copies line number `line` starting at s (n bytes, no newline) into buf
 * (size bytes), without a trailing CR, trimmed.  Returns 0, or -1 when the
 * line does not fit. */
static int
take_line_len(const char *s, size_t n, char *buf, size_t size)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	/* What does not fit untrimmed is too long, whatever its blanks. */
	if (n >= size)
		return -1;
	return take_trimmed(s, n, buf, size);
}

int
orders_take_line(const char *s, size_t n, char *buf, size_t size)
{
	return take_line_len(s, n, buf, size) < 0 ? -1 : 0;
}

int
orders_is_signature(const char *s, size_t n)
{
	if (n > 0 && s[n - 1] == '\r')
		n--;
	return (n == 2 || n == 3) && strncmp(s, "-- ", n) == 0;
}

/* The first character that can start a quote-start line: a cheap test
 * before the pattern. */
static int
may_start_quote(const char *buf, size_t n)
{
	/* Every quote, forward and separator pattern either ends in ':'
	 * ("On ... wrote:", "Begin forwarded message:"), starts with '-' or
	 * '_', or is "From: ..." or "Sent from my ...". */
	return n > 0 && (buf[n - 1] == ':' || buf[0] == '-' || buf[0] == '_' ||
	    ((buf[0] | 0x20) == 'f' && strncasecmp(buf, "from:", 5) == 0) ||
	    ((buf[0] | 0x20) == 's' &&
	    strncasecmp(buf, "sent from my", 12) == 0));
}

/* A line that begins a quoted earlier mail: "On ... wrote:", Outlook's
 * separators.  When the quoted lines that follow are marked with '>', the
 * reply may go on below them (bottom-posting): the attribution line alone
 * is skipped.  Otherwise everything after it is the quoted mail. */

/* A mail forwarded inline is the player's to send on: its separator and
 * its header block are skipped and what it forwards is read.  *fwd says
 * that the forwarded header block has begun. */
enum quote_kind
orders_quote_start(struct orders_parser *p, const char *buf, size_t len,
    const char *rest, int *fwd)
{
	if (*fwd) {
		if (orders_match(p, p->fwdhdr, buf, len, 0))
			return Q_SKIP;
		*fwd = 0;
	}
	if (!may_start_quote(buf, len))
		return Q_NONE;
	if (orders_match(p, p->fwd, buf, len, 0)) {
		*fwd = 1;
		return Q_SKIP;
	}
	if (!orders_match(p, p->quote, buf, len, 0)) {
		/* A separator or a From: line ends the mail only when a block
		 * of mail headers follows ("--- Reserve ---" is a heading). */
		if (!orders_match(p, p->qsoft, buf, len, 0))
			return Q_NONE;
		while (rest != NULL && *rest) {
			const char *nl = strchr(rest, '\n');
			size_t n = nl ? (size_t)(nl - rest) : strlen(rest), i = 0;
			char head[16];

			while (i < n && isspace((unsigned char)rest[i]))
				i++;
			if (i < n) {
				size_t hn = n - i < sizeof(head) - 1 ? n - i :
				    sizeof(head) - 1;

				/* Cut at a character's start: the match may be
				 * told the text is valid UTF-8. */
				while (hn > 0 && hn < n - i &&
				    ((unsigned char)rest[i + hn] & 0xc0) == 0x80)
					hn--;
				memcpy(head, rest + i, hn);
				head[hn] = '\0';
				return orders_match(p, p->fwdhdr, head, hn, 0) ? Q_END :
				    Q_NONE;
			}
			rest = nl ? nl + 1 : NULL;
		}
		return Q_NONE;
	}
	/* Look at the next line with text. */
	while (rest != NULL && *rest) {
		const char *nl = strchr(rest, '\n');
		size_t n = nl ? (size_t)(nl - rest) : strlen(rest), i = 0;

		while (i < n && isspace((unsigned char)rest[i]))
			i++;
		if (i < n)
			return rest[i] == '>' ? Q_SKIP : Q_END;
		rest = nl ? nl + 1 : NULL;
	}
	return Q_END;
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

/* As orders_copy_text(out, size, s), s's length n known. */
static void
copy_text_n(char *out, size_t size, const char *s, size_t n)
{
	if (n < size) {
		memcpy(out, s, n + 1);
		return;
	}
	memcpy(out, s, size - 1);
	out[size - 1] = '\0';
	utf8_trim_tail(out);
}

void
orders_copy_text(char *out, size_t size, const char *s)
{
	copy_text_n(out, size, s, strlen(s));
}

/* (internal.h) */
int
orders_verb_at(const char *text, const char *word, size_t *rest)
{
	const char *t = text;

	for (; *word; word++) {
		if (*word == ' ') {
			if (!orders_sp((unsigned char)*t))
				return 0;
			while (orders_sp((unsigned char)*t))
				t++;
			continue;
		}
		if (orders_low((unsigned char)*t) != orders_low((unsigned char)*word))
			return 0;
		t++;
	}
	if (*t != '\0' && !orders_sp((unsigned char)*t))
		return 0;
	*rest = (size_t)(t - text);
	return 1;
}

int
orders_point(struct orders_parser *p, const struct battle *b,
    const char *arg, const char *what, struct pt *out, char *msg,
    size_t msize)
{
	char a1[64], a2[64], short_arg[96];
	size_t g[4];

	(void)p;   /* the match was its; the interface stays */
	/* As p->point would match (args.c). */
	if (!orders_scan_point(arg, strlen(arg), g)) {
		snprintf(msg, msize, "%s needs a point x,y in inches, for example "
		    "\"%s 36,20\"", what, what);
		return -1;
	}
	take_span(arg, g[0], g[1], a1, sizeof(a1));
	take_span(arg, g[2], g[3], a2, sizeof(a2));
	if (geom_parse_fx(a1, &out->x) != 0 || geom_parse_fx(a2, &out->y) != 0 ||
	    out->x > b->width || out->y > b->depth) {
		char w[24], d[24];

		snprintf(msg, msize, "%s is off the table (0,0 to %s,%s)",
		    cut(arg, 40, short_arg), geom_fmt_fx(b->width, w, sizeof(w)),
		    geom_fmt_fx(b->depth, d, sizeof(d)));
		return -1;
	}
	return 0;
}

static int
parse_step(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *text, size_t tlen, struct order_step *st,
    char *msg, size_t msize)
{
	const struct ruleset *rs = p->rs;
	/* The first letter rules out all verbs but one or two: those left,
	 * lowest (the ruleset's first) first. */
	uint64_t left = p->verb_initial[orders_low((unsigned char)text[0])];
	int i;

	while (left != 0) {
		const struct verb_def *v;
		char a1[64], a2[64], short_arg[96];
		const char *arg;
		size_t alen, off, g[4];

		i = __builtin_ctzll(left);
		left &= left - 1;
		v = &rs->verbs[i];
		if (!orders_verb_at(text, v->word, &off))
			continue;
		/* What follows the verb (the text is trimmed at its end). */
		for (arg = text + off; orders_sp((unsigned char)*arg); arg++)
			;
		alen = tlen - (size_t)(arg - text);   /* strlen(arg) */
		if (is_cmd && !v->for_commanders) {
			snprintf(msg, msize, "%s is an order for units, not "
			    "commanders (commanders take %s)", v->word,
			    p->cmd_verbs);
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
			/* The arguments are read as the patterns p->dist,
			 * p->turn and p->bearing would (args.c). */
			if (!orders_scan_dist(arg, alen, g)) {
				snprintf(msg, msize, "%s needs a distance in inches, "
				    "for example \"%s 8\"", v->word, v->word);
				return -1;
			}
			take_span(arg, g[0], g[1], a1, sizeof(a1));
			if (geom_parse_fx(a1, &st->dist) != 0 || st->dist <= 0 ||
			    st->dist > FX(200)) {
				snprintf(msg, msize, "%s needs a distance from 0.01 "
				    "to 200 inches", v->word);
				return -1;
			}
			return 0;
		case ARG_COUNT: {
			char *end = NULL;
			long n = strtol(arg, &end, 10);

			if (alen == 0 || end == arg || *end != '\0' || n < 1 ||
			    n > 12) {
				snprintf(msg, msize, "%s needs a whole number from 1 to "
				    "12, for example \"%s 2\"", v->word, v->word);
				return -1;
			}
			st->angle = (int)n;
			return 0;
		}
		case ARG_POINT:
			return orders_point(p, b, arg, v->word, &st->pt, msg, msize);
		case ARG_TURN:
			if (!orders_scan_turn(arg, alen, g)) {
				snprintf(msg, msize, "WHEEL needs LEFT or RIGHT and "
				    "degrees, for example \"WHEEL LEFT 45\"");
				return -1;
			}
			take_span(arg, g[0], g[1], a1, sizeof(a1));
			take_span(arg, g[2], g[3], a2, sizeof(a2));
			st->angle = atoi(a2);
			if (st->angle < 1 || st->angle > 180) {
				snprintf(msg, msize, "a wheel is 1 to 180 degrees");
				return -1;
			}
			if (strcasecmp(a1, "LEFT") == 0)
				st->angle = -st->angle;
			return 0;
		case ARG_BEARING:
			if (!orders_scan_bearing(arg, alen) || atoi(arg) > 359) {
				snprintf(msg, msize, "FACE needs a bearing from 0 to "
				    "359 (0 north, 90 east, 180 south, 270 west)");
				return -1;
			}
			st->angle = atoi(arg);
			return 0;
		case ARG_FORMATION:
			if (battle_form_parse(arg, &st->form) != 0 ||
			    (rs->form_check != NULL && rs->form_check(b, who,
			    st->form, arg, msg, msize) != 0)) {
				if (rs->form_check == NULL ||
				    battle_form_parse(arg, &st->form) != 0)
					snprintf(msg, msize, "FORM takes one of %s, not "
					    "\"%s\"", rs->form_words != NULL ?
					    rs->form_words : "LINE, SKIRMISH or ROAD",
					    cut(arg, 40, short_arg));
				return -1;
			}
			return 0;
		case ARG_ENEMY:
		case ARG_FRIEND: {
			const struct cand *c;

			if (alen == 0) {
				snprintf(msg, msize, "%s needs a unit's name",
				    v->word);
				return -1;
			}
			/* A name typed before is remembered; the message is
			 * written only when it fails. */
			if (orders_resolve(p, b, side, v->arg == ARG_ENEMY ?
			    WHO_ENEMY_UNIT : WHO_FRIEND_UNIT, arg, &c, msg, msize,
			    v->arg == ARG_ENEMY ? "enemy unit" : "unit of yours") != 1)
				return -1;
			st->target = c->idx;
			return 0;
		}
		}
	}
	{
		char short_text[96], first[32];
		size_t k, n = strcspn(text, " \t");
		int best = -1, bd = 1 << 30;

		/* A misspelt verb: the nearest verb by its first word. */
		if (n >= 3 && n < sizeof(first)) {
			struct lev_pat lp;

			memcpy(first, text, n);
			first[n] = '\0';
			/* As orders_lev(first, ...), the word prepared once. */
			orders_lev_prep(&lp, first, n);
			/* A word from another game's orders. */
			for (i = 0; rs->verb_aliases != NULL &&
			    rs->verb_aliases[i][0] != NULL; i++)
				if (strcasecmp(first, rs->verb_aliases[i][0]) == 0) {
					snprintf(msg, msize, "\"%s\" is not an order "
					    "in %s; did you mean %s?", cut(text, 80,
					    short_text), rs->name, rs->verb_aliases[i][1]);
					return -1;
				}
			for (i = 0; i < rs->nverbs; i++) {
				char vw[32];
				size_t vn = strcspn(rs->verbs[i].word, " ");
				int d;

				if (vn >= sizeof(vw))
					continue;
				memcpy(vw, rs->verbs[i].word, vn);
				vw[vn] = '\0';
				d = orders_lev_run(&lp, vw, vn, 1 << 20);
				if (d < bd) {
					bd = d;
					best = i;
				}
			}
		}
		if (best >= 0 && bd <= (n <= 4 ? 1 : 2)) {
			snprintf(msg, msize, "\"%s\" is not an order I know; did "
			    "you mean %s?", cut(text, 80, short_text),
			    rs->verbs[best].word);
			return -1;
		}
		k = (size_t)snprintf(msg, msize, "\"%s\" is not an order I "
		    "know; orders are", cut(text, 80, short_text));
		if (k < msize && p->verb_list[0] != '\0') {
			/* As snprintf(msg + k, msize - k, "%s", ...) would. */
			size_t vn = strlen(p->verb_list);

			if (vn > msize - k - 1)
				vn = msize - k - 1;
			memcpy(msg + k, p->verb_list, vn);
			msg[k + vn] = '\0';
		} else
			for (i = 0; i < rs->nverbs && k < msize; i++)
				k += (size_t)snprintf(msg + k, msize - k, "%s %s",
				    i ? "," : "", rs->verbs[i].word);
	}
	return -1;
}


/* Adds a line to the answer: raw (rawlen bytes) as the player wrote it,
 * text (textlen bytes) what was made of it. */
static void
add_lines_n(struct orders_result *out, int line, enum orders_status st,
    const char *raw, size_t rawlen, const char *text, size_t textlen)
{
	struct orders_line *l;

	if (out->nlines == ORDERS_MAX_LINES) {
		out->too_many = 1;
		if (st == ORDERS_ERROR)
			out->nerrors++;
		return;
	}
	l = &out->lines[out->nlines++];
	l->line = line;
	l->status = st;
	l->standing = 0;
	l->command = 0;
	copy_text_n(l->raw, sizeof(l->raw), raw, rawlen);
	copy_text_n(l->text, sizeof(l->text), text, textlen);
	if (st == ORDERS_ERROR)
		out->nerrors++;
	else if (st == ORDERS_PROSE)
		out->nprose++;
}

static void
add_line_len(struct orders_result *out, int line, enum orders_status st,
    const char *raw, size_t rawlen, const char *text)
{
	add_lines_n(out, line, st, raw, rawlen, text, strlen(text));
}

static void
add_line(struct orders_result *out, int line, enum orders_status st,
    const char *raw, const char *text)
{
	add_line_len(out, line, st, raw, strlen(raw), text);
}

/* Does the line hold one of the ruleset's verbs as a word? */
static int
has_verb_word(const struct ruleset *rs, const char *buf)
{
	const char *w;
	int i;

	for (w = buf; *w; w++) {
		if (w != buf && isalnum((unsigned char)w[-1]))
			continue;
		if (!isalpha((unsigned char)*w))
			continue;
		for (i = 0; i < rs->nverbs; i++) {
			size_t off;

			if (orders_low((unsigned char)*w) ==
			    orders_low((unsigned char)rs->verbs[i].word[0]) &&
			    orders_verb_at(w, rs->verbs[i].word, &off))
				return 1;
		}
	}
	return 0;
}

/* 1 if buf begins with one of the ruleset's verbs, or a word players
 * bring from other games for one (its aliases). */
static int
starts_with_verb(const struct ruleset *rs, const char *buf)
{
	size_t off;
	int i;

	for (i = 0; i < rs->nverbs; i++)
		if (orders_verb_at(buf, rs->verbs[i].word, &off))
			return 1;
	for (i = 0; rs->verb_aliases != NULL && rs->verb_aliases[i][0] != NULL;
	    i++)
		if (orders_verb_at(buf, rs->verb_aliases[i][0], &off))
			return 1;
	return 0;
}

const char *
orders_line_raw(const struct orders_result *r, int line)
{
	int i;

	for (i = 0; i < r->nlines; i++)
		if (r->lines[i].line == line)
			return r->lines[i].raw;
	return "";
}

/* Reads "VERB ARGS [THEN VERB ARGS]..." for one unit or commander into o.
 * Returns 0, or -1 with msg. */
int
orders_parse_chain(struct orders_parser *p, const struct battle *b, int side,
    int is_cmd, int who, const char *what, struct order *o, char *msg,
    size_t msize)
{
	size_t start = 0, wl = strlen(what);

	if (wl == 0) {
		snprintf(msg, msize, "the order is missing after the colon");
		return -1;
	}
	{
		size_t rest;

		if (orders_verb_at(what, "DEPLOY", &rest)) {
			if (p->deploying && !p->line_standing)
				return orders_parse_deploy(p, b, side, is_cmd, who,
				    what + rest, o, msg, msize);
			snprintf(msg, msize, "%s", p->line_standing ?
			    "DEPLOY is never a standing order: it is sent once, "
			    "for the battle's deployment" : b->nzones > 0 ?
			    "DEPLOY is taken only for the battle's deployment, "
			    "turn 0, and this mail is for a later phase (or the "
			    "deployment is over)" : "this battle opens "
			    "with no deployment step: DEPLOY is for a battle whose "
			    "scenario gives deployment zones");
			return -1;
		}
		if (p->deploying && !p->line_standing) {
			snprintf(msg, msize, "the battle opens with its deployment: "
			    "only DEPLOY lines are taken for it, as in \"%s: DEPLOY "
			    "AT x,y%s\"; send this with TURN 1 in the first line for "
			    "turn 1", is_cmd ? b->commanders[who].name :
			    b->units[who].name, is_cmd ? "" : " FACING 0");
			return -1;
		}
	}
	for (;;) {
		char part[ORDERS_TEXT_MAX];
		const char *text = part;
		size_t end = wl, next = wl, tlen;

		{
			/* The next " THEN " (white space around it), any case,
			 * or a ';' (as players list orders), whichever comes
			 * first, in one pass. */
			size_t i;

			for (i = start + 1; i < wl; i++) {
				/* Only a ';' or a T can begin either (what ends at
				 * wl): libc's strpbrk passes over the rest. */
				const char *q = strpbrk(what + i, ";Tt");
				unsigned char ch;

				if (q == NULL)
					break;
				i = (size_t)(q - what);
				ch = (unsigned char)what[i];
				if (ch == ';') {
					end = i;
					next = i + 1;
					while (next < wl && orders_sp((unsigned char)what[next]))
						next++;
					break;
				}
				/* (x | 0x20) == 't' only for 'T' and 't' */
				if ((ch | 0x20) == 't' && i + 5 < wl &&
				    orders_sp((unsigned char)what[i - 1]) &&
				    (what[i + 1] | 0x20) == 'h' &&
				    (what[i + 2] | 0x20) == 'e' &&
				    (what[i + 3] | 0x20) == 'n' &&
				    orders_sp((unsigned char)what[i + 4])) {
					end = i - 1;
					next = i + 4;
					while (next < wl && orders_sp((unsigned char)what[next]))
						next++;
					break;
				}
			}
		}
		/* The part is shorter than the line it came from.  The last
		 * (most often the only) part, with no blank at either end, is
		 * read where it is. */
		if (end == wl && end - start < sizeof(part) &&
		    !orders_sp((unsigned char)what[start]) &&
		    !orders_sp((unsigned char)what[wl - 1])) {
			text = what + start;
			tlen = wl - start;
		} else {
			/* It fits: a part is shorter than what (< wl). */
			int tl = take_trimmed(what + start, end - start, part,
			    sizeof(part));

			assert(tl >= 0);
			tlen = (size_t)tl;
		}
		/* Parts past the last a unit can hold are left out, and the
		 * answer says so: the first ones still stand. */
		if (o->nsteps == ORDER_MAX_STEPS) {
			p->cut = 1;
			return 0;
		}
		if (parse_step(p, b, side, is_cmd, who, text, tlen,
		    &o->steps[o->nsteps], msg, msize) != 0)
			return -1;
		/* Refused when a mail is read; never when stored orders are
		 * read again to be played (orders_parser_replay): one stored
		 * by a build that took it is played, and the adjudicator
		 * refuses it there, rather than the turn being stopped. */
		if (!p->replay && p->rs->step_check != NULL &&
		    p->rs->step_check(b, who, is_cmd, &o->steps[o->nsteps], msg,
		    msize) != 0)
			return -1;
		o->nsteps++;
		if (next >= wl)
			return 0;
		start = next;
	}
}

/* The refused lines from `bad` (the unit's first) on said the unit
 * (name) holds; line `good`, a later one for it, has been understood:
 * say that one stands. */
static void
now_stands(struct orders_result *out, int bad, const char *name, int good)
{
	char holds[BATTLE_NAME_MAX + 16];
	int i;

	snprintf(holds, sizeof(holds), " (so %s holds)", name);
	for (i = 0; i < out->nlines; i++) {
		char *t = out->lines[i].text, *at;
		size_t room;

		if (out->lines[i].line < bad || out->lines[i].line >= good ||
		    out->lines[i].status != ORDERS_ERROR)
			continue;
		at = strstr(t, holds);
		if (at == NULL || at[strlen(holds)] != '\0')
			continue;
		room = sizeof(out->lines[i].text) - (size_t)(at - t);
		snprintf(at, room, " (its order on line %d stands)", good);
	}
}

/* A later line for o's unit or commander replaces the order of line
 * `earlier`: out of the set, and its line marked as replaced. */
static void
replace_earlier(struct orders_result *out, struct order_set *set,
    const struct order *o, int earlier, int line)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (set->orders[i].special == 0 &&
		    set->orders[i].is_commander == o->is_commander &&
		    set->orders[i].who == o->who) {
			memmove(&set->orders[i], &set->orders[i + 1],
			    (size_t)(set->n - i - 1) * sizeof(set->orders[0]));
			set->n--;
			break;
		}
	for (i = 0; i < out->nlines; i++)
		if (out->lines[i].line == earlier &&
		    out->lines[i].status == ORDERS_OK) {
			out->lines[i].status = ORDERS_REPLACED;
			snprintf(out->lines[i].text, sizeof(out->lines[i].text),
			    "replaced by line %d (a later line for the same unit "
			    "wins)", line);
			break;
		}
}

/* With a limit: may the player order brigade br (-1: the army
 * commander)?  If not, msg says whose it is. */
static int
allowed(const struct orders_parser *p, const struct battle *b, int br,
    const char *name, char *msg, size_t msize)
{
	size_t k;
	int i, n = 0;

	if (!p->limited || (br < 0 && p->limit_army) ||
	    (br >= 0 && br < 64 && (p->limit >> br & 1u)))
		return 1;
	if (br < 0)
		k = (size_t)snprintf(msg, msize, "%s is the army commander, whom "
		    "another player of your side orders; yours are", name);
	else
		k = (size_t)snprintf(msg, msize, "%s is in the %s brigade, which "
		    "another player of your side commands; yours are", name,
		    b->brigades[br].name);
	for (i = 0; i < b->nbrigades && i < 64 && k < msize; i++)
		if (p->limit >> i & 1u)
			k += (size_t)snprintf(msg + k, msize - k, "%s %s", n++ ? "," :
			    "", b->brigades[i].name);
	if (p->limit_army && k < msize)
		snprintf(msg + k, msize - k, "%s the army commander", n ? " and" : "");
	return 0;
}

/* The lines of a question after its QUESTION line (from s to end), up to
 * a signature or a quoted earlier mail, after what the line itself said,
 * cut to what the command holds at a character's start. */
static void
question_text(struct orders_cmd *c, const char *s, const char *end)
{
	size_t n = strlen(c->text);

	while (s != NULL && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (orders_is_signature(s, len) || (len > 0 && s[0] == '>'))
			break;
		if (n > 0 || len > 0) {
			size_t room = sizeof(c->text) - 1 - n, take = len;

			if (n > 0) {
				if (room == 0)
					break;
				c->text[n++] = '\n';
				room--;
			}
			if (take > room)
				take = room;
			memcpy(c->text + n, s, take);
			n += take;
			c->text[n] = '\0';
			if (take < len)
				break;
		}
		s = nl ? nl + 1 : NULL;
	}
	while (n > 0 && (c->text[n - 1] == '\n' || c->text[n - 1] == ' ' ||
	    c->text[n - 1] == '\r'))
		c->text[--n] = '\0';
	utf8_trim_tail(c->text);
}

/* The name and point readers the parser lends a ruleset's own order
 * lines (struct order_line_ctx). */
static int
line_resolve(const struct order_line_ctx *c, unsigned kinds, const char *text,
    const char *what, int *idx, int *is_cmd, char *msg, size_t msize)
{
	const struct cand *cd;
	unsigned which = ((kinds & ORDER_LINE_OWN_UNIT) ? WHO_OWN_UNIT : 0) |
	    ((kinds & ORDER_LINE_ENEMY_UNIT) ? WHO_ENEMY_UNIT : 0) |
	    ((kinds & ORDER_LINE_OWN_CMD) ? WHO_OWN_CMD : 0) |
	    ((kinds & ORDER_LINE_ENEMY_CMD) ? WHO_ENEMY_CMD : 0);

	if (orders_resolve(c->parser, c->b, c->side, which, text, &cd, msg,
	    msize, what) != 1)
		return -1;
	*idx = cd->idx;
	*is_cmd = cd->kind == C_CMD;
	return 1;
}

static int
line_point(const struct order_line_ctx *c, const char *text, const char *word,
    struct pt *out, char *msg, size_t msize)
{
	return orders_point(c->parser, c->b, text, word, out, msg, msize);
}

/* What a mail's bytes are, eight a step where they are ASCII: 0, all
 * ASCII (as most mails are); 1, ASCII and curly quotes (U+2018 to
 * U+201D) alone, which makes it valid UTF-8 with no Unicode space in it,
 * as utf8_valid_prefix and orders_has_unicode_spaces would find; 2,
 * anything else, for them to look at. */
static int
mail_bytes(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	int quotes = 0;

	while (i < n) {
		uint64_t w;

		if (i + 8 <= n) {
			memcpy(&w, u + i, 8);
			if ((w & 0x8080808080808080ull) == 0) {
				i += 8;
				continue;
			}
		}
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		if (u[i] == 0xe2 && i + 2 < n && u[i + 1] == 0x80 &&
		    u[i + 2] >= 0x98 && u[i + 2] <= 0x9d) {
			quotes = 1;
			i += 3;
			continue;
		}
		return 2;
	}
	return quotes;
}

int
orders_parse(struct orders_parser *p, const struct battle *b, int side,
    const char *body, int header_line, struct orders_result *out)
{
	const char *s = body, *bend, *cur = body;
	int line = 0, nbl = 0, block = 0, mark = 0, marking = 0, i, fwd = 0, fold;
	int kind;
	int seen[2][BATTLE_MAX_UNITS], seen_c[2][BATTLE_MAX_COMMANDERS];
	struct bline *bl = NULL;
	/* The battle's ruleset, for the canonical text of each order. */
	const struct ruleset *crs = ruleset_find(b->ruleset);

	/* Only the counters: each line is written whole when added, and the
	 * lines array is large (a mail's worth of text). */
	out->nlines = 0;
	out->nerrors = 0;
	out->nprose = 0;
	out->too_many = 0;
	out->read_end = 0;
	if (orders_names_bind(p, b) != 0) {
		add_line(out, 0, ORDERS_ERROR, "", "out of memory");
		return 0;
	}
	out->set.side = side;
	out->set.n = 0;
	out->standing.side = side;
	out->standing.n = 0;
	out->standing_lines = 0;
	out->standing_clear = 0;
	out->ncmds = 0;
	out->cmds_dropped = 0;
	/* Only the battle's units and commanders are ever looked at (here
	 * and in orders_expand_brigades): the rest of each array is left
	 * as it is, 5 KB a mail not written. */
	for (i = 0; i < 2; i++) {
		memset(seen[i], 0, (size_t)b->nunits * sizeof(seen[i][0]));
		memset(seen_c[i], 0, (size_t)b->ncommanders * sizeof(seen_c[i][0]));
	}
	/* Every line and part of a line matched below is cut from the body
	 * at an ASCII byte or a character's start, so a body checked once
	 * spares PCRE2 checking each piece again. */
	bend = body + strlen(body);
	kind = mail_bytes(body, (size_t)(bend - body));
	p->mopts = kind < 2 || utf8_valid_prefix(body, (size_t)(bend - body)) ==
	    (size_t)(bend - body) ? PCRE2_NO_UTF_CHECK : 0;
	fold = kind == 2 && orders_has_unicode_spaces(body,
	    (size_t)(bend - body));
	while (s != NULL && *s) {
		const char *nl = memchr(s, '\n', (size_t)(bend - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(bend - s);
		char buf[ORDERS_TEXT_MAX], who[ORDERS_TEXT_MAX], what[ORDERS_TEXT_MAX];
		char msg[ORDERS_TEXT_MAX];
		const char *ls = s;
		const struct cand *c;
		struct order o;
		char *colon;

		cur = ls;
		int standing = 0, *seen_unit, *seen_cmd, rr, tl;
		size_t blen, tlen;
		struct order_set *set;

		/* The lines the last line added are standing ones if it was. */
		for (i = mark; i < out->nlines; i++)
			out->lines[i].standing = marking;
		mark = out->nlines;
		marking = 0;
		p->near = 0;
		p->cut = 0;
		/* Past the lines a result can hold, nothing more is read: an
		 * order must never be kept that the answer cannot show. */
		if (out->nlines == ORDERS_MAX_LINES) {
			out->too_many = 1;
			break;
		}
		line++;
		s = nl ? nl + 1 : NULL;
		if (line <= header_line)
			continue;
		if (orders_is_signature(ls, n))
			break;  /* a signature follows */
		if ((tl = take_line_len(ls, n, buf, sizeof(buf))) < 0) {
			add_line(out, line, ORDERS_ERROR, "(a very long line)",
			    "the line is too long (at most 500 characters)");
			continue;
		}
		/* Apple Mail's no-break spaces, a zero-width space pasted in:
		 * spaces and nothing, before anything reads the line. */
		/* The line's length, kept as it is cut below. */
		blen = (size_t)tl;
		if (fold && orders_fold_spaces(buf)) {
			orders_trim(buf);
			blen = strlen(buf);
		}
		if (buf[0] == '\0') {
			block = 0;   /* a blank line ends a STANDING: block */
			continue;
		}
		if (buf[0] == '#' || buf[0] == '>' || buf[0] == '|')
			continue;
		/* A comment after an order: "7th: ADVANCE 8  # to the fence". */
		{
			char *hash = strchr(buf, '#') == NULL ? NULL :
			    strstr(buf, " #");

			if (hash != NULL) {
				*hash = '\0';
				orders_trim(buf);
				blen = strlen(buf);
			}
		}
		/* A quoted earlier mail (Outlook's "Original Message", "On ...
		 * wrote:") ends the orders when its lines are not marked with
		 * '>': the report or welcome it quotes is not orders. */
		{
			enum quote_kind q = orders_quote_start(p, buf, blen, s, &fwd);

			if (q == Q_SKIP)
				continue;
			if (q == Q_END)
				break;
		}
		/* A mail command on its own line. */
		{
			struct orders_cmd *cmd = out->ncmds < ORDERS_MAX_CMDS ?
			    &out->cmds[out->ncmds] : NULL;
			struct orders_cmd spare;
			/* orders_parse_command's own first test, made here: most
			 * lines begin with a letter no command's word does, and
			 * are spared the call and its large frame. */
			unsigned char f = orders_low((unsigned char)buf[0]);
			int rc = (unsigned)(f - 'a') >= 26u ||
			    !(p->cmd_initials >> (f - 'a') & 1u) ? 0 :
			    orders_parse_command(p, buf, cmd ? cmd : &spare, msg,
			    sizeof(msg));

			if (rc < 0) {
				int k = out->nlines;

				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    msg);
				if (out->nlines > k)
					out->lines[k].command = 1;
				continue;
			}
			if (rc > 0) {
				if (cmd != NULL) {
					cmd->line = line;
					out->ncmds++;
				} else {
					out->cmds_dropped++;
				}
				add_line(out, line, ORDERS_COMMAND, buf,
				    orders_cmd_word((cmd ? cmd : &spare)->kind));
				/* A question for the operator is the rest of the
				 * mail, up to a signature: none of it is orders. */
				if (cmd != NULL && (cmd->kind == CMD_QUESTION ||
				    cmd->kind == CMD_UMPIRE)) {
					question_text(cmd, s, bend);
					break;
				}
				continue;
			}
		}
		/* Standing orders: "STANDING: 7th: HOLD", or a "STANDING:"
		 * line and the order lines under it up to a blank line. */
		if ((buf[0] | 0x20) == 's' && strncasecmp(buf, "standing", 8) == 0 &&
		    (buf[8] == ':' || buf[8] == ' ' || buf[8] == '\0')) {
			char *r = buf + 8;

			while (*r == ' ')
				r++;
			if (strncasecmp(r, "orders", 6) == 0 &&
			    (r[6] == ':' || r[6] == ' ' || r[6] == '\0'))
				r += 6;
			while (*r == ' ' || *r == ':')
				r++;
			if (*r == '\0') {
				block = 1;   /* a heading: the lines under it say it */
				continue;
			}
			if (strcasecmp(r, "none") == 0) {
				out->standing_clear = 1;
				out->standing_lines++;
				add_line_len(out, line, ORDERS_OK, buf, blen,
				    "STANDING: NONE");
				marking = 1;
				continue;
			}
			blen -= (size_t)(r - buf);
			memmove(buf, r, blen + 1);
			standing = 1;
		} else if (block) {
			standing = 1;
		}
		marking = standing;
		/* A line in the ruleset's own words, no unit's order. */
		if (p->rs->order_line != NULL) {
			struct order_line_ctx lc = {
				.b = b, .side = side, .standing = standing,
				.replay = p->replay, .taken = &out->set,
				.resolve = line_resolve, .point = line_point,
				.apart = orders_lev, .parser = p,
			};
			int rc = p->rs->order_line(&lc, buf, &o, msg, sizeof(msg));

			if (rc < 0) {
				int k = out->nlines;

				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    msg);
				if (out->nlines > k)
					out->lines[k].command = 1;
				continue;
			}
			if (rc > 0) {
				o.line = line;
				if (out->set.n < ORDER_SET_MAX)
					out->set.orders[out->set.n++] = o;
				orders_canonical_rs(crs, b, &o, msg, sizeof(msg));
				if (p->near) {
					size_t ml = strlen(msg);

					(void)orders_cat(msg, sizeof(msg),
					    orders_cat(msg, sizeof(msg), orders_cat(msg,
					    sizeof(msg), ml, "   (read "), p->near_note),
					    ")");
				}
				add_line_len(out, line, ORDERS_OK, buf, blen,
				    msg);
				continue;
			}
		}
		seen_unit = seen[standing];
		seen_cmd = seen_c[standing];
		set = standing ? &out->standing : &out->set;
		if (standing)
			out->standing_lines++;
		colon = strrchr(buf, ':');
		if (colon != NULL && colon[1] == '\0') {
			/* "7th Foot:" is an order with its verb missing;
			 * "Orders:" or "Dear Sir:" is a heading. */
			*colon = '\0';
			orders_copy_text(who, sizeof(who), buf);
			*colon = ':';
			orders_trim(who);
			if (orders_resolve(p, b, side, WHO_OWN_UNIT | WHO_OWN_CMD, who, &c,
			    NULL, 0, "unit") == 1) {
				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    "the order is missing after the colon");
				continue;
			}
		}
		if (colon == NULL || colon[1] == '\0') {
			/* Prose: a greeting, a heading ("Orders:"), a remark or
			 * a sign-off.  Ignored unless it reads like an order
			 * without its colon. */
			if (!has_verb_word(p->rs, buf)) {
				add_line_len(out, line, ORDERS_PROSE, buf, blen,
				    "");
				continue;
			}
			{
				int u;

				/* The example with a unit of the player's own. */
				for (u = 0; u < b->nunits; u++)
					if (b->units[u].side == side &&
					    battle_unit_alive(b, u))
						break;
				snprintf(msg, sizeof(msg), "expected \"UNIT: ORDER\", "
				    "for example \"%s: ADVANCE 8\" (the colon is "
				    "missing)", u < b->nunits ? b->units[u].name :
				    "7th Foot");
			}
			add_line_len(out, line, ORDERS_ERROR, buf, blen, msg);
			continue;
		}
		/* The name runs to the last colon. */
		(void)take_trimmed(buf, (size_t)(colon - buf), who, sizeof(who));
		(void)take_trimmed(colon + 1, blen - (size_t)(colon + 1 - buf), what,
		    sizeof(what));
		/* A unit or commander, else a brigade ("Howard's brigade",
		 * "Main Line"), else the nearest of them (names.c). */
		rr = orders_resolve(p, b, side, WHO_LINE, who, &c, msg, sizeof(msg),
		    "unit, commander or brigade of yours");
		if (rr != 1) {
			/* msg says what is wrong, with its suggestions. */
			/* Before the colon no name of the player's, not even a
			 * near one (no suggestion), and after it no order: prose
			 * ("Quick question before I send my orders: can my
			 * riflemen ..."), a remark and no error. */
			if (rr == 0 && !standing && strstr(msg, "did you mean") ==
			    NULL && strstr(msg, "is an enemy unit") == NULL &&
			    strstr(msg, "one of your own") == NULL &&
			    !starts_with_verb(p->rs, what)) {
				add_line_len(out, line, ORDERS_PROSE, buf, blen,
				    "");
				continue;
			}
			add_line_len(out, line, ORDERS_ERROR, buf, blen, msg);
			continue;
		}
		if (c->kind == C_BRIGADE) {
			int br = c->idx;

			if (!allowed(p, b, br, b->brigades[br].name, msg,
			    sizeof(msg))) {
				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    msg);
				continue;
			}
			if (bl == NULL)
				bl = calloc(BLINES_MAX, sizeof(*bl));
			if (bl == NULL || nbl == BLINES_MAX) {
				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    "too many brigade orders in one mail");
				continue;
			}
			/* The same brigade again: the later line wins, as for
			 * a unit (one set of orders a unit, always). */
			{
				int j;

				for (j = 0; j < nbl; j++)
					if (bl[j].brigade == br && bl[j].standing == standing &&
					    bl[j].line > 0) {
						int li;

						for (li = 0; li < out->nlines; li++)
							if (out->lines[li].line == bl[j].line) {
								out->lines[li].status = ORDERS_REPLACED;
								snprintf(out->lines[li].text,
								    sizeof(out->lines[li].text),
								    "replaced by line %d (a later line "
								    "for the same brigade wins)", line);
							}
						bl[j].line = -bl[j].line;   /* dead */
					}
			}
			bl[nbl].line = line;
			bl[nbl].standing = standing;
			bl[nbl].brigade = br;
			snprintf(bl[nbl].what, sizeof(bl[nbl].what), "%s", what);
			snprintf(bl[nbl].read_as, sizeof(bl[nbl].read_as), "%s",
			    p->near ? p->near_note : "");
			bl[nbl].li = out->nlines < ORDERS_MAX_LINES ? out->nlines : -1;
			nbl++;
			add_line_len(out, line, ORDERS_OK, buf, blen, "");
			continue;
		}
		if (!allowed(p, b, c->kind == C_CMD ? b->commanders[c->idx].brigade :
		    b->units[c->idx].brigade, c->name, msg, sizeof(msg))) {
			add_line_len(out, line, ORDERS_ERROR, buf, blen, msg);
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.is_commander = c->kind == C_CMD;
		o.who = c->idx;
		o.line = line;
		{
			int *seen_at = c->kind == C_CMD ? &seen_cmd[c->idx] :
			    &seen_unit[c->idx];

			p->line_standing = standing;
			if (orders_parse_chain(p, b, side, o.is_commander, c->idx, what, &o,
			    msg, sizeof(msg)) != 0) {
				size_t ml = strlen(msg);

				/* A unit whose own line fails holds: no brigade
				 * order stands in for what the player meant. */
				if (*seen_at > 0)
					snprintf(msg + ml, sizeof(msg) - ml, " (its order "
					    "on line %d stands)", *seen_at);
				else if (c->kind != C_CMD)
					(void)orders_cat(msg, sizeof(msg),
					    orders_cat(msg, sizeof(msg),
					    orders_cat(msg, sizeof(msg), ml, " (so "),
					    c->name), p->deploying && !standing ?
					    " keeps its place)" : " holds)");
				if (*seen_at == 0)
					*seen_at = -line;
				add_line_len(out, line, ORDERS_ERROR, buf, blen,
				    msg);
				continue;
			}
			/* A later line for the same unit wins. */
			if (*seen_at > 0)
				replace_earlier(out, set, &o, *seen_at, line);
			else if (*seen_at < 0)
				now_stands(out, -*seen_at, c->name, line);
			*seen_at = line;
		}
		if (set->n < ORDER_SET_MAX)
			set->orders[set->n++] = o;
		tlen = orders_canonical_n(crs, b, &o, msg, sizeof(msg));
		if (p->cut) {
			snprintf(msg + tlen, sizeof(msg) - tlen, "   (only the first %d "
			    "parts are kept: what follows, joined with THEN or ';', "
			    "was left out)", ORDER_MAX_STEPS);
			tlen = strlen(msg);
		}
		if (p->near)
			tlen = orders_cat(msg, sizeof(msg), orders_cat(msg,
			    sizeof(msg), orders_cat(msg, sizeof(msg), tlen,
			    "   (read "), p->near_note), ")");
		/* The answer's text, its length known. */
		add_lines_n(out, line, ORDERS_OK, buf, blen, msg, tlen);
	}
	/* Where reading stopped: a signature, a quoted mail, or the end. */
	out->read_end = (size_t)((s != NULL && *s ? cur : bend) - body);
	for (i = mark; i < out->nlines; i++)
		out->lines[i].standing = marking;
	if (nbl > 0)
		orders_expand_brigades(p, b, side, bl, nbl, seen[0], seen[1], out);
	free(bl);
	p->bound = NULL;
	p->mopts = 0;
	return 0;
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
