/*
 * fuzz_mail.c - libFuzzer target for mail_parse (and, on what parses,
 * mail_compose).
 *
 * Not built by default.  By hand, from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -std=c17 \
 *     -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc \
 *     src/core/err.c src/mail/mail.c src/mail/compose.c \
 *     src/mail/text.c tests/fuzz/fuzz_mail.c -letpan -o /tmp/fuzz_mail
 *   /tmp/fuzz_mail -max_len=65536 tests/fuzz/corpus/mail
 *
 * (give it a scratch directory first if new inputs should not be
 * written into the corpus).  Besides memory errors it checks what
 * mail.h promises of a parsed mail - every string UTF-8, body_len the
 * body's length, no header over MAIL_HEADER_MAX - and that the subject
 * and body of any mail it could read go out through mail_compose and
 * come back unchanged.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "mail/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_str(const char *s, int is_header)
{
	if (s == NULL)
		return;
	if (!mail_text_utf8_valid(s, strlen(s)))
		abort();
	if (is_header && (strlen(s) > MAIL_HEADER_MAX || strpbrk(s, "\r\n")))
		abort();
}

/* compose(subject, body) then parse must give them back (the body
 * gains a final newline if it had none). */
static void
round_trip(const struct mail_msg *m)
{
	struct mail_out o;
	struct mail_msg *back = NULL;
	struct err e;
	char *raw = NULL;
	size_t len = 0, n = m->body_len;

	memset(&o, 0, sizeof(o));
	o.from = "Referee <referee@game.example>";
	o.to = "player@example.org";
	o.subject = m->subject;
	o.message_id = "fuzz@game.example";
	o.body = m->body;
	raw = mail_compose(&o, &len, &e);
	if (raw == NULL)
		abort();
	if (mail_parse(raw, len, &back, &e) != 0)
		abort();
	if ((m->subject == NULL) != (back->subject == NULL) ||
	    (m->subject != NULL && strcmp(m->subject, back->subject) != 0))
		abort();
	if (n > 0 && m->body[n - 1] != '\n') {
		if (back->body_len != n + 1 || back->body[n] != '\n')
			abort();
	} else if (back->body_len != n) {
		abort();
	}
	if (memcmp(back->body, m->body, n) != 0)
		abort();
	mail_msg_free(back);
	free(raw);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_msg *m = NULL;
	struct err e;

	if (mail_parse((const char *)data, size, &m, &e) != 0) {
		if (m != NULL || (e.kind != ERR_USER && e.kind != ERR_INTERNAL))
			abort();
		return 0;
	}
	check_str(m->message_id, 1);
	check_str(m->from_addr, 1);
	check_str(m->from_name, 1);
	check_str(m->reply_to, 1);
	check_str(m->subject, 1);
	check_str(m->in_reply_to, 1);
	check_str(m->date, 1);
	check_str(m->body, 0);
	if (m->body == NULL || strlen(m->body) != m->body_len ||
	    m->body_len > MAIL_BODY_MAX)
		abort();
	round_trip(m);
	mail_msg_free(m);
	return 0;
}
