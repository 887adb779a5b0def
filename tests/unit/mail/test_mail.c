/*
 * test_mail.c - cmocka tests for src/mail: mail_parse (RFC 5322, MIME,
 * RFC 2047, charsets, HTML-only mail, RFC 3834 auto-submitted, caps),
 * mail_compose (header order, CRLF, 7bit or quoted-printable,
 * encoded-words, folding, header injection, multipart reports read back
 * with libetpan's MIME parser) and mail_date.
 *
 * The sample mails in tests/fuzz/corpus/mail/ double as tests: every one
 * of them must parse or be refused cleanly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libetpan/libetpan.h>

#include "mail/mail.h"
#include "mail/text.h"

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif

/* ------------------------------------------------------------------ */
/* helpers */

static struct mail_msg *
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
static void
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

static int
parse_auto(const char *raw)
{
	struct mail_msg *m = parse_ok(raw);
	int a = m->auto_submitted;

	mail_msg_free(m);
	return a;
}

static char *
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

static void
compose_refused(const struct mail_out *o, const char *needle)
{
	struct err e;

	err_clear(&e);
	assert_null(mail_compose(o, NULL, &e));
	assert_int_equal(e.kind, ERR_USER);
	if (strstr(e.msg, needle) == NULL)
		fail_msg("error \"%s\" does not mention \"%s\"", e.msg, needle);
}

static void
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
static void
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
static size_t
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
static const char *
body_of(const char *raw)
{
	const char *p = strstr(raw, "\r\n\r\n");

	assert_non_null(p);
	return p + 4;
}

static char *
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

static const char plain_mail[] =
    "Return-Path: <howe@example.org>\r\n"
    "From: General Howe <howe@example.org>\r\n"
    "To: despatch@game.example\r\n"
    "Subject: Orders for turn 3\r\n"
    "Date: Thu, 11 Sep 1777 06:00:00 -0400\r\n"
    "Message-ID: <turn3.howe@example.org>\r\n"
    "\r\n"
    "Knyphausen: demonstrate at Chadds Ford.\r\n"
    "Cornwallis: march north.\r\n";

/* ------------------------------------------------------------------ */
/* mail_parse: fields and body */

static void
test_parse_plain_mail_fields_and_body(void **state)
{
	struct mail_msg *m = parse_ok(plain_mail);

	(void)state;
	assert_string_equal(m->from_addr, "howe@example.org");
	assert_string_equal(m->from_name, "General Howe");
	assert_string_equal(m->subject, "Orders for turn 3");
	assert_string_equal(m->message_id, "turn3.howe@example.org");
	assert_string_equal(m->body, "Knyphausen: demonstrate at Chadds Ford.\n"
	    "Cornwallis: march north.\n");
	assert_null(m->reply_to);
	assert_null(m->in_reply_to);
	assert_int_equal(m->auto_submitted, 0);
	mail_msg_free(m);
}

static void
test_parse_message_ids_lose_angle_brackets(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "Message-ID:\r\n <x.1@example.org>\r\n"
	    "In-Reply-To: <report.3@game.example>\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_string_equal(m->message_id, "x.1@example.org");
	assert_string_equal(m->in_reply_to, "report.3@game.example");
	mail_msg_free(m);
}

static void
test_parse_reply_to_first_mailbox(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: Knox <knox@example.com>\r\n"
	    "Reply-To: HQ <hq@example.com>, other@example.com\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_string_equal(m->reply_to, "hq@example.com");
	mail_msg_free(m);
}

static void
test_parse_date_kept_as_written(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "Date: Thu, 11 Sep 1777\r\n 06:00:00 -0400 (EDT)\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_string_equal(m->date, "Thu, 11 Sep 1777 06:00:00 -0400 (EDT)");
	mail_msg_free(m);
}

static void
test_parse_quoted_printable_body_decoded(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.de\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n"
	    "\r\n"
	    "Die Hessen r=C3=BCcken vor, die Artillerie er=C3=B6ffnet das=\r\n"
	    " Feuer. a=3Db\r\n");

	(void)state;
	assert_string_equal(m->body, "Die Hessen r\xC3\xBC" "cken vor, die "
	    "Artillerie er\xC3\xB6" "ffnet das Feuer. a=b\n");
	mail_msg_free(m);
}

static void
test_parse_base64_body_decoded(void **state)
{
	/* "Sullivan: hold the ford.\nStirling: reserve \xe2\x80\x94 GW\n" */
	struct mail_msg *m = parse_ok(
	    "From: gw@example.com\r\n"
	    "Content-Type: text/plain; charset=\"UTF-8\"\r\n"
	    "Content-Transfer-Encoding: base64\r\n"
	    "\r\n"
	    "U3VsbGl2YW46IGhvbGQgdGhlIGZvcmQuClN0aXJsaW5nOiByZXNlcnZlIOKA\r\n"
	    "lCBHVwo=\r\n");

	(void)state;
	assert_string_equal(m->body, "Sullivan: hold the ford.\n"
	    "Stirling: reserve \xE2\x80\x94 GW\n");
	mail_msg_free(m);
}

static void
test_parse_latin1_body_converted_to_utf8(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: lafayette@example.fr\r\n"
	    "Content-Type: text/plain; charset=ISO-8859-1\r\n"
	    "Content-Transfer-Encoding: 8bit\r\n"
	    "\r\n"
	    "Tr\xE8s bien, l'arm\xE9" "e avance.\r\n");

	(void)state;
	assert_string_equal(m->body, "Tr\xC3\xA8s bien, l'arm\xC3\xA9"
	    "e avance.\n");
	mail_msg_free(m);
}

static void
test_parse_missing_charset_read_as_utf8(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "\r\n"
	    "caf\xC3\xA9\r\n");

	(void)state;
	assert_string_equal(m->body, "caf\xC3\xA9\n");
	mail_msg_free(m);
}

static void
test_parse_unknown_charset_read_as_utf8(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "Content-Type: text/plain; charset=x-no-such-charset\r\n"
	    "\r\n"
	    "caf\xC3\xA9\r\n");

	(void)state;
	assert_string_equal(m->body, "caf\xC3\xA9\n");
	mail_msg_free(m);
}

static void
test_parse_invalid_utf8_and_nul_replaced(void **state)
{
	static const char raw[] =
	    "From: a@example.org\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "\r\n"
	    "a\xFF" "b\0c\xED\xA0\x80" "d\r\n";
	struct mail_msg *m = NULL;
	struct err e;

	(void)state;
	assert_int_equal(mail_parse(raw, sizeof(raw) - 1, &m, &e), 0);
	assert_string_equal(m->body, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c"
	    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "d\n");
	assert_int_equal(strlen(m->body), m->body_len);
	mail_msg_free(m);
}

static void
test_parse_rfc2047_subject_decoded(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.de\r\n"
	    "Subject: Re: =?utf-8?q?Befehle_f=C3=BCr?=\r\n"
	    " =?ISO-8859-1?B?WnVnIDPp?= done\r\n"
	    "\r\nbody\r\n");

	(void)state;
	/* Adjacent encoded-words join without the space between them. */
	assert_string_equal(m->subject,
	    "Re: Befehle f\xC3\xBCrZug 3\xC3\xA9 done");
	mail_msg_free(m);
}

static void
test_parse_rfc2047_display_name_decoded(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: =?iso-8859-1?q?Jos=E9?= Smith <js@example.org>\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_string_equal(m->from_name, "Jos\xC3\xA9 Smith");
	assert_string_equal(m->from_addr, "js@example.org");
	mail_msg_free(m);
}

static void
test_parse_header_line_breaks_become_spaces(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "Subject: =?utf-8?q?one=0D=0ABcc:_x@evil.example?=\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_null(strpbrk(m->subject, "\r\n"));
	assert_string_equal(m->subject, "one Bcc: x@evil.example");
	mail_msg_free(m);
}

static void
test_parse_multipart_alternative_prefers_text_plain(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: greene@example.com\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: multipart/alternative; boundary=\"b1\"\r\n"
	    "\r\n"
	    "--b1\r\n"
	    "Content-Type: text/html; charset=utf-8\r\n"
	    "\r\n"
	    "<p>HTML version</p>\r\n"
	    "--b1\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "\r\n"
	    "Weedon: march to Dilworth.\r\n"
	    "--b1--\r\n");

	(void)state;
	assert_string_equal(m->body, "Weedon: march to Dilworth.");
	mail_msg_free(m);
}

static void
test_parse_text_attachment_not_taken_as_body(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: greene@example.com\r\n"
	    "Content-Type: multipart/mixed; boundary=b1\r\n"
	    "\r\n"
	    "--b1\r\n"
	    "Content-Type: text/plain\r\n"
	    "Content-Disposition: attachment; filename=map.txt\r\n"
	    "\r\n"
	    "not the orders\r\n"
	    "--b1\r\n"
	    "Content-Type: text/plain\r\n"
	    "Content-Disposition: inline\r\n"
	    "\r\n"
	    "the orders\r\n"
	    "--b1--\r\n");

	(void)state;
	assert_string_equal(m->body, "the orders");
	mail_msg_free(m);
}

static void
test_parse_empty_plain_part_falls_back_to_html(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.com\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: multipart/alternative; boundary=b\r\n\r\n"
	    "--b\r\nContent-Type: text/plain\r\n\r\n \r\n"
	    "--b\r\nContent-Type: text/html\r\n\r\n<p>7th: HOLD</p>\r\n"
	    "--b--\r\n");

	(void)state;
	assert_true(strncmp(m->body, "7th: HOLD", 9) == 0);
	mail_msg_free(m);
}

static void
test_parse_html_blockquote_lines_are_quoted(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.com\r\nContent-Type: text/html\r\n\r\n"
	    "<p>7th: HOLD</p><blockquote type=\"cite\">71st: ADVANCE 6<br>"
	    "Tarleton: MOVE TO 1,1</blockquote><p>Thanks</p>\r\n");

	(void)state;
	assert_non_null(strstr(m->body, "7th: HOLD\n> 71st: ADVANCE 6\n"
	    "> Tarleton: MOVE TO 1,1\nThanks"));
	mail_msg_free(m);
}

static void
test_parse_html_only_mail_stripped(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: wayne@example.com\r\n"
	    "Content-Type: text/html; charset=utf-8\r\n"
	    "\r\n"
	    "<html><head><title>t</title><style>p{color:red}</style></head>\r\n"
	    "<body><p>Wayne: hold\r\n   the ford.</p><p>Maxwell: screen"
	    "<br>the front.</p><div>Done</div><!-- <p>no</p> --></body>"
	    "</html>\r\n");

	(void)state;
	assert_string_equal(m->body,
	    "Wayne: hold the ford.\nMaxwell: screen\nthe front.\nDone\n");
	mail_msg_free(m);
}

static void
test_parse_html_entities_decoded(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: wayne@example.com\r\n"
	    "Content-Type: text/html\r\n"
	    "\r\n"
	    "a &amp; b &lt;c&gt; d&nbsp;e &quot;f&quot; &#65;&#x42; &#8212; "
	    "&unknown; &#0; x < y\r\n");

	(void)state;
	assert_string_equal(m->body, "a & b <c> d e \"f\" AB \xE2\x80\x94 "
	    "&unknown; \xEF\xBF\xBD x < y");
	mail_msg_free(m);
}

static void
test_parse_crlf_becomes_lf(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "\r\n"
	    "one\r\ntwo\r\n\r\nthree\rfour\r\n");

	(void)state;
	assert_string_equal(m->body, "one\ntwo\n\nthree\nfour\n");
	assert_null(strchr(m->body, '\r'));
	mail_msg_free(m);
}

static void
test_parse_format_flowed_lines_joined(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: knox@example.com\r\n"
	    "Content-Type: text/plain; charset=utf-8; format=flowed\r\n"
	    "\r\n"
	    "Proctor: move to the high \r\n"
	    "ground and open fire.\r\n"
	    " >From the ridge.\r\n"
	    "> quoted \r\n"
	    "> text\r\n"
	    "-- \r\n"
	    "Knox\r\n");

	(void)state;
	assert_string_equal(m->body,
	    "Proctor: move to the high ground and open fire.\n"
	    ">From the ridge.\n"
	    "> quoted text\n"
	    "-- \n"
	    "Knox\n");
	mail_msg_free(m);
}

/* A flowed mail as a client that breaks long lines mid-word sends it
 * (RFC 3676 4.2, 4.5).  %s is the delsp parameter, or nothing.  The
 * order line "7th Foot: ADVANCE 8" is broken inside ADVANCE; the wheel
 * line at a word, with the extra space delsp=yes needs to keep it. */
static const char flowed_mail[] =
    "Return-Path: <tarleton@example.org>\r\n"
    "Message-ID: <4e1c2f0a-9b7d-4c1e-8f3a-2d6b5e7c9a10@example.org>\r\n"
    "Date: Wed, 17 Jan 1781 06:45:00 -0500\r\n"
    "MIME-Version: 1.0\r\n"
    "User-Agent: Mozilla Thunderbird\r\n"
    "Content-Language: en-GB\r\n"
    "To: despatch@game.example\r\n"
    "From: Banastre Tarleton <tarleton@example.org>\r\n"
    "Subject: Re: cowpens turn 2\r\n"
    "Content-Type: text/plain; charset=UTF-8; format=flowed%s\r\n"
    "Content-Transfer-Encoding: 7bit\r\n"
    "\r\n"
    "GAME cowpens SIDE crown TURN 2\r\n"
    "7th Foot: ADV \r\n"
    "ANCE 8\r\n"
    "71st: WHEEL LEFT 30  \r\n"
    "THEN ADVANCE 4\r\n";

static struct mail_msg *
parse_flowed(const char *delsp)
{
	char raw[sizeof(flowed_mail) + 32];

	snprintf(raw, sizeof(raw), flowed_mail, delsp);
	return parse_ok(raw);
}

static void
test_parse_flowed_delsp_yes_deletes_the_space_before_a_soft_break(
    void **state)
{
	static const char *const yes[] = {
		"; delsp=yes", "; DelSp=\"Yes\"", ";\r\n delsp=yes",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		struct mail_msg *m = parse_flowed(yes[i]);

		assert_string_equal(m->body,
		    "GAME cowpens SIDE crown TURN 2\n"
		    "7th Foot: ADVANCE 8\n"
		    "71st: WHEEL LEFT 30 THEN ADVANCE 4\n");
		mail_msg_free(m);
	}
}

/* Without delsp=yes the space before a soft break is text and stays:
 * "ADV ANCE" is what such a sender wrote, and is not ours to mend. */
static void
test_parse_flowed_delsp_no_or_absent_keeps_the_space(void **state)
{
	static const char *const no[] = { "; delsp=no", "" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		struct mail_msg *m = parse_flowed(no[i]);

		assert_string_equal(m->body,
		    "GAME cowpens SIDE crown TURN 2\n"
		    "7th Foot: ADV ANCE 8\n"
		    "71st: WHEEL LEFT 30  THEN ADVANCE 4\n");
		mail_msg_free(m);
	}
}

/* RFC 3676 4.3 and 4.5 with delsp=yes: the "-- " separator is never
 * flowed, so its space stays and the name under it is its own line;
 * quoted flowed lines join only at the same depth, the quote marks
 * written once; a change of depth ends the paragraph.  Space-stuffing
 * is removed before the trailing space is looked at. */
static void
test_parse_flowed_delsp_yes_keeps_signature_and_quote_depth(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: Banastre Tarleton <tarleton@example.org>\r\n"
	    "To: despatch@game.example\r\n"
	    "Subject: Re: cowpens turn 2\r\n"
	    "MIME-Version: 1.0\r\n"
	    "User-Agent: Mozilla Thunderbird\r\n"
	    "Content-Type: text/plain; charset=UTF-8; format=flowed; "
	    "delsp=yes\r\n"
	    "Content-Transfer-Encoding: 7bit\r\n"
	    "\r\n"
	    "On 16/01/1781 21:00, despatch wrote:\r\n"
	    "> 7th Foot: ADV \r\n"
	    "> ANCE 8\r\n"
	    ">> Legion Cav \r\n"
	    ">> alry: HOLD\r\n"
	    " >From the ridge: FI \r\n"
	    "RE AT Maryland\r\n"
	    "\r\n"
	    "-- \r\n"
	    "Banastre\r\n");

	(void)state;
	assert_string_equal(m->body,
	    "On 16/01/1781 21:00, despatch wrote:\n"
	    "> 7th Foot: ADVANCE 8\n"
	    ">> Legion Cavalry: HOLD\n"
	    ">From the ridge: FIRE AT Maryland\n"
	    "\n"
	    "-- \n"
	    "Banastre\n");
	mail_msg_free(m);

	/* A flowed line whose next line is quoted deeper is not joined to
	 * it.  Whether its now-trailing space stays (RFC 3676 4.5 would
	 * treat the line as fixed) is left open: the order parser trims. */
	m = parse_ok(
	    "From: Banastre Tarleton <tarleton@example.org>\r\n"
	    "Content-Type: text/plain; charset=UTF-8; format=flowed; "
	    "delsp=yes\r\n"
	    "\r\n"
	    "> 7th Foot: HOLD \r\n"
	    ">> 71st: HOLD\r\n");
	assert_true(strncmp(m->body, "> 7th Foot: HOLD", 16) == 0);
	assert_non_null(strstr(m->body, "\n>> 71st: HOLD\n"));
	assert_null(strstr(m->body, "HOLD71st"));
	assert_null(strstr(m->body, "HOLD >"));
	mail_msg_free(m);
}

static void
test_parse_no_text_part_gives_empty_body(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From: a@example.org\r\n"
	    "Content-Type: image/png\r\n"
	    "Content-Transfer-Encoding: base64\r\n"
	    "\r\n"
	    "iVBORw0KGgo=\r\n");

	(void)state;
	assert_string_equal(m->body, "");
	assert_int_equal(m->body_len, 0);
	mail_msg_free(m);
}

static void
test_parse_missing_from_still_parses(void **state)
{
	struct mail_msg *m = parse_ok(
	    "Subject: anonymous\r\n"
	    "\r\nbody\r\n");

	(void)state;
	assert_null(m->from_addr);
	assert_null(m->from_name);
	assert_string_equal(m->subject, "anonymous");
	assert_string_equal(m->body, "body\n");
	mail_msg_free(m);
}

static void
test_parse_mbox_from_line_skipped(void **state)
{
	struct mail_msg *m = parse_ok(
	    "From howe@example.org Thu Sep 11 06:00:00 1777\n"
	    "From: howe@example.org\n"
	    "Subject: orders\n"
	    "\n"
	    "advance\n");

	(void)state;
	assert_string_equal(m->from_addr, "howe@example.org");
	assert_string_equal(m->body, "advance\n");
	mail_msg_free(m);
	/* "From :" is a header field (obsolete syntax), not an mbox line */
	m = parse_ok("From : knox@example.com\n\nbody\n");
	assert_string_equal(m->from_addr, "knox@example.com");
	mail_msg_free(m);
}

/* ------------------------------------------------------------------ */
/* mail_parse: auto-submitted (RFC 3834) */

static void
test_auto_submitted_header_sets_flag(void **state)
{
	(void)state;
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "Auto-Submitted: auto-replied\r\n\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "Auto-Submitted: auto-generated; owner-email=x@y\r\n\r\nb\r\n"), 1);
}

static void
test_auto_submitted_no_leaves_flag_clear(void **state)
{
	(void)state;
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "Auto-Submitted: No\r\n\r\nbody\r\n"), 0);
}

static void
test_precedence_junk_and_auto_reply_set_flag(void **state)
{
	static const char *const yes[] = { "junk", "JUNK", "auto_reply" };
	char raw[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		snprintf(raw, sizeof(raw), "From: a@example.org\r\n"
		    "Precedence: %s\r\n\r\nbody\r\n", yes[i]);
		assert_int_equal(parse_auto(raw), 1);
	}
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "Precedence: first-class\r\n\r\nbody\r\n"), 0);
}

/* Issue 22, problem 8: vacation programs and hosting panels that mark
 * their replies with these instead of Auto-Submitted were answered. */
static void
test_x_autoreply_and_x_autorespond_set_flag(void **state)
{
	(void)state;
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "X-Autoreply: yes\r\n\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "x-autorespond: Re: [cw] Turn 1\r\n\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "X-Autoreply: no\r\n\r\nbody\r\n"), 0);
	/* Outlook writes this on every mail from Exchange, a person's too. */
	assert_int_equal(parse_auto("From: a@example.org\r\n"
	    "X-Auto-Response-Suppress: All\r\n\r\nbody\r\n"), 0);
}

/* The list marks of a parsed mail: via_list, and the List-Id kept. */
static int
parse_list(const char *raw, char *id, size_t size)
{
	struct mail_msg *m = parse_ok(raw);
	int v = m->via_list;

	snprintf(id, size, "%s", m->list_id ? m->list_id : "(none)");
	assert_int_equal(m->auto_submitted, 0);
	mail_msg_free(m);
	return v;
}

static void
test_list_fields_mark_list_mail(void **state)
{
	static const char *const marks[] = {
		"List-Unsubscribe: <mailto:leave@lists.example.org>",
		"List-Post: <mailto:club@lists.example.org>",
		"Precedence: bulk",
		"Precedence: list",
	};
	char raw[512], id[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		snprintf(raw, sizeof(raw), "From: a@example.org\r\n%s\r\n\r\n"
		    "body\r\n", marks[i]);
		assert_int_equal(parse_list(raw, id, sizeof(id)), 1);
		assert_string_equal(id, "(none)");
	}
	assert_int_equal(parse_list("From: a@example.org\r\n"
	    "List-Id: Cowpens Club\r\n <cowpens-club.googlegroups.com>\r\n"
	    "\r\nbody\r\n", id, sizeof(id)), 1);
	assert_string_equal(id, "Cowpens Club <cowpens-club.googlegroups.com>");
	assert_int_equal(parse_list("From: a@example.org\r\n"
	    "Mailing-list: list club@googlegroups.com; contact "
	    "club+owners@googlegroups.com\r\n\r\nbody\r\n", id, sizeof(id)), 1);
	assert_non_null(strstr(id, "club@googlegroups.com"));
	/* Google Groups writes Mailing-list first: the List-ID still names
	 * the list. */
	assert_int_equal(parse_list("From: a@example.org\r\n"
	    "Mailing-list: list club@googlegroups.com; contact "
	    "club+owners@googlegroups.com\r\nList-ID: <club.googlegroups.com>"
	    "\r\nList-Id: <other.example.org>\r\n\r\nbody\r\n", id,
	    sizeof(id)), 1);
	assert_string_equal(id, "<club.googlegroups.com>");
	assert_int_equal(parse_list(plain_mail, id, sizeof(id)), 0);
	assert_string_equal(id, "(none)");
}

static void
test_multipart_report_sets_flag(void **state)
{
	(void)state;
	assert_int_equal(parse_auto(
	    "From: postoffice@mx.example.net\r\n"
	    "Content-Type: multipart/report; report-type=delivery-status;\r\n"
	    "\tboundary=\"R\"\r\n"
	    "\r\n"
	    "--R\r\n"
	    "Content-Type: text/plain\r\n"
	    "\r\n"
	    "Your message could not be delivered.\r\n"
	    "--R\r\n"
	    "Content-Type: message/delivery-status\r\n"
	    "\r\n"
	    "Status: 5.1.1\r\n"
	    "--R--\r\n"), 1);
}

static void
test_mailer_daemon_and_postmaster_set_flag(void **state)
{
	(void)state;
	assert_int_equal(parse_auto("From: Mail Delivery System "
	    "<MAILER-DAEMON@mx.example.net>\r\n\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("From: PostMaster@example.net\r\n"
	    "\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("From: postmasters@example.net\r\n"
	    "\r\nbody\r\n"), 0);
}

static void
test_null_return_path_sets_flag(void **state)
{
	(void)state;
	assert_int_equal(parse_auto("Return-Path: <>\r\n"
	    "From: a@example.org\r\n\r\nbody\r\n"), 1);
	assert_int_equal(parse_auto("Return-Path: < >\r\n"
	    "From: a@example.org\r\n\r\nbody\r\n"), 1);
}

static void
test_ordinary_mail_not_auto_submitted(void **state)
{
	(void)state;
	assert_int_equal(parse_auto(plain_mail), 0);
}

/* ------------------------------------------------------------------ */
/* mail_parse: refusals and caps */

static void
test_parse_empty_rejected(void **state)
{
	(void)state;
	parse_refused("", 0, "empty");
	parse_refused(NULL, 0, "empty");
	parse_refused("From x Thu Sep 11 1777\n", 23, "empty");
}

static void
test_parse_oversize_raw_rejected(void **state)
{
	size_t n = MAIL_RAW_MAX + 1;
	char *raw = malloc(n);
	static const char head[] = "From: a@example.org\r\n\r\n";

	(void)state;
	assert_non_null(raw);
	memset(raw, 'a', n);
	memcpy(raw, head, sizeof(head) - 1);
	parse_refused(raw, n, "limit");
	free(raw);
}

static void
test_parse_no_header_body_separation_rejected(void **state)
{
	static const char raw[] = "From: a@example.org\r\nSubject: x\r\n";

	(void)state;
	parse_refused(raw, sizeof(raw) - 1, "empty line");
}

static void
test_parse_no_header_fields_rejected(void **state)
{
	static const char raw[] = "this is not\na mail\n\nat all\n";

	(void)state;
	parse_refused(raw, sizeof(raw) - 1, "no header fields");
}

static uint32_t
xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void
test_parse_garbage_rejected_without_crash(void **state)
{
	static const char *const bits[] = {
		"From: ", "Subject: ", "Content-Type: ",
		"multipart/mixed; boundary=x", "text/html", "\r\n", "\n", "\r\n\r\n", "--x\r\n",
		"--x--", "=?utf-8?b?", "?=", "<", ">", "&#", ";", "=\r\n", "=C3",
		"Content-Transfer-Encoding: base64\r\n", "charset=\"", "\0",
		"\xFF", " ", "\t", ":", "@",
	};
	static const char binary[] = "\x00\x01\xFF\xFE\r\n\r\n\x80\x81";
	char buf[512];
	struct mail_msg *m = NULL;
	struct err e;
	uint32_t seed = 2463534242u;
	size_t n, k, pick, len;
	int round, r;

	(void)state;
	parse_refused(binary, sizeof(binary) - 1, "no header fields");
	for (round = 0; round < 3000; round++) {
		n = 0;
		k = xorshift(&seed) % 40;
		while (k-- > 0) {
			if (xorshift(&seed) % 4 == 0) {
				if (n < sizeof(buf))
					buf[n++] = (char)(xorshift(&seed) & 0xFF);
				continue;
			}
			pick = xorshift(&seed) % (sizeof(bits) / sizeof(bits[0]));
			len = bits[pick][0] == '\0' ? 1 : strlen(bits[pick]);
			if (n + len > sizeof(buf))
				break;
			memcpy(buf + n, bits[pick], len);
			n += len;
		}
		err_clear(&e);
		r = mail_parse(buf, n, &m, &e);
		if (r == 0) {
			assert_non_null(m);
			assert_true(mail_text_utf8_valid(m->body,
			    m->body_len) ||
			    m->body_len == 0);
			mail_msg_free(m);
			m = NULL;
		} else {
			assert_null(m);
			assert_int_equal(e.kind, ERR_USER);
		}
	}
}

static void
test_parse_header_over_cap_rejected(void **state)
{
	size_t n = MAIL_HEADER_MAX + 1;
	char *raw = malloc(n + 64);

	(void)state;
	assert_non_null(raw);
	strcpy(raw, "Subject: ");
	memset(raw + 9, 'x', n);
	strcpy(raw + 9 + n, "\r\n\r\nbody\r\n");
	parse_refused(raw, strlen(raw), "Subject header");
	free(raw);
}

static void
test_parse_huge_header_rejected_before_decoding(void **state)
{
	size_t n = 70000;
	char *raw = malloc(n + 64);
	size_t i;

	(void)state;
	assert_non_null(raw);
	strcpy(raw, "Subject: ");
	for (i = 0; i < n; i += 2)
		memcpy(raw + 9 + i, "a ", 2);
	strcpy(raw + 9 + n, "\r\n\r\nbody\r\n");
	parse_refused(raw, strlen(raw), "Subject header");
	free(raw);
}

static void
test_parse_header_at_cap_accepted(void **state)
{
	size_t n = MAIL_HEADER_MAX;
	char *raw = malloc(n + 64);
	struct mail_msg *m = NULL;

	(void)state;
	assert_non_null(raw);
	strcpy(raw, "Subject: ");
	memset(raw + 9, 'x', n);
	strcpy(raw + 9 + n, "\r\n\r\nbody\r\n");
	m = parse_ok(raw);
	assert_int_equal(strlen(m->subject), MAIL_HEADER_MAX);
	mail_msg_free(m);
	free(raw);
}

/* A mail whose text part is n bytes of 'a'. */
static char *
mail_with_body(size_t n)
{
	static const char head[] = "From: a@example.org\r\n\r\n";
	char *raw = malloc(sizeof(head) + n);

	assert_non_null(raw);
	memcpy(raw, head, sizeof(head) - 1);
	memset(raw + sizeof(head) - 1, 'a', n);
	raw[sizeof(head) - 1 + n] = '\0';
	return raw;
}

static void
test_parse_body_over_cap_rejected(void **state)
{
	char *raw = mail_with_body(MAIL_BODY_MAX + 1);

	(void)state;
	parse_refused(raw, strlen(raw), "limit");
	free(raw);
}

static void
test_parse_body_at_cap_accepted(void **state)
{
	char *raw = mail_with_body(MAIL_BODY_MAX);
	struct mail_msg *m = parse_ok(raw);

	(void)state;
	assert_int_equal(m->body_len, MAIL_BODY_MAX);
	mail_msg_free(m);
	free(raw);
}

static void
test_parse_deep_mime_nesting_rejected(void **state)
{
	char *raw = malloc(64 * 80);
	size_t n = 0;
	int i;

	(void)state;
	assert_non_null(raw);
	n += (size_t)sprintf(raw + n, "From: a@example.org\r\n");
	for (i = 0; i < 40; i++)
		n += (size_t)sprintf(raw + n, "Content-Type: multipart/mixed; "
		    "boundary=b%d\r\n\r\n--b%d\r\n", i, i);
	n += (size_t)sprintf(raw + n, "\r\ndeep\r\n");
	parse_refused(raw, n, "nested");
	free(raw);
}

static void
test_parse_corpus_files_without_crash(void **state)
{
	const char *dir = DESPATCH_SOURCE_DIR "/tests/fuzz/corpus/mail";
	DIR *d = opendir(dir);
	struct dirent *de = NULL;
	struct mail_msg *m = NULL;
	struct err e;
	char path[4096];
	char *raw = NULL;
	size_t len, files = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		raw = read_file(path, &len);
		err_clear(&e);
		if (mail_parse(raw, len, &m, &e) == 0) {
			assert_true(mail_text_utf8_valid(m->body,
			    m->body_len) ||
			    m->body_len == 0);
			assert_int_equal(strlen(m->body), m->body_len);
			if (m->subject != NULL)
				assert_true(mail_text_utf8_valid(m->subject,
				    strlen(m->subject)));
			mail_msg_free(m);
			m = NULL;
		} else {
			assert_int_equal(e.kind, ERR_USER);
		}
		free(raw);
		files++;
	}
	closedir(d);
	assert_true(files >= 6);
}

/* ------------------------------------------------------------------ */
/* mail_compose */

static void
test_compose_headers_in_order_with_crlf(void **state)
{
	struct mail_out o;
	char *raw = NULL;
	size_t len = 0;

	(void)state;
	base_out(&o);
	o.in_reply_to = "orders.3@example.org";
	raw = compose_ok(&o, &len);
	assert_int_equal(strlen(raw), len);
	assert_string_equal(raw,
	    "Date: Thu, 11 Sep 1777 18:00:00 +0000\r\n"
	    "From: Referee <referee@game.example>\r\n"
	    "To: General Howe <howe@example.org>\r\n"
	    "Subject: Report for turn 3\r\n"
	    "Message-ID: <t3.howe@game.example>\r\n"
	    "In-Reply-To: <orders.3@example.org>\r\n"
	    "References: <orders.3@example.org>\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: 7bit\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "\r\n"
	    "Your columns crossed at Jeffries' Ford.\r\n");
	free(raw);
}

static void
test_compose_leaves_out_absent_fields(void **state)
{
	struct mail_out o;
	char *raw = NULL;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.to = "howe@example.org";
	o.auto_reply = 1;
	raw = compose_ok(&o, NULL);
	assert_string_equal(raw,
	    "To: howe@example.org\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: 7bit\r\n"
	    "Auto-Submitted: auto-replied\r\n"
	    "\r\n");
	free(raw);
}

static void
test_compose_body_crlf_and_final_crlf(void **state)
{
	struct mail_out o;
	char *raw = NULL;

	(void)state;
	base_out(&o);
	o.body = "one\ntwo\r\n\nthree";
	raw = compose_ok(&o, NULL);
	assert_crlf_only(raw);
	assert_string_equal(body_of(raw), "one\r\ntwo\r\n\r\nthree\r\n");
	free(raw);
}

static void
test_compose_non_ascii_body_quoted_printable(void **state)
{
	struct mail_out o;
	char *raw = NULL;

	(void)state;
	base_out(&o);
	o.body = "Gr\xC3\xBC\xC3\x9F" "e = salute \nFrom the ridge\n";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw,
	    "Content-Transfer-Encoding: quoted-printable\r\n"));
	/* trailing space encoded, '=' encoded, "From " at line start */
	assert_string_equal(body_of(raw),
	    "Gr=C3=BC=C3=9Fe =3D salute=20\r\n=46rom the ridge\r\n");
	free(raw);
}

static void
test_compose_long_line_quoted_printable(void **state)
{
	struct mail_out o;
	char *body = malloc(1200);
	char *raw = NULL;
	const char *p = NULL, *nl = NULL;

	(void)state;
	assert_non_null(body);
	memset(body, 'x', 999);
	strcpy(body + 999, "\n");
	base_out(&o);
	o.body = body;
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw,
	    "Content-Transfer-Encoding: quoted-printable\r\n"));
	for (p = body_of(raw); *p != '\0'; p = nl + 2) {
		nl = strstr(p, "\r\n");
		assert_non_null(nl);
		assert_true(nl - p <= 76);
	}
	free(raw);
	free(body);
}

static void
test_compose_998_octet_line_stays_7bit(void **state)
{
	struct mail_out o;
	char *body = malloc(1200);
	char *raw = NULL;

	(void)state;
	assert_non_null(body);
	memset(body, 'x', 998);
	strcpy(body + 998, "\n");
	base_out(&o);
	o.body = body;
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw, "Content-Transfer-Encoding: 7bit\r\n"));
	free(raw);
	free(body);
}

static void
test_compose_qp_lines_at_most_76(void **state)
{
	struct mail_out o;
	struct mtext t;
	struct mail_msg *m = NULL;
	char *raw = NULL;
	const char *p = NULL, *nl = NULL;
	int i;

	(void)state;
	mail_text_init(&t);
	for (i = 0; i < 200; i++)
		mail_text_puts(&t, i % 7 == 0 ? "\xC3\xA9 " : "ab= ");
	mail_text_puts(&t, "\n");
	base_out(&o);
	o.body = t.p;
	raw = compose_ok(&o, NULL);
	for (p = body_of(raw); *p != '\0'; p = nl + 2) {
		nl = strstr(p, "\r\n");
		assert_non_null(nl);
		assert_true(nl - p <= 76);
		/* no "=XX" escape cut by a line end */
		if (nl - p >= 3)
			assert_true(nl[-2] != '=' &&
			    !(nl[-1] == '=' && nl[-3] == '='));
	}
	m = parse_ok(raw);
	assert_string_equal(m->body, t.p);
	mail_msg_free(m);
	free(raw);
	mail_text_free(&t);
}

static void
test_compose_non_ascii_subject_encoded(void **state)
{
	struct mail_out o;
	char *raw = NULL;

	(void)state;
	base_out(&o);
	o.subject = "Befehle f\xC3\xBCr Zug 3";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw,
	    "Subject: =?utf-8?Q?Befehle_f=C3=BCr_Zug_3?=\r\n"));
	free(raw);
}

static void
test_compose_mostly_non_ascii_subject_base64(void **state)
{
	struct mail_out o;
	char *raw = NULL;

	(void)state;
	base_out(&o);
	o.subject = "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xBA\xD0\xB0\xD0\xB7";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw, "Subject: =?utf-8?B?0J/RgNC40LrQsNC3?=\r\n"));
	free(raw);
}

static void
test_compose_long_subject_folded_under_78(void **state)
{
	struct mail_out o;
	struct mtext t;
	char *raw = NULL;
	struct mail_msg *m = NULL;
	int i;

	(void)state;
	mail_text_init(&t);
	for (i = 0; i < 30; i++)
		mail_text_puts(&t, "Brandywine ");
	mail_text_puts(&t, "end");
	base_out(&o);
	o.subject = t.p;
	raw = compose_ok(&o, NULL);
	assert_true(longest_header_line(raw) <= 78);
	m = parse_ok(raw);
	assert_string_equal(m->subject, t.p);
	mail_msg_free(m);
	free(raw);
	mail_text_free(&t);
}

static void
test_compose_long_encoded_subject_folded_under_78(void **state)
{
	struct mail_out o;
	struct mtext t;
	char *raw = NULL;
	struct mail_msg *m = NULL;
	int i;

	(void)state;
	mail_text_init(&t);
	for (i = 0; i < 40; i++)
		mail_text_puts(&t, "Gr\xC3\xBC\xC3\x9F" "e \xE2\x80\x94 ");
	mail_text_puts(&t, "\xF0\x9F\x8E\x96 end");
	base_out(&o);
	o.subject = t.p;
	raw = compose_ok(&o, NULL);
	assert_true(longest_header_line(raw) <= 78);
	m = parse_ok(raw);
	assert_string_equal(m->subject, t.p);
	mail_msg_free(m);
	free(raw);
	mail_text_free(&t);
}

static void
test_compose_display_name_quoted_when_specials(void **state)
{
	struct mail_out o;
	char *raw = NULL;
	struct mail_msg *m = NULL;

	(void)state;
	base_out(&o);
	o.to = "Howe, William \"Billy\" <howe@example.org>";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw,
	    "To: \"Howe, William \\\"Billy\\\"\" <howe@example.org>\r\n"));
	free(raw);
	o.to = "\"Howe, W.\" <howe@example.org>";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw, "To: \"Howe, W.\" <howe@example.org>\r\n"));
	free(raw);
	o.from = "Knyphausen <knyp@example.de>";
	o.to = "<howe@example.org>";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw, "To: howe@example.org\r\n"));
	m = parse_ok(raw);
	assert_string_equal(m->from_name, "Knyphausen");
	mail_msg_free(m);
	free(raw);
}

static void
test_compose_display_name_encoded_when_non_ascii(void **state)
{
	struct mail_out o;
	char *raw = NULL;
	struct mail_msg *m = NULL;

	(void)state;
	base_out(&o);
	o.from = "Jos\xC3\xA9 de San Mart\xC3\xADn <jsm@example.org>";
	raw = compose_ok(&o, NULL);
	assert_non_null(strstr(raw, "From: =?utf-8?Q?Jos=C3=A9_de_San_Mart"
	    "=C3=ADn?= <jsm@example.org>\r\n"));
	m = parse_ok(raw);
	assert_string_equal(m->from_name, "Jos\xC3\xA9 de San Mart\xC3\xADn");
	assert_string_equal(m->from_addr, "jsm@example.org");
	mail_msg_free(m);
	free(raw);
}

static void
test_compose_round_trip_ascii(void **state)
{
	struct mail_out o;
	struct mail_msg *m = NULL;
	char *raw = NULL;
	size_t len = 0;

	(void)state;
	base_out(&o);
	o.body = "Line one.\n\n  indented, trailing space \nFrom here.\n";
	raw = compose_ok(&o, &len);
	m = parse_ok(raw);
	assert_string_equal(m->subject, o.subject);
	assert_string_equal(m->body, o.body);
	assert_string_equal(m->message_id, o.message_id);
	assert_string_equal(m->from_addr, "referee@game.example");
	assert_string_equal(m->date, o.date);
	mail_msg_free(m);
	free(raw);
}

static void
test_compose_round_trip_non_ascii(void **state)
{
	struct mail_out o;
	struct mail_msg *m = NULL;
	struct mtext t;
	char *raw = NULL;
	int i;

	(void)state;
	mail_text_init(&t);
	for (i = 0; i < 50; i++)
		mail_text_puts(&t,
		    "Die Hessen r\xC3\xBC" "cken = vor \xE2\x80\x94 ");
	mail_text_puts(&t, "\n\t\xF0\x9F\x8E\x96 Ende \n");
	base_out(&o);
	o.subject = "Bericht f\xC3\xBCr Zug 3 =?not an encoded word?=";
	o.body = t.p;
	raw = compose_ok(&o, NULL);
	assert_crlf_only(raw);
	m = parse_ok(raw);
	assert_string_equal(m->subject, o.subject);
	assert_string_equal(m->body, o.body);
	mail_msg_free(m);
	free(raw);
	mail_text_free(&t);
}

static void
test_compose_header_injection_rejected(void **state)
{
	struct mail_out o;

	(void)state;
	base_out(&o);
	o.subject = "Report\r\nBcc: everyone@example.org";
	compose_refused(&o, "line break");
	base_out(&o);
	o.subject = "Report\nBcc: everyone@example.org";
	compose_refused(&o, "line break");
	base_out(&o);
	o.to = "howe@example.org\r\nBcc: x@example.org";
	compose_refused(&o, "line break");
	base_out(&o);
	o.from = "Referee\r <referee@game.example>";
	compose_refused(&o, "line break");
	base_out(&o);
	o.message_id = "a@b>\r\nX-Evil: 1";
	compose_refused(&o, "line break");
	base_out(&o);
	o.in_reply_to = "a@b\n";
	compose_refused(&o, "line break");
	base_out(&o);
	o.date = "Thu\r\n";
	compose_refused(&o, "line break");
}

/* What an answer may echo of a mail's Message-ID: what the composer
 * writes, and nothing it would refuse. */
static void
test_msgid_writable_is_what_compose_takes(void **state)
{
	static const struct {
		const char *id;
		int ok;
	} cases[] = {
		{ "orders.3@example.org", 1 },
		{ "CAF3d9z=xK2+a/b$c@mail.example.org", 1 },
		{ "abc@[192.0.2.1]", 1 },
		{ "", 0 },
		{ "abc@host> <def@host", 0 },
		{ "<abc@host", 0 },
		{ "abc def@host", 0 },
		{ "abc\tdef@host", 0 },
		{ "caf\xc3\xa9@host", 0 },
	};
	struct mail_out o;
	char long_id[300], *raw;
	size_t i;

	(void)state;
	assert_int_equal(mail_msgid_writable(NULL), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct err e;

		assert_int_equal(mail_msgid_writable(cases[i].id), cases[i].ok);
		base_out(&o);
		o.in_reply_to = cases[i].id;
		err_clear(&e);
		raw = mail_compose(&o, NULL, &e);
		assert_int_equal(raw != NULL, cases[i].ok);
		free(raw);
	}
	/* 250 characters at most. */
	memset(long_id, 'a', 245);
	strcpy(long_id + 245, "@h.io");
	assert_int_equal(mail_msgid_writable(long_id), 1);
	memcpy(long_id + 245, "a@h.io", 7);
	assert_int_equal(mail_msgid_writable(long_id), 0);
}

static void
test_compose_bad_values_rejected(void **state)
{
	struct mail_out o;

	(void)state;
	base_out(&o);
	o.to = "General Howe";
	compose_refused(&o, "local@domain");
	base_out(&o);
	o.to = "Howe <howe at example.org>";
	compose_refused(&o, "local@domain");
	base_out(&o);
	o.to = "Howe <h\xC3\xB6we@example.org>";
	compose_refused(&o, "local@domain");
	base_out(&o);
	o.message_id = "has space@x";
	compose_refused(&o, "Message-ID");
	base_out(&o);
	o.subject = "bad \xC3 utf-8";
	compose_refused(&o, "UTF-8");
	base_out(&o);
	o.subject = "bell \a";
	compose_refused(&o, "control character");
	base_out(&o);
	o.body = "bad \xFF body";
	compose_refused(&o, "UTF-8");
}

/* ------------------------------------------------------------------ */
/* mail_date */

static void
test_mail_date_epoch_zero(void **state)
{
	char buf[64];

	(void)state;
	assert_ptr_equal(mail_date(0, buf, sizeof(buf)), buf);
	assert_string_equal(buf, "Thu, 01 Jan 1970 00:00:00 +0000");
}

static void
test_mail_date_before_1970(void **state)
{
	char buf[64];

	(void)state;
	/* Cowpens: 17 January 1781 was a Wednesday. */
	assert_string_equal(mail_date(-5962784400LL, buf, sizeof(buf)),
	    "Wed, 17 Jan 1781 07:00:00 +0000");
}

static void
test_mail_date_leap_day_and_2038(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(mail_date(951827696LL, buf, sizeof(buf)),
	    "Tue, 29 Feb 2000 12:34:56 +0000");
	assert_string_equal(mail_date(2147483648LL, buf, sizeof(buf)),
	    "Tue, 19 Jan 2038 03:14:08 +0000");
}

static void
test_mail_date_small_buffer_truncates(void **state)
{
	char buf[8];

	(void)state;
	assert_string_equal(mail_date(0, buf, sizeof(buf)), "Thu, 01");
}

/* ------------------------------------------------------------------ */
/* mail_compose: multipart reports, read back with libetpan's parser */

/* "type/subtype" of a parsed part, lower case, into buf. */
static const char *
part_type(const struct mailmime *m, char *buf, size_t size)
{
	const struct mailmime_content *ct = m->mm_content_type;
	const char *t = "?";

	assert_non_null(ct);
	if (ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE)
		t = ct->ct_type->tp_data.tp_composite_type->ct_type ==
		    MAILMIME_COMPOSITE_TYPE_MULTIPART ? "multipart" : "message";
	else
		switch (ct->ct_type->tp_data.tp_discrete_type->dt_type) {
		case MAILMIME_DISCRETE_TYPE_TEXT: t = "text"; break;
		case MAILMIME_DISCRETE_TYPE_IMAGE: t = "image"; break;
		case MAILMIME_DISCRETE_TYPE_APPLICATION: t = "application"; break;
		default: t = "other"; break;
		}
	snprintf(buf, size, "%s/%s", t, ct->ct_subtype);
	for (char *p = buf; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return buf;
}

/* The i-th child of a multipart. */
static struct mailmime *
child(struct mailmime *m, int i)
{
	clistiter *it = NULL;

	assert_int_equal(m->mm_type, MAILMIME_MULTIPLE);
	for (it = clist_begin(m->mm_data.mm_multipart.mm_mp_list); it != NULL;
	    it = clist_next(it), i--)
		if (i == 0)
			return clist_content(it);
	fail_msg("the multipart has no part %d", i);
	return NULL;
}

static int
nchildren(struct mailmime *m)
{
	assert_int_equal(m->mm_type, MAILMIME_MULTIPLE);
	return clist_count(m->mm_data.mm_multipart.mm_mp_list);
}

/* The decoded content of a leaf part, malloc'd, length in *n. */
static char *
decoded(struct mailmime *m, size_t *n)
{
	struct mailmime_data *d = m->mm_data.mm_single;
	size_t idx = 0;
	char *res = NULL, *out = NULL;
	size_t rlen = 0;

	assert_int_equal(m->mm_type, MAILMIME_SINGLE);
	assert_int_equal(mailmime_part_parse(d->dt_data.dt_text.dt_data,
	    d->dt_data.dt_text.dt_length, &idx, d->dt_encoding, &res, &rlen),
	    MAILIMF_NO_ERROR);
	out = malloc(rlen + 1);
	assert_non_null(out);
	memcpy(out, res, rlen);
	out[rlen] = '\0';
	mmap_string_unref(res);
	*n = rlen;
	return out;
}

static const char *
content_id(struct mailmime *m)
{
	clistiter *it = NULL;

	if (m->mm_mime_fields == NULL)
		return NULL;
	for (it = clist_begin(m->mm_mime_fields->fld_list); it != NULL;
	    it = clist_next(it)) {
		struct mailmime_field *f = clist_content(it);

		if (f->fld_type == MAILMIME_FIELD_ID)
			return f->fld_data.fld_id;
	}
	return NULL;
}

static struct mailmime *
parse_tree(const char *raw, size_t len)
{
	struct mailmime *m = NULL;
	size_t idx = 0;

	assert_int_equal(mailmime_parse(raw, len, &idx, &m), MAILIMF_NO_ERROR);
	assert_non_null(m);
	/* mailmime_parse sees the whole message as message/rfc822. */
	assert_int_equal(m->mm_type, MAILMIME_MESSAGE);
	assert_non_null(m->mm_data.mm_message.mm_msg_mime);
	return m;
}

/* Bytes of a small "PNG" with every byte value, so that base64 must
 * carry them all. */
static unsigned char fake_png[600];

static void
fill_png(void)
{
	size_t i;

	memcpy(fake_png, "\x89PNG\r\n\x1a\n", 8);
	for (i = 8; i < sizeof(fake_png); i++)
		fake_png[i] = (unsigned char)(i * 7 + 3);
}

static void
test_compose_full_report_tree_reads_back(void **state)
{
	static const char json[] = "{\"game\":\"g1\",\"turn\":3}\n";
	static const char html[] = "<html><body><p>Fran\xc3\xa7ois held "
	    "the ford.</p><img src=\"cid:map.t3@game.example\" alt=\"map\">"
	    "</body></html>\n";
	struct mail_part parts[3];
	struct mail_out o;
	struct mailmime *tree = NULL, *top = NULL, *alt = NULL, *rel = NULL;
	char *raw = NULL, *got = NULL, t[64];
	const char *cid = NULL;
	size_t len = 0, n = 0;
	struct mail_msg *msg = NULL;
	struct err e;

	(void)state;
	fill_png();
	base_out(&o);
	o.body = "From the ford: Fran\xc3\xa7ois held.\n  +--+\n  |##|\n";
	o.html = html;
	memset(parts, 0, sizeof(parts));
	parts[0] = (struct mail_part){ "image/png", "map-t3.png",
	    "map.t3@game.example", fake_png, sizeof(fake_png) };
	parts[1] = (struct mail_part){ "image/png", "map-t3.png", NULL,
	    fake_png, sizeof(fake_png) };
	parts[2] = (struct mail_part){ "application/json", "report-t3.json",
	    NULL, json, strlen(json) };
	o.parts = parts;
	o.nparts = 3;
	raw = compose_ok(&o, &len);
	assert_crlf_only(raw);
	assert_true(longest_header_line(raw) <= 78);
	assert_non_null(strstr(raw, "Content-Type: multipart/mixed;\r\n "
	    "boundary=\"=_despatch_mixed_"));

	tree = parse_tree(raw, len);
	top = tree->mm_data.mm_message.mm_msg_mime;
	assert_string_equal(part_type(top, t, sizeof(t)), "multipart/mixed");
	assert_int_equal(nchildren(top), 3);
	alt = child(top, 0);
	assert_string_equal(part_type(alt, t, sizeof(t)),
	    "multipart/alternative");
	assert_int_equal(nchildren(alt), 2);
	assert_string_equal(part_type(child(alt, 0), t, sizeof(t)),
	    "text/plain");
	got = decoded(child(alt, 0), &n);
	assert_string_equal(got, "From the ford: Fran\xc3\xa7ois held.\r\n"
	    "  +--+\r\n  |##|\r\n");
	free(got);
	rel = child(alt, 1);
	assert_string_equal(part_type(rel, t, sizeof(t)), "multipart/related");
	assert_string_equal(part_type(child(rel, 0), t, sizeof(t)),
	    "text/html");
	got = decoded(child(rel, 0), &n);
	assert_non_null(strstr(got, "cid:map.t3@game.example"));
	free(got);
	/* The image the HTML refers to is there, byte for byte. */
	cid = content_id(child(rel, 1));
	assert_non_null(cid);
	assert_string_equal(cid, "map.t3@game.example");
	got = decoded(child(rel, 1), &n);
	assert_int_equal(n, sizeof(fake_png));
	assert_memory_equal(got, fake_png, n);
	free(got);
	assert_string_equal(part_type(child(top, 1), t, sizeof(t)), "image/png");
	assert_null(content_id(child(top, 1)));
	assert_string_equal(part_type(child(top, 2), t, sizeof(t)),
	    "application/json");
	got = decoded(child(top, 2), &n);
	assert_string_equal(got, json);
	free(got);
	mailmime_free(tree);

	/* Our own reader takes the plain text, as a player's client would
	 * show it. */
	err_clear(&e);
	assert_int_equal(mail_parse(raw, len, &msg, &e), 0);
	assert_string_equal(msg->body, "From the ford: Fran\xc3\xa7ois held.\n"
	    "  +--+\n  |##|\n");
	mail_msg_free(msg);
	free(raw);
}

static void
test_compose_html_only_alternative_no_mixed(void **state)
{
	struct mail_out o;
	struct mailmime *tree = NULL, *top = NULL;
	char *raw = NULL, *again = NULL, t[64];
	size_t len = 0, len2 = 0;

	(void)state;
	base_out(&o);
	o.html = "<p>Held.</p>\n";
	raw = compose_ok(&o, &len);
	tree = parse_tree(raw, len);
	top = tree->mm_data.mm_message.mm_msg_mime;
	assert_string_equal(part_type(top, t, sizeof(t)),
	    "multipart/alternative");
	assert_int_equal(nchildren(top), 2);
	assert_string_equal(part_type(child(top, 1), t, sizeof(t)),
	    "text/html");
	mailmime_free(tree);
	/* The same message gives the same bytes: no boundary from the
	 * clock. */
	again = compose_ok(&o, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(raw, again, len);
	free(again);
	free(raw);
}

static void
test_compose_boundary_never_in_content(void **state)
{
	struct mail_out o;
	char *raw = NULL;
	const char *p = NULL;
	size_t len = 0;
	int n = 0;

	(void)state;
	base_out(&o);
	/* Text that spells a boundary of ours must not end a part. */
	o.body = "--=_despatch_alt_0000000000000000\n=_despatch\n";
	o.html = "<pre>--=_despatch_alt_0000000000000000</pre>\n";
	raw = compose_ok(&o, &len);
	for (p = raw; (p = strstr(p, "=_despatch_alt_")) != NULL; p++)
		n++;
	/* Once in the header, twice as a delimiter, once closing. */
	assert_int_equal(n, 4);
	free(raw);
}

static void
test_compose_inline_image_without_html_refused(void **state)
{
	struct mail_part part = { "image/png", "m.png", "m@x", "x", 1 };
	struct mail_out o;
	struct err e;

	(void)state;
	base_out(&o);
	o.parts = &part;
	o.nparts = 1;
	err_clear(&e);
	assert_null(mail_compose(&o, NULL, &e));
	assert_non_null(strstr(e.msg, "HTML"));
	part.cid = NULL;
	part.name = "bad\"name";
	err_clear(&e);
	assert_null(mail_compose(&o, NULL, &e));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_plain_mail_fields_and_body),
		cmocka_unit_test(test_parse_message_ids_lose_angle_brackets),
		cmocka_unit_test(test_parse_reply_to_first_mailbox),
		cmocka_unit_test(test_parse_date_kept_as_written),
		cmocka_unit_test(test_parse_quoted_printable_body_decoded),
		cmocka_unit_test(test_parse_base64_body_decoded),
		cmocka_unit_test(test_parse_latin1_body_converted_to_utf8),
		cmocka_unit_test(test_parse_missing_charset_read_as_utf8),
		cmocka_unit_test(test_parse_unknown_charset_read_as_utf8),
		cmocka_unit_test(test_parse_invalid_utf8_and_nul_replaced),
		cmocka_unit_test(test_parse_rfc2047_subject_decoded),
		cmocka_unit_test(test_parse_rfc2047_display_name_decoded),
		cmocka_unit_test(test_parse_header_line_breaks_become_spaces),
		cmocka_unit_test(test_parse_multipart_alternative_prefers_text_plain),
		cmocka_unit_test(test_parse_text_attachment_not_taken_as_body),
		cmocka_unit_test(test_parse_html_only_mail_stripped),
		cmocka_unit_test(test_parse_empty_plain_part_falls_back_to_html),
		cmocka_unit_test(test_parse_html_blockquote_lines_are_quoted),
		cmocka_unit_test(test_parse_html_entities_decoded),
		cmocka_unit_test(test_parse_crlf_becomes_lf),
		cmocka_unit_test(test_parse_format_flowed_lines_joined),
		cmocka_unit_test(test_parse_flowed_delsp_yes_deletes_the_space_before_a_soft_break),
		cmocka_unit_test(test_parse_flowed_delsp_no_or_absent_keeps_the_space),
		cmocka_unit_test(test_parse_flowed_delsp_yes_keeps_signature_and_quote_depth),
		cmocka_unit_test(test_parse_no_text_part_gives_empty_body),
		cmocka_unit_test(test_parse_missing_from_still_parses),
		cmocka_unit_test(test_parse_mbox_from_line_skipped),
		cmocka_unit_test(test_auto_submitted_header_sets_flag),
		cmocka_unit_test(test_auto_submitted_no_leaves_flag_clear),
		cmocka_unit_test(test_precedence_junk_and_auto_reply_set_flag),
		cmocka_unit_test(test_x_autoreply_and_x_autorespond_set_flag),
		cmocka_unit_test(test_list_fields_mark_list_mail),
		cmocka_unit_test(test_multipart_report_sets_flag),
		cmocka_unit_test(test_mailer_daemon_and_postmaster_set_flag),
		cmocka_unit_test(test_null_return_path_sets_flag),
		cmocka_unit_test(test_ordinary_mail_not_auto_submitted),
		cmocka_unit_test(test_parse_empty_rejected),
		cmocka_unit_test(test_parse_oversize_raw_rejected),
		cmocka_unit_test(test_parse_no_header_body_separation_rejected),
		cmocka_unit_test(test_parse_no_header_fields_rejected),
		cmocka_unit_test(test_parse_garbage_rejected_without_crash),
		cmocka_unit_test(test_parse_header_over_cap_rejected),
		cmocka_unit_test(test_parse_huge_header_rejected_before_decoding),
		cmocka_unit_test(test_parse_header_at_cap_accepted),
		cmocka_unit_test(test_parse_body_over_cap_rejected),
		cmocka_unit_test(test_parse_body_at_cap_accepted),
		cmocka_unit_test(test_parse_deep_mime_nesting_rejected),
		cmocka_unit_test(test_parse_corpus_files_without_crash),
		cmocka_unit_test(test_compose_headers_in_order_with_crlf),
		cmocka_unit_test(test_compose_leaves_out_absent_fields),
		cmocka_unit_test(test_compose_body_crlf_and_final_crlf),
		cmocka_unit_test(test_compose_non_ascii_body_quoted_printable),
		cmocka_unit_test(test_compose_long_line_quoted_printable),
		cmocka_unit_test(test_compose_998_octet_line_stays_7bit),
		cmocka_unit_test(test_compose_qp_lines_at_most_76),
		cmocka_unit_test(test_compose_non_ascii_subject_encoded),
		cmocka_unit_test(test_compose_mostly_non_ascii_subject_base64),
		cmocka_unit_test(test_compose_long_subject_folded_under_78),
		cmocka_unit_test(test_compose_long_encoded_subject_folded_under_78),
		cmocka_unit_test(test_compose_display_name_quoted_when_specials),
		cmocka_unit_test(test_compose_display_name_encoded_when_non_ascii),
		cmocka_unit_test(test_compose_round_trip_ascii),
		cmocka_unit_test(test_compose_round_trip_non_ascii),
		cmocka_unit_test(test_compose_header_injection_rejected),
		cmocka_unit_test(test_msgid_writable_is_what_compose_takes),
		cmocka_unit_test(test_compose_bad_values_rejected),
		cmocka_unit_test(test_compose_full_report_tree_reads_back),
		cmocka_unit_test(test_compose_html_only_alternative_no_mixed),
		cmocka_unit_test(test_compose_boundary_never_in_content),
		cmocka_unit_test(test_compose_inline_image_without_html_refused),
		cmocka_unit_test(test_mail_date_epoch_zero),
		cmocka_unit_test(test_mail_date_before_1970),
		cmocka_unit_test(test_mail_date_leap_day_and_2038),
		cmocka_unit_test(test_mail_date_small_buffer_truncates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
