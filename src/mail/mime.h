/*
 * mime.h - the multipart body of a report mail; private to src/mail/.
 */
#ifndef DESPATCH_MAIL_MIME_H
#define DESPATCH_MAIL_MIME_H

#include <stddef.h>

#include "core/err.h"
#include "mail/mail.h"
#include "mail/text.h"

/* Writes m's body as a MIME tree (see mail_compose in mail.h): appends
 * the value of its top Content-Type header (folded with CRLF SP, without
 * the field name and the final CRLF) to ctype and the body (CRLF line
 * ends) to body.  text[0..tlen) is the plain text, LF line ends, UTF-8
 * already checked.  m->html must be set or m->parts hold an attachment.
 * Returns 0, or -1 with e set. */
int mail_mime_body(const struct mail_out *m, const char *text, size_t tlen,
    struct mtext *ctype, struct mtext *body, struct err *e);

/* RFC 2045 quoted-printable of s[0..n) (LF line ends) appended to b:
 * CRLF line ends, lines of at most 76 characters with soft breaks,
 * white space before a line end and "From " at a line's start encoded,
 * '=' always encoded (so "=_" never occurs in the output). */
void mail_put_qp(struct mtext *b, const char *s, size_t n);

#endif
