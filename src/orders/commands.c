/*
 * commands.c - the mail commands (HELP, STATUS, ORDERS, PRESS ...; see
 * docs/orders.md): a command on a line of its own in an order mail, and
 * the one command of a mail that holds nothing else.
 */
#include "orders/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The one table of the commands' words: the enum names them, this
 * spells them, and the line pattern and the quick test below are made
 * from it, so a command is added here and in the enum only. */
static const char *const cmd_words[CMD_COUNT] = {
	[CMD_HELP] = "HELP", [CMD_STATUS] = "STATUS", [CMD_ORDERS] = "ORDERS",
	[CMD_RESEND] = "RESEND", [CMD_PRESS] = "PRESS", [CMD_WAIT] = "WAIT",
	[CMD_READY] = "READY", [CMD_CONCEDE] = "CONCEDE",
	[CMD_COMMIT] = "COMMIT", [CMD_REVEAL] = "REVEAL", [CMD_SET] = "SET",
	[CMD_CLEAR] = "CLEAR", [CMD_QUESTION] = "QUESTION",
	[CMD_UMPIRE] = "UMPIRE", [CMD_LIST] = "LIST",
	[CMD_JOIN] = "JOIN", [CMD_DRAW] = "DRAW", [CMD_SECRET] = "SECRET",
	[CMD_ABSENT] = "ABSENT", [CMD_HISTORY] = "HISTORY",
};

const char *
orders_cmd_word(enum orders_cmd_kind k)
{
	return (unsigned)k < CMD_COUNT && cmd_words[k] != NULL ? cmd_words[k] :
	    "?";
}

int
orders_cmd_pattern(char *out, size_t size)
{
	size_t n = 0;
	int k, w;

	w = snprintf(out, size, "^(");
	for (k = 0; w >= 0 && (size_t)w < size - n && k < CMD_COUNT; k++) {
		if (cmd_words[k] == NULL)
			return -1;   /* a word missing from the table */
		n += (size_t)w;
		w = snprintf(out + n, size - n, "%s%s", k ? "|" : "", cmd_words[k]);
	}
	if (w < 0 || (size_t)w >= size - n)
		return -1;
	n += (size_t)w;
	w = snprintf(out + n, size - n, ")(?:\\s+(.*?))?\\s*[.!]?$");
	return w < 0 || (size_t)w >= size - n ? -1 : 0;
}

uint32_t
orders_cmd_initials(void)
{
	uint32_t m = 0;
	int k;

	for (k = 0; k < CMD_COUNT; k++) {
		unsigned char f = orders_low((unsigned char)orders_cmd_word(
		    (enum orders_cmd_kind)k)[0]);

		if ((unsigned)(f - 'a') < 26u)
			m |= (uint32_t)1 << (f - 'a');
	}
	return m;
}

/* A calendar date written YYYY-MM-DD, years 2000 to 2199. */
static int
iso_date(const char *s, size_t n)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
		31, 30, 31 };
	int y, m, d, i;

	if (n != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	y = atoi(s);
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 2000 || y > 2199 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return 0;
	return 1;
}

/* ABSENT FROM <date> TO <date>, or ABSENT CANCEL.  "Absent any word from
 * the left" is prose; a line that begins "ABSENT FROM" is the command,
 * right or wrong. */
static int
parse_absent(const char *arg, struct orders_cmd *c, char *msg, size_t msize)
{
	char w1[8], d1[16], w2[8], d2[16], extra[2];
	int n;

	if (strcasecmp(arg, "CANCEL") == 0) {
		snprintf(c->arg, sizeof(c->arg), "cancel");
		return 1;
	}
	n = sscanf(arg, "%7s %15s %7s %15s %1s", w1, d1, w2, d2, extra);
	if (n < 1 || strcasecmp(w1, "FROM") != 0)
		return arg[0] == '\0' ? (snprintf(msg, msize, "ABSENT takes the "
		    "dates you will be away: ABSENT FROM 2026-12-24 TO 2026-12-27, "
		    "or ABSENT CANCEL"), -1) : 0;
	if (n != 4 || strcasecmp(w2, "TO") != 0 || !iso_date(d1, strlen(d1)) ||
	    !iso_date(d2, strlen(d2))) {
		snprintf(msg, msize, "ABSENT takes two dates, year-month-day: "
		    "ABSENT FROM 2026-12-24 TO 2026-12-27 (or ABSENT CANCEL)");
		return -1;
	}
	if (strcmp(d1, d2) > 0) {
		snprintf(msg, msize, "ABSENT FROM %s TO %s ends before it begins; "
		    "write the first day, then the last", d1, d2);
		return -1;
	}
	c->arg[0] = '\0';
	snprintf(c->text, sizeof(c->text), "%s %s", d1, d2);
	return 1;
}

/* HISTORY, HISTORY TURN <n>, or HISTORY <n>-<m> (turns). */
static int
parse_history(const char *arg, struct orders_cmd *c, char *msg, size_t msize)
{
	long a, b;
	char *end;
	const char *s = arg;

	if (*s == '\0') {
		snprintf(c->arg, sizeof(c->arg), "all");
		c->text[0] = '\0';
		return 1;
	}
	if (strncasecmp(s, "TURN", 4) == 0 && (s[4] == '\0' ||
	    isspace((unsigned char)s[4]))) {
		s += 4;
		while (isspace((unsigned char)*s))
			s++;
		a = strtol(s, &end, 10);
		/* TURN 0: a battle's deployment */
		if (end == s || *end != '\0' || a < 0 || a > 9999)
			goto bad;
		snprintf(c->arg, sizeof(c->arg), "turn");
		snprintf(c->text, sizeof(c->text), "%ld", a);
		return 1;
	}
	if (!isdigit((unsigned char)*s))
		return 0;       /* "History shows ..." */
	a = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end == '\0') {
		b = a;
	} else {
		if (*end != '-')
			goto bad;
		s = end + 1;
		while (isspace((unsigned char)*s))
			s++;
		b = strtol(s, &end, 10);
		if (end == s || *end != '\0')
			goto bad;
	}
	if (a >= 1 && b >= 1 && b < a) {
		snprintf(msg, msize, "HISTORY %ld-%ld ends before it begins: write "
		    "the first turn, then the last (HISTORY %ld-%ld)", a, b, b, a);
		return -1;
	}
	if (a < 1 || b > 9999)
		goto bad;
	snprintf(c->arg, sizeof(c->arg), "range");
	snprintf(c->text, sizeof(c->text), "%ld-%ld", a, b);
	return 1;
bad:
	snprintf(msg, msize, "HISTORY takes nothing (every phase), TURN and a "
	    "turn's number (HISTORY TURN 3), or turns from and to (HISTORY 2-4)");
	return -1;
}

/* 1 if a is b with two letters next to each other swapped ("STATSU"),
 * case ignored. */
static int
swapped(const char *a, const char *b)
{
	size_t n = strlen(a), i;

	if (n != strlen(b))
		return 0;
	for (i = 0; i < n && orders_low((unsigned char)a[i]) ==
	    orders_low((unsigned char)b[i]); i++)
		;
	return i + 1 < n && orders_low((unsigned char)a[i]) ==
	    orders_low((unsigned char)b[i + 1]) &&
	    orders_low((unsigned char)a[i + 1]) ==
	    orders_low((unsigned char)b[i]) && strcasecmp(a + i + 2,
	    b + i + 2) == 0;
}

/*
 * A line of one word a letter off a command's ("READDY"), or with two
 * letters swapped ("STATSU"), as a
 * command written wrong: -1 with what was meant in msg; else 0, prose.
 * One word alone on its line, four letters or more, and one command at
 * that distance, so that prose and names are left alone; SET, a word of
 * prose alone ("Set"), is not offered.
 */
static int
near_command(const char *buf, char *msg, size_t msize)
{
	char w[16];
	size_t n = 0;
	int k, hit = -1;

	while (n < sizeof(w) - 1 && ((buf[n] >= 'a' && buf[n] <= 'z') ||
	    (buf[n] >= 'A' && buf[n] <= 'Z'))) {
		w[n] = buf[n];
		n++;
	}
	w[n] = '\0';
	if (n < 4 || !(buf[n] == '\0' || ((buf[n] == '.' || buf[n] == '!') &&
	    buf[n + 1] == '\0')))
		return 0;
	for (k = 0; k < CMD_COUNT; k++) {
		if (k == CMD_SET || (orders_lev(w, orders_cmd_word(k)) != 1 &&
		    !swapped(w, orders_cmd_word(k))))
			continue;
		if (hit >= 0)
			return 0;       /* two at one letter: no guess */
		hit = k;
	}
	if (hit < 0)
		return 0;
	snprintf(msg, msize, "\"%s\" is not a command; did you mean %s?", w,
	    orders_cmd_word((enum orders_cmd_kind)hit));
	return -1;
}

int
orders_parse_command(struct orders_parser *p, const char *buf, struct orders_cmd *c,
    char *msg, size_t msize)
{
	char word[16], arg[ORDERS_TEXT_MAX], line[ORDERS_TEXT_MAX + 2];
	unsigned char f = orders_low((unsigned char)buf[0]);
	int k;

	/* Most lines are orders: only a line that begins with a command's
	 * word, then a blank, '.', '!' or its end, is worth the pattern.
	 * Most begin with a letter no command's word begins with, or a
	 * digit ("7th Foot"), and are passed over at once. */
	if ((unsigned)(f - 'a') >= 26u || !(p->cmd_initials >> (f - 'a') & 1u))
		return 0;
	for (k = 0; k < CMD_COUNT; k++) {
		const char *w = orders_cmd_word((enum orders_cmd_kind)k);
		size_t j;

		if (orders_low((unsigned char)w[0]) != f)
			continue;
		for (j = 0; w[j] && orders_low((unsigned char)buf[j]) ==
		    orders_low((unsigned char)w[j]); j++)
			;
		if (w[j] == '\0' && (buf[j] == '\0' || orders_sp((unsigned char)buf[j]) ||
		    buf[j] == '.' || buf[j] == '!'))
			break;
		/* "QUESTION: can my riflemen ..." (but "Orders:" is a
		 * heading, not the command). */
		if (w[j] == '\0' && buf[j] == ':' && (k == CMD_QUESTION ||
		    k == CMD_UMPIRE)) {
			snprintf(line, sizeof(line), "%.*s %s", (int)j, buf, buf + j + 1);
			buf = line;
			break;
		}
	}
	if (k == CMD_COUNT)
		return near_command(buf, msg, msize);
	if (!orders_match(p, p->cmd, buf, strlen(buf), 0))
		return 0;
	orders_group(p, buf, 1, word, sizeof(word));
	orders_group(p, buf, 2, arg, sizeof(arg));
	memset(c, 0, sizeof(*c));
	for (k = 0; k < CMD_COUNT; k++)
		if (strcasecmp(word, orders_cmd_word(k)) == 0)
			break;
	c->kind = (enum orders_cmd_kind)k;
	switch (c->kind) {
	case CMD_PRESS: {
		/* PRESS TO <side|all> "text" (or the text without quotes,
		 * after a colon or not). */
		char *t = arg, *q;
		size_t n;

		if (strncasecmp(t, "TO", 2) != 0 || !isspace((unsigned char)t[2])) {
			snprintf(msg, msize, "PRESS needs an addressee: PRESS TO "
			    "<side or all> \"your message\"");
			return -1;
		}
		t += 3;
		while (isspace((unsigned char)*t))
			t++;
		n = strcspn(t, " \t:\"");
		if (n == 0 || n >= sizeof(c->arg)) {
			snprintf(msg, msize, "PRESS needs an addressee: PRESS TO "
			    "<side or all> \"your message\"");
			return -1;
		}
		memcpy(c->arg, t, n);
		c->arg[n] = '\0';
		t += n;
		while (isspace((unsigned char)*t) || *t == ':')
			t++;
		/* Straight or curly quotes around the text. */
		if (*t == '"') {
			t++;
		} else if ((unsigned char)t[0] == 0xe2 &&
		    (unsigned char)t[1] == 0x80 && (unsigned char)t[2] == 0x9c) {
			t += 3;
		}
		n = strlen(t);
		q = t + n;
		if (n > 0 && q[-1] == '"')
			q[-1] = '\0';
		else if (n >= 3 && (unsigned char)q[-3] == 0xe2 &&
		    (unsigned char)q[-2] == 0x80 && (unsigned char)q[-1] == 0x9d)
			q[-3] = '\0';
		snprintf(c->text, sizeof(c->text), "%s", t);
		orders_trim(c->text);
		return 1;
	}
	case CMD_COMMIT: {
		/* COMMIT <SHA-256 of the nonce, 64 hex digits>. */
		size_t n = strlen(arg), i;

		for (i = 0; i < n && isxdigit((unsigned char)arg[i]); i++)
			;
		if (n != 64 || i != n) {
			snprintf(msg, msize, "COMMIT takes the SHA-256 of your nonce: "
			    "64 hex digits (printf '%%s' 'your nonce' | sha256sum)");
			return -1;
		}
		for (i = 0; i < n; i++)
			c->text[i] = (char)tolower((unsigned char)arg[i]);
		c->text[n] = '\0';
		return 1;
	}
	case CMD_REVEAL:
		if (arg[0] == '\0' || strlen(arg) > 128) {
			snprintf(msg, msize, "REVEAL takes the nonce you committed to "
			    "(1 to 128 characters)");
			return -1;
		}
		snprintf(c->text, sizeof(c->text), "%s", arg);
		return 1;
	case CMD_SET: {
		/* SET MAIL TEXT | HTML | FULL: how the player's reports come. */
		static const char *const kinds[] = { "text", "html", "full" };
		char what[16] = "", how[16] = "", extra[2] = "";
		int n = sscanf(arg, "%15s %15s %1s", what, how, extra);

		/* SET PASSWORD: a new secret, made by the server. */
		if (n == 1 && strcasecmp(what, "PASSWORD") == 0) {
			snprintf(c->arg, sizeof(c->arg), "password");
			return 1;
		}
		/* "Set up a line on the ridge" is not the command. */
		if (n < 1 || strcasecmp(what, "MAIL") != 0)
			return 0;
		for (k = 0; n == 2 && k < 3; k++)
			if (strcasecmp(how, kinds[k]) == 0)
				break;
		if (n != 2 || k == 3) {
			snprintf(msg, msize, "SET MAIL takes one of TEXT (plain text "
			    "only), HTML (the report with its map in the mail) or FULL "
			    "(HTML with the map as PNG and SVG and the report as JSON "
			    "attached)");
			return -1;
		}
		snprintf(c->arg, sizeof(c->arg), "mail");
		snprintf(c->text, sizeof(c->text), "%s", kinds[k]);
		return 1;
	}
	case CMD_CONCEDE:
		if (strlen(arg) >= sizeof(c->arg) || strchr(arg, ' ') != NULL) {
			snprintf(msg, msize, "CONCEDE takes nothing after it, or the "
			    "code from the reply to your first CONCEDE");
			return -1;
		}
		orders_copy_text(c->arg, sizeof(c->arg), arg);
		return 1;
	case CMD_LIST: {
		/* LIST, or LIST <game>: a game's name is one word ("List
		 * of the brigades" is prose); "LIST GAME cw", as the help's
		 * "LIST [GAME]" reads, is LIST cw. */
		char *a = arg;

		if (strncasecmp(a, "GAME ", 5) == 0 && a[5] != '\0' &&
		    strchr(a + 5, ' ') == NULL)
			memmove(a, a + 5, strlen(a + 5) + 1);
		if (strchr(arg, ' ') != NULL || strchr(arg, '\t') != NULL ||
		    strlen(arg) >= sizeof(c->arg))
			return 0;
		orders_copy_text(c->arg, sizeof(c->arg), arg);
		return 1;
	}
	case CMD_DRAW:
		/* DRAW, or DRAW WITHDRAW ("Draw up the line" is prose). */
		if (arg[0] != '\0' && strcasecmp(arg, "WITHDRAW") != 0) {
			/* "DRAW WITHDRAWN", "DRAW WITHDRAW." */
			if (strchr(arg, ' ') == NULL && orders_lev(arg,
			    "WITHDRAW") <= 2) {
				snprintf(msg, msize, "\"DRAW %s\" is not a command; "
				    "did you mean DRAW WITHDRAW?", arg);
				return -1;
			}
			return 0;
		}
		snprintf(c->arg, sizeof(c->arg), "%s", arg[0] ? "withdraw" : "");
		return 1;
	case CMD_JOIN: {
		/* JOIN <game> <side> [<brigades>] (njudge's SIGNON): the
		 * side and any brigades are the text. */
		char g[64];
		int at = 0;

		if (sscanf(arg, "%63s %n", g, &at) != 1 || arg[at] == '\0') {
			snprintf(msg, msize, "JOIN takes a game and a side: JOIN "
			    "<game> <side> (LIST shows the games open for joining)");
			return -1;
		}
		orders_copy_text(c->arg, sizeof(c->arg), g);
		orders_copy_text(c->text, sizeof(c->text), arg + at);
		return 1;
	}
	case CMD_SECRET:
		/* SECRET, or SECRET <game> ("Secret orders follow" is
		 * prose). */
		if (strchr(arg, ' ') != NULL || strchr(arg, '\t') != NULL ||
		    strlen(arg) >= sizeof(c->arg))
			return 0;
		orders_copy_text(c->arg, sizeof(c->arg), arg);
		return 1;
	case CMD_ABSENT:
		return parse_absent(arg, c, msg, msize);
	case CMD_HISTORY:
		return parse_history(arg, c, msg, msize);
	case CMD_QUESTION:
	case CMD_UMPIRE:
		/* The question is the rest of the line and of the mail (the
		 * parser adds the lines after it). */
		snprintf(c->text, sizeof(c->text), "%s", arg);
		return 1;
	default:
		/* "Help me with the map" is prose, not the command. */
		return arg[0] == '\0' ? 1 : 0;
	}
}

int
orders_bare_command(struct orders_parser *p, const char *body,
    struct orders_cmd *out)
{
	const char *s = body;

	while (s != NULL && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char buf[ORDERS_TEXT_MAX], msg[256];
		struct orders_cmd *c;
		int rc;

		s = nl ? nl + 1 : NULL;
		if (orders_take_line(s ? s - n - 1 : body + strlen(body) - n, n, buf,
		    sizeof(buf)) != 0)
			return -1;
		if (buf[0] == '\0' || buf[0] == '>')
			continue;
		c = malloc(sizeof(*c));
		if (c == NULL)
			return -1;
		msg[0] = '\0';
		rc = orders_parse_command(p, buf, c, msg, sizeof(msg));
		/* A command written wrong ("JOIN ford") is still that
		 * command: its line -1 and what is wrong in its text. */
		if (rc < 0 && msg[0] != '\0') {
			c->line = -1;
			orders_copy_text(c->text, sizeof(c->text), msg);
			rc = 1;
		}
		rc = rc == 1 ? (int)c->kind : -1;
		if (rc >= 0 && out != NULL)
			*out = *c;
		free(c);
		return rc;
	}
	return -1;
}
