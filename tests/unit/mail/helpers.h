/* The helpers tests/unit/mail's programs share: parsing a mail that
 * must parse or must be refused, composing one, and reading it back. */
#ifndef DESPATCH_TEST_MAIL_HELPERS_H
#define DESPATCH_TEST_MAIL_HELPERS_H

/* ------------------------------------------------------------------ */
/* helpers */

static inline struct mail_msg *
parse_ok(const char *raw)
{
	struct mail_msg *m = NULL;
	struct err e;

	err_clear(&e);
	if (mail_parse(raw, strlen(raw), &m, &e) != 0)
		fail_msg("mail_parse refused: %s", e.msg);
	assert_non_null(m);
	assert_non_null(m->body);
	assert_int_equal(strlen(m->body), m->body_len);
	return m;
}

/* mail_parse must refuse raw[0..len) with ERR_USER and a message that
 * contains needle. */
static inline void
parse_refused(const char *raw, size_t len, const char *needle)
{
	struct mail_msg *m = NULL;
	struct err e;

	err_clear(&e);
	assert_int_equal(mail_parse(raw, len, &m, &e), -1);
	assert_null(m);
	assert_int_equal(e.kind, ERR_USER);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("error \"%s\" does not mention \"%s\"", e.msg, needle);
}

static inline int
parse_auto(const char *raw)
{
	struct mail_msg *m = parse_ok(raw);
	int a = m->auto_submitted;

	mail_msg_free(m);
	return a;
}

static inline char *
compose_ok(const struct mail_out *o, size_t *len)
{
	struct err e;
	char *raw = NULL;

	err_clear(&e);
	raw = mail_compose(o, len, &e);
	if (raw == NULL)
		fail_msg("mail_compose refused: %s", e.msg);
	return raw;
}

static inline void
compose_refused(const struct mail_out *o, const char *needle)
{
	struct err e;

	err_clear(&e);
	assert_null(mail_compose(o, NULL, &e));
	assert_int_equal(e.kind, ERR_USER);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("error \"%s\" does not mention \"%s\"", e.msg, needle);
}

static inline void
base_out(struct mail_out *o)
{
	memset(o, 0, sizeof(*o));
	o->from = "Referee <referee@game.example>";
	o->to = "General Howe <howe@example.org>";
	o->subject = "Report for turn 3";
	o->message_id = "t3.howe@game.example";
	o->date = "Thu, 11 Sep 1777 18:00:00 +0000";
	o->body = "Your columns crossed at Jeffries' Ford.\n";
}

/* Every line break is CRLF: no lone CR, no lone LF. */
static inline void
assert_crlf_only(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\r')
			assert_int_equal(s[i + 1], '\n');
		if (s[i] == '\n')
			assert_true(i > 0 && s[i - 1] == '\r');
	}
}

/* Length of the longest line of the header section (up to CRLF CRLF). */
static inline size_t
longest_header_line(const char *s)
{
	const char *end = strstr(s, "\r\n\r\n");
	const char *p = s, *nl = NULL;
	size_t max = 0;

	assert_non_null(end);
	while (p < end) {
		nl = strstr(p, "\r\n");
		if ((size_t)(nl - p) > max)
			max = (size_t)(nl - p);
		p = nl + 2;
	}
	return max;
}

/* Body part of a composed mail (after the blank line). */
static inline const char *
body_of(const char *raw)
{
	const char *p = strstr(raw, "\r\n\r\n");

	assert_non_null(p);
	return p + 4;
}

static inline char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}


#endif
