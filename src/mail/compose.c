/*
 * compose.c - writing report mails and dates (see mail.h).
 *
 * Implements, by hand so that the bytes sent are exactly the bytes
 * stored: the RFC 5322 header section (CRLF line ends, folding at 78
 * columns where the text allows, never past 998), RFC 2045
 * quoted-printable with soft line breaks at 76 columns, RFC 2047
 * encoded-words (UTF-8, B or Q, whichever is shorter) for Subject and
 * display names that are not plain ASCII, and the RFC 5322 date-time
 * (written without the locale).
 *
 * Workload: one call per outgoing report - a few per player per turn -
 * on text despatch wrote itself, at most a few hundred KiB.  Header
 * values still come partly from players (names, subjects quoted in
 * replies), so a line break in any of them is refused: it would let the
 * value write header fields of its own.
 */
#include "mail/mail.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/mime.h"
#include "mail/text.h"

/* Longest address (RFC 5321 path limit) and message id we write. */
#define ADDR_MAX   254u
#define MSGID_MAX  250u
#define DATE_MAX   200u
/* A run of non-blank text longer than this cannot be folded under 998
 * octets, so such a Subject is written as encoded-words instead. */
#define WORD_MAX   900u

/* One parsed "Name <addr>" or "addr". */
struct address {
	char *name;             /* unquoted display name, "" if none */
	const char *addr;
	size_t addr_len;
};

static char *
fail_oom(struct err *e)
{
	err_set(e, ERR_INTERNAL, "out of memory while writing a mail");
	return NULL;
}

/* Refuses a header value that could break out of its header field or
 * is not UTF-8 text.  Here and below, a header not given (NULL) has
 * nothing to check. */
static int
check_value(const char *what, const char *v, struct err *e)
{
	const char *p = NULL;

	if (v == NULL)
		return 0;
	if (strpbrk(v, "\r\n") != NULL)
		return err_set(e, ERR_USER, "the %s contains a line break; a "
		    "header value may not hold one (it could write header "
		    "fields of its own)", what);
	if (!mail_text_utf8_valid(v, strlen(v)))
		return err_set(e, ERR_USER, "the %s is not valid UTF-8", what);
	for (p = v; *p != '\0'; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7F)
			return err_set(e, ERR_USER, "the %s contains a control "
			    "character", what);
	return 0;
}

static int
is_atext(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' && strchr("!#$%&'*+-/=?^_`{|}~",
	    c) != NULL);
}

/* addr-spec as we write it: dot-atom "@" dot-atom, ASCII only. */
static int
check_addr(const char *what, const char *a, size_t n, struct err *e)
{
	size_t i, at = n;

	for (i = 0; i < n; i++) {
		if (a[i] == '@') {
			if (at != n)
				break;
			at = i;
		} else if (!is_atext(a[i]) && a[i] != '.')
			break;
	}
	if (i < n || at == n || at == 0 || at + 1 == n || n > ADDR_MAX)
		return err_set(e, ERR_USER, "the %s address \"%.*s\" is not of "
		    "the form local@domain (ASCII, at most %u characters)", what,
		    (int)(n > ADDR_MAX ? ADDR_MAX : n), a, ADDR_MAX);
	return 0;
}

/* Splits "Name <addr>", "\"Name\" <addr>", "<addr>" or "addr". */
static int
split_address(const char *what, const char *v, struct address *out,
    struct err *e)
{
	const char *b = v, *z = NULL, *lt = NULL, *p = NULL;
	const char *nb = NULL, *nz = NULL;
	size_t k = 0;

	if (v == NULL)
		return 0;
	z = v + strlen(v);
	out->name = NULL;
	while (b < z && (*b == ' ' || *b == '\t'))
		b++;
	while (z > b && (z[-1] == ' ' || z[-1] == '\t'))
		z--;
	if (z > b && z[-1] == '>') {
		for (p = b; p < z - 1; p++)
			if (*p == '<')
				lt = p;
		if (lt == NULL)
			return err_set(e, ERR_USER, "the %s \"%s\" has a '>' "
			    "without '<'", what, v);
		out->addr = lt + 1;
		out->addr_len = (size_t)(z - 1 - out->addr);
		nb = b;
		nz = lt;
		while (nz > nb && (nz[-1] == ' ' || nz[-1] == '\t'))
			nz--;
	} else {
		out->addr = b;
		out->addr_len = (size_t)(z - b);
		nb = nz = b;
	}
	if (check_addr(what, out->addr, out->addr_len, e) != 0)
		return -1;
	out->name = malloc((size_t)(nz - nb) + 1);
	if (out->name == NULL) {
		err_set(e, ERR_INTERNAL, "out of memory while writing a mail");
		return -1;
	}
	if (nz - nb >= 2 && *nb == '"' && nz[-1] == '"') {
		/* Already a quoted-string: keep what it says. */
		for (p = nb + 1; p < nz - 1; p++) {
			if (*p == '\\' && p + 1 < nz - 1)
				p++;
			out->name[k++] = *p;
		}
	} else {
		memcpy(out->name, nb, (size_t)(nz - nb));
		k = (size_t)(nz - nb);
	}
	out->name[k] = '\0';
	return 0;
}

/* Contract (mail.h): 1 if id can stand between angle brackets in a
 * header we write. */
int
mail_msgid_writable(const char *id)
{
	size_t n, i;

	if (id == NULL)
		return 0;
	n = strlen(id);
	for (i = 0; i < n; i++)
		if ((unsigned char)id[i] <= 0x20 || (unsigned char)id[i] >= 0x7F ||
		    id[i] == '<' || id[i] == '>')
			return 0;
	return n > 0 && n <= MSGID_MAX;
}

/* A msg-id we write between angle brackets. */
static int
check_msgid(const char *what, const char *id, struct err *e)
{
	if (id == NULL || mail_msgid_writable(id))
		return 0;
	return err_set(e, ERR_USER, "the %s must be 1 to %u printable ASCII "
	    "characters without spaces or angle brackets", what, MSGID_MAX);
}

/* ------------------------------------------------------------------ */
/* Encoded-words (RFC 2047) */

/* Characters Q may leave as they are in any header context (RFC 2047
 * section 5 (3), the strictest). */
static int
q_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '!' || c == '*' || c == '+' ||
	    c == '-' || c == '/';
}

static size_t
q_cost(unsigned char c)
{
	return (q_plain(c) || c == ' ') ? 1 : 3;
}

static void
put_hex(struct mtext *b, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char t[3];

	t[0] = '=';
	t[1] = hex[c >> 4];
	t[2] = hex[c & 15];
	mail_text_put(b, t, 3);
}

static void
put_word(struct mtext *b, const char *s, size_t n, int q)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)s;
	unsigned long v;
	size_t i;
	char t[4];

	mail_text_puts(b, q ? "=?utf-8?Q?" : "=?utf-8?B?");
	for (i = 0; q && i < n; i++) {
		if (q_plain(u[i]))
			mail_text_putc(b, (char)u[i]);
		else if (u[i] == ' ')
			mail_text_putc(b, '_');
		else
			put_hex(b, u[i]);
	}
	for (i = 0; !q && i < n; i += 3) {
		v = (unsigned long)u[i] << 16;
		if (i + 1 < n)
			v |= (unsigned long)u[i + 1] << 8;
		if (i + 2 < n)
			v |= u[i + 2];
		t[0] = b64[(v >> 18) & 63];
		t[1] = b64[(v >> 12) & 63];
		t[2] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		t[3] = i + 2 < n ? b64[v & 63] : '=';
		mail_text_put(b, t, 4);
	}
	mail_text_puts(b, "?=");
}

/* Writes s[0..n) (UTF-8) as encoded-words of at most 75 characters,
 * never splitting a character, folding between words so that lines stay
 * within 78 columns; *col is the length of the current line. */
static void
put_encoded(struct mtext *b, const char *s, size_t n, size_t *col)
{
	size_t i, k, j, start = 0, cost = 0, next, qlen = 0, limit;
	int q;

	for (i = 0; i < n; i++)
		qlen += q_cost((unsigned char)s[i]);
	q = qlen <= 4 * ((n + 2) / 3);
	i = 0;
	while (i < n) {
		k = mail_text_utf8_seq(s + i, n - i);
		if (k == 0)
			k = 1;
		if (q) {
			next = cost;
			for (j = i; j < i + k; j++)
				next += q_cost((unsigned char)s[j]);
		} else
			next = 4 * ((i + k - start + 2) / 3);
		limit = *col + 75 <= 78 ? 75 : (*col < 78 ? 78 - *col : 0);
		if (i > start && 12 + next > limit) {
			put_word(b, s + start, i - start, q);
			mail_text_puts(b, "\r\n ");
			*col = 1;
			start = i;
			cost = 0;
			continue;
		}
		cost = next;
		i += k;
	}
	put_word(b, s + start, n - start, q);
	*col += 12 + cost;
}

/* Plain ASCII text folded at its spaces to keep lines within 78 columns
 * where the words allow. */
static void
put_folded(struct mtext *b, const char *s, size_t *col)
{
	size_t i = 0, j, n = strlen(s);
	int written = 0;

	while (i < n) {
		j = i;
		if (s[j] == ' ')
			j++;
		while (j < n && s[j] != ' ')
			j++;
		if (written && s[i] == ' ' && j > i + 1 && *col + (j - i) > 78) {
			mail_text_puts(b, "\r\n");
			*col = 0;
		}
		mail_text_put(b, s + i, j - i);
		*col += j - i;
		written = 1;
		i = j;
	}
}

/* 1 if text must go out as encoded-words: not ASCII, or it would be
 * mistaken for encoded-words, or it has a word too long to fold. */
static int
needs_encoding(const char *s)
{
	size_t run = 0;

	if (strstr(s, "=?") != NULL)
		return 1;
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s >= 0x80)
			return 1;
		run = (*s == ' ' || *s == '\t') ? 0 : run + 1;
		if (run > WORD_MAX)
			return 1;
	}
	return 0;
}

static void
put_subject(struct mtext *b, const char *s)
{
	size_t col = 9;

	mail_text_puts(b, "Subject: ");
	if (needs_encoding(s))
		put_encoded(b, s, strlen(s), &col);
	else
		put_folded(b, s, &col);
	mail_text_puts(b, "\r\n");
}

/* A display name: as atoms if it is only atext and spaces, as a
 * quoted-string if it is ASCII with specials, else as encoded-words. */
static void
put_name(struct mtext *b, const char *name, size_t *col)
{
	size_t n = strlen(name), i;
	int atoms = 1;

	if (needs_encoding(name) || n > WORD_MAX) {
		put_encoded(b, name, n, col);
		return;
	}
	for (i = 0; i < n; i++)
		if (!is_atext(name[i]) && name[i] != ' ')
			atoms = 0;
	if (atoms) {
		mail_text_put(b, name, n);
		*col += n;
		return;
	}
	mail_text_putc(b, '"');
	for (i = 0; i < n; i++) {
		if (name[i] == '"' || name[i] == '\\') {
			mail_text_putc(b, '\\');
			(*col)++;
		}
		mail_text_putc(b, name[i]);
	}
	mail_text_putc(b, '"');
	*col += n + 2;
}

static void
put_address(struct mtext *b, const char *field, const struct address *a)
{
	size_t col = strlen(field) + 2;

	mail_text_puts(b, field);
	mail_text_puts(b, ": ");
	if (a->name[0] == '\0') {
		mail_text_put(b, a->addr, a->addr_len);
	} else {
		put_name(b, a->name, &col);
		if (col + 3 + a->addr_len > 78)
			mail_text_puts(b, "\r\n");
		mail_text_puts(b, " <");
		mail_text_put(b, a->addr, a->addr_len);
		mail_text_putc(b, '>');
	}
	mail_text_puts(b, "\r\n");
}

/* ------------------------------------------------------------------ */
/* Body */

/* 1 if s[0..n) (LF line ends) may go out as 7bit: ASCII, every line
 * under 998 octets. */
static int
is_7bit(const char *s, size_t n)
{
	size_t i, line = 0;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] >= 0x80)
			return 0;
		line = s[i] == '\n' ? 0 : line + 1;
		if (line > 998)
			return 0;
	}
	return 1;
}

/* Each line of s[0..n) followed by CRLF (so the body ends with CRLF). */
static void
put_7bit(struct mtext *b, const char *s, size_t n)
{
	size_t pos = 0, l;
	const char *nl = NULL;

	while (pos < n) {
		nl = memchr(s + pos, '\n', n - pos);
		l = nl == NULL ? n - pos : (size_t)(nl - (s + pos));
		mail_text_put(b, s + pos, l);
		mail_text_puts(b, "\r\n");
		pos += l + 1;
	}
}

/* RFC 2045 section 6.7 quoted-printable: lines of at most 76
 * characters, soft breaks ("=" CRLF) where needed, white space before a
 * line end encoded, "From " at the start of a line encoded so that no
 * mbox on the way alters it. */
void
mail_put_qp(struct mtext *b, const char *s, size_t n)
{
	size_t pos = 0, l, k, col, tok;
	const char *line = NULL, *nl = NULL;
	unsigned char c;
	int lit, last;

	while (pos < n) {
		line = s + pos;
		nl = memchr(line, '\n', n - pos);
		l = nl == NULL ? n - pos : (size_t)(nl - line);
		col = 0;
		for (k = 0; k < l; k++) {
			c = (unsigned char)line[k];
			last = (k + 1 == l);
			lit = (c >= 33 && c <= 126 && c != '=') ||
			    ((c == ' ' || c == '\t') && !last);
			tok = lit ? 1 : 3;
			if (col + tok > 75 && !(last && col + tok <= 76)) {
				mail_text_puts(b, "=\r\n");
				col = 0;
			}
			if (col == 0 && c == 'F' && l - k >= 5 &&
			    memcmp(line + k, "From ", 5) == 0)
				lit = 0;
			if (lit) {
				mail_text_putc(b, (char)c);
				col++;
			} else {
				put_hex(b, c);
				col += 3;
			}
		}
		mail_text_puts(b, "\r\n");
		pos += l + 1;
	}
}

/*
 * Contract (mail.h): writes m as an RFC 5322 message with headers in
 * the order Date, From, To, Subject, Message-ID, In-Reply-To,
 * References, MIME-Version, Content-Type, Content-Transfer-Encoding,
 * Auto-Submitted (absent fields left out), then the body with CRLF line
 * ends, ending in CRLF unless empty.  ERR_USER if a header value holds
 * CR or LF, is not UTF-8 or holds another control character (TAB
 * allowed), if From/To is not "Name <local@domain>" or "local@domain",
 * or if a message id is not printable ASCII; ERR_INTERNAL on allocation
 * failure.  The caller frees the result.
 */
char *
mail_compose(const struct mail_out *m, size_t *len, struct err *e)
{
	struct mtext b, body, ctype, mime;
	struct address from = { NULL, NULL, 0 }, to = { NULL, NULL, 0 };
	struct address reply_to = { NULL, NULL, 0 };
	const char *p = NULL;
	char *res = NULL;
	int seven, multi = 0;

	mail_text_init(&b);
	mail_text_init(&body);
	mail_text_init(&ctype);
	mail_text_init(&mime);
	if (len != NULL)
		*len = 0;
	if (m == NULL) {
		err_set(e, ERR_INTERNAL, "mail_compose: no message given");
		goto out;
	}
	if (check_value("Date", m->date, e) != 0 ||
	    check_value("From", m->from, e) != 0 ||
	    check_value("To", m->to, e) != 0 ||
	    check_value("Reply-To", m->reply_to, e) != 0 ||
	    check_value("Subject", m->subject, e) != 0 ||
	    check_value("Message-ID", m->message_id, e) != 0 ||
	    check_value("In-Reply-To", m->in_reply_to, e) != 0)
		goto out;
	if (m->date != NULL) {
		for (p = m->date; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F)
				break;
		if (*p != '\0' || p - m->date > (ptrdiff_t)DATE_MAX) {
			err_set(e, ERR_USER, "the Date must be printable ASCII "
			    "(an RFC 5322 date-time such as mail_date writes)");
			goto out;
		}
	}
	if (split_address("From", m->from, &from, e) != 0 ||
	    split_address("To", m->to, &to, e) != 0 ||
	    (m->reply_to != NULL && split_address("Reply-To", m->reply_to,
	    &reply_to, e) != 0) ||
	    check_msgid("Message-ID", m->message_id, e) != 0 ||
	    check_msgid("In-Reply-To", m->in_reply_to, e) != 0)
		goto out;
	if (m->body != NULL) {
		if (mail_text_put_lf(&body, m->body, strlen(m->body)) != 0) {
			fail_oom(e);
			goto out;
		}
		if (!mail_text_utf8_valid(body.p, body.len)) {
			err_set(e, ERR_USER, "the body of the mail is not valid "
			    "UTF-8");
			goto out;
		}
	}
	seven = is_7bit(body.p, body.len);
	multi = m->html != NULL || m->nparts > 0;
	if (multi && mail_mime_body(m, body.p, body.len, &ctype, &mime, e) != 0)
		goto out;

	if (m->date != NULL) {
		mail_text_puts(&b, "Date: ");
		mail_text_puts(&b, m->date);
		mail_text_puts(&b, "\r\n");
	}
	if (m->from != NULL)
		put_address(&b, "From", &from);
	if (m->to != NULL)
		put_address(&b, "To", &to);
	if (m->reply_to != NULL)
		put_address(&b, "Reply-To", &reply_to);
	if (m->subject != NULL)
		put_subject(&b, m->subject);
	if (m->message_id != NULL) {
		mail_text_puts(&b, "Message-ID: <");
		mail_text_puts(&b, m->message_id);
		mail_text_puts(&b, ">\r\n");
	}
	if (m->in_reply_to != NULL) {
		mail_text_puts(&b, "In-Reply-To: <");
		mail_text_puts(&b, m->in_reply_to);
		mail_text_puts(&b, ">\r\nReferences: <");
		mail_text_puts(&b, m->in_reply_to);
		mail_text_puts(&b, ">\r\n");
	}
	mail_text_puts(&b, "MIME-Version: 1.0\r\n");
	if (multi) {
		mail_text_puts(&b, "Content-Type: ");
		mail_text_put(&b, ctype.p, ctype.len);
		mail_text_puts(&b, "\r\n");
	} else {
		mail_text_puts(&b,
		    "Content-Type: text/plain; charset=utf-8\r\n");
		mail_text_puts(&b,
		    seven ? "Content-Transfer-Encoding: 7bit\r\n" :
		    "Content-Transfer-Encoding: quoted-printable\r\n");
	}
	mail_text_puts(&b, m->auto_reply ? "Auto-Submitted: auto-replied\r\n" :
	    "Auto-Submitted: auto-generated\r\n");
	mail_text_puts(&b, "\r\n");
	if (multi)
		mail_text_put(&b, mime.p, mime.len);
	else if (seven)
		put_7bit(&b, body.p, body.len);
	else
		mail_put_qp(&b, body.p, body.len);
	res = mail_text_finish(&b, len);
	if (res == NULL)
		fail_oom(e);
out:
	free(from.name);
	free(reply_to.name);
	free(to.name);
	mail_text_free(&b);
	mail_text_free(&body);
	mail_text_free(&ctype);
	mail_text_free(&mime);
	return res;
}

/*
 * Contract (mail.h): formats t as "Thu, 01 Jan 1970 00:00:00 +0000"
 * (UTC, English names whatever the locale) into buf, truncated to
 * size - 1 bytes if buf is smaller than the 32 bytes a four-digit year
 * needs.  A t that gmtime_r cannot represent gives "".  Returns buf.
 */
char *
mail_date(long long t, char *buf, size_t size)
{
	static const char days[7][4] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char months[12][4] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	struct tm tm;
	time_t tt = (time_t)t;

	if (buf == NULL || size == 0)
		return buf;
	buf[0] = '\0';
	if ((long long)tt != t || gmtime_r(&tt, &tm) == NULL ||
	    tm.tm_wday < 0 || tm.tm_wday > 6 || tm.tm_mon < 0 || tm.tm_mon > 11)
		return buf;
	snprintf(buf, size, "%s, %02d %s %04lld %02d:%02d:%02d +0000",
	    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
	    (long long)tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return buf;
}
