/*
 * test_compose.c - cmocka tests for src/mail's mail_compose (header
 * order, CRLF, 7bit or quoted-printable, encoded-words, folding, header
 * injection, multipart reports read back with libetpan's MIME parser)
 * and mail_date.
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
