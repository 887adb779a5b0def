/*
 * text.h - text helpers private to the mail module: a growing byte
 * buffer, UTF-8 checking and repair, HTML to plain text, and RFC 3676
 * format=flowed unwrapping.  Nothing outside src/mail/ includes this.
 *
 * Inputs are bounded by the caps in mail.h (a few hundred KiB at most),
 * so every function here is a single linear pass.
 */
#ifndef DESPATCH_MAIL_TEXT_H
#define DESPATCH_MAIL_TEXT_H

#include <stddef.h>

/* A growing, NUL-terminated byte buffer.  After an allocation failure
 * every further call does nothing and returns -1, so a run of appends
 * needs one check at the end (mail_text_finish). */
struct mtext {
	char *p;
	size_t len;
	size_t cap;
	int failed;
};

void mail_text_init(struct mtext *b);

/* Appends n bytes of s; returns 0, or -1 once an allocation has failed. */
int mail_text_put(struct mtext *b, const char *s, size_t n);
int mail_text_putc(struct mtext *b, char c);
int mail_text_puts(struct mtext *b, const char *s);

/* Appends the UTF-8 encoding of code point cp (U+FFFD when cp is not a
 * Unicode scalar value or is 0). */
int mail_text_put_cp(struct mtext *b, unsigned long cp);

/* Hands over the buffer (NUL-terminated, length in *len if len is not
 * NULL) and leaves b empty; NULL if an allocation failed (b is freed). */
char *mail_text_finish(struct mtext *b, size_t *len);

void mail_text_free(struct mtext *b);

/* Length of the well-formed UTF-8 sequence at s (n bytes available), or
 * 0 if there is none (RFC 3629: no overlongs, surrogates or > U+10FFFF). */
size_t mail_text_utf8_seq(const char *s, size_t n);

/* 1 if s[0..n) is well-formed UTF-8 without NUL bytes, else 0. */
int mail_text_utf8_valid(const char *s, size_t n);

/* How mail_text_put_clean treats control characters. */
enum mtext_ctl {
	MTEXT_KEEP_CTL,   /* body text: keep them (NUL still replaced) */
	MTEXT_CTL_SPACE   /* header text: every C0 control and DEL -> ' ' */
};

/* Appends s[0..n) with each byte that is not part of well-formed UTF-8,
 * and each NUL, replaced by U+FFFD. */
int mail_text_put_clean(struct mtext *b, const char *s, size_t n,
    enum mtext_ctl ctl);

/* Appends s[0..n) with CRLF and lone CR turned into LF. */
int mail_text_put_lf(struct mtext *b, const char *s, size_t n);

/* Appends the text of the HTML in s[0..n) (UTF-8, LF line ends): tags
 * dropped, script/style/head content dropped, runs of white space
 * collapsed (except inside <pre>), <br> and the ends of block elements
 * (</p>, </div>, </li>, ...) turned into newlines, and the entities
 * &amp; &lt; &gt; &quot; &apos; &nbsp; &#N; &#xH; decoded. */
int mail_text_html_to_text(struct mtext *b, const char *s, size_t n);

/* Appends s[0..n) (LF line ends) with RFC 3676 format=flowed lines
 * joined: space-stuffing removed, a line ending in a space joined to
 * the next line of the same quote depth (its trailing space dropped
 * when delsp is set), the signature separator "-- " left alone. */
int mail_text_unflow(struct mtext *b, const char *s, size_t n, int delsp);

#endif
