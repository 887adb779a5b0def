/*
 * mail.c - reading incoming mail (see mail.h).
 *
 * Implements what despatch needs of RFC 5322 (header fields), RFC 2045
 * and 2046 (MIME structure, transfer encodings), RFC 2047 (encoded-words
 * in Subject and display names), RFC 3676 (format=flowed), RFC 3834
 * (recognising mail that must not be answered) and RFC 2369 and 2919
 * (the fields of mail that came through a list).  The parsing proper is
 * libetpan's (mailmime_parse, mailmime_part_parse,
 * mailmime_encoded_phrase_parse, charconv); this file picks out the
 * fields, chooses the text part and enforces the caps of mail.h.
 *
 * Workload: one call per delivered mail - a few a minute on a busy game,
 * each at most MAIL_RAW_MAX bytes - from the MTA pipe or a mailbox poll.
 * Every byte is hostile: sizes are checked before work is done, MIME
 * nesting is bounded before libetpan (which recurses and rescans once per
 * level) sees the message, charset names are checked before they reach
 * iconv, and every string handed back is well-formed UTF-8.
 */
#include "mail/mail.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libetpan/charconv.h>
#include <libetpan/mailimf.h>
#include <libetpan/mailmime.h>

#include "mail/text.h"

/* At most this many "multipart" / "rfc822" markers outside boundary
 * lines; every level of MIME nesting needs at least one. */
#define MAIL_NEST_MAX 32

/* A raw header value longer than this is refused before any decoding
 * work: mail encoders spend a few raw bytes per decoded byte at most
 * (Q-encoding: 3, plus the "=?charset?Q?" of each word), so it would
 * decode to more than MAIL_HEADER_MAX anyway, and decoding a few MiB of
 * words (an iconv_open each) is slow. */
#define MAIL_HEADER_RAW_MAX (16u * MAIL_HEADER_MAX)

/* The parts mail_parse may read the body from. */
struct body_pick {
	struct mailmime *plain;
	struct mailmime *html;
};

static int
oom(struct err *e)
{
	return err_set(e, ERR_INTERNAL, "out of memory while reading a mail");
}

/* Length of an mbox "From " envelope line at the start of s (an MTA
 * pipe may prepend one), else 0.  "From : x" is a header field in the
 * obsolete syntax, not an envelope line. */
static size_t
mbox_from_len(const char *s, size_t n)
{
	const char *nl = NULL;
	size_t i = 4;

	if (n < 5 || memcmp(s, "From ", 5) != 0)
		return 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == ':')
		return 0;
	nl = memchr(s, '\n', n);
	return nl == NULL ? n : (size_t)(nl - s) + 1;
}

/* 1 if s has an empty line (LF LF, LF CR LF, or one at the very start)
 * separating a header section from a body. */
static int
has_separator(const char *s, size_t n)
{
	size_t i;

	if (s[0] == '\n' || (n > 1 && s[0] == '\r' && s[1] == '\n'))
		return 1;
	for (i = 0; i + 1 < n; i++) {
		if (s[i] != '\n')
			continue;
		if (s[i + 1] == '\n')
			return 1;
		if (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n')
			return 1;
	}
	return 0;
}

/* Counts "multipart" and "rfc822" (any case) on lines that are not
 * boundary lines; stops counting past MAIL_NEST_MAX. */
static int
nest_markers(const char *s, size_t n)
{
	size_t i = 0;
	int count = 0, line_start = 1, boundary = 0;
	char c;

	for (i = 0; i < n && count <= MAIL_NEST_MAX; i++) {
		c = s[i];
		if (line_start)
			boundary = (c == '-' && i + 1 < n && s[i + 1] == '-');
		line_start = (c == '\n');
		if (boundary)
			continue;
		if ((c == 'm' || c == 'M') && n - i >= 9 &&
		    strncasecmp(s + i, "multipart", 9) == 0)
			count++;
		else if ((c == 'r' || c == 'R') && n - i >= 6 &&
		    strncasecmp(s + i, "rfc822", 6) == 0)
			count++;
	}
	return count;
}

/* Turns a raw header value into what struct mail_msg holds: unfolded,
 * RFC 2047 words decoded when decode is set (runs of white space then
 * become one space, as between the words libetpan decodes), bytes that
 * are not UTF-8 and control characters replaced, trimmed; *out is
 * malloc'd.  A value
 * over MAIL_HEADER_MAX is an ERR_USER naming the header (what). */
static int
header_text(const char *what, const char *raw, size_t n, int decode,
    char **out, struct err *e)
{
	struct mtext t;
	char *unfolded = NULL, *decoded = NULL;
	const char *src = NULL;
	size_t len = 0, srclen, idx = 0, a, z, i;
	int r, rc = -1;

	*out = NULL;
	mail_text_init(&t);
	if (n > MAIL_HEADER_RAW_MAX) {
		/* Not worth decoding: no encoding makes it small enough. */
		err_set(e, ERR_USER, "the %s header is %zu bytes long; the limit "
		    "is %u bytes once decoded", what, n, MAIL_HEADER_MAX);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (raw[i] != '\r' && raw[i] != '\n')
			mail_text_putc(&t, raw[i]);
	unfolded = mail_text_finish(&t, &len);
	if (unfolded == NULL) {
		oom(e);
		goto out;
	}
	src = unfolded;
	srclen = len;
	if (decode && len > 0) {
		r = mailmime_encoded_phrase_parse("utf-8", unfolded, len, &idx,
		    "utf-8", &decoded);
		if (r == MAILIMF_ERROR_MEMORY) {
			oom(e);
			goto out;
		}
		/* Anything libetpan did not take whole stays as written. */
		while (r == MAILIMF_NO_ERROR && idx < len &&
		    (unfolded[idx] == ' ' || unfolded[idx] == '\t'))
			idx++;
		if (r == MAILIMF_NO_ERROR && decoded != NULL && idx == len) {
			src = decoded;
			srclen = strlen(decoded);
		}
	}
	if (mail_text_put_clean(&t, src, srclen, MTEXT_CTL_SPACE) != 0) {
		oom(e);
		goto out;
	}
	if (decode) {
		/* As libetpan does between words: one space for any run. */
		for (i = 0, z = 0; i < t.len; i++)
			if (t.p[i] != ' ' || z == 0 || t.p[z - 1] != ' ')
				t.p[z++] = t.p[i];
		t.len = z;
	}
	for (a = 0; a < t.len && t.p[a] == ' '; a++)
		;
	for (z = t.len; z > a && t.p[z - 1] == ' '; z--)
		;
	if (z - a > MAIL_HEADER_MAX) {
		err_set(e, ERR_USER, "the %s header is %zu bytes long once "
		    "decoded; the limit is %u bytes", what, z - a,
		    MAIL_HEADER_MAX);
		goto out;
	}
	*out = malloc(z - a + 1);
	if (*out == NULL) {
		oom(e);
		goto out;
	}
	if (z > a)
		memcpy(*out, t.p + a, z - a);
	(*out)[z - a] = '\0';
	rc = 0;
out:
	free(unfolded);
	free(decoded);
	mail_text_free(&t);
	return rc;
}

/* header_text for a NUL-terminated libetpan string (NULL stays NULL). */
static int
header_str(const char *what, const char *s, int decode, char **out,
    struct err *e)
{
	*out = NULL;
	if (s == NULL)
		return 0;
	return header_text(what, s, strlen(s), decode, out, e);
}

/* Like header_str for a msg-id: also drops the angle brackets, which
 * libetpan leaves on when it could not parse the id. */
static int
msgid_str(const char *what, const char *s, char **out, struct err *e)
{
	char *id = NULL;
	size_t n;

	if (header_str(what, s, 0, &id, e) != 0)
		return -1;
	if (id != NULL) {
		n = strlen(id);
		if (n >= 2 && id[0] == '<' && id[n - 1] == '>') {
			memmove(id, id + 1, n - 2);
			id[n - 2] = '\0';
		}
	}
	*out = id;
	return 0;
}

/* The first non-blank token of a header value, compared case-blind. */
static int
token_is(const char *v, const char *word)
{
	size_t n = 0, w = strlen(word);

	if (v == NULL)
		return 0;
	while (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n')
		v++;
	while (v[n] != '\0' && v[n] != ' ' && v[n] != '\t' && v[n] != ';' &&
	    v[n] != '(' && v[n] != '\r' && v[n] != '\n')
		n++;
	return n == w && strncasecmp(v, word, w) == 0;
}

/* 1 for the fields autoresponders mark their mail with: Auto-Submitted
 * (RFC 3834) and the older X-Autoreply and X-Autorespond that some
 * vacation programs and hosting panels write instead. */
static int
is_auto_field(const char *name)
{
	return strcasecmp(name, "Auto-Submitted") == 0 ||
	    strcasecmp(name, "X-Autoreply") == 0 ||
	    strcasecmp(name, "X-Autorespond") == 0;
}

/* 1 for the fields a mailing list adds to what it passes on: RFC 2919's
 * List-Id, RFC 2369's List-Unsubscribe and List-Post (the others of
 * RFC 2369 never come without one of these), ezmlm's and Google
 * Groups' Mailing-List. */
static int
is_list_field(const char *name)
{
	return strcasecmp(name, "List-Id") == 0 ||
	    strcasecmp(name, "List-Unsubscribe") == 0 ||
	    strcasecmp(name, "List-Post") == 0 ||
	    strcasecmp(name, "Mailing-List") == 0;
}

/* 1 if v is "<>" give or take white space. */
static int
is_null_path(const char *v)
{
	int seen = 0;

	if (v == NULL)
		return 0;
	for (; *v != '\0'; v++) {
		if (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n')
			continue;
		if ((seen == 0 && *v == '<') || (seen == 1 && *v == '>'))
			seen++;
		else
			return 0;
	}
	return seen == 2;
}

static struct mailimf_mailbox *
first_mailbox(struct mailimf_mailbox_list *l)
{
	if (l == NULL || l->mb_list == NULL || clist_begin(l->mb_list) == NULL)
		return NULL;
	return clist_content(clist_begin(l->mb_list));
}

static struct mailimf_mailbox *
first_address(struct mailimf_address_list *l)
{
	struct mailimf_address *a = NULL;

	if (l == NULL || l->ad_list == NULL || clist_begin(l->ad_list) == NULL)
		return NULL;
	a = clist_content(clist_begin(l->ad_list));
	if (a->ad_type == MAILIMF_ADDRESS_MAILBOX)
		return a->ad_data.ad_mailbox;
	if (a->ad_type == MAILIMF_ADDRESS_GROUP && a->ad_data.ad_group != NULL)
		return first_mailbox(a->ad_data.ad_group->grp_mb_list);
	return NULL;
}

/* Fills the header part of m from libetpan's top-level fields: the
 * first of each field counts. */
static int
read_fields(struct mailimf_fields *f, struct mail_msg *m, struct err *e)
{
	clistiter *it = NULL;
	struct mailimf_field *fl = NULL;
	struct mailimf_mailbox *mb = NULL;
	struct mailimf_optional_field *opt = NULL;
	int have_from = 0, have_reply = 0, have_list_id = 0;

	for (it = clist_begin(f->fld_list); it != NULL; it = clist_next(it)) {
		fl = clist_content(it);
		switch (fl->fld_type) {
		case MAILIMF_FIELD_RETURN_PATH:
			if (fl->fld_data.fld_return_path->ret_path == NULL ||
			    fl->fld_data.fld_return_path->ret_path->pt_addr_spec
			    == NULL ||
			    fl->fld_data.fld_return_path->ret_path->pt_addr_spec[0]
			    == '\0')
				m->auto_submitted = 1;
			break;
		case MAILIMF_FIELD_FROM:
			if (have_from++)
				break;
			mb = first_mailbox(fl->fld_data.fld_from->frm_mb_list);
			if (mb == NULL)
				break;
			if (header_str("From", mb->mb_addr_spec, 0,
			    &m->from_addr, e) != 0 ||
			    header_str("From", mb->mb_display_name, 1,
			    &m->from_name, e) != 0)
				return -1;
			break;
		case MAILIMF_FIELD_REPLY_TO:
			if (have_reply++)
				break;
			mb = first_address(fl->fld_data.fld_reply_to->rt_addr_list);
			if (mb != NULL && header_str("Reply-To", mb->mb_addr_spec,
			    0, &m->reply_to, e) != 0)
				return -1;
			break;
		case MAILIMF_FIELD_SUBJECT:
			if (m->subject == NULL && header_str("Subject",
			    fl->fld_data.fld_subject->sbj_value, 1, &m->subject,
			    e) != 0)
				return -1;
			break;
		case MAILIMF_FIELD_MESSAGE_ID:
			if (m->message_id == NULL && msgid_str("Message-ID",
			    fl->fld_data.fld_message_id->mid_value,
			    &m->message_id, e) != 0)
				return -1;
			break;
		case MAILIMF_FIELD_IN_REPLY_TO:
			if (m->in_reply_to != NULL ||
			    fl->fld_data.fld_in_reply_to->mid_list == NULL ||
			    clist_begin(fl->fld_data.fld_in_reply_to->mid_list)
			    == NULL)
				break;
			if (msgid_str("In-Reply-To", clist_content(clist_begin(
			    fl->fld_data.fld_in_reply_to->mid_list)),
			    &m->in_reply_to, e) != 0)
				return -1;
			break;
		case MAILIMF_FIELD_OPTIONAL_FIELD:
			opt = fl->fld_data.fld_optional_field;
			if (opt->fld_name == NULL)
				break;
			if (is_auto_field(opt->fld_name)) {
				if (!token_is(opt->fld_value, "no"))
					m->auto_submitted = 1;
			} else if (strcasecmp(opt->fld_name, "Precedence") == 0) {
				if (token_is(opt->fld_value, "junk") ||
				    token_is(opt->fld_value, "auto_reply"))
					m->auto_submitted = 1;
				else if (token_is(opt->fld_value, "bulk") ||
				    token_is(opt->fld_value, "list"))
					m->via_list = 1;
			} else if (is_list_field(opt->fld_name)) {
				int id = strcasecmp(opt->fld_name, "List-Id") == 0;

				m->via_list = 1;
				/* The (first) List-Id names the list; a
				 * Mailing-List value only where there is none. */
				if (id ? have_list_id++ == 0 : m->list_id == NULL &&
				    strcasecmp(opt->fld_name, "Mailing-List") == 0) {
					free(m->list_id);
					m->list_id = NULL;
					if (header_str(opt->fld_name, opt->fld_value, 1,
					    &m->list_id, e) != 0)
						return -1;
				}
			} else if (strcasecmp(opt->fld_name, "Return-Path") == 0) {
				if (is_null_path(opt->fld_value))
					m->auto_submitted = 1;
			} else if (strcasecmp(opt->fld_name, "Message-ID") == 0) {
				/* libetpan could not parse it: keep it as written */
				if (m->message_id == NULL && msgid_str("Message-ID",
				    opt->fld_value, &m->message_id, e) != 0)
					return -1;
			} else if (strcasecmp(opt->fld_name, "In-Reply-To") == 0) {
				if (m->in_reply_to == NULL && msgid_str(
				    "In-Reply-To", opt->fld_value,
				    &m->in_reply_to, e) != 0)
					return -1;
			}
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Finds the first field called name in the header section s[0..n) and
 * gives its raw value (continuation lines included). */
static int
raw_header(const char *s, size_t n, const char *name, const char **val,
    size_t *vlen)
{
	size_t i = 0, j, eol, end, nl = strlen(name);
	const char *p = NULL;

	while (i < n) {
		p = memchr(s + i, '\n', n - i);
		eol = p == NULL ? n : (size_t)(p - s);
		if (eol - i > nl && strncasecmp(s + i, name, nl) == 0) {
			for (j = i + nl; j < eol && (s[j] == ' ' || s[j] == '\t');
			    j++)
				;
			if (j < eol && s[j] == ':') {
				end = eol;
				while (end + 1 < n &&
				    (s[end + 1] == ' ' || s[end + 1] == '\t')) {
					p = memchr(s + end + 1, '\n', n - end - 1);
					end = p == NULL ? n : (size_t)(p - s);
				}
				*val = s + j + 1;
				*vlen = end - j - 1;
				return 1;
			}
		}
		i = eol + 1;
	}
	return 0;
}

static const char *
content_param(struct mailmime_content *ct, const char *name)
{
	clistiter *it = NULL;
	struct mailmime_parameter *pa = NULL;

	if (ct == NULL || ct->ct_parameters == NULL)
		return NULL;
	for (it = clist_begin(ct->ct_parameters); it != NULL;
	    it = clist_next(it)) {
		pa = clist_content(it);
		if (pa->pa_name != NULL && pa->pa_value != NULL &&
		    strcasecmp(pa->pa_name, name) == 0)
			return pa->pa_value;
	}
	return NULL;
}

/* 1 if ct is text/<sub>; a part without Content-Type is text/plain. */
static int
is_text(struct mailmime_content *ct, const char *sub)
{
	if (ct == NULL)
		return strcmp(sub, "plain") == 0;
	return ct->ct_type != NULL &&
	    ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE &&
	    ct->ct_type->tp_data.tp_discrete_type != NULL &&
	    ct->ct_type->tp_data.tp_discrete_type->dt_type ==
	    MAILMIME_DISCRETE_TYPE_TEXT &&
	    ct->ct_subtype != NULL && strcasecmp(ct->ct_subtype, sub) == 0;
}

static int
is_multipart(struct mailmime_content *ct, const char *sub)
{
	return ct != NULL && ct->ct_type != NULL &&
	    ct->ct_type->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE &&
	    ct->ct_type->tp_data.tp_composite_type != NULL &&
	    ct->ct_type->tp_data.tp_composite_type->ct_type ==
	    MAILMIME_COMPOSITE_TYPE_MULTIPART &&
	    ct->ct_subtype != NULL && strcasecmp(ct->ct_subtype, sub) == 0;
}

/* The part's MIME field of the given type, or NULL. */
static struct mailmime_field *
mime_field(struct mailmime *mm, int type)
{
	clistiter *it = NULL;
	struct mailmime_field *f = NULL;

	if (mm->mm_mime_fields == NULL || mm->mm_mime_fields->fld_list == NULL)
		return NULL;
	for (it = clist_begin(mm->mm_mime_fields->fld_list); it != NULL;
	    it = clist_next(it)) {
		f = clist_content(it);
		if (f->fld_type == type)
			return f;
	}
	return NULL;
}

static int
is_attachment(struct mailmime *mm)
{
	struct mailmime_field *f = mime_field(mm, MAILMIME_FIELD_DISPOSITION);

	return f != NULL && f->fld_data.fld_disposition != NULL &&
	    f->fld_data.fld_disposition->dsp_type != NULL &&
	    f->fld_data.fld_disposition->dsp_type->dsp_type ==
	    MAILMIME_DISPOSITION_TYPE_ATTACHMENT;
}

static int
part_encoding(struct mailmime *mm)
{
	struct mailmime_field *f =
	    mime_field(mm, MAILMIME_FIELD_TRANSFER_ENCODING);

	if (f == NULL || f->fld_data.fld_encoding == NULL)
		return MAILMIME_MECHANISM_8BIT;
	return f->fld_data.fld_encoding->enc_type;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; s != NULL && i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* Walks the MIME tree for the first inline text/plain part and the
 * first inline text/html part.  Messages attached inside the mail
 * (message/rfc822) are not the sender's words and are not entered. */
static void
walk(struct mailmime *mm, int depth, struct body_pick *pick)
{
	clistiter *it = NULL;

	if (mm == NULL || (pick->plain != NULL && pick->html != NULL) ||
	    depth > 2 * MAIL_NEST_MAX + 2)
		return;
	switch (mm->mm_type) {
	case MAILMIME_SINGLE:
		if (is_attachment(mm))
			break;
		if (pick->plain == NULL && is_text(mm->mm_content_type, "plain"))
			pick->plain = mm;
		else if (pick->html == NULL &&
		    is_text(mm->mm_content_type, "html"))
			pick->html = mm;
		break;
	case MAILMIME_MULTIPLE:
		if (mm->mm_data.mm_multipart.mm_mp_list == NULL)
			break;
		for (it = clist_begin(mm->mm_data.mm_multipart.mm_mp_list);
		    it != NULL; it = clist_next(it))
			walk(clist_content(it), depth + 1, pick);
		break;
	case MAILMIME_MESSAGE:
		if (depth == 0)
			walk(mm->mm_data.mm_message.mm_msg_mime, 1, pick);
		break;
	default:
		break;
	}
}

/* 1 for the charsets read as UTF-8 without iconv: none given, US-ASCII
 * (8-bit bytes in such mail are nearly always UTF-8), UTF-8. */
static int
charset_is_utf8(const char *cs)
{
	return cs == NULL || cs[0] == '\0' || strcasecmp(cs, "us-ascii") == 0 ||
	    strcasecmp(cs, "ascii") == 0 || strcasecmp(cs, "utf-8") == 0 ||
	    strcasecmp(cs, "utf8") == 0;
}

/* 1 if cs looks like a charset name and may be handed to iconv. */
static int
charset_is_sane(const char *cs)
{
	size_t i;

	for (i = 0; cs[i] != '\0'; i++) {
		if (i >= 40)
			return 0;
		if (!((cs[i] >= 'a' && cs[i] <= 'z') ||
		    (cs[i] >= 'A' && cs[i] <= 'Z') ||
		    (cs[i] >= '0' && cs[i] <= '9') ||
		    cs[i] == '-' || cs[i] == '_' || cs[i] == '.' || cs[i] == ':'))
			return 0;
	}
	return i > 0;
}

/* Appends the UTF-8 form of text[0..n) in charset cs (quotes around
 * the name allowed).  An unknown charset is read as UTF-8, with what is
 * not UTF-8 replaced, rather than losing the mail. */
static int
to_utf8(struct mtext *out, const char *cs_raw, const char *text, size_t n,
    struct err *e)
{
	char cs[64];
	char *conv = NULL;
	size_t convlen = 0, k;
	int r;

	cs[0] = '\0';
	if (cs_raw != NULL) {
		k = strlen(cs_raw);
		if (k >= 2 && cs_raw[0] == '"' && cs_raw[k - 1] == '"') {
			cs_raw++;
			k -= 2;
		}
		if (k >= sizeof(cs))
			k = 0;      /* no real charset has such a name */
		memcpy(cs, cs_raw, k);
		cs[k] = '\0';
	}
	if (charset_is_utf8(cs) || !charset_is_sane(cs))
		r = MAIL_CHARCONV_ERROR_UNKNOWN_CHARSET;
	else
		r = charconv_buffer("utf-8", cs, text, n, &conv, &convlen);
	switch (r) {
	case MAIL_CHARCONV_NO_ERROR:
		r = mail_text_put_clean(out, conv, convlen, MTEXT_KEEP_CTL);
		charconv_buffer_free(conv);
		return r != 0 ? oom(e) : 0;
	case MAIL_CHARCONV_ERROR_UNKNOWN_CHARSET:
		if (mail_text_put_clean(out, text, n, MTEXT_KEEP_CTL) != 0)
			return oom(e);
		return 0;
	case MAIL_CHARCONV_ERROR_MEMORY:
		return oom(e);
	default:
		return err_set(e, ERR_USER, "the text of the mail cannot be "
		    "converted from charset %s to UTF-8", cs);
	}
}

/* Sets m->body from the chosen part: transfer-decoded, converted to
 * UTF-8, LF line ends, then HTML stripped or format=flowed unwrapped. */
static int
read_body(struct mailmime *part, int html, struct mail_msg *m,
    struct err *e)
{
	struct mailmime_data *d = part->mm_data.mm_single;
	struct mailmime_content *ct = part->mm_content_type;
	struct mtext utf, lf, out;
	const char *fmt = NULL, *delsp = NULL;
	char *dec = NULL;
	size_t declen = 0, idx = 0;
	int r, rc = -1;

	mail_text_init(&utf);
	mail_text_init(&lf);
	mail_text_init(&out);
	if (d == NULL || d->dt_type != MAILMIME_DATA_TEXT ||
	    d->dt_data.dt_text.dt_data == NULL) {
		rc = 0;
		goto out;
	}
	r = mailmime_part_parse(d->dt_data.dt_text.dt_data,
	    d->dt_data.dt_text.dt_length, &idx, part_encoding(part), &dec,
	    &declen);
	if (r == MAILIMF_ERROR_MEMORY) {
		oom(e);
		goto out;
	}
	if (r != MAILIMF_NO_ERROR) {
		err_set(e, ERR_USER, "the text of the mail cannot be decoded "
		    "from its Content-Transfer-Encoding");
		goto out;
	}
	if (declen > MAIL_BODY_MAX) {
		err_set(e, ERR_USER, "the text of the mail is %zu bytes long; "
		    "the limit is %u bytes", declen, MAIL_BODY_MAX);
		goto out;
	}
	if (to_utf8(&utf, content_param(ct, "charset"), dec, declen, e) != 0)
		goto out;
	if (mail_text_put_lf(&lf, utf.p == NULL ? "" : utf.p, utf.len) != 0) {
		oom(e);
		goto out;
	}
	fmt = content_param(ct, "format");
	delsp = content_param(ct, "delsp");
	if (html)
		r = mail_text_html_to_text(&out, lf.p == NULL ? "" : lf.p,
		    lf.len);
	else if (fmt != NULL && strcasecmp(fmt, "flowed") == 0)
		r = mail_text_unflow(&out, lf.p == NULL ? "" : lf.p, lf.len,
		    delsp != NULL && strcasecmp(delsp, "yes") == 0);
	else
		r = mail_text_put(&out, lf.p == NULL ? "" : lf.p, lf.len);
	if (r != 0) {
		oom(e);
		goto out;
	}
	if (out.len > MAIL_BODY_MAX) {
		err_set(e, ERR_USER, "the text of the mail is %zu bytes long "
		    "once converted to UTF-8; the limit is %u bytes", out.len,
		    MAIL_BODY_MAX);
		goto out;
	}
	free(m->body);
	m->body = mail_text_finish(&out, &m->body_len);
	if (m->body == NULL) {
		oom(e);
		goto out;
	}
	rc = 0;
out:
	if (dec != NULL)
		mailmime_decoded_part_free(dec);
	mail_text_free(&utf);
	mail_text_free(&lf);
	mail_text_free(&out);
	return rc;
}

/* 1 if addr's local part is one of the names bounces come from. */
static int
is_daemon(const char *addr)
{
	const char *at = NULL;
	size_t n;

	if (addr == NULL)
		return 0;
	at = strrchr(addr, '@');
	n = at == NULL ? strlen(addr) : (size_t)(at - addr);
	return (n == 13 && strncasecmp(addr, "mailer-daemon", 13) == 0) ||
	    (n == 10 && strncasecmp(addr, "postmaster", 10) == 0);
}

/*
 * Contract (mail.h): parses raw[0..len) into a new struct mail_msg.
 * ERR_USER when the input is empty, over MAIL_RAW_MAX, has no blank line
 * after a header section, has no header field libetpan recognises, nests
 * MIME deeper than MAIL_NEST_MAX markers allow, or when a header we keep
 * is over MAIL_HEADER_MAX or the text over MAIL_BODY_MAX once decoded.
 * A leading mbox "From " line is skipped.  A missing From leaves
 * from_addr NULL; no text part leaves body "".
 */
int
mail_parse(const char *raw, size_t len, struct mail_msg **out,
    struct err *e)
{
	struct mailmime *mime = NULL, *top = NULL;
	struct mailimf_fields *fields = NULL;
	struct mail_msg *m = NULL;
	struct body_pick pick = { NULL, NULL };
	const char *val = NULL;
	char *buf = NULL;
	size_t skip, idx = 0, hdr_end, vlen = 0;
	int r, rc = -1;

	if (out == NULL)
		return err_set(e, ERR_INTERNAL, "mail_parse: out is NULL");
	*out = NULL;
	if (raw == NULL || len == 0) {
		err_set(e, ERR_USER, "the mail is empty");
		goto out;
	}
	if (len > MAIL_RAW_MAX) {
		/* Callers may have read only the limit and a byte past it. */
		err_set(e, ERR_USER, "the mail is longer than the limit of %u "
		    "bytes", MAIL_RAW_MAX);
		goto out;
	}
	skip = mbox_from_len(raw, len);
	raw += skip;
	len -= skip;
	if (len == 0) {
		err_set(e, ERR_USER, "the mail is empty");
		goto out;
	}
	if (!has_separator(raw, len)) {
		err_set(e, ERR_USER, "the mail has no empty line between header "
		    "and body, so it is not an RFC 5322 message");
		goto out;
	}
	if (nest_markers(raw, len) > MAIL_NEST_MAX) {
		err_set(e, ERR_USER, "the mail has more than %d multipart or "
		    "message/rfc822 markers; MIME nested that deep is not read",
		    MAIL_NEST_MAX);
		goto out;
	}
	/* libetpan keeps pointers into buf: it lives until mime is freed. */
	buf = malloc(len + 1);
	if (buf == NULL) {
		oom(e);
		goto out;
	}
	memcpy(buf, raw, len);
	buf[len] = '\0';
	r = mailmime_parse(buf, len, &idx, &mime);
	if (r == MAILIMF_ERROR_MEMORY) {
		oom(e);
		goto out;
	}
	if (r != MAILIMF_NO_ERROR || mime == NULL ||
	    mime->mm_type != MAILMIME_MESSAGE) {
		err_set(e, ERR_USER, "the mail cannot be parsed as an RFC 5322 "
		    "message (libetpan error %d)", r);
		goto out;
	}
	fields = mime->mm_data.mm_message.mm_fields;
	if (fields == NULL || fields->fld_list == NULL ||
	    clist_count(fields->fld_list) == 0) {
		err_set(e, ERR_USER, "the mail has no header fields: it should "
		    "start with lines such as \"From: ...\" and \"Subject: ...\"");
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		oom(e);
		goto out;
	}
	if (read_fields(fields, m, e) != 0)
		goto out;

	/* The Date as written: from the header section libetpan read. */
	top = mime->mm_data.mm_message.mm_msg_mime;
	hdr_end = len;
	if (top != NULL && top->mm_body != NULL &&
	    top->mm_body->dt_type == MAILMIME_DATA_TEXT &&
	    top->mm_body->dt_data.dt_text.dt_data >= buf &&
	    top->mm_body->dt_data.dt_text.dt_data <= buf + len)
		hdr_end = (size_t)(top->mm_body->dt_data.dt_text.dt_data - buf);
	if (raw_header(buf, hdr_end, "Date", &val, &vlen) &&
	    header_text("Date", val, vlen, 0, &m->date, e) != 0)
		goto out;

	if (top != NULL && is_multipart(top->mm_content_type, "report"))
		m->auto_submitted = 1;
	if (is_daemon(m->from_addr))
		m->auto_submitted = 1;

	walk(mime, 0, &pick);
	if (pick.plain != NULL)
		r = read_body(pick.plain, 0, m, e);
	else if (pick.html != NULL)
		r = read_body(pick.html, 1, m, e);
	else
		r = 0;
	if (r != 0)
		goto out;
	/* An empty text part beside an HTML one (some clients send that):
	 * the words are in the HTML. */
	if (pick.plain != NULL && pick.html != NULL && blank(m->body, m->body_len)) {
		free(m->body);
		m->body = NULL;
		m->body_len = 0;
		if (read_body(pick.html, 1, m, e) != 0)
			goto out;
	}
	if (m->body == NULL) {
		m->body = calloc(1, 1);
		m->body_len = 0;
		if (m->body == NULL) {
			oom(e);
			goto out;
		}
	}
	*out = m;
	m = NULL;
	rc = 0;
out:
	mail_msg_free(m);
	if (mime != NULL)
		mailmime_free(mime);
	free(buf);
	return rc;
}

/* Contract (mail.h): frees m and every string in it; NULL is allowed. */
void
mail_msg_free(struct mail_msg *m)
{
	if (m == NULL)
		return;
	free(m->message_id);
	free(m->from_addr);
	free(m->from_name);
	free(m->reply_to);
	free(m->subject);
	free(m->in_reply_to);
	free(m->list_id);
	free(m->date);
	free(m->body);
	free(m);
}
