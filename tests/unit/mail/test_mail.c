/*
 * test_mail.c - cmocka tests for src/mail's mail_parse (RFC 5322, MIME,
 * RFC 2047, charsets, HTML-only mail, RFC 3834 auto-submitted, caps);
 * mail_compose and mail_date are test_compose.c's.
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

#include "helpers.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
