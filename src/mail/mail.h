/*
 * mail.h - reading order mails and writing report mails.
 *
 * Implements the parts of RFC 5322 (message format), RFC 2045-2047 (MIME,
 * transfer encodings, encoded-words) and RFC 3834 (Auto-Submitted) that
 * despatch needs.  Parsing uses libetpan.  Composing writes the header
 * section and the text encodings by hand (what we send must be exactly
 * what we stored, and the header rules on folding and encoded-words are
 * ours to keep); a multipart report's structure and its base64 parts
 * are written by libetpan's MIME writer.
 *
 * Mail is hostile input: every size is capped and going over a cap is an
 * error, never a silent truncation.
 */
#ifndef DESPATCH_MAIL_H
#define DESPATCH_MAIL_H

#include <stddef.h>

#include "core/err.h"

/* Caps on what we accept from outside. */
#define MAIL_RAW_MAX     (4u * 1024u * 1024u)  /* whole message */
#define MAIL_BODY_MAX    (256u * 1024u)        /* the decoded text we read */
#define MAIL_HEADER_MAX  4096u                 /* one decoded header value */

/* One parsed incoming message.  Every string is NUL-terminated UTF-8
 * owned by the struct, or NULL when the header is absent. */
struct mail_msg {
	char *message_id;     /* without the angle brackets */
	char *from_addr;      /* addr-spec of the first From mailbox */
	char *from_name;      /* its display name, decoded */
	char *reply_to;       /* addr-spec of the first Reply-To mailbox */
	char *subject;        /* decoded (RFC 2047) */
	char *in_reply_to;    /* without the angle brackets */
	char *date;           /* the Date header as written */
	char *body;           /* first text/plain part that is not an
	                       * attachment (or text/html stripped of tags
	                       * when there is no text/plain),
	                       * transfer-decoded, converted to UTF-8,
	                       * format=flowed lines joined (RFC 3676), CRLF
	                       * turned into LF */
	size_t body_len;
	int auto_submitted;   /* 1 for a machine's mail: Auto-Submitted
	                       * present and not "no" (RFC 3834),
	                       * X-Autoreply or X-Autorespond present and
	                       * not "no", Precedence junk or auto_reply,
	                       * or a delivery report (multipart/report,
	                       * From MAILER-DAEMON or postmaster,
	                       * Return-Path <>): never answered, and not
	                       * read for orders */
	int via_list;         /* 1 if it came through a mailing list:
	                       * List-Id (RFC 2919), List-Unsubscribe or
	                       * List-Post (RFC 2369), Mailing-List, or
	                       * Precedence list or bulk.  Never answered
	                       * at its From or Reply-To, which may be the
	                       * list's */
	char *list_id;        /* the List-Id (or Mailing-List) as written,
	                       * or NULL */
};

/* Parses raw (len bytes, need not be NUL-terminated).  On success returns 0
 * and *out owns a new struct mail_msg (free with mail_msg_free).  On failure
 * returns -1, *out is NULL and e says what is wrong (ERR_USER for a message
 * that cannot be read as mail, ERR_INTERNAL for allocation failure).  A
 * message without a text part parses with body "" (body_len 0). */
int mail_parse(const char *raw, size_t len, struct mail_msg **out,
    struct err *e);

void mail_msg_free(struct mail_msg *m);

/* A part of a report mail beside its text: an image the HTML shows
 * (cid set: it goes with the HTML in multipart/related and the HTML
 * refers to it as "cid:<cid>"), or an attachment (cid NULL). */
struct mail_part {
	const char *type;       /* "image/png", "image/svg+xml",
	                         * "application/json" */
	const char *name;       /* file name offered for it */
	const char *cid;        /* Content-ID without <>, or NULL */
	const void *data;
	size_t len;
};

#define MAIL_PARTS_MAX 40   /* a HISTORY digest: a map a phase, 30 */

/* An outgoing message.  All strings UTF-8; NULL means "leave it out".
 * body (and html) use LF line ends; mail_compose writes CRLF. */
struct mail_out {
	const char *from;         /* "Name <addr>" or addr */
	const char *to;           /* "Name <addr>" or addr */
	const char *reply_to;     /* "Name <addr>" or addr: where answers
	                           * should go (a player's question relayed
	                           * to the operator) */
	const char *subject;      /* encoded as RFC 2047 if not ASCII */
	const char *message_id;   /* without angle brackets */
	const char *in_reply_to;  /* without angle brackets; also References
	                           * (mail_msgid_writable must hold) */
	const char *date;         /* RFC 5322 date-time text */
	int auto_reply;           /* 1: Auto-Submitted: auto-replied,
	                           * else auto-generated */
	const char *body;
	const char *html;         /* NULL: a text/plain mail; else the body
	                           * and the HTML go as multipart/alternative */
	const struct mail_part *parts;   /* nparts of them, at most
	                                  * MAIL_PARTS_MAX */
	int nparts;
};

/* 1 if id (without angle brackets) can be written as a Message-ID or
 * In-Reply-To: 1 to 250 printable ASCII characters without spaces or
 * angle brackets; 0 if not (NULL included).  Mail from outside may carry
 * an id that is not: a reply leaves such an In-Reply-To out. */
int mail_msgid_writable(const char *id);

/* Writes m as an RFC 5322 message: CRLF line ends, MIME-Version 1.0.
 * With no html and no parts: text/plain; charset=utf-8,
 * Content-Transfer-Encoding 7bit when the body is ASCII with no line over
 * 998 octets, else quoted-printable.  Otherwise multipart/mixed (when
 * there are attachments) holding multipart/alternative (text/plain, then
 * the HTML, in multipart/related with the inline images when there are
 * any); text parts quoted-printable, the others base64.  Returns a
 * malloc'd NUL-terminated buffer (length in *len if len is not NULL), or
 * NULL with e set. */
char *mail_compose(const struct mail_out *m, size_t *len, struct err *e);

/* Where queued mail is sent (despatch.conf(5), [smtp]). */
struct mail_smtp {
	char url[512];        /* smtp[s]://host[:port] */
	char helo[128];       /* our name in EHLO: the From's domain */
	char user[512];       /* "" for no login */
	char password[512];
	char ca_file[1024];   /* "" for the system's CAs */
};

enum { MAIL_SMTP_SENT = 0, MAIL_SMTP_RETRY, MAIL_SMTP_FAILED };

/* Sends raw (len bytes, CRLF line ends) to `to` with envelope sender the
 * address of `from`.  Returns MAIL_SMTP_SENT once the server accepted it,
 * MAIL_SMTP_FAILED when it refused it for good (5xx), MAIL_SMTP_RETRY for
 * anything that may pass (4xx, no connection, TLS, login); why says what
 * happened. */
int mail_smtp_send(const struct mail_smtp *s, const char *from,
    const char *to, const char *raw, size_t len, char *why, size_t whysize);
/* A session sends several mails over one connection (one TLS handshake
 * and login, not one a mail): new (NULL when out of memory), send on it,
 * free. */
void *mail_smtp_session_new(void);
int mail_smtp_send_on(void *session, const struct mail_smtp *s,
    const char *from, const char *to, const char *raw, size_t len, char *why,
    size_t whysize);
void mail_smtp_session_free(void *session);

#define MAIL_DATE_MAX 32   /* room for any date mail_date writes */

/* Formats t (seconds since the epoch, UTC) as an RFC 5322 date-time into
 * buf ("Wed, 17 Jan 1781 07:00:00 +0000"); returns buf (left "" for a time
 * gmtime cannot represent). */
char *mail_date(long long t, char *buf, size_t size);

#endif
